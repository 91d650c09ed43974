/* kernel_shared_atomic.cuh — per-block histograms in shared memory, updated
 * with shared-memory atomics, in lane copies.
 *
 * COPIES (32, 16 or 8) copies of every channel's 256 counters; lane l of
 * every warp counts into copy l % COPIES.  Bin b of channel k in copy c
 * sits at word (k * 256 + b) * COPIES + c.  With 32 copies a lane's
 * counters are all in bank l, so no atomic instruction ever has a bank
 * conflict or two lanes on one address, whatever the image (uniform,
 * all-equal, weighted).  Fewer copies take less shared memory (COPIES KB
 * per channel: GIMP's six channels 192, 96 or 48 KB), for devices that
 * allow a block less than Hopper's 227 KB: then the 32 / COPIES lanes of a
 * warp that share a copy are the only ones that can meet in a bank (lanes
 * l and l + COPIES, ...), at most 32 / COPIES ways, and only when their
 * bins are congruent modulo 32 / COPIES; lanes of other copies never do.
 * Lanes of different warps share a counter through the atomics.
 *
 * SECTIONS: the same number of copies with no bank ever shared.  The 32 /
 * COPIES lanes that share a copy form groups (g = lane / COPIES), and the
 * banks form as many sections of COPIES banks; channel k's tables live in
 * section k % G (G groups), so in the j-th add of a pixel group g adds
 * channel j ^ g, which lies in section (j % G) ^ g: a different section
 * for every group, in every add.  Word ((k / G) * 256 + b) * 32 +
 * (k % G) * COPIES + c.  The channels are padded to a multiple of G with
 * tables that only ever add 0 (GIMP's six channels: 96 KB with 16 copies,
 * 64 KB with 8); each add picks its lane's channel with G - 1 selects.
 *
 * Each pixel adds its weight (1, or alpha x mask in the result's units)
 * straight to its bins, zero weights too (a test per channel costs more
 * issue slots than adding 0): there is no separate slow path for weighted
 * images.  The kernel is bound by instruction issue, so the adds are
 * `red` reductions at 32-bit shared addresses computed once, and loads
 * are spread over the warp (gh_group::load).  When weights could overflow
 * the 32-bit counters the block adds them to the global result and clears
 * them (with alpha, a mask and 32 copies every 129 steps, when one copy's
 * 32 threads have added 66048 pixels; never within a launch without
 * weights); at the end each bin's copies are summed (rotated over the
 * copies, so a warp's reads spread over the banks) and added with one
 * 64-bit atomic per non-empty bin.
 *
 * 1024 threads; shared memory NCH * COPIES KB (sections: the padded
 * channels times COPIES KB), and the sRGB decode table for GIMP 3's
 * luminance (LIN).  A launch handles < 2^32 pixels.
 */
#ifndef GH_KERNEL_SHARED_ATOMIC_CUH
#define GH_KERNEL_SHARED_ATOMIC_CUH

#include "kernel_common.cuh"

#define GH_SA_THREADS 1024

/* Channels with their padding: a multiple of the groups when SECTIONS. */
template <int NCH, int COPIES, bool SECTIONS>
__host__ __device__ constexpr int
gh_padded_channels ()
{
  return SECTIONS ? (NCH + 32 / COPIES - 1) / (32 / COPIES) * (32 / COPIES)
                  : NCH;
}

template <int BPP, bool RAW, bool LIN, int COPIES, bool SECTIONS>
__host__ __device__ constexpr size_t
gh_shared_atomic_smem ()
{
  return (size_t) COPIES
           * gh_padded_channels<gh_channels<BPP, RAW>::count, COPIES,
                                SECTIONS> ()
           * 256 * 4
         + (LIN ? GH_LIN_SMEM : 0);
}

/* Word of bin b of channel k, copy 0, in either layout. */
template <int COPIES, bool SECTIONS>
__host__ __device__ constexpr int
gh_copies_word (int k, int b)
{
  return SECTIONS ? ((k / (32 / COPIES)) * 256 + b) * 32
                      + (k % (32 / COPIES)) * COPIES
                  : (k * 256 + b) * COPIES;
}

/* Sums each bin's copies into the global result and clears them; thread
 * i starts at copy i, so neighbouring threads read different banks. */
template <class CH, int COPIES, bool SECTIONS>
__device__ __forceinline__ void
gh_copies_flush (uint32_t *hist, gh_u64 *out)
{
  for (int i = threadIdx.x; i < CH::count * 256; i += GH_SA_THREADS)
    {
      uint32_t *row
        = hist + gh_copies_word<COPIES, SECTIONS> (i >> 8, i & 255);
      gh_u64 s = 0;
#pragma unroll 8
      for (int c = 0; c < COPIES; c++)
        {
          int l = (c + i) & (COPIES - 1);
          s += row[l];
          row[l] = 0;
        }
      if (s)
        atomicAdd (&out[(size_t) CH::slot (i >> 8) * 256 + (i & 255)], s);
    }
}

/* One pixel's adds.  Plain layout: channel k at `mine[0]`.  Sections: the
 * j-th add is channel j ^ g, at this lane's base for section (j % G) ^ g
 * (mine[j % G]). */
template <int COPIES, bool SECTIONS, class PIXEL>
__device__ __forceinline__ void
gh_copies_add (const PIXEL &px, const uint32_t (&mine)[32 / COPIES],
               unsigned g)
{
  constexpr int NCH = sizeof px.bin / sizeof px.bin[0];
  constexpr int G = SECTIONS ? 32 / COPIES : 1;
  constexpr int SLOTS = gh_padded_channels<NCH, COPIES, SECTIONS> ();
#pragma unroll
  for (int j = 0; j < SLOTS; j++)
    {
      unsigned b = j < NCH ? px.bin[j] : 0u;
      unsigned w = j < NCH ? px.weight (j) : 0u;
#pragma unroll
      for (int x = 1; x < G; x++)
        if (g == (unsigned) x)
          {
            b = (j ^ x) < NCH ? px.bin[j ^ x] : 0u;
            w = (j ^ x) < NCH ? px.weight (j ^ x) : 0u;
          }
      gh_shared_add (mine[j % G]
                       + gh_copies_word<COPIES, SECTIONS> (j - j % G, b) * 4,
                     w);
    }
}

template <int BPP, bool MASK, bool RAW, bool LIN, int COPIES, bool SECTIONS>
__global__ void __launch_bounds__ (GH_SA_THREADS)
gh_kernel_shared_atomic (const uint8_t *__restrict__ pix,
                         const uint8_t *__restrict__ mask, size_t n,
                         gh_u64 *sums)
{
  static_assert (COPIES == 32 || COPIES == 16 || COPIES == 8,
                 "a power of two that divides a warp");
  static_assert (!SECTIONS || COPIES < 32, "32 copies share no bank");
  typedef gh_channels<BPP, RAW> ch;
  typedef gh_pixel_bins<BPP, MASK, RAW, LIN> pixel;
  constexpr int NCH = ch::count;
  constexpr int G = SECTIONS ? 32 / COPIES : 1;
  constexpr int WORDS = gh_padded_channels<NCH, COPIES, SECTIONS> () * 256
                        * COPIES;
  /* A counter is shared by one lane in COPIES of each warp. */
  constexpr int FLUSH
    = gh_flush_steps (pixel::full_colour, GH_SA_THREADS / COPIES);
  extern __shared__ __align__ (16) uint32_t hist[];
  float *lin = reinterpret_cast<float *> (hist + WORDS);
  /* This lane's group among those sharing its copy. */
  const unsigned lane_group = SECTIONS ? (threadIdx.x & 31) / COPIES : 0;
  uint32_t mine[32 / COPIES];
#pragma unroll
  for (int r = 0; r < G; r++)
    mine[r] = gh_shared_address (hist + (threadIdx.x & (COPIES - 1))
                                 + ((unsigned) r ^ lane_group) * COPIES);
  const size_t groups = n / GH_GROUP;
  const size_t step = (size_t) gridDim.x * GH_SA_THREADS;
  int steps = 0;

  for (int i = threadIdx.x; i < WORDS; i += GH_SA_THREADS)
    hist[i] = 0;
  gh_lin_load<LIN> (lin);
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
              gh_group_pixel (grp, i, px, lin);
              gh_copies_add<COPIES, SECTIONS> (px, mine, lane_group);
            }
        }
      if (pixel::weighted && ++steps == FLUSH)
        {
          steps = 0;
          __syncthreads ();
          gh_copies_flush<ch, COPIES, SECTIONS> (hist, sums);
          __syncthreads ();
        }
    }
  /* The last n % 16 pixels: one per thread of the last block. */
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x < n % GH_GROUP)
    {
      size_t i = groups * GH_GROUP + threadIdx.x;
      pixel px;
      px.compute (pix + i * BPP, MASK ? mask[i] : 255u, lin);
      gh_copies_add<COPIES, SECTIONS> (px, mine, lane_group);
    }
  __syncthreads ();
  gh_copies_flush<ch, COPIES, SECTIONS> (hist, sums);
}

#endif
