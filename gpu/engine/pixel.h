/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pixel.h — what one pixel contributes: the derived levels of GIMP 2.10
 * (value, perceptual luminance) and of GIMP 3 (linear luminance).
 *
 * Shared by the CPU backend, the CUDA kernels, the reference and the
 * apply functions, so every path bins a pixel identically.  The 8-bit
 * functions are host and device code (GH_HOSTDEV); the float ones host.
 */
#ifndef GH_PIXEL_H
#define GH_PIXEL_H

#include <stdint.h>

#include "srgb_table.h"

#ifdef __CUDACC__
#define GH_HOSTDEV __host__ __device__ __forceinline__
/* A rare path kept out of line: gh_luminance_bin_gimp's device code
 * (about 80 instructions, taken by 2848 of the 2^24 colours) inlined at
 * each of the 16 pixels a kernel bins a step was half of the GIMP
 * kernels' code and cost the counts kernel 0.04-0.07 of the read
 * ceiling on soft-edged layers (BENCHMARKS.md, 2026-11-23). */
#define GH_HOSTDEV_RARE inline __host__ __device__ __noinline__
#else
#define GH_HOSTDEV static inline
#define GH_HOSTDEV_RARE static inline
#endif

/* GIMP's bin of a float sample, VALUE() in gimphistogram.c: scaled by
 * bins - 1 in float, clamped (NaN to 0), rounded half up in double. */
static inline int
gh_bin_f32 (float v, int bins)
{
  float top = (float) (bins - 1);
  float t = v * top;
  t = t > 0.0f ? (t < top ? t : top) : 0.0f;
  return (int) ((double) t + 0.5);
}

/* GIMP's value of float samples: MAX (MAX (r, g), b) with GLib's MAX, so
 * NaNs fall where GIMP's do. */
static inline float
gh_max3_f32 (float r, float g, float b)
{
  float m = r > g ? r : g;
  return b > m ? b : m;
}

/* GIMP_RGB_LUMINANCE: double arithmetic, stored to float. */
static inline float
gh_luminance_f32 (float r, float g, float b)
{
  return (float) (r * 0.22248840 + g * 0.71690369 + b * 0.06060791);
}

/* GIMP's luminance bin of 8-bit samples exactly as gimphistogram.c
 * computes it: samples as float (byte / 255.0), then the two functions
 * above.  The device path spells out each rounding so nvcc cannot fuse
 * them into FMAs. */
GH_HOSTDEV_RARE int
gh_luminance_bin_gimp (unsigned r, unsigned g, unsigned b)
{
#ifdef __CUDA_ARCH__
  double rf = (float) (r / 255.0), gf = (float) (g / 255.0),
         bf = (float) (b / 255.0);
  float lum = (float) __dadd_rn (__dadd_rn (__dmul_rn (rf, 0.22248840),
                                            __dmul_rn (gf, 0.71690369)),
                                 __dmul_rn (bf, 0.06060791));
  float t = __fmul_rn (lum, 255.0f);
  return (int) __dadd_rn ((double) t, 0.5);
#else
  return gh_bin_f32 (gh_luminance_f32 ((float) (r / 255.0), (float) (g / 255.0),
                                       (float) (b / 255.0)),
                     256);
#endif
}

/* The same bin from a 24-bit fixed-point sum (the weights times 2^24 sum to
 * exactly 2^24, and 255 * 2^24 + 2^23 fits in 32 bits).  GIMP's float
 * rounding decides only within 2^-16 of a tie: those 2848 of the 2^24
 * colours take the exact path above (test_luminance checks all 2^24). */
#define GH_LUM_WR 3732736u
#define GH_LUM_WG 12027648u
#define GH_LUM_WB 1016832u
#define GH_LUM_TIE_BAND 1024u

GH_HOSTDEV int
gh_luminance_bin (unsigned r, unsigned g, unsigned b)
{
  uint32_t s = GH_LUM_WR * r + GH_LUM_WG * g + GH_LUM_WB * b + (1u << 23);
  uint32_t frac = s & 0xFFFFFFu;
  if (frac < GH_LUM_TIE_BAND || frac > 0x1000000u - GH_LUM_TIE_BAND)
    return gh_luminance_bin_gimp (r, g, b);
  return (int) (s >> 24);
}

/* GIMP 3's luminance (GH_LUMINANCE_LINEAR): babl's "Y float" of the
 * pixel, the decoded samples weighed in float in this order, then binned
 * as above.  8-bit samples decode through babl's own table
 * (srgb_table.h), so every 8-bit colour bins as GIMP 3 bins it
 * (tests/test_luminance_babl.c checks all 2^24 against babl). */
#ifdef __CUDACC__
static __device__ const float gh_srgb_decode_u8_dev[256] = GH_SRGB_DECODE_U8;
#endif
#ifdef __cplusplus
extern "C" {
#endif
extern const float gh_srgb_decode_u8[256];
/* babl's float sRGB decode: see gh_luminance_linear_f32 below. */
float gh_srgb_decode_f32 (float v);
#ifdef __cplusplus
}
#endif

#ifdef __CUDACC__
/* The device arithmetic, with the decode table given (the kernels reach
 * it through gh_lin_exact, kernel_lin.cuh, where their integer table
 * cannot decide).  Each rounding is spelled out so nvcc cannot fuse them
 * into FMAs (the host's float arithmetic rounds each step). */
__device__ __forceinline__ int
gh_luminance_bin_linear_lut (const float *lin, unsigned r, unsigned g,
                             unsigned b)
{
  float y = __fadd_rn (__fadd_rn (__fmul_rn (lin[r], GH_BABL_Y_WR),
                                  __fmul_rn (lin[g], GH_BABL_Y_WG)),
                       __fmul_rn (lin[b], GH_BABL_Y_WB));
  float t = __fmul_rn (y, 255.0f);
  t = t > 0.0f ? (t < 255.0f ? t : 255.0f) : 0.0f;
  return (int) __dadd_rn ((double) t, 0.5);
}
#endif

GH_HOSTDEV int
gh_luminance_bin_linear (unsigned r, unsigned g, unsigned b)
{
#ifdef __CUDA_ARCH__
  return gh_luminance_bin_linear_lut (gh_srgb_decode_u8_dev, r, g, b);
#else
  const float *lin = gh_srgb_decode_u8;
  float y = lin[r] * GH_BABL_Y_WR + lin[g] * GH_BABL_Y_WG
            + lin[b] * GH_BABL_Y_WB;
  return gh_bin_f32 (y, 256);
#endif
}

/* The same for float samples (0..1 perceptual): babl's float sRGB decode
 * (its pow approximation, in float) and the same weights.  babl picks
 * among several implementations of this conversion by CPU; this follows
 * its portable one, so a few float colours may bin one bin apart from
 * GIMP 3 (test_luminance_babl reports how many). */

static inline float
gh_luminance_linear_f32 (float r, float g, float b)
{
  return gh_srgb_decode_f32 (r) * GH_BABL_Y_WR
         + gh_srgb_decode_f32 (g) * GH_BABL_Y_WG
         + gh_srgb_decode_f32 (b) * GH_BABL_Y_WB;
}

/* v within lo..hi, NaN to lo (host code). */
static inline double
gh_clamp (double v, double lo, double hi)
{
  return v > lo ? (v < hi ? v : hi) : lo;
}

GH_HOSTDEV unsigned
gh_max3 (unsigned r, unsigned g, unsigned b)
{
  unsigned m = r > g ? r : g;
  return m > b ? m : b;
}

#endif
