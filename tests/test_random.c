/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_random.c — random differential testing: every backend and kernel
 * against the plain reference (tests/reference.c) on many small random
 * images.
 *
 * Each case is an image from 0 and 1 pixel up (mostly small, some single
 * long rows and columns), of any layout, with or without a mask, with
 * partial alpha, odd widths and padded strides, 8-bit or float, under
 * either luminance rule, asking for all channels or some (each channel
 * set the CPU count is specialised for, one channel, any set), fed to
 * the engine split at random into strips and tiles; its histogram must
 * equal the reference's.  By default 10^4
 * cases per backend and kernel (seconds on the CPU); `--soak N` runs N
 * instead (10^6 on demand), `--seed S` another sequence.  A failing case
 * prints its number and seed: `--seed S --case I` runs it alone.
 *
 * Backends: the CPU (1 to 4 threads); where a GPU can be used, the CUDA
 * backend with each of its kernels, and with the kernels the dispatcher
 * picks under the 99 KB and 64 KB shared-memory caps (8-bit images; float
 * ones are counted on the CPU by every engine and are checked there).  Without a GPU the
 * CUDA part says it is skipped and the CPU part still runs.
 *
 * Usage: test_random [--soak N] [--seed S] [--case I]
 * Ends with "N passed, N failed". */
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

typedef struct
{
  const char *name;
  gh_backend backend;
  gh_kernel kernel;
  int u8_only; /* the CUDA backend counts float images on the CPU */
  size_t smem_cap; /* the launch policy's budget, as on smaller GPUs */
} target;

static const target targets[] = {
  { "cpu", GH_BACKEND_CPU, GH_KERNEL_AUTO, 0, 0 },
  { "cuda packed", GH_BACKEND_CUDA, GH_KERNEL_PACKED, 1, 0 },
  { "cuda shared-atomic", GH_BACKEND_CUDA, GH_KERNEL_SHARED_ATOMIC, 1, 0 },
  /* The variants the dispatcher picks where a block may use 99 KB (RTX
   * 30/40/50) or 64 KB (RTX 20). */
  { "cuda auto, 99 KB", GH_BACKEND_CUDA, GH_KERNEL_AUTO, 1, 101376 },
  { "cuda auto, 64 KB", GH_BACKEND_CUDA, GH_KERNEL_AUTO, 1, 65536 },
};

/* Float colour samples GIMP can hold beyond the ones test_util makes:
 * infinities and huge values of either sign (alpha stays finite, as
 * test_util keeps it: a NaN or infinite weight has no count). */
static void
add_extremes (test_picture *p)
{
  static const float extreme[] = { __builtin_inff (), -__builtin_inff (),
                                   1e30f, -1e30f, 1.0000001f, -0.0f };
  size_t bpp = (size_t) p->image.layout;
  int alpha = p->image.layout == GH_LAYOUT_GRAYA
              || p->image.layout == GH_LAYOUT_RGBA;

  for (size_t y = 0; y < p->height; y++)
    {
      float *row = (float *) (p->pixels + y * p->stride);
      for (size_t x = 0; x < p->width; x++)
        for (size_t k = 0; k + (size_t) alpha < bpp; k++)
          if (test_below (16) == 0)
            row[x * bpp + k] = extreme[test_below (6)];
    }
}

/* The channels a case asks for: half of them all (0), the rest the sets
 * the CPU count is specialised for, one channel, or any set. */
static unsigned
random_channels (void)
{
  static const unsigned sets[] = {
    1u << GH_CHANNEL_RED | 1u << GH_CHANNEL_GREEN | 1u << GH_CHANNEL_BLUE,
    1u << GH_CHANNEL_VALUE,
    1u << GH_CHANNEL_LUMINANCE,
    (1u << GH_NUM_CHANNELS) - 1,
    ((1u << GH_NUM_CHANNELS) - 1) & ~(1u << GH_CHANNEL_LUMINANCE),
  };

  switch (test_below (8))
    {
    case 0: case 1: case 2:
      return sets[test_below (5)];
    case 3:
      return 1u << test_below (GH_NUM_CHANNELS);
    case 4:
      return (unsigned) test_below (1u << GH_NUM_CHANNELS);
    default:
      return 0;
    }
}

/* A case's picture, all of it decided by the generator's state. */
static void
random_picture (test_picture *p, int u8_only)
{
  size_t w, h;
  gh_layout layout = (gh_layout) (1 + test_below (4));
  int mask = (int) test_below (2);

  switch (test_below (8))
    {
    case 0: /* the smallest: 0 and 1 pixel on either side */
      w = test_below (3), h = test_below (3);
      break;
    case 1: /* one long row or column */
      if (test_below (2))
        w = 1 + test_below (3000), h = 1;
      else
        w = 1, h = 1 + test_below (3000);
      break;
    case 2: /* odd widths around the sizes kernels and threads split at */
      w = 2 * test_below (130) + 1, h = 1 + test_below (9);
      break;
    default:
      w = test_below (65), h = test_below (40);
      break;
    }
  if (!u8_only && test_below (4) == 0)
    {
      static const int bins[] = { 1024, 256, 2, 4096 };
      test_picture_make_f32 (p, layout, mask, w, h, bins[test_below (4)]);
      add_extremes (p);
    }
  else
    test_picture_make (p, layout, mask, w, h,
                       (test_dist) test_below (DIST_COUNT),
                       test_below (4) == 0);
  p->image.luminance = test_below (2) ? GH_LUMINANCE_LINEAR
                                      : GH_LUMINANCE_PERCEPTUAL;
  p->image.channels = random_channels ();
}

static uint64_t
case_seed (uint64_t seed, uint64_t i)
{
  /* Distinct, well-mixed and never 0 (test_seed's reserved value). */
  uint64_t s = (seed + 1) * 0x9e3779b97f4a7c15ull ^ (i + 1) * 0xbf58476d1ce4e5b9ull;
  return s ? s : 1;
}

/* Runs cases [first, first + count) on one target; returns how many ran
 * and leaves *failed the number that differed. */
static long
run_target (const target *t, uint64_t seed, long first, long count,
            long *failed)
{
  gh_engine *engines[4] = { NULL };
  int nengines = t->backend == GH_BACKEND_CPU ? 4 : 1;
  gh_error err;
  long ran = 0;

  *failed = 0;
  for (int k = 0; k < nengines; k++)
    {
      gh_options o;
      gh_options_init (&o);
      o.backend = t->backend;
      o.kernel = t->kernel;
      o.smem_cap = t->smem_cap;
      o.cpu_threads = k + 1;
      o.quiet = 1;
      if (gh_engine_create (&o, &engines[k], &err) != GH_OK
          || (t->backend == GH_BACKEND_CUDA
              && strncmp (gh_engine_backend_name (engines[k]), "cuda", 4)))
        {
          /* A CUDA engine without a usable GPU is made, on the CPU. */
          printf ("skip %s: %s\n", t->name,
                  engines[k] ? gh_engine_fallback_reason (engines[k])
                             : err.message);
          gh_engine_destroy (engines[k]);
          for (int j = 0; j < k; j++)
            gh_engine_destroy (engines[j]);
          return 0;
        }
    }
  for (long i = first; i < first + count; i++)
    {
      test_picture p;
      gh_histogram got, want;
      gh_engine *e;
      gh_status st;
      int same;

      test_seed (case_seed (seed, (uint64_t) i));
      e = engines[test_below ((size_t) nengines)];
      random_picture (&p, t->u8_only);
      gh_histogram_init (&got);
      gh_histogram_init (&want);
      test_reference (&p, &want);
      st = test_engine_run (e, &p, &got, &err);
      same = st == GH_OK && test_same_histogram (&got, &want);
      if (same && t->backend == GH_BACKEND_CUDA
          && gh_engine_fallback_reason (e))
        {
          /* The CPU finished it: the kernel was not what was tested. */
          printf ("FAIL %s case %ld (--seed %llu --case %ld): fell back to "
                  "the CPU: %s\n",
                  t->name, i, (unsigned long long) seed, i,
                  gh_engine_fallback_reason (e));
          same = 0;
        }
      else if (!same)
        printf ("FAIL %s case %ld (--seed %llu --case %ld): layout %d, "
                "%s, mask %d, %zux%zu, strides %zu/%zu, luminance %d, "
                "channels 0x%x: %s\n",
                t->name, i, (unsigned long long) seed, i,
                (int) p.image.layout,
                p.image.sample == GH_SAMPLE_F32 ? "f32" : "u8",
                p.image.has_mask, p.width, p.height, p.stride, p.mask_stride,
                (int) p.image.luminance, p.image.channels,
                st != GH_OK ? err.message : "differs from the reference");
      if (!same)
        (*failed)++;
      ran++;
      gh_histogram_clear (&got);
      gh_histogram_clear (&want);
      test_picture_free (&p);
      /* A soak stops early once a few cases fail: their numbers say it. */
      if (*failed >= 10)
        break;
    }
  for (int k = 0; k < nengines; k++)
    gh_engine_destroy (engines[k]);
  return ran;
}

static int
parse_count (const char *text, long *out)
{
  char *end;
  long v = strtol (text, &end, 10);
  if (!*text || *end || v < 0)
    return 0;
  *out = v;
  return 1;
}

int
main (int argc, char **argv)
{
  long count = 10000, first = 0, one = -1;
  long seed = 1;

  for (int i = 1; i < argc; i++)
    {
      if (!strcmp (argv[i], "--soak") && i + 1 < argc
          && parse_count (argv[i + 1], &count))
        i++;
      else if (!strcmp (argv[i], "--seed") && i + 1 < argc
               && parse_count (argv[i + 1], &seed))
        i++;
      else if (!strcmp (argv[i], "--case") && i + 1 < argc
               && parse_count (argv[i + 1], &one))
        i++;
      else
        {
          fprintf (stderr, "usage: %s [--soak N] [--seed S] [--case I]\n",
                   argv[0]);
          return 2;
        }
    }
  if (one >= 0)
    first = one, count = 1;
  for (size_t k = 0; k < sizeof targets / sizeof *targets; k++)
    {
      long failed;
      long ran = run_target (&targets[k], (uint64_t) seed, first, count,
                             &failed);
      if (!ran)
        continue;
      if (failed)
        test_failed++;
      else
        test_passed++;
      printf ("%s %s: %ld random cases, %ld differ\n", failed ? "FAIL" : "ok  ",
              targets[k].name, ran, failed);
    }
  return test_summary ();
}
