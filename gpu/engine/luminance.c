/* SPDX-License-Identifier: GPL-3.0-or-later */
/* luminance.c — GIMP 3's luminance rule: babl's sRGB decode (pixel.h).
 *
 * GIMP 3 bins the luminance of a pixel as babl's "Y float" of it: the
 * samples decoded from the sRGB curve to linear light, then weighed.  The
 * 8-bit levels decode through babl's own values (srgb_table.h); float
 * samples through the arithmetic of babl's portable float curve:
 * x^2.4 as (x * x^(-1/5))^3, x^(-1/5) from a quadratic first guess on the
 * exponent refined by three Newton steps, all in float.  The conversion
 * babl actually runs is chosen at run time and can differ from it by a few
 * ulps: about 5e-5 of float colours then bin one bin apart among 1024
 * (tests/test_luminance_babl.c measures it). */
#include "pixel.h"

#include <math.h>

#define LN2 0.69314718055994530942 /* M_LN2, which C11 lacks */

const float gh_srgb_decode_u8[256] = GH_SRGB_DECODE_U8;

/* x^(-1/5) for x in (0, 16], as babl approximates it. */
static float
inverse_fifth_root (float x)
{
  const float exponent = -1.0f / 5.0f;
  int e = 0;
  float m = frexpf (x, &e);
  /* The first guess is a quadratic in log2(x), read off the float's
   * exponent and mantissa; its coefficients are babl's, scaled in double
   * as babl scales them. */
  float l = 2.0f * m + (float) (e - 2);
  float c1 = (float) (0.9594345146f * (LN2 * exponent));
  float c2 = (float) (0.6742970332f * (LN2 * LN2 * exponent * exponent));
  float y = 0.9953189663f + c1 * l + c2 * l * l;

  for (int i = 0; i < 3; i++)
    y = (1.0f + 1.0f / 5.0f) * y - ((1.0f / 5.0f) * x * (y * y))
                                     * ((y * y) * (y * y));
  return y;
}

float
gh_srgb_decode_f32 (float v)
{
  float x;

  if (!(v > 0.04045f))
    return v / 12.92f; /* also NaN and the negative side, as babl */
  x = (v + 0.055f) / 1.055f;
  if (x > 16.0f)
    return expf (logf (x) * 2.4f);
  x *= inverse_fifth_root (x);
  return x * x * x;
}
