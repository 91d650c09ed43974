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
 * pixel against 12-18 with the branches).  pick for doubles, pickf for
 * floats. */
#if GH_HAVE_VECTOR_CLONES
#define PICK(name, type, bits)                                               \
  static inline type name (int cond, type a, type b)                         \
  {                                                                          \
    bits ua, ub, m = -(bits) cond;                                           \
                                                                             \
    memcpy (&ua, &a, sizeof ua);                                             \
    memcpy (&ub, &b, sizeof ub);                                             \
    ua = (ua & m) | (ub & ~m);                                               \
    memcpy (&a, &ua, sizeof a);                                              \
    return a;                                                                \
  }
#else
#define PICK(name, type, bits)                                               \
  static inline type name (int cond, type a, type b)                         \
  {                                                                          \
    return cond ? a : b;                                                     \
  }
#endif
PICK (pick, double, uint64_t)
PICK (pickf, float, uint32_t)

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
 * encode_byte_pow itself), the low byte of bucket[i] the byte at
 * i / ENCODE_BUCKETS.  The thresholds lie at least 1 / (255 * 12.92)
 * apart (closest in sRGB's linear segment), more than a bucket, so v's
 * byte is that one or the next: one compare, no loop whose length the
 * CPU would have to guess.
 * Within ENCODE_NEAR of a threshold encode_byte_pow answers, so the byte
 * is the pow's even where pow's last bit wavers; elsewhere the bytes rise
 * with v. */
#define ENCODE_BUCKETS 4096
#define ENCODE_NEAR 1e-9

static double first[257];
static uint32_t bucket[ENCODE_BUCKETS + 1];
static pthread_once_t encode_once = PTHREAD_ONCE_INIT;

/* bucket[i]: bits 0-7 the byte at the bucket's start, s, and where that
 * byte's two thresholds lie, in bucket widths from the bucket's start, for
 * the floats' move to read in one load: bits 8-20 the next threshold's
 * offset in 2^-12 (up to 2, where it saturates), bits 21-31 the byte's own
 * threshold's distance below the start in 2^-11 (up to 1), each rounded
 * to nearest (BUCKET_SLACK). */
#define BUCKET_NEXT(w) ((float) ((w) >> 8 & 0x1fff) * 0x1p-12f)
#define BUCKET_BELOW(w) ((float) ((w) >> 21) * 0x1p-11f)
#define BUCKET_SLACK 0x1p-12f

static uint32_t
bucket_pack (int i, int s)
{
  double next = (first[s + 1] - (double) i / ENCODE_BUCKETS) * ENCODE_BUCKETS;
  double below = ((double) i / ENCODE_BUCKETS - first[s]) * ENCODE_BUCKETS;
  uint32_t n = (uint32_t) fmin (floor (next * 0x1p12 + 0.5), 0x1fff);
  uint32_t b = (uint32_t) fmin (floor (below * 0x1p11 + 0.5), 0x7ff);

  return (uint32_t) s | n << 8 | b << 21;
}

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
      bucket[i] = bucket_pack (i, b);
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

/* The byte of v (within 0..1) in bucket e.  With s its start byte, the
 * byte is s + 1 from v >= first[s + 1] on; v is within ENCODE_NEAR of a
 * threshold where it is of first[s] or first[s + 1] (first[s + 2] lies
 * beyond the bucket by more than that, and first[s] is that far below
 * first[s + 1]). */
static inline uint8_t
encode_byte (double v, int e)
{
  int s = (int) (bucket[e] & 0xff);
  double lo = first[s], mid = first[s + 1];

  if (v - lo < ENCODE_NEAR || fabs (v - mid) < ENCODE_NEAR)
    return encode_byte_pow (v);
  return (uint8_t) (s + (v >= mid));
}

/* The span's samples decoded (GIMP 3's rule): a table load each. */
static GH_SCALAR_LOOP void
decode_u8 (const uint8_t *p, int bpp, int n, float (*c)[GH_COLOUR_SPAN])
{
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 3; k++)
      c[k][i] = gh_srgb_decode_u8[p[i * bpp + k]];
}

/* A span's keys and its samples as floats, specialised for the rule and
 * for 3 and 4 bytes a pixel.  GIMP 3's key is gh_luminance_bin_linear's,
 * step for step (the same float arithmetic, the clamp as selects), in a
 * loop the compiler vectorizes. */
static inline __attribute__ ((always_inline)) void
keys_u8 (const int linear, const uint8_t *p, const int bpp, int n,
         gh_colour_span *span, uint8_t *key)
{
  float (*c)[GH_COLOUR_SPAN] = span->c;

  if (linear)
    decode_u8 (p, bpp, n, c);
  else
    for (int i = 0; i < n; i++)
      for (int k = 0; k < 3; k++)
        c[k][i] = (float) p[i * bpp + k];
  if (! linear)
    {
      for (int i = 0; i < n; i++)
        key[i] = (uint8_t) gh_luminance_bin (p[i * bpp], p[i * bpp + 1],
                                             p[i * bpp + 2]);
      return;
    }
  for (int i = 0; i < n; i++)
    {
      float y = c[0][i] * GH_BABL_Y_WR + c[1][i] * GH_BABL_Y_WG
                + c[2][i] * GH_BABL_Y_WB;
      float t = y * 255.0f;
      int whole;

      span->y[i] = y;
      t = pickf (t > 0.0f, t, 0.0f);
      t = pickf (t < 255.0f, t, 255.0f);
      /* (int) (t + 0.5) in doubles, where t + 0.5 is exact: the integer
       * part and whether the exact fraction reaches a half. */
      whole = (int) t;
      key[i] = (uint8_t) (whole + (t - (float) whole >= 0.5f));
    }
}

void GH_VECTOR_CLONES
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

/* Pixels moved in doubles, the model itself: c[k][0..n) to bytes at
 * out[i * bpp + k].  The colour model over the columns and under
 * GIMP 3's rule each sample's clamp and bucket, in a loop without
 * branches (which the compiler vectorizes); then each sample's byte. */
static inline __attribute__ ((always_inline)) void
move_doubles (const int linear, const float (*c)[GH_COLOUR_SPAN],
              uint8_t *out, const int bpp, int n, const uint8_t *target)
{
  const double white = linear ? 1.0 : 255.0;
  double v[3][GH_COLOUR_SPAN];
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
          v[k][i] = linear ? clamp_to (d[k], 1.0)
                           : clamp_to (d[k] + 0.5, 255.0);
          e[k][i] = (int) (linear ? v[k][i] * ENCODE_BUCKETS : v[k][i]);
        }
    }
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 3; k++)
      out[i * bpp + k] = linear ? encode_byte (v[k][i], e[k][i])
                                : (uint8_t) e[k][i];
}

/* GIMP 3's rule in floats first, eight pixels to a vector where the
 * doubles take four: the model is unchanged, and a pixel is moved in
 * floats only where the floats' answer is the doubles'.  Each sample's
 * float value is within err of the doubles' value, and where it lies
 * further than that from the thresholds of its byte, no threshold lies
 * between the two and the doubles' value is too far from one for the pow
 * to decide: the same byte.  The other pixels, and those whose top
 * sample is within MOVE_NEAR of white (the two sides of the model's
 * choice), are moved again in doubles together (move_doubles).
 *
 * err counts roundings of u = 2^-24 on the exact model, the luminance y
 * carrying 3u (three positive products, two sums):
 *  - no overflow, d = c q with q = target / y: the target, y, the
 *    quotient and the product, 6u of d < 1, under 3.6e-7;
 *  - overflow, d = target + (1 - target) r with r = (c - y) / (top_c - y)
 *    (the model's chroma shrink written without the cancellation of
 *    top - target), top_c the largest sample: y's error over top_c - y,
 *    where (1 - target) y / (top_c - y) < 1 as the pixel overflows, and
 *    the roundings of the differences, the reciprocal, r, 1 - target, the
 *    product and the sum: under 4u + 9u |r|, 5.4e-7 (1 + |r|).
 * MOVE_NEAR (1 + |r|), r 0 where no sample overflows, is 3.7 times
 * either; the bucket table's rounding (BUCKET_SLACK) comes on top. */
#define MOVE_NEAR 2e-6f

/* Sample k's byte in a 4-byte pixel read as one word, and the alpha's. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define GH_BYTE_SHIFT(k) (8 * (k))
#else
#define GH_BYTE_SHIFT(k) (24 - 8 * (k))
#endif
#define GH_ALPHA_BYTE (0xffu << GH_BYTE_SHIFT (3))

/* The bucket table's words of the samples' buckets: a load each. */
static GH_SCALAR_LOOP void
bucket_words (const int (*e)[GH_COLOUR_SPAN], int n,
              uint32_t (*w)[GH_COLOUR_SPAN])
{
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < n; i++)
      w[k][i] = bucket[e[k][i]];
}

/* Each sample's bucket and where it lies in it, its bucket's word, then
 * its byte and whether it is sure: two vector loops about the lookups. */
static inline __attribute__ ((always_inline)) void
move_floats (gh_colour_span *span, uint8_t *p, const int bpp, int n,
             const uint8_t *target)
{
  float (*c)[GH_COLOUR_SPAN] = span->c;
  int byte[3][GH_COLOUR_SPAN], sure[GH_COLOUR_SPAN], redo[GH_COLOUR_SPAN];
  int e[3][GH_COLOUR_SPAN];
  uint32_t w[3][GH_COLOUR_SPAN];
  float frac[3][GH_COLOUR_SPAN], near[3][GH_COLOUR_SPAN];
  float again[3][GH_COLOUR_SPAN];
  uint8_t t[GH_COLOUR_SPAN], out[3 * GH_COLOUR_SPAN];
  int m = 0;

  for (int i = 0; i < n; i++)
    {
      float y = span->y[i], target_f = (float) target[i] / 255.0f;
      float q = target_f / y, top_c = c[0][i], top, inv;
      int over;

      top_c = pickf (top_c > c[1][i], top_c, c[1][i]);
      top_c = pickf (top_c > c[2][i], top_c, c[2][i]);
      /* Black has no hue: the gray of the new luminance. */
      top = pickf (y > 0.0f, top_c * q, target_f);
      over = top > 1.0f;
      sure[i] = fabsf (top - 1.0f) >= MOVE_NEAR;
      inv = 1.0f / (top_c - y);
      for (int k = 0; k < 3; k++)
        {
          float r = (c[k][i] - y) * inv;
          float d = pickf (over, target_f + (1.0f - target_f) * r,
                           pickf (y > 0.0f, c[k][i] * q, target_f));
          float u;

          near[k][i] = (MOVE_NEAR * (1.0f + pickf (over, fabsf (r), 0.0f)))
                       * ENCODE_BUCKETS + BUCKET_SLACK;
          d = pickf (d > 0.0f, d, 0.0f);
          d = pickf (d < 1.0f, d, 1.0f);
          /* Where d lies in its bucket, in bucket widths: exact. */
          u = d * ENCODE_BUCKETS;
          e[k][i] = (int) u;
          frac[k][i] = u - (float) e[k][i];
        }
    }
  bucket_words ((const int (*)[GH_COLOUR_SPAN]) e, n, w);
  for (int i = 0; i < n; i++)
    {
      int ok = sure[i];

      for (int k = 0; k < 3; k++)
        {
          float u = frac[k][i];

          byte[k][i] = (int) (w[k][i] & 0xff) + (u >= BUCKET_NEXT (w[k][i]));
          ok &= (u + BUCKET_BELOW (w[k][i]) >= near[k][i])
                & (fabsf (u - BUCKET_NEXT (w[k][i])) >= near[k][i]);
        }
      sure[i] = ok;
    }
  if (bpp == 4)
    for (int i = 0; i < n; i++)
      {
        /* Whole pixels, alpha kept: a loop the compiler vectorizes. */
        uint32_t px;

        memcpy (&px, p + 4 * i, 4);
        px = (px & GH_ALPHA_BYTE) | (uint32_t) byte[0][i] << GH_BYTE_SHIFT (0)
             | (uint32_t) byte[1][i] << GH_BYTE_SHIFT (1)
             | (uint32_t) byte[2][i] << GH_BYTE_SHIFT (2);
        memcpy (p + 4 * i, &px, 4);
      }
  else
    for (int i = 0; i < n; i++)
      for (int k = 0; k < 3; k++)
        p[i * bpp + k] = (uint8_t) byte[k][i];
  /* Eight at a time: few pixels are left, most groups have none. */
  for (int g = 0; g < n; g += 8)
    {
      int left = 0, end = g + 8 < n ? g + 8 : n;

      for (int i = g; i < end; i++)
        left |= ! sure[i];
      for (int i = g; left && i < end; i++)
        {
          redo[m] = i;
          m += ! sure[i];
        }
    }
  if (m == 0)
    return;
  for (int j = 0; j < m; j++)
    {
      for (int k = 0; k < 3; k++)
        again[k][j] = c[k][redo[j]];
      t[j] = target[redo[j]];
    }
  move_doubles (1, (const float (*)[GH_COLOUR_SPAN]) again, out, 3, m, t);
  for (int j = 0; j < m; j++)
    for (int k = 0; k < 3; k++)
      p[redo[j] * bpp + k] = out[j * 3 + k];
}

/* The span moved: in floats where they answer under GIMP 3's rule,
 * else in doubles. */
static inline __attribute__ ((always_inline)) void
move_span_u8 (const int linear, gh_colour_span *span, uint8_t *p,
              const int bpp, int n, const uint8_t *target)
{
  if (linear)
    move_floats (span, p, bpp, n, target);
  else
    move_doubles (0, (const float (*)[GH_COLOUR_SPAN]) span->c, p, bpp, n,
                  target);
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
