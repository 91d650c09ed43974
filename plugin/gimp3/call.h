/* SPDX-License-Identifier: GPL-3.0-or-later */
/* call.h — what every GIMP 3 procedure call does alike: its target made
 * once, the process's one engine, its end, and a failed run's values.
 *
 *   CoreTarget target;
 *   ok = gimp3_target (image, drawables, &target, &error)
 *        && core_call_histogram (gimp3_host (), &gimp3_engine, &target, ...);
 *   gimp3_call_end (run_mode);
 *   return ok ? values : gimp3_failure (procedure, error);
 */
#ifndef GH_GIMP3_CALL_H
#define GH_GIMP3_CALL_H

#include <libgimp/gimp.h>

#include "core/host.h"

/* The plug-in's one engine, created at the first call that needs it
 * (core_engine_ensure): the resident keeps it from call to call. */
extern gh_engine *gimp3_engine;

/* The call's target (core/call.h): the one drawable an image procedure
 * works on, checked (GIMP 3 passes the selected drawables, any number of
 * them; these procedures take exactly one), and the part inside the
 * selection, asked once. */
gboolean gimp3_target (GimpImage *image, GimpDrawable **drawables,
                       CoreTarget *target, GError **error);

/* A failed run's values: its error's status, and the error (taken); a
 * cancelled run's (error NULL): GIMP_PDB_CANCEL. */
GimpValueArray *gimp3_failure (GimpProcedure *procedure, GError *error);

/* The end of a call: a GPU that was there and not used is told once (the
 * message in interactive use, stderr in scripts: core_call_end), and the
 * engine goes, its GPU start joined (engine.c: no thread may be inside
 * the CUDA driver when the process exits), unless the resident serves. */
void gimp3_call_end (GimpRunMode run_mode);

#endif
