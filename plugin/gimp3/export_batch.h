/* SPDX-License-Identifier: GPL-3.0-or-later */
/* export_batch.h — the runs of the export and batch procedures, which
 * write files, in GIMP 3: their config's arguments (an interactive export
 * asks for its file with the dialog's CSV file chooser, which goes into
 * the config); libgimp remembers the config.
 *
 *   gimp_image_procedure_new (plug_in, name, GIMP_PDB_PROC_TYPE_PLUGIN,
 *                             gimp3_run_export, NULL, NULL);
 */
#ifndef GH_GIMP3_EXPORT_BATCH_H
#define GH_GIMP3_EXPORT_BATCH_H

#include <libgimp/gimp.h>

GimpValueArray *gimp3_run_export (GimpProcedure *procedure,
                                  GimpRunMode run_mode, GimpImage *image,
                                  GimpDrawable **drawables,
                                  GimpProcedureConfig *config,
                                  gpointer data);
GimpValueArray *gimp3_run_batch (GimpProcedure *procedure,
                                 GimpProcedureConfig *config, gpointer data);

#endif
