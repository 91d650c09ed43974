/* kernel_shared_atomic.cuh — per-block histograms in shared memory, updated
 * with shared-memory atomics, in lane-private sub-histograms.
 *
 * Bin b of channel k for lane l sits at word (k * 256 + b) * 32 + l: a
 * lane's counters are all in bank l, so no atomic instruction ever has a
 * bank conflict or two lanes on one address, whatever the image (uniform,
 * all-equal, weighted); lanes of different warps share a counter through
 * the atomics.  Each pixel adds its weight (1, or alpha x mask in the
 * result's units) straight to its bins, zero weights too (a test per
 * channel costs more issue slots than adding 0): there is no separate slow
 * path for weighted images.  The kernel is bound by instruction issue, so
 * the adds are `red` reductions at 32-bit shared addresses computed once,
 * and loads are spread over the warp (gh_group::load).  When weights could overflow the 32-bit counters the
 * block adds them to the global result and clears them (with alpha and a
 * mask every 129 steps, when one lane's 32 threads have added 66048
 * pixels; never within a launch otherwise); at the end each
 * bin's 32 lanes are summed (lane-rotated, conflict-free) and added with one
 * 64-bit atomic per non-empty bin.
 *
 * 1024 threads; shared memory NCH * 32 KB (192 KB for GIMP's six
 * channels).  A launch handles < 2^32 pixels.
 */
#ifndef GH_KERNEL_SHARED_ATOMIC_CUH
#define GH_KERNEL_SHARED_ATOMIC_CUH

#include "kernel_common.cuh"

#define GH_SA_THREADS 1024

template <int BPP, bool MASK, bool RAW>
__host__ __device__ constexpr size_t
gh_shared_atomic_smem ()
{
  return (size_t) 32 * gh_channels<BPP, RAW>::count * 256 * 4;
}

/* Sums each bin's 32 lanes into the global result and clears them; each
 * thread starts at a different lane so the rows are read without bank
 * conflicts. */
template <class CH>
__device__ __forceinline__ void
gh_lane_flush (uint32_t *hist, gh_u64 *out)
{
  for (int i = threadIdx.x; i < CH::count * 256; i += GH_SA_THREADS)
    {
      uint32_t *row = hist + i * 32;
      gh_u64 s = 0;
#pragma unroll 8
      for (int c = 0; c < 32; c++)
        {
          int l = (c + i) & 31;
          s += row[l];
          row[l] = 0;
        }
      if (s)
        atomicAdd (&out[(size_t) CH::slot (i >> 8) * 256 + (i & 255)], s);
    }
}

template <int BPP, bool MASK, bool RAW>
__global__ void __launch_bounds__ (GH_SA_THREADS)
gh_kernel_shared_atomic (const uint8_t *__restrict__ pix,
                         const uint8_t *__restrict__ mask, size_t n,
                         gh_u64 *sums)
{
  typedef gh_channels<BPP, RAW> ch;
  typedef gh_pixel_bins<BPP, MASK, RAW> pixel;
  constexpr int NCH = ch::count;
  /* A counter is shared by one lane of each warp: 32 threads, not 1024. */
  constexpr int FLUSH = gh_flush_steps (pixel::full_colour, GH_SA_THREADS / 32);
  extern __shared__ __align__ (16) uint32_t hist[];
  const uint32_t mine = gh_shared_address (hist + (threadIdx.x & 31));
  const size_t groups = n / GH_GROUP;
  const size_t step = (size_t) gridDim.x * GH_SA_THREADS;
  int steps = 0;

  for (int i = threadIdx.x; i < 32 * NCH * 256; i += GH_SA_THREADS)
    hist[i] = 0;
  __syncthreads ();

  /* `base` is the same for the whole block, so the flushes' barriers are
   * reached by every thread. */
  for (size_t base = (size_t) blockIdx.x * GH_SA_THREADS; base < groups;
       base += step)
    {
      const size_t g = base + threadIdx.x;
      if (g < groups)
        {
          gh_group<BPP, MASK> grp;
          grp.load (pix, mask, g,
                    g - (threadIdx.x & 31) + 32 <= groups);
#pragma unroll
          for (int i = 0; i < GH_GROUP; i++)
            {
              pixel px;
              gh_group_pixel (grp, i, px);
#pragma unroll
              for (int k = 0; k < NCH; k++)
                gh_shared_add (mine + (k * 256 + px.bin[k]) * 128,
                               px.weight (k));
            }
        }
      if (pixel::weighted && ++steps == FLUSH)
        {
          steps = 0;
          __syncthreads ();
          gh_lane_flush<ch> (hist, sums);
          __syncthreads ();
        }
    }
  /* The last n % 16 pixels: one per thread of the last block. */
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x < n % GH_GROUP)
    {
      size_t i = groups * GH_GROUP + threadIdx.x;
      pixel px;
      px.compute (pix + i * BPP, MASK ? mask[i] : 255u);
#pragma unroll
      for (int k = 0; k < NCH; k++)
        gh_shared_add (mine + (k * 256 + px.bin[k]) * 128, px.weight (k));
    }
  __syncthreads ();
  gh_lane_flush<ch> (hist, sums);
}

#endif
