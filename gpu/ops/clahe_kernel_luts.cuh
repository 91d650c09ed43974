/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clahe_kernel_luts.cuh — CLAHE's mappings kernel for whole images
 * (lut_kernel), included by its launch, clahe_launch.cu, alone: a block
 * per tile, its clipping and redistribution as clahe_map.c's, the
 * cumulative sum a scan, with the same float operations. */
#ifndef GH_CLAHE_KERNEL_LUTS_CUH
#define GH_CLAHE_KERNEL_LUTS_CUH

#include "clahe.h"

#include <stdint.h>

/* Tile rows ty0.. (grid y) of channel blockIdx.z, tile column blockIdx.x:
 * the clipped counts' mapping, as clahe_map.c's build_mappings. */
__global__ void
lut_kernel (gh_clahe_geom g, int ty0, int limit, float scale,
            const uint32_t *hist, uint8_t *lut)
{
  __shared__ int s[2][256];
  __shared__ int clipped;
  int v = threadIdx.x, ty = ty0 + blockIdx.y, k = blockIdx.z;
  size_t at = ((size_t) k * g.tiles_x * g.tiles_y
               + (size_t) ty * g.tiles_x + blockIdx.x) * 256;
  int h = (int) hist[at + v], src = 0;

  if (limit > 0)
    {
      int over = h > limit ? h - limit : 0, batch, residual;
      if (v == 0)
        clipped = 0;
      __syncthreads ();
      atomicAdd (&clipped, over);
      __syncthreads ();
      batch = clipped / 256;
      residual = clipped - batch * 256;
      h += batch - over;
      /* The residual one by one at 0, step, 2 step, ... */
      if (residual)
        {
          int step = 256 / residual > 1 ? 256 / residual : 1;
          if (v % step == 0 && v / step < residual)
            h++;
        }
    }
  s[0][v] = h;
  __syncthreads ();
  for (int d = 1; d < 256; d *= 2)
    {
      s[1 - src][v] = s[src][v] + (v >= d ? s[src][v - d] : 0);
      src = 1 - src;
      __syncthreads ();
    }
  {
    int r = __float2int_rn (__fmul_rn (__int2float_rn (s[src][v]), scale));
    lut[at + v] = (uint8_t) (r < 0 ? 0 : r > 255 ? 255 : r);
  }
}

#endif
