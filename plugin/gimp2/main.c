/* main.c — gpu-histogram for GIMP 2.10: registration of the PDB procedures
 * and their run modes (the despeckle.c flow: query, run, process).
 *
 * The procedures' texts, the pixel work and the dialog's choices are the
 * core's (plugin/core/); this file marshals GIMP 2.10's arguments into it
 * and its results back.  One process per call, except scripts'
 * RUN-NONINTERACTIVE calls, which the resident process serves with the
 * same code (resident.h); a process creates one engine, at the first
 * procedure that needs it, so a batch pays the GPU start-up once.
 * Settings are kept with gimp_set_data after every successful run, so
 * RUN-WITH-LAST-VALS repeats them.  RUN-INTERACTIVE opens the histogram
 * dialog (ui/) for the analyse, equalize, binarize, CLAHE and match
 * procedures (all but the first with their own action selected), whose
 * settings they keep, and a file chooser for the export; without a display
 * they repeat their last settings.  Multi-Otsu has no dialog of its own
 * (the histogram dialog offers posterize as an action): every run mode but
 * NONINTERACTIVE applies its last settings.
 */
#include <string.h>

#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>

#include "batch.h"
#include "beyond.h"
#include "call.h"
#include "choice.h"
#include "dialog_gtk2.h"
#include "errors.h"
#include "host.h"
#include "operations.h"
#include "procedures.h"
#include "resident.h"

#define PATH_LEN 4096

typedef struct
{
  gchar filename[PATH_LEN];
} ExportSettings;

typedef struct
{
  gchar  pattern[PATH_LEN];
  gint32 operation;
  gchar  output_dir[PATH_LEN];
  gchar  stats_csv[PATH_LEN];
} BatchSettings;

typedef struct
{
  gint32 channel;
  gint32 classes;
  gint32 apply;
} MultiOtsuSettings;

static void query (void);
static void register_procedures (GimpRunProc temporary_run);
static void run (const gchar *name, gint nparams, const GimpParam *param,
                 gint *nreturn_vals, GimpParam **return_vals);

const GimpPlugInInfo PLUG_IN_INFO = { NULL, resident_quit, query, run };

static gh_engine *engine;

MAIN ()

/* A GimpParamDef from the core's texts (libgimp 2.0 wants them
 * non-const, and only reads them). */
#define PARAM(type, text) \
  { type, (gchar *) (text).name, (gchar *) (text).blurb }
#define RUN_MODE_PARAM \
  { GIMP_PDB_INT32, "run-mode", \
    "The run mode { RUN-INTERACTIVE (0), RUN-NONINTERACTIVE (1), " \
    "RUN-WITH-LAST-VALS (2) }" }
#define IMAGE_PARAMS \
  RUN_MODE_PARAM, \
  { GIMP_PDB_IMAGE, "image", "Input image" }, \
  { GIMP_PDB_DRAWABLE, "drawable", "Input drawable" }

/* Installs a procedure, with its menu entry when it has one; with
 * temporary_run, the resident's temporary procedure of that name, which
 * has none (resident.h). */
static void
install (GimpRunProc temporary_run, const CoreProcText *proc, gint n_args,
         const GimpParamDef *args, gint n_returns,
         const GimpParamDef *returns)
{
  if (temporary_run)
    {
      gimp_install_temp_proc (proc->name, proc->blurb, proc->help,
                              CORE_AUTHOR, CORE_COPYRIGHT, CORE_DATE, NULL,
                              proc->image_types, GIMP_TEMPORARY, n_args,
                              n_returns, args, returns, temporary_run);
      return;
    }
  gimp_install_procedure (proc->name, proc->blurb, proc->help, CORE_AUTHOR,
                          CORE_COPYRIGHT, CORE_DATE, proc->menu_label,
                          proc->image_types, GIMP_PLUGIN, n_args, n_returns,
                          args, returns);
  if (proc->menu_label)
    gimp_plugin_menu_register (proc->name, CORE_MENU_PATH);
}

/* The plug-in's procedures, or (temporary_run) the resident's. */
static void
register_procedures (GimpRunProc temporary_run)
{
  const GimpParamDef analyse_args[] = { IMAGE_PARAMS };
  const GimpParamDef analyse_return[] = {
    PARAM (GIMP_PDB_STRING, core_ret_backend),
    /* GIMP 2.10's arrays come after their length. */
    { GIMP_PDB_INT32, "num-stats", "Length of stats (42)" },
    PARAM (GIMP_PDB_FLOATARRAY, core_ret_stats),
    { GIMP_PDB_INT32, "num-bins", "Length of histogram (1536)" },
    PARAM (GIMP_PDB_FLOATARRAY, core_ret_histogram),
  };
  const GimpParamDef equalize_args[] = {
    IMAGE_PARAMS,
    PARAM (GIMP_PDB_INT32, core_arg_mode),
  };
  const GimpParamDef binarize_args[] = {
    IMAGE_PARAMS,
    PARAM (GIMP_PDB_INT32, core_arg_channel),
    PARAM (GIMP_PDB_INT32, core_arg_threshold),
  };
  const GimpParamDef binarize_return[] = {
    PARAM (GIMP_PDB_INT32, core_ret_threshold),
  };
  const GimpParamDef export_args[] = {
    IMAGE_PARAMS,
    PARAM (GIMP_PDB_STRING, core_arg_filename),
  };
  const GimpParamDef clahe_args[] = {
    IMAGE_PARAMS,
    PARAM (GIMP_PDB_FLOAT, core_arg_clip_limit),
    PARAM (GIMP_PDB_INT32, core_arg_tiles_x),
    PARAM (GIMP_PDB_INT32, core_arg_tiles_y),
    PARAM (GIMP_PDB_INT32, core_arg_clahe_mode),
  };
  const GimpParamDef match_args[] = {
    IMAGE_PARAMS,
    PARAM (GIMP_PDB_DRAWABLE, core_arg_reference),
    PARAM (GIMP_PDB_INT32, core_arg_match_mode),
  };
  const GimpParamDef multi_otsu_args[] = {
    IMAGE_PARAMS,
    PARAM (GIMP_PDB_INT32, core_arg_otsu_channel),
    PARAM (GIMP_PDB_INT32, core_arg_classes),
    PARAM (GIMP_PDB_INT32, core_arg_apply),
  };
  const GimpParamDef multi_otsu_return[] = {
    PARAM (GIMP_PDB_INT32, core_ret_num_thresholds),
    PARAM (GIMP_PDB_INT32ARRAY, core_ret_thresholds),
  };
  const GimpParamDef batch_args[] = {
    RUN_MODE_PARAM,
    PARAM (GIMP_PDB_STRING, core_arg_pattern),
    PARAM (GIMP_PDB_INT32, core_arg_operation),
    PARAM (GIMP_PDB_STRING, core_arg_output_dir),
    PARAM (GIMP_PDB_STRING, core_arg_stats_csv),
  };

  install (temporary_run, &core_proc_analyse, G_N_ELEMENTS (analyse_args),
           analyse_args, G_N_ELEMENTS (analyse_return), analyse_return);
  install (temporary_run, &core_proc_equalize, G_N_ELEMENTS (equalize_args),
           equalize_args, 0, NULL);
  install (temporary_run, &core_proc_binarize, G_N_ELEMENTS (binarize_args),
           binarize_args, G_N_ELEMENTS (binarize_return), binarize_return);
  install (temporary_run, &core_proc_export, G_N_ELEMENTS (export_args),
           export_args, 0, NULL);
  install (temporary_run, &core_proc_batch, G_N_ELEMENTS (batch_args),
           batch_args, 0, NULL);
  install (temporary_run, &core_proc_clahe, G_N_ELEMENTS (clahe_args),
           clahe_args, 0, NULL);
  install (temporary_run, &core_proc_match, G_N_ELEMENTS (match_args),
           match_args, 0, NULL);
  install (temporary_run, &core_proc_multi_otsu,
           G_N_ELEMENTS (multi_otsu_args), multi_otsu_args,
           G_N_ELEMENTS (multi_otsu_return), multi_otsu_return);
}

static void
query (void)
{
  register_procedures (NULL);
  resident_install ();
}

/* Arguments a run mode needs: all of them without interaction, the image
 * and drawable (or nothing for the batch) otherwise. */
static gboolean
check_arguments (GimpRunMode run_mode, gint nparams, gint wanted,
                 gint needed_otherwise, GError **error)
{
  if (run_mode != GIMP_RUN_INTERACTIVE && run_mode != GIMP_RUN_NONINTERACTIVE
      && run_mode != GIMP_RUN_WITH_LAST_VALS)
    g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                 "unknown run mode %d", run_mode);
  else if (run_mode == GIMP_RUN_NONINTERACTIVE ? nparams != wanted
                                               : nparams < needed_otherwise)
    g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                 "%d arguments given, %d expected", nparams, wanted);
  else
    return TRUE;
  return FALSE;
}

/* The arguments of a procedure on a drawable (check_arguments), whose
 * drawable must be in its image. */
static gboolean
check_drawable_call (GimpRunMode run_mode, gint nparams, gint wanted,
                     const GimpParam *param, GError **error)
{
  if (! check_arguments (run_mode, nparams, wanted, 3, error))
    return FALSE;
  if (gimp_item_get_image (param[2].data.d_drawable) == param[1].data.d_image)
    return TRUE;
  g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
               "drawable %d is not in image %d", param[2].data.d_drawable,
               param[1].data.d_image);
  return FALSE;
}

/* Copies a string argument into settings; too long is a calling error. */
static gboolean
copy_string (gchar *dest, const gchar *src, const gchar *what, GError **error)
{
  if (g_strlcpy (dest, src ? src : "", PATH_LEN) < PATH_LEN)
    return TRUE;
  g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
               "the %s is longer than %d bytes", what, PATH_LEN - 1);
  return FALSE;
}

/* Settings of an interactive or repeated run: the last ones, else
 * `defaults` (NULL: there are none and the run needs them). */
static gboolean
last_settings (const gchar *proc, gpointer settings, gsize size,
               gconstpointer defaults, GError **error)
{
  /* Data of another size is another version's: not ours to read. */
  if (gimp_get_data_size (proc) == (gint) size && gimp_get_data (proc, settings))
    return TRUE;
  if (defaults)
    {
      memcpy (settings, defaults, size);
      return TRUE;
    }
  g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
               "%s has no last settings yet: run it once with its "
               "arguments (RUN-NONINTERACTIVE)", proc);
  return FALSE;
}

/* The start of a call on the drawable argument of `param` (checked):
 * the part inside the selection, asked once, for the engine, the progress
 * bar with `text` and the core (core_call_start). */
static gboolean
call_start (const GimpParam *param, const gchar *text,
            const CoreProgress **progress, GError **error)
{
  gint32            drawable = param[2].data.d_drawable;
  CoreDrawableFacts facts = { GIMP2_HANDLE (drawable),
                              GIMP2_HANDLE (param[1].data.d_image), FALSE,
                              0, 0, 0, 0 };

  facts.intersects = gimp_drawable_mask_intersect (drawable, &facts.x,
                                                   &facts.y, &facts.width,
                                                   &facts.height);
  return core_call_start (&gimp2_host, &engine, &facts, text, progress,
                          error);
}

/* The drawable's histogram, under GIMP's progress bar, and how long the
 * engine took (its start-up left out). */
static gboolean
histogram_timed (const GimpParam *param, gh_histogram *hist,
                 gdouble *seconds, GError **error)
{
  const CoreProgress *progress;
  GTimer             *timer;
  gboolean            ok;

  if (! call_start (param, "Histogram (GPU)", &progress, error))
    return FALSE;
  timer = g_timer_new ();
  ok = core_histogram (&gimp2_host, engine,
                       GIMP2_HANDLE (param[2].data.d_drawable), hist,
                       progress, error);
  *seconds = g_timer_elapsed (timer, NULL);
  g_timer_destroy (timer);
  return ok;
}

/* What the dialog's hooks work on. */
typedef struct
{
  gint32              drawable;
  const gh_histogram *hist;
  CorePreview        *preview;
} DialogTarget;

/* Match's reference as the core's handle: NULL when the ID is no
 * drawable (any more). */
static gpointer
reference_handle (gint32 reference)
{
  return reference >= 0 && gimp_item_is_valid (reference)
         && gimp_item_is_drawable (reference) ? GIMP2_HANDLE (reference)
                                              : NULL;
}

/* The dialog's preview: the core's (what OK does, pixel for pixel). */
static guchar *
preview_pixels (const DialogChoice *choice, gint x, gint y, gint width,
                gint height, gint *rowstride, gpointer data, GError **error)
{
  const DialogTarget *t = data;

  return core_preview_pixels (t->preview, choice,
                              reference_handle (choice->reference), x, y,
                              width, height, rowstride, error);
}

/* Match's reference picker: libgimpui's, every drawable of every open
 * image, by item ID. */
static gpointer
reference_picker (gint32 reference, gpointer data)
{
  GtkWidget *combo = gimp_drawable_combo_box_new (NULL, NULL);

  (void) data;
  if (reference_handle (reference))
    gimp_int_combo_box_set_active (GIMP_INT_COMBO_BOX (combo), reference);
  return combo;
}

/* The dialog's Export CSV: the histogram it shows, written as the export
 * procedure writes it and remembered as that procedure's last file. */
static gboolean
export_csv (const gchar *filename, gpointer data, GError **error)
{
  const DialogTarget *t = data;
  ExportSettings      s;

  if (! copy_string (s.filename, filename, "file name", error)
      || ! core_write_csv (t->hist, filename, error))
    return FALSE;
  gimp_set_data (core_proc_export.name, &s, sizeof s);
  return TRUE;
}

/* Whether a dialog can be shown.  gimp-console has no display: there an
 * interactive run repeats the last settings, as a repeated run does.  The
 * display is GIMP's, as gimp_ui_init picks it. */
static gboolean
display_available (void)
{
  gchar       *argv_data[] = { (gchar *) CORE_PLUG_IN_BINARY, NULL };
  gchar      **argv = argv_data;
  gint         argc = 1;
  const gchar *name = gimp_display_name ();

  if (name && *name)
    g_setenv ("DISPLAY", name, TRUE);
  return gtk_init_check (&argc, &argv);
}

/* The dialog settings `proc` keeps: its last ones, else a first run's.
 * The procedures with an action of their own always start on it; the analyse
 * dialog on its last one. */
static void
dialog_settings_get (const gchar *proc, DialogAction action,
                     DialogSettings *settings)
{
  DialogSettings defaults;

  core_choice_defaults (action, &defaults);
  /* CLAHE's first mode is its procedure's (luminance: colours keep their
   * hue), as GIMP 3's argument default. */
  if (action == DIALOG_ACTION_CLAHE)
    defaults.mode = GH_EQUALIZE_LUMINANCE;
  last_settings (proc, settings, sizeof *settings, &defaults, NULL);
  if (action != DIALOG_ACTION_NONE)
    settings->action = action;
}

/* The interactive and repeated runs of the procedures with a dialog: the
 * dialog (without a display, or repeating: the last settings) decides
 * what, if anything, to apply with the histogram it shows.  *used (may be
 * NULL): the binarize threshold applied as a level, -1 for none. */
static gboolean
dialog_apply (const gchar *proc, DialogAction action, GimpRunMode run_mode,
              gint32 drawable, const gh_histogram *hist, gdouble seconds,
              gboolean *changed, gint *used, GError **error)
{
  DialogSettings settings;
  DialogState    state;
  DialogTarget   target = { drawable, hist, NULL };
  DialogHooks    hooks = { preview_pixels, export_csv, reference_picker,
                           &target };
  DialogChoice   choice;
  GError        *refusal = NULL;
  gboolean       chosen = TRUE, ok;

  dialog_settings_get (proc, action, &settings);
  dialog_state_init (&state, hist, gh_engine_backend_name (engine), seconds,
                     &settings);
  if (run_mode == GIMP_RUN_INTERACTIVE && display_available ())
    {
      core_check_changeable (&gimp2_host, GIMP2_HANDLE (drawable), &refusal);
      gimp_ui_init (CORE_PLUG_IN_BINARY, TRUE);
      target.preview = core_preview_new (&gimp2_host, engine,
                                         GIMP2_HANDLE (drawable), hist);
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

      if (text)
        gimp_message (text);
      g_free (text);
    }
  if (used)
    *used = -1;
  /* Cancel changes nothing, not even the remembered settings. */
  ok = ! chosen || core_apply_choice (&gimp2_host, engine,
                                      GIMP2_HANDLE (drawable), &choice,
                                      reference_handle (choice.reference),
                                      hist, TRUE, error);
  if (chosen && ok)
    {
      gimp_set_data (proc, &state.settings, sizeof state.settings);
      *changed = choice.action != DIALOG_ACTION_NONE;
      if (used && choice.action == DIALOG_ACTION_BINARIZE)
        *used = dialog_state_threshold (&state);
    }
  dialog_state_clear (&state);
  return ok;
}

/* The procedures with their own action in the dialog, or repeated, on
 * their image and drawable arguments. */
static gboolean
dialog_procedure (const gchar *proc, DialogAction action,
                  GimpRunMode run_mode, const GimpParam *param,
                  gboolean *changed, gint *used, GError **error)
{
  gint32       drawable = param[2].data.d_drawable;
  gh_histogram hist;
  gdouble      seconds;
  gboolean     ok;

  gh_histogram_init (&hist);
  ok = histogram_timed (param, &hist, &seconds, error)
       && dialog_apply (proc, action, run_mode, drawable, &hist, seconds,
                        changed, used, error);
  gh_histogram_clear (&hist);
  return ok;
}

static gboolean
run_analyse (GimpRunMode run_mode, gint nparams, const GimpParam *param,
             GimpParam *values, gint *nreturn_vals, gboolean *changed,
             GError **error)
{
  /* Returned values must outlive run(): libgimp sends them afterwards. */
  static gdouble stats[GH_NUM_STATS];
  static gdouble counts[GH_NUM_LEVELS];
  static gchar   backend[256];
  gh_histogram   hist;
  gdouble        seconds;
  gboolean       ok;

  if (! check_drawable_call (run_mode, nparams, 3, param, error))
    return FALSE;
  gh_histogram_init (&hist);
  ok = histogram_timed (param, &hist, &seconds, error);
  if (ok)
    {
      gh_stats_table (&hist, stats);
      gh_histogram_levels (&hist, counts);
      g_strlcpy (backend, gh_engine_backend_name (engine), sizeof backend);
      if (run_mode != GIMP_RUN_NONINTERACTIVE)
        ok = dialog_apply (core_proc_analyse.name, DIALOG_ACTION_NONE,
                           run_mode, param[2].data.d_drawable, &hist, seconds,
                           changed, NULL, error);
    }
  if (ok)
    {
      values[1].type = GIMP_PDB_STRING;
      values[1].data.d_string = backend;
      values[2].type = GIMP_PDB_INT32;
      values[2].data.d_int32 = GH_NUM_STATS;
      values[3].type = GIMP_PDB_FLOATARRAY;
      values[3].data.d_floatarray = stats;
      values[4].type = GIMP_PDB_INT32;
      values[4].data.d_int32 = GH_NUM_LEVELS;
      values[5].type = GIMP_PDB_FLOATARRAY;
      values[5].data.d_floatarray = counts;
      *nreturn_vals = 6;
    }
  gh_histogram_clear (&hist);
  return ok;
}

/* A procedure with an action of its own in the dialog (equalize,
 * binarize, CLAHE, match).  Its interactive and repeated runs are the
 * dialog's (dialog_procedure); its NONINTERACTIVE run applies its
 * arguments (apply_arguments) and remembers them as the dialog's settings
 * (remember_arguments), so a repeat does the same and the dialog starts
 * from them. */
typedef struct
{
  const CoreProcText *proc;
  DialogAction        action;
  gint                n_args;        /* NONINTERACTIVE's, run mode first */
  const gchar        *progress_text; /* the bar's, NONINTERACTIVE */
} DialogProc;

static const DialogProc equalize_proc = {
  &core_proc_equalize, DIALOG_ACTION_EQUALIZE, 4, "Equalizing (GPU)",
};
static const DialogProc binarize_proc = {
  &core_proc_binarize, DIALOG_ACTION_BINARIZE, 5, "Binarizing (GPU)",
};
static const DialogProc clahe_proc = {
  &core_proc_clahe, DIALOG_ACTION_CLAHE, 7, "CLAHE (GPU)",
};
static const DialogProc match_proc = {
  &core_proc_match, DIALOG_ACTION_MATCH, 5, "Matching histograms (GPU)",
};

/* The NONINTERACTIVE run of the procedure whose action is `action`: its
 * arguments applied under `progress`.  *used: binarize's threshold as a
 * level. */
static gboolean
apply_arguments (DialogAction action, const GimpParam *param,
                 const CoreProgress *progress, gint *used, GError **error)
{
  gpointer drawable = GIMP2_HANDLE (param[2].data.d_drawable);

  switch (action)
    {
    case DIALOG_ACTION_EQUALIZE:
      return core_equalize (&gimp2_host, engine, drawable,
                            param[3].data.d_int32, NULL, progress, error);
    case DIALOG_ACTION_BINARIZE:
      return core_binarize (&gimp2_host, engine, drawable,
                            param[3].data.d_int32, param[4].data.d_int32,
                            NULL, used, progress, error);
    case DIALOG_ACTION_CLAHE:
      return core_clahe (&gimp2_host, engine, drawable,
                         param[3].data.d_float, param[4].data.d_int32,
                         param[5].data.d_int32, param[6].data.d_int32,
                         progress, error);
    default: /* DIALOG_ACTION_MATCH */
      return core_match (&gimp2_host, engine, drawable,
                         GIMP2_HANDLE (param[3].data.d_drawable),
                         param[4].data.d_int32, NULL, progress, error);
    }
}

/* Those arguments written into the dialog's settings `s`. */
static void
remember_arguments (DialogAction action, const GimpParam *param,
                    DialogSettings *s)
{
  switch (action)
    {
    case DIALOG_ACTION_EQUALIZE:
      s->mode = param[3].data.d_int32;
      break;
    case DIALOG_ACTION_BINARIZE:
      s->channel = param[3].data.d_int32;
      s->threshold = param[4].data.d_int32;
      /* The procedure's Otsu is over all levels. */
      s->range_lo = 0;
      s->range_hi = 255;
      break;
    case DIALOG_ACTION_CLAHE:
      s->clip_limit = param[3].data.d_float;
      s->tiles_x = param[4].data.d_int32;
      s->tiles_y = param[5].data.d_int32;
      s->mode = param[6].data.d_int32;
      break;
    default: /* DIALOG_ACTION_MATCH */
      s->reference = param[3].data.d_drawable;
      s->mode = param[4].data.d_int32;
    }
}

static gboolean
run_dialog_proc (const DialogProc *p, GimpRunMode run_mode, gint nparams,
                 const GimpParam *param, gboolean *changed, gint *used,
                 GError **error)
{
  const CoreProgress *progress;
  DialogSettings      s;

  if (! check_drawable_call (run_mode, nparams, p->n_args, param, error))
    return FALSE;
  if (run_mode != GIMP_RUN_NONINTERACTIVE)
    return dialog_procedure (p->proc->name, p->action, run_mode, param,
                             changed, used, error);
  if (! call_start (param, p->progress_text, &progress, error)
      || ! apply_arguments (p->action, param, progress, used, error))
    return FALSE;
  dialog_settings_get (p->proc->name, p->action, &s);
  remember_arguments (p->action, param, &s);
  gimp_set_data (p->proc->name, &s, sizeof s);
  *changed = TRUE;
  return TRUE;
}

static gboolean
run_binarize (GimpRunMode run_mode, gint nparams, const GimpParam *param,
              GimpParam *values, gint *nreturn_vals, gboolean *changed,
              GError **error)
{
  gint used;

  if (! run_dialog_proc (&binarize_proc, run_mode, nparams, param, changed,
                         &used, error))
    return FALSE;
  values[1].type = GIMP_PDB_INT32;
  values[1].data.d_int32 = used;
  *nreturn_vals = 2;
  return TRUE;
}

static gboolean
run_export (GimpRunMode run_mode, gint nparams, const GimpParam *param,
            GError **error)
{
  const CoreProgress *progress;
  const gchar        *proc = core_proc_export.name;
  ExportSettings      s;

  if (! check_drawable_call (run_mode, nparams, 4, param, error))
    return FALSE;
  if (run_mode == GIMP_RUN_NONINTERACTIVE)
    {
      if (! copy_string (s.filename, param[3].data.d_string, "file name",
                         error))
        return FALSE;
    }
  else if (run_mode == GIMP_RUN_INTERACTIVE && display_available ())
    {
      gboolean known = last_settings (proc, &s, sizeof s, NULL, NULL);
      gchar   *file;
      gboolean copied;

      gimp_ui_init (CORE_PLUG_IN_BINARY, FALSE);
      file = dialog_csv_file_choose (NULL, known ? s.filename : NULL);
      /* Cancel writes nothing, as the dialog's Cancel changes nothing. */
      if (! file)
        return TRUE;
      copied = copy_string (s.filename, file, "file name", error);
      g_free (file);
      if (! copied)
        return FALSE;
    }
  else if (! last_settings (proc, &s, sizeof s, NULL, error))
    return FALSE;
  if (! call_start (param, "Exporting the histogram (GPU)", &progress, error)
      || ! core_export (&gimp2_host, engine,
                        GIMP2_HANDLE (param[2].data.d_drawable), s.filename,
                        progress, error))
    return FALSE;
  gimp_set_data (proc, &s, sizeof s);
  return TRUE;
}

/* Multi-Otsu has no dialog of its own yet: its interactive and repeated
 * runs apply the last settings (a first run's defaults before there are
 * any). */
static gboolean
run_multi_otsu (GimpRunMode run_mode, gint nparams, const GimpParam *param,
                GimpParam *values, gint *nreturn_vals, gboolean *changed,
                GError **error)
{
  static const MultiOtsuSettings defaults = {
    GH_CHANNEL_LUMINANCE, CORE_CLASSES_DEFAULT, 1,
  };
  /* Returned values must outlive run(): libgimp sends them afterwards. */
  static gint32       thresholds[CORE_CLASSES_MAX - 1];
  const CoreProgress *progress;
  gint32              drawable = param[2].data.d_drawable;
  MultiOtsuSettings   s;
  gint                levels[CORE_CLASSES_MAX - 1], n;

  if (! check_drawable_call (run_mode, nparams, 6, param, error))
    return FALSE;
  if (run_mode == GIMP_RUN_NONINTERACTIVE)
    {
      s.channel = param[3].data.d_int32;
      s.classes = param[4].data.d_int32;
      s.apply = param[5].data.d_int32;
    }
  else
    {
      last_settings (core_proc_multi_otsu.name, &s, sizeof s, &defaults,
                     NULL);
      /* A first run's luminance on a gray layer is its value. */
      if (gimp_drawable_is_gray (drawable)
          && s.channel == GH_CHANNEL_LUMINANCE)
        s.channel = GH_CHANNEL_VALUE;
    }
  if (! call_start (param, "Multi-level Otsu (GPU)", &progress, error)
      || ! core_multi_otsu (&gimp2_host, engine, GIMP2_HANDLE (drawable),
                            s.channel, s.classes, s.apply, NULL, levels, &n,
                            progress, error))
    return FALSE;
  gimp_set_data (core_proc_multi_otsu.name, &s, sizeof s);
  if (run_mode != GIMP_RUN_NONINTERACTIVE)
    {
      gchar *text = core_multi_otsu_text (s.channel, levels, n);

      gimp_message (text);
      g_free (text);
    }
  for (gint k = 0; k < n; k++)
    thresholds[k] = levels[k];
  values[1].type = GIMP_PDB_INT32;
  values[1].data.d_int32 = n;
  values[2].type = GIMP_PDB_INT32ARRAY;
  values[2].data.d_int32array = thresholds;
  *nreturn_vals = 3;
  *changed = s.apply;
  return TRUE;
}

static gboolean
run_batch (GimpRunMode run_mode, gint nparams, const GimpParam *param,
           GError **error)
{
  /* Four paths of PATH_LEN: too large for the stack of a plug-in. */
  static BatchSettings s;
  const gchar         *proc = core_proc_batch.name;
  guint                done, failed;
  gchar               *failures;

  if (! check_arguments (run_mode, nparams, 5, 1, error))
    return FALSE;
  if (run_mode == GIMP_RUN_NONINTERACTIVE)
    {
      s.operation = param[2].data.d_int32;
      if (! copy_string (s.pattern, param[1].data.d_string, "pattern", error)
          || ! copy_string (s.output_dir, param[3].data.d_string,
                            "output folder", error)
          || ! copy_string (s.stats_csv, param[4].data.d_string,
                            "statistics file name", error))
        return FALSE;
    }
  else if (! last_settings (proc, &s, sizeof s, NULL, error))
    return FALSE;
  if (! core_engine_ensure (&engine, 0, error)
      || ! core_batch_run (&gimp2_host, engine, s.pattern, s.operation,
                           s.output_dir, s.stats_csv, &done, &failed,
                           &failures, error))
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

/* GEGL for the plug-in's buffers, once per process. */
static void
start_gegl (void)
{
  /* The plug-in uses GEGL's buffers, never its operations: without a
   * module folder gegl_init loads none, which was 56 % of a small call's
   * time (BENCHMARKS.md, issue 14).  A plug-in process only. */
  g_setenv ("GEGL_PATH", "/nonexistent/gpu-histogram/no-gegl-modules", TRUE);
  /* GEGL's tile cache here would be GIMP's (tile-cache-size: half the
   * memory by default) and keep every tile read or written, the whole
   * image and its shadow: pixels stream in strips, so a small cache bounds
   * the process (tests/plugin_memory.py).  gegl_init reads it after
   * libgimp has set GIMP's. */
  g_setenv ("GEGL_CACHE_SIZE", "64", TRUE);
  gegl_init (NULL, NULL);
}

/* One call of a procedure, in this process or the resident one. */
static void
run_call (const gchar *name, gint nparams, const GimpParam *param,
          gint *nreturn_vals, GimpParam **return_vals)
{
  static GimpParam values[6];
  static gchar     message[1024];
  GimpRunMode      run_mode = nparams > 0 ? param[0].data.d_int32
                                          : GIMP_RUN_NONINTERACTIVE;
  GError          *error = NULL;
  gboolean         changed = FALSE;
  gboolean         ok;

  *nreturn_vals = 1;
  *return_vals = values;
  values[0].type = GIMP_PDB_STATUS;

  if (! strcmp (name, core_proc_analyse.name))
    ok = run_analyse (run_mode, nparams, param, values, nreturn_vals,
                      &changed, &error);
  else if (! strcmp (name, core_proc_equalize.name))
    ok = run_dialog_proc (&equalize_proc, run_mode, nparams, param,
                          &changed, NULL, &error);
  else if (! strcmp (name, core_proc_binarize.name))
    ok = run_binarize (run_mode, nparams, param, values, nreturn_vals,
                       &changed, &error);
  else if (! strcmp (name, core_proc_export.name))
    ok = run_export (run_mode, nparams, param, &error);
  else if (! strcmp (name, core_proc_batch.name))
    ok = run_batch (run_mode, nparams, param, &error);
  else if (! strcmp (name, core_proc_clahe.name))
    ok = run_dialog_proc (&clahe_proc, run_mode, nparams, param, &changed,
                          NULL, &error);
  else if (! strcmp (name, core_proc_match.name))
    ok = run_dialog_proc (&match_proc, run_mode, nparams, param, &changed,
                          NULL, &error);
  else if (! strcmp (name, core_proc_multi_otsu.name))
    ok = run_multi_otsu (run_mode, nparams, param, values, nreturn_vals,
                         &changed, &error);
  else
    {
      g_set_error (&error, CORE_ERROR, CORE_ERROR_CALLING,
                   "unknown procedure %s", name);
      ok = FALSE;
    }

  if (changed && run_mode != GIMP_RUN_NONINTERACTIVE)
    gimp_displays_flush ();
  values[0].data.d_status = ok ? GIMP_PDB_SUCCESS : gimp2_pdb_status (error);
  if (error && ! strcmp (name, core_proc_multi_otsu.name))
    {
      /* Its return values are an INT32 and the INT32ARRAY of that length:
       * GIMP 2.10 pads a shorter reply to them and sends the array with
       * the length read from value 1, which a STRING there makes garbage
       * (the caller crashes).  So its message is GIMP's message; the
       * status says calling or execution error. */
      gimp_message (error->message);
      g_error_free (error);
    }
  else if (error)
    {
      /* GIMP shows a second STRING value of a failed call as its error
       * message (and Script-Fu prints it). */
      g_strlcpy (message, error->message, sizeof message);
      values[1].type = GIMP_PDB_STRING;
      values[1].data.d_string = message;
      *nreturn_vals = 2;
      g_error_free (error);
    }
  core_call_end (engine, run_mode == GIMP_RUN_INTERACTIVE ? gimp_message
                                                          : NULL);
}

static void
run (const gchar *name, gint nparams, const GimpParam *param,
     gint *nreturn_vals, GimpParam **return_vals)
{
  const ResidentHooks hooks = { register_procedures, start_gegl, run_call,
                                &engine };

  if (resident_is (name))
    {
      resident_serve (&hooks, nreturn_vals, return_vals);
      return;
    }
  start_gegl ();
  run_call (name, nparams, param, nreturn_vals, return_vals);
  gh_engine_destroy (engine);
  engine = NULL;
}
