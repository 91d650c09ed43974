/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_beyond.c — the operations beyond GIMP against plain
 * references written here from their sources' descriptions:
 *
 *   clahe:      8-bit CLAHE streamed in shuffled strips and applied in
 *               random rectangles equals a whole-image transcription of
 *               OpenCV 4.6's CLAHE_Impl::apply (explicit padded copy,
 *               per-tile histograms, clipping, LUT, interpolation) on many
 *               grids, clip limits and sizes (1x1, 2x3, not divisible by
 *               the grid, large enough for several threads), gray and
 *               each channel of RGB / RGBA (alpha
 *               kept); the luminance mode on gray-valued colour equals the
 *               gray result; a clip limit set after counting maps as
 *               one given at the start; float CLAHE over one tile without clipping is
 *               the equalization curve, and with clipping is monotone;
 *   posterize:  every layout, 8-bit and float, 1 to 4 thresholds, against
 *               a per-pixel reference; binarize is posterize with one;
 *   multi-otsu: a literal transcription of scikit-image 0.19's LUT search
 *               (float32) on random and adversarial histograms, classes 2
 *               to 5; over 1024 bins the dynamic programme reaches the
 *               exhaustive maximum;
 *   match:      8-bit tables against a transcription of numpy's interp of
 *               the cumulative quantiles; matching to itself is the
 *               identity (8-bit on occupied levels, float to 1e-5);
 *   errors:     refused parameters, rows fed twice or missing, rectangles
 *               outside the image, all leaving the pixels unchanged.
 *
 * Ends with "N passed, N failed". */
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- CLAHE: OpenCV's algorithm on one whole plane -------------------- */

static int
refl101 (int p, int len)
{
  if (len == 1)
    return 0;
  do
    p = p < 0 ? -p : len - 1 - (p - len) - 1;
  while ((unsigned) p >= (unsigned) len);
  return p;
}

static void
ref_clahe (const uint8_t *src, int w, int h, double clip, int tx, int ty,
           uint8_t *dst)
{
  int pw = w, ph = h, tw, th, area, limit = 0;
  uint8_t *pad, *lut;
  float scale, inv_tw, inv_th;

  if (w % tx || h % ty)
    {
      pw += tx - w % tx;
      ph += ty - h % ty;
    }
  pad = malloc ((size_t) pw * ph);
  lut = malloc ((size_t) tx * ty * 256);
  for (int y = 0; y < ph; y++)
    for (int x = 0; x < pw; x++)
      pad[(size_t) y * pw + x] = src[(size_t) refl101 (y, h) * w
                                     + refl101 (x, w)];
  tw = pw / tx;
  th = ph / ty;
  area = tw * th;
  scale = 255.0f / area;
  if (clip > 0)
    {
      limit = (int) (clip * area / 256);
      limit = limit < 1 ? 1 : limit;
    }
  for (int t = 0; t < tx * ty; t++)
    {
      int hist[256] = { 0 }, sum = 0;
      int ox = (t % tx) * tw, oy = (t / tx) * th;
      for (int y = 0; y < th; y++)
        for (int x = 0; x < tw; x++)
          hist[pad[(size_t) (oy + y) * pw + ox + x]]++;
      if (limit > 0)
        {
          int clipped = 0, batch, residual;
          for (int i = 0; i < 256; i++)
            if (hist[i] > limit)
              {
                clipped += hist[i] - limit;
                hist[i] = limit;
              }
          batch = clipped / 256;
          residual = clipped - batch * 256;
          for (int i = 0; i < 256; i++)
            hist[i] += batch;
          if (residual)
            {
              int step = 256 / residual > 1 ? 256 / residual : 1;
              for (int i = 0; i < 256 && residual > 0; i += step, residual--)
                hist[i]++;
            }
        }
      for (int i = 0; i < 256; i++)
        {
          long r;
          sum += hist[i];
          r = lrintf ((float) sum * scale);
          lut[t * 256 + i] = (uint8_t) (r < 0 ? 0 : r > 255 ? 255 : r);
        }
    }
  inv_tw = 1.0f / tw;
  inv_th = 1.0f / th;
  for (int y = 0; y < h; y++)
    {
      float tyf = y * inv_th - 0.5f;
      int ty1 = (int) floorf (tyf), ty2 = ty1 + 1;
      float ya = tyf - ty1, ya1 = 1.0f - ya;
      ty1 = ty1 < 0 ? 0 : ty1;
      ty2 = ty2 > ty - 1 ? ty - 1 : ty2;
      for (int x = 0; x < w; x++)
        {
          float txf = x * inv_tw - 0.5f;
          int tx1 = (int) floorf (txf), tx2 = tx1 + 1;
          float xa = txf - tx1, xa1 = 1.0f - xa;
          int v = src[(size_t) y * w + x];
          const uint8_t *l1, *l2;
          float res;
          long r;
          tx1 = tx1 < 0 ? 0 : tx1;
          tx2 = tx2 > tx - 1 ? tx - 1 : tx2;
          l1 = lut + (size_t) ty1 * tx * 256;
          l2 = lut + (size_t) ty2 * tx * 256;
          res = (l1[tx1 * 256 + v] * xa1 + l1[tx2 * 256 + v] * xa) * ya1
                + (l2[tx1 * 256 + v] * xa1 + l2[tx2 * 256 + v] * xa) * ya;
          r = lrintf (res);
          dst[(size_t) y * w + x] = (uint8_t) (r < 0 ? 0 : r > 255 ? 255 : r);
        }
    }
  free (pad);
  free (lut);
}

static void
fill (uint8_t *p, size_t n, int kind)
{
  int a = (int) test_below (256), b = (int) test_below (256);
  for (size_t i = 0; i < n; i++)
    switch (kind)
      {
      case 0: p[i] = (uint8_t) test_below (256); break;
      case 1: p[i] = (uint8_t) (test_below (4) ? a : b); break;
      case 2: p[i] = (uint8_t) a; break;
      default: p[i] = (uint8_t) ((i * 7 + i / 13) % 256); break;
      }
}

/* Streams an interleaved 8-bit image through gh_clahe in shuffled strips
 * and applies the op in random rectangles, in place.  `engine` may be
 * NULL. */
static gh_status
run_clahe (gh_engine *engine, const gh_clahe_params *p, gh_layout layout,
           gh_luminance lum, uint8_t *img, int w, int h, gh_error *err)
{
  size_t stride = (size_t) w * layout;
  int nstrips = 1 + (int) test_below (h < 5 ? (size_t) h : 5);
  int cuts[8], order[8];
  gh_clahe *c;
  gh_op op;
  gh_status st;

  st = gh_clahe_begin (engine, p, layout, GH_SAMPLE_U8, lum, 256,
                       (size_t) w, (size_t) h, &c, err);
  if (st != GH_OK)
    return st;
  cuts[0] = 0;
  for (int i = 1; i < nstrips; i++)
    cuts[i] = (int) test_below ((size_t) h);
  cuts[nstrips] = h;
  for (int i = 1; i < nstrips; i++) /* sort */
    for (int j = i; j > 1 && cuts[j] < cuts[j - 1]; j--)
      {
        int t = cuts[j];
        cuts[j] = cuts[j - 1];
        cuts[j - 1] = t;
      }
  for (int i = 0; i < nstrips; i++)
    order[i] = i;
  for (int i = nstrips - 1; i > 0; i--)
    {
      int j = (int) test_below ((size_t) i + 1), t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
  for (int i = 0; i < nstrips && st == GH_OK; i++)
    {
      int s = order[i], rows = cuts[s + 1] - cuts[s];
      if (rows > 0)
        st = gh_clahe_feed (c, img + (size_t) cuts[s] * stride,
                            (size_t) cuts[s], (size_t) rows, stride, err);
    }
  if (st == GH_OK)
    st = gh_op_clahe (&op, c, err);
  gh_clahe_destroy (c);
  if (st != GH_OK)
    return st;
  /* Rectangles: the rows in two bands, each band in two columns. */
  {
    int ys = (int) test_below ((size_t) h), xs = (int) test_below ((size_t) w);
    int yb[3] = { 0, ys, h }, xb[3] = { 0, xs, w };
    for (int a = 0; a < 2 && st == GH_OK; a++)
      for (int b = 0; b < 2 && st == GH_OK; b++)
        {
          int rh = yb[a + 1] - yb[a], rw = xb[b + 1] - xb[b];
          if (rh > 0 && rw > 0)
            {
              /* A copy with its own stride, as a host's strip would be. */
              size_t rs = (size_t) rw * layout + 3;
              uint8_t *r = malloc (rs * rh);
              for (int y = 0; y < rh; y++)
                memcpy (r + y * rs,
                        img + (size_t) (yb[a] + y) * stride
                          + (size_t) xb[b] * layout,
                        (size_t) rw * layout);
              st = gh_op_apply_rect (&op, r, (size_t) xb[b], (size_t) yb[a],
                                     (size_t) rw, (size_t) rh, rs, err);
              for (int y = 0; y < rh && st == GH_OK; y++)
                memcpy (img + (size_t) (yb[a] + y) * stride
                          + (size_t) xb[b] * layout,
                        r + y * rs, (size_t) rw * layout);
              free (r);
            }
        }
  }
  gh_op_clear (&op);
  return st;
}

static void
test_clahe_u8 (void)
{
  static const int sizes[][2] = { { 1, 1 },   { 2, 3 },   { 3, 2 },
                                  { 7, 5 },   { 64, 48 }, { 65, 47 },
                                  { 100, 1 }, { 1, 100 }, { 33, 257 },
                                  { 17, 9 },  { 701, 503 } };
  static const int grids[][2] = { { 1, 1 }, { 8, 8 }, { 3, 5 }, { 16, 16 },
                                  { 2, 7 } };
  static const double clips[] = { 0, 1, 2, 40, 0.3 };
  static const gh_layout layouts[] = { GH_LAYOUT_GRAY, GH_LAYOUT_GRAYA,
                                       GH_LAYOUT_RGB, GH_LAYOUT_RGBA };
  int cases = 0, bad = 0;
  /* Every other grid on a CPU engine's 3 threads (gh_options.cpu_threads),
   * the rest on threads of CLAHE's own. */
  gh_options o;
  gh_engine *engine = NULL;
  gh_error e_err;

  gh_options_init (&o);
  o.backend = GH_BACKEND_CPU;
  o.cpu_threads = 3;
  CHECK (gh_engine_create (&o, &engine, &e_err) == GH_OK, "a CPU engine: %s",
         e_err.message);
  for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
    for (size_t gi = 0; gi < sizeof grids / sizeof *grids; gi++)
      for (size_t ci = 0; ci < sizeof clips / sizeof *clips; ci++)
        {
          int w = sizes[si][0], h = sizes[si][1];
          gh_layout layout = layouts[test_below (4)];
          int bpp = (int) layout, colours = bpp >= 3 ? 3 : 1;
          gh_clahe_params p = { clips[ci], grids[gi][0], grids[gi][1],
                                GH_EQUALIZE_CHANNELS };
          size_t n = (size_t) w * h;
          uint8_t *img = malloc (n * bpp), *orig = malloc (n * bpp);
          uint8_t *plane = malloc (n), *want = malloc (n);
          gh_error err;
          gh_status st;

          fill (img, n * bpp, (int) test_below (4));
          memcpy (orig, img, n * bpp);
          st = run_clahe (gi % 2 ? engine : NULL, &p, layout,
                          GH_LUMINANCE_PERCEPTUAL, img, w, h, &err);
          CHECK (st == GH_OK, "CLAHE %dx%d: %s", w, h, err.message);
          for (int k = 0; k < bpp && st == GH_OK; k++)
            {
              int diff = 0;
              for (size_t i = 0; i < n; i++)
                plane[i] = orig[i * bpp + k];
              if (k < colours)
                ref_clahe (plane, w, h, p.clip_limit, p.tiles_x, p.tiles_y,
                           want);
              else
                memcpy (want, plane, n); /* alpha kept */
              for (size_t i = 0; i < n; i++)
                diff += img[i * bpp + k] != want[i];
              cases++;
              if (diff && bad++ < 5)
                printf ("CLAHE %dx%d grid %dx%d clip %g layout %d sample %d: "
                        "%d pixels differ\n",
                        w, h, p.tiles_x, p.tiles_y, p.clip_limit, bpp, k,
                        diff);
            }
          free (img);
          free (orig);
          free (plane);
          free (want);
        }
  gh_engine_destroy (engine);
  CHECK (bad == 0, "CLAHE: %d of %d planes differ from OpenCV's algorithm",
         bad, cases);
}

/* Luminance mode: gray-valued colour is CLAHE'd as its gray plane. */
static void
test_clahe_luminance (void)
{
  int w = 53, h = 41, bad = 0;
  size_t n = (size_t) w * h;
  uint8_t *img = malloc (n * 4), *plane = malloc (n), *want = malloc (n);
  gh_clahe_params p = { 2.0, 4, 3, GH_EQUALIZE_LUMINANCE };
  gh_error err;

  fill (plane, n, 0);
  for (size_t i = 0; i < n; i++)
    {
      memset (img + i * 4, plane[i], 3);
      img[i * 4 + 3] = (uint8_t) (i * 31);
    }
  CHECK (run_clahe (NULL, &p, GH_LAYOUT_RGBA, GH_LUMINANCE_PERCEPTUAL, img,
                    w, h, &err)
           == GH_OK,
         "CLAHE luminance: %s", err.message);
  ref_clahe (plane, w, h, 2.0, 4, 3, want);
  for (size_t i = 0; i < n; i++)
    bad += img[i * 4] != want[i] || img[i * 4 + 1] != want[i]
           || img[i * 4 + 2] != want[i] || img[i * 4 + 3] != (uint8_t) (i * 31);
  CHECK (bad == 0, "CLAHE luminance of gray-valued RGBA: %d pixels differ",
         bad);
  free (img);
  free (plane);
  free (want);
}

/* A clip limit changed after the tiles were counted maps as one given at
 * the start; a clip limit out of range is refused and changes nothing. */
static void
test_clahe_set_clip (void)
{
  int w = 61, h = 37, bad = 0;
  size_t n = (size_t) w * h * 3;
  uint8_t *img = malloc (n), *a = malloc (n), *b = malloc (n);
  gh_clahe_params late = { 4.0, 3, 2, GH_EQUALIZE_CHANNELS };
  gh_clahe_params given = { 1.5, 3, 2, GH_EQUALIZE_CHANNELS };
  gh_clahe *c;
  gh_op op;
  gh_error err;

  fill (img, n, 7);
  memcpy (a, img, n);
  memcpy (b, img, n);
  CHECK (gh_clahe_begin (NULL, &late, GH_LAYOUT_RGB, GH_SAMPLE_U8,
                         GH_LUMINANCE_PERCEPTUAL, 256, (size_t) w, (size_t) h,
                         &c, &err) == GH_OK
           && gh_clahe_feed (c, img, 0, (size_t) h, (size_t) w * 3, &err)
                == GH_OK
           && gh_clahe_set_clip_limit (c, given.clip_limit, &err) == GH_OK
           && gh_clahe_set_clip_limit (c, -1.0, &err) == GH_ERR_INVALID
           && gh_op_clahe (&op, c, &err) == GH_OK,
         "CLAHE with its clip limit changed: %s", err.message);
  CHECK (gh_op_apply (&op, a, (size_t) w, (size_t) h, (size_t) w * 3, &err)
           == GH_OK,
         "CLAHE with its clip limit changed, applied: %s", err.message);
  gh_op_clear (&op);
  gh_clahe_destroy (c);
  CHECK (run_clahe (NULL, &given, GH_LAYOUT_RGB, GH_LUMINANCE_PERCEPTUAL, b,
                    w, h, &err) == GH_OK,
         "CLAHE at clip 1.5: %s", err.message);
  for (size_t i = 0; i < n; i++)
    bad += a[i] != b[i];
  CHECK (bad == 0, "CLAHE clip limit changed after counting: %d samples "
         "differ from the clip limit given at the start", bad);
  free (img);
  free (a);
  free (b);
}

/* Float CLAHE: one tile, no clipping, is the equalization curve; with
 * clipping, one tile's mapping rises with the value. */
static void
test_clahe_f32 (void)
{
  int w = 40, h = 30, bins = 1024;
  size_t n = (size_t) w * h;
  float *img = malloc (n * sizeof *img), *orig = malloc (n * sizeof *img);
  double *counts = calloc ((size_t) bins, sizeof *counts);
  gh_equalize_curve curve;
  double worst = 0;
  int falls = 0;

  for (int clip = 0; clip < 2; clip++)
    {
      gh_clahe_params p = { clip ? 2.0 : 0.0, 1, 1, GH_EQUALIZE_CHANNELS };
      gh_clahe *c;
      gh_op op;
      gh_error err;
      for (size_t i = 0; i < n; i++)
        orig[i] = img[i] = (float) (test_below (100000) / 99999.0
                                    * test_below (100000) / 99999.0);
      CHECK (gh_clahe_begin (NULL, &p, GH_LAYOUT_GRAY, GH_SAMPLE_F32,
                             GH_LUMINANCE_PERCEPTUAL, bins, (size_t) w,
                             (size_t) h, &c, &err)
                 == GH_OK
               && gh_clahe_feed (c, img, 0, (size_t) h,
                                 (size_t) w * sizeof (float), &err)
                    == GH_OK
               && gh_op_clahe (&op, c, &err) == GH_OK
               && gh_op_apply (&op, img, (size_t) w, (size_t) h,
                               (size_t) w * sizeof (float), &err)
                    == GH_OK,
             "float CLAHE: %s", err.message);
      gh_clahe_destroy (c);
      gh_op_clear (&op);
      if (!clip)
        {
          memset (counts, 0, (size_t) bins * sizeof *counts);
          for (size_t i = 0; i < n; i++)
            counts[gh_pixel_bin_f32 (GH_LAYOUT_GRAY, &orig[i],
                                     GH_CHANNEL_VALUE, bins)]++;
          gh_equalize_curve_init (&curve, counts, bins);
          for (size_t i = 0; i < n; i++)
            {
              double d = fabs (img[i]
                               - gh_equalize_curve_map (&curve, orig[i]));
              worst = d > worst ? d : worst;
            }
          gh_equalize_curve_clear (&curve);
        }
      else
        for (size_t i = 0; i < n; i++)
          for (size_t j = 0; j < n; j += 37)
            falls += orig[i] < orig[j] && img[i] > img[j];
    }
  CHECK (worst < 1e-6, "float CLAHE over one tile is %g from the curve",
         worst);
  CHECK (falls == 0, "float CLAHE with clipping: %d pairs out of order",
         falls);
  free (img);
  free (orig);
  free (counts);
}

/* ---- posterize ------------------------------------------------------- */

static void
test_posterize (void)
{
  int bad = 0, cases = 0;

  for (int t = 0; t < 300; t++)
    {
      gh_layout layout = (gh_layout) (1 + test_below (4));
      int f32 = test_below (3) == 0, bins = f32 ? 1024 : 256;
      unsigned mask = gh_layout_channel_mask (layout);
      gh_channel ch;
      int n = 1 + (int) test_below (4), th[4], bpp = (int) layout;
      gh_luminance lum = (gh_luminance) test_below (2);
      test_picture pic;
      gh_op op;
      gh_error err;
      uint8_t *orig;
      size_t bytes;

      do
        ch = (gh_channel) test_below (GH_NUM_CHANNELS);
      while (!(mask & (1u << ch)));
      for (int i = 0; i < n; i++)
        th[i] = (i ? th[i - 1] + 1 : 0)
                + (int) test_below ((size_t) (bins - (i ? th[i - 1] + 1 : 0)
                                              - (n - i)));
      if (f32)
        test_picture_make_f32 (&pic, layout, 0, 1 + test_below (30),
                               1 + test_below (30), bins);
      else
        test_picture_make (&pic, layout, 0, 1 + test_below (30),
                           1 + test_below (30), (test_dist) test_below (DIST_COUNT), 0);
      bytes = pic.stride * pic.height;
      orig = malloc (bytes);
      memcpy (orig, pic.pixels, bytes);
      CHECK (gh_op_posterize (&op, layout, f32 ? GH_SAMPLE_F32 : GH_SAMPLE_U8,
                              lum, bins, ch, n, th, &err)
                 == GH_OK
               && gh_op_apply (&op, pic.pixels, pic.width, pic.height,
                               pic.stride, &err)
                    == GH_OK,
             "posterize: %s", err.message);
      gh_op_clear (&op);
      for (size_t y = 0; y < pic.height; y++)
        for (size_t x = 0; x < pic.width; x++)
          {
            size_t at = y * pic.stride;
            int cls = 0, b;
            if (f32)
              {
                const float *o = (const float *) (orig + at) + x * bpp;
                const float *p = (const float *) (pic.pixels + at) + x * bpp;
                b = gh_pixel_bin_f32_with (layout, o, ch, bins, lum);
                while (cls < n && b > th[cls])
                  cls++;
                for (int k = 0; k < bpp; k++)
                  {
                    float want = k < (bpp >= 3 ? 3 : 1) ? (float) cls / n
                                                        : o[k];
                    bad += memcmp (&p[k], &want, sizeof want) != 0;
                  }
              }
            else
              {
                const uint8_t *o = orig + at + x * bpp;
                const uint8_t *p = pic.pixels + at + x * bpp;
                b = gh_pixel_level_with (layout, o, ch, lum);
                while (cls < n && b > th[cls])
                  cls++;
                for (int k = 0; k < bpp; k++)
                  bad += p[k] != (k < (bpp >= 3 ? 3 : 1)
                                    ? (int) floor (cls * 255.0 / n + 0.5)
                                    : o[k]);
              }
            cases++;
          }
      free (orig);
      test_picture_free (&pic);
    }
  CHECK (bad == 0, "posterize: %d samples of %d pixels differ", bad, cases);

  /* Binarize is posterize with one threshold. */
  {
    test_picture a;
    gh_op op1, op2;
    gh_error err;
    int th = 77;
    uint8_t *b;
    test_picture_make (&a, GH_LAYOUT_RGBA, 0, 31, 17, DIST_UNIFORM, 0);
    b = malloc (a.stride * a.height);
    memcpy (b, a.pixels, a.stride * a.height);
    gh_op_binarize (&op1, GH_LAYOUT_RGBA, GH_SAMPLE_U8,
                    GH_LUMINANCE_PERCEPTUAL, 256, GH_CHANNEL_LUMINANCE, th,
                    &err);
    gh_op_posterize (&op2, GH_LAYOUT_RGBA, GH_SAMPLE_U8,
                     GH_LUMINANCE_PERCEPTUAL, 256, GH_CHANNEL_LUMINANCE, 1,
                     &th, &err);
    gh_op_apply (&op1, a.pixels, a.width, a.height, a.stride, &err);
    gh_op_apply (&op2, b, a.width, a.height, a.stride, &err);
    CHECK (memcmp (a.pixels, b, a.stride * a.height) == 0,
           "binarize differs from posterize with one threshold");
    gh_op_clear (&op1);
    gh_op_clear (&op2);
    free (b);
    test_picture_free (&a);
  }
}

/* ---- multi-level Otsu ------------------------------------------------ */

/* scikit-image 0.19's _multiotsu.pyx, LUT version, transcribed. */
typedef struct {
  int n, k, cur[4], best[4];
  float *var, sigma_max;
} sk;

static float
sk_get (const sk *s, int i, int j)
{
  return s->var[(size_t) i * (2 * s->n - i + 1) / 2 + j - i];
}

static void
sk_search (sk *s, int hist_idx, int thresh_idx)
{
  if (thresh_idx < s->k)
    {
      for (int idx = hist_idx; idx < s->n - s->k + thresh_idx; idx++)
        {
          s->cur[thresh_idx] = idx;
          sk_search (s, idx + 1, thresh_idx + 1);
        }
      return;
    }
  if (s->k < 1)  /* never (classes >= 2); tells GCC 15 cur[k - 1] is in bounds */
    return;
  {
    float sigma = sk_get (s, 0, s->cur[0])
                  + sk_get (s, s->cur[s->k - 1] + 1, s->n - 1);
    for (int idx = 0; idx < s->k - 1; idx++)
      sigma += sk_get (s, s->cur[idx] + 1, s->cur[idx + 1]);
    if (sigma > s->sigma_max)
      {
        s->sigma_max = sigma;
        memcpy (s->best, s->cur, sizeof s->cur);
      }
  }
}

/* threshold_multiotsu on a histogram of levels 0..255; -1: ValueError. */
static int
sk_multiotsu (const double *counts, int classes, int *out)
{
  int lo = 0, hi = 255, nvalues = 0;
  double total = 0;
  float prob[256], zeroth[256], first[256];
  sk s;

  for (int i = 0; i < 256; i++)
    total += counts[i];
  while (counts[lo] == 0)
    lo++;
  while (counts[hi] == 0)
    hi--;
  memset (&s, 0, sizeof s);
  s.n = hi - lo + 1;
  s.k = classes - 1;
  for (int i = 0; i < s.n; i++)
    {
      prob[i] = (float) (counts[lo + i] / total);
      nvalues += prob[i] != 0;
    }
  if (nvalues < classes)
    return -1;
  if (nvalues == classes)
    {
      for (int i = 0, t = 0; i < s.n; i++)
        if (prob[i] != 0 && t < s.k)
          out[t++] = lo + i;
      return 0;
    }
  s.var = calloc ((size_t) s.n * (s.n + 1) / 2, sizeof (float));
  zeroth[0] = prob[0];
  first[0] = prob[0];
  for (int i = 1; i < s.n; i++)
    {
      zeroth[i] = zeroth[i - 1] + prob[i];
      first[i] = first[i - 1] + i * prob[i];
      if (zeroth[i] > 0)
        s.var[i] = (first[i] * first[i]) / zeroth[i];
    }
  for (int i = 1, idx = s.n; i < s.n; i++)
    for (int j = i; j < s.n; j++, idx++)
      {
        float z = zeroth[j] - zeroth[i - 1];
        if (z > 0)
          {
            float f = first[j] - first[i - 1];
            s.var[idx] = (f * f) / z;
          }
      }
  sk_search (&s, 0, 0);
  for (int t = 0; t < s.k; t++)
    out[t] = lo + s.best[t];
  free (s.var);
  return 0;
}

static void
random_histogram_full (double *counts, int kind)
{
  memset (counts, 0, 256 * sizeof *counts);
  switch (kind)
    {
    case 0: /* uniform-ish over a random range */
      {
        int a = (int) test_below (200), b = a + 20 + (int) test_below (36);
        for (int i = a; i < b; i++)
          counts[i] = (double) test_below (50);
        counts[a] += 1;
        break;
      }
    case 1: /* few distinct levels */
      for (int i = 0, n = 2 + (int) test_below (6); i < n; i++)
        counts[test_below (256)] += 1 + (double) test_below (5);
      break;
    case 2: /* symmetric: ties between mirror-image splits */
      {
        int c = 60 + (int) test_below (100), r = 3 + (int) test_below (20);
        for (int i = 0; i <= r; i++)
          counts[c - i] = counts[c + i] = (double) (1 + test_below (3));
        break;
      }
    default: /* equal counts at evenly spaced levels */
      for (int i = 0, step = 3 + (int) test_below (20); i * step < 256; i++)
        counts[i * step] = 7;
      break;
    }
}

/* A histogram within levels 0..span-1 shifted at random (exhaustive
 * searches over wide ranges with 5 classes take a second each). */
static void
random_histogram (double *counts, int kind, int span)
{
  double tmp[256];
  int shift;

  random_histogram_full (tmp, kind);
  memset (counts, 0, 256 * sizeof *counts);
  shift = (int) test_below ((size_t) (256 - span + 1));
  for (int i = 0; i < 256; i++)
    counts[shift + i * span / 256] += tmp[i];
}

static void
test_multi_otsu (void)
{
  int bad = 0, cases = 0;
  double counts[256];
  gh_error err;

  for (int t = 0; t < 1500; t++)
    {
      int classes = 2 + (int) test_below (4), want[4], got[4];
      int ref, st;
      random_histogram (counts, (int) test_below (4),
                        classes == 5 ? 48 : classes == 4 ? 128 : 256);
      ref = sk_multiotsu (counts, classes, want);
      st = gh_multi_otsu (counts, 256, classes, got, &err);
      cases++;
      if (ref < 0 ? st == GH_OK
                  : st != GH_OK
                      || memcmp (want, got, (classes - 1) * sizeof (int)))
        {
          if (bad++ < 5)
            printf ("multi-otsu case %d, %d classes: %s\n", t, classes,
                    st == GH_OK ? "thresholds differ" : err.message);
        }
    }
  CHECK (bad == 0, "multi-otsu: %d of %d cases differ from scikit-image's",
         bad, cases);

  /* All 256 levels, 5 classes: the largest exhaustive search. */
  {
    int want[4], got[4];
    for (int i = 0; i < 256; i++)
      counts[i] = (double) (1 + test_below (1000));
    sk_multiotsu (counts, 5, want);
    CHECK (gh_multi_otsu (counts, 256, 5, got, &err) == GH_OK
             && !memcmp (want, got, sizeof want),
           "multi-otsu over 256 levels, 5 classes");
  }

  /* Errors: too few levels, bad class counts. */
  memset (counts, 0, sizeof counts);
  counts[40] = 100;
  CHECK (gh_multi_otsu (counts, 256, 2, (int[4]){ 0 }, &err) == GH_ERR_INVALID
           && strstr (err.message, "only 1 different level"),
         "one level: %s", err.message);
  counts[41] = 1;
  counts[200] = 1;
  {
    int got[4];
    CHECK (gh_multi_otsu (counts, 256, 3, got, &err) == GH_OK && got[0] == 40
             && got[1] == 41,
           "three levels, three classes: the levels but the last");
  }
  CHECK (gh_multi_otsu (counts, 256, 6, (int[5]){ 0 }, &err) == GH_ERR_INVALID,
         "6 classes refused");
  CHECK (gh_multi_otsu (counts, 256, 1, (int[4]){ 0 }, &err) == GH_ERR_INVALID,
         "1 class refused");

  /* Over 1024 bins: the programme's maximum is the exhaustive one. */
  {
    double *c = calloc (1024, sizeof *c);
    int got[2], worse = 0;
    for (int i = 0; i < 1024; i++)
      c[i] = (double) test_below (5) * (i % 3 == 0);
    CHECK (gh_multi_otsu (c, 1024, 3, got, &err) == GH_OK,
           "1024 bins: %s", err.message);
    {
      /* Between-class sums in double over the cropped range. */
      int lo = 0, hi = 1023;
      double total = 0, best = -1, mine;
      double *P, *S;
      while (c[lo] == 0)
        lo++;
      while (c[hi] == 0)
        hi--;
      P = calloc (1025, sizeof *P);
      S = calloc (1025, sizeof *S);
      for (int i = lo; i <= hi; i++)
        total += c[i];
      for (int i = lo; i <= hi; i++)
        {
          P[i - lo + 1] = P[i - lo] + c[i] / total;
          S[i - lo + 1] = S[i - lo] + (i - lo) * c[i] / total;
        }
#define CLS(a, b) (P[(b) + 1] - P[a] > 0 ? (S[(b) + 1] - S[a]) * (S[(b) + 1] - S[a]) / (P[(b) + 1] - P[a]) : 0)
      for (int a = 1; a < hi - lo - 1; a++)
        for (int b = a + 1; b < hi - lo; b++)
          {
            double v = CLS (1, a) + CLS (a + 1, b) + CLS (b + 1, hi - lo);
            best = v > best ? v : best;
          }
      mine = CLS (1, got[0] - lo) + CLS (got[0] - lo + 1, got[1] - lo)
             + CLS (got[1] - lo + 1, hi - lo);
#undef CLS
      worse = mine < best * (1 - 1e-5);
      free (P);
      free (S);
    }
    CHECK (!worse, "1024 bins: the programme missed the maximum");
    free (c);
  }
}

/* ---- histogram matching ---------------------------------------------- */

static double
np_interp (double x, const double *xp, const double *fp, int n)
{
  int j;
  if (x < xp[0])
    return fp[0];
  if (x >= xp[n - 1])
    return fp[n - 1];
  for (j = 0; !(xp[j] <= x && x < xp[j + 1]); j++)
    ;
  if (xp[j] == x)
    return fp[j];
  return (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]) * (x - xp[j]) + fp[j];
}

static gh_status
histogram_of (gh_layout layout, gh_sample sample, const void *pixels,
              size_t w, size_t h, size_t stride, int bins, gh_histogram *out)
{
  gh_options o;
  gh_engine *e;
  gh_image im = { layout, sample, bins, 0, GH_LUMINANCE_PERCEPTUAL, 0 };
  gh_piece piece = { pixels, w, h, stride, NULL, 0 };
  gh_error err;
  gh_status st;
  gh_options_init (&o);
  o.backend = GH_BACKEND_CPU;
  if ((st = gh_engine_create (&o, &e, &err)) != GH_OK)
    return st;
  st = gh_engine_begin (e, &im, &err);
  if (st == GH_OK)
    st = gh_engine_feed (e, &piece, &err);
  if (st == GH_OK)
    st = gh_engine_finish (e, out, &err);
  gh_engine_destroy (e);
  return st;
}

static void
test_match (void)
{
  int bad = 0;

  for (int t = 0; t < 60; t++)
    {
      gh_layout sl = test_below (2) ? GH_LAYOUT_RGB : GH_LAYOUT_GRAY;
      gh_layout rl = test_below (2) ? GH_LAYOUT_RGB : GH_LAYOUT_GRAY;
      int sb = (int) sl, rb = (int) rl, sw = 1 + (int) test_below (40),
          sh = 1 + (int) test_below (40), rw = 1 + (int) test_below (40),
          rh = 1 + (int) test_below (40);
      size_t sn = (size_t) sw * sh, rn = (size_t) rw * rh;
      uint8_t *src = malloc (sn * sb), *orig = malloc (sn * sb),
              *ref = malloc (rn * rb);
      gh_histogram hs, hr;
      gh_op op;
      gh_error err;

      fill (src, sn * sb, (int) test_below (4));
      fill (ref, rn * rb, (int) test_below (4));
      memcpy (orig, src, sn * sb);
      gh_histogram_init (&hs);
      gh_histogram_init (&hr);
      histogram_of (sl, GH_SAMPLE_U8, src, sw, sh, (size_t) sw * sb, 256,
                    &hs);
      histogram_of (rl, GH_SAMPLE_U8, ref, rw, rh, (size_t) rw * rb, 256,
                    &hr);
      CHECK (gh_op_match (&op, &hs, &hr, sl, GH_SAMPLE_U8,
                          GH_LUMINANCE_PERCEPTUAL, GH_EQUALIZE_CHANNELS, &err)
                 == GH_OK
               && gh_op_apply (&op, src, sw, sh, (size_t) sw * sb, &err)
                    == GH_OK,
             "match: %s", err.message);
      gh_op_clear (&op);
      for (int k = 0; k < sb; k++)
        {
          /* The reference plane: the same channel, a gray reference's
           * gray, or a colour reference's luminance for a gray source. */
          double sc[256] = { 0 }, rc[256] = { 0 }, xp[256], fp[256], cum = 0;
          int n = 0;
          for (size_t i = 0; i < sn; i++)
            sc[orig[i * sb + k]]++;
          for (size_t i = 0; i < rn; i++)
            rc[rb == 1 ? ref[i]
               : sb == 3 ? ref[i * 3 + k]
                         : gh_pixel_level_with (GH_LAYOUT_RGB, ref + i * 3,
                                                GH_CHANNEL_LUMINANCE,
                                                GH_LUMINANCE_PERCEPTUAL)]++;
          for (int v = 0; v < 256; v++)
            if (rc[v] > 0)
              {
                cum += rc[v];
                xp[n] = cum / (double) rn;
                fp[n++] = v;
              }
          for (size_t i = 0; i < sn; i++)
            {
              int v = orig[i * sb + k];
              double below = 0;
              for (int u = 0; u <= v; u++)
                below += sc[u];
              bad += src[i * sb + k]
                     != (int) floor (np_interp (below / (double) sn, xp, fp,
                                                n)
                                     + 0.5);
            }
        }
      gh_histogram_clear (&hs);
      gh_histogram_clear (&hr);
      free (src);
      free (orig);
      free (ref);
    }
  CHECK (bad == 0, "match: %d samples differ from numpy's interp", bad);

  /* Matching to itself: the identity (8-bit, on the levels present; float
   * to 1e-5). */
  {
    test_picture p;
    gh_histogram h;
    gh_op op;
    gh_error err;
    uint8_t *orig;
    int moved = 0;
    double worst = 0;

    gh_histogram_init (&h);
    test_picture_make (&p, GH_LAYOUT_RGB, 0, 37, 23, DIST_UNIFORM, 1);
    orig = malloc (p.stride * p.height);
    memcpy (orig, p.pixels, p.stride * p.height);
    histogram_of (GH_LAYOUT_RGB, GH_SAMPLE_U8, p.pixels, p.width, p.height,
                  p.stride, 256, &h);
    gh_op_match (&op, &h, &h, GH_LAYOUT_RGB, GH_SAMPLE_U8,
                 GH_LUMINANCE_PERCEPTUAL, GH_EQUALIZE_CHANNELS, &err);
    gh_op_apply (&op, p.pixels, p.width, p.height, p.stride, &err);
    gh_op_clear (&op);
    for (size_t y = 0; y < p.height; y++)
      moved += memcmp (p.pixels + y * p.stride, orig + y * p.stride,
                       p.width * 3)
               != 0;
    CHECK (moved == 0, "8-bit match to itself moved %d rows", moved);
    free (orig);
    test_picture_free (&p);

    {
      size_t n = 50 * 40;
      float *f = malloc (n * sizeof *f), *fo = malloc (n * sizeof *f);
      for (size_t i = 0; i < n; i++)
        fo[i] = f[i] = (float) (test_below (1 << 20) / (double) (1 << 20));
      histogram_of (GH_LAYOUT_GRAY, GH_SAMPLE_F32, f, 50, 40, 50 * 4, 1024,
                    &h);
      CHECK (gh_op_match (&op, &h, &h, GH_LAYOUT_GRAY, GH_SAMPLE_F32,
                          GH_LUMINANCE_PERCEPTUAL, GH_EQUALIZE_CHANNELS, &err)
                 == GH_OK
               && gh_op_apply (&op, f, 50, 40, 50 * 4, &err) == GH_OK,
             "float match: %s", err.message);
      gh_op_clear (&op);
      for (size_t i = 0; i < n; i++)
        worst = fabs (f[i] - fo[i]) > worst ? fabs (f[i] - fo[i]) : worst;
      CHECK (worst < 1e-5, "float match to itself moved a value by %g",
             worst);
      free (f);
      free (fo);
    }

    /* An empty reference (all transparent) is refused. */
    {
      uint8_t clear[4 * 6] = { 0 };
      gh_histogram e;
      gh_histogram_init (&e);
      histogram_of (GH_LAYOUT_RGBA, GH_SAMPLE_U8, clear, 3, 2, 12, 256, &e);
      CHECK (gh_op_match (&op, &e, &e, GH_LAYOUT_RGBA, GH_SAMPLE_U8,
                          GH_LUMINANCE_PERCEPTUAL, GH_EQUALIZE_CHANNELS, &err)
                 == GH_ERR_INVALID
               && strstr (err.message, "no pixels"),
             "an empty reference is refused: %s", err.message);
      gh_histogram_clear (&e);
    }
    gh_histogram_clear (&h);
  }
}

/* ---- errors ---------------------------------------------------------- */

static void
test_errors (void)
{
  uint8_t px[12 * 5], keep[12 * 5];
  gh_clahe_params good = { 2.0, 2, 2, GH_EQUALIZE_CHANNELS }, p;
  gh_clahe *c;
  gh_op op;
  gh_error err;

  for (size_t i = 0; i < sizeof px; i++)
    px[i] = (uint8_t) (i * 37);
  memcpy (keep, px, sizeof px);
  p = good;
  p.tiles_x = 0;
  CHECK (gh_clahe_begin (NULL, &p, GH_LAYOUT_RGB, GH_SAMPLE_U8,
                         GH_LUMINANCE_PERCEPTUAL, 256, 4, 5, &c, &err)
           == GH_ERR_INVALID,
         "0 tiles refused");
  p.tiles_x = GH_CLAHE_MAX_TILES + 1;
  CHECK (gh_clahe_begin (NULL, &p, GH_LAYOUT_RGB, GH_SAMPLE_U8,
                         GH_LUMINANCE_PERCEPTUAL, 256, 4, 5, &c, &err)
           == GH_ERR_INVALID,
         "257 tiles refused");
  p = good;
  p.clip_limit = -1;
  CHECK (gh_clahe_begin (NULL, &p, GH_LAYOUT_RGB, GH_SAMPLE_U8,
                         GH_LUMINANCE_PERCEPTUAL, 256, 4, 5, &c, &err)
           == GH_ERR_INVALID,
         "a negative clip limit refused");
  p.clip_limit = NAN;
  CHECK (gh_clahe_begin (NULL, &p, GH_LAYOUT_RGB, GH_SAMPLE_U8,
                         GH_LUMINANCE_PERCEPTUAL, 256, 4, 5, &c, &err)
           == GH_ERR_INVALID,
         "a NaN clip limit refused");
  p = good;
  p.mode = (gh_equalize_mode) 2;
  CHECK (gh_clahe_begin (NULL, &p, GH_LAYOUT_RGB, GH_SAMPLE_U8,
                         GH_LUMINANCE_PERCEPTUAL, 256, 4, 5, &c, &err)
           == GH_ERR_INVALID,
         "mode 2 refused");
  CHECK (gh_clahe_begin (NULL, &good, GH_LAYOUT_RGB, GH_SAMPLE_U8,
                         GH_LUMINANCE_PERCEPTUAL, 1024, 4, 5, &c, &err)
           == GH_ERR_INVALID,
         "1024 bins on 8-bit refused");
  CHECK (gh_clahe_begin (NULL, &good, GH_LAYOUT_RGB, GH_SAMPLE_U8,
                         GH_LUMINANCE_PERCEPTUAL, 256, 0, 5, &c, &err)
           == GH_ERR_INVALID,
         "an empty image refused");
  CHECK (gh_clahe_begin (NULL, &good, GH_LAYOUT_RGB, GH_SAMPLE_U8,
                         GH_LUMINANCE_PERCEPTUAL, 256, 4, 5, &c, &err)
           == GH_OK,
         "CLAHE begin: %s", err.message);
  CHECK (gh_clahe_feed (c, px, 4, 2, 12, &err) == GH_ERR_INVALID,
         "rows past the image refused");
  CHECK (gh_clahe_feed (c, px, 0, 2, 11, &err) == GH_ERR_INVALID,
         "a short stride refused");
  CHECK (gh_clahe_feed (c, px, 0, 2, 12, &err) == GH_OK, "feed: %s",
         err.message);
  CHECK (gh_clahe_feed (c, px, 1, 2, 12, &err) == GH_ERR_STATE,
         "a row fed twice refused");
  CHECK (gh_op_clahe (&op, c, &err) == GH_ERR_STATE
           && strstr (err.message, "2 of the image's 5 rows"),
         "missing rows refused: %s", err.message);
  CHECK (gh_clahe_feed (c, px + 24, 2, 3, 12, &err) == GH_OK, "feed: %s",
         err.message);
  CHECK (gh_op_clahe (&op, c, &err) == GH_OK, "op: %s", err.message);
  gh_clahe_destroy (c);
  CHECK (gh_op_apply_rect (&op, px, 2, 0, 3, 5, 12, &err) == GH_ERR_INVALID,
         "a rectangle past the right edge refused");
  CHECK (gh_op_apply_rect (&op, px, 0, 3, 4, 3, 12, &err) == GH_ERR_INVALID,
         "a rectangle past the bottom refused");
  CHECK (gh_op_apply_rect (&op, NULL, 0, 0, 4, 5, 12, &err)
           == GH_ERR_INVALID,
         "NULL pixels refused");
  CHECK (memcmp (px, keep, sizeof px) == 0, "refusals left pixels alone");
  gh_op_clear (&op);

  CHECK (gh_op_posterize (&op, GH_LAYOUT_GRAY, GH_SAMPLE_U8,
                          GH_LUMINANCE_PERCEPTUAL, 256, GH_CHANNEL_VALUE, 2,
                          (int[]){ 50, 50 }, &err)
           == GH_ERR_INVALID,
         "equal thresholds refused");
  CHECK (gh_op_posterize (&op, GH_LAYOUT_GRAY, GH_SAMPLE_U8,
                          GH_LUMINANCE_PERCEPTUAL, 256, GH_CHANNEL_VALUE, 5,
                          (int[]){ 1, 2, 3, 4, 5 }, &err)
           == GH_ERR_INVALID,
         "five thresholds refused");
  CHECK (gh_op_posterize (&op, GH_LAYOUT_GRAY, GH_SAMPLE_U8,
                          GH_LUMINANCE_PERCEPTUAL, 256, GH_CHANNEL_RED, 1,
                          (int[]){ 1 }, &err)
           == GH_ERR_INVALID,
         "red of gray refused");
  CHECK (gh_op_posterize (&op, GH_LAYOUT_GRAY, GH_SAMPLE_U8,
                          GH_LUMINANCE_PERCEPTUAL, 256, GH_CHANNEL_VALUE, 1,
                          (int[]){ 256 }, &err)
           == GH_ERR_INVALID,
         "threshold 256 refused");
}

int
main (void)
{
  test_seed (1717);
  test_clahe_u8 ();
  test_clahe_luminance ();
  test_clahe_set_clip ();
  test_clahe_f32 ();
  test_posterize ();
  test_multi_otsu ();
  test_match ();
  test_errors ();
  return test_summary ();
}
