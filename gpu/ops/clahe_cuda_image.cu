/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clahe_cuda_image.cu — CLAHE of a whole image in memory on the GPU
 * (gh_clahe_cuda_image, clahe_cuda.h), through clahe_launch.cu's kernels.
 *
 * The image crosses once each way in bands of rows, through pinned
 * buffers (BUFS a direction, the engine's, kept between calls) that every
 * CPU thread fills and empties, with stores that bypass the caches: band
 * i's copy in and count on one stream while band i + 1 is staged; once
 * the tile rows a band's interpolation reads have their counts, their
 * mappings are made on that stream and the band is interpolated and
 * copied out on a second, which waits on the first by an event, so the
 * copy out of the top of the image overlaps the copy in of the bottom.
 * No stream or device is waited for: the host polls the events and moves
 * whatever can move.  Each tile row's counts come back beside its
 * mappings, so a failure part-way leaves the host what the CPU needs to
 * finish the rows not yet written.
 *
 * A caller's image in page-locked memory (gh_engine_alloc_host's, or
 * registered with CUDA) is copied straight from and back to, by the
 * copy engines, with no staging: the same passes, no thread copies. */
#include "clahe_cuda.h"
#include "clahe_launch.h"
#include "cuda_backend.h"
#include "fail.h"
#include "threads.h"

#include <cuda_runtime.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* A whole image's pinned buffers: BUFS a direction, each a band of
 * BAND_MAX at most (or one row, where a row is longer): bounded whatever
 * the image.  An image is cut into BANDS bands where that keeps them
 * within BAND_MIN..BAND_MAX: on the H100 host, 12 MP gray in 3 bands took
 * 1.0-1.3 ms, in 6 1.25-1.3 and in 12 1.95-2.1 (each band costs the
 * threads' wake-ups and a dozen CUDA calls; BENCHMARKS.md, 2026-11-26). */
#define BUFS 4
#define BANDS 3
#define BAND_MIN ((size_t) 1 << 20)
#define BAND_MAX ((size_t) 8 << 20)
/* Page-locked, the bands need no buffers: 3 let the copies in and out
 * overlap (H200 host, 12 MP RGB 1.41 ms in 3 bands, 1.58 in one: one count,
 * mapping and interpolation launch; BENCHMARKS.md, 2026-11-26). */
#define DIRECT_BANDS 3

/* A whole image's buffers, kept by the engine between calls. */
struct gh_clahe_space {
  cudaStream_t up, down;
  cudaEvent_t in_free[BUFS], out_done[BUFS], luts;
  uint8_t *h_in[BUFS], *h_out[BUFS];
  size_t band_cap;
  uint8_t *d_img;
  size_t img_cap;
  uint32_t *d_hist, *h_hist;
  uint8_t *d_lut;
  size_t counters_cap;
};

/* ---- A whole image ---------------------------------------------------- */

void
gh_clahe_space_free (gh_clahe_space *s)
{
  if (!s)
    return;
  if (s->up)
    cudaStreamSynchronize (s->up);
  if (s->down)
    cudaStreamSynchronize (s->down);
  for (int i = 0; i < BUFS; i++)
    {
      cudaFreeHost (s->h_in[i]);
      cudaFreeHost (s->h_out[i]);
      if (s->in_free[i])
        cudaEventDestroy (s->in_free[i]);
      if (s->out_done[i])
        cudaEventDestroy (s->out_done[i]);
    }
  if (s->luts)
    cudaEventDestroy (s->luts);
  cudaFree (s->d_img);
  cudaFree (s->d_hist);
  cudaFree (s->d_lut);
  cudaFreeHost (s->h_hist);
  if (s->up)
    cudaStreamDestroy (s->up);
  if (s->down)
    cudaStreamDestroy (s->down);
  free (s);
}

/* The space's streams and events, and room for an image of `img` bytes,
 * bands of `band` and `counters` tile counts. */
static gh_status
space_room (gh_clahe_space **sp, size_t img, size_t band, size_t counters,
            gh_error *error)
{
  gh_clahe_space *s = *sp;

  if (!s)
    {
      if (!(s = *sp = (gh_clahe_space *) calloc (1, sizeof *s)))
        return gh_fail (error, GH_ERR_NOMEM, "out of memory for CLAHE");
      TRY (cudaStreamCreateWithFlags (&s->up, cudaStreamNonBlocking));
      TRY (cudaStreamCreateWithFlags (&s->down, cudaStreamNonBlocking));
      TRY (cudaEventCreateWithFlags (&s->luts, cudaEventDisableTiming));
      for (int i = 0; i < BUFS; i++)
        {
          TRY (cudaEventCreateWithFlags (&s->in_free[i],
                                         cudaEventDisableTiming));
          TRY (cudaEventCreateWithFlags (&s->out_done[i],
                                         cudaEventDisableTiming));
        }
    }
  if (img > s->img_cap)
    {
      cudaFree (s->d_img);
      s->d_img = NULL;
      s->img_cap = 0;
      /* The count reads whole aligned 16-byte words. */
      TRY (cudaMalloc (&s->d_img, (img + 15) & ~(size_t) 15));
      s->img_cap = img;
    }
  if (band > s->band_cap)
    {
      s->band_cap = 0;
      for (int i = 0; i < BUFS; i++)
        {
          cudaFreeHost (s->h_in[i]);
          cudaFreeHost (s->h_out[i]);
          s->h_in[i] = s->h_out[i] = NULL;
        }
      for (int i = 0; i < BUFS; i++)
        {
          TRY (cudaHostAlloc (&s->h_in[i], band, cudaHostAllocDefault));
          TRY (cudaHostAlloc (&s->h_out[i], band, cudaHostAllocDefault));
        }
      s->band_cap = band;
    }
  if (counters > s->counters_cap)
    {
      cudaFree (s->d_hist);
      cudaFree (s->d_lut);
      cudaFreeHost (s->h_hist);
      s->d_hist = NULL;
      s->d_lut = NULL;
      s->h_hist = NULL;
      s->counters_cap = 0;
      TRY (cudaMalloc (&s->d_hist, counters * sizeof *s->d_hist));
      TRY (cudaMalloc (&s->d_lut, counters));
      TRY (cudaHostAlloc (&s->h_hist, counters * sizeof *s->h_hist,
                          cudaHostAllocDefault));
      s->counters_cap = counters;
    }
  return GH_OK;
}

/* Rows copied between the caller's memory and a packed band, by the
 * threads. */
typedef struct {
  uint8_t *dst;
  const uint8_t *src;
  size_t dst_stride, src_stride, row_bytes, rows;
  int jobs;
} rows_copy;

/* memcpy whose stores bypass the caches where the CPU has SSE2: the
 * destination (pinned, or the caller's result) is not read again soon, and
 * a cached store first reads the line it writes. */
static void
copy_stream (uint8_t *dst, const uint8_t *src, size_t n)
{
#if defined(__SSE2__)
  size_t i = 0;
  while (i < n && ((uintptr_t) (dst + i) & 15))
    {
      dst[i] = src[i];
      i++;
    }
  for (; i + 64 <= n; i += 64)
    {
      __m128i a = _mm_loadu_si128 ((const __m128i *) (src + i));
      __m128i b = _mm_loadu_si128 ((const __m128i *) (src + i + 16));
      __m128i c = _mm_loadu_si128 ((const __m128i *) (src + i + 32));
      __m128i d = _mm_loadu_si128 ((const __m128i *) (src + i + 48));
      _mm_stream_si128 ((__m128i *) (dst + i), a);
      _mm_stream_si128 ((__m128i *) (dst + i + 16), b);
      _mm_stream_si128 ((__m128i *) (dst + i + 32), c);
      _mm_stream_si128 ((__m128i *) (dst + i + 48), d);
    }
  memcpy (dst + i, src + i, n - i);
  _mm_sfence ();
#else
  memcpy (dst, src, n);
#endif
}

static void
rows_copy_part (int index, void *arg)
{
  const rows_copy *c = (const rows_copy *) arg;
  size_t a = c->rows * index / c->jobs, b = c->rows * (index + 1) / c->jobs;

  if (c->dst_stride == c->row_bytes && c->src_stride == c->row_bytes)
    {
      copy_stream (c->dst + a * c->row_bytes, c->src + a * c->row_bytes,
                   (b - a) * c->row_bytes);
      return;
    }
  for (size_t j = a; j < b; j++)
    copy_stream (c->dst + j * c->dst_stride, c->src + j * c->src_stride,
                 c->row_bytes);
}

static void
copy_rows (gh_threads *pool, uint8_t *dst, size_t dst_stride,
           const uint8_t *src, size_t src_stride, size_t row_bytes,
           size_t rows)
{
  rows_copy c = { dst, src, dst_stride, src_stride, row_bytes, rows, 1 };

  c.jobs = gh_threads_jobs (pool, row_bytes * rows, (size_t) 64 << 10,
                            rows < 64 ? (int) rows : 64);
  gh_threads_run_any (pool, c.jobs, rows_copy_part, &c);
}

/* A whole image on its way: its bands and how far each has come. */
typedef struct {
  const gh_clahe_geom *g;
  gh_clahe_space *s;
  gh_threads *pool;
  uint8_t *pixels;
  size_t stride, pitch;
  int limit, band_rows, bands;
  float scale;
  int up;   /* bands copied in and counted */
  int luts; /* tile rows mapped, their counts on their way back */
  int down; /* bands interpolated and on their way back */
  int out;  /* bands written back */
  int luts_of[BUFS]; /* a band on its way back: `luts` when it left */
  int valid;         /* tile rows whose counts are on the host */
  size_t done;       /* rows written back */
  int direct;        /* the caller's memory page-locked: no staging */
} image_run;

static void
band_of (const image_run *r, int band, int *ya, int *yb)
{
  *ya = band * r->band_rows;
  *yb = *ya + r->band_rows < r->g->height ? *ya + r->band_rows
                                          : r->g->height;
}

/* The last tile row band's interpolation reads or its rows are counted in
 * (the padding's sources lie in the last). */
static int
band_needs (const image_run *r, int band)
{
  const gh_clahe_geom *g = r->g;
  int ya, yb, need;

  band_of (r, band, &ya, &yb);
  /* The lower of the two tile rows around its last row: floor (tyf) + 1,
   * rounded up if anything. */
  need = (int) ((float) (yb - 1) * (1.0f / (float) g->tile_h) - 0.5f + 1.0f);
  need = need > (yb - 1) / g->tile_h ? need : (yb - 1) / g->tile_h;
  return need < g->tiles_y - 1 ? need : g->tiles_y - 1;
}

/* Band r->up staged, copied in and counted (after the last, the padding
 * rows); the tile rows now whole mapped and their counts sent back. */
static gh_status
band_in (image_run *r, gh_error *error)
{
  const gh_clahe_geom *g = r->g;
  gh_clahe_space *s = r->s;
  size_t tiles = (size_t) g->tiles_x * g->tiles_y;
  int b = r->up % BUFS, ya, yb, ready;
  gh_status st;

  band_of (r, r->up, &ya, &yb);
  if (r->direct)
    TRY (cudaMemcpy2DAsync (s->d_img + (size_t) ya * r->pitch, r->pitch,
                            r->pixels + (size_t) ya * r->stride, r->stride,
                            r->pitch, (size_t) (yb - ya),
                            cudaMemcpyHostToDevice, s->up));
  else
    {
      copy_rows (r->pool, s->h_in[b], r->pitch,
                 r->pixels + (size_t) ya * r->stride, r->stride, r->pitch,
                 (size_t) (yb - ya));
      TRY (cudaMemcpyAsync (s->d_img + (size_t) ya * r->pitch, s->h_in[b],
                            (size_t) (yb - ya) * r->pitch,
                            cudaMemcpyHostToDevice, s->up));
      TRY (cudaEventRecord (s->in_free[b], s->up));
    }
  /* The last band's launch counts the padding rows too. */
  if ((st = gh_clahe_launch_count (g, s->d_img, r->pitch, 0, g->height, ya,
                                   ++r->up == r->bands ? g->padded_h : yb,
                                   s->d_hist, s->up, error))
      != GH_OK)
    return st;
  ready = r->up == r->bands ? g->tiles_y : yb / g->tile_h;
  if (ready <= r->luts)
    return GH_OK;
  if ((st = gh_clahe_launch_luts (g, r->luts, ready - r->luts, r->limit,
                                  r->scale, s->d_hist, s->d_lut, s->up,
                                  error))
      != GH_OK)
    return st;
  for (int k = 0; k < g->channels; k++)
    {
      size_t at = (k * tiles + (size_t) r->luts * g->tiles_x) * 256;
      TRY (cudaMemcpyAsync (s->h_hist + at, s->d_hist + at,
                            (size_t) (ready - r->luts) * g->tiles_x * 256
                              * sizeof *s->h_hist,
                            cudaMemcpyDeviceToHost, s->up));
    }
  TRY (cudaEventRecord (s->luts, s->up));
  r->luts = ready;
  return GH_OK;
}

/* Band r->down interpolated once the mappings are made, and sent back
 * (straight to the caller's rows where they are page-locked: from then on
 * they may be written, so the engine's check comes first). */
static gh_status
band_map (image_run *r, gh_status (*check) (void *, gh_error *),
          void *check_arg, gh_error *error)
{
  gh_clahe_space *s = r->s;
  int b = r->down % BUFS, ya, yb;
  gh_status st;

  if (r->direct && (st = check (check_arg, error)) != GH_OK)
    return st;
  band_of (r, r->down, &ya, &yb);
  TRY (cudaStreamWaitEvent (s->down, s->luts, 0));
  if ((st = gh_clahe_launch_map (r->g, s->d_img + (size_t) ya * r->pitch, r->pitch, 0,
                        (size_t) ya, (size_t) r->g->width, (size_t) (yb - ya),
                        s->d_lut, s->down, error))
      != GH_OK)
    return st;
  if (r->direct)
    TRY (cudaMemcpy2DAsync (r->pixels + (size_t) ya * r->stride, r->stride,
                            s->d_img + (size_t) ya * r->pitch, r->pitch,
                            r->pitch, (size_t) (yb - ya),
                            cudaMemcpyDeviceToHost, s->down));
  else
    TRY (cudaMemcpyAsync (s->h_out[b], s->d_img + (size_t) ya * r->pitch,
                          (size_t) (yb - ya) * r->pitch,
                          cudaMemcpyDeviceToHost, s->down));
  TRY (cudaEventRecord (s->out_done[b], s->down));
  r->luts_of[b] = r->luts;
  r->down++;
  return GH_OK;
}

/* Band r->out, back in pinned memory, written to the caller's (already
 * there where the caller's memory is page-locked). */
static gh_status
band_out (image_run *r, gh_status (*check) (void *, gh_error *),
          void *check_arg, gh_error *error)
{
  int b = r->out % BUFS, ya, yb;
  gh_status st;

  band_of (r, r->out, &ya, &yb);
  if (!r->direct)
    {
      if ((st = check (check_arg, error)) != GH_OK)
        return st;
      copy_rows (r->pool, r->pixels + (size_t) ya * r->stride, r->stride,
                 r->s->h_out[b], r->pitch, r->pitch, (size_t) (yb - ya));
    }
  r->valid = r->luts_of[b];
  r->done = (size_t) yb;
  r->out++;
  return GH_OK;
}

/* 1 when `e` has happened, 0 while pending; -1 (and *q) on an error. */
static int
happened (cudaEvent_t e, cudaError_t *q)
{
  *q = cudaEventQuery (e);
  return *q == cudaSuccess ? 1 : *q == cudaErrorNotReady ? 0 : -1;
}

/* The passes: whatever can move, moves (bands written back first, which
 * frees their buffers; then interpolations whose mappings are made; then
 * the next band in); the host waits on nothing but events. */
static gh_status
image_passes (image_run *r, gh_clahe_space **sp,
              gh_status (*check) (void *, gh_error *), void *check_arg,
              gh_error *error)
{
  const gh_clahe_geom *g = r->g;
  size_t img = r->pitch * (size_t) g->height;
  size_t counters = (size_t) g->channels * g->tiles_x * g->tiles_y * 256;
  /* Page-locked, no BAND_MAX: the bands have no buffers. */
  int bands = r->direct ? DIRECT_BANDS : BANDS;
  size_t band = img / bands < BAND_MIN                ? BAND_MIN
                : !r->direct && img / bands > BAND_MAX ? BAND_MAX
                                                       : img / bands;
  cudaError_t q;
  gh_status st;
  int h;

  r->band_rows = band / r->pitch > 0 ? (int) (band / r->pitch) : 1;
  r->band_rows = r->band_rows < g->height ? r->band_rows : g->height;
  r->bands = (g->height + r->band_rows - 1) / r->band_rows;
  TRY (cudaSetDevice (0));
  if ((st = space_room (sp, img,
                        r->direct ? 0 : (size_t) r->band_rows * r->pitch,
                        counters, error))
      != GH_OK)
    return st;
  r->s = *sp;
  TRY (cudaMemsetAsync (r->s->d_hist, 0, counters * sizeof *r->s->d_hist,
                        r->s->up));
  while (r->out < r->bands)
    {
      while (r->out < r->down
             && (h = happened (r->s->out_done[r->out % BUFS], &q)) != 0)
        if (h < 0)
          return gh_clahe_cuda_fail (error, "a band's copy back", q);
        else if ((st = band_out (r, check, check_arg, error)) != GH_OK)
          return st;
      while (r->down < r->up && r->down - r->out < BUFS
             && band_needs (r, r->down) < r->luts)
        if ((st = band_map (r, check, check_arg, error)) != GH_OK)
          return st;
      if (r->up < r->bands
          && (h = r->direct || r->up < BUFS
                    ? 1
                    : happened (r->s->in_free[r->up % BUFS], &q))
               != 0)
        {
          if (h < 0)
            return gh_clahe_cuda_fail (error, "a band's copy in", q);
          if ((st = band_in (r, error)) != GH_OK)
            return st;
        }
    }
  return GH_OK;
}

/* After a failure with the caller's memory page-locked: the copies back
 * already queued finish (or fail) first, and those that finished count as
 * written, so the CPU never maps a row twice.  (A device lost in the middle
 * of a copy back cannot say how much of it landed: that band is taken as
 * not written.) */
static void
settle (image_run *r)
{
  int ya, yb;

  if (!r->s)
    return;
  cudaStreamSynchronize (r->s->up);   /* errors: told by the events */
  cudaStreamSynchronize (r->s->down);
  for (; r->out < r->down
         && cudaEventQuery (r->s->out_done[r->out % BUFS]) == cudaSuccess;
       r->out++)
    {
      band_of (r, r->out, &ya, &yb);
      r->valid = r->luts_of[r->out % BUFS];
      r->done = (size_t) yb;
    }
}

gh_status
gh_clahe_cuda_image (const gh_clahe_geom *g, int limit, gh_threads *pool,
                     gh_clahe_space **space, void *pixels, size_t stride,
                     gh_status (*check) (void *, gh_error *),
                     void *check_arg, uint32_t *hist, size_t *done,
                     size_t *counted, gh_error *error)
{
  size_t tiles = (size_t) g->tiles_x * g->tiles_y;
  image_run r;
  gh_status st;

  memset (&r, 0, sizeof r);
  r.g = g;
  r.pool = pool;
  r.pixels = (uint8_t *) pixels;
  r.stride = stride;
  r.pitch = (size_t) g->width * (size_t) g->layout;
  r.limit = limit;
  r.scale = (float) (g->bins - 1) / (float) (g->tile_w * g->tile_h);
  r.direct = gh_cuda_page_locked (r.pixels)
             && gh_cuda_page_locked (r.pixels
                                     + (size_t) (g->height - 1) * stride
                                     + r.pitch - 1);
  st = image_passes (&r, space, check, check_arg, error);
  if (st != GH_OK && r.direct)
    settle (&r);
  *done = r.done;
  *counted = 0;
  if (st == GH_OK)
    return GH_OK;
  /* What the CPU needs: the counts of the tile rows that the rows written
   * read; the streams stopped before the buffers go. */
  for (int k = 0; k < g->channels && r.valid > 0; k++)
    memcpy (hist + k * tiles * 256, r.s->h_hist + k * tiles * 256,
            (size_t) r.valid * g->tiles_x * 256 * sizeof *hist);
  *counted = (size_t) r.valid * g->tile_h < (size_t) g->height
               ? (size_t) r.valid * g->tile_h
               : (size_t) g->height;
  gh_clahe_space_free (*space);
  *space = NULL;
  return st;
}

