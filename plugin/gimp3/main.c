/* main.c — gpu-histogram for GIMP 3: the GimpPlugIn that registers the
 * plug-in's eight PDB procedures and runs them through the core.
 *
 * The procedures are those of the GIMP 2.10 plug-in, with the same names
 * and texts (core/procedures.h), in GIMP 3's form: the seven that work on a
 * drawable are GimpImageProcedures taking exactly one drawable, arrays
 * carry their length (no num-stats / num-bins / num-thresholds), files
 * are GFile arguments.
 *
 * Run modes.  NONINTERACTIVE applies the arguments.  Analyse, equalize
 * and binarize otherwise run the dialog flow of the 2.10 plug-in: the
 * histogram dialog (ui/dialog_gtk3) in an interactive run with a display;
 * RUN-WITH-LAST-VALS (Filters > Repeat) and interactive runs without a
 * display (gimp-console) apply the remembered settings.  Settings live in
 * each procedure's config, the dialog's extra ones as aux arguments, and
 * libgimp remembers them after every successful interactive run (GIMP 3's
 * rule: a NONINTERACTIVE run changes nothing remembered).  Export asks
 * for its file with the dialog's CSV file chooser.  CLAHE and match
 * run the same flow with their own action selected.  Multi-Otsu has no
 * dialog of its own (the histogram dialog offers posterize as an action):
 * every run mode applies its config.
 *
 * One process per call, as in every GIMP, except scripts'
 * RUN-NONINTERACTIVE calls, which the resident process serves with the
 * same run functions (resident.h): the engine is created at the first
 * procedure that needs it, so a batch pays the GPU start-up once.
 */
#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>

#include "core/batch.h"
#include "core/beyond.h"
#include "core/call.h"
#include "core/choice.h"
#include "core/errors.h"
#include "core/operations.h"
#include "core/procedures.h"
#include "dialog_gtk3.h"
#include "host.h"
#include "resident.h"

#define GPU_HISTOGRAM_TYPE (gpu_histogram_get_type ())
G_DECLARE_FINAL_TYPE (GpuHistogram, gpu_histogram, GPU, HISTOGRAM, GimpPlugIn)

struct _GpuHistogram
{
  GimpPlugIn parent_instance;
};

G_DEFINE_TYPE (GpuHistogram, gpu_histogram, GIMP_TYPE_PLUG_IN)

GIMP_MAIN (GPU_HISTOGRAM_TYPE)

static GList *
gpu_histogram_query_procedures (GimpPlugIn *plug_in G_GNUC_UNUSED)
{
  GList *names = NULL;

  names = g_list_append (names, g_strdup (core_proc_analyse.name));
  names = g_list_append (names, g_strdup (core_proc_equalize.name));
  names = g_list_append (names, g_strdup (core_proc_binarize.name));
  names = g_list_append (names, g_strdup (core_proc_export.name));
  names = g_list_append (names, g_strdup (core_proc_batch.name));
  names = g_list_append (names, g_strdup (core_proc_clahe.name));
  names = g_list_append (names, g_strdup (core_proc_match.name));
  names = g_list_append (names, g_strdup (core_proc_multi_otsu.name));
  names = g_list_append (names, g_strdup (core_proc_resident.name));
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

/* The dialog's settings that are not arguments of any procedure (aux
 * arguments: remembered, never passed); "channel", "mode", "threshold"
 * and CLAHE's and posterize's are arguments of some procedures, aux of the
 * others.  Match's reference is remembered as its item ID: an int keeps
 * in any config. */
#define AUX_ACTION    "action"
#define AUX_SCALE     "scale"
#define AUX_RANGE_LO  "range-lo"
#define AUX_RANGE_HI  "range-hi"
#define AUX_REFERENCE "reference-id"

static gh_engine *engine;

/* A failed run's values: its error's status, and the error (taken); a
 * cancelled run's (error NULL): GIMP_PDB_CANCEL. */
static GimpValueArray *
return_failure (GimpProcedure *procedure, GError *error)
{
  if (! error)
    return gimp_procedure_new_return_values (procedure, GIMP_PDB_CANCEL,
                                             NULL);
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
    {
      gchar *name = gimp_item_get_name (GIMP_ITEM (drawables[0]));

      g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                   "drawable '%s' (ID %d) is not in the image given (ID %d)",
                   name, gimp_item_get_id (GIMP_ITEM (drawables[0])),
                   gimp_image_get_id (image));
      g_free (name);
    }
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

/* The dialog settings kept in a procedure's config.  `action`: the
 * procedure's own (equalize, binarize, CLAHE, match), which its dialog
 * starts on and a
 * repeat applies; DIALOG_ACTION_NONE (analyse) keeps the last one. */
static void
settings_from_config (GimpProcedureConfig *config, DialogAction action,
                      DialogSettings *s)
{
  gint ch, scale, mode, threshold, tiles_x, tiles_y, reference, classes;
  gint last = DIALOG_ACTION_NONE;

  g_object_get (config, core_arg_channel.name, &ch, AUX_SCALE, &scale,
                core_arg_mode.name, &mode, core_arg_threshold.name,
                &threshold, AUX_RANGE_LO, &s->range_lo, AUX_RANGE_HI,
                &s->range_hi, core_arg_clip_limit.name, &s->clip_limit,
                core_arg_tiles_x.name, &tiles_x, core_arg_tiles_y.name,
                &tiles_y, AUX_REFERENCE, &reference, core_arg_classes.name,
                &classes, NULL);
  if (action == DIALOG_ACTION_NONE)
    g_object_get (config, AUX_ACTION, &last, NULL);
  s->channel = ch;
  s->scale = scale;
  s->mode = mode;
  s->threshold = threshold;
  s->tiles_x = tiles_x;
  s->tiles_y = tiles_y;
  s->reference = reference;
  s->classes = classes;
  s->action = action == DIALOG_ACTION_NONE ? last : (gint) action;
}

static void
settings_to_config (GimpProcedureConfig *config, DialogAction action,
                    const DialogState *state)
{
  const DialogSettings *s = &state->settings;
  /* Binarize's channel argument is the channel compared: luminance
   * where the dialog showed the RGB overlay. */
  gint ch = action == DIALOG_ACTION_BINARIZE
              ? (gint) dialog_state_binarize_channel (state) : s->channel;

  g_object_set (config, core_arg_channel.name, ch, AUX_SCALE, s->scale,
                core_arg_mode.name, s->mode, core_arg_threshold.name,
                s->threshold, AUX_RANGE_LO, s->range_lo, AUX_RANGE_HI,
                s->range_hi, core_arg_clip_limit.name, s->clip_limit,
                core_arg_tiles_x.name, s->tiles_x, core_arg_tiles_y.name,
                s->tiles_y, AUX_REFERENCE, s->reference,
                core_arg_classes.name, s->classes, NULL);
  if (action == DIALOG_ACTION_NONE)
    g_object_set (config, AUX_ACTION, s->action, NULL);
}

/* What the dialog's hooks work on. */
typedef struct
{
  GimpDrawable       *drawable;
  const gh_histogram *hist;
  CorePreview        *preview;
} DialogTarget;

/* Match's reference: NULL when the ID is no drawable (any more). */
static GimpDrawable *
reference_drawable (gint32 reference)
{
  return reference >= 0 ? gimp_drawable_get_by_id (reference) : NULL;
}

/* The dialog's preview: the core's (what OK does, pixel for pixel). */
static guchar *
preview_pixels (const DialogChoice *choice, gint x, gint y, gint width,
                gint height, gint *rowstride, gpointer data, GError **error)
{
  const DialogTarget *t = data;

  return core_preview_pixels (t->preview, choice,
                              reference_drawable (choice->reference), x, y,
                              width, height, rowstride, error);
}

/* Match's reference picker: libgimpui's, every drawable of every open
 * image, by item ID. */
static gpointer
reference_picker (gint32 reference, gpointer data G_GNUC_UNUSED)
{
  GtkWidget *combo = gimp_drawable_combo_box_new (NULL, NULL, NULL);

  if (reference_drawable (reference))
    gimp_int_combo_box_set_active (GIMP_INT_COMBO_BOX (combo), reference);
  return combo;
}

/* The dialog's Export CSV: the histogram it shows, as the export
 * procedure writes it. */
static gboolean
export_csv (const gchar *filename, gpointer data, GError **error)
{
  const DialogTarget *t = data;

  return core_write_csv (t->hist, filename, error);
}

/* The start of a call on `drawable` of `image` (the_drawable): the part
 * inside the selection, asked once, for the engine, the progress bar with
 * `text` and the core (core_call_start). */
static gboolean
call_start (GimpImage *image, GimpDrawable *drawable, const gchar *text,
            const CoreProgress **progress, GError **error)
{
  CoreDrawableFacts facts = { drawable, image, FALSE, 0, 0, 0, 0 };

  facts.intersects = gimp_drawable_mask_intersect (drawable, &facts.x,
                                                   &facts.y, &facts.width,
                                                   &facts.height);
  return core_call_start (gimp3_host (), &engine, &facts, text, progress,
                          error);
}

/* The end of a call: a GPU that was there and not used is told once (the
 * message in interactive use, stderr in scripts; the backend string says
 * it too: core_call_end), and the engine goes, its GPU start joined
 * (engine.c: no thread may be inside the CUDA driver when the process
 * exits). */
static void
end_call (GimpRunMode run_mode)
{
  core_call_end (engine, run_mode == GIMP_RUN_INTERACTIVE ? gimp_message
                                                          : NULL);
  if (resident_serving ())
    return;
  gh_engine_destroy (engine);
  engine = NULL;
}

/* The dialog procedures' runs other than NONINTERACTIVE: the histogram,
 * then the dialog (an interactive run with a display) or the remembered
 * settings (RUN-WITH-LAST-VALS, and interactive runs in gimp-console),
 * and what they choose applied as one undo step with that histogram.
 * FALSE with no error: cancelled.  *used: binarize's threshold as a
 * level, -1 when nothing was binarized. */
static gboolean
dialog_flow (GimpRunMode run_mode, GimpImage *image, GimpDrawable *drawable,
             GimpProcedureConfig *config, DialogAction action,
             gh_histogram *hist, gint *used, GError **error)
{
  DialogSettings settings;
  DialogState    state;
  DialogTarget   target = { drawable, hist, NULL };
  DialogHooks    hooks = { preview_pixels, export_csv, reference_picker,
                           &target };
  DialogChoice        choice;
  const CoreProgress *progress;
  GTimer             *timer;
  gboolean            chosen = TRUE, ok;

  *used = -1;
  /* A repeat that cannot apply fails before counting anything. */
  if (action != DIALOG_ACTION_NONE && run_mode == GIMP_RUN_WITH_LAST_VALS
      && ! core_check_changeable (gimp3_host (), drawable, error))
    return FALSE;
  ok = call_start (image, drawable, "Histogram (GPU)", &progress, error);
  timer = g_timer_new ();
  ok = ok && core_histogram (gimp3_host (), engine, drawable, hist, progress,
                             error);
  if (! ok)
    {
      g_timer_destroy (timer);
      return FALSE;
    }
  settings_from_config (config, action, &settings);
  dialog_state_init (&state, hist, gh_engine_backend_name (engine),
                     g_timer_elapsed (timer, NULL), &settings);
  g_timer_destroy (timer);
  if (run_mode == GIMP_RUN_INTERACTIVE && ui_available ())
    {
      GError *refusal = NULL;

      core_check_changeable (gimp3_host (), drawable, &refusal);
      gimp_ui_init (CORE_PLUG_IN_BINARY);
      target.preview = core_preview_new (gimp3_host (), engine, drawable,
                                         hist);
      chosen = dialog_run (drawable, &state,
                           refusal ? refusal->message : NULL, &hooks,
                           &choice);
      core_preview_free (target.preview);
      g_clear_error (&refusal);
    }
  else
    {
      gchar *text = core_choice_without_dialog (
        &state, gh_engine_backend_name (engine), &choice);

      /* Nothing to apply: the statistics, as GIMP's message (the
       * terminal in gimp-console). */
      if (text)
        gimp_message (text);
      g_free (text);
    }
  if (chosen)
    {
      gimp_image_undo_group_start (image);
      ok = core_apply_choice (gimp3_host (), engine, drawable, &choice,
                              reference_drawable (choice.reference), hist,
                              TRUE, error);
      gimp_image_undo_group_end (image);
    }
  if (chosen && ok)
    {
      settings_to_config (config, action, &state);
      if (choice.action == DIALOG_ACTION_BINARIZE)
        *used = dialog_state_threshold (&state);
    }
  dialog_state_clear (&state);
  return chosen && ok;
}

static GimpValueArray *
run_analyse (GimpProcedure *procedure, GimpRunMode run_mode,
             GimpImage *image, GimpDrawable **drawables,
             GimpProcedureConfig *config, gpointer data G_GNUC_UNUSED)
{
  GimpDrawable       *drawable;
  GimpValueArray     *values = NULL;
  const CoreProgress *progress;
  gh_histogram        hist;
  gdouble             stats[GH_NUM_STATS];
  gdouble             levels[GH_NUM_LEVELS];
  gint                used;
  gboolean            ok;
  GError             *error = NULL;

  gegl_init (NULL, NULL);
  gh_histogram_init (&hist);
  drawable = the_drawable (image, drawables, &error);
  if (run_mode == GIMP_RUN_NONINTERACTIVE)
    {
      ok = drawable
           && call_start (image, drawable, "Histogram (GPU)", &progress,
                          &error)
           && core_histogram (gimp3_host (), engine, drawable, &hist,
                              progress, &error);
    }
  else
    ok = drawable && dialog_flow (run_mode, image, drawable, config,
                                  DIALOG_ACTION_NONE, &hist, &used, &error);
  if (ok)
    {
      gh_stats_table (&hist, stats);
      gh_histogram_levels (&hist, levels);
      values = gimp_procedure_new_return_values (procedure, GIMP_PDB_SUCCESS,
                                                 NULL);
      GIMP_VALUES_SET_STRING (values, 1, gh_engine_backend_name (engine));
      GIMP_VALUES_SET_DOUBLE_ARRAY (values, 2, stats, GH_NUM_STATS);
      GIMP_VALUES_SET_DOUBLE_ARRAY (values, 3, levels, GH_NUM_LEVELS);
    }
  gh_histogram_clear (&hist);
  end_call (run_mode);
  return ok ? values : return_failure (procedure, error);
}

/* A run of a procedure that applies to its drawable (ApplyProc): what
 * it works on, and what it gives back. */
typedef struct
{
  GimpRunMode          run_mode;
  GimpDrawable        *drawable;
  GimpProcedureConfig *config;
  const CoreProgress  *progress;
  gint                 used;   /* binarize's threshold as a level, -1: none */
  gint                 levels[CORE_CLASSES_MAX - 1]; /* multi-Otsu's */
  gint                 n;
} ApplyCall;

/* The procedures that apply to their drawable.  Equalize, binarize, CLAHE
 * and match have an action of their own in the dialog: their run modes
 * other than NONINTERACTIVE are the dialog flow.  Multi-Otsu has no dialog
 * of its own yet: every run mode applies its config.  `apply` applies the
 * config's arguments, under the call's progress. */
typedef struct
{
  const CoreProcText *proc;
  DialogAction        action; /* DIALOG_ACTION_NONE: no dialog */
  const gchar        *progress_text;
  gboolean          (*apply) (ApplyCall *call, GError **error);
} ApplyProc;

static gboolean
equalize_apply (ApplyCall *call, GError **error)
{
  gint mode;

  g_object_get (call->config, core_arg_mode.name, &mode, NULL);
  return core_equalize (gimp3_host (), engine, call->drawable, mode, NULL,
                        call->progress, error);
}

static gboolean
binarize_apply (ApplyCall *call, GError **error)
{
  gint channel, threshold;

  g_object_get (call->config, core_arg_channel.name, &channel,
                core_arg_threshold.name, &threshold, NULL);
  return core_binarize (gimp3_host (), engine, call->drawable, channel,
                        threshold, NULL, &call->used, call->progress, error);
}

static gboolean
clahe_apply (ApplyCall *call, GError **error)
{
  gdouble clip_limit;
  gint    tiles_x, tiles_y, mode;

  g_object_get (call->config, core_arg_clip_limit.name, &clip_limit,
                core_arg_tiles_x.name, &tiles_x, core_arg_tiles_y.name,
                &tiles_y, core_arg_clahe_mode.name, &mode, NULL);
  return core_clahe (gimp3_host (), engine, call->drawable, clip_limit,
                     tiles_x, tiles_y, mode, call->progress, error);
}

static gboolean
match_apply (ApplyCall *call, GError **error)
{
  GimpDrawable *reference = NULL;
  gint          mode;
  gboolean      ok;

  g_object_get (call->config, core_arg_reference.name, &reference,
                core_arg_match_mode.name, &mode, NULL);
  if (! reference)
    g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                 "%s: no drawable given", core_arg_reference.name);
  ok = reference && core_match (gimp3_host (), engine, call->drawable,
                                reference, mode, NULL, call->progress, error);
  g_clear_object (&reference);
  return ok;
}

static gboolean
multi_otsu_apply (ApplyCall *call, GError **error)
{
  gint channel, classes, apply;

  g_object_get (call->config, core_arg_otsu_channel.name, &channel,
                core_arg_classes.name, &classes, core_arg_apply.name, &apply,
                NULL);
  /* Luminance, a first run's channel, is a gray layer's value. */
  if (call->run_mode != GIMP_RUN_NONINTERACTIVE
      && gimp_drawable_is_gray (call->drawable)
      && channel == GH_CHANNEL_LUMINANCE)
    channel = GH_CHANNEL_VALUE;
  if (! core_multi_otsu (gimp3_host (), engine, call->drawable, channel,
                         classes, apply, NULL, call->levels, &call->n,
                         call->progress, error))
    return FALSE;
  if (call->run_mode != GIMP_RUN_NONINTERACTIVE)
    {
      gchar *text = core_multi_otsu_text (channel, call->levels, call->n);

      gimp_message (text);
      g_free (text);
    }
  return TRUE;
}

static const ApplyProc apply_procs[] = {
  { &core_proc_equalize, DIALOG_ACTION_EQUALIZE, "Equalizing (GPU)",
    equalize_apply },
  { &core_proc_binarize, DIALOG_ACTION_BINARIZE, "Binarizing (GPU)",
    binarize_apply },
  { &core_proc_clahe, DIALOG_ACTION_CLAHE, "CLAHE (GPU)", clahe_apply },
  { &core_proc_match, DIALOG_ACTION_MATCH, "Matching histograms (GPU)",
    match_apply },
  { &core_proc_multi_otsu, DIALOG_ACTION_NONE, "Multi-level Otsu (GPU)",
    multi_otsu_apply },
};

/* The run of every procedure in apply_procs, given its row
 * (apply_procedure_new): the dialog flow, or the arguments applied as one
 * undo step. */
static GimpValueArray *
run_apply (GimpProcedure *procedure, GimpRunMode run_mode, GimpImage *image,
           GimpDrawable **drawables, GimpProcedureConfig *config,
           gpointer data)
{
  const ApplyProc *p = data;
  ApplyCall        call = { run_mode, NULL, config, NULL, -1, { 0 }, 0 };
  GimpValueArray  *values;
  gint32           thresholds[CORE_CLASSES_MAX - 1];
  gh_histogram     hist;
  gboolean         ok;
  GError          *error = NULL;

  gegl_init (NULL, NULL);
  gh_histogram_init (&hist);
  call.drawable = the_drawable (image, drawables, &error);
  if (call.drawable && run_mode != GIMP_RUN_NONINTERACTIVE
      && p->action != DIALOG_ACTION_NONE)
    ok = dialog_flow (run_mode, image, call.drawable, config, p->action,
                      &hist, &call.used, &error);
  else if ((ok = call.drawable
                 && call_start (image, call.drawable, p->progress_text,
                                &call.progress, &error)))
    {
      gimp_image_undo_group_start (image);
      ok = p->apply (&call, &error);
      gimp_image_undo_group_end (image);
    }
  gh_histogram_clear (&hist);
  end_call (run_mode);
  if (! ok)
    return return_failure (procedure, error);
  values = gimp_procedure_new_return_values (procedure, GIMP_PDB_SUCCESS,
                                             NULL);
  if (p->action == DIALOG_ACTION_BINARIZE)
    GIMP_VALUES_SET_INT (values, 1, call.used);
  else if (p->proc == &core_proc_multi_otsu)
    {
      for (gint k = 0; k < call.n; k++)
        thresholds[k] = call.levels[k];
      GIMP_VALUES_SET_INT32_ARRAY (values, 1, thresholds, call.n);
    }
  return values;
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

static GimpValueArray *
run_export (GimpProcedure *procedure, GimpRunMode run_mode,
            GimpImage *image, GimpDrawable **drawables,
            GimpProcedureConfig *config, gpointer data G_GNUC_UNUSED)
{
  GimpDrawable       *drawable;
  const CoreProgress *progress;
  gchar              *path = NULL;
  gboolean            ok;
  GError             *error = NULL;

  gegl_init (NULL, NULL);
  drawable = the_drawable (image, drawables, &error);
  if (drawable && run_mode == GIMP_RUN_INTERACTIVE && ui_available ()
      && ! export_file_choose (config))
    return return_failure (procedure, NULL);
  ok = drawable
       && (path = local_path (config, &core_arg_filename, &error))
       && call_start (image, drawable, "Exporting the histogram (GPU)",
                      &progress, &error)
       && core_export (gimp3_host (), engine, drawable, path, progress,
                       &error);
  g_free (path);
  end_call (run_mode);
  return ok ? gimp_procedure_new_return_values (procedure, GIMP_PDB_SUCCESS,
                                                NULL)
            : return_failure (procedure, error);
}

static GimpValueArray *
run_batch (GimpProcedure *procedure, GimpProcedureConfig *config,
           gpointer data G_GNUC_UNUSED)
{
  GimpRunMode run_mode;
  gchar      *pattern = NULL, *output_dir = NULL, *stats_csv = NULL;
  gchar      *failures = NULL;
  gint        operation;
  guint       done = 0, failed = 0;
  gboolean    ok;
  GError     *error = NULL;

  gegl_init (NULL, NULL);
  g_object_get (config, "run-mode", &run_mode,
                core_arg_pattern.name, &pattern,
                core_arg_operation.name, &operation, NULL);
  /* Statistics only (operation 0) write no image: no folder needed. */
  if (operation != CORE_BATCH_STATISTICS)
    output_dir = local_path (config, &core_arg_output_dir, &error);
  ok = ! error
       && (stats_csv = local_path (config, &core_arg_stats_csv, &error))
       && core_engine_ensure (&engine, 0, &error)
       && core_batch_run (gimp3_host (), engine, pattern, operation,
                          output_dir, stats_csv, &done,
                          &failed, &failures, &error);
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
  end_call (run_mode);
  return ok ? gimp_procedure_new_return_values (procedure, GIMP_PDB_SUCCESS,
                                                NULL)
            : return_failure (procedure, error);
}

/* ---- Registration ------------------------------------------------- */

/* What every procedure with a menu entry declares alike; the resident's
 * temporary one of the same name has no menu entry (resident.h). */
static GimpProcedure *
image_procedure_new (GimpPlugIn *plug_in, const CoreProcText *text,
                     GimpRunImageFunc run, gpointer run_data,
                     gboolean temporary)
{
  GimpProcedure *procedure;

  procedure = temporary ? resident_image_procedure_new (plug_in, text->name,
                                                        run, run_data)
                        : gimp_image_procedure_new (plug_in, text->name,
                                                    GIMP_PDB_PROC_TYPE_PLUGIN,
                                                    run, run_data, NULL);
  gimp_procedure_set_image_types (procedure, text->image_types);
  /* One drawable: the entries are greyed out with several selected. */
  gimp_procedure_set_sensitivity_mask (procedure,
                                       GIMP_PROCEDURE_SENSITIVE_DRAWABLE);
  if (! temporary)
    {
      gimp_procedure_set_menu_label (procedure, text->menu_label);
      gimp_procedure_add_menu_path (procedure, CORE_MENU_PATH);
    }
  return procedure;
}

/* An image procedure of apply_procs, run by run_apply with its row. */
static GimpProcedure *
apply_procedure_new (GimpPlugIn *plug_in, const CoreProcText *text,
                     gboolean temporary)
{
  for (gsize i = 0; i < G_N_ELEMENTS (apply_procs); i++)
    if (apply_procs[i].proc == text)
      return image_procedure_new (plug_in, text, run_apply,
                                  (gpointer) &apply_procs[i], temporary);
  g_return_val_if_reached (NULL);
}

/* An int or double aux argument, unless the procedure has `name` as an
 * argument already. */
static void
aux_int (GimpProcedure *procedure, const gchar *name, const gchar *nick,
         const gchar *blurb, gint min, gint max, gint value)
{
  if (! gimp_procedure_find_argument (procedure, name))
    gimp_procedure_add_int_aux_argument (procedure, name, nick, blurb, min,
                                         max, value, G_PARAM_READWRITE);
}

static void
aux_double (GimpProcedure *procedure, const gchar *name, const gchar *nick,
            const gchar *blurb, gdouble min, gdouble max, gdouble value)
{
  if (! gimp_procedure_find_argument (procedure, name))
    gimp_procedure_add_double_aux_argument (procedure, name, nick, blurb,
                                            min, max, value,
                                            G_PARAM_READWRITE);
}

/* An integer argument with its texts from the core's table. */
static void
add_int_argument (GimpProcedure *procedure, const CoreArgText *arg, gint min,
                  gint max, gint value)
{
  gimp_procedure_add_int_argument (procedure, arg->name, arg->nick,
                                   arg->blurb, min, max, value,
                                   G_PARAM_READWRITE);
}

/* The dialog's settings that are not arguments of the procedure (add them
 * after its arguments), as aux arguments with a first run's values
 * (core_choice_defaults): libgimp remembers them with the arguments after
 * every interactive run. */
static void
add_dialog_settings (GimpProcedure *procedure, DialogAction action)
{
  DialogSettings d;

  core_choice_defaults (action, &d);
  if (action == DIALOG_ACTION_NONE)
    aux_int (procedure, AUX_ACTION, "Action", "The dialog's last action: 0 "
             "none, 1 equalize, 2 binarize, 3 CLAHE, 4 match, 5 posterize",
             DIALOG_ACTION_NONE, DIALOG_NUM_ACTIONS - 1, d.action);
  aux_int (procedure, core_arg_channel.name, "Channel",
           "The channel shown: 0 value, 1 red, 2 green, 3 blue, 4 alpha, 5 "
           "luminance, 6 red, green and blue", GH_CHANNEL_VALUE,
           DIALOG_NUM_CHANNEL_CHOICES - 1, d.channel);
  aux_int (procedure, core_arg_threshold.name, core_arg_threshold.nick,
           core_arg_threshold.blurb, CORE_THRESHOLD_MIN, CORE_THRESHOLD_MAX,
           d.threshold);
  aux_int (procedure, core_arg_mode.name, core_arg_mode.nick,
           core_arg_mode.blurb, CORE_MODE_MIN, CORE_MODE_MAX, d.mode);
  aux_int (procedure, AUX_SCALE, "Scale",
           "The plot's scale: 0 linear, 1 logarithmic",
           HISTOGRAM_VIEW_LINEAR, HISTOGRAM_VIEW_LOG, d.scale);
  aux_double (procedure, AUX_RANGE_LO, "From level",
              "The selected levels' first, on the 0..255 scale", 0, 255,
              d.range_lo);
  aux_double (procedure, AUX_RANGE_HI, "To level",
              "The selected levels' last, on the 0..255 scale", 0, 255,
              d.range_hi);
  aux_double (procedure, core_arg_clip_limit.name, core_arg_clip_limit.nick,
              core_arg_clip_limit.blurb, CORE_CLIP_LIMIT_MIN,
              CORE_CLIP_LIMIT_MAX, d.clip_limit);
  aux_int (procedure, core_arg_tiles_x.name, core_arg_tiles_x.nick,
           core_arg_tiles_x.blurb, CORE_TILES_MIN, CORE_TILES_MAX,
           d.tiles_x);
  aux_int (procedure, core_arg_tiles_y.name, core_arg_tiles_y.nick,
           core_arg_tiles_y.blurb, CORE_TILES_MIN, CORE_TILES_MAX,
           d.tiles_y);
  aux_int (procedure, AUX_REFERENCE, "Reference",
           "Match's reference drawable, as its item ID; -1: none", -1,
           G_MAXINT32, d.reference);
  aux_int (procedure, core_arg_classes.name, core_arg_classes.nick,
           core_arg_classes.blurb, CORE_CLASSES_MIN, CORE_CLASSES_MAX,
           d.classes);
}

/* Procedure `name`: the plug-in's, or the resident's temporary one. */
static GimpProcedure *
procedure_new (GimpPlugIn *plug_in, const gchar *name, gboolean temporary)
{
  const CoreProcText *text;
  GimpProcedure      *procedure;

  if (! g_strcmp0 (name, core_proc_analyse.name))
    {
      text = &core_proc_analyse;
      procedure = image_procedure_new (plug_in, text, run_analyse, NULL,
                                       temporary);
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
      add_dialog_settings (procedure, DIALOG_ACTION_NONE);
    }
  else if (! g_strcmp0 (name, core_proc_equalize.name))
    {
      text = &core_proc_equalize;
      procedure = apply_procedure_new (plug_in, text, temporary);
      add_int_argument (procedure, &core_arg_mode,
                        CORE_MODE_MIN, CORE_MODE_MAX, GH_EQUALIZE_CHANNELS);
      add_dialog_settings (procedure, DIALOG_ACTION_EQUALIZE);
    }
  else if (! g_strcmp0 (name, core_proc_binarize.name))
    {
      text = &core_proc_binarize;
      procedure = apply_procedure_new (plug_in, text, temporary);
      /* Otsu on luminance: the 2.10 dialog's first binarize. */
      add_int_argument (procedure, &core_arg_channel,
                        CORE_CHANNEL_MIN, CORE_CHANNEL_MAX,
                        GH_CHANNEL_LUMINANCE);
      add_int_argument (procedure, &core_arg_threshold,
                        CORE_THRESHOLD_MIN, CORE_THRESHOLD_MAX, -1);
      gimp_procedure_add_int_return_value (procedure, core_ret_threshold.name,
                                           core_ret_threshold.nick,
                                           core_ret_threshold.blurb,
                                           -1, CORE_THRESHOLD_MAX, -1,
                                           G_PARAM_READWRITE);
      add_dialog_settings (procedure, DIALOG_ACTION_BINARIZE);
    }
  else if (! g_strcmp0 (name, core_proc_export.name))
    {
      text = &core_proc_export;
      procedure = image_procedure_new (plug_in, text, run_export, NULL,
                                       temporary);
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
      procedure = temporary
                    ? resident_plain_procedure_new (plug_in, text->name,
                                                    run_batch)
                    : gimp_procedure_new (plug_in, text->name,
                                          GIMP_PDB_PROC_TYPE_PLUGIN,
                                          run_batch, NULL, NULL);
      gimp_procedure_add_enum_argument (procedure, "run-mode", "Run mode",
                                        "The run mode", GIMP_TYPE_RUN_MODE,
                                        GIMP_RUN_NONINTERACTIVE,
                                        G_PARAM_READWRITE);
      gimp_procedure_add_string_argument (procedure, core_arg_pattern.name,
                                          core_arg_pattern.nick,
                                          core_arg_pattern.blurb, "",
                                          G_PARAM_READWRITE);
      add_int_argument (procedure, &core_arg_operation,
                        CORE_OPERATION_MIN, CORE_OPERATION_MAX,
                        CORE_BATCH_STATISTICS);
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
  else if (! g_strcmp0 (name, core_proc_clahe.name))
    {
      text = &core_proc_clahe;
      procedure = apply_procedure_new (plug_in, text, temporary);
      gimp_procedure_add_double_argument (procedure, core_arg_clip_limit.name,
                                          core_arg_clip_limit.nick,
                                          core_arg_clip_limit.blurb,
                                          CORE_CLIP_LIMIT_MIN,
                                          CORE_CLIP_LIMIT_MAX,
                                          CORE_CLIP_LIMIT_DEFAULT,
                                          G_PARAM_READWRITE);
      add_int_argument (procedure, &core_arg_tiles_x,
                        CORE_TILES_MIN, CORE_TILES_MAX, CORE_TILES_DEFAULT);
      add_int_argument (procedure, &core_arg_tiles_y,
                        CORE_TILES_MIN, CORE_TILES_MAX, CORE_TILES_DEFAULT);
      /* Luminance first, as the batch's CLAHE: colours keep their hue. */
      add_int_argument (procedure, &core_arg_clahe_mode,
                        CORE_MODE_MIN, CORE_MODE_MAX, GH_EQUALIZE_LUMINANCE);
      add_dialog_settings (procedure, DIALOG_ACTION_CLAHE);
    }
  else if (! g_strcmp0 (name, core_proc_match.name))
    {
      text = &core_proc_match;
      procedure = apply_procedure_new (plug_in, text, temporary);
      gimp_procedure_add_drawable_argument (procedure,
                                            core_arg_reference.name,
                                            core_arg_reference.nick,
                                            core_arg_reference.blurb, FALSE,
                                            G_PARAM_READWRITE);
      /* Each channel first: scikit-image's match_histograms. */
      add_int_argument (procedure, &core_arg_match_mode,
                        CORE_MODE_MIN, CORE_MODE_MAX, GH_EQUALIZE_CHANNELS);
      add_dialog_settings (procedure, DIALOG_ACTION_MATCH);
    }
  else if (! g_strcmp0 (name, core_proc_multi_otsu.name))
    {
      text = &core_proc_multi_otsu;
      procedure = apply_procedure_new (plug_in, text, temporary);
      add_int_argument (procedure, &core_arg_otsu_channel,
                        CORE_CHANNEL_MIN, CORE_CHANNEL_MAX,
                        GH_CHANNEL_LUMINANCE);
      add_int_argument (procedure, &core_arg_classes,
                        CORE_CLASSES_MIN, CORE_CLASSES_MAX,
                        CORE_CLASSES_DEFAULT);
      /* The menu entry's first run posterizes: something to see. */
      add_int_argument (procedure, &core_arg_apply,
                        CORE_APPLY_MIN, CORE_APPLY_MAX, CORE_APPLY_MAX);
      /* GIMP 3's arrays carry their length: no num-thresholds. */
      gimp_procedure_add_int32_array_return_value (procedure,
                                                   core_ret_thresholds.name,
                                                   core_ret_thresholds.nick,
                                                   core_ret_thresholds.blurb,
                                                   G_PARAM_READWRITE);
    }
  else
    return NULL;

  gimp_procedure_set_documentation (procedure, text->blurb, text->help,
                                    text->name);
  gimp_procedure_set_attribution (procedure, CORE_AUTHOR, CORE_COPYRIGHT,
                                  CORE_DATE);
  return procedure;
}

static GimpProcedure *
gpu_histogram_create_procedure (GimpPlugIn *plug_in, const gchar *name)
{
  if (resident_is (name))
    return resident_procedure_new (plug_in, procedure_new, &engine);
  return procedure_new (plug_in, name, FALSE);
}

static void
gpu_histogram_class_init (GpuHistogramClass *klass)
{
  GimpPlugInClass *plug_in_class = GIMP_PLUG_IN_CLASS (klass);

  plug_in_class->query_procedures = gpu_histogram_query_procedures;
  plug_in_class->create_procedure = gpu_histogram_create_procedure;
  plug_in_class->set_i18n = gpu_histogram_set_i18n;
  plug_in_class->quit = resident_quit;
}

static void
gpu_histogram_init (GpuHistogram *plug_in G_GNUC_UNUSED)
{
  /* babl 0.1.114 (GIMP 3.0) times its lookup tables in every new process
   * at the first conversion that could use one (a 256 MiB table filled
   * and benchmarked: 0.2 to 1 s measured), and a plug-in is a new
   * process at every call: that is often longer than the histogram
   * takes.  BABL_LUT=0 skips it.  GIMP creates this object before
   * libgimp's _gimp_config starts babl, so setting it here is in time; a
   * value the user set is kept. */
  g_setenv ("BABL_LUT", "0", FALSE);
  /* GEGL's tile cache here would be GIMP's (tile-cache-size: half the
   * memory by default) and keep every tile read or written, the whole
   * image and its shadow: pixels stream in strips, so a small cache bounds
   * the process (tests/plugin_memory.py).  gegl_init reads it after
   * libgimp has set GIMP's. */
  g_setenv ("GEGL_CACHE_SIZE", "64", TRUE);
}
