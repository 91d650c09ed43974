/* SPDX-License-Identifier: GPL-3.0-or-later */
/* photo_clahe.cu — CLAHE of a photo on the device (photo_clahe.h). */
#include "photo_clahe.h"

#include "clahe.h"
#include "clahe_launch.h"
#include "fail.h"
#include "pixel.h"

#include <stdlib.h>

struct gh_photo_clahe_space
{
  uint32_t *hist;  /* channels x tiles x 256 counts */
  uint8_t *lut;    /* their mappings */
  size_t counters;
  uint8_t *plane;  /* the luminance mode's levels, a byte a pixel */
  size_t plane_size;
};

void
gh_photo_clahe_space_free (gh_photo_clahe_space *s)
{
  if (!s)
    return;
  cudaFree (s->hist);
  cudaFree (s->lut);
  cudaFree (s->plane);
  free (s);
}

static int
blocks_for (size_t n)
{
  size_t b = (n + 255) / 256;
  return b > 1056 ? 1056 : b < 1 ? 1 : (int) b;
}

/* Each pixel's perceptual luminance level (the engine's binning). */
__global__ void
luminance_levels (const uint8_t *px, size_t n, uint8_t *level)
{
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x)
    level[i] = (uint8_t) gh_luminance_bin (px[3 * i], px[3 * i + 1],
                                           px[3 * i + 2]);
}

/* Each colour moved to its mapped level: colour.c's perceptual
 * gh_op_move_luminance_u8 (gh_luminance_shift, white 255), each double
 * operation rounded as the host rounds it (no fused multiply-adds). */
__global__ void
move_to_levels (uint8_t *px, size_t n, const uint8_t *level)
{
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x)
    {
      uint8_t *q = px + 3 * i;
      double c[3] = { (double) q[0], (double) q[1], (double) q[2] };
      double target = (double) level[i], top = 0;
      double lum = __dadd_rn (__dadd_rn (__dmul_rn (c[0], 0.22248840),
                                         __dmul_rn (c[1], 0.71690369)),
                              __dmul_rn (c[2], 0.06060791));
      for (int k = 0; k < 3; k++)
        {
          c[k] = lum > 0 ? __dmul_rn (c[k], __ddiv_rn (target, lum)) : target;
          top = top > c[k] ? top : c[k];
        }
      if (top > 255.0)
        for (int k = 0; k < 3; k++)
          c[k] = __dadd_rn (target,
                            __dmul_rn (__ddiv_rn (__dsub_rn (255.0, target),
                                                  __dsub_rn (top, target)),
                                       __dsub_rn (c[k], target)));
      for (int k = 0; k < 3; k++)
        {
          double v = floor (__dadd_rn (c[k], 0.5));
          q[k] = (uint8_t) (v > 0.0 ? (v < 255.0 ? v : 255.0) : 0.0);
        }
    }
}

/* The space's buffers for `counters` tile counts and a plane of `plane`
 * bytes. */
static gh_status
room (gh_photo_clahe_space **sp, size_t counters, size_t plane,
      gh_error *error)
{
  gh_photo_clahe_space *s = *sp;

  if (!s && !(s = *sp = (gh_photo_clahe_space *) calloc (1, sizeof *s)))
    return gh_fail (error, GH_ERR_NOMEM, "out of memory for CLAHE");
  if (counters > s->counters)
    {
      cudaFree (s->hist);
      cudaFree (s->lut);
      s->hist = NULL;
      s->lut = NULL;
      s->counters = 0;
      TRY (cudaMalloc (&s->hist, counters * sizeof *s->hist));
      TRY (cudaMalloc (&s->lut, counters));
      s->counters = counters;
    }
  if (plane > s->plane_size)
    {
      cudaFree (s->plane);
      s->plane = NULL;
      s->plane_size = 0;
      /* The count reads whole aligned 16-byte words. */
      TRY (cudaMalloc (&s->plane, (plane + 15) & ~(size_t) 15));
      s->plane_size = plane;
    }
  return GH_OK;
}

gh_status
gh_photo_clahe_run (const gh_clahe_params *params, uint8_t *pixels, int width,
                    int height, int channels, gh_photo_clahe_space **space,
                    cudaStream_t stream, gh_error *error)
{
  int luminance = channels == 3 && params->mode == GH_EQUALIZE_LUMINANCE;
  size_t n = (size_t) width * (size_t) height;
  gh_clahe *c;
  const gh_clahe_geom *g;
  uint8_t *plane;
  cudaError_t e;
  gh_status st;

  /* The geometry and clip count of the plane mapped: the image's own, or
   * its luminance levels' as a gray image of its size. */
  if ((st = gh_clahe_begin (NULL, params,
                            channels == 3 && !luminance ? GH_LAYOUT_RGB
                                                        : GH_LAYOUT_GRAY,
                            GH_SAMPLE_U8, GH_LUMINANCE_PERCEPTUAL, 256,
                            (size_t) width, (size_t) height, &c, error))
      != GH_OK)
    return st;
  g = &c->g;
  st = room (space, (size_t) g->channels * g->tiles_x * g->tiles_y * 256,
             luminance ? n : 0, error);
  plane = luminance && st == GH_OK ? (*space)->plane : pixels;
  if (st == GH_OK && luminance)
    {
      luminance_levels<<<blocks_for (n), 256, 0, stream>>> (pixels, n,
                                                            plane);
      if ((e = cudaGetLastError ()) != cudaSuccess)
        st = gh_clahe_cuda_fail (error, "the luminance levels", e);
    }
  if (st == GH_OK
      && (e = cudaMemsetAsync ((*space)->hist, 0,
                               (*space)->counters * sizeof *(*space)->hist,
                               stream)) != cudaSuccess)
    st = gh_clahe_cuda_fail (error, "the tile counts", e);
  if (st == GH_OK)
    st = gh_clahe_launch_count (g, plane, (size_t) width * g->layout, 0,
                                g->height, 0, g->padded_h, (*space)->hist,
                                stream, error);
  if (st == GH_OK)
    st = gh_clahe_launch_luts (g, 0, g->tiles_y, gh_clahe_clip_count (c),
                               (float) (g->bins - 1)
                                 / (float) (g->tile_w * g->tile_h),
                               (*space)->hist, (*space)->lut, stream, error);
  if (st == GH_OK)
    st = gh_clahe_launch_map (g, plane, (size_t) width * g->layout, 0, 0,
                              (size_t) width, (size_t) height,
                              (*space)->lut, stream, error);
  if (st == GH_OK && luminance)
    {
      move_to_levels<<<blocks_for (n), 256, 0, stream>>> (pixels, n, plane);
      if ((e = cudaGetLastError ()) != cudaSuccess)
        st = gh_clahe_cuda_fail (error, "the colours moved", e);
    }
  gh_clahe_destroy (c);
  return st;
}
