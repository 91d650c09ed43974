/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_cpu.c — the CPU backend against the plain reference: hundreds of
 * random pictures fed in random pieces, with 1, 2 and 3 threads, and the
 * cases that break narrow counters; every channel set a call may ask
 * for (gh_image.channels); AUTO's switch to a device that is
 * ready mid-image (through the test hook's CPU stand-in, no GPU needed);
 * which fallbacks are told, and the backend names. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

static gh_engine *
cpu_engine (int threads)
{
  gh_options o;
  gh_engine *e = NULL;
  gh_error err;
  gh_options_init (&o);
  o.backend = GH_BACKEND_CPU;
  o.cpu_threads = threads;
  if (gh_engine_create (&o, &e, &err) != GH_OK)
    {
      printf ("cannot create a CPU engine: %s\n", err.message);
      exit (1);
    }
  return e;
}

/* Weighted sums that only 64-bit arithmetic holds: 200000 pixels of one
 * colour, fully and nearly fully weighted. */
static void
check_big_sums (gh_engine *e)
{
  test_picture p;
  gh_histogram h;
  gh_error err;
  gh_histogram_init (&h);
  for (int alpha = 254; alpha <= 255; alpha++)
    {
      test_picture_make (&p, GH_LAYOUT_RGBA, 1, 1000, 200,
                         DIST_ALL_EQUAL, 1);
      for (size_t y = 0; y < p.height; y++)
        {
          memset (p.mask + y * p.mask_stride, alpha, p.width);
          for (size_t x = 0; x < p.width; x++)
            p.pixels[y * p.stride + x * 4 + 3] = (uint8_t) alpha;
        }
      CHECK (test_engine_run (e, &p, &h, &err) == GH_OK, "%s", err.message);
      {
        uint8_t r = p.pixels[0];
        uint64_t want = 200000ull * (uint64_t) (alpha * alpha);
        CHECK (h.unit[GH_CHANNEL_RED] == 65025, "unit");
        CHECK (h.raw[GH_CHANNEL_RED * 256 + r] == want,
               "red sum %llu, want %llu (past 2^32)",
               (unsigned long long) h.raw[GH_CHANNEL_RED * 256 + r],
               (unsigned long long) want);
        CHECK (gh_histogram_count (&h, GH_CHANNEL_ALPHA, alpha)
                 == 200000.0 * alpha / 255.0,
               "alpha count");
      }
      test_picture_free (&p);
    }
  gh_histogram_clear (&h);
}

/* The backend named is the one that counted the image: an engine left to
 * choose (the GPU where one is usable) counts float images on the CPU and
 * says so, and names its own backend again for the next 8-bit image. */
static void
check_backend_name (void)
{
  gh_options o;
  gh_engine *e = NULL;
  gh_error err;
  gh_options_init (&o);
  o.quiet = 1;
  if (gh_engine_create (&o, &e, &err) != GH_OK)
    {
      printf ("cannot create an engine: %s\n", err.message);
      exit (1);
    }
  test_seed (7);
  test_check_backend_names (e, 0, 300, 40);
  gh_engine_destroy (e);
}

/* Feeds a picture in strips of `rows` rows and checks the result. */
static void
check_in_strips (gh_engine *e, const test_picture *p, size_t rows,
                 const char *what)
{
  gh_histogram got, want;
  gh_error err;
  gh_status st = gh_engine_begin (e, &p->image, &err);

  gh_histogram_init (&got);
  gh_histogram_init (&want);
  for (size_t y = 0; st == GH_OK && y < p->height; y += rows)
    {
      size_t n = p->height - y < rows ? p->height - y : rows;
      gh_piece piece = { p->pixels + y * p->stride, p->width, n, p->stride,
                         p->mask ? p->mask + y * p->mask_stride : NULL,
                         p->mask_stride };
      st = gh_engine_feed (e, &piece, &err);
    }
  if (st == GH_OK)
    st = gh_engine_finish (e, &got, &err);
  test_reference (p, &want);
  CHECK (st == GH_OK && test_same_histogram (&got, &want), "%s: %s", what,
         st == GH_OK ? "differs from the reference" : err.message);
  gh_histogram_clear (&got);
  gh_histogram_clear (&want);
}

static gh_engine *
auto_engine (int late_pieces, size_t expected_pixels)
{
  gh_options o;
  gh_engine *e = NULL;
  gh_error err;
  gh_options_init (&o);
  o.quiet = 1;
  o.cpu_threads = 2;
  o.test_late_gpu_pieces = late_pieces;
  o.expected_pixels = expected_pixels;
  if (gh_engine_create (&o, &e, &err) != GH_OK)
    {
      printf ("cannot create an engine: %s\n", err.message);
      exit (1);
    }
  return e;
}

/* AUTO with a device that is ready late (the test hook's CPU stand-in, so
 * no GPU is needed): the pieces fed before it is ready are counted on the
 * CPU, the rest on the device, the sum is exact and the name says both. */
static void
check_late_device (void)
{
  gh_engine *e = auto_engine (3, 0);
  gh_timings t;
  test_picture p;

  test_seed (99);
  CHECK (!strcmp (gh_engine_backend_name (e), "cpu: 2 threads"),
         "before the device is ready: %s", gh_engine_backend_name (e));
  test_picture_make (&p, GH_LAYOUT_RGBA, 1, 517, 263, DIST_UNIFORM, 0);
  check_in_strips (e, &p, 20, "an image the device joins after 3 strips");
  CHECK (!strcmp (gh_engine_backend_name (e),
                  "cpu: 2 threads + test: late GPU stand-in"),
         "a shared image is named for both: %s", gh_engine_backend_name (e));
  gh_engine_timings (e, &t);
  CHECK (t.cpu_pixels == 3 * 20 * 517 && t.gpu_pixels == 263 * 517 - t.cpu_pixels
           && t.gpu_ready > 0,
         "3 strips on the CPU, the rest on the device: %llu + %llu, ready "
         "after %g s", (unsigned long long) t.cpu_pixels,
         (unsigned long long) t.gpu_pixels, t.gpu_ready);
  check_in_strips (e, &p, 64, "the next image, all on the device");
  CHECK (!strcmp (gh_engine_backend_name (e), "test: late GPU stand-in"),
         "then the device alone: %s", gh_engine_backend_name (e));
  CHECK (!gh_engine_gpu_failed (e) && !gh_engine_fallback_reason (e),
         "nothing failed: %s", gh_engine_fallback_reason (e));
  test_check_backend_names (e, 1, 200, 30);
  test_picture_free (&p);
  gh_engine_destroy (e);

  /* The switch at every point of random pictures fed in random tiles. */
  for (int late = 1; late <= 6; late++)
    {
      e = auto_engine (late, 0);
      for (int i = 0; i < 8; i++)
        {
          test_picture_random (&p, 300);
          test_check_picture (e, &p, "random, device ready late");
          test_picture_free (&p);
        }
      gh_engine_destroy (e);
    }

  /* A device never adopted: destroy ends the start cleanly. */
  e = auto_engine (1000, 0);
  test_picture_make (&p, GH_LAYOUT_RGB, 0, 64, 64, DIST_SKEWED, 0);
  check_in_strips (e, &p, 8, "before a device that is never used");
  test_picture_free (&p);
  gh_engine_destroy (e);
}

/* Which fallbacks are news (gh_engine_gpu_failed): none under AUTO, where
 * a GPU missing or not worth starting stays quiet and the name is the
 * CPU's exactly; GH_BACKEND_CUDA without a usable GPU is told, and the
 * name says why. */
static void
check_fallback_classes (void)
{
  gh_options o;
  gh_engine *e;
  gh_error err;
  char cpu[40];
  test_picture p;

  snprintf (cpu, sizeof cpu, "cpu: 2 threads");
  e = auto_engine (0, 1000);
  test_picture_make (&p, GH_LAYOUT_RGBA, 0, 100, 10, DIST_UNIFORM, 0);
  check_in_strips (e, &p, 10, "AUTO, small work");
  CHECK (!strcmp (gh_engine_backend_name (e), cpu) && !gh_engine_gpu_failed (e)
           && gh_engine_fallback_reason (e),
         "AUTO with too little work for a GPU: '%s', failed %d, reason %s",
         gh_engine_backend_name (e), gh_engine_gpu_failed (e),
         gh_engine_fallback_reason (e));
  gh_engine_destroy (e);

  gh_options_init (&o);
  o.quiet = 1;
  o.cpu_threads = 2;
  o.backend = GH_BACKEND_CUDA;
  if (gh_engine_create (&o, &e, &err) != GH_OK)
    {
      printf ("cannot create an engine: %s\n", err.message);
      exit (1);
    }
  check_in_strips (e, &p, 3, "CUDA asked for");
  if (!strncmp (gh_engine_backend_name (e), "cuda: ", 6))
    CHECK (!gh_engine_gpu_failed (e), "a working GPU did not fail");
  else
    CHECK (gh_engine_gpu_failed (e) && gh_engine_fallback_reason (e)
             && !strncmp (gh_engine_backend_name (e),
                          "cpu: 2 threads (GPU failed: ", 28),
           "CUDA asked for and not usable is told: '%s', failed %d",
           gh_engine_backend_name (e), gh_engine_gpu_failed (e));
  printf ("GH_BACKEND_CUDA here: %s\n", gh_engine_backend_name (e));
  gh_engine_destroy (e);
  test_picture_free (&p);
}

/* Each channel set the count is specialised for (and ones it rounds up:
 * alpha alone, red with the luminance, one colour), all (0), on every
 * layout, with and without a mask, under both luminance rules: large
 * enough to use every thread and pass the 32-bit tables' flush limit
 * (8-bit, the distributions in turn: uniform, one value, two, skewed,
 * gradient), and small float pictures. */
static void
check_channel_sets (gh_engine *e)
{
  static const unsigned sets[] = {
    0,
    1u << GH_CHANNEL_RED | 1u << GH_CHANNEL_GREEN | 1u << GH_CHANNEL_BLUE,
    1u << GH_CHANNEL_VALUE,
    1u << GH_CHANNEL_LUMINANCE,
    (1u << GH_NUM_CHANNELS) - 1,
    ((1u << GH_NUM_CHANNELS) - 1) & ~(1u << GH_CHANNEL_LUMINANCE),
    1u << GH_CHANNEL_ALPHA,
    1u << GH_CHANNEL_RED | 1u << GH_CHANNEL_LUMINANCE,
    1u << GH_CHANNEL_GREEN,
  };
  int n = (int) (sizeof sets / sizeof *sets);

  for (int layout = 1; layout <= 4; layout++)
    for (int mask = 0; mask <= 1; mask++)
      for (int rule = 0; rule <= 1; rule++)
        for (int k = 0; k < n; k++)
          {
            test_picture p;
            test_picture_make (&p, (gh_layout) layout, mask, 517, 263,
                               (test_dist) (k % DIST_COUNT), k % 2);
            p.image.luminance = (gh_luminance) rule;
            p.image.channels = sets[k];
            test_check_picture (e, &p, "a channel set");
            test_picture_free (&p);
            test_picture_make_f32 (&p, (gh_layout) layout, mask, 90, 40,
                                   k % 2 ? 1024 : 256);
            p.image.luminance = (gh_luminance) rule;
            p.image.channels = sets[k];
            test_check_picture (e, &p, "a float channel set");
            test_picture_free (&p);
          }
}

int
main (void)
{
  int threads[] = { 1, 2, 3 };
  for (int t = 0; t < 3; t++)
    {
      gh_engine *e = cpu_engine (threads[t]);
      test_seed (1000 + (uint64_t) t);
      for (int i = 0; i < 150; i++)
        {
          test_picture p;
          test_picture_random (&p, 300);
          test_check_picture (e, &p, "random");
          test_picture_free (&p);
        }
      /* Every layout, mask and distribution at a size that uses all the
       * threads, and a single wide row (split by columns). */
      for (int layout = 1; layout <= 4; layout++)
        for (int mask = 0; mask <= 1; mask++)
          for (int d = 0; d < DIST_COUNT; d++)
            {
              test_picture p;
              test_picture_make (&p, (gh_layout) layout, mask, 517, 263,
                                 (test_dist) d, d == 0);
              test_check_picture (e, &p, "large");
              test_picture_free (&p);
              test_picture_make (&p, (gh_layout) layout, mask, 70001, 1,
                                 (test_dist) d, 0);
              test_check_picture (e, &p, "wide row");
              test_picture_free (&p);
            }
      check_big_sums (e);
      check_channel_sets (e);
      /* Float pictures, as GIMP reads layers above 8 bits. */
      for (int i = 0; i < 60; i++)
        {
          static const int bins[] = { 1024, 256, 2, 4096 };
          test_picture p;
          test_picture_make_f32 (&p, (gh_layout) (1 + test_below (4)),
                                 (int) test_below (2), test_below (400),
                                 test_below (120), bins[test_below (4)]);
          test_check_picture (e, &p, "float");
          test_picture_free (&p);
        }
      gh_engine_destroy (e);
    }
  check_backend_name ();
  check_late_device ();
  check_fallback_classes ();
  return test_summary ();
}
