/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernel_packed.cuh — per-thread privatized histograms with packed 8-bit
 * counters (four per 32-bit word), as in "Histograms: privatized for fast,
 * level performance".
 *
 * Every thread owns its own counters, so the inner loop has no atomics and
 * no contention whatever the image.  Layout: word (k*64 + bin/4) of thread
 * t sits at [(k*64 + bin/4) * THREADS + t], so a warp's 32 lanes always
 * touch 32 different banks.  A thread adds at most 16 * ROUND = 240 < 256
 * pixels between merges, so no counter overflows; a merge sums the 64
 * threads' words column by column (lane-rotated, again conflict-free) into
 * 32-bit block totals and clears them.  Packed counters count pixels of
 * full weight only; pixels of partial weight (alpha or mask below 255) add
 * their weight to 32-bit shared sums instead, emptied into the global
 * result at every merge.  At the end the totals, times a full weight, go
 * to the global result too.
 *
 * Shared memory: NCH * 64 * THREADS * 4 bytes of counters (96 KB for
 * RGBA), NCH * 256 * 4 bytes of totals and as many of partial sums, and
 * one copy of GIMP 3's luminance table (LIN, kernel_lin.cuh: 1 KB; a
 * block of two warps would pay 32 KB for a copy a lane).  A launch
 * handles < 2^32 pixels.
 */
#ifndef GH_KERNEL_PACKED_CUH
#define GH_KERNEL_PACKED_CUH

#include "kernel_common.cuh"
#include "kernel_policy.h" /* GH_*_THREADS */

#define GH_PK_ROUND 15 /* groups per thread between merges: 15*16 < 256 */

template <int BPP, bool MASK, bool RAW, bool LIN>
__host__ __device__ constexpr size_t
gh_packed_smem ()
{
  return (size_t) gh_channels<BPP, RAW>::count
           * (64 * GH_PK_THREADS * 4 + 256 * 4
              + (gh_pixel_bins<BPP, MASK, RAW, LIN>::weighted ? 256 * 4 : 0))
         + (LIN ? gh_lin_smem<1> () : 0);
}

/* Sums every thread's counters into the block totals and clears them.
 * Thread t owns word rows t, t + 64, ...: each row holds four bins of one
 * channel for all threads. */
template <int NCH>
__device__ __forceinline__ void
gh_packed_merge (uint32_t *priv, uint32_t *totals)
{
  for (int row = threadIdx.x; row < NCH * 64; row += GH_PK_THREADS)
    {
      uint32_t sum02 = 0, sum13 = 0;
      uint32_t *words = priv + row * GH_PK_THREADS;
#pragma unroll 8
      for (int j = 0; j < GH_PK_THREADS; j++)
        {
          int col = (j + threadIdx.x) & (GH_PK_THREADS - 1);
          uint32_t v = words[col];
          words[col] = 0;
          sum02 += v & 0x00ff00ffu;
          sum13 += (v >> 8) & 0x00ff00ffu;
        }
      /* 64 * 255 < 2^16: the halves never carry into each other. */
      totals[row * 4 + 0] += sum02 & 0xffffu;
      totals[row * 4 + 1] += sum13 & 0xffffu;
      totals[row * 4 + 2] += sum02 >> 16;
      totals[row * 4 + 3] += sum13 >> 16;
    }
}

/* One pixel: full weights into the packed counters, partial ones (and
 * only those) into the shared sums. */
template <int BPP, bool MASK, bool RAW, bool LIN>
__device__ __forceinline__ void
gh_packed_add (const gh_pixel_bins<BPP, MASK, RAW, LIN> &px, uint32_t *priv,
               uint32_t *partial)
{
  typedef gh_pixel_bins<BPP, MASK, RAW, LIN> pixel;
#pragma unroll
  for (int k = 0; k < gh_channels<BPP, RAW>::count; k++)
    {
      unsigned b = px.bin[k];
      if (!pixel::weighted || px.weight (k) == pixel::full (k))
        priv[(k * 64 + (b >> 2)) * GH_PK_THREADS + threadIdx.x]
          += 1u << (8 * (b & 3));
      else if (px.weight (k))
        atomicAdd (&partial[k * 256 + b], px.weight (k));
    }
}

template <int BPP, bool MASK, bool RAW, bool LIN>
__global__ void __launch_bounds__ (GH_PK_THREADS)
gh_kernel_packed (const uint8_t *__restrict__ pix,
                  const uint8_t *__restrict__ mask, size_t n, gh_u64 *sums)
{
  typedef gh_channels<BPP, RAW> ch;
  typedef gh_pixel_bins<BPP, MASK, RAW, LIN> pixel;
  constexpr int NCH = ch::count;
  extern __shared__ __align__ (16) uint32_t smem[];
  uint32_t *totals = smem;
  uint32_t *partial = totals + NCH * 256; /* unused when unweighted */
  uint32_t *priv = partial + (pixel::weighted ? NCH * 256 : 0);
  const size_t groups = n / GH_GROUP;
  const size_t step = (size_t) gridDim.x * GH_PK_THREADS;
  int since_merge = 0;

  for (int i = threadIdx.x; i < NCH * 64 * GH_PK_THREADS; i += GH_PK_THREADS)
    priv[i] = 0;
  for (int i = threadIdx.x; i < NCH * 256; i += GH_PK_THREADS)
    {
      totals[i] = 0;
      if (pixel::weighted)
        partial[i] = 0;
    }
  const gh_lin_table<LIN ? 1 : 0> lin
    = gh_lin_load<LIN ? 1 : 0> (priv + NCH * 64 * GH_PK_THREADS, 0);
  __syncthreads ();

  /* `base` is the same for the whole block, so the merges' barriers are
   * reached by every thread. */
  for (size_t base = (size_t) blockIdx.x * GH_PK_THREADS; base < groups;
       base += step)
    {
      size_t g = base + threadIdx.x;
      if (g < groups)
        {
          gh_group<BPP, MASK> grp;
          /* Each thread's own 16 pixels: spreading the loads over the
           * warp measured slower here (0.20 of the read ceiling against
           * 0.27, BENCHMARKS.md). */
          grp.load (pix, mask, g, false);
#pragma unroll
          for (int i = 0; i < GH_GROUP; i++)
            {
              pixel px;
              gh_group_pixel (grp, i, px, lin);
              gh_packed_add (px, priv, partial);
            }
        }
      if (++since_merge == GH_PK_ROUND)
        {
          __syncthreads ();
          gh_packed_merge<NCH> (priv, totals);
          /* 15 steps of 64 x 16 pixels of weight below 2^16 fit in 32 bits */
          if (pixel::weighted)
            gh_block_flush<ch> (partial, sums);
          __syncthreads ();
          since_merge = 0;
        }
    }
  __syncthreads ();
  gh_packed_merge<NCH> (priv, totals);
  __syncthreads ();

  /* The last n % 16 pixels, straight into the totals. */
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x < n % GH_GROUP)
    {
      size_t i = groups * GH_GROUP + threadIdx.x;
      pixel px;
      px.compute (pix + i * BPP, MASK ? mask[i] : 255u, lin);
#pragma unroll
      for (int k = 0; k < NCH; k++)
        if (!pixel::weighted || px.weight (k) == pixel::full (k))
          atomicAdd (&totals[k * 256 + px.bin[k]], 1u);
        else if (px.weight (k))
          atomicAdd (&partial[k * 256 + px.bin[k]], px.weight (k));
    }
  __syncthreads ();
  for (int i = threadIdx.x; i < NCH * 256; i += GH_PK_THREADS)
    {
      gh_u64 s = (gh_u64) totals[i] * pixel::full (i >> 8)
                 + (pixel::weighted ? partial[i] : 0u);
      if (s)
        atomicAdd (&sums[(size_t) ch::slot (i >> 8) * 256 + (i & 255)], s);
    }
}

#endif
