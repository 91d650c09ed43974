/* SPDX-License-Identifier: GPL-3.0-or-later */
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
 * banks form as many sections of COPIES banks.  The channels fill blocks
 * of G (G groups): channel k's table lives in section k % G of block
 * k / G, word ((k / G) * 256 + b) * 32 + (k % G) * COPIES + c, so in the
 * j-th add of a block group g adds channel j ^ g, which lies in section j
 * ^ g: a different section for every group, in every add.  The R = NCH %
 * G channels left over, where R divides G, share the last block instead
 * of padding it: section s holds the s % R-th of them (each has G / R
 * tables, so more copies), and in their h-th add group g adds the one of
 * section g ^ h, so R adds a pixel cover them (GIMP's six channels with
 * 8 copies: 6 adds, not 8).  Otherwise (raw RGB with 8 copies) the block
 * is padded with tables that only ever add 0.  Either way the channels
 * take a multiple of G tables (GIMP's six: 96 KB with 16 copies, 64 KB
 * with 8).  Each add picks its lane's channel with selects, or, in a
 * block of 4, with one byte permutation of the 4 bins a pixel.
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
 * channels times COPIES KB), and GIMP 3's luminance table (LIN,
 * kernel_lin.cuh: a copy a lane, 32 KB; 16 KB beside 8 copies).  A launch
 * handles < 2^32 pixels.
 */
#ifndef GH_KERNEL_SHARED_ATOMIC_CUH
#define GH_KERNEL_SHARED_ATOMIC_CUH

#include "kernel_common.cuh"
#include "kernel_policy.h" /* GH_*_THREADS */

/* Channels with their padding: a multiple of the groups when SECTIONS. */
template <int NCH, int COPIES, bool SECTIONS>
__host__ __device__ constexpr int
gh_padded_channels ()
{
  return SECTIONS ? (NCH + 32 / COPIES - 1) / (32 / COPIES) * (32 / COPIES)
                  : NCH;
}

/* Copies of GIMP 3's luminance table (kernel_lin.cuh): one a lane, 16
 * beside 8 copies of the counts (64 KB in all for RGBA, the Turing cap). */
template <int COPIES>
__host__ __device__ constexpr int
gh_sa_lin_slots ()
{
  return COPIES == 8 ? 16 : 32;
}

template <int BPP, bool RAW, bool LIN, int COPIES, bool SECTIONS>
__host__ __device__ constexpr size_t
gh_shared_atomic_smem ()
{
  return (size_t) COPIES
           * gh_padded_channels<gh_channels<BPP, RAW>::count, COPIES,
                                SECTIONS> ()
           * 256 * 4
         + (LIN ? gh_lin_smem<gh_sa_lin_slots<COPIES> ()> () : 0);
}

/* Word of bin b of channel k, copy 0, in either layout; in sections, k
 * may be a channel's further table (below). */
template <int COPIES, bool SECTIONS>
__host__ __device__ constexpr int
gh_copies_word (int k, int b)
{
  return SECTIONS ? ((k / (32 / COPIES)) * 256 + b) * 32
                      + (k % (32 / COPIES)) * COPIES
                  : (k * 256 + b) * COPIES;
}

/* How NCH channels fill blocks of G sections (G = 1: the plain layout).
 * `blocks` are added slot by slot (the last one padded when the channels
 * left over do not divide G); the `rest` channels after them share the
 * last block, channel k's t-th table at gh_copies_word (k + t * rest). */
template <int NCH, int G> struct gh_sections
{
  static constexpr bool spread = NCH % G && G % (NCH % G) == 0;
  static constexpr int rest = spread ? NCH % G : 0;
  static constexpr int blocks = spread ? NCH / G : (NCH + G - 1) / G;
  static __host__ __device__ constexpr int tables (int k)
  {
    return rest && k >= blocks * G ? G / rest : 1;
  }
};

/* Sums each bin's copies (of every table) into the global result and
 * clears them; thread i starts at copy i, so neighbouring threads read
 * different banks. */
template <class CH, int COPIES, bool SECTIONS>
__device__ __forceinline__ void
gh_copies_flush (uint32_t *hist, gh_u64 *out)
{
  typedef gh_sections<CH::count, SECTIONS ? 32 / COPIES : 1> sec;
  for (int i = threadIdx.x; i < CH::count * 256; i += GH_SA_THREADS)
    {
      const int k = i >> 8;
      gh_u64 s = 0;
      for (int t = 0; t < sec::tables (k); t++)
        {
          uint32_t *row
            = hist + gh_copies_word<COPIES, SECTIONS> (k + t * sec::rest,
                                                       i & 255);
#pragma unroll 8
          for (int c = 0; c < COPIES; c++)
            {
              int l = (c + i) & (COPIES - 1);
              s += row[l];
              row[l] = 0;
            }
        }
      if (s)
        atomicAdd (&out[(size_t) CH::slot (k) * 256 + (i & 255)], s);
    }
}

/* Bin and weight of channel k0 + x (x < n, known only at run time) by
 * selects; channels from NCH on are padding: bin 0, weight 0. */
template <int NCH, class PIXEL>
__device__ __forceinline__ void
gh_copies_pick (const PIXEL &px, int k0, int n, unsigned x, unsigned &b,
                unsigned &w)
{
  b = k0 < NCH ? px.bin[k0] : 0u;
  w = k0 < NCH ? px.weight (k0) : 0u;
#pragma unroll
  for (int i = 1; i < n; i++)
    if (x == (unsigned) i)
      {
        b = k0 + i < NCH ? px.bin[k0 + i] : 0u;
        w = k0 + i < NCH ? px.weight (k0 + i) : 0u;
      }
}

/* One pixel's adds.  Plain layout: channel k at `mine[0]`.  Sections:
 * the j-th add of a block is channel j ^ g, at this lane's base for
 * section j ^ g (mine[j]); the h-th add of the rest is the channel of
 * section g ^ h (mine[h]).  A whole block of 4 packs its bins as bytes
 * and permutes them for this lane with one PRMT (`perm`: output byte j
 * is channel j ^ g, numbered 0, 1, 4, 5 in the two words the bins are
 * packed in), then takes byte j for the j-th add: 7 instructions a block
 * where selects took 12 and the registers of their chains.  Weights are
 * still picked by selects, which fold where a block's are all one. */
template <int COPIES, bool SECTIONS, class PIXEL>
__device__ __forceinline__ void
gh_copies_add (const PIXEL &px, const uint32_t (&mine)[32 / COPIES],
               unsigned g)
{
  constexpr int NCH = sizeof px.bin / sizeof px.bin[0];
  constexpr int G = SECTIONS ? 32 / COPIES : 1;
  typedef gh_sections<NCH, G> sec;
  const unsigned perm
    = 0x5410u ^ (((g & 1u) | ((g & 2u) << 1)) * 0x1111u);
#pragma unroll
  for (int k0 = 0; k0 < sec::blocks * G; k0 += G)
    {
      const bool whole4 = G == 4 && k0 + G <= NCH;
      unsigned packed = 0;
      if (whole4)
        packed = __byte_perm (
          __byte_perm (px.bin[k0], px.bin[(k0 + 1) % NCH], 0x0040u),
          __byte_perm (px.bin[(k0 + 2) % NCH], px.bin[(k0 + 3) % NCH],
                       0x0040u),
          perm);
#pragma unroll
      for (int j = 0; j < G; j++)
        {
          unsigned b, w;
          gh_copies_pick<NCH> (px, k0, G, j ^ g, b, w);
          if (whole4)
            b = __byte_perm (packed, 0u, 0x4440u | j);
          gh_shared_add (
            mine[j] + gh_copies_word<COPIES, SECTIONS> (k0, b) * 4, w);
        }
    }
#pragma unroll
  for (int h = 0; h < sec::rest; h++)
    {
      unsigned b, w;
      gh_copies_pick<NCH> (px, sec::blocks * G, sec::rest,
                           (g ^ h) & (sec::rest - 1u), b, w);
      gh_shared_add (mine[h]
                       + gh_copies_word<COPIES, SECTIONS> (sec::blocks * G, b)
                           * 4,
                     w);
    }
}

/* Where this lane adds channel k's bin b (as gh_copies_add places it),
 * by selects: for the rare moves of GIMP 3's luminance (gh_lin_correct). */
template <int NCH, int COPIES, bool SECTIONS>
__device__ __forceinline__ uint32_t
gh_copies_at (const uint32_t (&mine)[32 / COPIES], unsigned g, int k,
              unsigned b)
{
  constexpr int G = SECTIONS ? 32 / COPIES : 1;
  typedef gh_sections<NCH, G> sec;
  const bool rest = k >= sec::blocks * G;
  const int k0 = rest ? sec::blocks * G : k / G * G;
  const unsigned j = rest ? (g ^ (unsigned) (k - k0)) & (sec::rest - 1u)
                          : (unsigned) (k - k0) ^ g;
  uint32_t at = mine[0];
#pragma unroll
  for (int i = 1; i < 32 / COPIES; i++)
    if (j == (unsigned) i)
      at = mine[i];
  return at + gh_copies_word<COPIES, SECTIONS> (k0, b) * 4;
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
  constexpr int LSLOTS = LIN ? gh_sa_lin_slots<COPIES> () : 0;
  extern __shared__ __align__ (16) uint32_t hist[];
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
  const gh_lin_table<LSLOTS> lin
    = gh_lin_load<LSLOTS> (hist + WORDS, (threadIdx.x & 31) * LSLOTS / 32);
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
          uint32_t near = 0; /* LIN: pixels gh_lin_correct takes */
#pragma unroll
          for (int i = 0; i < GH_GROUP; i++)
            {
              pixel px;
              gh_group_pixel<LIN> (grp, i, px, lin);
              gh_copies_add<COPIES, SECTIONS> (px, mine, lane_group);
              if (px.near)
                near |= 1u << i;
            }
          if constexpr (LIN)
            if (near)
              gh_lin_correct<pixel> (
                grp, near, lin, [&] (const pixel &px, unsigned e) {
                  const unsigned w = px.weight (4);
                  gh_shared_add (gh_copies_at<NCH, COPIES, SECTIONS> (
                                   mine, lane_group, 4, px.bin[4]),
                                 0u - w);
                  gh_shared_add (gh_copies_at<NCH, COPIES, SECTIONS> (
                                   mine, lane_group, 4, e),
                                 w);
                });
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
