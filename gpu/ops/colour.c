/* SPDX-License-Identifier: GPL-3.0-or-later */
/* colour.c — the luminance-only colour move (colour.h).
 *
 * Luminance-only equalization moves each pixel's colour to a new
 * luminance keeping its hue (gh_luminance_shift).  Under GIMP 2.10's rule
 * the model works on the stored R'G'B' samples and GIMP's perceptual
 * luminance of them; under GIMP 3's rule on the sRGB-decoded linear
 * samples and their Y, the samples being encoded back afterwards: in
 * both, the luminance changed is the one the histogram bins. */
#include "colour.h"

#include "pixel.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

/* GIMP_RGB_LUMINANCE: GIMP 2.10's weights in double. */
static double
perceptual_luminance (double r, double g, double b)
{
  return r * 0.22248840 + g * 0.71690369 + b * 0.06060791;
}

/* The colour model.  A pixel's colour c (white at `white`) is its
 * luminance `lum` plus a chroma offset c - lum.  Scaling c by
 * target / lum scales both, which keeps the hue and the ratios between
 * the samples.  Where that would push a sample past white the chroma is
 * shrunk instead, c = target + s (c - target) with the largest s that
 * fits: luminance and hue stay, saturation drops, and at target = white
 * the pixel is white. */
static inline void
shift (double c[3], double lum, double target, double white)
{
  double top = 0;

  for (int k = 0; k < 3; k++)
    {
      /* Black has no hue: it becomes the gray of the new luminance. */
      c[k] = lum > 0 ? c[k] * (target / lum) : target;
      top = top > c[k] ? top : c[k];
    }
  if (top > white)
    for (int k = 0; k < 3; k++)
      c[k] = target + (white - target) / (top - target) * (c[k] - target);
}

void
gh_luminance_shift (double c[3], double lum, double target, double white)
{
  shift (c, lum, target, white);
}

/* sRGB encoding of linear light, the inverse of the decode GIMP 3's
 * luminance uses. */
static double
srgb_encode (double v)
{
  return v > 0.0031308 ? 1.055 * pow (v, 1.0 / 2.4) - 0.055 : 12.92 * v;
}

/* The byte of linear light v, encoded: the level nearest 255 times its
 * sRGB encoding, within 0..255. */
static uint8_t
encode_byte_pow (double v)
{
  return (uint8_t) gh_clamp (floor (255.0 * srgb_encode (v) + 0.5), 0.0,
                             255.0);
}

/* The same byte without a pow per sample (a 12 MP layer's luminance move
 * spent most of its second in them): first[b] is the least double whose
 * byte is b (found once by bisection over the doubles with
 * encode_byte_pow itself), start[i] the byte at i / ENCODE_BUCKETS, from
 * which a step or two along first[] reaches v's byte.  Within
 * ENCODE_NEAR of a threshold encode_byte_pow answers, so the byte is the
 * pow's even where pow's last bit wavers; elsewhere the bytes rise with
 * v. */
#define ENCODE_BUCKETS 4096
#define ENCODE_NEAR 1e-9

static double first[257];
static uint8_t start[ENCODE_BUCKETS];
static pthread_once_t encode_once = PTHREAD_ONCE_INIT;

static void
encode_init (void)
{
  const double zero = 0.0, one = 1.0;

  first[0] = -HUGE_VAL;
  first[256] = HUGE_VAL;
  for (int b = 1; b < 256; b++)
    {
      /* Non-negative doubles are ordered as their bit patterns. */
      uint64_t lo, hi, mid;
      double m;

      memcpy (&lo, &zero, sizeof lo);
      memcpy (&hi, &one, sizeof hi);
      while (hi - lo > 1)
        {
          mid = lo + (hi - lo) / 2;
          memcpy (&m, &mid, sizeof m);
          if (encode_byte_pow (m) >= b)
            hi = mid;
          else
            lo = mid;
        }
      memcpy (&first[b], &hi, sizeof first[b]);
    }
  for (int i = 0, b = 0; i < ENCODE_BUCKETS; i++)
    {
      while (b < 255 && first[b + 1] <= (double) i / ENCODE_BUCKETS)
        b++;
      start[i] = (uint8_t) b;
    }
}

static inline uint8_t
encode_byte (double v)
{
  int b;

  /* Black and white, which the move gives often (a sample at 0, or one
   * pushed to white), are those bytes. */
  if (v >= 1.0)
    return 255;
  if (v <= 0.0)
    return 0;
  if (v != v)
    return encode_byte_pow (v);
  b = start[(int) (v * ENCODE_BUCKETS)];
  while (v >= first[b + 1])
    b++;
  if (v - first[b] < ENCODE_NEAR || first[b + 1] - v < ENCODE_NEAR)
    return encode_byte_pow (v);
  return (uint8_t) b;
}

void
gh_op_move_luminance_u8 (const gh_op *op, uint8_t *p, double target)
{
  double c[3];

  if (op->luminance == GH_LUMINANCE_LINEAR)
    {
      pthread_once (&encode_once, encode_init);
      for (int k = 0; k < 3; k++)
        c[k] = gh_srgb_decode_u8[p[k]];
      shift (c,
             c[0] * GH_BABL_Y_WR + c[1] * GH_BABL_Y_WG + c[2] * GH_BABL_Y_WB,
             target / 255.0, 1.0);
      for (int k = 0; k < 3; k++)
        p[k] = encode_byte (c[k]);
      return;
    }
  for (int k = 0; k < 3; k++)
    c[k] = p[k];
  shift (c, perceptual_luminance (c[0], c[1], c[2]), target, 255.0);
  for (int k = 0; k < 3; k++)
    p[k] = (uint8_t) gh_clamp (floor (c[k] + 0.5), 0.0, 255.0);
}

float
gh_op_luminance_key_f32 (const gh_op *op, const float *p)
{
  /* Perceptual: the double luminance stored to float, as the histogram
   * binned it. */
  return op->luminance == GH_LUMINANCE_LINEAR
           ? gh_luminance_linear_f32 (p[0], p[1], p[2])
           : (float) perceptual_luminance (p[0], p[1], p[2]);
}

void
gh_op_move_luminance_f32 (const gh_op *op, float *p, double target)
{
  double c[3];

  if (op->luminance == GH_LUMINANCE_LINEAR)
    {
      float lum = gh_luminance_linear_f32 (p[0], p[1], p[2]);
      for (int k = 0; k < 3; k++)
        c[k] = gh_srgb_decode_f32 (p[k]);
      gh_luminance_shift (c, lum, target, 1.0);
      for (int k = 0; k < 3; k++)
        c[k] = srgb_encode (c[k]);
    }
  else
    {
      for (int k = 0; k < 3; k++)
        c[k] = p[k];
      gh_luminance_shift (c, perceptual_luminance (p[0], p[1], p[2]),
                          target, 1.0);
    }
  /* Float layers may hold samples outside 0..1 (negative chroma, say);
   * the result lies within the range. */
  for (int k = 0; k < 3; k++)
    p[k] = (float) gh_clamp (c[k], 0.0, 1.0);
}
