/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clahe_map.c — CLAHE's tile mappings and their interpolation (gh_op_clahe,
 * gh_clahe_apply; clahe.c counts the tile histograms), as OpenCV 4.6's
 * CLAHE_Impl::apply computes them on 8-bit data, pixel for pixel:
 *
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
 * On the CPU, U8: rows shared by the threads; each job keeps, for the two
 * tile rows around its current row, a table of the four tiles' bytes per
 * column segment and level in one word, so a pixel's four lookups are one
 * load; then a span of pixels' arithmetic runs as a vector loop (the same
 * operations, so the same bytes).
 *
 * On a GPU (clahe_cuda.cu) the mapping of each channel and gray, with the
 * same float operations. */
#include "clahe.h"

#include "apply.h"
#include "colour.h"
#include "engine_share.h"
#include "fail.h"
#include "layout.h"
#include "op_kind.h"
#include "threads.h"
#include "vector_clones.h"
#if GH_HAVE_CUDA
#include "clahe_cuda.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct gh_clahe_map {
  gh_clahe_geom g;    /* src_col, src_row not kept */
  uint8_t *lut;       /* U8: channels x tiles x 256 */
  gh_equalize_curve *curves; /* F32: channels x tiles */
  int *tx1, *tx2;     /* per column: the tiles to the left and right */
  int *seg;           /* ... as a segment: 0 (left of the first tile's
                         centre) to tiles_x (right of the last's) */
  int *seg_end;       /* tiles_x + 1: the column after each segment */
  float *xa, *xa1;    /* ... and their weights */
  gh_engine *engine;
  struct gh_clahe_cuda *gpu; /* NULL: the CPU maps */
};

int
gh_clahe_clip_count (const gh_clahe *c)
{
  int area = c->g.tile_w * c->g.tile_h, limit;

  if (!(c->clip_limit > 0))
    return 0;
  limit = (int) (c->clip_limit * area / c->g.bins);
  return limit > 1 ? limit : 1;
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

/* saturate_cast<uchar> (float) of a value in [-2^22, 2^22] (CLAHE's are
 * in [0, 255] and a few ulps): cvRound (to nearest, ties to even), then
 * clamped.  Adding and taking away 1.5 * 2^23 rounds to an integer, ties
 * to even, in the default rounding mode, without a call to lrintf; the
 * clamp on the integer has no float compare, so loops over it
 * vectorize. */
static inline uint8_t
saturate_u8 (float v)
{
  const float magic = 12582912.0f;
  int i = (int) ((v + magic) - magic);
  i = i > 0 ? i : 0;
  return (uint8_t) (i < 255 ? i : 255);
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
  free (m->seg);
  free (m->seg_end);
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
  int area = g->tile_w * g->tile_h, bins = g->bins;
  int limit = gh_clahe_clip_count (c);
  float scale = (float) (bins - 1) / (float) area;
  uint32_t *h = malloc ((size_t) bins * sizeof *h);
  double *counts = NULL;

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
  m->seg = malloc (w * sizeof *m->seg);
  m->seg_end = calloc ((size_t) g->tiles_x + 1, sizeof *m->seg_end);
  if (!m->tx1 || !m->tx2 || !m->xa || !m->xa1 || !m->seg || !m->seg_end)
    return gh_fail (error, GH_ERR_NOMEM, "out of memory for %zu columns", w);
  for (int x = 0; x < g->width; x++)
    {
      float txf = (float) x * inv_tw - 0.5f;
      int tx1 = (int) floorf (txf), tx2 = tx1 + 1;
      m->xa[x] = txf - (float) tx1;
      m->xa1[x] = 1.0f - m->xa[x];
      m->seg[x] = tx1 + 1;
      m->seg_end[tx1 + 1] = x + 1;
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
      && gh_engine_gpu_preferred (c->engine, GH_CLAHE_GPU_THREADS))
    {
      gh_error why;
      if (gh_clahe_cuda_create (&m->g, &m->gpu, &why) != GH_OK
          || gh_clahe_cuda_set_luts (m->gpu, m->lut, &why) != GH_OK)
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

/* Columns interpolated at a time: the span's lookups, then its
 * arithmetic in a loop the compiler vectorizes. */
#define SPAN 256
_Static_assert (SPAN <= GH_COLOUR_SPAN, "a span's colours fit colour.h's");

/* A job's lookup table for the rows between two tile rows: for each
 * plane, each column segment s0.. s0 + nseg - 1 and each level, the four
 * tile mappings' bytes around it in one word (L11, L12, L21, L22 from the
 * low byte), so that a pixel's lookups are one load.  Rebuilt when the
 * tile rows change, i.e. every tile_h rows. */
typedef struct {
  uint32_t *q; /* planes x nseg x 256 */
  int s0, nseg;
  int ty1, ty2; /* the tile rows it holds; -1: none yet */
} quads;

static void
quads_build (const struct gh_clahe_map *m, const row_weights *r, quads *t)
{
  int planes = m->g.luminance_mode ? 1 : m->g.channels;
  size_t tiles = (size_t) m->g.tiles_x * m->g.tiles_y;

  for (int k = 0; k < planes; k++)
    {
      const uint8_t *lut = m->lut + k * tiles * 256;
      const uint8_t *lut1 = lut + (size_t) r->ty1 * m->g.tiles_x * 256;
      const uint8_t *lut2 = lut + (size_t) r->ty2 * m->g.tiles_x * 256;
      for (int s = 0; s < t->nseg; s++)
        {
          int seg = t->s0 + s;
          int tx1 = seg > 0 ? seg - 1 : 0;
          int tx2 = seg < m->g.tiles_x ? seg : m->g.tiles_x - 1;
          const uint8_t *a = lut1 + tx1 * 256, *b = lut1 + tx2 * 256;
          const uint8_t *c = lut2 + tx1 * 256, *d = lut2 + tx2 * 256;
          uint32_t *q = t->q + ((size_t) k * t->nseg + s) * 256;
          for (int v = 0; v < 256; v++)
            q[v] = a[v] | (uint32_t) b[v] << 8 | (uint32_t) c[v] << 16
                   | (uint32_t) d[v] << 24;
        }
    }
  t->ty1 = r->ty1;
  t->ty2 = r->ty2;
}

/* n <= SPAN pixels from column x on, `step` bytes apart, their first
 * `planes` (1 to 3) bytes the levels of the planes: mapped from src into
 * dst (src may be dst) by CLAHE_Interpolation_Body's arithmetic, each
 * value's float operations in its order; in AVX2's 8-wide vectors where
 * the CPU has them (vector_clones.h). */
static void GH_VECTOR_CLONES
map_span_u8 (const struct gh_clahe_map *m, const quads *t, int planes,
             const row_weights *r, int x, int n, const uint8_t *src,
             int step, uint8_t *dst)
{
  const int *restrict seg = m->seg + x, *restrict seg_end = m->seg_end;
  const float *restrict xa = m->xa + x, *restrict xa1 = m->xa1 + x;
  const float ya = r->ya, ya1 = r->ya1;
  size_t plane = (size_t) t->nseg * 256;
  uint32_t l[3][SPAN];
  uint8_t out[3][SPAN];

  for (int i = 0; i < n;)
    {
      /* One segment's columns: one table per plane. */
      const uint32_t *restrict qs = t->q + (size_t) (seg[i] - t->s0) * 256;
      int end = seg_end[seg[i]] - x < n ? seg_end[seg[i]] - x : n;
      if (planes == 1)
        for (; i < end; i++)
          l[0][i] = qs[src[(size_t) i * step]];
      else
        for (; i < end; i++)
          for (int k = 0; k < planes; k++)
            l[k][i] = qs[k * plane + src[(size_t) i * step + k]];
    }
  for (int k = 0; k < planes; k++)
    for (int i = 0; i < n; i++)
      {
        float l11 = (float) (int) (l[k][i] & 255);
        float l12 = (float) (int) (l[k][i] >> 8 & 255);
        float l21 = (float) (int) (l[k][i] >> 16 & 255);
        float l22 = (float) (int) (l[k][i] >> 24);
        out[k][i] = saturate_u8 ((l11 * xa1[i] + l12 * xa[i]) * ya1
                                 + (l21 * xa1[i] + l22 * xa[i]) * ya);
      }
  if (planes == 1 && step == 1)
    memcpy (dst, out[0], (size_t) n);
  else
    for (int i = 0; i < n; i++)
      for (int k = 0; k < planes; k++)
        dst[(size_t) i * step + k] = out[k][i];
}

/* One U8 row of `width` pixels from column x0 on: each channel (or gray)
 * mapped in place, or the luminance mapped and the colour moved to it. */
static void
map_row_u8 (const gh_op *op, quads *t, const row_weights *r, uint8_t *row,
            size_t x0, size_t width)
{
  const struct gh_clahe_map *m = op->clahe;
  int bpp = gh_layout_bpp (m->g.layout);
  uint8_t key[SPAN], level[SPAN];
  gh_colour_span span;

  if (r->ty1 != t->ty1 || r->ty2 != t->ty2)
    quads_build (m, r, t);
  for (size_t i0 = 0; i0 < width; i0 += SPAN)
    {
      int n = width - i0 < SPAN ? (int) (width - i0) : SPAN;
      int x = (int) (x0 + i0);
      uint8_t *p = row + i0 * bpp;
      if (!m->g.luminance_mode)
        {
          map_span_u8 (m, t, m->g.channels, r, x, n, p, bpp, p);
          continue;
        }
      gh_op_luminance_keys_u8 (op, p, n, &span, key);
      map_span_u8 (m, t, 1, r, x, n, key, 1, level);
      gh_op_move_luminance_u8 (op, &span, p, n, level);
    }
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
  quads t; /* U8: its own */
} map_job;

static void
map_main (int index, void *jobs)
{
  map_job *job = (map_job *) jobs + index;
  const gh_op *op = job->op;
  const struct gh_clahe_map *m = op->clahe;
  int bpp = gh_layout_bpp (m->g.layout);

  for (size_t j = 0; j < job->height; j++)
    {
      row_weights r = row_weights_of (&m->g, (int) (job->y0 + j));
      uint8_t *row = job->pixels + j * job->stride;
      if (op->sample == GH_SAMPLE_U8)
        {
          map_row_u8 (op, &job->t, &r, row, job->x0, job->width);
          continue;
        }
      for (size_t i = 0; i < job->width; i++)
        {
          int x = (int) (job->x0 + i);
          float *p = (float *) row + i * bpp;
          if (m->g.luminance_mode)
            gh_op_move_luminance_f32 (
              op, p, map_f32 (m, 0, &r, x, gh_op_luminance_key_f32 (op, p)));
          else
            for (int k = 0; k < m->g.channels; k++)
              p[k] = map_f32 (m, k, &r, x, p[k]);
        }
    }
}

/* Each thread maps its own band of rows, U8 with its own lookup table of
 * the rectangle's column segments. */
static gh_status
map_rows_cpu (const gh_op *op, void *pixels, size_t x0, size_t y0,
              size_t width, size_t height, size_t stride, gh_error *error)
{
  const struct gh_clahe_map *m = op->clahe;
  map_job jobs[GH_CLAHE_MAX_JOBS];
  gh_threads *pool = gh_engine_threads (m->engine);
  int n = gh_threads_jobs (pool, width * height, GH_CLAHE_JOB_PIXELS,
                           height < GH_CLAHE_MAX_JOBS ? (int) height
                                                      : GH_CLAHE_MAX_JOBS);
  int s0 = m->seg[x0], nseg = m->seg[x0 + width - 1] - s0 + 1;
  size_t words = 0;
  uint32_t *q = NULL;

  if (op->sample == GH_SAMPLE_U8)
    {
      words = (size_t) (m->g.luminance_mode ? 1 : m->g.channels) * nseg * 256;
      if (!(q = malloc ((size_t) n * words * sizeof *q)))
        return gh_fail (error, GH_ERR_NOMEM,
                        "out of memory for CLAHE's lookup tables");
    }
  for (int i = 0; i < n; i++)
    {
      size_t a = height * i / n, b = height * (i + 1) / n;
      jobs[i] = (map_job){ op, (uint8_t *) pixels + a * stride, x0, y0 + a,
                           width, b - a, stride,
                           { q ? q + i * words : NULL, s0, nseg, -1, -1 } };
    }
  gh_threads_run_any (pool, n, map_main, jobs);
  free (q);
  return GH_OK;
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
      if (gh_engine_gpu_injected (m->engine, &why) == GH_OK
          && gh_clahe_cuda_map (m->gpu, pixels, x0, y0, width, height,
                                stride, &why)
               == GH_OK)
        return GH_OK;
      gh_engine_gpu_lost (m->engine, why.message);
      gh_clahe_cuda_destroy (m->gpu);
      m->gpu = NULL;
    }
#endif
  return map_rows_cpu (op, pixels, x0, y0, width, height, stride, error);
}
