/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernel_global.cuh — the last resort: every pixel's weights added straight
 * to the 64-bit result in global memory, with no shared memory at all, so
 * it launches on any device whatever the block may hold.  The launch
 * policy (cuda_launch.cu) takes it only when no shared-memory kernel can
 * launch; it is exact like the others and far slower on images with few
 * distinct levels, whose atomics meet at the same addresses in L2.  Zero
 * weights are skipped: here an atomic costs more than the test.
 *
 * 256 threads, each a group of 16 pixels per step.  GIMP 3's luminance
 * (LIN) takes babl's float path for every pixel (gh_lin_exact: the sRGB
 * decode table from global memory, through L1).
 */
#ifndef GH_KERNEL_GLOBAL_CUH
#define GH_KERNEL_GLOBAL_CUH

#include "kernel_common.cuh"
#include "kernel_policy.h" /* GH_*_THREADS */

template <int BPP, bool MASK, bool RAW, bool LIN>
__device__ __forceinline__ void
gh_global_add (const gh_pixel_bins<BPP, MASK, RAW, LIN> &px, gh_u64 *sums)
{
  typedef gh_channels<BPP, RAW> ch;
#pragma unroll
  for (int k = 0; k < ch::count; k++)
    if (px.weight (k))
      atomicAdd (&sums[(size_t) ch::slot (k) * 256 + px.bin[k]],
                 (gh_u64) px.weight (k));
}

template <int BPP, bool MASK, bool RAW, bool LIN>
__global__ void __launch_bounds__ (GH_GL_THREADS)
gh_kernel_global (const uint8_t *__restrict__ pix,
                  const uint8_t *__restrict__ mask, size_t n, gh_u64 *sums)
{
  typedef gh_pixel_bins<BPP, MASK, RAW, LIN> pixel;
  const size_t groups = n / GH_GROUP;
  const size_t step = (size_t) gridDim.x * GH_GL_THREADS;

  for (size_t g = (size_t) blockIdx.x * GH_GL_THREADS + threadIdx.x;
       g < groups; g += step)
    {
      gh_group<BPP, MASK> grp;
      grp.load (pix, mask, g, false);
#pragma unroll
      for (int i = 0; i < GH_GROUP; i++)
        {
          pixel px;
          gh_group_pixel (grp, i, px, gh_lin_table<0> ());
          gh_global_add (px, sums);
        }
    }
  /* The last n % 16 pixels: one per thread of the last block. */
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x < n % GH_GROUP)
    {
      size_t i = groups * GH_GROUP + threadIdx.x;
      pixel px;
      px.compute (pix + i * BPP, MASK ? mask[i] : 255u, gh_lin_table<0> ());
      gh_global_add (px, sums);
    }
}

#endif
