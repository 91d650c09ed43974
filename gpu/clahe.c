/* clahe.c — contrast-limited adaptive histogram equalization (gh_clahe_*,
 * gh_op_clahe), as OpenCV 4.6's CLAHE_Impl::apply (imgproc/src/clahe.cpp)
 * computes it on 8-bit data, pixel for pixel:
 *
 *  - tiles: the image padded as clahe.h says (copyMakeBorder,
 *    BORDER_REFLECT_101 by borderInterpolate, so tiny images whose padding
 *    exceeds them reflect back and forth), cut into tiles_x x tiles_y
 *    tiles of tile_w x tile_h;
 *  - clip limit: max ((int) (clip_limit * tile area / bins), 1) when
 *    clip_limit > 0; counts above it are cut, their sum spread as
 *    redistBatch = clipped / bins over every bin and the residual one by
 *    one at bins 0, residualStep, 2 * residualStep, ... (residualStep =
 *    max (bins / residual, 1));
 *  - tile mapping: lut[i] = saturate_cast<uchar> (cumsum[i] * lutScale),
 *    lutScale = (float) (bins - 1) / tile area, rounded half to even;
 *  - interpolation (CLAHE_Interpolation_Body, scalar in 4.6): for column x,
 *    txf = x * (1.0f / tile_w) - 0.5f, tx1 = floor (txf), xa = txf - tx1,
 *    xa1 = 1 - xa, tiles clamped to the grid; the same for rows; then
 *    (L11 * xa1 + L12 * xa) * ya1 + (L21 * xa1 + L22 * xa) * ya in float,
 *    each operation rounded (the project builds with -ffp-contract=off),
 *    saturate_cast'ed half to even.
 *
 * Rows arrive in strips, in any order: each source row adds to the tile
 * histograms of its own padded row and of every padding row that reflects
 * to it; the interpolation needs no neighbours, so any rectangle maps on
 * its own.
 *
 * Colour: each of R, G and B as its own plane (as cv::split + apply), or
 * the luminance (the histogram's rule) as the plane, the colour then moved
 * to the mapped level by gh_op_equalize's model (colour.c).
 *
 * Float images (F32, `bins` bins): the same tiles, clipping and
 * redistribution over `bins` bins, and each tile's mapping the continuous
 * curve of its clipped histogram (gh_equalize_curve: each bin's count
 * spread evenly across the bin, over the tile area), so values keep their
 * precision; the four tile curves' values at the sample are interpolated
 * with the same float weights.
 *
 * On a GPU (an engine on CUDA, U8 images): the tile counts of each strip
 * and the interpolation of each rectangle (each channel and gray; the
 * luminance mode's colour move stays on the CPU) run there
 * (clahe_cuda.cu), with the same integers and the same float operations;
 * a GPU failure is told through the engine and the work finishes on the
 * CPU. */
#include "clahe.h"

#include "apply.h"
#include "colour.h"
#include "engine_share.h"
#include "fail.h"
#include "layout.h"
#include "op_kind.h"
#include "pixel.h"
#include "threads.h"
#if GH_HAVE_CUDA
#include "clahe_cuda.h"
#endif

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Tile histograms beyond this many counters are refused (1 GiB). */
#define MAX_COUNTERS ((size_t) 1 << 28)

/* CLAHE's jobs: at most this many, each with at least this much work
 * (starting or waking a thread costs microseconds). */
#define MAX_THREADS 32
#define MIN_PIXELS_PER_THREAD ((size_t) 1 << 16)

struct gh_clahe {
  gh_clahe_geom g;
  gh_sample sample;
  double clip_limit;
  uint32_t *hist;     /* channels x tiles x bins */
  unsigned char *fed; /* one flag per row */
  size_t rows_fed;
  gh_engine *engine;
#if GH_HAVE_CUDA
  gh_clahe_cuda *gpu;
#endif
};

struct gh_clahe_map {
  gh_clahe_geom g;    /* src_col, src_row not kept */
  uint8_t *lut;       /* U8: channels x tiles x 256 */
  gh_equalize_curve *curves; /* F32: channels x tiles */
  int *tx1, *tx2;     /* per column: the tiles to the left and right */
  float *xa, *xa1;    /* ... and their weights */
  gh_engine *engine;
#if GH_HAVE_CUDA
  gh_clahe_cuda *gpu;
#endif
};

int
gh_reflect101 (long p, long len)
{
  if (len == 1)
    return 0;
  while (p < 0 || p >= len)
    p = p < 0 ? -p : 2 * (len - 1) - p;
  return (int) p;
}

static void
geom_free (gh_clahe_geom *g)
{
  free (g->src_col);
  free (g->src_row);
  g->src_col = g->src_row = NULL;
}

#if GH_HAVE_CUDA
/* GH_OK, or the failure a test injects into the GPU passes
 * (gh_options.inject_gpu_failure_after). */
static gh_status
gpu_injected (gh_engine *engine, gh_error *why)
{
  return gh_engine_gpu_injected (engine)
           ? gh_fail (why, GH_ERR_STATE, "injected GPU failure (testing)")
           : GH_OK;
}
#endif

void
gh_clahe_destroy (gh_clahe *c)
{
  if (!c)
    return;
#if GH_HAVE_CUDA
  gh_clahe_cuda_destroy (c->gpu);
#endif
  geom_free (&c->g);
  free (c->hist);
  free (c->fed);
  free (c);
}

gh_status
gh_clahe_begin (gh_engine *engine, const gh_clahe_params *p, gh_layout layout,
                gh_sample sample, gh_luminance luminance, int bins,
                size_t width, size_t height, gh_clahe **out, gh_error *error)
{
  gh_clahe *c;
  gh_clahe_geom *g;
  gh_status st;
  size_t tiles, counters;
  int rgb;

  if (!out)
    return gh_fail (error, GH_ERR_INVALID, "no CLAHE handle given");
  *out = NULL;
  if (!p)
    return gh_fail (error, GH_ERR_INVALID, "no CLAHE parameters given");
  if ((st = gh_op_check_kind (layout, sample, luminance, error)) != GH_OK)
    return st;
  if (!(p->clip_limit >= 0) || !isfinite (p->clip_limit))
    return gh_fail (error, GH_ERR_INVALID,
                    "clip limit %g is not a number >= 0", p->clip_limit);
  if (p->tiles_x < 1 || p->tiles_x > GH_CLAHE_MAX_TILES || p->tiles_y < 1
      || p->tiles_y > GH_CLAHE_MAX_TILES)
    return gh_fail (error, GH_ERR_INVALID,
                    "a %d x %d tile grid; each side takes 1 to %d",
                    p->tiles_x, p->tiles_y, GH_CLAHE_MAX_TILES);
  if ((st = gh_op_check_mode ("CLAHE", p->mode, error)) != GH_OK
      || (st = gh_op_check_bins ("", bins, sample, error)) != GH_OK)
    return st;
  if (width < 1 || height < 1 || width > INT_MAX - GH_CLAHE_MAX_TILES
      || height > INT_MAX - GH_CLAHE_MAX_TILES)
    return gh_fail (error, GH_ERR_INVALID,
                    "a %zu x %zu image; CLAHE takes 1 to %d pixels a side",
                    width, height, INT_MAX - GH_CLAHE_MAX_TILES);
  if (!(c = calloc (1, sizeof *c)))
    return gh_fail (error, GH_ERR_NOMEM, "out of memory for CLAHE");
  g = &c->g;
  rgb = gh_layout_is_rgb (layout);
  g->layout = layout;
  g->luminance = luminance;
  g->luminance_mode = rgb && p->mode == GH_EQUALIZE_LUMINANCE;
  g->channels = rgb && !g->luminance_mode ? 3 : 1;
  g->bins = bins;
  g->width = (int) width;
  g->height = (int) height;
  g->tiles_x = p->tiles_x;
  g->tiles_y = p->tiles_y;
  g->padded_w = g->width;
  g->padded_h = g->height;
  if (g->width % g->tiles_x != 0 || g->height % g->tiles_y != 0)
    {
      g->padded_w += g->tiles_x - g->width % g->tiles_x;
      g->padded_h += g->tiles_y - g->height % g->tiles_y;
    }
  g->tile_w = g->padded_w / g->tiles_x;
  g->tile_h = g->padded_h / g->tiles_y;
  c->sample = sample;
  c->clip_limit = p->clip_limit;
  tiles = (size_t) g->tiles_x * g->tiles_y;
  counters = (size_t) g->channels * tiles * (size_t) bins;
  if ((long long) g->tile_w * g->tile_h > INT_MAX)
    st = gh_fail (error, GH_ERR_INVALID,
                  "tiles of %d x %d pixels are too large; use a finer grid",
                  g->tile_w, g->tile_h);
  else if (counters > MAX_COUNTERS)
    st = gh_fail (error, GH_ERR_INVALID,
                  "%zu tiles of %d bins are too many; use a coarser grid "
                  "or fewer bins",
                  tiles, bins);
  else if (!(g->src_col = malloc ((size_t) g->padded_w * sizeof (int)))
           || !(g->src_row = malloc (((size_t) (g->padded_h - g->height) + 1)
                                     * sizeof (int)))
           || !(c->hist = calloc (counters, sizeof *c->hist))
           || !(c->fed = calloc (height, 1)))
    st = gh_fail (error, GH_ERR_NOMEM, "out of memory for CLAHE's tiles");
  if (st != GH_OK)
    {
      gh_clahe_destroy (c);
      return st;
    }
  for (int x = 0; x < g->padded_w; x++)
    g->src_col[x] = gh_reflect101 (x, g->width);
  for (int y = g->height; y < g->padded_h; y++)
    g->src_row[y - g->height] = gh_reflect101 (y, g->height);
  c->engine = engine;
#if GH_HAVE_CUDA
  if (sample == GH_SAMPLE_U8 && gh_engine_gpu_ready (engine))
    {
      gh_error why;
      if (gh_clahe_cuda_create (g, &c->gpu, &why) != GH_OK)
        gh_engine_gpu_lost (engine, why.message);
    }
#endif
  *out = c;
  return GH_OK;
}

/* Jobs for `pixels` of work, at most `most`: as many as the engine has
 * threads (gh_options.cpu_threads), or the processor cores without an
 * engine; one for small work. */
static int
threads_for (gh_engine *engine, size_t pixels, int most)
{
  gh_threads *pool = gh_engine_threads (engine);
  size_t cores = (size_t) (pool ? gh_threads_count (pool)
                                : gh_threads_cores ());
  size_t n = pixels / MIN_PIXELS_PER_THREAD;
  n = n < cores ? n : cores;
  n = n < (size_t) most ? n : (size_t) most;
  n = n < MAX_THREADS ? n : MAX_THREADS;
  return n > 1 ? (int) n : 1;
}

/* Runs fn (i, jobs) for each of n jobs at once: on the engine's threads,
 * or on threads started for the call without an engine. */
static void
run_jobs (gh_engine *engine, gh_thread_fn fn, void *jobs, int n)
{
  gh_threads *pool = gh_engine_threads (engine), *own = NULL;

  if (!pool && n > 1 && gh_threads_create (n, &own, NULL) == GH_OK)
    pool = own;
  if (pool)
    gh_threads_run (pool, n, fn, jobs);
  else
    for (int i = 0; i < n; i++) /* no threads: all on the caller's */
      fn (i, jobs);
  gh_threads_destroy (own);
}

/* A pixel's bin in set k. */
static int
key_of (const gh_clahe *c, const uint8_t *row, int x, int k)
{
  const gh_clahe_geom *g = &c->g;
  int bpp = gh_layout_bpp (g->layout);

  if (c->sample == GH_SAMPLE_U8)
    {
      const uint8_t *p = row + (size_t) x * bpp;
      return g->luminance_mode
               ? gh_pixel_level_with (g->layout, p, GH_CHANNEL_LUMINANCE,
                                      g->luminance)
               : p[k];
    }
  {
    const float *p = (const float *) row + (size_t) x * bpp;
    return g->luminance_mode
             ? gh_pixel_bin_f32_with (g->layout, p, GH_CHANNEL_LUMINANCE,
                                      g->bins, g->luminance)
             : gh_bin_f32 (p[k], g->bins);
  }
}

typedef struct {
  gh_clahe *c;
  const uint8_t *pixels;
  size_t y0, rows, stride;
  int tx0, tx1; /* the tile columns this job counts */
} count_job;

/* Adds source row `row` as padded row `py`, tile columns tx0..tx1-1. */
static void
count_padded_row (const count_job *j, const uint8_t *row, int py)
{
  const gh_clahe_geom *g = &j->c->g;
  size_t tiles = (size_t) g->tiles_x * g->tiles_y;
  int ty = py / g->tile_h;

  for (int k = 0; k < g->channels; k++)
    {
      uint32_t *h = j->c->hist
                    + ((size_t) k * tiles + (size_t) ty * g->tiles_x)
                        * g->bins;
      for (int tx = j->tx0; tx < j->tx1; tx++)
        {
          uint32_t *th = h + (size_t) tx * g->bins;
          int x = tx * g->tile_w, end = x + g->tile_w;
          if (j->c->sample == GH_SAMPLE_U8 && !g->luminance_mode)
            for (int bpp = gh_layout_bpp (g->layout); x < end; x++)
              th[row[(size_t) g->src_col[x] * bpp + k]]++;
          else
            for (; x < end; x++)
              th[key_of (j->c, row, g->src_col[x], k)]++;
        }
    }
}

static void
count_main (int index, void *jobs)
{
  const count_job *j = (const count_job *) jobs + index;
  const gh_clahe_geom *g = &j->c->g;

  for (size_t r = 0; r < j->rows; r++)
    {
      int y = (int) (j->y0 + r);
      const uint8_t *row = j->pixels + r * j->stride;
      count_padded_row (j, row, y);
      for (int py = g->height; py < g->padded_h; py++)
        if (g->src_row[py - g->height] == y)
          count_padded_row (j, row, py);
    }
}

/* Each thread counts its own tile columns. */
static void
count_rows_cpu (gh_clahe *c, const void *pixels, size_t y0, size_t rows,
                size_t stride)
{
  count_job jobs[MAX_THREADS];
  int n = threads_for (c->engine, (size_t) c->g.padded_w * rows,
                       c->g.tiles_x);

  for (int i = 0; i < n; i++)
    jobs[i] = (count_job){ c, pixels, y0, rows, stride,
                           c->g.tiles_x * i / n, c->g.tiles_x * (i + 1) / n };
  run_jobs (c->engine, count_main, jobs, n);
}

gh_status
gh_clahe_feed (gh_clahe *c, const void *pixels, size_t y0, size_t rows,
               size_t stride, gh_error *error)
{
  gh_status st;

  if (!c)
    return gh_fail (error, GH_ERR_INVALID, "no CLAHE handle given");
  if (y0 >= (size_t) c->g.height || rows > (size_t) c->g.height - y0)
    return gh_fail (error, GH_ERR_INVALID,
                    "rows %zu..%zu are outside the image's %d rows", y0,
                    y0 + rows - 1, c->g.height);
  st = gh_strip_check (c->g.layout, c->sample, pixels, (size_t) c->g.width,
                       rows, stride, error);
  if (st != GH_OK)
    return st;
  for (size_t r = 0; r < rows; r++)
    if (c->fed[y0 + r])
      return gh_fail (error, GH_ERR_STATE, "row %zu was fed twice", y0 + r);
#if GH_HAVE_CUDA
  if (c->gpu)
    {
      gh_error why;
      if (gpu_injected (c->engine, &why) == GH_OK
          && gh_clahe_cuda_count (c->gpu, pixels, y0, rows, stride, c->hist,
                                  &why)
               == GH_OK)
        goto counted;
      gh_engine_gpu_lost (c->engine, why.message);
      gh_clahe_cuda_destroy (c->gpu);
      c->gpu = NULL;
    }
#endif
  count_rows_cpu (c, pixels, y0, rows, stride);
#if GH_HAVE_CUDA
counted:
#endif
  memset (c->fed + y0, 1, rows);
  c->rows_fed += rows;
  return GH_OK;
}

/* OpenCV's clipping and redistribution of one tile's counts. */
static void
clip_tile (uint32_t *h, int bins, int limit)
{
  long clipped = 0, batch, residual;

  if (limit <= 0)
    return;
  for (int i = 0; i < bins; i++)
    if (h[i] > (uint32_t) limit)
      {
        clipped += (long) h[i] - limit;
        h[i] = (uint32_t) limit;
      }
  batch = clipped / bins;
  residual = clipped - batch * bins;
  for (int i = 0; i < bins; i++)
    h[i] += (uint32_t) batch;
  if (residual != 0)
    {
      long step = bins / residual > 1 ? bins / residual : 1;
      for (long i = 0; i < bins && residual > 0; i += step, residual--)
        h[i]++;
    }
}

/* saturate_cast<uchar> (float): cvRound (to nearest, ties to even), then
 * clamped.  Clamping first gives the same byte; adding and taking away
 * 1.5 * 2^23 rounds a float below 2^22 to an integer, ties to even, in
 * the default rounding mode, without a call to lrintf. */
static uint8_t
saturate_u8 (float v)
{
  const float magic = 12582912.0f;
  v = v > 0.0f ? (v < 255.0f ? v : 255.0f) : 0.0f;
  return (uint8_t) ((v + magic) - magic);
}

void
gh_clahe_map_free (struct gh_clahe_map *m)
{
  if (!m)
    return;
#if GH_HAVE_CUDA
  gh_clahe_cuda_destroy (m->gpu);
#endif
  if (m->curves)
    for (size_t i = 0;
         i < (size_t) m->g.channels * m->g.tiles_x * m->g.tiles_y; i++)
      gh_equalize_curve_clear (&m->curves[i]);
  free (m->curves);
  free (m->lut);
  free (m->tx1);
  free (m->tx2);
  free (m->xa);
  free (m->xa1);
  free (m);
}

/* The tile mappings of every channel. */
static gh_status
build_mappings (const gh_clahe *c, struct gh_clahe_map *m, gh_error *error)
{
  const gh_clahe_geom *g = &c->g;
  size_t tiles = (size_t) g->tiles_x * g->tiles_y, sets = g->channels * tiles;
  int area = g->tile_w * g->tile_h, bins = g->bins, limit = 0;
  float scale = (float) (bins - 1) / (float) area;
  uint32_t *h = malloc ((size_t) bins * sizeof *h);
  double *counts = NULL;

  if (c->clip_limit > 0)
    {
      limit = (int) (c->clip_limit * area / bins);
      limit = limit > 1 ? limit : 1;
    }
  if (c->sample == GH_SAMPLE_U8)
    m->lut = malloc (sets * 256);
  else
    {
      m->curves = calloc (sets, sizeof *m->curves);
      counts = malloc ((size_t) bins * sizeof *counts);
    }
  if (!h || (c->sample == GH_SAMPLE_U8 ? !m->lut : !m->curves || !counts))
    {
      free (h);
      free (counts);
      return gh_fail (error, GH_ERR_NOMEM,
                      "out of memory for %zu tile mappings", sets);
    }
  for (size_t s = 0; s < sets; s++)
    {
      memcpy (h, c->hist + s * bins, (size_t) bins * sizeof *h);
      clip_tile (h, bins, limit);
      if (c->sample == GH_SAMPLE_U8)
        {
          uint8_t *lut = m->lut + s * 256;
          int sum = 0;
          for (int i = 0; i < 256; i++)
            {
              sum += (int) h[i];
              lut[i] = saturate_u8 ((float) sum * scale);
            }
          continue;
        }
      for (int i = 0; i < bins; i++)
        counts[i] = h[i];
      if (gh_equalize_curve_init (&m->curves[s], counts, bins) != GH_OK)
        {
          free (h);
          free (counts);
          return gh_fail (error, GH_ERR_NOMEM,
                          "out of memory for %zu tile curves", sets);
        }
    }
  free (h);
  free (counts);
  return GH_OK;
}

/* The interpolation's column weights, as CLAHE_Interpolation_Body's
 * constructor computes them. */
static gh_status
build_columns (struct gh_clahe_map *m, gh_error *error)
{
  const gh_clahe_geom *g = &m->g;
  size_t w = (size_t) g->width;
  float inv_tw = 1.0f / (float) g->tile_w;

  m->tx1 = malloc (w * sizeof *m->tx1);
  m->tx2 = malloc (w * sizeof *m->tx2);
  m->xa = malloc (w * sizeof *m->xa);
  m->xa1 = malloc (w * sizeof *m->xa1);
  if (!m->tx1 || !m->tx2 || !m->xa || !m->xa1)
    return gh_fail (error, GH_ERR_NOMEM, "out of memory for %zu columns", w);
  for (int x = 0; x < g->width; x++)
    {
      float txf = (float) x * inv_tw - 0.5f;
      int tx1 = (int) floorf (txf), tx2 = tx1 + 1;
      m->xa[x] = txf - (float) tx1;
      m->xa1[x] = 1.0f - m->xa[x];
      m->tx1[x] = tx1 > 0 ? tx1 : 0;
      m->tx2[x] = tx2 < g->tiles_x - 1 ? tx2 : g->tiles_x - 1;
    }
  return GH_OK;
}

gh_status
gh_op_clahe (gh_op *op, const gh_clahe *c, gh_error *error)
{
  struct gh_clahe_map *m;
  gh_status st;

  if (!op)
    return gh_fail (error, GH_ERR_INVALID, "no operation given");
  memset (op, 0, sizeof *op);
  if (!c)
    return gh_fail (error, GH_ERR_INVALID, "no CLAHE handle given");
  if (c->rows_fed != (size_t) c->g.height)
    return gh_fail (error, GH_ERR_STATE,
                    "%zu of the image's %d rows were fed", c->rows_fed,
                    c->g.height);
  if (!(m = calloc (1, sizeof *m)))
    return gh_fail (error, GH_ERR_NOMEM, "out of memory for CLAHE");
  m->g = c->g;
  m->g.src_col = m->g.src_row = NULL;
  m->engine = c->engine;
  if ((st = build_mappings (c, m, error)) != GH_OK
      || (st = build_columns (m, error)) != GH_OK)
    {
      gh_clahe_map_free (m);
      return st;
    }
#if GH_HAVE_CUDA
  /* The GPU maps what it can map whole: each channel, or gray. */
  if (c->sample == GH_SAMPLE_U8 && !m->g.luminance_mode
      && gh_engine_gpu_ready (c->engine))
    {
      gh_error why;
      if (gh_clahe_cuda_create (&m->g, &m->gpu, &why) != GH_OK
          || gh_clahe_cuda_set_luts (m->gpu, m->lut, m->xa, m->xa1, m->tx1,
                                     m->tx2, &why)
               != GH_OK)
        {
          gh_engine_gpu_lost (c->engine, why.message);
          gh_clahe_cuda_destroy (m->gpu);
          m->gpu = NULL;
        }
    }
#endif
  op->kind = GH_OP_CLAHE;
  op->layout = c->g.layout;
  op->sample = c->sample;
  op->luminance = c->g.luminance;
  op->bins = c->g.bins;
  op->clahe = m;
  return GH_OK;
}

/* One row's interpolation: the tile planes above and below and their
 * weights. */
typedef struct {
  int ty1, ty2;
  float ya, ya1;
} row_weights;

static row_weights
row_weights_of (const gh_clahe_geom *g, int y)
{
  row_weights r;
  float inv_th = 1.0f / (float) g->tile_h;
  float tyf = (float) y * inv_th - 0.5f;
  r.ty1 = (int) floorf (tyf);
  r.ty2 = r.ty1 + 1;
  r.ya = tyf - (float) r.ty1;
  r.ya1 = 1.0f - r.ya;
  r.ty1 = r.ty1 > 0 ? r.ty1 : 0;
  r.ty2 = r.ty2 < g->tiles_y - 1 ? r.ty2 : g->tiles_y - 1;
  return r;
}

static float
map_u8 (const struct gh_clahe_map *m, int k, const row_weights *r, int x,
        int v)
{
  size_t tiles = (size_t) m->g.tiles_x * m->g.tiles_y;
  const uint8_t *p1 = m->lut + (k * tiles + (size_t) r->ty1 * m->g.tiles_x)
                                 * 256;
  const uint8_t *p2 = m->lut + (k * tiles + (size_t) r->ty2 * m->g.tiles_x)
                                 * 256;
  int i1 = m->tx1[x] * 256 + v, i2 = m->tx2[x] * 256 + v;
  return (p1[i1] * m->xa1[x] + p1[i2] * m->xa[x]) * r->ya1
         + (p2[i1] * m->xa1[x] + p2[i2] * m->xa[x]) * r->ya;
}

static float
map_f32 (const struct gh_clahe_map *m, int k, const row_weights *r, int x,
         float v)
{
  size_t tiles = (size_t) m->g.tiles_x * m->g.tiles_y;
  const gh_equalize_curve *c1
    = m->curves + k * tiles + (size_t) r->ty1 * m->g.tiles_x;
  const gh_equalize_curve *c2
    = m->curves + k * tiles + (size_t) r->ty2 * m->g.tiles_x;
  float l11 = gh_equalize_curve_map (&c1[m->tx1[x]], v);
  float l12 = gh_equalize_curve_map (&c1[m->tx2[x]], v);
  float l21 = gh_equalize_curve_map (&c2[m->tx1[x]], v);
  float l22 = gh_equalize_curve_map (&c2[m->tx2[x]], v);
  return (l11 * m->xa1[x] + l12 * m->xa[x]) * r->ya1
         + (l21 * m->xa1[x] + l22 * m->xa[x]) * r->ya;
}

typedef struct {
  const gh_op *op;
  uint8_t *pixels;
  size_t x0, y0, width, height, stride;
} map_job;

static void
map_main (int index, void *jobs)
{
  const map_job *job = (const map_job *) jobs + index;
  const gh_op *op = job->op;
  uint8_t *pixels = job->pixels;
  size_t x0 = job->x0, y0 = job->y0, width = job->width;
  size_t height = job->height, stride = job->stride;
  const struct gh_clahe_map *m = op->clahe;
  int bpp = gh_layout_bpp (m->g.layout);

  for (size_t j = 0; j < height; j++)
    {
      row_weights r = row_weights_of (&m->g, (int) (y0 + j));
      uint8_t *row = (uint8_t *) pixels + j * stride;
      if (op->sample == GH_SAMPLE_U8 && !m->g.luminance_mode)
        {
          /* The common case, its tile rows looked up once per row. */
          for (int k = 0; k < m->g.channels; k++)
            for (size_t i = 0; i < width; i++)
              row[i * bpp + k]
                = saturate_u8 (map_u8 (m, k, &r, (int) (x0 + i),
                                       row[i * bpp + k]));
          continue;
        }
      for (size_t i = 0; i < width; i++)
        {
          int x = (int) (x0 + i);
          if (op->sample == GH_SAMPLE_U8)
            {
              uint8_t *p = row + i * bpp;
              if (m->g.luminance_mode)
                gh_op_move_luminance_u8 (
                  op, p,
                  saturate_u8 (map_u8 (m, 0, &r, x,
                                       gh_pixel_level_with (
                                         m->g.layout, p, GH_CHANNEL_LUMINANCE,
                                         m->g.luminance))));
              else
                for (int k = 0; k < m->g.channels; k++)
                  p[k] = saturate_u8 (map_u8 (m, k, &r, x, p[k]));
            }
          else
            {
              float *p = (float *) row + i * bpp;
              if (m->g.luminance_mode)
                gh_op_move_luminance_f32 (
                  op, p, map_f32 (m, 0, &r, x,
                                  gh_op_luminance_key_f32 (op, p)));
              else
                for (int k = 0; k < m->g.channels; k++)
                  p[k] = map_f32 (m, k, &r, x, p[k]);
            }
        }
    }
}

/* Each thread maps its own band of rows. */
static void
map_rows_cpu (const gh_op *op, void *pixels, size_t x0, size_t y0,
              size_t width, size_t height, size_t stride)
{
  map_job jobs[MAX_THREADS];
  gh_engine *engine = op->clahe->engine;
  int n = threads_for (engine, width * height,
                       height < MAX_THREADS ? (int) height : MAX_THREADS);

  for (int i = 0; i < n; i++)
    {
      size_t a = height * i / n, b = height * (i + 1) / n;
      jobs[i] = (map_job){ op, (uint8_t *) pixels + a * stride, x0, y0 + a,
                           width, b - a, stride };
    }
  run_jobs (engine, map_main, jobs, n);
}

gh_status
gh_clahe_apply (const gh_op *op, void *pixels, size_t x0, size_t y0,
                size_t width, size_t height, size_t stride, gh_error *error)
{
  struct gh_clahe_map *m = op->clahe;
  gh_status st = gh_strip_check (op->layout, op->sample, pixels, width,
                                 height, stride, error);

  if (st != GH_OK)
    return st;
  if (x0 >= (size_t) m->g.width || width > (size_t) m->g.width - x0
      || y0 >= (size_t) m->g.height || height > (size_t) m->g.height - y0)
    return gh_fail (error, GH_ERR_INVALID,
                    "a %zu x %zu rectangle at (%zu, %zu) is outside the "
                    "%d x %d image",
                    width, height, x0, y0, m->g.width, m->g.height);
#if GH_HAVE_CUDA
  if (m->gpu)
    {
      gh_error why;
      if (gpu_injected (m->engine, &why) == GH_OK
          && gh_clahe_cuda_map (m->gpu, pixels, x0, y0, width, height,
                                stride, &why)
               == GH_OK)
        return GH_OK;
      gh_engine_gpu_lost (m->engine, why.message);
      gh_clahe_cuda_destroy (m->gpu);
      m->gpu = NULL;
    }
#endif
  map_rows_cpu (op, pixels, x0, y0, width, height, stride);
  return GH_OK;
}
