/* main.c — gpu-histogram for GIMP 3: the GimpPlugIn that registers the
 * plug-in's five PDB procedures and runs them through the core.
 *
 * The procedures are those of the GIMP 2.10 plug-in, with the same names
 * and texts (core/procedures.h), in GIMP 3's form: the four that work on a
 * drawable are GimpImageProcedures taking exactly one drawable, arrays
 * carry their length (no num-stats / num-bins), files are GFile arguments.
 * libgimp keeps each procedure's settings in its config: RUN-INTERACTIVE
 * and RUN-WITH-LAST-VALS (Filters > Repeat) start from the values of the
 * last successful interactive run, NONINTERACTIVE takes the arguments.
 *
 * One process per call, as in every GIMP: it creates the engine at the
 * first procedure that needs it, so a batch pays the GPU start-up once.
 */
#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>

#include "core/batch.h"
#include "core/choice.h"
#include "core/errors.h"
#include "core/operations.h"
#include "core/procedures.h"
#include "host.h"

#define GPU_HISTOGRAM_TYPE (gpu_histogram_get_type ())
G_DECLARE_FINAL_TYPE (GpuHistogram, gpu_histogram, GPU, HISTOGRAM, GimpPlugIn)

struct _GpuHistogram
{
  GimpPlugIn parent_instance;
};

G_DEFINE_TYPE (GpuHistogram, gpu_histogram, GIMP_TYPE_PLUG_IN)

GIMP_MAIN (GPU_HISTOGRAM_TYPE)

/* The whole progress bar, for one operation per call. */
static const CoreProgress whole = { 0.0, 1.0 };

static gh_engine *engine;

static GList *
gpu_histogram_query_procedures (GimpPlugIn *plug_in G_GNUC_UNUSED)
{
  GList *names = NULL;

  names = g_list_append (names, g_strdup (core_proc_analyse.name));
  names = g_list_append (names, g_strdup (core_proc_equalize.name));
  names = g_list_append (names, g_strdup (core_proc_binarize.name));
  names = g_list_append (names, g_strdup (core_proc_export.name));
  names = g_list_append (names, g_strdup (core_proc_batch.name));
  return names;
}

/* The plug-in ships no translations: without this, GIMP 3 looks for a
 * catalog and prints "Localization disabled" for every procedure. */
static gboolean
gpu_histogram_set_i18n (GimpPlugIn   *plug_in G_GNUC_UNUSED,
                        const gchar  *name G_GNUC_UNUSED,
                        gchar       **gettext_domain G_GNUC_UNUSED,
                        gchar       **catalog_dir G_GNUC_UNUSED)
{
  return FALSE;
}

/* ---- Running ------------------------------------------------------ */

/* The plug-in's one engine, created at first use. */
static gboolean
engine_get (GError **error)
{
  gh_options options;
  gh_error   err;

  if (engine)
    return TRUE;
  gh_options_init (&options);
  /* The fallback line would go to GIMP's terminal; the backend name the
   * statistics return says where the work ran. */
  options.quiet = 1;
  return core_error_from_engine (gh_engine_create (&options, &engine, &err),
                                 &err, error);
}

static GimpValueArray *
return_error (GimpProcedure *procedure, GError *error)
{
  return gimp_procedure_new_return_values (
    procedure,
    core_error_is_calling (error) ? GIMP_PDB_CALLING_ERROR
                                  : GIMP_PDB_EXECUTION_ERROR,
    error);
}

/* The one drawable an image procedure works on.  GIMP 3 passes the
 * selected ones, any number of them; these procedures take exactly one. */
static GimpDrawable *
the_drawable (GimpImage *image, GimpDrawable **drawables, GError **error)
{
  gsize n = drawables ? gimp_core_object_array_get_length (
                          (GObject **) drawables)
                      : 0;

  if (n != 1)
    g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                 "%s takes exactly one drawable, %" G_GSIZE_FORMAT
                 " given: select one layer or channel",
                 CORE_PLUG_IN_BINARY, n);
  else if (gimp_item_get_image (GIMP_ITEM (drawables[0])) != image)
    g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                 "drawable %d is not in image %d",
                 gimp_item_get_id (GIMP_ITEM (drawables[0])),
                 gimp_image_get_id (image));
  else
    return drawables[0];
  return NULL;
}

/* Whether a dialog can be shown: GIMP names a display to plug-ins only
 * when it has one (gimp-console has none). */
static gboolean
ui_available (void)
{
  const gchar *name = gimp_display_name ();

  return name && *name;
}

/* Where an interactive run with a display shows the histogram dialog,
 * ui/dialog_gtk3.c (being written): it starts from the procedure's config
 * (the values of its last interactive run), shows `hist`, the drawable's
 * histogram, with the procedure's action selected, and on OK writes the
 * chosen settings back into `config` and returns TRUE; Cancel returns
 * FALSE and nothing is applied.  Until it lands an interactive run applies
 * the config as RUN-WITH-LAST-VALS does, as the 2.10 plug-in does where
 * there is no display. */
static gboolean
histogram_dialog_run (GimpProcedure       *procedure G_GNUC_UNUSED,
                      GimpProcedureConfig *config G_GNUC_UNUSED,
                      GimpDrawable        *drawable G_GNUC_UNUSED,
                      const gh_histogram  *hist G_GNUC_UNUSED)
{
  return TRUE;
}

/* The drawable's histogram under GIMP's progress bar, and the dialog of
 * an interactive run: FALSE with no error when it was cancelled. */
static gboolean
histogram_and_dialog (GimpProcedure *procedure, GimpRunMode run_mode,
                      GimpProcedureConfig *config, GimpDrawable *drawable,
                      gh_histogram *hist, GError **error)
{
  gimp_progress_init ("Histogram (GPU)");
  if (! engine_get (error)
      || ! core_histogram (gimp3_host (), engine, drawable, hist, &whole,
                           error))
    return FALSE;
  return run_mode != GIMP_RUN_INTERACTIVE || ! ui_available ()
         || histogram_dialog_run (procedure, config, drawable, hist);
}

/* The statistics of a run that is not scripted, as GIMP's message (the
 * terminal in gimp-console).  Once the dialog shows them, only runs
 * without it need this. */
static void
show_statistics (const gh_histogram *hist)
{
  gchar *text = core_statistics_text (hist, gh_engine_backend_name (engine));

  gimp_message (text);
  g_free (text);
}

static GimpValueArray *
run_analyse (GimpProcedure *procedure, GimpRunMode run_mode,
             GimpImage *image, GimpDrawable **drawables,
             GimpProcedureConfig *config, gpointer data G_GNUC_UNUSED)
{
  GimpDrawable   *drawable;
  GimpValueArray *values;
  gh_histogram    hist;
  gdouble         stats[GH_NUM_STATS];
  gdouble         levels[GH_NUM_LEVELS];
  GError         *error = NULL;

  gegl_init (NULL, NULL);
  drawable = the_drawable (image, drawables, &error);
  gh_histogram_init (&hist);
  if (! drawable
      || ! histogram_and_dialog (procedure, run_mode, config, drawable, &hist,
                                 &error))
    {
      gh_histogram_clear (&hist);
      return error ? return_error (procedure, error)
                   : gimp_procedure_new_return_values (procedure,
                                                       GIMP_PDB_CANCEL, NULL);
    }
  gh_stats_table (&hist, stats);
  gh_histogram_levels (&hist, levels);
  if (run_mode != GIMP_RUN_NONINTERACTIVE)
    show_statistics (&hist);
  gh_histogram_clear (&hist);
  values = gimp_procedure_new_return_values (procedure, GIMP_PDB_SUCCESS,
                                             NULL);
  GIMP_VALUES_SET_STRING (values, 1, gh_engine_backend_name (engine));
  GIMP_VALUES_SET_DOUBLE_ARRAY (values, 2, stats, GH_NUM_STATS);
  GIMP_VALUES_SET_DOUBLE_ARRAY (values, 3, levels, GH_NUM_LEVELS);
  return values;
}

/* Equalize and binarize: the histogram (and the dialog), then the
 * operation with that histogram as one undo step.  *used: binarize's
 * threshold. */
static GimpValueArray *
run_apply (GimpProcedure *procedure, GimpRunMode run_mode, GimpImage *image,
           GimpDrawable **drawables, GimpProcedureConfig *config,
           gboolean binarize)
{
  GimpDrawable   *drawable;
  GimpValueArray *values;
  gh_histogram    hist;
  gint            mode = 0, channel = 0, threshold = -1, used = -1;
  gboolean        ok;
  GError         *error = NULL;

  gegl_init (NULL, NULL);
  drawable = the_drawable (image, drawables, &error);
  gh_histogram_init (&hist);
  /* Refused before the histogram is counted: nothing to wait for. */
  ok = drawable
       && core_check_changeable (gimp3_host (), drawable, &error)
       && histogram_and_dialog (procedure, run_mode, config, drawable, &hist,
                                &error);
  if (ok)
    {
      /* Read after the dialog, which may have changed them. */
      if (binarize)
        g_object_get (config, core_arg_channel.name, &channel,
                      core_arg_threshold.name, &threshold, NULL);
      else
        g_object_get (config, core_arg_mode.name, &mode, NULL);
      gimp_image_undo_group_start (image);
      gimp_progress_init (binarize ? "Binarizing (GPU)" : "Equalizing (GPU)");
      ok = binarize ? core_binarize (gimp3_host (), engine, drawable, channel,
                                     threshold, &hist, &used, &whole, &error)
                    : core_equalize (gimp3_host (), engine, drawable, mode,
                                     &hist, &whole, &error);
      gimp_image_undo_group_end (image);
    }
  gh_histogram_clear (&hist);
  if (! ok)
    return error ? return_error (procedure, error)
                 : gimp_procedure_new_return_values (procedure,
                                                     GIMP_PDB_CANCEL, NULL);
  values = gimp_procedure_new_return_values (procedure, GIMP_PDB_SUCCESS,
                                             NULL);
  if (binarize)
    GIMP_VALUES_SET_INT (values, 1, used);
  return values;
}

static GimpValueArray *
run_equalize (GimpProcedure *procedure, GimpRunMode run_mode,
              GimpImage *image, GimpDrawable **drawables,
              GimpProcedureConfig *config, gpointer data G_GNUC_UNUSED)
{
  return run_apply (procedure, run_mode, image, drawables, config, FALSE);
}

static GimpValueArray *
run_binarize (GimpProcedure *procedure, GimpRunMode run_mode,
              GimpImage *image, GimpDrawable **drawables,
              GimpProcedureConfig *config, gpointer data G_GNUC_UNUSED)
{
  return run_apply (procedure, run_mode, image, drawables, config, TRUE);
}

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
    path = g_file_get_path (file);
  if (! path)
    g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                 file ? "%s: %s is not a local file"
                      : "%s: no %s given (an interactive run without a "
                        "display uses the last one: run it once with it)",
                 CORE_PLUG_IN_BINARY, arg->name);
  g_clear_object (&file);
  return path;
}

/* The export's interactive run: GIMP's own dialog for the file argument.
 * FALSE: cancelled. */
static gboolean
export_dialog_run (GimpProcedure *procedure, GimpProcedureConfig *config)
{
  GtkWidget *dialog;
  gboolean   ok;

  gimp_ui_init (CORE_PLUG_IN_BINARY);
  dialog = gimp_procedure_dialog_new (procedure, config,
                                      core_proc_export.blurb);
  gimp_procedure_dialog_fill (GIMP_PROCEDURE_DIALOG (dialog), NULL);
  ok = gimp_procedure_dialog_run (GIMP_PROCEDURE_DIALOG (dialog));
  gtk_widget_destroy (dialog);
  return ok;
}

static GimpValueArray *
run_export (GimpProcedure *procedure, GimpRunMode run_mode,
            GimpImage *image, GimpDrawable **drawables,
            GimpProcedureConfig *config, gpointer data G_GNUC_UNUSED)
{
  GimpDrawable *drawable;
  gchar        *path = NULL;
  gboolean      ok;
  GError       *error = NULL;

  gegl_init (NULL, NULL);
  drawable = the_drawable (image, drawables, &error);
  if (drawable && run_mode == GIMP_RUN_INTERACTIVE && ui_available ()
      && ! export_dialog_run (procedure, config))
    return gimp_procedure_new_return_values (procedure, GIMP_PDB_CANCEL,
                                             NULL);
  gimp_progress_init ("Exporting the histogram (GPU)");
  ok = drawable
       && (path = local_path (config, &core_arg_filename, &error))
       && engine_get (&error)
       && core_export (gimp3_host (), engine, drawable, path, &whole, &error);
  g_free (path);
  return ok ? gimp_procedure_new_return_values (procedure, GIMP_PDB_SUCCESS,
                                                NULL)
            : return_error (procedure, error);
}

static GimpValueArray *
run_batch (GimpProcedure *procedure, GimpProcedureConfig *config,
           gpointer data G_GNUC_UNUSED)
{
  GimpRunMode run_mode;
  gchar      *pattern = NULL, *output_dir = NULL, *stats_csv = NULL;
  GFile      *dir = NULL;
  gint        operation;
  guint       done = 0, failed = 0;
  gboolean    ok;
  GError     *error = NULL;

  gegl_init (NULL, NULL);
  g_object_get (config, "run-mode", &run_mode,
                core_arg_pattern.name, &pattern,
                core_arg_operation.name, &operation,
                core_arg_output_dir.name, &dir, NULL);
  /* Statistics only (operation 0) write no image: no folder needed, and
   * the core refuses an empty folder for the others. */
  if (dir && operation != CORE_BATCH_STATISTICS
      && ! (output_dir = g_file_get_path (dir)))
    g_set_error (&error, CORE_ERROR, CORE_ERROR_CALLING,
                 "%s: %s is not a local folder", CORE_PLUG_IN_BINARY,
                 core_arg_output_dir.name);
  ok = ! error
       && (stats_csv = local_path (config, &core_arg_stats_csv, &error))
       && engine_get (&error)
       && core_batch_run (gimp3_host (), engine, pattern, operation,
                          output_dir ? output_dir : "", stats_csv, &done,
                          &failed, &error);
  if (ok && run_mode != GIMP_RUN_NONINTERACTIVE)
    {
      gchar *text = g_strdup_printf ("%u files, %u failed; statistics in %s",
                                     done, failed, stats_csv);

      gimp_message (text);
      g_free (text);
    }
  g_free (pattern);
  g_free (output_dir);
  g_free (stats_csv);
  g_clear_object (&dir);
  return ok ? gimp_procedure_new_return_values (procedure, GIMP_PDB_SUCCESS,
                                                NULL)
            : return_error (procedure, error);
}

/* ---- Registration ------------------------------------------------- */

/* What every procedure with a menu entry declares alike. */
static GimpProcedure *
image_procedure_new (GimpPlugIn *plug_in, const CoreProcText *text,
                     GimpRunImageFunc run)
{
  GimpProcedure *procedure;

  procedure = gimp_image_procedure_new (plug_in, text->name,
                                        GIMP_PDB_PROC_TYPE_PLUGIN, run, NULL,
                                        NULL);
  gimp_procedure_set_image_types (procedure, text->image_types);
  /* One drawable: the entries are greyed out with several selected. */
  gimp_procedure_set_sensitivity_mask (procedure,
                                       GIMP_PROCEDURE_SENSITIVE_DRAWABLE);
  gimp_procedure_set_menu_label (procedure, text->menu_label);
  gimp_procedure_add_menu_path (procedure, CORE_MENU_PATH);
  return procedure;
}

static GimpProcedure *
gpu_histogram_create_procedure (GimpPlugIn *plug_in, const gchar *name)
{
  const CoreProcText *text;
  GimpProcedure      *procedure;

  if (! g_strcmp0 (name, core_proc_analyse.name))
    {
      text = &core_proc_analyse;
      procedure = image_procedure_new (plug_in, text, run_analyse);
      gimp_procedure_add_string_return_value (procedure,
                                              core_ret_backend.name,
                                              core_ret_backend.nick,
                                              core_ret_backend.blurb, NULL,
                                              G_PARAM_READWRITE);
      gimp_procedure_add_double_array_return_value (procedure,
                                                    core_ret_stats.name,
                                                    core_ret_stats.nick,
                                                    core_ret_stats.blurb,
                                                    G_PARAM_READWRITE);
      gimp_procedure_add_double_array_return_value (procedure,
                                                    core_ret_histogram.name,
                                                    core_ret_histogram.nick,
                                                    core_ret_histogram.blurb,
                                                    G_PARAM_READWRITE);
    }
  else if (! g_strcmp0 (name, core_proc_equalize.name))
    {
      text = &core_proc_equalize;
      procedure = image_procedure_new (plug_in, text, run_equalize);
      gimp_procedure_add_int_argument (procedure, core_arg_mode.name,
                                       core_arg_mode.nick,
                                       core_arg_mode.blurb, CORE_MODE_MIN,
                                       CORE_MODE_MAX, GH_EQUALIZE_CHANNELS,
                                       G_PARAM_READWRITE);
    }
  else if (! g_strcmp0 (name, core_proc_binarize.name))
    {
      text = &core_proc_binarize;
      procedure = image_procedure_new (plug_in, text, run_binarize);
      /* Otsu on luminance: the 2.10 dialog's first binarize. */
      gimp_procedure_add_int_argument (procedure, core_arg_channel.name,
                                       core_arg_channel.nick,
                                       core_arg_channel.blurb,
                                       CORE_CHANNEL_MIN, CORE_CHANNEL_MAX,
                                       GH_CHANNEL_LUMINANCE,
                                       G_PARAM_READWRITE);
      gimp_procedure_add_int_argument (procedure, core_arg_threshold.name,
                                       core_arg_threshold.nick,
                                       core_arg_threshold.blurb,
                                       CORE_THRESHOLD_MIN, CORE_THRESHOLD_MAX,
                                       -1, G_PARAM_READWRITE);
      gimp_procedure_add_int_return_value (procedure, core_ret_threshold.name,
                                           core_ret_threshold.nick,
                                           core_ret_threshold.blurb,
                                           -1, CORE_THRESHOLD_MAX, -1,
                                           G_PARAM_READWRITE);
    }
  else if (! g_strcmp0 (name, core_proc_export.name))
    {
      text = &core_proc_export;
      procedure = image_procedure_new (plug_in, text, run_export);
      gimp_procedure_add_file_argument (procedure, core_arg_filename.name,
                                        core_arg_filename.nick,
                                        core_arg_filename.blurb,
                                        GIMP_FILE_CHOOSER_ACTION_SAVE, FALSE,
                                        NULL, G_PARAM_READWRITE);
    }
  else if (! g_strcmp0 (name, core_proc_batch.name))
    {
      /* No image: a plain procedure, with the run mode every PDB
       * procedure takes first. */
      text = &core_proc_batch;
      procedure = gimp_procedure_new (plug_in, text->name,
                                      GIMP_PDB_PROC_TYPE_PLUGIN, run_batch,
                                      NULL, NULL);
      gimp_procedure_add_enum_argument (procedure, "run-mode", "Run mode",
                                        "The run mode", GIMP_TYPE_RUN_MODE,
                                        GIMP_RUN_NONINTERACTIVE,
                                        G_PARAM_READWRITE);
      gimp_procedure_add_string_argument (procedure, core_arg_pattern.name,
                                          core_arg_pattern.nick,
                                          core_arg_pattern.blurb, "",
                                          G_PARAM_READWRITE);
      gimp_procedure_add_int_argument (procedure, core_arg_operation.name,
                                       core_arg_operation.nick,
                                       core_arg_operation.blurb,
                                       CORE_OPERATION_MIN, CORE_OPERATION_MAX,
                                       CORE_BATCH_STATISTICS,
                                       G_PARAM_READWRITE);
      /* May be none: statistics only write no image. */
      gimp_procedure_add_file_argument (procedure, core_arg_output_dir.name,
                                        core_arg_output_dir.nick,
                                        core_arg_output_dir.blurb,
                                        GIMP_FILE_CHOOSER_ACTION_CREATE_FOLDER,
                                        TRUE, NULL, G_PARAM_READWRITE);
      gimp_procedure_add_file_argument (procedure, core_arg_stats_csv.name,
                                        core_arg_stats_csv.nick,
                                        core_arg_stats_csv.blurb,
                                        GIMP_FILE_CHOOSER_ACTION_SAVE, FALSE,
                                        NULL, G_PARAM_READWRITE);
    }
  else
    return NULL;

  gimp_procedure_set_documentation (procedure, text->blurb, text->help,
                                    text->name);
  gimp_procedure_set_attribution (procedure, CORE_AUTHOR, CORE_COPYRIGHT,
                                  CORE_DATE);
  return procedure;
}

static void
gpu_histogram_class_init (GpuHistogramClass *klass)
{
  GimpPlugInClass *plug_in_class = GIMP_PLUG_IN_CLASS (klass);

  plug_in_class->query_procedures = gpu_histogram_query_procedures;
  plug_in_class->create_procedure = gpu_histogram_create_procedure;
  plug_in_class->set_i18n = gpu_histogram_set_i18n;
}

static void
gpu_histogram_init (GpuHistogram *plug_in G_GNUC_UNUSED)
{
  /* babl 0.1.114 (GIMP 3.0) measures its LUT timings in every new process
   * at the first pixel conversion: about 1 s of every call of these
   * procedures (a plug-in runs once per call), longer than most
   * histograms take.  BABL_LUT=0 skips it.  GIMP creates this object
   * before libgimp's _gimp_config starts babl, so setting it here is in
   * time; a value the user set is kept. */
  g_setenv ("BABL_LUT", "0", FALSE);
}
