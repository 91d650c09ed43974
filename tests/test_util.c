/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_util.c — functions the tests share (test_util.h). */
#include "test_util.h"

#include "reference.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int test_passed, test_failed;
static uint64_t state = 88172645463325252ull;

int
test_summary (void)
{
  printf ("%d passed, %d failed\n", test_passed, test_failed);
  return test_failed ? 1 : 0;
}

void
test_seed (uint64_t seed)
{
  state = seed ? seed : 88172645463325252ull;
}

uint64_t
test_rand (void)
{
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

size_t
test_below (size_t n)
{
  return n ? (size_t) (test_rand () % n) : 0;
}

static uint8_t
weight_byte (void)
{
  switch (test_below (4))
    {
    case 0: return 0;
    case 1: return 255;
    default: return (uint8_t) test_rand ();
    }
}

void
test_picture_make (test_picture *p, gh_layout layout, int has_mask,
                   size_t width, size_t height, test_dist dist,
                   int alpha_opaque)
{
  int bpp = (int) layout;
  uint8_t a = (uint8_t) test_rand (), b = (uint8_t) test_rand ();

  memset (p, 0, sizeof *p);
  p->image.layout = layout;
  p->image.sample = GH_SAMPLE_U8;
  p->image.bins = 256;
  p->image.has_mask = has_mask;
  p->width = width;
  p->height = height;
  p->stride = width * bpp + test_below (3) * test_below (9);
  p->mask_stride = width + test_below (5);
  p->pixels = malloc (p->stride * height + 1);
  for (size_t i = 0; i < p->stride * height; i++)
    p->pixels[i] = (uint8_t) test_rand (); /* padding stays junk */
  if (has_mask)
    {
      p->mask = malloc (p->mask_stride * height + 1);
      for (size_t i = 0; i < p->mask_stride * height; i++)
        p->mask[i] = weight_byte ();
    }
  for (size_t y = 0; y < height; y++)
    for (size_t x = 0; x < width; x++)
      {
        uint8_t *px = p->pixels + y * p->stride + x * bpp;
        for (int k = 0; k < bpp; k++)
          {
            uint8_t v;
            switch (dist)
              {
              case DIST_ALL_EQUAL: v = a; break;
              case DIST_TWO_VALUES: v = test_below (2) ? a : b; break;
              case DIST_SKEWED: v = test_below (10) ? a : (uint8_t) test_rand (); break;
              case DIST_GRADIENT: v = (uint8_t) ((x + y + (size_t) k * 7) & 255); break;
              default: v = (uint8_t) test_rand (); break;
              }
            px[k] = v;
          }
        if (layout == GH_LAYOUT_GRAYA || layout == GH_LAYOUT_RGBA)
          px[bpp - 1] = alpha_opaque ? 255 : weight_byte ();
      }
}

static float
level_f32 (void)
{
  switch (test_below (20))
    {
    case 0: return -0.25f;
    case 1: return 1.5f;
    case 2: return __builtin_nanf ("");
    case 3: return 0.0f;
    case 4: return 1.0f;
    default: return (float) (test_rand () % 1000001) / 1e6f;
    }
}

void
test_picture_make_f32 (test_picture *p, gh_layout layout, int has_mask,
                       size_t width, size_t height, int bins)
{
  size_t bpp = (size_t) layout;

  memset (p, 0, sizeof *p);
  p->image.layout = layout;
  p->image.sample = GH_SAMPLE_F32;
  p->image.bins = bins;
  p->image.has_mask = has_mask;
  p->width = width;
  p->height = height;
  p->stride = (width * bpp + test_below (3)) * sizeof (float);
  p->mask_stride = (width + test_below (3)) * sizeof (float);
  p->pixels = calloc (p->stride * height + 1, 1);
  for (size_t y = 0; y < height; y++)
    {
      float *row = (float *) (p->pixels + y * p->stride);
      for (size_t i = 0; i < width * bpp; i++)
        row[i] = level_f32 ();
      /* NaN alpha would make every sum NaN (as in GIMP): keep it finite. */
      if (layout == GH_LAYOUT_GRAYA || layout == GH_LAYOUT_RGBA)
        for (size_t x = 0; x < width; x++)
          if (row[x * bpp + bpp - 1] != row[x * bpp + bpp - 1])
            row[x * bpp + bpp - 1] = 0.5f;
    }
  if (has_mask)
    {
      p->mask = calloc (p->mask_stride * height + 1, 1);
      for (size_t y = 0; y < height; y++)
        {
          float *row = (float *) (p->mask + y * p->mask_stride);
          for (size_t x = 0; x < width; x++)
            row[x] = test_below (3) ? (float) (test_rand () % 1001) / 1e3f
                                    : 1.0f;
        }
    }
}

void
test_picture_random (test_picture *p, size_t max_side)
{
  /* Small sizes (0, 1, odd) often; up to max_side otherwise. */
  size_t w = test_below (4) ? test_below (max_side + 1) : test_below (4);
  size_t h = test_below (4) ? test_below (max_side / 4 + 2) : test_below (4);
  test_picture_make (p, (gh_layout) (1 + test_below (4)),
                     (int) test_below (2), w, h,
                     (test_dist) test_below (DIST_COUNT),
                     test_below (3) == 0);
}

void
test_picture_free (test_picture *p)
{
  free (p->pixels);
  free (p->mask);
  memset (p, 0, sizeof *p);
}

void
test_reference (const test_picture *p, gh_histogram *h)
{
  gh_piece piece = { p->pixels, p->width, p->height, p->stride, p->mask,
                     p->mask_stride };
  gh_reference_begin (&p->image, h);
  if (p->width && p->height)
    gh_reference_add (&p->image, &piece, h);
}

gh_status
test_engine_run (gh_engine *e, const test_picture *p, gh_histogram *out,
                 gh_error *err)
{
  gh_status st = gh_engine_begin (e, &p->image, err);
  size_t bpp = (size_t) p->image.layout
               * (p->image.sample == GH_SAMPLE_F32 ? sizeof (float) : 1);
  size_t mbytes = p->image.sample == GH_SAMPLE_F32 ? sizeof (float) : 1;
  size_t y = 0;

  while (st == GH_OK && y < p->height)
    {
      size_t rows = 1 + test_below (p->height - y);
      size_t x = 0;
      /* Whole strips mostly; sometimes tiles of random widths. */
      while (st == GH_OK && x < p->width)
        {
          size_t cols = test_below (3) ? p->width - x
                                       : 1 + test_below (p->width - x);
          gh_piece piece = { p->pixels + y * p->stride + x * bpp, cols, rows,
                             p->stride,
                             p->mask ? p->mask + y * p->mask_stride
                                         + x * mbytes
                                     : NULL,
                             p->mask_stride };
          st = gh_engine_feed (e, &piece, err);
          x += cols;
        }
      y += rows;
    }
  if (st == GH_OK)
    st = gh_engine_finish (e, out, err);
  return st;
}

void
test_check_picture (gh_engine *e, const test_picture *p, const char *what)
{
  gh_histogram got, want;
  gh_error err;
  gh_histogram_init (&got);
  gh_histogram_init (&want);
  test_reference (p, &want);
  CHECK (test_engine_run (e, p, &got, &err) == GH_OK, "%s: %s", what,
         err.message);
  CHECK (test_same_histogram (&got, &want),
         "%s: layout %d mask %d %zux%zu luminance %d channels 0x%x "
         "differs from the reference", what, (int) p->image.layout,
         p->image.has_mask, p->width, p->height, (int) p->image.luminance,
         p->image.channels);
  gh_histogram_clear (&got);
  gh_histogram_clear (&want);
}

void
test_check_backend_names (gh_engine *e, int has_mask, size_t width,
                          size_t height)
{
  test_picture p;
  char first[400];
  snprintf (first, sizeof first, "%s", gh_engine_backend_name (e));
  test_picture_make_f32 (&p, GH_LAYOUT_RGBA, has_mask, width, height, 1024);
  test_check_picture (e, &p, "a float image");
  CHECK (!strncmp (gh_engine_backend_name (e), "cpu: ", 5),
         "a float image is named as counted on the CPU: %s",
         gh_engine_backend_name (e));
  test_picture_free (&p);
  test_picture_make (&p, GH_LAYOUT_RGBA, has_mask, width, height,
                     DIST_UNIFORM, 0);
  test_check_picture (e, &p, "8-bit after a float image");
  CHECK (!strcmp (gh_engine_backend_name (e), first),
         "an 8-bit image is named '%s' again, not '%s'", first,
         gh_engine_backend_name (e));
  test_picture_free (&p);
}

int
test_same_histogram (const gh_histogram *a, const gh_histogram *b)
{
  if (a->bins != b->bins || a->channels != b->channels)
    {
      printf ("  bins %d/%d channels %x/%x\n", a->bins, b->bins, a->channels,
              b->channels);
      return 0;
    }
  for (int c = 0; c < GH_NUM_CHANNELS; c++)
    {
      if (a->unit[c] != b->unit[c])
        {
          printf ("  channel %d unit %llu/%llu\n", c,
                  (unsigned long long) a->unit[c],
                  (unsigned long long) b->unit[c]);
          return 0;
        }
      for (int i = 0; i < a->bins; i++)
        {
          size_t k = (size_t) c * a->bins + i;
          if ((a->weight != NULL) != (b->weight != NULL))
            {
              printf ("  one histogram has float weights, one not\n");
              return 0;
            }
          if (a->weight
              && !(fabs (a->weight[k] - b->weight[k])
                   <= 1e-12 * fabs (b->weight[k])))
            {
              printf ("  channel %d bin %d: %.17g vs %.17g\n", c, i,
                      a->weight[k], b->weight[k]);
              return 0;
            }
          if (a->raw[k] != b->raw[k])
            {
              printf ("  channel %d bin %d: %llu vs %llu\n", c, i,
                      (unsigned long long) a->raw[k],
                      (unsigned long long) b->raw[k]);
              return 0;
            }
        }
    }
  return 1;
}
