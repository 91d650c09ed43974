/* kernel_shared_atomic.cuh — per-block histograms in shared memory, updated
 * with shared-memory atomics.
 *
 * Each warp adds into its own block-private copy (no contention between
 * warps); `+1` atomics compile to ATOMS.POPC.INC, which
 * the hardware aggregates when lanes hit the same bin, so degenerate images
 * stay fast.  At the end the copies are summed and added to the global
 * result with one 64-bit atomic per non-empty bin.
 *
 * Weighted pixels add their deficits to 32-bit sums with shared atomics;
 * the block empties those into the global result every GH_SA_FLUSH_STEPS
 * steps when any thread added one (opaque input never does).
 *
 * Shared memory: (warps + 1) * NCH * 256 * 4 bytes.  A launch handles
 * < 2^32 pixels.
 */
#ifndef GH_KERNEL_SHARED_ATOMIC_CUH
#define GH_KERNEL_SHARED_ATOMIC_CUH

#include "kernel_common.cuh"

#define GH_SA_THREADS 256
#define GH_SA_COPIES (GH_SA_THREADS / 32) /* one per warp */
/* Steps between deficit flushes: 256 threads x 16 pixels x 16 steps is
 * GH_DEFICIT_PIXELS. */
#define GH_SA_FLUSH_STEPS 16

template <int BPP, bool MASK, bool RAW>
__host__ __device__ constexpr size_t
gh_shared_atomic_smem ()
{
  return (size_t) (GH_SA_COPIES + (RAW ? 0 : 1)) * gh_channels<BPP, RAW>::count
         * 256 * 4;
}

template <int BPP, bool MASK, bool RAW>
__global__ void __launch_bounds__ (GH_SA_THREADS)
gh_kernel_shared_atomic (const uint8_t *__restrict__ pix,
                         const uint8_t *__restrict__ mask, size_t n,
                         gh_u64 *count, gh_u64 *deficit)
{
  typedef gh_channels<BPP, RAW> ch;
  constexpr int NCH = ch::count;
  extern __shared__ __align__ (16) uint32_t smem[];
  uint32_t *hist = smem;
  uint32_t *sdef = smem + GH_SA_COPIES * NCH * 256; /* unused when RAW */
  uint32_t *mine = hist + (threadIdx.x / 32) * NCH * 256;
  const size_t groups = n / GH_GROUP;
  const size_t step = (size_t) gridDim.x * GH_SA_THREADS;
  int steps = 0;
  bool dirty = false; /* this thread added deficits since the last flush */

  for (int i = threadIdx.x; i < (GH_SA_COPIES + !RAW) * NCH * 256;
       i += GH_SA_THREADS)
    smem[i] = 0;
  __syncthreads ();

  /* `base` is the same for the whole block, so the flushes' barriers are
   * reached by every thread. */
  for (size_t base = (size_t) blockIdx.x * GH_SA_THREADS; base < groups;
       base += step)
    {
      size_t g = base + threadIdx.x;
      if (g < groups)
        {
          gh_group<BPP, MASK> grp;
          grp.load (pix, mask, g);
#pragma unroll
          for (int i = 0; i < GH_GROUP; i++)
            {
              gh_pixel_bins<BPP, MASK, RAW> px;
              gh_group_pixel (grp, i, px);
#pragma unroll
              for (int k = 0; k < NCH; k++)
                atomicAdd (&mine[k * 256 + px.bin[k]], 1u);
              if (!RAW && px.weighted ())
                {
                  px.add_deficits (sdef);
                  dirty = true;
                }
            }
        }
      if (!RAW && ++steps == GH_SA_FLUSH_STEPS)
        {
          steps = 0;
          if (__syncthreads_or (dirty))
            {
              gh_block_flush<ch> (sdef, deficit);
              __syncthreads ();
            }
          dirty = false;
        }
    }
  /* The last n % 16 pixels: one per thread of the last block. */
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x < n % GH_GROUP)
    {
      size_t i = groups * GH_GROUP + threadIdx.x;
      gh_pixel_bins<BPP, MASK, RAW> px;
      px.compute (pix + i * BPP, MASK ? mask[i] : 255u);
#pragma unroll
      for (int k = 0; k < NCH; k++)
        atomicAdd (&mine[k * 256 + px.bin[k]], 1u);
      if (!RAW && px.weighted ())
        px.add_deficits (sdef);
    }
  __syncthreads ();

  /* Fold the copies into the first. */
  for (int i = threadIdx.x; i < NCH * 256; i += GH_SA_THREADS)
    {
      uint32_t s = 0;
#pragma unroll
      for (int c = 0; c < GH_SA_COPIES; c++)
        s += hist[c * NCH * 256 + i];
      hist[i] = s;
    }
  __syncthreads ();
  gh_block_flush<ch> (hist, count);
  if (!RAW)
    gh_block_flush<ch> (sdef, deficit);
}

#endif
