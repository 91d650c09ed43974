/* kernel_shared_atomic.cuh — per-block histograms in shared memory, updated
 * with shared-memory atomics, in two layouts (the LANE parameter):
 *
 * - per warp (LANE false, 256 threads): each warp adds into its own copy of
 *   the block's histograms.  `+1` atomics compile to ATOMS.POPC.INC, which
 *   the hardware aggregates when lanes hit the same bin, so degenerate
 *   images are fast; but lanes hitting different bins of one bank (uniform
 *   input) take several passes.
 * - lane-private (LANE true, 1024 threads): bin b of channel k for lane l
 *   sits at word (k * 256 + b) * 32 + l, so a lane's counters are all in
 *   bank l and no atomic instruction ever conflicts, whatever the input;
 *   lanes of different warps share a counter through the atomics.
 *
 * At the end each bin's copies are summed (lane-rotated, conflict-free) and
 * added to the global result with one 64-bit atomic per non-empty bin.
 * Weighted pixels add their deficits to 32-bit sums (variable increments:
 * lanes hitting one bin serialize, the weighted path's known limit); the
 * block empties the sums into the global result before they could
 * overflow, and only when any thread added one (opaque input never does).
 *
 * Shared memory: (copies + 1) * NCH * 256 * 4 bytes (copies: warps, or 32
 * lanes; 198 KB for GIMP's six channels lane-private).  A launch handles
 * < 2^32 pixels.
 */
#ifndef GH_KERNEL_SHARED_ATOMIC_CUH
#define GH_KERNEL_SHARED_ATOMIC_CUH

#include "kernel_common.cuh"

template <bool LANE> struct gh_sa_policy
{
  static constexpr int threads = LANE ? 1024 : 256;
  static constexpr int copies = LANE ? 32 : threads / 32;
  /* Steps between deficit flushes: threads x 16 pixels x steps pixels. */
  static constexpr int flush_steps = GH_DEFICIT_PIXELS / (threads * GH_GROUP);

  /* Word of bin b of channel k in copy c (nch channels). */
  static __device__ __forceinline__ int at (int nch, int k, int b, int c)
  {
    return LANE ? (k * 256 + b) * 32 + c : (c * nch + k) * 256 + b;
  }
};

template <int BPP, bool MASK, bool RAW, bool LANE>
__host__ __device__ constexpr size_t
gh_shared_atomic_smem ()
{
  return (size_t) (gh_sa_policy<LANE>::copies + (RAW ? 0 : 1))
         * gh_channels<BPP, RAW>::count * 256 * 4;
}

template <int BPP, bool MASK, bool RAW, bool LANE>
__global__ void __launch_bounds__ (gh_sa_policy<LANE>::threads)
gh_kernel_shared_atomic (const uint8_t *__restrict__ pix,
                         const uint8_t *__restrict__ mask, size_t n,
                         gh_u64 *count, gh_u64 *deficit)
{
  typedef gh_channels<BPP, RAW> ch;
  typedef gh_sa_policy<LANE> policy;
  constexpr int NCH = ch::count;
  constexpr int THREADS = policy::threads;
  extern __shared__ __align__ (16) uint32_t smem[];
  uint32_t *hist = smem;
  uint32_t *sdef = smem + policy::copies * NCH * 256; /* unused when RAW */
  const int copy = LANE ? threadIdx.x & 31 : threadIdx.x / 32;
  const size_t groups = n / GH_GROUP;
  const size_t step = (size_t) gridDim.x * THREADS;
  int steps = 0;
  bool dirty = false; /* this thread added deficits since the last flush */

  for (int i = threadIdx.x; i < (policy::copies + !RAW) * NCH * 256;
       i += THREADS)
    smem[i] = 0;
  __syncthreads ();

  /* `base` is the same for the whole block, so the flushes' barriers are
   * reached by every thread. */
  for (size_t base = (size_t) blockIdx.x * THREADS; base < groups;
       base += step)
    {
      const size_t g = base + threadIdx.x;
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
                atomicAdd (&hist[policy::at (NCH, k, px.bin[k], copy)], 1u);
              if (!RAW && px.weighted ())
                {
                  px.add_deficits (sdef);
                  dirty = true;
                }
            }
        }
      if (!RAW && ++steps == policy::flush_steps)
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
        atomicAdd (&hist[policy::at (NCH, k, px.bin[k], copy)], 1u);
      if (!RAW && px.weighted ())
        px.add_deficits (sdef);
    }
  __syncthreads ();

  /* Sum each bin's copies, starting at a different copy in each thread so
   * the lane-private rows are read without bank conflicts. */
  for (int i = threadIdx.x; i < NCH * 256; i += THREADS)
    {
      uint32_t s = 0;
#pragma unroll 8
      for (int c = 0; c < policy::copies; c++)
        s += hist[policy::at (NCH, i >> 8, i & 255,
                              (c + i) % policy::copies)];
      if (s)
        atomicAdd (&count[(size_t) ch::slot (i >> 8) * 256 + (i & 255)],
                   (gh_u64) s);
    }
  if (!RAW)
    gh_block_flush<ch> (sdef, deficit);
}

#endif
