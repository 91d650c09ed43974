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

#include "layout.h"
#include "pixel.h"
#include "vector_clones.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

/* GIMP_RGB_LUMINANCE: GIMP 2.10's weights in double. */
static double
perceptual_luminance (double r, double g, double b)
{
  return r * 0.22248840 + g * 0.71690369 + b * 0.06060791;
}

/* cond ? a : b without a branch where GCC vectorizes the move for AVX2
 * (GH_VECTOR_CLONES): the move's conditions (does a pixel overflow
 * white?) are ones the CPU cannot guess, and a compiler keeps a ternary
 * over arithmetic as a branch, which also stops it vectorizing the loop.
 * Elsewhere the plain ternary, cheaper in scalar code.  The x86 clone
 * without AVX2 runs the selects in scalar code (8-bit move about 20 ns a
 * pixel against 12-18 with the branches). */
static inline double
pick (int cond, double a, double b)
{
#if GH_HAVE_VECTOR_CLONES
  uint64_t ua, ub, m = -(uint64_t) cond;

  memcpy (&ua, &a, sizeof ua);
  memcpy (&ub, &b, sizeof ub);
  ua = (ua & m) | (ub & ~m);
  memcpy (&a, &ua, sizeof a);
  return a;
#else
  return cond ? a : b;
#endif
}

/* The colour model.  A pixel's colour c (white at `white`) is its
 * luminance `lum` plus a chroma offset c - lum.  Scaling c by
 * target / lum scales both, which keeps the hue and the ratios between
 * the samples.  Where that would push a sample past white the chroma is
 * shrunk instead, c = target + s (c - target) with the largest s that
 * fits: luminance and hue stay, saturation drops, and at target = white
 * the pixel is white.  Both sides of each choice are computed and one
 * kept (pick). */
static inline void
shift (double c[3], double lum, double target, double white)
{
  double top = 0, q = target / lum, s;

  for (int k = 0; k < 3; k++)
    {
      /* Black has no hue: it becomes the gray of the new luminance. */
      c[k] = pick (lum > 0, c[k] * q, target);
      top = top > c[k] ? top : c[k];
    }
  s = (white - target) / (top - target);
  for (int k = 0; k < 3; k++)
    c[k] = pick (top > white, target + s * (c[k] - target), c[k]);
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
 * encode_byte_pow itself), start[i] the byte at i / ENCODE_BUCKETS.  The
 * thresholds lie at least 1 / (255 * 12.92) apart (closest in sRGB's
 * linear segment), more than a bucket, so v's byte is start[i] or the
 * next: one compare, no loop whose length the CPU would have to guess.
 * Within ENCODE_NEAR of a threshold encode_byte_pow answers, so the byte
 * is the pow's even where pow's last bit wavers; elsewhere the bytes rise
 * with v. */
#define ENCODE_BUCKETS 4096
#define ENCODE_NEAR 1e-9

static double first[257];
static uint8_t start[ENCODE_BUCKETS + 1];
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
  for (int i = 0, b = 0; i <= ENCODE_BUCKETS; i++)
    {
      while (b < 255 && first[b + 1] <= (double) i / ENCODE_BUCKETS)
        b++;
      start[i] = (uint8_t) b;
    }
}

/* v within 0..hi, NaN to 0, as gh_clamp (v, 0, hi) but with no branch,
 * so that a loop of them vectorizes.  Under GIMP 3's rule (hi 1) black
 * and white, which the move gives often, are those bytes as the pow
 * gives them, and no bucket lies outside the table. */
static inline double
clamp_to (double v, double hi)
{
  v = pick (v > 0, v, 0);
  return pick (v < hi, v, hi);
}

/* The byte of v (within 0..1) in `bucket`.  With s = start[bucket], the
 * byte is s + 1 from v >= first[s + 1] on; v is within ENCODE_NEAR of a
 * threshold where it is of first[s] or first[s + 1] (first[s + 2] lies
 * beyond the bucket by more than that, and first[s] is that far below
 * first[s + 1]). */
static inline uint8_t
encode_byte (double v, int bucket)
{
  int s = start[bucket];
  double lo = first[s], mid = first[s + 1];

  if (v - lo < ENCODE_NEAR || fabs (v - mid) < ENCODE_NEAR)
    return encode_byte_pow (v);
  return (uint8_t) (s + (v >= mid));
}

/* A span's keys, its samples read into columns of doubles (GIMP 3's
 * rule: decoded, the same loads as the keys'), specialised for the rule
 * and for 3 and 4 bytes a pixel. */
static inline __attribute__ ((always_inline)) void
keys_u8 (const int linear, const uint8_t *p, const int bpp, int n,
         gh_colour_span *span, uint8_t *key)
{
  for (int i = 0; i < n; i++, p += bpp)
    {
      key[i] = (uint8_t) (linear ? gh_luminance_bin_linear (p[0], p[1], p[2])
                                 : gh_luminance_bin (p[0], p[1], p[2]));
      for (int k = 0; k < 3; k++)
        span->c[k][i] = linear ? gh_srgb_decode_u8[p[k]] : (double) p[k];
    }
}

void
gh_op_luminance_keys_u8 (const gh_op *op, const uint8_t *p, int n,
                         gh_colour_span *span, uint8_t *key)
{
  int linear = op->luminance == GH_LUMINANCE_LINEAR;
  int bpp = gh_layout_bpp (op->layout);

  if (linear && bpp == 4)
    keys_u8 (1, p, 4, n, span, key);
  else if (linear)
    keys_u8 (1, p, 3, n, span, key);
  else if (bpp == 4)
    keys_u8 (0, p, 4, n, span, key);
  else
    keys_u8 (0, p, 3, n, span, key);
}

/* The span moved: the colour model over its columns, and under GIMP 3's
 * rule each sample's clamp and bucket, in a loop without branches (which
 * the compiler vectorizes); then each sample's byte written back. */
static inline __attribute__ ((always_inline)) void
move_span_u8 (const int linear, gh_colour_span *span, uint8_t *p,
              const int bpp, int n, const uint8_t *target)
{
  const double white = linear ? 1.0 : 255.0;
  double (*c)[GH_COLOUR_SPAN] = span->c;
  int e[3][GH_COLOUR_SPAN]; /* GIMP 3's rule: buckets; GIMP 2.10's: bytes */

  for (int i = 0; i < n; i++)
    {
      double d[3] = { c[0][i], c[1][i], c[2][i] };
      shift (d,
             linear ? d[0] * GH_BABL_Y_WR + d[1] * GH_BABL_Y_WG
                        + d[2] * GH_BABL_Y_WB
                    : perceptual_luminance (d[0], d[1], d[2]),
             linear ? target[i] / 255.0 : target[i], white);
      /* Perceptual: floor (x + 0.5) clamped is the clamp's integer part,
       * the bounds being integers (NaN goes to 0 either way). */
      for (int k = 0; k < 3; k++)
        {
          c[k][i] = linear ? clamp_to (d[k], 1.0)
                           : clamp_to (d[k] + 0.5, 255.0);
          e[k][i] = (int) (linear ? c[k][i] * ENCODE_BUCKETS : c[k][i]);
        }
    }
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 3; k++)
      p[i * bpp + k] = linear ? encode_byte (c[k][i], e[k][i])
                              : (uint8_t) e[k][i];
}

void GH_VECTOR_CLONES
gh_op_move_luminance_u8 (const gh_op *op, gh_colour_span *span, uint8_t *p,
                         int n, const uint8_t *target)
{
  int linear = op->luminance == GH_LUMINANCE_LINEAR;
  int bpp = gh_layout_bpp (op->layout);

  if (linear)
    pthread_once (&encode_once, encode_init);
  if (linear && bpp == 4)
    move_span_u8 (1, span, p, 4, n, target);
  else if (linear)
    move_span_u8 (1, span, p, 3, n, target);
  else if (bpp == 4)
    move_span_u8 (0, span, p, 4, n, target);
  else
    move_span_u8 (0, span, p, 3, n, target);
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
