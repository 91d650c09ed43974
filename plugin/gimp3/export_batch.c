/* SPDX-License-Identifier: GPL-3.0-or-later */
/* export_batch.c — the runs of the export and batch procedures, which
 * write files (export_batch.h). */
#include "export_batch.h"

#include <libgimp/gimpui.h>

#include "call.h"
#include "core/batch.h"
#include "core/call.h"
#include "core/errors.h"
#include "core/operations.h"
#include "dialog_gtk3.h"
#include "flow_host.h"
#include "host.h"

/* A file argument's local path (g_free it), or NULL with a calling error
 * naming the argument. */
static gchar *
local_path (GimpProcedureConfig *config, const CoreArgText *arg,
            GError **error)
{
  GFile *file = NULL;
  gchar *path = NULL;

  g_object_get (config, arg->name, &file, NULL);
  if (file)
    {
      gchar *uri = g_file_get_uri (file);

      /* Script-Fu passes "" as a file that is no file. */
      if (! *uri)
        g_clear_object (&file);
      else if (! (path = g_file_get_path (file)))
        g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                     "%s: '%s' is not a local file", arg->name, uri);
      g_free (uri);
    }
  if (! file)
    g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING, "%s: no file given",
                 arg->name);
  g_clear_object (&file);
  return path;
}

/* The export's interactive run: the dialog's CSV file chooser, starting
 * at the last file; the one chosen goes into the config (remembered).
 * FALSE: cancelled. */
static gboolean
export_file_choose (GimpProcedureConfig *config)
{
  GFile *file = NULL;
  gchar *last = NULL, *chosen;

  g_object_get (config, core_arg_filename.name, &file, NULL);
  if (file)
    last = g_file_get_path (file);
  g_clear_object (&file);
  gimp_ui_init (CORE_PLUG_IN_BINARY);
  chosen = dialog_csv_file_choose (NULL, last);
  g_free (last);
  if (! chosen)
    return FALSE;
  file = g_file_new_for_path (chosen);
  g_object_set (config, core_arg_filename.name, file, NULL);
  g_object_unref (file);
  g_free (chosen);
  return TRUE;
}

GimpValueArray *
gimp3_run_export (GimpProcedure *procedure, GimpRunMode run_mode,
                  GimpImage *image, GimpDrawable **drawables,
                  GimpProcedureConfig *config, gpointer data G_GNUC_UNUSED)
{
  CoreTarget   target;
  const CoreProgress *progress;
  gchar              *path = NULL;
  gboolean            ok;
  GError             *error = NULL;

  gegl_init (NULL, NULL);
  ok = gimp3_target (image, drawables, &target, &error);
  if (ok && run_mode == GIMP_RUN_INTERACTIVE && gimp3_flow_host ()->ui_available ()
      && ! export_file_choose (config))
    return gimp3_failure (procedure, NULL);
  ok = ok && (path = local_path (config, &core_arg_filename, &error))
       && core_call_start (gimp3_host (), &gimp3_engine, &target,
                           core_proc_export.progress, &progress, &error)
       && core_export (gimp3_host (), gimp3_engine, &target, path,
                       progress, &error);
  g_free (path);
  gimp3_call_end (run_mode);
  return ok ? gimp_procedure_new_return_values (procedure, GIMP_PDB_SUCCESS,
                                                NULL)
            : gimp3_failure (procedure, error);
}

GimpValueArray *
gimp3_run_batch (GimpProcedure *procedure, GimpProcedureConfig *config,
                 gpointer data G_GNUC_UNUSED)
{
  GimpRunMode run_mode;
  gchar      *pattern = NULL, *output_dir = NULL, *stats_csv = NULL;
  gchar      *failures = NULL;
  GFile      *table = NULL;
  gint        operation;
  guint       done = 0, failed = 0;
  gboolean    ok;
  GError     *error = NULL;

  gegl_init (NULL, NULL);
  g_object_get (config, "run-mode", &run_mode,
                core_arg_pattern.name, &pattern,
                core_arg_operation.name, &operation,
                core_arg_stats_csv.name, &table, NULL);
  /* Statistics only (operation 0) write no image: no folder needed. */
  if (operation != CORE_BATCH_STATISTICS)
    output_dir = local_path (config, &core_arg_output_dir, &error);
  /* A table left out (a script's keyword argument not given, Python's
   * None) is not asked for: the results only, and where GIMP applies the
   * operation itself no pixel is read out.  Script-Fu's "" is a file given
   * wrong, refused as before. */
  if (! error && (table || operation == CORE_BATCH_STATISTICS))
    stats_csv = local_path (config, &core_arg_stats_csv, &error);
  g_clear_object (&table);
  ok = ! error
       && core_batch_run (gimp3_host (), &gimp3_engine, pattern, operation,
                          output_dir, stats_csv, &done, &failed, &failures,
                          &error);
  /* A file that failed is said in every run mode, a script's too. */
  if (ok && (failures || run_mode != GIMP_RUN_NONINTERACTIVE))
    {
      gchar *text = core_batch_message (done, failed, stats_csv, failures);

      gimp_message (text);
      g_free (text);
    }
  g_free (failures);
  g_free (pattern);
  g_free (output_dir);
  g_free (stats_csv);
  gimp3_call_end (run_mode);
  return ok ? gimp_procedure_new_return_values (procedure, GIMP_PDB_SUCCESS,
                                                NULL)
            : gimp3_failure (procedure, error);
}

