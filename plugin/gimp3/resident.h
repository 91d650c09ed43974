/* SPDX-License-Identifier: GPL-3.0-or-later */
/* resident.h — the GIMP 3 plug-in's resident process: one process per
 * run of GIMP that serves scripts' calls, so a call costs its pixels and
 * not a process start (0.1-0.5 s per process against GIMP's own few
 * ms).  The GIMP 2.10 host has the same (plugin/gimp2/resident.h).
 *
 * GIMP starts every persistent procedure that takes no arguments when it
 * starts, and waits for it to be ready; core_proc_resident is one.  Its
 * run makes the plug-in's other procedures again as temporary procedures
 * of the same names (the host's own registration, `temporary` TRUE: no
 * menu entries, the run functions below wrapped around the host's),
 * says it is ready at once — GEGL and the engine start at the first
 * call, so GIMP starts about as fast (one small process start,
 * BENCHMARKS.md) — and serves until GIMP quits.  GIMP's PDB keeps the
 * procedures of one name newest first and runs the next when one returns
 * GIMP_PDB_PASS_THROUGH (app/pdb/gimppdb.c), and menu entries hold the
 * plug-in procedure itself:
 *
 *   - a call by name with RUN-NONINTERACTIVE is answered here, by the
 *     host's own run function; an engine with a GPU (or starting one under
 *     AUTO) is kept from call to call, one on the CPU goes after its
 *     call, as in a process of its own;
 *   - every other run mode (dialogs, repeats), a call arriving while one
 *     is running, and all calls when GPU_HISTOGRAM_RESIDENT=0, pass
 *     through to the plug-in procedure: a new process, as without the
 *     resident;
 *   - if the resident dies, GIMP removes its temporary procedures and the
 *     plug-in procedures answer again.
 * GPU_HISTOGRAM_RESIDENT=trace says on stderr which calls it served.
 *
 *   query_procedures:  ... + core_proc_resident
 *   create_procedure:  resident_is (name) ? resident_procedure_new (...)
 *                      : procedure_new (plug_in, name, FALSE)
 *   procedure_new (…, TRUE) makes them with resident_image_procedure_new
 *                      or resident_plain_procedure_new
 *   end of a call:     if (! resident_serving ()) destroy the engine
 *   quit:              resident_quit
 */
#ifndef GH_GIMP3_RESIDENT_H
#define GH_GIMP3_RESIDENT_H

#include <libgimp/gimp.h>

#include "gpu_histogram.h"
#include "core/procedures.h"

/* The host's registration of procedure `name`, as a temporary procedure
 * when `temporary`. */
typedef GimpProcedure *(*ResidentProcedureNew) (GimpPlugIn  *plug_in,
                                                const gchar *name,
                                                gboolean     temporary);

/* Whether `name` is core_proc_resident. */
gboolean resident_is (const gchar *name);

/* core_proc_resident.  Its run makes every other procedure the plug-in
 * lists (query_procedures) with `procedure_new` as a temporary one, and
 * keeps *engine (the host's) between calls while it has a GPU. */
GimpProcedure *resident_procedure_new (GimpPlugIn          *plug_in,
                                       ResidentProcedureNew procedure_new,
                                       gh_engine          **engine);

/* A temporary image procedure whose run is `run` (given `run_data`)
 * behind the resident's rules; as gimp_image_procedure_new otherwise. */
GimpProcedure *resident_image_procedure_new (GimpPlugIn      *plug_in,
                                             const gchar     *name,
                                             GimpRunImageFunc run,
                                             gpointer         run_data);

/* The same for a procedure without an image (the batch). */
GimpProcedure *resident_plain_procedure_new (GimpPlugIn  *plug_in,
                                             const gchar *name,
                                             GimpRunFunc  run);

/* Whether this process is the resident one (it decides when the engine
 * goes). */
gboolean resident_serving (void);

/* GimpPlugInClass.quit: the resident leaves at once (GIMP kills it 10 ms
 * after asking anyway), without exit handlers that could meet a GPU start
 * in flight (gpu/run/engine.c). */
void resident_quit (GimpPlugIn *plug_in);

#endif
