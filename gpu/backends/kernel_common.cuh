/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernel_common.cuh — what every histogram kernel shares: which channels a
 * layout yields, loading a group of pixels with 16-byte loads, and the bins
 * and weight of one pixel.
 *
 * A thread handles groups of 16 pixels (BPP 16-byte loads, plus one for
 * the mask), so every load is a full, aligned uint4 whatever the layout.
 * RAW kernels histogram the stored samples only (the benchmark's
 * comparison with CUB); the others compute GIMP's six channels.
 */
#ifndef GH_KERNEL_COMMON_CUH
#define GH_KERNEL_COMMON_CUH

#include <stdint.h>

#include "gpu_histogram.h"
#include "kernel_lin.cuh"
#include "pixel.h"

#define GH_GROUP 16 /* pixels per thread per step */

typedef unsigned long long gh_u64;

/* The channels a kernel keeps, in a compact order; slot() maps them back to
 * GIMP's channel numbers for the output. */
template <int BPP, bool RAW> struct gh_channels
{
  static constexpr bool rgb = BPP >= 3;
  static constexpr bool alpha = BPP == 2 || BPP == 4;
  /* RAW: the stored samples.  GIMP: value, [r, g, b, luminance], [alpha] */
  static constexpr int count
    = RAW ? BPP : (rgb ? 5 : 1) + (alpha ? 1 : 0);

  static __host__ __device__ constexpr int slot (int k)
  {
    return RAW ? (rgb ? (k < 3 ? GH_CHANNEL_RED + k : GH_CHANNEL_ALPHA)
                      : (k == 0 ? GH_CHANNEL_VALUE : GH_CHANNEL_ALPHA))
               : (rgb ? (k < 4 ? k : k == 4 ? GH_CHANNEL_LUMINANCE
                                            : GH_CHANNEL_ALPHA)
                      : (k == 0 ? GH_CHANNEL_VALUE : GH_CHANNEL_ALPHA));
  }
};

/* One group: 16 pixels of BPP bytes as 4*BPP words, and 16 mask bytes. */
template <int BPP, bool MASK> struct gh_group
{
  uint32_t w[4 * BPP];
  uint32_t m[4];

  /* Moves the next quarter (4 pixels, their mask bytes) to the front: a
   * loop over the quarters keeps the group in registers. */
  __device__ __forceinline__ void next_quarter ()
  {
#pragma unroll
    for (int i = 0; i < 3 * BPP; i++)
      w[i] = w[i + BPP];
    if (MASK)
#pragma unroll
      for (int i = 0; i < 3; i++)
        m[i] = m[i + 1];
  }

  /* Loads group g.  spread: the 32 lanes of this warp load groups
   * g - lane .. g - lane + 31, all in the image, with no mask; then, where
   * whole pixels allow it (not RGB), lane l's k-th load takes the warp's
   * (32k + l)-th 16 bytes, so each load instruction reads 512 contiguous
   * bytes instead of 32 pieces 16 * BPP bytes apart: BPP times fewer L1
   * wavefronts, which share the load/store unit with the shared-memory
   * atomics.  The group's pixels then come from several places, which a
   * histogram does not mind. */
  __device__ __forceinline__ void load (const uint8_t *__restrict__ pix,
                                        const uint8_t *__restrict__ mask,
                                        size_t g, bool spread)
  {
    const int stride = (spread = spread && BPP != 3 && !MASK) ? 32 : 1;
    const uint4 *p = first (pix, g, spread);
#pragma unroll
    for (int i = 0; i < BPP; i++)
      {
        uint4 v = __ldg (p + i * stride);
        w[4 * i] = v.x;
        w[4 * i + 1] = v.y;
        w[4 * i + 2] = v.z;
        w[4 * i + 3] = v.w;
      }
    if (MASK)
      {
        uint4 v = __ldg (reinterpret_cast<const uint4 *> (mask) + g);
        m[0] = v.x;
        m[1] = v.y;
        m[2] = v.z;
        m[3] = v.w;
      }
  }

  /* The first 16 bytes group g's loads read. */
  static __device__ __forceinline__ const uint4 *
  first (const uint8_t *pix, size_t g, bool spread)
  {
    const size_t lane = threadIdx.x & 31;
    return reinterpret_cast<const uint4 *> (pix)
           + (spread ? (g - lane) * BPP + lane : g * BPP);
  }

  /* Byte j of the group; j is a compile-time constant in unrolled loops,
   * so this stays in registers.  One byte move (PRMT), which the compiler
   * does not fold into the bins' address arithmetic: a shift and mask
   * folded there left the byte itself to be taken again for the value
   * channel and the luminance (two to five more instructions a pixel). */
  __device__ __forceinline__ unsigned byte (int j) const
  {
    return __byte_perm (w[j >> 2], 0, 0x4440 | (j & 3));
  }
  __device__ __forceinline__ unsigned mask_byte (int i) const
  {
    return MASK ? (m[i >> 2] >> (8 * (i & 3))) & 0xffu : 255u;
  }
};

/* The bins one pixel falls in, and its weights in the result's units
 * (accum.h): colour channels weigh alpha x mask, alpha weighs the mask;
 * without alpha and mask (and in RAW kernels) every weight is 1.  LIN:
 * the luminance is GIMP 3's (kernel_lin.cuh, through the kernel's table
 * `lin`); only colour kernels that are not RAW are built with it.  With
 * NEAR, a LIN pixel takes the table's bin and sets `near` where that bin
 * may be one too high, for the kernel to correct (gh_lin_exact); without,
 * the bin is always GIMP 3's. */
template <int BPP, bool MASK, bool RAW, bool LIN> struct gh_pixel_bins
{
  static_assert (!LIN || (BPP >= 3 && !RAW),
                 "the luminance rule matters to colour channels only");
  typedef gh_channels<BPP, RAW> ch;
  /* Whether weights vary at all; if not, sums are plain counts. */
  static constexpr bool weighted = !RAW && (MASK || ch::alpha);
  static constexpr unsigned full_colour
    = weighted ? (ch::alpha ? 255u : 1u) * (MASK ? 255u : 1u) : 1u;
  static constexpr unsigned full_alpha = MASK ? 255u : 1u;
  unsigned bin[ch::count];
  unsigned colour_weight, alpha_weight;
  bool near = false;

  template <int SLOTS, int STRIDE>
  __device__ __forceinline__ void compute (const uint8_t *s, unsigned m,
                                           gh_lin_table<SLOTS, STRIDE> lin)
  {
    set (s[0], BPP > 1 ? s[1] : 0u, BPP > 2 ? s[2] : 0u,
         BPP > 3 ? s[3] : 0u, m, lin);
  }

  template <bool NEAR = false, int SLOTS, int STRIDE>
  __device__ __forceinline__ void set (unsigned s0, unsigned s1, unsigned s2,
                                       unsigned s3, unsigned m,
                                       gh_lin_table<SLOTS, STRIDE> lin)
  {
    const unsigned a = BPP == 4 ? s3 : BPP == 2 ? s1 : 255u;
    colour_weight = alpha_weight = 1u;
    if (RAW)
      {
        bin[0] = s0;
        if (BPP > 1)
          bin[1 % ch::count] = s1;
        if (BPP > 2)
          bin[2 % ch::count] = s2;
        if (BPP > 3)
          bin[3 % ch::count] = s3;
        return;
      }
    if (ch::rgb)
      {
        bin[0] = gh_max3 (s0, s1, s2);
        bin[1 % ch::count] = s0;
        bin[2 % ch::count] = s1;
        bin[3 % ch::count] = s2;
        if constexpr (!LIN)
          bin[4 % ch::count] = (unsigned) gh_luminance_bin (s0, s1, s2);
        else if constexpr (NEAR)
          bin[4 % ch::count] = gh_lin_fast (lin, s0, s1, s2, near);
        else
          bin[4 % ch::count] = gh_lin_bin (lin, s0, s1, s2);
      }
    else
      bin[0] = s0;
    if (ch::alpha)
      bin[(ch::count - 1)] = a;
    if (weighted)
      {
        colour_weight = (ch::alpha ? a : 1u) * (MASK ? m : 1u);
        alpha_weight = MASK ? m : 1u;
      }
  }

  /* The weight channel k adds, and what a full weight is there. */
  __device__ __forceinline__ unsigned weight (int k) const
  {
    return ch::alpha && k == ch::count - 1 ? alpha_weight : colour_weight;
  }
  static __device__ __forceinline__ unsigned full (int k)
  {
    return ch::alpha && k == ch::count - 1 ? full_alpha : full_colour;
  }
};

/* Pixel i of a group, unpacked from its bytes. */
template <bool NEAR = false, int BPP, bool MASK, bool RAW, bool LIN,
          int SLOTS, int STRIDE>
__device__ __forceinline__ void
gh_group_pixel (const gh_group<BPP, MASK> &grp, int i,
                gh_pixel_bins<BPP, MASK, RAW, LIN> &px,
                gh_lin_table<SLOTS, STRIDE> lin)
{
  px.template set<NEAR> (grp.byte (i * BPP), BPP > 1 ? grp.byte (i * BPP + 1) : 0u,
          BPP > 2 ? grp.byte (i * BPP + 2) : 0u,
          BPP > 3 ? grp.byte (i * BPP + 3) : 0u, grp.mask_byte (i), lin);
}

/* GIMP 3's luminance where a kernel took the table's bins for a group
 * (gh_group_pixel<true>): each pixel of the group that lay near a bin's
 * edge (bit i of `near`) whose exact bin differs is handed to move (px,
 * exact), px holding the table's bin, for the kernel to move its weight.
 * A branch a pixel, with its convergence barrier, cost more than these
 * rare moves (about 2^-14 of the pixels of uniform colours).  Not
 * unrolled: the group stays in registers, its next quarter moved to the
 * front each time. */
template <class PIXEL, int BPP, bool MASK, int SLOTS, int STRIDE,
          class MOVE>
__device__ __forceinline__ void
gh_lin_correct (gh_group<BPP, MASK> grp, uint32_t near,
                gh_lin_table<SLOTS, STRIDE> lin, MOVE move)
{
#pragma unroll 1
  for (int q = 0; q < GH_GROUP / 4; q++, near >>= 4)
    {
#pragma unroll
      for (int i = 0; i < 4; i++)
        if (near & (1u << i))
          {
            PIXEL px;
            gh_group_pixel<true> (grp, i, px, lin);
            const unsigned e
              = gh_lin_exact (grp.byte (i * BPP), grp.byte (i * BPP + 1),
                              grp.byte (i * BPP + 2));
            if (e != px.bin[4])
              move (px, e);
          }
      grp.next_quarter ();
    }
}

/* Adds v to the 32-bit word at shared-memory address `at` (from
 * gh_shared_address): a reduction with no result, addressed by a 32-bit
 * offset computed once, so the inner loops spend no instructions turning
 * generic pointers into shared ones. */
__device__ __forceinline__ uint32_t
gh_shared_address (const void *p)
{
  return (uint32_t) __cvta_generic_to_shared (p);
}

__device__ __forceinline__ void
gh_shared_add (uint32_t at, uint32_t v)
{
  asm volatile ("red.shared.add.u32 [%0], %1;" ::"r"(at), "r"(v) : "memory");
}

/* Steps (16 pixels for each thread) after which a 32-bit sum of weights
 * up to `full`, shared by `threads` threads, could overflow: a block adds
 * its sums to the global result at least that often. */
__host__ __device__ constexpr int
gh_flush_steps (unsigned full, int threads)
{
  return (int) ((0xffffffffull / full) / ((unsigned long long) threads * 16)
                > 0x7fffffff
                  ? 0x7fffffff
                  : (0xffffffffull / full) / ((unsigned long long) threads * 16));
}

/* Adds a block's 32-bit sums to
 * the global 64-bit result, skipping zeros, and clears them. */
template <class CH>
__device__ __forceinline__ void
gh_block_flush (uint32_t *sums, gh_u64 *out)
{
  for (int i = threadIdx.x; i < CH::count * 256; i += blockDim.x)
    if (sums[i])
      {
        atomicAdd (&out[(size_t) CH::slot (i >> 8) * 256 + (i & 255)],
                   (gh_u64) sums[i]);
        sums[i] = 0;
      }
}

#endif
