/* pixel.h — what one pixel contributes: GIMP 2.10's derived levels.
 *
 * Shared by the CPU backend, the CUDA kernels, the reference and the
 * apply functions, so every path bins a pixel identically.  Host and device
 * code (GH_HOSTDEV).  8-bit samples.
 */
#ifndef GH_PIXEL_H
#define GH_PIXEL_H

#include <stdint.h>

#ifdef __CUDACC__
#define GH_HOSTDEV __host__ __device__ __forceinline__
#else
#define GH_HOSTDEV static inline
#endif

/* GIMP's luminance bin exactly as gimphistogram.c computes it: samples as
 * float (byte / 255.0), GIMP_RGB_LUMINANCE in double, stored to float,
 * scaled by 255.0f in float, rounded half up.  The device path spells out
 * each rounding so nvcc cannot fuse them into FMAs. */
GH_HOSTDEV int
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
  float rf = (float) (r / 255.0), gf = (float) (g / 255.0),
        bf = (float) (b / 255.0);
  float lum = rf * 0.22248840 + gf * 0.71690369 + bf * 0.06060791;
  float t = lum * 255.0f;
  return (int) (t + 0.5);
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

GH_HOSTDEV unsigned
gh_max3 (unsigned r, unsigned g, unsigned b)
{
  unsigned m = r > g ? r : g;
  return m > b ? m : b;
}

#endif
