/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_api.c — the engine's shared API for hosts, against plain
 * references written here: names and parsing, the statistics table and
 * the 256 levels, the CSV bytes (also under a comma-decimal locale when
 * one is installed), gh_op on random and adversarial strips (every
 * layout, U8 and F32, both luminance rules, one pixel, padded strides),
 * the luminance-only colour model, and the CPU backend's counts under
 * GIMP 3's luminance rule. */
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include "csv.h"
#include "pixel.h"

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const gh_layout layouts[4]
  = { GH_LAYOUT_GRAY, GH_LAYOUT_GRAYA, GH_LAYOUT_RGB, GH_LAYOUT_RGBA };

static void
test_names (void)
{
  static const char *const names[GH_NUM_CHANNELS]
    = { "value", "red", "green", "blue", "alpha", "luminance" };
  gh_backend b = GH_BACKEND_CUDA;

  for (int c = 0; c < GH_NUM_CHANNELS; c++)
    {
      CHECK (!strcmp (gh_channel_name ((gh_channel) c), names[c]), "name %d",
             c);
      CHECK (gh_channel_parse (names[c]) == c, "parse %s", names[c]);
    }
  CHECK (gh_channel_name (GH_NUM_CHANNELS) == NULL
           && gh_channel_name ((gh_channel) -1) == NULL,
         "name out of range");
  CHECK (gh_channel_parse ("Value") == -1 && gh_channel_parse ("") == -1
           && gh_channel_parse (NULL) == -1,
         "bad channel names");
  CHECK (gh_backend_parse ("cpu", &b) == 0 && b == GH_BACKEND_CPU, "cpu");
  CHECK (gh_backend_parse ("auto", &b) == 0 && b == GH_BACKEND_AUTO, "auto");
  CHECK (gh_backend_parse ("cuda", &b) == 0 && b == GH_BACKEND_CUDA, "cuda");
  CHECK (gh_backend_parse ("gpu", &b) == -1 && b == GH_BACKEND_CUDA
           && gh_backend_parse (NULL, &b) == -1,
         "bad backend left alone");
  CHECK (gh_layout_channel_mask (GH_LAYOUT_GRAY) == 1u
           && gh_layout_channel_mask (GH_LAYOUT_GRAYA) == 0x11u
           && gh_layout_channel_mask (GH_LAYOUT_RGB) == 0x2fu
           && gh_layout_channel_mask (GH_LAYOUT_RGBA) == 0x3fu
           && gh_layout_channel_mask ((gh_layout) 0) == 0
           && gh_layout_channel_mask ((gh_layout) 5) == 0,
         "channel masks");
  CHECK (gh_default_binarize_channel (GH_LAYOUT_GRAY) == GH_CHANNEL_VALUE
           && gh_default_binarize_channel (GH_LAYOUT_GRAYA)
                == GH_CHANNEL_VALUE
           && gh_default_binarize_channel (GH_LAYOUT_RGB)
                == GH_CHANNEL_LUMINANCE
           && gh_default_binarize_channel (GH_LAYOUT_RGBA)
                == GH_CHANNEL_LUMINANCE,
         "default binarize channels");
}

/* A histogram of `bins` bins with random weights, for the table and
 * levels. */
static void
random_histogram (gh_histogram *h, int bins, unsigned channels)
{
  gh_histogram_reset (h, bins, 1, NULL);
  h->channels = channels;
  for (int c = 0; c < GH_NUM_CHANNELS; c++)
    for (int b = 0; b < bins && (channels & (1u << c)); b++)
      h->weight[c * bins + b] = test_below (4) ? (double) test_below (1000)
                                                   / 7.0
                                               : 0.0;
}

static void
test_table_levels (void)
{
  static const int bins[3] = { 256, 1024, 2 };
  gh_histogram h;
  double table[GH_NUM_STATS], levels[GH_NUM_LEVELS];

  gh_histogram_init (&h);
  for (int i = 0; i < 3; i++)
    {
      random_histogram (&h, bins[i], 0x2fu);
      gh_stats_table (&h, table);
      gh_histogram_levels (&h, levels);
      for (int c = 0; c < GH_NUM_CHANNELS; c++)
        {
          gh_stats s;
          double want[GH_NUM_LEVELS / GH_NUM_CHANNELS] = { 0 };
          double *row = table + c * GH_STATS_PER_CHANNEL;
          int ok = 1;
          if (h.channels & (1u << c))
            {
              gh_stats_compute (&h, (gh_channel) c, 0, bins[i] - 1, &s);
              ok = row[0] == s.count && row[1] == s.min && row[2] == s.max
                   && row[3] == s.mean && row[4] == s.median
                   && row[5] == s.std_dev && row[6] == s.otsu;
            }
          else
            for (int k = 0; k < GH_STATS_PER_CHANNEL; k++)
              ok &= row[k] == 0.0;
          CHECK (ok, "stats table, %d bins, channel %d", bins[i], c);
          /* Plain reference: the nearest level, halves up. */
          for (int k = 0; k < bins[i]; k++)
            want[(int) floor (k * 255.0 / (bins[i] - 1) + 0.5)]
              += gh_histogram_count (&h, (gh_channel) c, k);
          ok = 1;
          for (int l = 0; l < GH_LEVELS; l++)
            ok &= fabs (levels[c * GH_LEVELS + l] - want[l])
                  <= 1e-9 * (1 + want[l]);
          CHECK (ok, "levels, %d bins, channel %d", bins[i], c);
        }
    }
  gh_histogram_clear (&h);
}

/* What a stream received, as a string. */
static char *
written (void (*write) (FILE *, const void *), const void *arg)
{
  char *buf = NULL;
  size_t size = 0;
  FILE *f = open_memstream (&buf, &size);
  write (f, arg);
  fclose (f);
  return buf;
}

static void
write_number (FILE *f, const void *v)
{
  gh_csv_write_number (f, *(const double *) v);
}

static void
write_text (FILE *f, const void *t)
{
  gh_csv_write_text (f, t);
}

static void
check_number (double v, const char *want)
{
  char *got = written (write_number, &v);
  CHECK (!strcmp (got, want), "number %.17g: '%s', want '%s'", v, got, want);
  free (got);
}

static void
check_numbers (void)
{
  check_number (0.5, "0.5");
  check_number (0.1, "0.1");
  check_number (1.0 / 3.0, "0.33333333333333331");
  check_number (2.0 / 3.0, "0.66666666666666663");
  check_number (-1.0, "-1");
  check_number (123456789012.25, "123456789012.25");
  check_number (0.1 + 0.2, "0.30000000000000004");
  check_number (1e-300, "1e-300");
  check_number (0.0, "0");
}

static void
test_csv (void)
{
  static const char *const text[][2] = {
    { "plain.png", "plain.png" },
    { "a,b.png", "\"a,b.png\"" },
    { "say \"hi\"", "\"say \"\"hi\"\"\"" },
    { "two\nlines", "\"two\nlines\"" },
    { "cr\rhere", "\"cr\rhere\"" },
    { "", "" },
  };
  const char *locales[] = { "de_DE.UTF-8", "fr_FR.UTF-8", "de_DE", NULL };
  gh_histogram h;
  char *buf = NULL;
  size_t size = 0;
  FILE *f;

  check_numbers ();
  for (size_t i = 0; i < sizeof text / sizeof text[0]; i++)
    {
      char *got = written (write_text, text[i][0]);
      CHECK (!strcmp (got, text[i][1]), "text '%s' -> '%s'", text[i][0],
             got);
      free (got);
    }
  /* A comma-decimal locale, if one is installed. */
  for (int i = 0; locales[i]; i++)
    if (setlocale (LC_NUMERIC, locales[i]))
      {
        char probe[16];
        snprintf (probe, sizeof probe, "%.1f", 0.5);
        printf ("LC_NUMERIC %s writes 0.5 as %s\n", locales[i], probe);
        check_numbers ();
        setlocale (LC_NUMERIC, "C");
        break;
      }
    else if (!locales[i + 1])
      printf ("skipped: no comma-decimal locale installed\n");

  /* Whole files: a 1-pixel gray image with alpha. */
  gh_histogram_init (&h);
  gh_histogram_reset (&h, 256, 0, NULL);
  h.channels = 0x11u;
  h.unit[GH_CHANNEL_VALUE] = 255;
  h.unit[GH_CHANNEL_ALPHA] = 1;
  h.raw[GH_CHANNEL_VALUE * 256 + 7] = 85; /* a third of a pixel */
  h.raw[GH_CHANNEL_ALPHA * 256 + 85] = 1;
  f = open_memstream (&buf, &size);
  CHECK (gh_csv_write_histogram (f, &h) == 0, "histogram written");
  fclose (f);
  CHECK (!strncmp (buf, "bin,value,red,green,blue,alpha,luminance\n0,0,0,0,"
                        "0,0,0\n",
                   55),
         "histogram header: %.60s", buf);
  CHECK (strstr (buf, "\n7,0.33333333333333331,0,0,0,0,0\n")
           && strstr (buf, "\n85,0,0,0,0,1,0\n") && size > 17
           && !strcmp (buf + size - 17, "\n255,0,0,0,0,0,0\n"),
         "histogram rows");
  free (buf);
  buf = NULL;
  f = open_memstream (&buf, &size);
  gh_csv_write_stats_rows (f, "x,y.png", &h, "cpu: 2 threads");
  gh_csv_write_error_row (f, "z.png", "cannot load: \"bad\"");
  fclose (f);
  /* The value row's mean and deviation carry GIMP's rounding: only its
   * start is spelled out. */
  CHECK (!strncmp (buf, "\"x,y.png\",value,0.33333333333333331,7,7,", 39)
           && strstr (buf, ",cpu: 2 threads\n\"x,y.png\",alpha,1,85,85,85,"
                           "85,0,0,cpu: 2 threads\n"
                           "z.png,error,,,,,,,,\"cannot load: \"\"bad\"\"\"\n")
           && buf[size - 1] == '\n',
         "stats and error rows:\n%s", buf);
  free (buf);
  gh_histogram_clear (&h);
}

/* Plain reference binarize: the colour samples of pixel p white where its
 * bin in `channel` is above `t`. */
static void
test_binarize (void)
{
  for (int li = 0; li < 4; li++)
    for (int f32 = 0; f32 < 2; f32++)
      for (int lum = 0; lum < 2; lum++)
        for (int round = 0; round < 8; round++)
          {
            gh_layout layout = layouts[li];
            int bpp = (int) layout, bins = f32 ? 1024 : 256;
            size_t w = 1 + test_below (round ? 40 : 1);
            size_t h = 1 + test_below (round ? 5 : 1);
            size_t sample = f32 ? 4 : 1;
            size_t stride = w * bpp * sample + sample * test_below (3);
            unsigned mask = gh_layout_channel_mask (layout);
            gh_channel ch;
            gh_op op;
            gh_error err;
            uint8_t *buf = malloc (stride * h), *want = malloc (stride * h);
            int t = (int) test_below ((size_t) bins);

            do
              ch = (gh_channel) test_below (GH_NUM_CHANNELS);
            while (!(mask & (1u << ch)));
            for (size_t i = 0; i < stride * h; i++)
              buf[i] = (uint8_t) test_rand ();
            if (f32)
              for (size_t y = 0; y < h; y++)
                for (size_t x = 0; x < w * bpp; x++)
                  ((float *) (buf + y * stride))[x]
                    = (float) test_below (1200) / 1100.0f - 0.05f;
            memcpy (want, buf, stride * h);
            for (size_t y = 0; y < h; y++)
              for (size_t x = 0; x < w; x++)
                {
                  uint8_t *p = want + y * stride + x * bpp * sample;
                  int bin = f32 ? gh_pixel_bin_f32_with (
                                    layout, (float *) p, ch, bins,
                                    (gh_luminance) lum)
                                : gh_pixel_level_with (layout, p, ch,
                                                       (gh_luminance) lum);
                  for (int k = 0; k < (bpp >= 3 ? 3 : 1); k++)
                    if (f32)
                      ((float *) p)[k] = bin > t ? 1.0f : 0.0f;
                    else
                      p[k] = bin > t ? 255 : 0;
                }
            CHECK (gh_op_binarize (&op, layout,
                                   f32 ? GH_SAMPLE_F32 : GH_SAMPLE_U8,
                                   (gh_luminance) lum, bins, ch, t, &err)
                       == GH_OK
                     && gh_op_apply (&op, buf, w, h, stride, &err) == GH_OK
                     && !memcmp (buf, want, stride * h),
                   "binarize layout %d f32 %d rule %d channel %d", bpp, f32,
                   lum, ch);
            gh_op_clear (&op);
            free (buf);
            free (want);
          }
}

/* Equalize each channel: the op equals the tables (curves) applied by
 * hand; luminance mode keeps white, turns black into the gray of its
 * target and keeps the hue of the rest. */
static void
test_equalize (void)
{
  for (int li = 0; li < 4; li++)
    for (int lum = 0; lum < 2; lum++)
      {
        test_picture pic;
        gh_engine *e;
        gh_histogram hist;
        gh_op op;
        gh_error err;
        gh_layout layout = layouts[li];
        int bpp = (int) layout, rgb = bpp >= 3;
        uint8_t *buf;

        gh_histogram_init (&hist);
        test_picture_make (&pic, layout, 0, 33, 7, DIST_SKEWED, 0);
        pic.image.luminance = (gh_luminance) lum;
        gh_engine_create (NULL, &e, &err);
        test_engine_run (e, &pic, &hist, &err);
        buf = malloc (pic.stride * pic.height);

        /* Channels. */
        memcpy (buf, pic.pixels, pic.stride * pic.height);
        CHECK (gh_op_equalize (&op, &hist, layout, GH_SAMPLE_U8,
                               (gh_luminance) lum, GH_EQUALIZE_CHANNELS, &err)
                   == GH_OK
                 && gh_op_apply (&op, buf, pic.width, pic.height, pic.stride,
                                 &err)
                      == GH_OK,
               "equalize channels: %s", err.message);
        gh_op_clear (&op);
        {
          int ok = 1;
          for (int k = 0; k < (rgb ? 3 : 1); k++)
            {
              double counts[256];
              uint16_t table[256];
              gh_histogram_counts (&hist,
                                   rgb ? (gh_channel) (GH_CHANNEL_RED + k)
                                       : GH_CHANNEL_VALUE,
                                   counts);
              gh_equalize_table (counts, 256, table);
              for (size_t y = 0; y < pic.height; y++)
                for (size_t x = 0; x < pic.width; x++)
                  {
                    size_t at = y * pic.stride + x * bpp;
                    ok &= buf[at + k] == table[pic.pixels[at + k]];
                    if (bpp == 2 || bpp == 4)
                      ok &= buf[at + bpp - 1] == pic.pixels[at + bpp - 1];
                  }
            }
          CHECK (ok, "equalize channels by hand, layout %d rule %d", bpp,
                 lum);
        }

        /* Luminance: the colour model on chosen pixels. */
        if (rgb)
          {
            uint8_t px[4 * 4] = { 255, 255, 255, 9, 0, 0, 0, 200,
                                  200, 100, 50, 255, 10, 40, 20, 0 };
            uint8_t orig[16];
            uint16_t target;
            memcpy (orig, px, sizeof px);
            CHECK (gh_op_equalize (&op, &hist, layout, GH_SAMPLE_U8,
                                   (gh_luminance) lum, GH_EQUALIZE_LUMINANCE,
                                   &err)
                       == GH_OK
                     && gh_op_apply (&op, px, 4, 1, 4 * (size_t) bpp, &err)
                          == GH_OK,
                   "equalize luminance: %s", err.message);
            target = op.tables[0][0];
            /* In a 3-sample layout the buffer is read as 4 pixels of 3. */
            if (bpp == 4)
              {
                CHECK (px[0] == 255 && px[1] == 255 && px[2] == 255
                         && px[3] == 9,
                       "white stays white, alpha kept");
                CHECK (px[4] == px[5] && px[5] == px[6] && px[7] == 200,
                       "black becomes a gray (%d %d %d)", px[4], px[5],
                       px[6]);
                CHECK (lum || abs ((int) px[4] - (int) (target > 255
                                                          ? 255
                                                          : target))
                                <= 1,
                       "black's gray is its target %d: %d", target, px[4]);
                /* Hue: the order of the samples and, roughly, their
                 * ratios stay. */
                CHECK (px[8] >= px[9] && px[9] >= px[10]
                         && px[13] >= px[14] && px[14] >= px[12],
                       "hue kept: %d %d %d / %d %d %d", px[8], px[9],
                       px[10], px[12], px[13], px[14]);
              }
            gh_op_clear (&op);
          }
        free (buf);
        gh_histogram_clear (&hist);
        gh_engine_destroy (e);
        test_picture_free (&pic);
      }
}

/* The checks gh_op makes. */
static void
test_op_errors (void)
{
  gh_histogram h;
  gh_op op;
  gh_error err;
  uint8_t px[4] = { 0 };

  gh_histogram_init (&h);
  memset (&op, 0, sizeof op);
  CHECK (gh_op_apply (&op, px, 1, 1, 4, &err) == GH_ERR_STATE,
         "apply unprepared");
  CHECK (gh_op_equalize (&op, NULL, GH_LAYOUT_RGB, GH_SAMPLE_U8,
                         GH_LUMINANCE_PERCEPTUAL, GH_EQUALIZE_CHANNELS, &err)
           == GH_ERR_INVALID,
         "no histogram");
  gh_histogram_reset (&h, 1024, 1, NULL);
  h.channels = 0x3fu;
  CHECK (gh_op_equalize (&op, &h, GH_LAYOUT_RGB, GH_SAMPLE_U8,
                         GH_LUMINANCE_PERCEPTUAL, GH_EQUALIZE_CHANNELS, &err)
           == GH_ERR_INVALID,
         "1024 bins for U8");
  CHECK (gh_op_equalize (&op, &h, GH_LAYOUT_RGB, GH_SAMPLE_F32,
                         (gh_luminance) 7, GH_EQUALIZE_CHANNELS, &err)
           == GH_ERR_INVALID,
         "bad rule");
  CHECK (gh_op_equalize (&op, &h, GH_LAYOUT_RGB, GH_SAMPLE_F32,
                         GH_LUMINANCE_LINEAR, (gh_equalize_mode) 2, &err)
           == GH_ERR_INVALID,
         "bad mode");
  /* An empty float histogram equalizes to the identity. */
  CHECK (gh_op_equalize (&op, &h, GH_LAYOUT_RGB, GH_SAMPLE_F32,
                         GH_LUMINANCE_LINEAR, GH_EQUALIZE_LUMINANCE, &err)
           == GH_OK,
         "empty float histogram: %s", err.message);
  gh_op_clear (&op);
  CHECK (gh_op_binarize (&op, GH_LAYOUT_GRAY, GH_SAMPLE_U8,
                         GH_LUMINANCE_PERCEPTUAL, 256, GH_CHANNEL_LUMINANCE,
                         3, &err)
           == GH_ERR_INVALID,
         "gray has no luminance");
  CHECK (gh_op_binarize (&op, GH_LAYOUT_RGB, GH_SAMPLE_U8,
                         GH_LUMINANCE_PERCEPTUAL, 256, GH_CHANNEL_RED, 256,
                         &err)
           == GH_ERR_INVALID,
         "threshold bin out of range");
  CHECK (gh_op_binarize (&op, GH_LAYOUT_RGB, GH_SAMPLE_U8,
                         GH_LUMINANCE_PERCEPTUAL, 256, GH_CHANNEL_RED, 3,
                         &err)
             == GH_OK
           && gh_op_apply (&op, px, 0, 1, 3, &err) == GH_ERR_INVALID
           && gh_op_apply (&op, px, 1, 1, 2, &err) == GH_ERR_INVALID,
         "empty strip and short stride refused");
  gh_op_clear (&op);
  gh_op_clear (&op);
  gh_histogram_clear (&h);
}

/* The CPU backend and the reference agree under GIMP 3's rule, and the
 * engine refuses an unknown rule. */
static void
test_linear_counts (void)
{
  gh_options o;
  gh_engine *e;
  gh_error err;
  gh_image bad = { GH_LAYOUT_RGB, GH_SAMPLE_U8, 256, 0,
                   (gh_luminance) 2, 0 };

  gh_options_init (&o);
  o.backend = GH_BACKEND_CPU;
  gh_engine_create (&o, &e, &err);
  CHECK (gh_engine_begin (e, &bad, &err) == GH_ERR_INVALID,
         "unknown luminance rule refused");
  for (int i = 0; i < 24; i++)
    {
      test_picture p;
      if (i % 3 == 2)
        test_picture_make_f32 (&p, layouts[2 + i % 2], (int) test_below (2),
                               1 + test_below (90), 1 + test_below (9), 1024);
      else
        test_picture_random (&p, 300);
      p.image.luminance = GH_LUMINANCE_LINEAR;
      test_check_picture (e, &p, "linear luminance");
      test_picture_free (&p);
    }
  gh_engine_destroy (e);
}

int
main (void)
{
  test_seed (20261123);
  test_names ();
  test_table_levels ();
  test_csv ();
  test_binarize ();
  test_equalize ();
  test_op_errors ();
  test_linear_counts ();
  return test_summary ();
}
