/* SPDX-License-Identifier: GPL-3.0-or-later */
/* resident.h — the GIMP 2.10 plug-in's resident process: one process per
 * run of GIMP that serves scripts' calls, so a call costs its pixels and
 * not a process start (~0.27 s of babl and GEGL start-up per process
 * against GIMP's own 5-50 ms).
 *
 * GIMP starts every extension procedure that takes no arguments when it
 * starts, and waits for its ack; core_proc_resident is one.  Its run
 * installs the plug-in's procedures again as temporary procedures of the
 * same names (the host's own registration, without menu entries), acks at
 * once — GEGL and the engine start at the first call, so GIMP starts
 * about as fast (one small process start, BENCHMARKS.md) — and serves
 * until GIMP quits.  GIMP's PDB keeps the procedures of one name newest
 * first and runs the next when one returns GIMP_PDB_PASS_THROUGH
 * (app/pdb/gimppdb.c), and menu entries hold the plug-in procedure itself:
 *
 *   - a call by name with RUN-NONINTERACTIVE is answered here, by the
 *     host's own run; an engine with a GPU (or starting one under
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
 *   query ():  ... install the procedures ...  resident_install ();
 *   run ():    if (resident_is (name)) resident_serve (&hooks, ...);
 *              else one call (hooks.run), then destroy the engine
 *   quit ():   resident_quit ();
 */
#ifndef GH_GIMP2_RESIDENT_H
#define GH_GIMP2_RESIDENT_H

#include <libgimp/gimp.h>

#include "gpu_histogram.h"
#include "procedures.h"

typedef struct
{
  /* Installs the plug-in's procedures as temporary procedures whose run
   * is `run` (resident_run). */
  void (*install_temporary) (GimpRunProc run);
  /* What the host starts once per process before its first call. */
  void (*start) (void);
  /* One call, as the plug-in procedure makes it (its engine left). */
  GimpRunProc run;
  /* The host's engine: kept between calls while it has a GPU. */
  gh_engine **engine;
} ResidentHooks;

/* Registers core_proc_resident (in query). */
void resident_install (void);

/* Whether `name` is core_proc_resident. */
gboolean resident_is (const gchar *name);

/* core_proc_resident's run: serves until GIMP quits; returns (its
 * values set) only when GPU_HISTOGRAM_RESIDENT=0 switches it off. */
void resident_serve (const ResidentHooks *hooks, gint *nreturn_vals,
                     GimpParam **return_vals);

/* GIMP quits: the resident leaves at once (GIMP kills it 10 ms after
 * asking anyway), without exit handlers that could meet a GPU start in
 * flight (gpu/run/engine.c). */
void resident_quit (void);

#endif
