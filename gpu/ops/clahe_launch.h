/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clahe_launch.h — CLAHE's GPU kernels' launches (clahe_launch.cu; the
 * kernels are clahe_kernel_*.cuh, included there alone), internal to the
 * engine's two GPU paths: clahe_cuda.cu (strips) and
 * clahe_cuda_image.cu (whole images).  Each launch is asynchronous on
 * `stream`, over device memory, and checked:
 *
 *   gh_clahe_launch_count (&g, d_pixels, pitch, lo, hi, ya, yb, d_hist,
 *                          stream, &err)
 *       adds padded rows ya..yb-1 (their sources among rows lo..hi-1 of
 *       d_pixels) to the tile counts d_hist (channels x tiles x 256);
 *   gh_clahe_launch_luts (&g, ty0, rows, limit, scale, d_hist, d_lut,
 *                         stream, &err)
 *       the mappings of tile rows ty0..ty0+rows-1 (clip count `limit`, as
 *       clahe_map.c's), into d_lut (the same layout, a byte a level);
 *   gh_clahe_launch_map (&g, d_pixels, pitch, x0, y0, w, h, d_lut, stream,
 *                        &err)
 *       interpolates a rectangle of each channel (or gray) in place.
 *
 * TRY (call) returns gh_clahe_cuda_fail's message (the call and CUDA's
 * words) from a function with `error` in scope when the call fails.
 */
#ifndef GH_CLAHE_LAUNCH_H
#define GH_CLAHE_LAUNCH_H

#include "clahe.h"

#include <cuda_runtime.h>

gh_status gh_clahe_cuda_fail (gh_error *error, const char *what,
                              cudaError_t e);

#define TRY(call)                                                            \
  do                                                                         \
    {                                                                        \
      cudaError_t e_ = (call);                                               \
      if (e_ != cudaSuccess)                                                 \
        return gh_clahe_cuda_fail (error, #call, e_);                        \
    }                                                                        \
  while (0)

gh_status gh_clahe_launch_count (const gh_clahe_geom *g,
                                 const uint8_t *pixels, size_t pitch, int lo,
                                 int hi, int ya, int yb, uint32_t *hist,
                                 cudaStream_t stream, gh_error *error);
gh_status gh_clahe_launch_luts (const gh_clahe_geom *g, int ty0, int rows,
                                int limit, float scale, const uint32_t *hist,
                                uint8_t *lut, cudaStream_t stream,
                                gh_error *error);
gh_status gh_clahe_launch_map (const gh_clahe_geom *g, uint8_t *pixels,
                               size_t pitch, size_t x0, size_t y0,
                               size_t width, size_t height,
                               const uint8_t *lut, cudaStream_t stream,
                               gh_error *error);

#endif
