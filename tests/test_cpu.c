/* test_cpu.c — the CPU backend against the plain reference: hundreds of
 * random pictures fed in random pieces, with 1, 2 and 3 threads, and the
 * cases that break narrow counters. */
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
  return test_summary ();
}
