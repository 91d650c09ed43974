/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gpu_histogram.h — the public API of the gpu-histogram engine.
 *
 * The only header the GIMP adapter, the dialog, the CLI and the benchmark
 * include.  Plain C11, no GLib: the engine builds with gcc + nvcc alone.
 *
 * What it does: per-channel histograms of interleaved pixels with GIMP
 * 2.10's exact semantics (value = max(R,G,B), GIMP's luminance, colour
 * channels weighted by alpha x selection mask, alpha weighted by the mask),
 * on the GPU when one is usable and on all CPU cores otherwise; statistics,
 * the Otsu threshold and equalization tables over the result.
 *
 * How to call it:
 *
 *   gh_engine *e;  gh_error err;
 *   if (gh_engine_create (NULL, &e, &err) != GH_OK) ... err.message ...
 *   gh_image img = { .layout = GH_LAYOUT_RGBA, .sample = GH_SAMPLE_U8,
 *                    .bins = 256, .has_mask = 0 };
 *   gh_engine_begin (e, &img, &err);
 *   for each strip:                     -- pieces in any order and split
 *     gh_piece p = { pixels, width, rows, stride, NULL, 0 };
 *     gh_engine_feed (e, &p, &err);
 *   gh_histogram h;  gh_histogram_init (&h);
 *   gh_engine_finish (e, &h, &err);     -- h holds the layout's channels
 *   gh_stats s;  gh_stats_compute (&h, GH_CHANNEL_VALUE, 0, 255, &s);
 *   gh_histogram_clear (&h);  gh_engine_destroy (e);
 *
 * Every call returns GH_OK or an error code and fills err->message with one
 * line saying what was wrong; nothing is written outside the caller's
 * outputs.  If the GPU fails at any point the engine finishes the image on
 * the CPU with the same result; gh_engine_fallback_reason() says why.
 * An engine is used by one thread at a time.
 */
#ifndef GPU_HISTOGRAM_H
#define GPU_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  GH_OK = 0,
  GH_ERR_INVALID,   /* a bad argument: NULL, zero or overflowing size, ... */
  GH_ERR_STATE,     /* a call out of order (feed before begin, ...)        */
  GH_ERR_NOMEM,     /* host memory could not be allocated                  */
  GH_ERR_UNSUPPORTED /* a format this build does not handle yet            */
} gh_status;

typedef struct {
  char message[256];
} gh_error;

/* GIMP's GimpHistogramChannel order. */
typedef enum {
  GH_CHANNEL_VALUE = 0,
  GH_CHANNEL_RED,
  GH_CHANNEL_GREEN,
  GH_CHANNEL_BLUE,
  GH_CHANNEL_ALPHA,
  GH_CHANNEL_LUMINANCE,
  GH_NUM_CHANNELS
} gh_channel;

/* Interleaved pixel layouts: the number of samples per pixel and whether
 * the last one is alpha. */
typedef enum {
  GH_LAYOUT_GRAY = 1,
  GH_LAYOUT_GRAYA = 2,
  GH_LAYOUT_RGB = 3,
  GH_LAYOUT_RGBA = 4
} gh_layout;

/* Sample types.  U8: bytes, 256 bins.  F32: floats with 0..1 the
 * perceptual (R'G'B') range, any number of bins from 2 to 65536 (GIMP uses
 * 1024 for every precision above 8 bits; read such layers as float).
 * Binning is GIMP's: round (clamp (v * (bins - 1))) in float.  F32 images
 * are counted on the CPU for now; weights are summed in double as GIMP
 * does. */
typedef enum {
  GH_SAMPLE_U8 = 1,
  GH_SAMPLE_F32
} gh_sample;

/* AUTO never makes a call wait for the GPU: the CUDA context starts in a
 * background thread at gh_engine_create (unless gh_options.expected_pixels
 * says the CPU will be done first), the CPU counts every piece fed until
 * the GPU is ready, and the GPU takes the pieces after that while its
 * measured cost per pixel is below the CPU's.  Results are sums, so an
 * image counted partly by each is exact.  CUDA starts the GPU in
 * gh_engine_create, waiting for it, and counts every 8-bit image there. */
typedef enum {
  GH_BACKEND_AUTO = 0, /* CUDA once a usable device is ready, else CPU */
  GH_BACKEND_CPU,
  GH_BACKEND_CUDA
} gh_backend;

/* Which GPU kernel does the counting; AUTO lets the dispatcher choose. */
typedef enum {
  GH_KERNEL_AUTO = 0,
  GH_KERNEL_PACKED,       /* per-thread packed 8-bit counters           */
  GH_KERNEL_SHARED_ATOMIC /* per-block shared atomics, lane-private     */
} gh_kernel;

typedef struct {
  gh_backend backend; /* overridden by GPU_HISTOGRAM_BACKEND=auto|cpu|cuda */
  gh_kernel kernel;
  int cpu_threads;    /* 0: one per core */
  int quiet;          /* 1: don't print the fallback line on stderr */
  /* Testing only: make the GPU path fail after this many chunks
   * (0 = never) so the CPU fallback can be exercised on a real GPU. */
  int inject_gpu_failure_after;
  /* Testing only: the shared memory (bytes) the GPU kernels may use per
   * block, below what the device allows (0 = the device's limit), so one
   * GPU runs the kernels other GPUs can launch: 65536 as on Turing,
   * 101376 as on consumer Ampere, Ada and Blackwell, 166912 as on the
   * A100. */
  size_t smem_cap;
  /* Under AUTO: about how many pixels this engine will count (0: not
   * known).  When the CPU would count them before a CUDA context could be
   * ready (its start-up measured at about 0.35 s on the GPU machine, the
   * CPU at about 150 M RGBA pixels/s per thread there), no context is
   * started at all: the start would cost more than it could win. */
  size_t expected_pixels;
  /* Testing only, AUTO, no GPU needed: instead of starting CUDA, a
   * one-thread CPU pool stands in for a GPU that becomes ready after this
   * many pieces have been fed (0 = off); the engine then switches to it
   * mid-image exactly as it does to a GPU that is ready late. */
  int test_late_gpu_pieces;
} gh_options;

/* Which luminance the LUMINANCE channel bins.  GIMP 2.10 weighs the
 * stored perceptual R'G'B' values; GIMP 3 (app/core/gimphistogram.c,
 * babl_fish (format, "Y float")) weighs linear-light RGB, so for sRGB
 * images its luminance is that of the decoded values.  The weights are the
 * same (0.22248840, 0.71690369, 0.06060791). */
typedef enum {
  GH_LUMINANCE_PERCEPTUAL = 0, /* GIMP 2.10: Y' of the samples as given   */
  GH_LUMINANCE_LINEAR          /* GIMP 3: Y of the sRGB-decoded samples   */
} gh_luminance;

/* What an image looks like, and which of its channels the call needs;
 * given once per image to gh_engine_begin, which refuses a luminance rule
 * other than these two.  U8 images under either rule are counted on the
 * GPU; F32 images on the CPU. */
typedef struct {
  gh_layout layout;
  gh_sample sample;
  int bins;     /* 256 for U8; 2..65536 for F32 */
  int has_mask; /* every piece then carries a selection mask */
  gh_luminance luminance;
  /* The channels wanted (bit mask of 1 << gh_channel); 0: every channel
   * the layout has.  The others are zero in the result and absent from
   * its `channels`, and the CPU skips what it can of their counting
   * (equalizing R, G and B bins no value or luminance). */
  unsigned channels;
} gh_image;

/* A rectangle of pixels: rows of `width` pixels, `stride` bytes apart
 * (stride >= width * bytes per pixel).  `mask`, when the image has one,
 * holds one sample of the image's type per pixel (U8: 0 = unselected, 255
 * = fully selected; F32: 0..1) with its own stride in bytes. */
typedef struct {
  const void *pixels;
  size_t width;
  size_t height;
  size_t stride;
  const void *mask;
  size_t mask_stride;
} gh_piece;

/* The result.  U8 images: exact weighted sums, bin b of channel c holding
 * raw[c * bins + b] / unit[c] pixels, unit[c] being 1 for unweighted
 * counts, 255 when one 8-bit weight applies (alpha or mask), 65025 when
 * both do; `weight` is NULL.  F32 images: weight[c * bins + b] holds the
 * summed weights (double) and raw is zero.  Read either through
 * gh_histogram_count(s).  Channels the image lacks, or gh_image.channels
 * left out, are all zero and absent from `channels` (a bit mask of
 * 1 << gh_channel). */
typedef struct {
  int bins;
  unsigned channels;
  uint64_t unit[GH_NUM_CHANNELS];
  uint64_t *raw;
  double *weight;
} gh_histogram;

typedef struct gh_engine gh_engine;

/* Options with their defaults. */
void gh_options_init (gh_options *options);

/* Creates an engine (NULL options: defaults).  Creating it pays the GPU
 * start-up once; reuse it for many images. */
gh_status gh_engine_create (const gh_options *options, gh_engine **engine,
                            gh_error *error);
void gh_engine_destroy (gh_engine *engine);

/* Who counted the image begun last (final once it is finished):
 *   "cuda: <device name>"           the GPU counted every pixel;
 *   "cpu: <n> threads"              the CPU did (F32 images, no usable GPU,
 *                                   or under AUTO a GPU not ready or not
 *                                   worth it);
 *   "cpu: <n> threads + cuda: <device name>"
 *                                   under AUTO, the CPU counted the pieces
 *                                   fed before the GPU was ready and the
 *                                   GPU the rest;
 *   "cpu: <n> threads (GPU failed: <why>)"
 *                                   the CPU counted it, or finished it,
 *                                   because a GPU that was asked for
 *                                   (GH_BACKEND_CUDA) or found could not
 *                                   be used (gh_engine_gpu_failed).
 * Before the first image: who would count an 8-bit image now. */
const char *gh_engine_backend_name (const gh_engine *engine);

/* Why the engine is not on the GPU (one line), or NULL while it is or may
 * still be.  Also set, and quiet, when AUTO finds no usable GPU. */
const char *gh_engine_fallback_reason (const gh_engine *engine);

/* 1 when the fallback is news to the user: a GPU was asked for
 * (GH_BACKEND_CUDA) or a device exists, and it could not be used or
 * failed while counting.  0 otherwise, notably under AUTO on a machine
 * with no usable GPU (the normal case, which stays quiet) and when AUTO
 * kept an image on the CPU because the GPU was not ready yet.  Hosts say
 * so once per call, with gh_engine_fallback_reason. */
int gh_engine_gpu_failed (const gh_engine *engine);

/* Where an engine's time went since it was created: seconds of the
 * caller's wall clock inside feed and finish, and the pixels each side
 * counted.  gpu_count covers staging pieces into page-locked memory, the
 * transfers and the kernels (they overlap on CUDA streams). */
typedef struct {
  double gpu_ready;  /* create until the GPU was ready; 0: it never was */
  double cpu_count;
  double gpu_count;
  uint64_t cpu_pixels;
  uint64_t gpu_pixels;
} gh_timings;
void gh_engine_timings (const gh_engine *engine, gh_timings *out);

/* Memory for the pieces a caller fills and feeds: page-locked when the
 * engine runs on the GPU (those pieces are copied straight to the device,
 * at the transfer limit), ordinary otherwise.  NULL when out of memory.
 * Free it with gh_engine_free_host, before destroying the engine. */
void *gh_engine_alloc_host (gh_engine *engine, size_t bytes);
void gh_engine_free_host (gh_engine *engine, void *memory);

/* Starts a new image, discarding anything accumulated before. */
gh_status gh_engine_begin (gh_engine *engine, const gh_image *image,
                           gh_error *error);

/* Adds a piece of the image.  The piece's memory may be reused as soon as
 * the call returns. */
gh_status gh_engine_feed (gh_engine *engine, const gh_piece *piece,
                          gh_error *error);

/* Completes the image and stores its histograms in `out` (initialized with
 * gh_histogram_init; its storage is reused or grown). */
gh_status gh_engine_finish (gh_engine *engine, gh_histogram *out,
                            gh_error *error);

/* Histogram storage; reset makes room for `bins` bins (and float weights
 * when `weights`), all zero. */
void gh_histogram_init (gh_histogram *h);
gh_status gh_histogram_reset (gh_histogram *h, int bins, int weights,
                              gh_error *error);
void gh_histogram_clear (gh_histogram *h);
/* Weighted pixel count of one bin. */
double gh_histogram_count (const gh_histogram *h, gh_channel channel,
                           int bin);
/* All bins of one channel as weighted counts; `out` holds h->bins values. */
void gh_histogram_counts (const gh_histogram *h, gh_channel channel,
                          double *out);

/* Statistics of one channel over the bins [lo, hi], as GIMP 2.10's
 * gimp-drawable-histogram computes them.  Levels are on the 0..255 scale
 * whatever the number of bins. */
typedef struct {
  double count;      /* weighted pixels in [lo, hi]                       */
  double pixels;     /* weighted pixels in all bins                       */
  double percentile; /* count / pixels                                    */
  double min, max;   /* first and last non-empty bin in [lo, hi], as levels;
                        -1 when count is 0 (so is median)                 */
  double mean;
  double median;     /* GIMP's rule: first bin where 2*cumulative > count */
  double std_dev;    /* population                                        */
  int otsu_bin;      /* Otsu threshold: bins <= otsu_bin are dark         */
  double otsu;       /* otsu_bin as a level                               */
} gh_stats;

gh_status gh_stats_compute (const gh_histogram *h, gh_channel channel,
                            int lo, int hi, gh_stats *out);

/* The Otsu threshold of counts[lo..hi]: the bin t maximizing the
 * between-class variance with bins <= t dark and > t bright, the first of
 * equal maxima; lo when no split exists.  Equals OpenCV's THRESH_OTSU on
 * 8-bit images (see stats.c for the one deliberate difference). */
int gh_otsu_threshold (const double *counts, int lo, int hi);

/* A threshold as a whole level 0..255 and as the last dark bin of a
 * histogram of `bins` bins, both rounding down: the bins whose level
 * k * 255 / (bins - 1) is above `level` are bright, and a bin reads as the
 * whole level at or below it.  One rule for binarizing and showing. */
int gh_threshold_bin (int level, int bins);
int gh_threshold_level (int bin, int bins);

/* The full-range equalization table (cdf - cdf_min) / (N - cdf_min) scaled
 * to 0..bins-1 and rounded, for one channel's counts; identical to OpenCV's
 * equalizeHist on 8-bit data.  `table` receives `bins` entries. */
void gh_equalize_table (const double *counts, int bins, uint16_t *table);

/* An F32 pixel's bin among `bins` in a channel (value, luminance, ... as
 * the histogram bins it, luminance GIMP 2.10's); -1 for a channel the
 * layout lacks. */
int gh_pixel_bin_f32 (gh_layout layout, const float *pixel,
                      gh_channel channel, int bins);

/* Under a luminance rule (GH_LUMINANCE_LINEAR bins GIMP 3's), and an
 * 8-bit pixel's level 0..255 the same way. */
int gh_pixel_level_with (gh_layout layout, const uint8_t *pixel,
                         gh_channel channel, gh_luminance luminance);
int gh_pixel_bin_f32_with (gh_layout layout, const float *pixel,
                           gh_channel channel, int bins,
                           gh_luminance luminance);

/* Equalization of float data: the cumulative distribution made continuous
 * by spreading each bin's count evenly across the bin, divided by the
 * total.  Distinct levels stay distinct and a smooth gradient stays smooth;
 * the bottom edge of the lowest occupied bin maps to 0 and the top edge of
 * the highest to 1, so a level exactly at a bin's centre lands half its
 * bin's share inside the range.  (The 8-bit table above is OpenCV's
 * discrete mapping instead, which reaches 0 and 255.)
 *
 *   gh_equalize_curve c;
 *   gh_equalize_curve_init (&c, counts, bins);   -- counts: bins values
 *   float out = gh_equalize_curve_map (&c, v);   -- v, out in 0..1
 *   gh_equalize_curve_clear (&c);
 */
typedef struct {
  int bins;
  double *below; /* bins + 1 cumulative counts: below[k] = sum of bins < k */
  double total;
} gh_equalize_curve;

gh_status gh_equalize_curve_init (gh_equalize_curve *curve,
                                  const double *counts, int bins);
float gh_equalize_curve_map (const gh_equalize_curve *curve, float v);
void gh_equalize_curve_clear (gh_equalize_curve *curve);

/* ---- Shared by every host (GIMP 2.10, GIMP 3, the CLI) ----------------
 *
 * Names, the statistics table the procedures return, the CSV files, and
 * what each operation does to a strip of pixels, written once so that
 * every host gives the same numbers and the same bytes. */

/* "value", "red", "green", "blue", "alpha", "luminance"; NULL out of
 * range.  gh_channel_parse: the channel of such a name, or -1. */
const char *gh_channel_name (gh_channel channel);
int gh_channel_parse (const char *name);

/* "auto", "cpu", "cuda" -> 0 and *backend; -1 for anything else. */
int gh_backend_parse (const char *name, gh_backend *backend);

/* The channels a layout has (bit mask of 1 << gh_channel), and the one a
 * binarize uses when none is named: luminance on colour, value on gray. */
unsigned gh_layout_channel_mask (gh_layout layout);
gh_channel gh_default_binarize_channel (gh_layout layout);

/* The statistics table: for each channel in GIMP's order, count, min, max,
 * mean, median, std-dev, otsu over all bins (levels on the 0..255 scale);
 * zeros for channels the histogram lacks. */
#define GH_STATS_PER_CHANNEL 7
#define GH_NUM_STATS (GH_NUM_CHANNELS * GH_STATS_PER_CHANNEL)
void gh_stats_table (const gh_histogram *h, double out[GH_NUM_STATS]);

/* The weighted counts of the 256 levels, channel-major: a histogram of
 * more bins (1024 above 8 bits) adds bin k to level round (k * 255 /
 * (bins - 1)). */
#define GH_LEVELS 256
#define GH_NUM_LEVELS (GH_NUM_CHANNELS * GH_LEVELS)
void gh_histogram_levels (const gh_histogram *h, double out[GH_NUM_LEVELS]);

/* CSV, the same bytes in every locale: numbers as the shortest of %.15g
 * and %.17g that reads back exactly, with a '.' decimal point; text
 * quoted (RFC 4180) when it holds a comma, quote, CR or LF.
 *
 * gh_csv_write_histogram: the header "bin,value,red,green,blue,alpha,
 * luminance" and one row per level 0..255 (gh_histogram_levels).
 * gh_csv_write_stats_rows: one row per channel the histogram has,
 * "file,channel,count,min,max,mean,median,std_dev,otsu,backend"
 * (GH_CSV_STATS_HEADER is that header line with its newline).
 * gh_csv_write_error_row: "file,error,,,,,,,,message".
 * Each returns 0, or -1 when the stream reports an error. */
#define GH_CSV_STATS_HEADER \
  "file,channel,count,min,max,mean,median,std_dev,otsu,backend\n"
int gh_csv_write_histogram (FILE *file, const gh_histogram *h);
int gh_csv_write_stats_rows (FILE *file, const char *name,
                             const gh_histogram *h, const char *backend);
int gh_csv_write_error_row (FILE *file, const char *name,
                            const char *message);

/* Operations on strips.  A gh_op is prepared once from an image's
 * histogram (or a fixed threshold) and then applied to every strip of the
 * image, in the image's layout and sample type (U8 bytes, or F32 floats
 * with 0..1 the perceptual range); alpha is always kept.
 *
 *   gh_op op;
 *   gh_op_equalize (&op, &hist, GH_LAYOUT_RGBA, GH_SAMPLE_U8,
 *                   GH_LUMINANCE_PERCEPTUAL, GH_EQUALIZE_LUMINANCE, &err);
 *   for each strip: gh_op_apply (&op, pixels, width, rows, stride, &err);
 *   gh_op_clear (&op);
 *
 * Equalize, channels: each colour sample through its channel's table
 * (gh_equalize_table on U8, OpenCV's equalizeHist) or curve (F32,
 * gh_equalize_curve).  Equalize, luminance: the pixel's luminance (the
 * histogram's rule) is mapped through the luminance channel's table or
 * curve and the colour moved to it keeping hue: R'G'B' scaled by new /
 * old luminance, and where a sample would pass white the chroma shrinks
 * instead, so only saturation drops.  On gray layouts both modes equalize
 * the gray level.  Binarize: colour samples become white (255 or 1.0)
 * where the pixel's bin in `channel` is above `threshold_bin` (bins of
 * the histogram: gh_threshold_bin turns a level into one), else black. */
typedef enum {
  GH_EQUALIZE_CHANNELS = 0,
  GH_EQUALIZE_LUMINANCE = 1
} gh_equalize_mode;

typedef struct {
  int kind;             /* private from here on */
  gh_layout layout;
  gh_sample sample;
  gh_luminance luminance;
  int bins;
  gh_channel channel;
  int n_thresholds;     /* posterize (binarize: one) */
  int thresholds[4];    /* GH_MULTI_OTSU_MAX_CLASSES - 1 at most */
  uint16_t tables[3][256];
  gh_equalize_curve curves[3];
  gh_equalize_curve targets[3]; /* F32 match: the reference's curves */
  struct gh_clahe_map *clahe;   /* CLAHE: the tile mappings */
} gh_op;

/* hist's bins must match the sample type's (256 for U8). */
gh_status gh_op_equalize (gh_op *op, const gh_histogram *hist,
                          gh_layout layout, gh_sample sample,
                          gh_luminance luminance, gh_equalize_mode mode,
                          gh_error *error);
/* threshold_bin in 0..bins-1; `channel` one the layout has. */
gh_status gh_op_binarize (gh_op *op, gh_layout layout, gh_sample sample,
                          gh_luminance luminance, int bins,
                          gh_channel channel, int threshold_bin,
                          gh_error *error);
gh_status gh_op_apply (const gh_op *op, void *pixels, size_t width,
                       size_t height, size_t stride, gh_error *error);
void gh_op_clear (gh_op *op);

/* The luminance modes' colour move, on one colour: c (3 samples of light,
 * white at `white`) of luminance `lum` becomes of luminance `target`, c
 * scaled by target / lum (hue and ratios kept; black becomes the gray of
 * `target`), and where a sample would pass white the chroma shrinks
 * instead.  For a host that decodes and encodes a colour space of its own
 * (the GIMP 3 plug-in in an image's colour profile). */
void gh_luminance_shift (double c[3], double lum, double target,
                         double white);

/* ---- Beyond GIMP: CLAHE, histogram matching, multi-level Otsu -------- */

/* Operations that need a position: CLAHE's mapping depends on where a
 * pixel lies.  gh_op_apply_rect applies any gh_op to a rectangle whose
 * top-left pixel is (x0, y0) of the image the op was prepared for (the
 * other operations ignore the position); gh_op_apply is
 * gh_op_apply_rect at (0, 0). */
gh_status gh_op_apply_rect (const gh_op *op, void *pixels, size_t x0,
                            size_t y0, size_t width, size_t height,
                            size_t stride, gh_error *error);

/* CLAHE, as OpenCV's createCLAHE (clip_limit, Size (tiles_x, tiles_y))
 * ->apply on 8-bit data, pixel for pixel: the same padding of an image
 * not divisible by the grid (BORDER_REFLECT_101), clip limit, clipping
 * and redistribution, and bilinear interpolation between tile mappings in
 * float.  F32 images keep their precision: the same tiles, clip limit
 * (over `bins` bins), clipping and redistribution, and each tile's mapping
 * the continuous curve of its clipped histogram (gh_equalize_curve's: each
 * bin's count spread evenly across the bin, over the tile's area),
 * interpolated with the same weights.  Colour layouts: each of R, G, B
 * (GH_EQUALIZE_CHANNELS) or the luminance only, the colour moved to it as
 * gh_op_equalize's luminance mode does (GH_EQUALIZE_LUMINANCE); gray
 * layouts have one channel either way; alpha is kept and not counted.
 *
 *   gh_clahe_params p = { 2.0, 8, 8, GH_EQUALIZE_LUMINANCE };
 *   gh_clahe *c;
 *   gh_clahe_begin (engine, &p, GH_LAYOUT_RGBA, GH_SAMPLE_U8,
 *                   GH_LUMINANCE_PERCEPTUAL, 256, width, height, &c, &err);
 *   for each strip of full rows (any order):
 *     gh_clahe_feed (c, pixels, y0, rows, stride, &err);
 *   gh_op op;  gh_op_clahe (&op, c, &err);    -- the tile mappings
 *   for each rectangle: gh_op_apply_rect (&op, pixels, x0, y0, w, h,
 *                                         stride, &err);
 *   gh_op_clear (&op);  gh_clahe_destroy (c);
 *
 * `engine` (may be NULL: CPU) lends its GPU when it has one (8-bit
 * images: the tile histograms, and the mapping of each channel or gray;
 * the luminance mode's colour move runs on the CPU); a GPU failure
 * finishes on the CPU with the same result and is told as the engine's
 * fallback (gh_engine_fallback_reason).  The engine must outlive the
 * gh_clahe and the gh_op made from it.  Rows must each be fed once;
 * gh_op_clahe refuses an image with rows missing. */
typedef struct {
  double clip_limit;     /* OpenCV's clipLimit; 0: no clipping */
  int tiles_x, tiles_y;  /* 1..GH_CLAHE_MAX_TILES each */
  gh_equalize_mode mode;
} gh_clahe_params;
#define GH_CLAHE_MAX_TILES 256

typedef struct gh_clahe gh_clahe;

gh_status gh_clahe_begin (gh_engine *engine, const gh_clahe_params *params,
                          gh_layout layout, gh_sample sample,
                          gh_luminance luminance, int bins, size_t width,
                          size_t height, gh_clahe **out, gh_error *error);
gh_status gh_clahe_feed (gh_clahe *clahe, const void *pixels, size_t y0,
                         size_t rows, size_t stride, gh_error *error);
gh_status gh_op_clahe (gh_op *op, const gh_clahe *clahe, gh_error *error);
/* A new clip limit for the next gh_op_clahe: the tile histograms do not
 * depend on it, so a host that keeps them (a live filter whose clip limit
 * is changed) maps again without counting again. */
gh_status gh_clahe_set_clip_limit (gh_clahe *clahe, double clip_limit,
                                   gh_error *error);
void gh_clahe_destroy (gh_clahe *clahe);

/* CLAHE of a whole image in memory, in place: what gh_clahe_begin, one
 * feed, gh_op_clahe and gh_op_apply_rect over the image give, in one call.
 * On a GPU (8-bit, each channel or gray) the image crosses once each way
 * in bands, the copies overlapped with the counting, the mappings and the
 * interpolation; a GPU failure part-way finishes on the CPU with the same
 * result, told as the engine's fallback.  An image in page-locked memory
 * (gh_engine_alloc_host's, or registered with CUDA) crosses straight, with
 * no copies on the CPU: about twice as fast for a buffer the host keeps,
 * but allocating one per image costs more than it saves. */
gh_status gh_clahe_image (gh_engine *engine, const gh_clahe_params *params,
                          gh_layout layout, gh_sample sample,
                          gh_luminance luminance, int bins, void *pixels,
                          size_t width, size_t height, size_t stride,
                          gh_error *error);

/* Histogram matching, as scikit-image's exposure.match_histograms: each
 * source level goes to np.interp of its cumulative quantile over the
 * reference's quantiles at the reference's non-empty levels.  Channels
 * mode matches R, G, B (or gray) each to the reference's same channel (a
 * gray reference: its value channel for all three; a colour reference for
 * a gray source: its luminance); luminance mode matches the luminance and
 * moves the colour to it as gh_op_equalize's luminance mode does.  The
 * histograms are the engine's (weighted by alpha and selection); U8
 * results are scikit-image's float rounded half up to the nearest level
 * (scikit-image's own uint8 result, with channel_axis, truncates it).
 * F32 keeps its precision: a value's continuous share in the source
 * (gh_equalize_curve_map) goes to the value with the same share of the
 * reference's continuous curve (its bins may differ in number); matching
 * an image to itself changes nothing.  An empty reference is refused. */
gh_status gh_op_match (gh_op *op, const gh_histogram *source,
                       const gh_histogram *reference, gh_layout layout,
                       gh_sample sample, gh_luminance luminance,
                       gh_equalize_mode mode, gh_error *error);

/* Multi-level Otsu, as scikit-image's filters.threshold_multiotsu
 * (classes = k) on 8-bit data: the classes - 1 ascending thresholds
 * (bins; a bin equal to a threshold belongs to the class below) that
 * maximize the between-class variance over the occupied range of
 * counts[0..bins-1], in scikit-image's float32 arithmetic and with its
 * choice among equal maxima (the first in lexicographic order).  classes
 * 2..GH_MULTI_OTSU_MAX_CLASSES; an error saying so when fewer than
 * `classes` bins are occupied; exactly `classes` occupied bins give the
 * occupied bins but the last.  Where the occupied range spans more than
 * 256 bins (float images) the same maximum is found by dynamic
 * programming (an exhaustive search would take minutes); ties may then
 * resolve differently.  `thresholds` receives classes - 1 values. */
#define GH_MULTI_OTSU_MAX_CLASSES 5
gh_status gh_multi_otsu (const double *counts, int bins, int classes,
                         int *thresholds, gh_error *error);

/* Posterize by thresholds (bins, ascending): every colour sample of a
 * pixel in class i (of n_thresholds + 1, by its bin in `channel`) becomes
 * level i * max / n_thresholds (max 255 or 1.0; on U8 rounded half up:
 * 0, 128, 255 for two thresholds); alpha kept.  A binarize is a
 * posterize with one threshold.  1 to GH_MULTI_OTSU_MAX_CLASSES - 1
 * thresholds, strictly ascending, each in 0..bins-1. */
gh_status gh_op_posterize (gh_op *op, gh_layout layout, gh_sample sample,
                           gh_luminance luminance, int bins,
                           gh_channel channel, int n_thresholds,
                           const int *threshold_bins, gh_error *error);

#ifdef __cplusplus
}
#endif

#endif
