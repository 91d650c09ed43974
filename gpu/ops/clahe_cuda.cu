/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clahe_cuda.cu — CLAHE's GPU passes over strips (clahe_cuda.h): the
 * tile histograms of a strip, counted on the device and brought back, and
 * the interpolation of a rectangle with mappings the host made, through
 * clahe_launch.cu's kernels. */
#include "clahe_cuda.h"
#include "clahe_launch.h"
#include "fail.h"

#include <cuda_runtime.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct gh_clahe_cuda {
  gh_clahe_geom g;
  cudaStream_t stream;
  uint32_t *d_hist;     /* channels x tiles x 256 */
  uint32_t *h_hist;     /* the touched part, back on the host */
  uint8_t *d_pixels, *h_stage;
  size_t pixels_cap;
  uint8_t *d_lut;
};


void
gh_clahe_cuda_destroy (gh_clahe_cuda *c)
{
  if (!c)
    return;
  cudaFree (c->d_hist);
  cudaFree (c->d_pixels);
  cudaFree (c->d_lut);
  if (c->stream)
    cudaStreamDestroy (c->stream);
  free (c->h_hist);
  free (c->h_stage);
  free (c);
}

static gh_status
create (const gh_clahe_geom *g, gh_clahe_cuda *c, int counting,
        gh_error *error)
{
  size_t counters = (size_t) g->channels * g->tiles_x * g->tiles_y * 256;

  TRY (cudaSetDevice (0));
  TRY (cudaStreamCreateWithFlags (&c->stream, cudaStreamNonBlocking));
  if (!counting)
    return GH_OK;
  if (!(c->h_hist = (uint32_t *) malloc (counters * sizeof *c->h_hist)))
    return gh_fail (error, GH_ERR_NOMEM, "out of memory for CLAHE's tiles");
  TRY (cudaMalloc (&c->d_hist, counters * sizeof *c->d_hist));
  return GH_OK;
}

gh_status
gh_clahe_cuda_create (const gh_clahe_geom *g, gh_clahe_cuda **out,
                      gh_error *error)
{
  gh_clahe_cuda *c = (gh_clahe_cuda *) calloc (1, sizeof *c);
  gh_status st;

  *out = NULL;
  if (!c)
    return gh_fail (error, GH_ERR_NOMEM, "out of memory for CLAHE");
  c->g = *g;
  c->g.src_col = c->g.src_row = NULL;
  if ((st = create (g, c, g->src_col != NULL, error)) != GH_OK)
    {
      gh_clahe_cuda_destroy (c);
      return st;
    }
  *out = c;
  return GH_OK;
}

/* Room for `bytes` of pixels on both sides. */
static gh_status
pixel_room (gh_clahe_cuda *c, size_t bytes, gh_error *error)
{
  if (bytes <= c->pixels_cap)
    return GH_OK;
  cudaFree (c->d_pixels);
  c->d_pixels = NULL;
  free (c->h_stage);
  c->pixels_cap = 0;
  if (!(c->h_stage = (uint8_t *) malloc (bytes)))
    return gh_fail (error, GH_ERR_NOMEM, "out of memory for a strip");
  /* The count reads whole aligned 16-byte words. */
  TRY (cudaMalloc (&c->d_pixels, (bytes + 15) & ~(size_t) 15));
  c->pixels_cap = bytes;
  return GH_OK;
}

gh_status
gh_clahe_cuda_count (gh_clahe_cuda *c, const void *pixels, size_t y0,
                     size_t rows, size_t stride, uint32_t *hist,
                     gh_error *error)
{
  const gh_clahe_geom *g = &c->g;
  size_t pitch = (size_t) g->width * (size_t) g->layout;
  size_t tiles = (size_t) g->tiles_x * g->tiles_y, first, count;
  int lo = (int) y0, hi = (int) (y0 + rows);
  int ty_lo = lo / g->tile_h, ty_hi = (hi - 1) / g->tile_h;
  gh_status st;

  /* The padding rows reflecting into the strip lie below it. */
  for (int py = g->height; py < g->padded_h; py++)
    {
      int y = gh_reflect101 (py, g->height);
      if (y >= lo && y < hi && py / g->tile_h > ty_hi)
        ty_hi = py / g->tile_h;
    }
  if ((st = pixel_room (c, pitch * rows, error)) != GH_OK)
    return st;
  TRY (cudaSetDevice (0));
  first = (size_t) ty_lo * g->tiles_x * 256;
  count = (size_t) (ty_hi - ty_lo + 1) * g->tiles_x * 256;
  for (int k = 0; k < g->channels; k++)
    TRY (cudaMemsetAsync (c->d_hist + k * tiles * 256 + first, 0,
                          count * sizeof (uint32_t), c->stream));
  TRY (cudaMemcpy2DAsync (c->d_pixels, pitch, pixels, stride, pitch, rows,
                          cudaMemcpyHostToDevice, c->stream));
  if ((st = gh_clahe_launch_count (g, c->d_pixels, pitch, lo, hi, lo, hi, c->d_hist,
                          c->stream, error))
        != GH_OK
      || (st = gh_clahe_launch_count (g, c->d_pixels, pitch, lo, hi, g->height,
                             g->padded_h, c->d_hist, c->stream, error))
           != GH_OK)
    return st;
  for (int k = 0; k < g->channels; k++)
    TRY (cudaMemcpyAsync (c->h_hist + k * count, c->d_hist + k * tiles * 256
                                                    + first,
                          count * sizeof (uint32_t), cudaMemcpyDeviceToHost,
                          c->stream));
  TRY (cudaStreamSynchronize (c->stream));
  for (int k = 0; k < g->channels; k++)
    for (size_t i = 0; i < count; i++)
      hist[k * tiles * 256 + first + i] += c->h_hist[k * count + i];
  return GH_OK;
}

gh_status
gh_clahe_cuda_set_luts (gh_clahe_cuda *c, const uint8_t *luts,
                        gh_error *error)
{
  const gh_clahe_geom *g = &c->g;
  size_t lut_bytes = (size_t) g->channels * g->tiles_x * g->tiles_y * 256;

  TRY (cudaSetDevice (0));
  TRY (cudaMalloc (&c->d_lut, lut_bytes));
  /* On the maps' own stream: cudaMemcpy from pageable memory returns once
   * the bytes are staged, and the legacy stream it queues on does not
   * order this non-blocking stream's kernels after it (a map read the
   * mappings before they landed when the GPU was shared). */
  TRY (cudaMemcpyAsync (c->d_lut, luts, lut_bytes, cudaMemcpyHostToDevice,
                        c->stream));
  return GH_OK;
}

gh_status
gh_clahe_cuda_map (gh_clahe_cuda *c, void *pixels, size_t x0, size_t y0,
                   size_t width, size_t height, size_t stride,
                   gh_error *error)
{
  const gh_clahe_geom *g = &c->g;
  size_t pitch = width * (size_t) g->layout;
  gh_status st;

  if ((st = pixel_room (c, pitch * height, error)) != GH_OK)
    return st;
  TRY (cudaSetDevice (0));
  TRY (cudaMemcpy2DAsync (c->d_pixels, pitch, pixels, stride, pitch, height,
                          cudaMemcpyHostToDevice, c->stream));
  if ((st = gh_clahe_launch_map (g, c->d_pixels, pitch, x0, y0, width, height,
                        c->d_lut, c->stream, error))
      != GH_OK)
    return st;
  TRY (cudaMemcpyAsync (c->h_stage, c->d_pixels, pitch * height,
                        cudaMemcpyDeviceToHost, c->stream));
  TRY (cudaStreamSynchronize (c->stream));
  for (size_t j = 0; j < height; j++)
    memcpy ((uint8_t *) pixels + j * stride, c->h_stage + j * pitch, pitch);
  return GH_OK;
}
