/* SPDX-License-Identifier: GPL-3.0-or-later */
/* procedures.c — the procedures' names and every text GIMP shows of them,
 * once for both hosts. */
#include "procedures.h"

const CoreProcText core_proc_analyse = {
  "plug-in-gpu-histogram",
  "_Analyze...",
  "Histogram statistics of the selection, on the GPU",
  "Computes the six histograms of the drawable's selected part as GIMP "
  "does (value, red, green, blue, alpha, luminance; weighted by alpha and "
  "the selection) and their count, min, max, mean, median, standard "
  "deviation and Otsu threshold. Interactive runs open a dialog: the "
  "histogram, the statistics of any channel and range of levels, and "
  "every operation with a preview (OK applies it). "
  "RUN-WITH-LAST-VALS repeats the dialog's last action.",
  "RGB*, GRAY*, INDEXED*",
  "Histogram (GPU)",
};

const CoreProcText core_proc_equalize = {
  "plug-in-gpu-histogram-equalize",
  "_" GH_LABEL_EQUALIZE "...",
  "Equalize the selection's histogram",
  "Each channel (mode 0) maps R, G and B (or gray) independently through "
  "the full-range equalization table of each channel (as OpenCV's "
  "equalizeHist); luminance (mode 1) equalizes GIMP's luminance only and "
  "keeps each pixel's hue. The "
  "histogram comes from the selection, only the selection changes, alpha "
  "is kept. One undo step. Interactive runs open the histogram dialog "
  "with Equalize selected.",
  "RGB*, GRAY*",
  "Equalizing (GPU)",
};

const CoreProcText core_proc_binarize = {
  "plug-in-gpu-histogram-binarize",
  "_" GH_LABEL_BINARIZE "...",
  "Binarize the selection on one channel",
  "Pixels whose level in the channel is above the threshold become white, "
  "the others black; alpha is kept and only the selection changes. "
  "Otsu (automatic, threshold -1) uses Otsu's method on the selection's "
  "histogram (as OpenCV's THRESH_OTSU). One undo step. Interactive runs open the "
  "histogram dialog with Binarize selected (Otsu on luminance at first).",
  "RGB*, GRAY*",
  "Binarizing (GPU)",
};

const CoreProcText core_proc_export = {
  "plug-in-gpu-histogram-export",
  "E_xport as CSV...",
  "Write the selection's histogram as CSV",
  "Writes a header row bin,value,red,green,blue,alpha,luminance and one "
  "row per bin with the weighted counts of plug-in-gpu-histogram. "
  "Interactive runs ask for the file.",
  "RGB*, GRAY*, INDEXED*",
  "Exporting the histogram (GPU)",
};

const CoreProcText core_proc_batch = {
  "plug-in-gpu-histogram-batch",
  NULL,
  "Histogram operation over many image files",
  "Loads every file matching the pattern, applies the operation, saves "
  "the result in the output folder under the same name and format, and "
  "appends the statistics of each file and channel (file,channel,count,"
  "min,max,mean,median,std_dev,otsu,backend; counted before the "
  "operation) to the CSV. A file that "
  "fails gets a row with channel \"error\" and the message in the last "
  "column (after its statistics rows when it failed after counting); the "
  "run goes on. For scripts: it has no menu entry.",
  "",
  NULL,
};

const CoreProcText core_proc_clahe = {
  "plug-in-gpu-histogram-clahe",
  "_" GH_LABEL_CLAHE "...",
  "Contrast-limited adaptive histogram equalization of the selection",
  "Equalizes each tile of a tiles-x by tiles-y grid over the selection's "
  "bounding box with its histogram clipped at clip-limit (OpenCV's "
  "clipLimit: a bin may hold clip-limit times a tile's pixels / 256, the "
  "excess spread over all bins; 0 clips nothing) and blends the tiles' "
  "mappings bilinearly: OpenCV's createCLAHE (clip-limit, (tiles-x, "
  "tiles-y)).apply, pixel for pixel on 8-bit layers; higher precisions "
  "keep theirs. Each channel (mode 0) equalizes R, G and B (or gray) "
  "each; luminance (mode 1) the luminance only, keeping each pixel's hue. "
  "Alpha is kept, only the "
  "selection changes. One undo step. Interactive runs open the histogram "
  "dialog with CLAHE selected.",
  "RGB*, GRAY*",
  "CLAHE (GPU)",
};

const CoreProcText core_proc_match = {
  "plug-in-gpu-histogram-match",
  "_" GH_LABEL_MATCH "...",
  "Match the selection's histogram to a reference drawable's",
  "Maps the levels of the selection so that its histogram matches the "
  "reference's (any layer or channel of any open image; its histogram is "
  "that of its own image's selection, weighted by alpha): scikit-image's "
  "exposure.match_histograms, with 8-bit results rounded to the nearest "
  "level where scikit-image truncates. Each channel (mode 0) matches R, G "
  "and B (or gray) each to the reference's same channel (a gray "
  "reference's value for all three; a colour reference's luminance for a "
  "gray layer); luminance (mode 1) matches the luminance only, keeping "
  "each pixel's hue. Alpha is kept, only the selection changes. One undo "
  "step. Interactive runs open the histogram dialog with Match selected.",
  "RGB*, GRAY*",
  "Matching histograms (GPU)",
};

const CoreProcText core_proc_multi_otsu = {
  "plug-in-gpu-histogram-multi-otsu",
  "_" GH_LABEL_POSTERIZE "...",
  "Multi-level Otsu thresholds of the selection, optionally posterized",
  "Finds the classes - 1 thresholds that split the channel's histogram "
  "(of the selection, weighted by alpha) into classes classes with the "
  "largest between-class variance: scikit-image's filters."
  "threshold_multiotsu (classes = classes) on 8-bit data. A level equal "
  "to a threshold belongs to the class below, as in binarize. Posterize "
  "(apply 1) paints every pixel of class i with the level i x 255 / "
  "(classes - 1) in all its colour channels (alpha kept, only the "
  "selection changes; one undo step); compute only (apply 0) changes "
  "nothing. The thresholds are returned as levels 0..255, ascending. "
  "Interactive runs open the histogram dialog with Posterize selected, "
  "whose plot marks the thresholds (none are returned).",
  "RGB*, GRAY*, INDEXED*",
  "Multi-level Otsu (GPU)",
};

const CoreProcText core_proc_stretch = {
  "plug-in-gpu-histogram-stretch",
  "_" GH_LABEL_STRETCH "...",
  "Stretch the selection's contrast between two percentiles",
  "Finds in each channel's histogram (of the selection, weighted by "
  "alpha) the level at low-percentile and the level at high-percentile "
  "(numpy's percentile, method inverted_cdf) and spreads the levels "
  "between them over the whole range: scikit-image's "
  "exposure.rescale_intensity (in_range = those levels) rounded to the "
  "nearest level; the shares beyond them turn black and white. GIMP's "
  "Stretch Contrast is low-percentile 0 and high-percentile 100. Each "
  "channel stretches R, G and B (or gray) each; luminance stretches the "
  "luminance only, keeping each pixel's hue. Alpha is kept, only the "
  "selection changes. One undo step. Interactive runs open the histogram "
  "dialog with Stretch selected.",
  "RGB*, GRAY*",
  "Stretching contrast (GPU)",
};

const CoreProcText core_proc_resident = {
  "extension-gpu-histogram",
  NULL,
  "Serves gpu-histogram's calls from scripts in one process",
  "Started by GIMP when it starts; not to be called. It answers scripts' "
  "RUN-NONINTERACTIVE calls of the plug-in's procedures in one process for "
  "as long as GIMP runs (no process start per call) and passes every "
  "other call on to the plug-in. GPU_HISTOGRAM_RESIDENT=0 in GIMP's "
  "environment switches it off.",
  "",
  NULL,
};

/* Nicks are dialog labels in GIMP 3: their mnemonics avoid the letters of
 * its procedure dialog's buttons (_Cancel, _Help, _Reset, _Load, _Save). */
const CoreArgText core_arg_mode = { GH_NAME_MODE, "_Mode", NULL };
const CoreArgText core_arg_channel = { GH_NAME_CHANNEL, "Chan_nel", NULL };
const CoreArgText core_arg_threshold = {
  GH_NAME_THRESHOLD, "_Threshold", NULL,
};
const CoreArgText core_arg_clip_limit = {
  GH_NAME_CLIP_LIMIT, "Cli_p limit", NULL,
};
const CoreArgText core_arg_tiles_x = { GH_NAME_TILES_X, "Tiles _across", NULL };
const CoreArgText core_arg_tiles_y = { GH_NAME_TILES_Y, "Tiles d_own", NULL };
const CoreArgText core_arg_classes = { GH_NAME_CLASSES, "Cl_asses", NULL };
const CoreArgText core_arg_low = { GH_NAME_LOW, "_Low percentile", NULL };
const CoreArgText core_arg_high = { GH_NAME_HIGH, "Hi_gh percentile", NULL };

const CoreArgText core_arg_filename = {
  "filename", "_File name", "The CSV file to write",
};

const CoreArgText core_arg_pattern = {
  "pattern", "_Pattern", "A glob of image files, e.g. /in/*.png",
};

const CoreArgText core_arg_operation = {
  "operation", "_Operation",
  "0: statistics only; 1: equalize each channel; 2: equalize luminance; "
  "3: binarize with Otsu on luminance; 4: CLAHE on luminance (clip limit "
  "2, 8 x 8 tiles); 5: posterize in 3 classes by multi-level Otsu on "
  "luminance (value on gray images)",
};

const CoreArgText core_arg_output_dir = {
  "output-dir", "Output _folder",
  "Folder for the results, saved with the same names and formats",
};

const CoreArgText core_arg_stats_csv = {
  "stats-csv", "Statistics CS_V",
  "CSV that receives one row per file and channel (appended)",
};

const CoreArgText core_ret_backend = {
  "backend", "Backend",
  "Where the histogram was computed: \"cuda: <device>\" or "
  "\"cpu: <n> threads\"",
};

const CoreArgText core_ret_stats = {
  "stats", "Statistics",
  "For each channel (value, red, green, blue, alpha, luminance): count, "
  "min, max, mean, median, std-dev, otsu; levels on the 0..255 scale, "
  "count the weighted pixel count; zeros for channels the drawable lacks",
};

const CoreArgText core_ret_histogram = {
  "histogram", "Histogram",
  "6 x 256 weighted counts, channel-major, channels as in stats",
};

const CoreArgText core_ret_threshold = {
  "threshold", "Threshold",
  "The threshold used, as a level (Otsu's: its last dark bin's level, "
  "rounded down); -1 when an interactive run binarized nothing (Cancel, "
  "or another action chosen in the dialog)",
};

const CoreArgText core_arg_reference = {
  "reference", "Re_ference",
  "The drawable whose histogram to match: any layer or channel of any "
  "open image",
};

const CoreArgText core_arg_apply = {
  "apply", "_Posterize",
  "Posterize the selection too, class i painted with the level i x 255 / "
  "(classes - 1) (0 Compute only, 1 Posterize)",
};

const CoreArgText core_ret_num_thresholds = {
  "num-thresholds", "Thresholds", "Length of thresholds (classes - 1)",
};

const CoreArgText core_ret_thresholds = {
  "thresholds", "Thresholds",
  "The thresholds as levels 0..255, ascending; a level equal to one "
  "belongs to the class below",
};

/* The values after the parameter's words: named ones, or its range. */
const gchar *
core_param_values (gh_param param, const gchar *more)
{
  gint                  n;
  const gh_param_value *v = gh_param_values (param, &n);
  GString              *text = g_string_new (NULL);
  const gchar          *values;

  for (gint k = 0; k < n; k++)
    g_string_append_printf (text, "%s%d %s", k ? ", " : "", v[k].value,
                            v[k].label);
  if (more)
    g_string_append_printf (text, ", %d %s", n, more);
  values = g_intern_string (text->str);
  g_string_free (text, TRUE);
  return values;
}

const gchar *
core_param_blurb (gh_param param)
{
  const gh_param_spec *spec = gh_param_get (param);
  gint                 n;
  gchar               *text;
  const gchar         *blurb;

  if (gh_param_values (param, &n))
    text = g_strdup_printf ("%s (%s)", spec->blurb,
                            core_param_values (param, NULL));
  else if (spec->min_label)
    text = g_strdup_printf ("%s (%g %s, or %g..%g)", spec->blurb, spec->min,
                            spec->min_label, spec->min + spec->step,
                            spec->max);
  else
    text = g_strdup_printf ("%s (%g..%g)", spec->blurb, spec->min,
                            spec->max);
  blurb = g_intern_string (text);
  g_free (text);
  return blurb;
}
