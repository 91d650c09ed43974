/* kernel_shared_atomic.cuh — per-block histograms in shared memory, updated
 * with shared-memory atomics.
 *
 * Each warp adds into one of COPIES block-private copies (fewer warps per
 * address, less contention); `+1` atomics compile to ATOMS.POPC.INC, which
 * the hardware aggregates when lanes hit the same bin, so degenerate images
 * stay fast.  At the end the copies are summed and added to the global
 * result with one 64-bit atomic per non-empty bin.
 *
 * Shared memory: COPIES * NCH * 256 * 4 bytes of counts, plus NCH * 256 * 8
 * bytes of deficits for weighted input.  A launch handles < 2^32 pixels.
 */
#ifndef GH_KERNEL_SHARED_ATOMIC_CUH
#define GH_KERNEL_SHARED_ATOMIC_CUH

#include "kernel_common.cuh"

#define GH_SA_THREADS 256
#define GH_SA_COPIES 4

template <int BPP, bool MASK, bool RAW>
__host__ __device__ constexpr size_t
gh_shared_atomic_smem ()
{
  return (size_t) GH_SA_COPIES * gh_channels<BPP, RAW>::count * 256 * 4
         + (RAW ? 0 : (size_t) gh_channels<BPP, RAW>::count * 256 * 8);
}

template <int BPP, bool MASK, bool RAW>
__global__ void __launch_bounds__ (GH_SA_THREADS)
gh_kernel_shared_atomic (const uint8_t *__restrict__ pix,
                         const uint8_t *__restrict__ mask, size_t n,
                         gh_u64 *count, gh_u64 *deficit)
{
  typedef gh_channels<BPP, RAW> ch;
  constexpr int NCH = ch::count;
  extern __shared__ __align__ (16) unsigned char smem[];
  gh_u64 *sdef = reinterpret_cast<gh_u64 *> (smem);
  uint32_t *hist = reinterpret_cast<uint32_t *> (
    smem + (RAW ? 0 : NCH * 256 * sizeof (gh_u64)));
  uint32_t *mine = hist + (threadIdx.x / 32 % GH_SA_COPIES) * NCH * 256;
  const size_t groups = n / GH_GROUP;

  for (int i = threadIdx.x; i < GH_SA_COPIES * NCH * 256; i += blockDim.x)
    hist[i] = 0;
  if (!RAW)
    for (int i = threadIdx.x; i < NCH * 256; i += blockDim.x)
      sdef[i] = 0;
  __syncthreads ();

  for (size_t g = (size_t) blockIdx.x * blockDim.x + threadIdx.x; g < groups;
       g += (size_t) gridDim.x * blockDim.x)
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
            px.add_deficits (sdef);
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
  for (int i = threadIdx.x; i < NCH * 256; i += blockDim.x)
    {
      uint32_t s = 0;
#pragma unroll
      for (int c = 0; c < GH_SA_COPIES; c++)
        s += hist[c * NCH * 256 + i];
      hist[i] = s;
    }
  __syncthreads ();
  gh_block_flush<ch> (hist, sdef, !RAW, count, deficit);
}

#endif
