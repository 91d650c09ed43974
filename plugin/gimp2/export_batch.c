/* SPDX-License-Identifier: GPL-3.0-or-later */
/* export_batch.c — the runs of the export and batch procedures, which
 * write files (export_batch.h). */
#include "export_batch.h"

#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>

#include "batch.h"
#include "call.h"
#include "dialog_gtk2.h"
#include "flow_host.h"
#include "host.h"
#include "operations.h"
#include "register.h"
#include "settings.h"

gboolean
gimp2_run_export (GimpRunMode run_mode, gint nparams, const GimpParam *param,
                  gh_engine **engine, GError **error)
{
  const CoreProgress *progress;
  const gchar        *proc = core_proc_export.name;
  CoreTarget   target;
  ExportSettings      s;

  if (! gimp2_target (run_mode, nparams, N_IMAGE_PARAMS + 1, param, &target,
                    error))
    return FALSE;
  if (run_mode == GIMP_RUN_NONINTERACTIVE)
    {
      if (! gimp2_settings_copy (s.filename, param[3].data.d_string, "file name",
                         error))
        return FALSE;
    }
  else if (run_mode == GIMP_RUN_INTERACTIVE && gimp2_flow_host.ui_available ())
    {
      gboolean known = gimp2_settings_last (proc, &s, sizeof s, NULL);
      gchar   *file;
      gboolean copied;

      gimp_ui_init (CORE_PLUG_IN_BINARY, FALSE);
      file = dialog_csv_file_choose (NULL, known ? s.filename : NULL);
      /* Cancel writes nothing, as the dialog's Cancel changes nothing. */
      if (! file)
        return TRUE;
      copied = gimp2_settings_copy (s.filename, file, "file name", error);
      g_free (file);
      if (! copied)
        return FALSE;
    }
  else if (! gimp2_settings_last (proc, &s, sizeof s, error))
    return FALSE;
  if (! core_call_start (&gimp2_host, engine, &target,
                         core_proc_export.progress, &progress, error)
      || ! core_export (&gimp2_host, *engine, &target, s.filename,
                        progress, error))
    return FALSE;
  gimp_set_data (proc, &s, sizeof s);
  return TRUE;
}

gboolean
gimp2_run_batch (GimpRunMode run_mode, gint nparams, const GimpParam *param,
                 gh_engine **engine, GError **error)
{
  /* Four paths of PATH_LEN: too large for the stack of a plug-in. */
  static BatchSettings s;
  const gchar         *proc = core_proc_batch.name;
  guint                done, failed;
  gchar               *failures;

  if (! gimp2_check_arguments (run_mode, nparams, 5, 1, error))
    return FALSE;
  if (run_mode == GIMP_RUN_NONINTERACTIVE)
    {
      s.operation = param[2].data.d_int32;
      if (! gimp2_settings_copy (s.pattern, param[1].data.d_string, "pattern", error)
          || ! gimp2_settings_copy (s.output_dir, param[3].data.d_string,
                            "output folder", error)
          || ! gimp2_settings_copy (s.stats_csv, param[4].data.d_string,
                            "statistics file name", error))
        return FALSE;
    }
  else if (! gimp2_settings_last (proc, &s, sizeof s, error))
    return FALSE;
  if (! core_batch_run (&gimp2_host, engine, s.pattern, s.operation,
                        s.output_dir, s.stats_csv, &done, &failed, &failures,
                        error))
    return FALSE;
  gimp_set_data (proc, &s, sizeof s);
  /* A file that failed is said in every run mode, a script's too. */
  if (failures || run_mode != GIMP_RUN_NONINTERACTIVE)
    {
      gchar *text = core_batch_message (done, failed, s.stats_csv, failures);

      gimp_message (text);
      g_free (text);
    }
  g_free (failures);
  return TRUE;
}

