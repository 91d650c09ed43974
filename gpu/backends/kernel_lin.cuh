/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernel_lin.cuh — GIMP 3's luminance bin in the kernels: one table of
 * integers in shared memory for the common case, babl's float arithmetic
 * (pixel.h) where a pixel lies near a bin's edge.
 *
 * The float path costs three table lookups, five float operations and
 * two conversions through double a pixel; its lookups at scattered levels
 * meet in banks.  That held the kernels at 0.58-0.72 of the read ceiling
 * where GIMP 2.10's luminance ran at 0.88 (BENCHMARKS.md, 2026-11-26).
 * Here a pixel costs three conflict-free lookups and two multiply-adds:
 *
 *   T[v] = rn (rn (L[v] * WG) * 255 * 2^24) + OFFSET   (L: srgb_table.h)
 *   S    = T[g] + hi (T[r] * CR) + hi (T[b] * CB)       (CR = 2^32 WR / WG,
 *                                                        CB = 2^32 WB / WG)
 *
 * S is 2^24 (t + 0.5), t = rn (Y * 255) as GIMP computes it, plus an
 * error e in [17, 849] (the float roundings of GIMP's sum, the products
 * rn (L * WR) and rn (L * WB) stood for by T scaled, hi's truncation,
 * and OFFSET = (2^23 + 440) / (1 + WR / WG + WB / WG)).  So S >> 24 is
 * GIMP's bin unless frac (t + 0.5) + e wrapped past the next bin, which
 * leaves frac (S) < e < 1024: those pixels ("near", 2^-14 of the colour
 * space: about a thousand of the 2^24 colours, no grey one) take the
 * float path.  The range of e was measured over all 2^24 colours, and
 * test_gpu checks every colour's bin on the device against the host's.
 *
 * The table has SLOTS copies interleaved by level (word v * STRIDE +
 * slot; STRIDE SLOTS unless another table's rows lie between its own):
 * with 32, lane l reads slot l in bank l, so no lookup ever waits on a
 * bank; a kernel whose count tables have the same stride (the counts
 * kernel with 32 copies) finds a level's entry at a fixed offset from
 * its count of that level.  Fewer slots (for the caps where 32 KB does not
 * fit) share banks between the lanes of a slot.  SLOTS 0: no table, the
 * float path for every pixel (the kernel without shared memory).
 */
#ifndef GH_KERNEL_LIN_CUH
#define GH_KERNEL_LIN_CUH

#include <stdint.h>

#include "pixel.h"

#define GH_LIN_CR 1332924090u
#define GH_LIN_CB 363103747u
#define GH_LIN_OFFSET 6014141u
#define GH_LIN_NEAR 0xFFFC00u /* frac (S) < 1024 where these bits are 0 */

/* This lane's entry of level 0 in the shared table (a shared-memory
 * address; its entry of level v is v * STRIDE words further). */
template <int SLOTS, int STRIDE = SLOTS> struct gh_lin_table
{
  uint32_t at;
};

template <int SLOTS>
__host__ __device__ constexpr size_t
gh_lin_smem ()
{
  return (size_t) 256 * SLOTS * 4;
}

/* T[v], from babl's decoded level: the float product as GIMP 3 forms it,
 * scaled exactly in double and rounded to an integer. */
__device__ __forceinline__ uint32_t
gh_lin_entry (unsigned v)
{
  return (uint32_t) __double2ll_rn (
           (double) __fmul_rn (gh_srgb_decode_u8_dev[v], GH_BABL_Y_WG)
           * (255.0 * 16777216.0))
         + GH_LIN_OFFSET;
}

/* Fills the block's table (before the block's first barrier) and returns
 * this lane's slot of it. */
template <int SLOTS, int STRIDE = SLOTS>
__device__ __forceinline__ gh_lin_table<SLOTS, STRIDE>
gh_lin_load (uint32_t *table, unsigned slot)
{
  static_assert (STRIDE >= SLOTS, "a level's slots lie in its row");
  if constexpr (SLOTS > 0)
    for (int i = threadIdx.x; i < 256 * SLOTS; i += blockDim.x)
      table[i / SLOTS * STRIDE + i % SLOTS] = gh_lin_entry (i / SLOTS);
  return { (uint32_t) __cvta_generic_to_shared (table + slot) };
}

/* The float path (pixel.h), out of line: about a thousand colours take
 * it. */
inline __device__ __noinline__ unsigned
gh_lin_exact (unsigned r, unsigned g, unsigned b)
{
  return (unsigned) gh_luminance_bin_linear (r, g, b);
}

__device__ __forceinline__ uint32_t
gh_lin_entry_at (uint32_t at)
{
  uint32_t v;
  asm ("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(at));
  return v;
}

/* S of the header from the three channels' entries: the bin is S >> 24,
 * and it may be one too high where S & GH_LIN_NEAR is 0.  A kernel may
 * hand red and blue in either order with their multipliers (the sum is
 * the same). */
__device__ __forceinline__ uint32_t
gh_lin_sum (uint32_t tr, uint32_t tg, uint32_t tb, uint32_t cr = GH_LIN_CR,
            uint32_t cb = GH_LIN_CB)
{
  return __umulhi (tb, cb) + (__umulhi (tr, cr) + tg);
}

/* The table's bin of (r, g, b), and whether it may be one too high (then
 * gh_lin_exact has the bin). */
template <int SLOTS, int STRIDE>
__device__ __forceinline__ unsigned
gh_lin_fast (gh_lin_table<SLOTS, STRIDE> t, unsigned r, unsigned g,
             unsigned b, bool &near)
{
  const uint32_t s = gh_lin_sum (gh_lin_entry_at (t.at + r * (STRIDE * 4)),
                                 gh_lin_entry_at (t.at + g * (STRIDE * 4)),
                                 gh_lin_entry_at (t.at + b * (STRIDE * 4)));
  near = (s & GH_LIN_NEAR) == 0;
  /* s >> 24 as one byte move: a shift here would be merged with the
   * bin's address arithmetic into three instructions instead of two. */
  return __byte_perm (s, 0, 0x4443);
}

/* GIMP 3's bin of (r, g, b). */
template <int SLOTS, int STRIDE>
__device__ __forceinline__ unsigned
gh_lin_bin (gh_lin_table<SLOTS, STRIDE> t, unsigned r, unsigned g, unsigned b)
{
  if constexpr (SLOTS == 0)
    return gh_lin_exact (r, g, b);
  else
    {
      bool near;
      const unsigned bin = gh_lin_fast (t, r, g, b, near);
      return near ? gh_lin_exact (r, g, b) : bin;
    }
}

#endif
