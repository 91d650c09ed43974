/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernel_counts.cuh — per-block histograms of 16-bit pixel counts, two
 * channels to a 32-bit word, in lane copies, for devices that allow a
 * block less shared memory than the 32-copy shared-atomic kernel needs.
 *
 * A pixel of full weight (opaque, and inside the mask: every pixel of
 * most layers) adds 1 to a 16-bit count per channel, where the
 * shared-atomic kernel adds its weight to a 32-bit sum: half the memory,
 * so 32 lane copies (lane l's counters all in bank l, no bank conflict on
 * any image) fit 80 KB for GIMP's six channels where 32-bit ones need
 * 192 KB.  Channels f = 2t and 2t + 1 share table t, in the low and high
 * halves of word (t * 256 + b) * COPIES + copy: the add's address is the
 * same as for a 32-bit counter and its value a constant (1 or 1 << 16),
 * so a full pixel costs no more instructions than in the shared-atomic
 * kernel.  An odd last channel (GIMP's luminance) has 32-bit counts in
 * 16 copies (lane l in copy l / 2, word b * 16 + copy), the same memory
 * as half a table of pairs: the two lanes that share a copy meet in a
 * bank, so its add takes two shared-memory passes, which cost less than
 * the three instructions a pixel that halving its bins would take (the
 * kernel is bound by instruction issue, not by the passes).  Alpha is not
 * counted per pixel: a full pixel's alpha bin is 255, so the block counts
 * its full pixels in a register and adds them at the end; GIMP's six
 * channels take five adds a pixel, not six (80 KB of counts).  With 16
 * copies (48 KB) the two lanes of a warp that share a copy (neighbours,
 * 2c and 2c + 1) meet in a bank on about half the adds of two different
 * bins, as in shared-atomic/16 (two shared-memory passes).
 *
 * SECTIONS (16 copies, two pair tables: GIMP's RGB and RGBA, raw RGBA): the
 * same memory with no bank shared by a pair's two lanes in a pair table's
 * add.  Table t lives in bank section t (banks 16t .. 16t + 15), word
 * b * 32 + 16t + copy, and the odd lane of a pair (g = lane & 1) adds
 * the other table's channel in each add (f ^ 2 where the even lane adds
 * f, the same half of the word): four selects a pixel buy one pass for
 * four of its five adds on any image, as shared-atomic/16s does for its
 * six (the odd table keeps its two passes on differing bins).
 *
 * Pixels of partial weight (alpha or mask between 0 and full) add their
 * weights to 32-bit sums in PCOPIES copies (2: lane l in copy l % 2;
 * 1 in the tight form), all channels alpha included, zero weights
 * skipped.
 * A warp whose 32 groups of 16 pixels are all of full weight (tested on
 * the loaded words at once) takes the count path alone; any other warp
 * goes a quarter of its groups at a time (gh_counts_mixed): a quarter
 * whose pixels are all full in every lane takes the count path, any
 * other goes pixel by pixel.  With the spread loads a quarter of the
 * warp's groups is 128 contiguous pixels, so the partial pixels of a
 * soft edge (a layer's border ramp) slow down one quarter, not the
 * warp's whole 512 pixels.  So opaque images never touch the sums;
 * images of partial weight everywhere pay contended adds there (16 lanes
 * a copy): the dispatcher's probe has opaque alpha and a random mask, so
 * this kernel is chosen where layers are opaque and not where a mask
 * weighs every pixel (cuda_launch.cu).
 *
 * GIMP 3's luminance (LIN) comes from its table (kernel_lin.cuh; a copy a
 * lane, at the count copies' stride with 32 of them, so a level's lookup
 * and its count share one address register).  On the count path a
 * pixel takes the table's bin and a group's pixels near a bin's edge are
 * moved to their exact bin after the group (gh_lin_correct).
 * The luminance counts then have 32 copies beside 32 of the pairs, and
 * the tables rows of 256 bytes a bin (gh_count_wide), so that a bin's
 * address is one byte move from the pixel's word.  With 16 copies in
 * sections (RGBA), the table's 32 slots share the pair tables' rows of 256
 * bytes instead (gh_count_lin_rows), to the same end.  Where the 32 table
 * copies do not fit the budget, the tight form (GH_CT_TIGHT_SLOTS) takes
 * 16 of them in memory from the odd table (16-bit counts) and the
 * partial sums (1 copy).
 *
 * Counts are emptied into the global result (times a full weight) before
 * a 16-bit count could overflow: after 65535 / (16 x threads sharing a
 * copy) steps (127 with 32 copies, 63 with 16); the sums whenever
 * gh_flush_steps says so.  1024 threads; shared memory: counts
 * ((F / 2) * COPIES + (F % 2) * ODD) * 1 KB for F counted channels
 * (either layout; ODD 16, or 32 for LIN beside 32; in the tight form
 * the odd counts take half), sums NCH * 256 * PCOPIES * 4 bytes when
 * weights vary, and GIMP 3's luminance table (LIN: LSLOTS KB; with 32
 * copies in the odd table's rows, which then take 64 KB; with 16 in
 * the pair tables', the same 32 KB).  A launch handles < 2^32 pixels.
 */
#ifndef GH_KERNEL_COUNTS_CUH
#define GH_KERNEL_COUNTS_CUH

#include "kernel_policy.h" /* GH_*_THREADS */
#include "kernel_shared_atomic.cuh" /* gh_copies_word, gh_copies_flush */

/* GIMP 3's luminance table in 16 copies (LSLOTS, kernel_lin.cuh), the
 * form for a 16-copy kernel whose budget cannot hold its 32 (the 64 KB
 * cap): two lanes a copy, where the 4 copies that fit beside the usual
 * counts and sums left 8 lanes a copy meeting in banks (16.4 shared-memory
 * wavefronts per 32 pixels against 9.8, 0.57 of the read ceiling;
 * BENCHMARKS.md, 2026-11-27).  Its 16 KB come from the odd table (16-bit
 * counts, gh_odd_halves) and the partial sums (1 copy). */
#define GH_CT_TIGHT_SLOTS 16

/* Copies of the odd channel's counts: 16 (lanes 2c and 2c + 1 in copy
 * c); 32, one a lane, for GIMP 3's luminance beside 32 copies of the
 * pairs.  That kernel's adds and table lookups share the shared-memory
 * pipe, which bounds it: the odd channel's second pass on differing bins
 * cost 0.02 of the read ceiling, and its 16 KB more matter to no cap (the
 * table's 32 KB already keep it above 99 KB). */
template <bool LIN, int COPIES, int LSLOTS>
__host__ __device__ constexpr int
gh_odd_copies ()
{
  return LIN && COPIES == 32 && LSLOTS == 32 ? 32 : 16;
}

/* Whether the odd channel's counts are 16 bits, bins b and b + 128 in the
 * low and high halves of word b % 128 (beside the tight table): half the
 * memory with two lanes a copy, as in the other 16-copy forms, for 3.6
 * instructions a pixel more.  Bins 128 apart, not neighbours, so that lanes
 * whose pixels differ a little rarely meet at one word.  (32-bit counts in
 * 8 copies, four lanes a copy, the same memory, ran as fast on scattered
 * colours and up to 0.05 of the read ceiling faster on flat ones, but
 * have not been through compute-sanitizer: BENCHMARKS.md, 2026-11-27.) */
template <bool LIN, int LSLOTS>
__host__ __device__ constexpr bool
gh_odd_halves ()
{
  return LIN && LSLOTS == GH_CT_TIGHT_SLOTS;
}

/* What counting bin b of the odd channel adds to its word. */
template <bool OH>
__device__ __forceinline__ uint32_t
gh_odd_one (unsigned b)
{
  return OH && (b & 128) ? 1u << 16 : 1u;
}

/* Copies of the 32-bit sums of pixels of partial weight: 2 (lane l in
 * copy l % 2), 1 beside the tight table. */
template <bool LIN, int LSLOTS>
__host__ __device__ constexpr int
gh_partial_copies ()
{
  return LIN && LSLOTS == GH_CT_TIGHT_SLOTS ? 1 : 2;
}

/* Whether the rows are 256 bytes a bin (GIMP 3's luminance beside 32
 * copies, the only layout with ODD 32): bin b's row of the two pair
 * tables is words b * 64 + t * 32 + copy, and the odd channel's counts
 * share their rows with the luminance table (b * 64 + copy and
 * b * 64 + 32 + slot, after the pair tables).  A lane's address of a bin
 * is then the bin's byte with its copy's offset in the byte below, one
 * byte move (gh_counts_wide_at) where other layouts need a move and a
 * multiply-add; the row's tables lie at fixed offsets from it. */
template <int COPIES, int ODD>
__host__ __device__ constexpr bool
gh_count_wide ()
{
  return COPIES == 32 && ODD == 32;
}

/* Words from one bin's row of the odd table to the next. */
template <int COPIES, int ODD>
__host__ __device__ constexpr int
gh_odd_stride ()
{
  return gh_count_wide<COPIES, ODD> () ? 64 : ODD;
}

/* The channels counted per pixel: all but a GIMP alpha, which a full
 * pixel always puts in bin 255. */
template <int BPP, bool RAW>
__host__ __device__ constexpr int
gh_counted_channels ()
{
  return gh_channels<BPP, RAW>::count
         - (!RAW && gh_channels<BPP, RAW>::alpha ? 1 : 0);
}

/* Whether the bank-sections layout applies: two pair tables, 16 copies. */
template <int F, int COPIES, bool SECTIONS>
__host__ __device__ constexpr bool
gh_count_sections ()
{
  return SECTIONS && COPIES == 16 && F / 2 == 2;
}

/* Whether GIMP 3's luminance table lies in the pair tables' rows (RGBA
 * in 16 copies in bank sections, with the table's 32 copies): bin b's row
 * is 256 bytes, words b * 64 + 16s + copy of sections 0 and 1, then the
 * table's slots at b * 64 + 32 + slot, the same memory as the two apart.
 * Its address is then one byte move (PRMT) from the pixel's word and a
 * lane's offset in the row, as in the wide layout; a lane's selectors
 * choose which channel it takes in each add (gh_counts_rows_group), where
 * the sections took a select.  RGBA only: an RGB pixel's red and blue may
 * lie in different words, out of one PRMT's reach. */
template <int BPP, bool LIN, int F, int COPIES, bool SECTIONS, int LSLOTS>
__host__ __device__ constexpr bool
gh_count_lin_rows ()
{
  return LIN && BPP == 4 && LSLOTS == 32
         && gh_count_sections<F, COPIES, SECTIONS> ();
}

/* Words of the pair tables (LROWS: with the luminance table in their
 * rows). */
template <int F, int COPIES, bool LROWS>
__host__ __device__ constexpr int
gh_pair_words ()
{
  return LROWS ? 256 * 64 : F / 2 * 256 * COPIES;
}

/* Words of count tables: pairs of channels, then the odd one's table
 * (wide: with the luminance table in its rows; OH: in halves). */
template <int BPP, bool RAW, int COPIES, int ODD, bool OH = false,
          bool LROWS = false>
__host__ __device__ constexpr int
gh_count_words ()
{
  return gh_pair_words<gh_counted_channels<BPP, RAW> (), COPIES, LROWS> ()
         + gh_counted_channels<BPP, RAW> () % 2 * (OH ? 128 : 256)
             * gh_odd_stride<COPIES, ODD> ();
}

/* LSLOTS: the copies of GIMP 3's luminance table (kernel_lin.cuh). */
template <int BPP, bool MASK, bool RAW, bool LIN, int COPIES, int LSLOTS>
__host__ __device__ constexpr size_t
gh_counts_smem ()
{
  constexpr int ODD = gh_odd_copies<LIN, COPIES, LSLOTS> ();
  return (size_t) gh_count_words<BPP, RAW, COPIES, ODD,
                                 gh_odd_halves<LIN, LSLOTS> ()> ()
           * 4
         + (gh_pixel_bins<BPP, MASK, RAW, LIN>::weighted
              ? (size_t) gh_channels<BPP, RAW>::count * 256
                  * gh_partial_copies<LIN, LSLOTS> () * 4
              : 0)
         + (LIN && !gh_count_wide<COPIES, ODD> () ? gh_lin_smem<LSLOTS> ()
                                                  : 0);
}

/* Counted channel f's bin b: its word in copy 0 of its table, from the
 * table's start (sections: from its section's start, rows of 64 words
 * with LROWS); f < F / 2 * 2 is in a pair table (half f % 2), the odd
 * one (OH) in half b / 128. */
template <int F, int COPIES, bool SECTIONS, int ODD, bool OH = false,
          bool LROWS = false>
__host__ __device__ constexpr int
gh_count_word (int f, int b)
{
  return f >= F / 2 * 2 ? (OH ? b & 127 : b) * gh_odd_stride<COPIES, ODD> ()
         : gh_count_sections<F, COPIES, SECTIONS> () ? b * (LROWS ? 64 : 32)
         : gh_count_wide<COPIES, ODD> ()           ? b * 64 + (f / 2) * 32
                                                    : ((f / 2) * 256 + b) * COPIES;
}

/* Adds each count's copies, times its channel's full weight, to the
 * global result, and clears them.  Thread i takes row i (a pair table's
 * word for one bin: two counts, the low and high halves; or one bin of
 * the odd table; OH: its bins r and r + 128) and starts at copy i, so
 * neighbouring threads read different banks. */
template <class CH, class PIXEL, int F, int COPIES, bool SECTIONS, int ODD,
          bool OH = false, bool LROWS = false>
__device__ __forceinline__ void
gh_counts_flush (uint32_t *counts, gh_u64 *out)
{
  constexpr int PAIR_ROWS = F / 2 * 256;
  for (int r = threadIdx.x; r < PAIR_ROWS + F % 2 * (OH ? 128 : 256);
       r += GH_CT_THREADS)
    {
      const bool pair = r < PAIR_ROWS;
      const int copies = pair ? COPIES : ODD;
      uint32_t *row
        = pair ? counts
                   + (gh_count_sections<F, COPIES, SECTIONS> ()
                        ? (r & 255) * (LROWS ? 64 : 32) + (r >> 8) * 16
                      : gh_count_wide<COPIES, ODD> ()
                        ? (r & 255) * 64 + (r >> 8) * 32
                        : r * COPIES)
               : counts + gh_pair_words<F, COPIES, LROWS> ()
                   + (r - PAIR_ROWS) * gh_odd_stride<COPIES, ODD> ();
      const bool halves = pair || OH;
      uint32_t lo = 0, hi = 0; /* < 2^16 x COPIES; 32-bit odd ones in lo */
#pragma unroll 8
      for (int c = 0; c < copies; c++)
        {
          int l = (c + r) & (copies - 1);
          lo += halves ? row[l] & 0xffffu : row[l];
          hi += halves ? row[l] >> 16 : 0u;
          row[l] = 0;
        }
      /* The high half: a pair's second channel, or (OH) the odd one's
       * bin b + 128; without OH the odd table leaves hi 0. */
      const int f = pair ? 2 * (r >> 8) : F - 1, b = r & 255;
      const int fh = pair || !OH ? f + 1 : f;
      const int bh = pair || !OH ? b : b + 128;
      if (lo)
        atomicAdd (&out[(size_t) CH::slot (f) * 256 + b],
                   (gh_u64) lo * PIXEL::full (f));
      if (hi)
        atomicAdd (&out[(size_t) CH::slot (fh) * 256 + bh],
                   (gh_u64) hi * PIXEL::full (fh));
    }
}

/* A full pixel: one constant add per counted channel; `mine` and `odd`
 * are this lane's copy 0 of the pair tables and of the odd table.
 * Sections: mine[s] is its copy in section s ^ g, and the odd lane of a
 * pair (`swap`) adds channel f ^ 2 where the even one adds f. */
template <int F, int COPIES, bool SECTIONS, int ODD, bool OH = false,
          bool LROWS = false, class PIXEL>
__device__ __forceinline__ void
gh_counts_add (const PIXEL &px, const uint32_t (&mine)[2], uint32_t odd,
               bool swap)
{
  constexpr bool S = gh_count_sections<F, COPIES, SECTIONS> ();
#pragma unroll
  for (int f = 0; f < F; f++)
    if (f < F / 2 * 2)
      {
        const unsigned b = S && swap ? px.bin[f ^ 2] : px.bin[f];
        gh_shared_add (mine[S ? f / 2 : 0]
                         + gh_count_word<F, COPIES, SECTIONS, ODD, false,
                                         LROWS> (f, b)
                             * 4,
                       1u << (16 * (f & 1)));
      }
    else
      gh_shared_add (
        odd + gh_count_word<F, COPIES, SECTIONS, ODD, OH> (f, px.bin[f]) * 4,
        gh_odd_one<OH> (px.bin[f]));
}

/* Wide layout: this lane's address of the bin in byte j of a group, from
 * the count tables' start: the byte's value times 256 (a row), and the
 * lane's offset in it (lane4, 4 * lane < 256) as the byte below. */
template <int BPP, bool MASK>
__device__ __forceinline__ uint32_t
gh_counts_wide_at (const gh_group<BPP, MASK> &grp, int j, uint32_t lane4)
{
  return __byte_perm (grp.w[j >> 2], lane4, 0x5504 | ((j & 3) << 4));
}

/* Wide layout: a group of full pixels with GIMP 3's luminance from the
 * table (the counts kernel's count path); returns which pixels lay near a
 * bin's edge (bit i), for gh_lin_correct.  Each channel's row address
 * serves its count and its table lookup; the value's is the largest of the
 * three (their low bytes are equal), the luminance's the bin's byte of S
 * in the same form: no multiply-add a bin. */
template <int F, int BPP, bool MASK>
__device__ __forceinline__ uint32_t
gh_counts_wide_group (const gh_group<BPP, MASK> &grp, uint32_t tables,
                      uint32_t lane4)
{
  constexpr int C = 32, ODD = 32;
  static_assert (F == 5, "value, red, green, blue and the luminance");
  static_assert (gh_count_word<F, C, false, ODD> (3, 1) == 64 + 32
                   && gh_count_word<F, C, false, ODD> (4, 1) == 64,
                 "rows of 256 bytes, the odd table after the pairs'");
  constexpr uint32_t odd = (F / 2) * 256 * C * 4, lin = odd + 32 * 4;
  uint32_t near = 0;
#pragma unroll
  for (int i = 0; i < GH_GROUP; i++)
    {
      const uint32_t r = gh_counts_wide_at (grp, i * BPP, lane4),
                     g = gh_counts_wide_at (grp, i * BPP + 1, lane4),
                     b = gh_counts_wide_at (grp, i * BPP + 2, lane4);
      const uint32_t s = gh_lin_sum (gh_lin_entry_at (tables + lin + r),
                                     gh_lin_entry_at (tables + lin + g),
                                     gh_lin_entry_at (tables + lin + b));
      const uint32_t at[4] = { gh_max3 (r, g, b), r, g, b };
#pragma unroll
      for (int f = 0; f < 4; f++)
        gh_shared_add (tables + at[f]
                         + gh_count_word<F, C, false, ODD> (f, 0) * 4,
                       1u << (16 * (f & 1)));
      gh_shared_add (tables + odd + __byte_perm (s, lane4, 0x5534), 1u);
      if ((s & GH_LIN_NEAR) == 0)
        near |= 1u << i;
    }
  return near;
}

/* Luminance rows (gh_count_lin_rows): what a lane needs to address a
 * row, fixed for the kernel.  `at` holds its byte offsets in a row: its
 * copy's in section 0 (P0 = 4 * copy, byte 0) and in section 1 (P1 =
 * 64 + P0, byte 2).  Each add of a pixel is one PRMT of the pixel's word
 * (or of the value and green bytes, vg) with `at`, by this lane's
 * selector: in add k the even lane of a pair takes value, red, green,
 * blue and the odd one green, blue, value, red, so that the two are in
 * different sections every time (the odd lane's swap, chosen by the
 * selector).  Red's and blue's addresses (adds 1 and 3) also look the
 * table up (at + 128: slot copy or copy + 16, no two lanes in a bank),
 * each lane's with its channel's multiplier (m1, m3); green is looked up
 * at its own address in section (lane & 1) (sel_g). */
struct gh_rows_lane
{
  uint32_t at, sel[4], sel_g, m1, m3;

  static __device__ __forceinline__ gh_rows_lane make (unsigned lane)
  {
    const bool odd = lane & 1;
    /* [P0 or P1, byte 1 of vg, 0, 0]: vg holds the value in byte 1 and
     * green in byte 3; [P0, red] and [P1, blue] from the word. */
    constexpr uint32_t V = 0x5514, G = 0x5536, R = 0x5504, B = 0x5526;
    return { (lane >> 1) * 4 | ((lane >> 1) * 4 + 64) << 16,
             { odd ? G : V, odd ? B : R, odd ? V : G, odd ? R : B },
             odd ? 0x5516u : 0x5514u,
             odd ? GH_LIN_CB : GH_LIN_CR,
             odd ? GH_LIN_CR : GH_LIN_CB };
  }
};

/* Luminance rows: a group of full RGBA pixels with GIMP 3's luminance
 * from the table (the counts kernel's count path); returns which pixels
 * lay near a bin's edge (bit i), for gh_lin_correct.  `rows` is the
 * tables' start, `odd` this lane's copy 0 of the odd (luminance) table.
 * The value's row is the largest of the three channels' (the rows'
 * bytes; the offsets below them do not reach it), moved with green into
 * one word for adds 0 and 2: no multiply-add or select a bin. */
template <int F, int BPP, bool MASK>
__device__ __forceinline__ uint32_t
gh_counts_rows_group (const gh_group<BPP, MASK> &grp, uint32_t rows,
                      uint32_t odd, const gh_rows_lane &ln)
{
  static_assert (F == 5 && BPP == 4, "RGBA: value, red, green, blue and "
                                     "the luminance");
  static_assert (gh_count_word<F, 16, true, 16, false, true> (3, 1) == 64
                   && gh_count_word<F, 16, true, 16> (4, 1) == 16,
                 "rows of 256 bytes, the table after the sections");
  uint32_t near = 0;
#pragma unroll
  for (int i = 0; i < GH_GROUP; i++)
    {
      const uint32_t w = grp.w[i];
      const uint32_t x1 = __byte_perm (w, ln.at, ln.sel[1]),
                     x3 = __byte_perm (w, ln.at, ln.sel[3]),
                     xg = __byte_perm (w, ln.at, ln.sel_g);
      const uint32_t s = gh_lin_sum (gh_lin_entry_at (rows + 128 + x1),
                                     gh_lin_entry_at (rows + 128 + xg),
                                     gh_lin_entry_at (rows + 128 + x3),
                                     ln.m1, ln.m3);
      const uint32_t vg = __byte_perm (gh_max3 (x1, x3, xg), w, 0x5010);
      gh_shared_add (rows + __byte_perm (vg, ln.at, ln.sel[0]), 1u);
      gh_shared_add (rows + x1, 1u << 16);
      gh_shared_add (rows + __byte_perm (vg, ln.at, ln.sel[2]), 1u);
      gh_shared_add (rows + x3, 1u << 16);
      gh_shared_add (odd + gh_count_word<F, 16, true, 16> (F - 1, s >> 24) * 4,
                     1u);
      if ((s & GH_LIN_NEAR) == 0)
        near |= 1u << i;
    }
  return near;
}

/* A pixel of partial weight: colour weight wc and alpha weight wa (its
 * own, or those of a run of equal pixels) into the 32-bit sums, zero
 * weights skipped. */
template <int NCH, int PCOPIES, class PIXEL>
__device__ __forceinline__ void
gh_partial_add (const PIXEL &px, unsigned wc, unsigned wa, uint32_t partial)
{
#pragma unroll
  for (int k = 0; k < NCH; k++)
    {
      const unsigned w = PIXEL::ch::alpha && k == NCH - 1 ? wa : wc;
      if (w)
        gh_shared_add (
          partial + gh_copies_word<PCOPIES, false> (k, px.bin[k]) * 4, w);
    }
}

/* Whether every pixel of the first QUARTERS quarters of a loaded group
 * (4 pixels each) has full weight: alpha bytes and mask bytes all 255,
 * tested on whole words. */
template <int QUARTERS, int BPP, bool MASK>
__device__ __forceinline__ bool
gh_group_full (const gh_group<BPP, MASK> &grp)
{
  constexpr uint32_t alpha
    = BPP == 4 ? 0xff000000u : BPP == 2 ? 0xff00ff00u : 0u;
  uint32_t a = ~0u, m = ~0u;
  if (alpha)
#pragma unroll
    for (int i = 0; i < QUARTERS * BPP; i++)
      a &= grp.w[i];
  if (MASK)
#pragma unroll
    for (int i = 0; i < QUARTERS; i++)
      m &= grp.m[i];
  return (a & alpha) == alpha && m == ~0u;
}

/* Whether pixels i and j of a group add the same to the histogram: the
 * same alpha and mask bytes, and the same colour samples or no colour
 * weight (alpha or mask 0: only alpha counts, so a transparent area's
 * leftover colours do not break its runs). */
template <int BPP, bool MASK>
__device__ __forceinline__ bool
gh_group_same (const gh_group<BPP, MASK> &grp, int i, int j)
{
  constexpr bool alpha = BPP % 2 == 0;
  constexpr int COLOUR = alpha ? BPP - 1 : BPP;
  const unsigned a = alpha ? grp.byte (i * BPP + BPP - 1) : 255u;
  bool colour = true;
#pragma unroll
  for (int c = 0; c < COLOUR; c++)
    colour = colour && grp.byte (i * BPP + c) == grp.byte (j * BPP + c);
  return grp.mask_byte (i) == grp.mask_byte (j)
         && a == (alpha ? grp.byte (j * BPP + BPP - 1) : 255u)
         && (colour || a == 0 || grp.mask_byte (i) == 0);
}

/* The groups of a warp with pixels of partial weight, a quarter of each
 * group (4 pixels) at a time, every lane of the warp together (`in`:
 * whether this lane has a group).  A quarter whose pixels are all full in
 * every lane is counted as on the fast path; any other goes pixel by
 * pixel: full ones counted, the others' weights summed over runs of equal
 * pixels (up to four, so flat transparent regions do not pile the 16
 * lanes that share a copy of the sums onto one address at every pixel).
 * The loop is not unrolled (this path is rare, and a small body keeps it
 * from crowding the fast path out of the instruction cache): the group
 * stays in registers, its next quarter moved to the front each time. */
template <int F, int COPIES, bool SECTIONS, int ODD, bool OH, bool LROWS,
          int NCH, int PCOPIES, class PIXEL, int BPP, bool MASK, int LSLOTS,
          int LSTRIDE>
__device__ __forceinline__ void
gh_counts_mixed (gh_group<BPP, MASK> grp, bool in,
                 const uint32_t (&mine)[2], uint32_t odd, bool swap,
                 uint32_t partial, uint32_t &full_pixels,
                 gh_lin_table<LSLOTS, LSTRIDE> lin)
{
#pragma unroll 1
  for (int q = 0; q < GH_GROUP / 4; q++)
    {
      if (__all_sync (0xffffffffu, !in || gh_group_full<1> (grp)))
        {
          if (in)
            {
#pragma unroll
              for (int i = 0; i < 4; i++)
                {
                  PIXEL px;
                  gh_group_pixel (grp, i, px, lin);
                  gh_counts_add<F, COPIES, SECTIONS, ODD, OH, LROWS> (px, mine, odd,
                                                               swap);
                }
              full_pixels += 4;
            }
        }
      else if (in)
        {
          unsigned carry_c = 0, carry_a = 0;
#pragma unroll
          for (int i = 0; i < 4; i++)
            {
              PIXEL px;
              gh_group_pixel (grp, i, px, lin);
              if (px.colour_weight == PIXEL::full_colour)
                {
                  gh_counts_add<F, COPIES, SECTIONS, ODD, OH, LROWS> (px, mine, odd,
                                                               swap);
                  full_pixels++;
                  continue;
                }
              carry_c += px.colour_weight;
              carry_a += px.alpha_weight;
              if (i < 3 && gh_group_same (grp, i, i + 1))
                continue;
              gh_partial_add<NCH, PCOPIES> (px, carry_c, carry_a, partial);
              carry_c = carry_a = 0;
            }
        }
      grp.next_quarter ();
    }
}

/* LSLOTS: the copies of GIMP 3's luminance table (LIN; 0 otherwise). */
template <int BPP, bool MASK, bool RAW, bool LIN, int COPIES, bool SECTIONS,
          int LSLOTS>
__global__ void __launch_bounds__ (GH_CT_THREADS)
gh_kernel_counts (const uint8_t *__restrict__ pix,
                  const uint8_t *__restrict__ mask, size_t n, gh_u64 *sums)
{
  static_assert (COPIES == 32 || COPIES == 16, "one or two lanes a copy");
  static_assert (!LIN || LSLOTS > 0, "GIMP 3's luminance reads a table");
  static_assert (!SECTIONS
                   || gh_count_sections<gh_counted_channels<BPP, RAW> (),
                                        COPIES, SECTIONS> (),
                 "sections: 16 copies of two pair tables");
  typedef gh_channels<BPP, RAW> ch;
  typedef gh_pixel_bins<BPP, MASK, RAW, LIN> pixel;
  constexpr int NCH = ch::count;
  constexpr int F = gh_counted_channels<BPP, RAW> ();
  constexpr bool weighted = pixel::weighted;
  constexpr int ODD = gh_odd_copies<LIN, COPIES, LSLOTS> ();
  constexpr int PCOPIES = gh_partial_copies<LIN, LSLOTS> ();
  constexpr bool OH = gh_odd_halves<LIN, LSLOTS> ();
  constexpr bool LROWS
    = gh_count_lin_rows<BPP, LIN, F, COPIES, SECTIONS, LSLOTS> ();
  constexpr int WORDS = gh_count_words<BPP, RAW, COPIES, ODD, OH, LROWS> ();
  constexpr bool WIDE = gh_count_wide<COPIES, ODD> ();
  constexpr int LSTRIDE = WIDE || LROWS ? 64 : LSLOTS;
  constexpr int PWORDS = weighted ? NCH * 256 * PCOPIES : 0;
  /* A count is shared by one lane in COPIES of each warp, 16 pixels each
   * a step (OH: the odd table's 16-bit ones in as many copies). */
  static_assert (!OH || ODD == COPIES, "16-bit odd counts flush as pairs");
  static_assert ((size_t) (WORDS + PWORDS) * 4
                     + (LIN && !WIDE && !LROWS ? gh_lin_smem<LSLOTS> () : 0)
                   == gh_counts_smem<BPP, MASK, RAW, LIN, COPIES, LSLOTS> (),
                 "the table's rows take the memory it would take apart");
  constexpr int COUNT_FLUSH = 0xffff / (16 * GH_CT_THREADS / COPIES);
  constexpr int SUM_FLUSH = gh_flush_steps (
    pixel::full_colour, GH_CT_THREADS / PCOPIES);
  extern __shared__ __align__ (16) uint32_t counts[];
  uint32_t *partial = counts + WORDS;
  /* Neighbouring lanes share a copy (their pixels lie close together,
   * so they meet at one address, which costs no second pass, more often
   * than lanes half a warp apart); sections: the odd one of the pair
   * (`swap`) adds the other section's table. */
  const unsigned lane = threadIdx.x & 31;
  const bool swap = SECTIONS && (lane & 1);
  const uint32_t mine[2]
    = { gh_shared_address (counts + lane / (32 / COPIES) + swap * 16),
        gh_shared_address (counts + lane / (32 / COPIES) + !swap * 16) };
  const uint32_t odd
    = gh_shared_address (counts + gh_pair_words<F, COPIES, LROWS> ()
                         + lane / (32 / ODD));
  const uint32_t mine_partial = gh_shared_address (
    partial + (threadIdx.x & (PCOPIES - 1)));
  const size_t groups = n / GH_GROUP;
  const size_t step = (size_t) gridDim.x * GH_CT_THREADS;
  int count_steps = 0, sum_steps = 0;
  uint32_t full_pixels = 0; /* this thread's, for the alpha bin 255 */

  for (int i = threadIdx.x; i < WORDS + PWORDS; i += GH_CT_THREADS)
    counts[i] = 0;
  if constexpr (WIDE || LROWS)
    __syncthreads (); /* the table lies in rows just cleared */
  /* The luminance table's slot: with 32, this lane's count copy (so a
   * level's entry lies at a fixed offset from its count of that level
   * when the copies are 32, one lookup address for both), else
   * neighbouring lanes, whose pixels meet at one address most often. */
  const gh_lin_table<LSLOTS, LSTRIDE> lin = gh_lin_load<LSLOTS, LSTRIDE> (
    WIDE ? counts + F / 2 * 256 * COPIES + 32
    : LROWS ? counts + 32
            : partial + PWORDS,
    LSLOTS < 32    ? lane * LSLOTS / 32
    : COPIES == 32 ? lane
                   : lane / 2 + (lane & 1) * 16);
  __syncthreads ();

  /* `base` is the same for the whole block, so the flushes' barriers are
   * reached by every thread. */
  for (size_t base = (size_t) blockIdx.x * GH_CT_THREADS; base < groups;
       base += step)
    {
      const size_t g = base + threadIdx.x;
      gh_group<BPP, MASK> grp;
      bool full = true;
      if (g < groups)
        {
          grp.load (pix, mask, g, g - (threadIdx.x & 31) + 32 <= groups);
          full = !weighted || gh_group_full<GH_GROUP / 4> (grp);
        }
      /* The whole warp takes one path: a warp with both would run both. */
      if (!weighted || __all_sync (0xffffffffu, full))
        {
          if (g < groups)
            {
              uint32_t near = 0; /* LIN: pixels gh_lin_correct takes */
              if constexpr (WIDE)
                near = gh_counts_wide_group<F> (
                  grp, gh_shared_address (counts), lane * 4);
              else if constexpr (LROWS)
                near = gh_counts_rows_group<F> (
                  grp, gh_shared_address (counts), odd,
                  gh_rows_lane::make (lane));
              else
#pragma unroll
                for (int i = 0; i < GH_GROUP; i++)
                  {
                    pixel px;
                    gh_group_pixel<LIN> (grp, i, px, lin);
                    gh_counts_add<F, COPIES, SECTIONS, ODD, OH, LROWS> (px, mine,
                                                                 odd, swap);
                    if (px.near)
                      near |= 1u << i;
                  }
              full_pixels += GH_GROUP;
              if constexpr (LIN)
                if (near)
                  gh_lin_correct<pixel> (
                    grp, near, lin, [&] (const pixel &px, unsigned e) {
                      gh_shared_add (
                        odd
                          + gh_count_word<F, COPIES, SECTIONS, ODD, OH> (
                              F - 1, px.bin[F - 1])
                              * 4,
                        0u - gh_odd_one<OH> (px.bin[F - 1]));
                      gh_shared_add (
                        odd
                          + gh_count_word<F, COPIES, SECTIONS, ODD, OH> (
                              F - 1, e)
                              * 4,
                        gh_odd_one<OH> (e));
                    });
            }
        }
      else
        gh_counts_mixed<F, COPIES, SECTIONS, ODD, OH, LROWS, NCH, PCOPIES, pixel> (
          grp, g < groups, mine, odd, swap, mine_partial, full_pixels, lin);
      if (++count_steps == COUNT_FLUSH)
        {
          count_steps = 0;
          __syncthreads ();
          gh_counts_flush<ch, pixel, F, COPIES, SECTIONS, ODD, OH, LROWS> (counts,
                                                                   sums);
          __syncthreads ();
        }
      if (weighted && ++sum_steps == SUM_FLUSH)
        {
          sum_steps = 0;
          __syncthreads ();
          gh_copies_flush<ch, PCOPIES, false> (partial, sums);
          __syncthreads ();
        }
    }
  /* The last n % 16 pixels: one per thread of the last block. */
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x < n % GH_GROUP)
    {
      size_t i = groups * GH_GROUP + threadIdx.x;
      pixel px;
      px.compute (pix + i * BPP, MASK ? mask[i] : 255u, lin);
      if (!weighted || px.colour_weight == pixel::full_colour)
        {
          gh_counts_add<F, COPIES, SECTIONS, ODD, OH, LROWS> (px, mine, odd, swap);
          full_pixels++;
        }
      else
        gh_partial_add<NCH, PCOPIES> (px, px.colour_weight, px.alpha_weight,
                                      mine_partial);
    }
  __syncthreads ();
  gh_counts_flush<ch, pixel, F, COPIES, SECTIONS, ODD, OH, LROWS> (counts, sums);
  if (weighted)
    gh_copies_flush<ch, PCOPIES, false> (partial, sums);
  /* Full pixels' alpha: bin 255, a full alpha weight each. */
  if (F < NCH)
    {
#pragma unroll
      for (int d = 16; d > 0; d >>= 1)
        full_pixels += __shfl_xor_sync (0xffffffffu, full_pixels, d);
      if ((threadIdx.x & 31) == 0 && full_pixels)
        atomicAdd (&sums[(size_t) ch::slot (NCH - 1) * 256 + 255],
                   (gh_u64) full_pixels * pixel::full (NCH - 1));
    }
}

#endif
