/* main.c — gpu-histogram: registration of the PDB procedures and their run
 * modes (the GIMP 2.10 despeckle.c flow: query, run, process).
 *
 * One process per call; it creates one engine, at the first procedure that
 * needs it, so a batch pays the GPU start-up once.  Settings are kept with
 * gimp_set_data after every successful run, so RUN-WITH-LAST-VALS repeats
 * them.  RUN-INTERACTIVE opens the histogram dialog (ui/) for the analyse,
 * equalize and binarize procedures (the last two with their own action
 * selected), whose settings all three keep, and a file chooser for the
 * export; without a display they repeat their last settings.
 */
#include <string.h>

#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>

#include "batch.h"
#include "dialog_gtk2.h"
#include "errors.h"
#include "operations.h"

#define PROC_ANALYSE  "plug-in-gpu-histogram"
#define PROC_EQUALIZE "plug-in-gpu-histogram-equalize"
#define PROC_BINARIZE "plug-in-gpu-histogram-binarize"
#define PROC_EXPORT   "plug-in-gpu-histogram-export"
#define PROC_BATCH    "plug-in-gpu-histogram-batch"
#define PLUG_IN_BINARY "gpu-histogram"
#define MENU_PATH     "<Image>/Filters/Histogram (GPU)"
#define AUTHOR        "gpu-histogram contributors"
#define COPYRIGHT     "GPL-3.0-or-later"
#define DATE          "2026"
#define PATH_LEN      4096

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

static void query (void);
static void run (const gchar *name, gint nparams, const GimpParam *param,
                 gint *nreturn_vals, GimpParam **return_vals);

const GimpPlugInInfo PLUG_IN_INFO = { NULL, NULL, query, run };

static gh_engine *engine;

MAIN ()

#define RUN_MODE_ARG \
  { GIMP_PDB_INT32, "run-mode", \
    "The run mode { RUN-INTERACTIVE (0), RUN-NONINTERACTIVE (1), " \
    "RUN-WITH-LAST-VALS (2) }" }
#define IMAGE_ARGS \
  RUN_MODE_ARG, \
  { GIMP_PDB_IMAGE, "image", "Input image" }, \
  { GIMP_PDB_DRAWABLE, "drawable", "Input drawable" }

static void
query (void)
{
  static const GimpParamDef analyse_args[] = { IMAGE_ARGS };
  static const GimpParamDef analyse_return[] = {
    { GIMP_PDB_STRING, "backend",
      "Where the histogram was computed: \"cuda: <device>\" or "
      "\"cpu: <n> threads\"" },
    { GIMP_PDB_INT32, "num-stats", "Length of stats (42)" },
    { GIMP_PDB_FLOATARRAY, "stats",
      "For each channel (value, red, green, blue, alpha, luminance): "
      "count, min, max, mean, median, std-dev, otsu; levels on the 0..255 "
      "scale, count the weighted pixel count; zeros for channels the "
      "drawable lacks" },
    { GIMP_PDB_INT32, "num-bins", "Length of histogram (1536)" },
    { GIMP_PDB_FLOATARRAY, "histogram",
      "6 x 256 weighted counts, channel-major, channels as in stats" },
  };
  static const GimpParamDef equalize_args[] = {
    IMAGE_ARGS,
    { GIMP_PDB_INT32, "mode",
      "0: equalize R, G, B (or gray) independently; 1: equalize luminance "
      "only, keeping hue" },
  };
  static const GimpParamDef binarize_args[] = {
    IMAGE_ARGS,
    { GIMP_PDB_INT32, "channel",
      "The channel compared: 0 value, 1 red, 2 green, 3 blue, 4 alpha, "
      "5 luminance" },
    { GIMP_PDB_INT32, "threshold",
      "-1: Otsu's threshold of the channel; 0..254: levels above it turn "
      "white" },
  };
  static const GimpParamDef binarize_return[] = {
    { GIMP_PDB_INT32, "threshold",
      "The threshold used, as a level (Otsu's: its last dark bin's level, "
      "rounded down); -1 when an interactive run binarized nothing "
      "(Cancel, or another action chosen in the dialog)" },
  };
  static const GimpParamDef export_args[] = {
    IMAGE_ARGS,
    { GIMP_PDB_STRING, "filename", "The CSV file to write" },
  };
  static const GimpParamDef batch_args[] = {
    RUN_MODE_ARG,
    { GIMP_PDB_STRING, "pattern", "A glob of image files, e.g. /in/*.png" },
    { GIMP_PDB_INT32, "operation",
      "0: statistics only; 1: equalize each channel; 2: equalize "
      "luminance; 3: binarize with Otsu on luminance" },
    { GIMP_PDB_STRING, "output-dir",
      "Folder for the results, saved with the same names and formats" },
    { GIMP_PDB_STRING, "stats-csv",
      "CSV that receives one row per file and channel (appended)" },
  };

  gimp_install_procedure (PROC_ANALYSE,
                          "Histogram statistics of the selection, on the GPU",
                          "Computes the six histograms of the drawable's "
                          "selected part as GIMP does (value, red, green, "
                          "blue, alpha, luminance; weighted by alpha and "
                          "the selection) and their count, min, max, mean, "
                          "median, standard deviation and Otsu threshold. "
                          "Interactive runs open a dialog: the histogram, "
                          "the statistics of any channel and range of "
                          "levels, and equalize or binarize with a preview "
                          "(OK applies it). RUN-WITH-LAST-VALS repeats the "
                          "dialog's last action.",
                          AUTHOR, COPYRIGHT, DATE, "_Analyze...",
                          "RGB*, GRAY*, INDEXED*", GIMP_PLUGIN,
                          G_N_ELEMENTS (analyse_args),
                          G_N_ELEMENTS (analyse_return), analyse_args,
                          analyse_return);
  gimp_install_procedure (PROC_EQUALIZE,
                          "Equalize the selection's histogram",
                          "Mode 0 maps R, G and B (or gray) independently "
                          "through the full-range equalization table of "
                          "each channel (as OpenCV's equalizeHist); mode 1 "
                          "equalizes GIMP's luminance only and keeps each "
                          "pixel's hue. The histogram comes from the "
                          "selection, only the selection changes, alpha is "
                          "kept. One undo step. Interactive runs open the "
                          "histogram dialog with Equalize selected.",
                          AUTHOR, COPYRIGHT, DATE, "_Equalize...",
                          "RGB*, GRAY*", GIMP_PLUGIN,
                          G_N_ELEMENTS (equalize_args), 0, equalize_args,
                          NULL);
  gimp_install_procedure (PROC_BINARIZE,
                          "Binarize the selection on one channel",
                          "Pixels whose level in the channel is above the "
                          "threshold become white, the others black; alpha "
                          "is kept and only the selection changes. "
                          "Threshold -1 uses Otsu's method on the "
                          "selection's histogram (as OpenCV's THRESH_OTSU). "
                          "One undo step. Interactive runs open the "
                          "histogram dialog with Binarize selected (Otsu on "
                          "luminance at first).",
                          AUTHOR, COPYRIGHT, DATE, "_Binarize (Otsu)...",
                          "RGB*, GRAY*", GIMP_PLUGIN,
                          G_N_ELEMENTS (binarize_args),
                          G_N_ELEMENTS (binarize_return), binarize_args,
                          binarize_return);
  gimp_install_procedure (PROC_EXPORT,
                          "Write the selection's histogram as CSV",
                          "Writes a header row bin,value,red,green,blue,"
                          "alpha,luminance and one row per bin with the "
                          "weighted counts of plug-in-gpu-histogram. "
                          "Interactive runs ask for the file.",
                          AUTHOR, COPYRIGHT, DATE, "E_xport as CSV...",
                          "RGB*, GRAY*, INDEXED*", GIMP_PLUGIN,
                          G_N_ELEMENTS (export_args), 0, export_args, NULL);
  gimp_install_procedure (PROC_BATCH,
                          "Histogram operation over many image files",
                          "Loads every file matching the pattern, applies "
                          "the operation, saves the result in the output "
                          "folder under the same name and format, and "
                          "appends the statistics of each file and channel "
                          "(file,channel,count,min,max,mean,median,std_dev,"
                          "otsu,backend) to the CSV. A file that fails gets "
                          "a row with channel \"error\" and the message in "
                          "the last column (after its statistics rows when "
                          "it failed after counting); the run goes on. For scripts: "
                          "it has no menu entry.",
                          AUTHOR, COPYRIGHT, DATE, NULL, "", GIMP_PLUGIN,
                          G_N_ELEMENTS (batch_args), 0, batch_args, NULL);

  gimp_plugin_menu_register (PROC_ANALYSE, MENU_PATH);
  gimp_plugin_menu_register (PROC_EQUALIZE, MENU_PATH);
  gimp_plugin_menu_register (PROC_BINARIZE, MENU_PATH);
  gimp_plugin_menu_register (PROC_EXPORT, MENU_PATH);
}

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
   * procedures return says where the work ran. */
  options.quiet = 1;
  return errors_from_engine (gh_engine_create (&options, &engine, &err), &err,
                             error);
}

/* Arguments a run mode needs: all of them without interaction, the image
 * and drawable (or nothing for the batch) otherwise. */
static gboolean
check_arguments (GimpRunMode run_mode, gint nparams, gint wanted,
                 gint needed_otherwise, GError **error)
{
  if (run_mode != GIMP_RUN_INTERACTIVE && run_mode != GIMP_RUN_NONINTERACTIVE
      && run_mode != GIMP_RUN_WITH_LAST_VALS)
    g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_CALLING,
                 "unknown run mode %d", run_mode);
  else if (run_mode == GIMP_RUN_NONINTERACTIVE ? nparams != wanted
                                               : nparams < needed_otherwise)
    g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_CALLING,
                 "%d arguments given, %d expected", nparams, wanted);
  else
    return TRUE;
  return FALSE;
}

static gboolean
check_drawable (const GimpParam *param, GError **error)
{
  if (gimp_item_get_image (param[2].data.d_drawable) == param[1].data.d_image)
    return TRUE;
  g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_CALLING,
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
  g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_CALLING,
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
  g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_CALLING,
               "%s has no last settings yet: run it once with its "
               "arguments (RUN-NONINTERACTIVE)", proc);
  return FALSE;
}

static void
show_statistics (const gh_histogram *hist)
{
  gdouble  stats[OPERATIONS_NUM_STATS];
  GString *text = g_string_new (NULL);

  operations_stats (hist, stats);
  g_string_append_printf (text, "Histogram (%s)\nchannel: count, min, max, "
                          "mean, median, std-dev, otsu",
                          gh_engine_backend_name (engine));
  for (gint c = 0; c < GH_NUM_CHANNELS; c++)
    {
      const gdouble *s = stats + c * OPERATIONS_STATS_PER_CHANNEL;

      if (hist->channels & (1u << c))
        g_string_append_printf (text, "\n%s: %.1f, %g, %g, %.3f, %g, %.3f, "
                                "%g", operations_channel_name (c), s[0], s[1],
                                s[2], s[3], s[4], s[5], s[6]);
    }
  gimp_message (text->str);
  g_string_free (text, TRUE);
}

/* The drawable's histogram, under GIMP's progress bar, and how long the
 * engine took (its start-up left out). */
static gboolean
histogram_timed (gint32 drawable, gh_histogram *hist, gdouble *seconds,
                 GError **error)
{
  const PixelsProgress progress = { 0, 1 };
  GTimer              *timer;
  gboolean             ok;

  if (! engine_get (error))
    return FALSE;
  gimp_progress_init ("Histogram (GPU)");
  timer = g_timer_new ();
  ok = operations_histogram (engine, drawable, hist, &progress, error);
  *seconds = g_timer_elapsed (timer, NULL);
  g_timer_destroy (timer);
  return ok;
}

/* What the dialog's hooks work on. */
typedef struct
{
  gint32              drawable;
  const gh_histogram *hist;
} DialogTarget;

/* The 8-bit format of a drawable's type: what a GimpDrawablePreview
 * draws. */
static const Babl *
preview_format (gint32 drawable)
{
  gboolean alpha = gimp_drawable_has_alpha (drawable);

  if (gimp_drawable_is_gray (drawable))
    return babl_format (alpha ? "Y'A u8" : "Y' u8");
  return babl_format (alpha ? "R'G'B'A u8" : "R'G'B' u8");
}

/* Applies the dialog's choice to the drawable (one undo step) with the
 * histogram it showed.  Only OK shows GIMP's progress bar: the preview
 * runs at every change of the choice. */
static gboolean
apply_choice (gint32 drawable, const DialogChoice *choice,
              const gh_histogram *hist, gboolean show_progress,
              GError **error)
{
  const PixelsProgress  whole = { 0, 1 };
  const PixelsProgress *progress = show_progress ? &whole : NULL;

  switch (choice->action)
    {
    case DIALOG_ACTION_EQUALIZE:
      if (show_progress)
        gimp_progress_init ("Equalizing (GPU)");
      return operations_equalize (engine, drawable, choice->mode, hist,
                                  progress, error);
    case DIALOG_ACTION_BINARIZE:
      if (show_progress)
        gimp_progress_init ("Binarizing (GPU)");
      return operations_binarize_bin (drawable, choice->channel,
                                      choice->threshold_bin, hist, progress,
                                      error);
    default:
      return TRUE;
    }
}

/* The preview runs the very operation OK will run, on a scratch image
 * holding a copy of the previewed rectangle at the layer's own type and
 * precision, with the whole layer's histogram: what it shows is what OK
 * does, pixel for pixel, and no step is written twice. */
static guchar *
preview_pixels (const DialogChoice *choice, gint x, gint y, gint width,
                gint height, gint *rowstride, gpointer data, GError **error)
{
  const DialogTarget *t = data;
  const Babl         *format = preview_format (t->drawable);
  gint32              image, layer;
  GeglBuffer         *buffer, *copy;
  guchar             *pixels = NULL;

  if (choice->action == DIALOG_ACTION_NONE)
    return NULL;
  image = gimp_image_new_with_precision (width, height,
                                         gimp_drawable_is_gray (t->drawable)
                                           ? GIMP_GRAY : GIMP_RGB,
                                         gimp_image_get_precision (
                                           gimp_item_get_image (
                                             t->drawable)));
  gimp_image_undo_disable (image);
  layer = gimp_layer_new (image, "preview", width, height,
                          gimp_drawable_type (t->drawable), 100,
                          GIMP_LAYER_MODE_NORMAL);
  gimp_image_insert_layer (image, layer, -1, 0);
  buffer = gimp_drawable_get_buffer (t->drawable);
  copy = gimp_drawable_get_buffer (layer);
  gegl_buffer_copy (buffer, GEGL_RECTANGLE (x, y, width, height),
                    GEGL_ABYSS_NONE, copy,
                    GEGL_RECTANGLE (0, 0, width, height));
  g_object_unref (buffer);
  /* Unreferencing sends the copied tiles to GIMP before the operation
   * reads them. */
  g_object_unref (copy);
  if (apply_choice (layer, choice, t->hist, FALSE, error))
    {
      *rowstride = width * babl_format_get_bytes_per_pixel (format);
      pixels = g_malloc ((gsize) *rowstride * height);
      buffer = gimp_drawable_get_buffer (layer);
      gegl_buffer_get (buffer, GEGL_RECTANGLE (0, 0, width, height), 1.0,
                       format, pixels, *rowstride, GEGL_ABYSS_NONE);
      g_object_unref (buffer);
    }
  gimp_image_delete (image);
  return pixels;
}

/* The dialog's Export CSV: the histogram it shows, written as the export
 * procedure writes it and remembered as that procedure's last file. */
static gboolean
export_csv (const gchar *filename, gpointer data, GError **error)
{
  const DialogTarget *t = data;
  ExportSettings      s;

  if (! copy_string (s.filename, filename, "file name", error)
      || ! operations_write_csv (t->hist, filename, error))
    return FALSE;
  gimp_set_data (PROC_EXPORT, &s, sizeof s);
  return TRUE;
}

/* Whether a dialog can be shown.  gimp-console has no display: there an
 * interactive run repeats the last settings, as a repeated run does.  The
 * display is GIMP's, as gimp_ui_init picks it. */
static gboolean
display_available (void)
{
  gchar       *argv_data[] = { (gchar *) PLUG_IN_BINARY, NULL };
  gchar      **argv = argv_data;
  gint         argc = 1;
  const gchar *name = gimp_display_name ();

  if (name && *name)
    g_setenv ("DISPLAY", name, TRUE);
  return gtk_init_check (&argc, &argv);
}

/* The dialog settings `proc` keeps: its last ones, else a first run's
 * (binarize: Otsu on luminance, as the procedure's defaults).  Equalize
 * and binarize always start on their own action; the analyse dialog on
 * its last one. */
static void
dialog_settings_get (const gchar *proc, DialogAction action,
                     DialogSettings *settings)
{
  DialogSettings defaults;

  dialog_settings_defaults (&defaults);
  /* dialog_state_init makes it value on gray layers: the same level. */
  if (action == DIALOG_ACTION_BINARIZE)
    defaults.channel = GH_CHANNEL_LUMINANCE;
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
  DialogTarget   target = { drawable, hist };
  DialogHooks    hooks = { preview_pixels, export_csv, &target };
  DialogChoice   choice;
  GError        *refusal = NULL;
  gboolean       chosen = TRUE, ok;

  dialog_settings_get (proc, action, &settings);
  dialog_state_init (&state, hist, gh_engine_backend_name (engine), seconds,
                     &settings);
  if (run_mode == GIMP_RUN_INTERACTIVE && display_available ())
    {
      operations_check_changeable (drawable, &refusal);
      gimp_ui_init (PLUG_IN_BINARY, TRUE);
      chosen = dialog_run (drawable, &state,
                           refusal ? refusal->message : NULL, &hooks,
                           &choice);
      g_clear_error (&refusal);
    }
  else
    {
      dialog_state_choice (&state, &choice);
      if (choice.action == DIALOG_ACTION_NONE)
        show_statistics (hist);
    }
  if (used)
    *used = -1;
  /* Cancel changes nothing, not even the remembered settings. */
  ok = ! chosen || apply_choice (drawable, &choice, hist, TRUE, error);
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

/* Equalize and binarize with their dialog, or repeated. */
static gboolean
dialog_procedure (const gchar *proc, DialogAction action,
                  GimpRunMode run_mode, gint32 drawable, gboolean *changed,
                  gint *used, GError **error)
{
  gh_histogram hist;
  gdouble      seconds;
  gboolean     ok;

  gh_histogram_init (&hist);
  ok = histogram_timed (drawable, &hist, &seconds, error)
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
  static gdouble stats[OPERATIONS_NUM_STATS];
  static gdouble counts[OPERATIONS_NUM_BINS];
  static gchar   backend[256];
  gh_histogram   hist;
  gdouble        seconds;
  gboolean       ok;

  if (! check_arguments (run_mode, nparams, 3, 3, error)
      || ! check_drawable (param, error))
    return FALSE;
  gh_histogram_init (&hist);
  ok = histogram_timed (param[2].data.d_drawable, &hist, &seconds, error);
  if (ok)
    {
      operations_stats (&hist, stats);
      operations_counts (&hist, counts);
      g_strlcpy (backend, gh_engine_backend_name (engine), sizeof backend);
      if (run_mode != GIMP_RUN_NONINTERACTIVE)
        ok = dialog_apply (PROC_ANALYSE, DIALOG_ACTION_NONE, run_mode,
                           param[2].data.d_drawable, &hist, seconds, changed,
                           NULL, error);
    }
  if (ok)
    {
      values[1].type = GIMP_PDB_STRING;
      values[1].data.d_string = backend;
      values[2].type = GIMP_PDB_INT32;
      values[2].data.d_int32 = OPERATIONS_NUM_STATS;
      values[3].type = GIMP_PDB_FLOATARRAY;
      values[3].data.d_floatarray = stats;
      values[4].type = GIMP_PDB_INT32;
      values[4].data.d_int32 = OPERATIONS_NUM_BINS;
      values[5].type = GIMP_PDB_FLOATARRAY;
      values[5].data.d_floatarray = counts;
      *nreturn_vals = 6;
    }
  gh_histogram_clear (&hist);
  return ok;
}

static gboolean
run_equalize (GimpRunMode run_mode, gint nparams, const GimpParam *param,
              gboolean *changed, GError **error)
{
  const PixelsProgress progress = { 0, 1 };
  gint32               drawable = param[2].data.d_drawable;
  DialogSettings       s;

  if (! check_arguments (run_mode, nparams, 4, 3, error)
      || ! check_drawable (param, error))
    return FALSE;
  if (run_mode != GIMP_RUN_NONINTERACTIVE)
    return dialog_procedure (PROC_EQUALIZE, DIALOG_ACTION_EQUALIZE, run_mode,
                             drawable, changed, NULL, error);
  gimp_progress_init ("Equalizing (GPU)");
  if (! engine_get (error)
      || ! operations_equalize (engine, drawable, param[3].data.d_int32,
                                NULL, &progress, error))
    return FALSE;
  /* Remembered as the dialog's settings: a repeat does the same, the
   * dialog starts from it. */
  dialog_settings_get (PROC_EQUALIZE, DIALOG_ACTION_EQUALIZE, &s);
  s.mode = param[3].data.d_int32;
  gimp_set_data (PROC_EQUALIZE, &s, sizeof s);
  *changed = TRUE;
  return TRUE;
}

static gboolean
run_binarize (GimpRunMode run_mode, gint nparams, const GimpParam *param,
              GimpParam *values, gint *nreturn_vals, gboolean *changed,
              GError **error)
{
  const PixelsProgress progress = { 0, 1 };
  gint32               drawable = param[2].data.d_drawable;
  DialogSettings       s;
  gint                 used;

  if (! check_arguments (run_mode, nparams, 5, 3, error)
      || ! check_drawable (param, error))
    return FALSE;
  if (run_mode != GIMP_RUN_NONINTERACTIVE)
    {
      if (! dialog_procedure (PROC_BINARIZE, DIALOG_ACTION_BINARIZE, run_mode,
                              drawable, changed, &used, error))
        return FALSE;
    }
  else
    {
      gimp_progress_init ("Binarizing (GPU)");
      if (! engine_get (error)
          || ! operations_binarize (engine, drawable, param[3].data.d_int32,
                                    param[4].data.d_int32, NULL, &used,
                                    &progress, error))
        return FALSE;
      /* As the equalize's; the procedure's Otsu is over all levels. */
      dialog_settings_get (PROC_BINARIZE, DIALOG_ACTION_BINARIZE, &s);
      s.channel = param[3].data.d_int32;
      s.threshold = param[4].data.d_int32;
      s.range_lo = 0;
      s.range_hi = 255;
      gimp_set_data (PROC_BINARIZE, &s, sizeof s);
      *changed = TRUE;
    }
  values[1].type = GIMP_PDB_INT32;
  values[1].data.d_int32 = used;
  *nreturn_vals = 2;
  return TRUE;
}

static gboolean
run_export (GimpRunMode run_mode, gint nparams, const GimpParam *param,
            GError **error)
{
  const PixelsProgress progress = { 0, 1 };
  ExportSettings       s;

  if (! check_arguments (run_mode, nparams, 4, 3, error)
      || ! check_drawable (param, error))
    return FALSE;
  if (run_mode == GIMP_RUN_NONINTERACTIVE)
    {
      if (! copy_string (s.filename, param[3].data.d_string, "file name",
                         error))
        return FALSE;
    }
  else if (run_mode == GIMP_RUN_INTERACTIVE && display_available ())
    {
      gboolean known = last_settings (PROC_EXPORT, &s, sizeof s, NULL, NULL);
      gchar   *file;
      gboolean copied;

      gimp_ui_init (PLUG_IN_BINARY, FALSE);
      file = dialog_csv_file_choose (NULL, known ? s.filename : NULL);
      /* Cancel writes nothing, as the dialog's Cancel changes nothing. */
      if (! file)
        return TRUE;
      copied = copy_string (s.filename, file, "file name", error);
      g_free (file);
      if (! copied)
        return FALSE;
    }
  else if (! last_settings (PROC_EXPORT, &s, sizeof s, NULL, error))
    return FALSE;
  gimp_progress_init ("Exporting the histogram (GPU)");
  if (! engine_get (error)
      || ! operations_export (engine, param[2].data.d_drawable, s.filename,
                              &progress, error))
    return FALSE;
  gimp_set_data (PROC_EXPORT, &s, sizeof s);
  return TRUE;
}

static gboolean
run_batch (GimpRunMode run_mode, gint nparams, const GimpParam *param,
           GError **error)
{
  /* Four paths of PATH_LEN: too large for the stack of a plug-in. */
  static BatchSettings s;
  guint                done, failed;

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
  else if (! last_settings (PROC_BATCH, &s, sizeof s, NULL, error))
    return FALSE;
  if (! engine_get (error)
      || ! batch_run (engine, s.pattern, s.operation, s.output_dir,
                      s.stats_csv, &done, &failed, error))
    return FALSE;
  gimp_set_data (PROC_BATCH, &s, sizeof s);
  if (run_mode != GIMP_RUN_NONINTERACTIVE)
    {
      gchar *text = g_strdup_printf ("%u files, %u failed; statistics in %s",
                                     done, failed, s.stats_csv);

      gimp_message (text);
      g_free (text);
    }
  return TRUE;
}

static void
run (const gchar *name, gint nparams, const GimpParam *param,
     gint *nreturn_vals, GimpParam **return_vals)
{
  static GimpParam values[6];
  static gchar     message[1024];
  GimpRunMode      run_mode = nparams > 0 ? param[0].data.d_int32
                                          : GIMP_RUN_NONINTERACTIVE;
  GError          *error = NULL;
  gboolean         changed = FALSE;
  gboolean         ok;

  gegl_init (NULL, NULL);
  *nreturn_vals = 1;
  *return_vals = values;
  values[0].type = GIMP_PDB_STATUS;

  if (! strcmp (name, PROC_ANALYSE))
    ok = run_analyse (run_mode, nparams, param, values, nreturn_vals,
                      &changed, &error);
  else if (! strcmp (name, PROC_EQUALIZE))
    ok = run_equalize (run_mode, nparams, param, &changed, &error);
  else if (! strcmp (name, PROC_BINARIZE))
    ok = run_binarize (run_mode, nparams, param, values, nreturn_vals,
                       &changed, &error);
  else if (! strcmp (name, PROC_EXPORT))
    ok = run_export (run_mode, nparams, param, &error);
  else if (! strcmp (name, PROC_BATCH))
    ok = run_batch (run_mode, nparams, param, &error);
  else
    {
      g_set_error (&error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_CALLING,
                   "unknown procedure %s", name);
      ok = FALSE;
    }

  if (changed && run_mode != GIMP_RUN_NONINTERACTIVE)
    gimp_displays_flush ();
  values[0].data.d_status = ok ? GIMP_PDB_SUCCESS : errors_pdb_status (error);
  if (error)
    {
      /* GIMP shows a second STRING value of a failed call as its error
       * message (and Script-Fu prints it). */
      g_strlcpy (message, error->message, sizeof message);
      values[1].type = GIMP_PDB_STRING;
      values[1].data.d_string = message;
      *nreturn_vals = 2;
      g_error_free (error);
    }
  gh_engine_destroy (engine);
  engine = NULL;
}
