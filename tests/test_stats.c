/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_stats.c — statistics, Otsu and equalization on histograms whose
 * answers are worked out by hand (OpenCV and GIMP parity: parity_*.py). */
#include "test_util.h"

#include <math.h>
#include <string.h>

static int
near (double a, double b)
{
  return fabs (a - b) <= 1e-9 * (1.0 + fabs (b));
}

static void
one_channel (gh_histogram *h, const double *counts_times_unit, uint64_t unit)
{
  gh_histogram_reset (h, 256, 0, NULL);
  h->channels = 1u << GH_CHANNEL_VALUE;
  h->unit[GH_CHANNEL_VALUE] = unit;
  for (int i = 0; i < 256; i++)
    h->raw[i] = (uint64_t) counts_times_unit[i];
}

static void
test_basic_stats (void)
{
  double c[256] = { 0 };
  gh_histogram h;
  gh_stats s;
  gh_histogram_init (&h);
  c[10] = 1, c[20] = 2, c[30] = 1;
  one_channel (&h, c, 1);

  CHECK (gh_stats_compute (&h, GH_CHANNEL_VALUE, 0, 255, &s) == GH_OK, "ok");
  CHECK (s.count == 4 && s.pixels == 4 && s.percentile == 1.0, "count");
  CHECK (near (s.mean, 20.0), "mean %g", s.mean);
  CHECK (near (s.std_dev, sqrt (50.0)), "std-dev %g", s.std_dev);
  CHECK (s.median == 20.0 && s.min == 10.0 && s.max == 30.0,
         "median %g min %g max %g", s.median, s.min, s.max);
  CHECK (s.otsu_bin == 10 && s.otsu == 10.0, "otsu %d", s.otsu_bin);

  /* A range drops bin 10. */
  CHECK (gh_stats_compute (&h, GH_CHANNEL_VALUE, 15, 255, &s) == GH_OK, "ok");
  CHECK (s.count == 3 && s.pixels == 4 && s.percentile == 0.75, "count");
  CHECK (near (s.mean, 70.0 / 3.0), "range mean %g", s.mean);
  CHECK (s.median == 20.0 && s.min == 20.0 && s.max == 30.0, "range median");

  /* Upper median: with two pixels, at 10 and 30, GIMP says 30. */
  memset (c, 0, sizeof c);
  c[10] = 1, c[30] = 1;
  one_channel (&h, c, 1);
  gh_stats_compute (&h, GH_CHANNEL_VALUE, 0, 255, &s);
  CHECK (s.median == 30.0, "upper median %g", s.median);

  /* Weighted, in 1/255 units: bin 0 holds 382/255 pixels, bin 255 holds
   * 128/255. */
  memset (c, 0, sizeof c);
  c[0] = 382, c[255] = 128;
  one_channel (&h, c, 255);
  gh_stats_compute (&h, GH_CHANNEL_VALUE, 0, 255, &s);
  CHECK (near (s.count, 510.0 / 255.0), "weighted count %g", s.count);
  CHECK (near (s.mean, 255.0 * 128.0 / 510.0), "weighted mean %g", s.mean);
  CHECK (s.median == 0.0, "weighted median %g", s.median);

  /* Nothing in range. */
  memset (c, 0, sizeof c);
  c[200] = 3;
  one_channel (&h, c, 1);
  gh_stats_compute (&h, GH_CHANNEL_VALUE, 0, 100, &s);
  CHECK (s.count == 0 && s.mean == 0 && s.std_dev == 0 && s.median == -1
           && s.min == -1 && s.max == -1 && s.otsu_bin == 0,
         "empty range");

  CHECK (gh_stats_compute (&h, GH_CHANNEL_VALUE, 10, 5, &s) == GH_ERR_INVALID,
         "lo > hi");
  CHECK (gh_stats_compute (&h, GH_CHANNEL_VALUE, 0, 256, &s)
           == GH_ERR_INVALID,
         "hi past the bins");
  CHECK (gh_stats_compute (&h, (gh_channel) 6, 0, 255, &s) == GH_ERR_INVALID,
         "channel 6");
  gh_histogram_clear (&h);
}

/* Brute force between-class variance, first maximum. */
static int
otsu_brute (const double *c, int lo, int hi)
{
  double best = 0.0;
  int t_best = lo;
  for (int t = lo; t < hi; t++)
    {
      double w0 = 0, w1 = 0, s0 = 0, s1 = 0;
      for (int i = lo; i <= hi; i++)
        {
          if (i <= t)
            w0 += c[i], s0 += i * c[i];
          else
            w1 += c[i], s1 += i * c[i];
        }
      if (w0 == 0 || w1 == 0)
        continue;
      double v = w0 * w1 * (s0 / w0 - s1 / w1) * (s0 / w0 - s1 / w1);
      if (v > best * (1 + 1e-12))
        best = v, t_best = t;
    }
  return t_best;
}

static void
test_otsu (void)
{
  double c[256] = { 0 };
  c[50] = 10, c[200] = 10;
  /* Every t in 50..199 splits the same: the first wins. */
  CHECK (gh_otsu_threshold (c, 0, 255) == 50, "two spikes: %d",
         gh_otsu_threshold (c, 0, 255));
  memset (c, 0, sizeof c);
  c[77] = 5;
  CHECK (gh_otsu_threshold (c, 0, 255) == 0, "one level: no split");
  CHECK (gh_otsu_threshold (c, 3, 255) == 3, "one level in a range");
  memset (c, 0, sizeof c);
  CHECK (gh_otsu_threshold (c, 0, 255) == 0, "empty");

  test_seed (7);
  for (int k = 0; k < 200; k++)
    {
      int lo = (int) test_below (100), hi = 155 + (int) test_below (101);
      for (int i = 0; i < 256; i++)
        c[i] = (double) test_below (1000) * (test_below (4) != 0);
      int got = gh_otsu_threshold (c, lo, hi), want = otsu_brute (c, lo, hi);
      CHECK (got == want, "random histogram %d: otsu %d, brute force %d", k,
             got, want);
    }
}

static void
test_equalize (void)
{
  double c[256] = { 0 };
  uint16_t t[256];
  int ok = 1;
  c[10] = 2, c[20] = 3, c[30] = 5;
  gh_equalize_table (c, 256, t);
  for (int i = 0; i < 256; i++)
    {
      int want = i < 20 ? 0 : i < 30 ? 96 : 255; /* 3 * 255/8 = 95.6 */
      ok &= t[i] == want;
    }
  CHECK (ok, "hand table: t[20]=%d t[30]=%d", t[20], t[30]);

  memset (c, 0, sizeof c);
  c[42] = 9;
  gh_equalize_table (c, 256, t);
  CHECK (t[0] == 42 && t[42] == 42 && t[255] == 42, "one level stays");

  memset (c, 0, sizeof c);
  gh_equalize_table (c, 256, t);
  CHECK (t[0] == 0 && t[100] == 100 && t[255] == 255, "empty: identity");

  /* A flat histogram maps onto the full range, monotonically. */
  for (int i = 0; i < 256; i++)
    c[i] = 4;
  gh_equalize_table (c, 256, t);
  ok = t[0] == 0 && t[255] == 255;
  for (int i = 1; i < 256; i++)
    ok &= t[i] >= t[i - 1];
  CHECK (ok, "flat histogram");
}

/* The float curve: monotonic, distinct levels stay distinct, the occupied
 * range spans 0..1; binning and thresholds of float pixels. */
static void
test_float (void)
{
  double c[1024] = { 0 };
  gh_equalize_curve curve;
  float px[8] = { 0.1f, 0.2f, 0.9f, 0.5f, 0.6f, 0.6f, 0.6f, 1.0f };
  int ok = 1;
  float last = -1.0f;

  /* A smooth gradient over 0.2..0.4 plus a spike at 0.8. */
  for (int k = 205; k <= 409; k++)
    c[k] = 10;
  c[818] = 3000;
  CHECK (gh_equalize_curve_init (&curve, c, 1024) == GH_OK, "curve");
  for (int i = 0; i <= 1000; i++)
    {
      float v = 0.2f + 0.2f * (float) i / 1000.0f;
      float out = gh_equalize_curve_map (&curve, v);
      ok &= out > last;
      last = out;
    }
  CHECK (ok, "a smooth gradient stays strictly increasing");
  CHECK (gh_equalize_curve_map (&curve, 0.0f) == 0.0f
           && gh_equalize_curve_map (&curve, 1.0f) == 1.0f,
         "the occupied range spans 0..1");
  CHECK (fabs (gh_equalize_curve_map (&curve, 0.6f) - 2050.0 / 5050.0)
           < 1e-6,
         "between the gradient and the spike: %g",
         gh_equalize_curve_map (&curve, 0.6f));
  {
    gh_histogram h;
    gh_op op;
    gh_histogram_init (&h);
    CHECK (gh_histogram_reset (&h, 1024, 1, NULL) == GH_OK, "histogram");
    h.channels = 1u << GH_CHANNEL_RED | 1u << GH_CHANNEL_GREEN
                 | 1u << GH_CHANNEL_BLUE;
    for (int k = 0; k < 3; k++)
      memcpy (h.weight + (size_t) (GH_CHANNEL_RED + k) * 1024, c, sizeof c);
    CHECK (gh_op_equalize (&op, &h, GH_LAYOUT_RGBA, GH_SAMPLE_F32,
                           GH_LUMINANCE_PERCEPTUAL, GH_EQUALIZE_CHANNELS, NULL)
             == GH_OK
             && gh_op_apply (&op, px, 2, 1, sizeof px, NULL) == GH_OK
             && px[3] == 0.5f && px[7] == 1.0f,
           "alpha kept");
    gh_op_clear (&op);
    gh_histogram_clear (&h);
  }
  gh_equalize_curve_clear (&curve);
  memset (c, 0, sizeof c);
  gh_equalize_curve_init (&curve, c, 1024);
  CHECK (gh_equalize_curve_map (&curve, 0.3f) == 0.3f, "empty: identity");
  gh_equalize_curve_clear (&curve);

  CHECK (gh_pixel_bin_f32 (GH_LAYOUT_GRAY, (float[]){ 0.5f },
                           GH_CHANNEL_VALUE, 1024)
           == 512,
         "0.5 of 1023 rounds up to bin 512");
  CHECK (gh_pixel_bin_f32 (GH_LAYOUT_GRAY, (float[]){ -3.0f },
                           GH_CHANNEL_VALUE, 1024)
           == 0
           && gh_pixel_bin_f32 (GH_LAYOUT_GRAY, (float[]){ 7.0f },
                                GH_CHANNEL_VALUE, 1024)
                == 1023,
         "clamped");
  {
    float rgb[6] = { 0.2f, 0.3f, 0.4f, 0.9f, 0.1f, 0.1f };
    gh_op op;
    CHECK (gh_op_binarize (&op, GH_LAYOUT_RGB, GH_SAMPLE_F32,
                           GH_LUMINANCE_PERCEPTUAL, 1024, GH_CHANNEL_VALUE,
                           511, NULL) == GH_OK
             && gh_op_apply (&op, rgb, 2, 1, sizeof rgb, NULL) == GH_OK
             && rgb[0] == 0.0f && rgb[2] == 0.0f && rgb[3] == 1.0f
             && rgb[5] == 1.0f,
           "float threshold on value");
    gh_op_clear (&op);
  }
}

int
main (void)
{
  test_basic_stats ();
  test_otsu ();
  test_equalize ();
  test_float ();
  return test_summary ();
}
