/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clahe.c — contrast-limited adaptive histogram equalization (gh_clahe_*,
 * gh_op_clahe), as OpenCV 4.6's CLAHE_Impl::apply (imgproc/src/clahe.cpp)
 * computes it on 8-bit data, pixel for pixel:
 *
 *  - tiles: the image padded as clahe.h says (copyMakeBorder,
 *    BORDER_REFLECT_101 by borderInterpolate, so tiny images whose padding
 *    exceeds them reflect back and forth), cut into tiles_x x tiles_y
 *    tiles of tile_w x tile_h, each counting its pixels' levels (or, for
 *    float images, bins; of R, G and B each, or the luminance, or gray:
 *    clahe_map.c says which);
 *  - clipping, the tile mappings and the interpolation: clahe_map.c.
 *
 * Rows arrive in strips, in any order: each source row adds to the tile
 * histograms of its own padded row and of every padding row that reflects
 * to it; the interpolation needs no neighbours, so any rectangle maps on
 * its own.  A strip's counting is cut into units, a tile each (the tile
 * rows it touches times the tile columns), which the threads share: no
 * two write the same counts.
 *
 * gh_clahe_image takes a whole image in memory: the same passes, or on a
 * GPU (clahe_cuda.h) all of them there, in one crossing each way.
 *
 * On a GPU (an engine on CUDA, U8 images; under AUTO only with fewer CPU
 * threads than GH_CLAHE_GPU_THREADS, clahe.h): the tile counts of each strip
 * and the interpolation of each rectangle (each channel and gray; the
 * luminance mode's colour move stays on the CPU) run there
 * (clahe_cuda.cu), with the same integers and the same float operations;
 * a GPU failure is told through the engine and the work finishes on the
 * CPU.
 *
 * This file: the tile histograms (gh_clahe_begin, gh_clahe_feed);
 * clahe_map.c: the tile mappings and their interpolation (gh_op_clahe,
 * gh_clahe_apply). */
#include "clahe.h"

#include "apply.h"
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

static void
geom_free (gh_clahe_geom *g)
{
  free (g->src_col);
  free (g->src_row);
  g->src_col = g->src_row = NULL;
}

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
  free (c->strip_rows);
  free (c);
}

static gh_status
check_clip (double clip_limit, gh_error *error)
{
  if (!(clip_limit >= 0) || !isfinite (clip_limit))
    return gh_fail (error, GH_ERR_INVALID,
                    "clip limit %g is not a number >= 0", clip_limit);
  return GH_OK;
}

/* gh_clahe_begin; `strips_on_gpu`: the GPU may count the strips fed. */
static gh_status
begin (gh_engine *engine, const gh_clahe_params *p, gh_layout layout,
       gh_sample sample, gh_luminance luminance, int bins, size_t width,
       size_t height, int strips_on_gpu, gh_clahe **out, gh_error *error)
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
  if ((st = check_clip (p->clip_limit, error)) != GH_OK)
    return st;
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
           || !(c->fed = calloc (height, 1))
           || !(c->strip_rows = malloc ((size_t) g->tiles_y * sizeof (int))))
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
  if (strips_on_gpu && sample == GH_SAMPLE_U8
      && gh_engine_gpu_preferred (engine, GH_CLAHE_GPU_THREADS))
    {
      gh_error why;
      if (gh_clahe_cuda_create (g, &c->gpu, &why) != GH_OK)
        gh_engine_gpu_lost (engine, why.message);
    }
#else
  (void) strips_on_gpu;
#endif
  *out = c;
  return GH_OK;
}

gh_status
gh_clahe_begin (gh_engine *engine, const gh_clahe_params *p, gh_layout layout,
                gh_sample sample, gh_luminance luminance, int bins,
                size_t width, size_t height, gh_clahe **out, gh_error *error)
{
  return begin (engine, p, layout, sample, luminance, bins, width, height, 1,
                out, error);
}

gh_status
gh_clahe_set_clip_limit (gh_clahe *c, double clip_limit, gh_error *error)
{
  gh_status st;

  if (!c)
    return gh_fail (error, GH_ERR_INVALID, "no CLAHE handle given");
  if ((st = check_clip (clip_limit, error)) != GH_OK)
    return st;
  c->clip_limit = clip_limit;
  return GH_OK;
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
  int u0, u1; /* its units: tile row strip_rows[u / tiles_x], column
                 u % tiles_x */
} count_job;

/* Levels of U8 channels (or gray) are counted in four sub-histograms per
 * channel, a pixel's in the next, so that runs of one level (common in
 * photos) do not wait on one counter; the tile's counts get their sum. */
#define SUBS 4 /* the loops below are written out for four */

/* Source row `row`'s part in tile column tx: set k's bins into h (U8
 * channels: SUBS x 256 counters per set, k's at k * SUBS * 256; else the
 * tile's own counts of set k, h[k] = its first). */
static void
count_segment (const gh_clahe *c, const uint8_t *row, int tx, uint32_t **h)
{
  const gh_clahe_geom *g = &c->g;
  int bpp = gh_layout_bpp (g->layout);
  int xa = tx * g->tile_w, xb = xa + g->tile_w;
  int direct = xb < g->width ? xb : g->width; /* columns xa..direct-1 */

  if (c->sample != GH_SAMPLE_U8 || g->luminance_mode)
    {
      for (int k = 0; k < g->channels; k++)
        for (int x = xa; x < xb; x++)
          h[k][key_of (c, row, g->src_col[x], k)]++;
      return;
    }
  for (int k = 0; k < g->channels; k++)
    {
      uint32_t *restrict s = h[k];
      const uint8_t *p = row + (size_t) xa * bpp + k;
      int x = xa;
      for (; x + SUBS <= direct; x += SUBS, p += SUBS * bpp)
        {
          s[p[0]]++;
          s[256 + p[bpp]]++;
          s[512 + p[2 * bpp]]++;
          s[768 + p[3 * bpp]]++;
        }
      for (; x < direct; x++, p += bpp)
        s[*p]++;
      for (x = direct > xa ? direct : xa; x < xb; x++)
        s[row[(size_t) g->src_col[x] * bpp + k]]++;
    }
}

/* Unit u: tile (ty, tx)'s counts from the strip's rows, its own padded
 * rows and the padding rows that reflect to them. */
static void
count_unit (const count_job *j, int u)
{
  gh_clahe *c = j->c;
  const gh_clahe_geom *g = &c->g;
  int ty = c->strip_rows[u / g->tiles_x], tx = u % g->tiles_x;
  size_t tiles = (size_t) g->tiles_x * g->tiles_y;
  long ya = (long) ty * g->tile_h, yb = ya + g->tile_h;
  long y0 = (long) j->y0, y1 = y0 + (long) j->rows;
  int subs = c->sample == GH_SAMPLE_U8 && !g->luminance_mode;
  uint32_t sub[3 * SUBS * 256], *h[3];

  for (int k = 0; k < g->channels; k++)
    h[k] = subs ? sub + k * SUBS * 256
                : c->hist + ((size_t) k * tiles + (size_t) ty * g->tiles_x
                             + tx) * g->bins;
  if (subs)
    memset (sub, 0, (size_t) g->channels * SUBS * 256 * sizeof *sub);
  for (long y = ya > y0 ? ya : y0; y < yb && y < y1; y++)
    count_segment (c, j->pixels + (size_t) (y - y0) * j->stride, tx, h);
  for (long py = ya > g->height ? ya : g->height; py < yb; py++)
    {
      long y = g->src_row[py - g->height];
      if (y >= y0 && y < y1)
        count_segment (c, j->pixels + (size_t) (y - y0) * j->stride, tx, h);
    }
  if (!subs)
    return;
  for (int k = 0; k < g->channels; k++)
    {
      uint32_t *restrict th
        = c->hist + ((size_t) k * tiles + (size_t) ty * g->tiles_x + tx) * 256;
      const uint32_t *restrict s = h[k];
      for (int v = 0; v < 256; v++)
        th[v] += s[v] + s[256 + v] + s[512 + v] + s[768 + v];
    }
}

static void
count_main (int index, void *jobs)
{
  const count_job *j = (const count_job *) jobs + index;

  for (int u = j->u0; u < j->u1; u++)
    count_unit (j, u);
}

/* The strip's tile rows (its own, then those of the padding rows that
 * reflect into it: all below its own) into c->strip_rows; their count. */
static int
strip_tile_rows (gh_clahe *c, size_t y0, size_t rows)
{
  const gh_clahe_geom *g = &c->g;
  int n = 0;

  for (int ty = (int) (y0 / g->tile_h);
       ty <= (int) ((y0 + rows - 1) / g->tile_h); ty++)
    c->strip_rows[n++] = ty;
  for (int py = g->height; py < g->padded_h; py++)
    {
      size_t y = (size_t) g->src_row[py - g->height];
      int ty = py / g->tile_h;
      if (y >= y0 && y < y0 + rows && ty > c->strip_rows[n - 1])
        c->strip_rows[n++] = ty;
    }
  return n;
}

/* The threads share the strip's units. */
static void
count_rows_cpu (gh_clahe *c, const void *pixels, size_t y0, size_t rows,
                size_t stride)
{
  count_job jobs[GH_CLAHE_MAX_JOBS];
  gh_threads *pool = gh_engine_threads (c->engine);
  int units = strip_tile_rows (c, y0, rows) * c->g.tiles_x;
  int n = gh_threads_jobs (pool, (size_t) c->g.padded_w * rows,
                           GH_CLAHE_JOB_PIXELS,
                           units < GH_CLAHE_MAX_JOBS ? units
                                                     : GH_CLAHE_MAX_JOBS);

  for (int i = 0; i < n; i++)
    jobs[i] = (count_job){ c, pixels, y0, rows, stride,
                           (int) ((long) units * i / n),
                           (int) ((long) units * (i + 1) / n) };
  gh_threads_run_any (pool, n, count_main, jobs);
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
      if (gh_engine_gpu_injected (c->engine, &why) == GH_OK
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

#if GH_HAVE_CUDA
static gh_status
injected (void *engine, gh_error *why)
{
  return gh_engine_gpu_injected ((gh_engine *) engine, why);
}

/* The GPU's whole-image pass (clahe_cuda.h): 8-bit, each channel or gray,
 * the padding rows' sources in the last tile row (tiles at least twice
 * the padding high); under AUTO from GH_CLAHE_IMAGE_GPU_PIXELS on. */
static int
image_on_gpu (const gh_clahe *c)
{
  const gh_clahe_geom *g = &c->g;
  int big = (long long) g->width * g->height >= GH_CLAHE_IMAGE_GPU_PIXELS;

  return c->sample == GH_SAMPLE_U8 && !g->luminance_mode
         && g->tile_h > 2 * g->tiles_y
         && gh_engine_gpu_preferred (c->engine, big ? INT_MAX : 0);
}
#endif

gh_status
gh_clahe_image (gh_engine *engine, const gh_clahe_params *p, gh_layout layout,
                gh_sample sample, gh_luminance luminance, int bins,
                void *pixels, size_t width, size_t height, size_t stride,
                gh_error *error)
{
  gh_clahe *c;
  gh_op op;
  gh_status st;
  size_t done = 0, counted = 0;

  if ((st = begin (engine, p, layout, sample, luminance, bins, width, height,
                   0, &c, error))
      != GH_OK)
    return st;
  if ((st = gh_strip_check (layout, sample, pixels, width, height, stride,
                            error))
      != GH_OK)
    {
      gh_clahe_destroy (c);
      return st;
    }
#if GH_HAVE_CUDA
  if (image_on_gpu (c))
    {
      gh_error why;
      if (gh_clahe_cuda_image (&c->g, gh_clahe_clip_count (c),
                               gh_engine_threads (engine),
                               gh_engine_clahe_space (engine), pixels, stride,
                               injected, engine, c->hist, &done, &counted,
                               &why)
          == GH_OK)
        {
          gh_clahe_destroy (c);
          return GH_OK;
        }
      gh_engine_gpu_lost (engine, why.message);
    }
#endif
  /* The CPU: the rows whose tile rows the GPU did not count, then the
   * rows it did not write. */
  if (counted < height)
    count_rows_cpu (c, (const uint8_t *) pixels + counted * stride, counted,
                    height - counted, stride);
  c->rows_fed = height;
  st = gh_op_clahe (&op, c, error);
  gh_clahe_destroy (c);
  if (st != GH_OK)
    return st;
  if (done < height)
    st = gh_clahe_apply (&op, (uint8_t *) pixels + done * stride, 0, done,
                         width, height - done, stride, error);
  gh_op_clear (&op);
  return st;
}
