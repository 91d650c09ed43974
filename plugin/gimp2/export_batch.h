/* SPDX-License-Identifier: GPL-3.0-or-later */
/* export_batch.h — the runs of the export and batch procedures, which
 * write files, in GIMP 2.10: their arguments, else their remembered
 * settings (settings.h) or, for an interactive export, the dialog's CSV
 * file chooser; remembered after every successful run.
 *
 *   ok = gimp2_run_export (run_mode, nparams, param, &engine, &error);
 */
#ifndef GH_GIMP2_EXPORT_BATCH_H
#define GH_GIMP2_EXPORT_BATCH_H

#include <libgimp/gimp.h>

#include "gpu_histogram.h"

/* FALSE with an error when the run failed; an export cancelled in its
 * file chooser is TRUE and writes nothing.  `engine`: the process's, made
 * when needed (core_engine_ensure). */
gboolean gimp2_run_export (GimpRunMode run_mode, gint nparams,
                           const GimpParam *param, gh_engine **engine,
                           GError **error);
gboolean gimp2_run_batch (GimpRunMode run_mode, gint nparams,
                          const GimpParam *param, gh_engine **engine,
                          GError **error);

#endif
