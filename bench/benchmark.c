/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gpu-histogram-bench — the benchmark (not a test): the CPU backend on
 * every input kind, then, when built with CUDA and a GPU is there, every
 * kernel beside CUB and the read ceiling, and the host pipeline beside
 * plain copies (gpu_bench.cu).  Prints GB/s and ratios from one run.
 * --cpu-ceiling adds, after the CPU backend, the engine on one thread
 * beside the counting schemes of cpu_ceiling.h.
 *
 *   gpu-histogram-bench [--megapixels N] [--photo FILE.pam] [--repeat R]
 *                       [--threads T] [--cpu-only] [--cpu-ceiling]
 *   gpu-histogram-bench --profile-counts [--megapixels N] [--photo FILE.pam]
 *   gpu-histogram-bench --clahe FILE.pnm [--clahe FILE.pnm...] [--repeat R]
 *                       [--threads T] [--clahe-whole]
 *
 * --clahe times CLAHE instead, CPU beside GPU (clahe_bench.h); with
 * --clahe-whole only the GPU's whole-image calls (for a profiler).
 * --profile-counts runs each count mode's chosen kernel once an input and
 * nothing else, inside cudaProfilerStart / Stop (for ncu).
 */
#include "clahe_bench.h"
#include "cpu_ceiling.h"
#include "gpu_histogram.h"
#include "images.h"
#if GH_HAVE_CUDA
#include "gpu_bench.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Seconds of one whole CPU engine call on the image. */
static double
cpu_call (gh_engine *e, const uint8_t *rgba, size_t w, size_t h)
{
  gh_image img = { GH_LAYOUT_RGBA, GH_SAMPLE_U8, 256, 0,
                   GH_LUMINANCE_PERCEPTUAL, 0 };
  gh_piece piece = { rgba, w, h, w * 4, NULL, 0 };
  gh_histogram out;
  gh_error err;
  double t0;

  gh_histogram_init (&out);
  t0 = now_seconds ();
  if (gh_engine_begin (e, &img, &err) || gh_engine_feed (e, &piece, &err)
      || gh_engine_finish (e, &out, &err))
    {
      fprintf (stderr, "engine: %s\n", err.message);
      exit (1);
    }
  t0 = now_seconds () - t0;
  gh_histogram_clear (&out);
  return t0;
}

/* Seconds of a call on each input (0 where there is none): the best of
 * `repeat` rounds, each taking every input in turn.  A shared machine has
 * slow spells of seconds (one core here ran at 1.35 and 2.05 GB/s in
 * turn); a spell then falls on every input alike, and the best round of
 * each is what the engine does, so the level (slowest input over fastest)
 * is the engine's, not the spell's. */
static void
cpu_calls (gh_engine *e, uint8_t *const images[IMG_KINDS], size_t w,
           size_t h, int repeat, double best[IMG_KINDS])
{
  double *t = calloc ((size_t) repeat * IMG_KINDS, sizeof *t);

  if (!t)
    {
      fprintf (stderr, "out of memory for %d timings\n", repeat);
      exit (1);
    }
  for (int r = 0; r < repeat; r++)
    for (int k = 0; k < IMG_KINDS; k++)
      if (images[k])
        t[k * repeat + r] = cpu_call (e, images[k], w, h);
  for (int k = 0; k < IMG_KINDS; k++)
    {
      best[k] = 0;
      for (int r = 0; images[k] && r < repeat; r++)
        if (best[k] == 0 || t[k * repeat + r] < best[k])
          best[k] = t[k * repeat + r];
    }
  free (t);
}

static gh_engine *
cpu_engine (int threads)
{
  gh_options o;
  gh_engine *e;
  gh_error err;
  gh_options_init (&o);
  o.backend = GH_BACKEND_CPU;
  o.cpu_threads = threads;
  if (gh_engine_create (&o, &e, &err) != GH_OK)
    {
      fprintf (stderr, "%s\n", err.message);
      exit (1);
    }
  return e;
}

/* The engine on one thread beside what one core can count at best
 * (cpu_ceiling.h), with each over "four" (calcHist's work). */
static void
cpu_ceiling (uint8_t *const images[IMG_KINDS], size_t width, size_t height,
             int repeat, const double one_thread[IMG_KINDS])
{
  size_t pixels = width * height;

  printf ("\n== CPU ceiling, one thread, GB/s (cpu_ceiling.h); over four: "
          "engine");
  for (int s = CEILING_FOLDED; s < CEILING_SCHEMES; s++)
    printf (" %s", ceiling_scheme_names[s]);
  printf ("\n%-10s %7s", "input", "engine");
  for (int s = 0; s < CEILING_SCHEMES; s++)
    printf (" %7s", ceiling_scheme_names[s]);
  printf ("   over four\n");
  for (int k = 0; k < IMG_KINDS; k++)
    {
      double gbs[CEILING_SCHEMES], engine;
      if (!images[k] || pixels < CEILING_MIN_PIXELS)
        continue;
      engine = (double) pixels * 4 / one_thread[k] / 1e9;
      for (int s = 0; s < CEILING_SCHEMES; s++)
        gbs[s] = ceiling_gbs ((ceiling_scheme) s, images[k], pixels, repeat);
      printf ("%-10s %7.2f", image_kind_names[k], engine);
      for (int s = 0; s < CEILING_SCHEMES; s++)
        printf (" %7.2f", gbs[s]);
      printf ("   %.2f", engine / gbs[CEILING_FOUR]);
      for (int s = CEILING_FOLDED; s < CEILING_SCHEMES; s++)
        printf (" %.2f", gbs[s] / gbs[CEILING_FOUR]);
      printf ("\n");
    }
  printf ("(checksum %llu)\n", ceiling_checksum ());
}

int
main (int argc, char **argv)
{
  double mp = 64;
  const char *photo = NULL;
  int repeat = 5, cpu_only = 0, ceiling = 0, threads = 0, profile = 0;
  uint8_t *images[IMG_KINDS] = { 0 };
  size_t width, height, bytes;
  const char *clahe_files[8];
  int n_clahe = 0, clahe_whole = 0;

  for (int i = 1; i < argc; i++)
    {
      const char *v = i + 1 < argc ? argv[i + 1] : NULL;
      if (!strcmp (argv[i], "--megapixels") && v)
        mp = atof (argv[++i]);
      else if (!strcmp (argv[i], "--photo") && v)
        photo = argv[++i];
      else if (!strcmp (argv[i], "--repeat") && v)
        repeat = atoi (argv[++i]);
      else if (!strcmp (argv[i], "--threads") && v)
        threads = atoi (argv[++i]);
      else if (!strcmp (argv[i], "--cpu-only"))
        cpu_only = 1;
      else if (!strcmp (argv[i], "--cpu-ceiling"))
        ceiling = 1;
      else if (!strcmp (argv[i], "--clahe") && v && n_clahe < 8)
        clahe_files[n_clahe++] = argv[++i];
      else if (!strcmp (argv[i], "--clahe-whole"))
        clahe_whole = 1;
      else if (!strcmp (argv[i], "--profile-counts"))
        profile = 1;
      else
        {
          fprintf (stderr,
                   "usage: %s [--megapixels N] [--photo FILE.pam] "
                   "[--repeat R] [--threads T] [--cpu-only] "
                   "[--cpu-ceiling] [--profile-counts]\n"
                   "       %s --clahe FILE.pnm [--clahe FILE.pnm...] "
                   "[--repeat R] [--threads T] [--clahe-whole]\n",
                   argv[0], argv[0]);
          return 2;
        }
    }
  if (mp <= 0 || repeat < 1)
    return fprintf (stderr, "--megapixels and --repeat must be positive\n"),
           2;
  if (n_clahe > 0)
    return clahe_bench (clahe_files, n_clahe, repeat, threads, clahe_whole)
             ? 1
             : 0;
  width = 8192;
  height = (size_t) (mp * 1e6 / (double) width + 0.5);
  if (height < 1)
    height = 1;
  bytes = width * height * 4;

  for (int k = 0; k < IMG_KINDS; k++)
    {
      images[k] = malloc (bytes);
      if (!images[k])
        return fprintf (stderr, "out of memory for the images\n"), 1;
      if (image_make ((image_kind) k, width, height, images[k], photo))
        {
          if (k == IMG_PHOTO)
            printf ("(no --photo given or readable: photo input skipped)\n");
          free (images[k]);
          images[k] = NULL;
        }
    }

#if GH_HAVE_CUDA
  /* Each count mode's kernel once an input, for ncu; nothing else. */
  if (profile)
    return gpu_profile_counts (images, width, height);
#else
  if (profile)
    return fprintf (stderr, "--profile-counts: built without CUDA\n"), 77;
#endif
  printf ("== CPU backend: %zux%zu RGBA8 (%.0f MB), GIMP's six channels, "
          "GB/s of image\n",
          width, height, bytes / 1e6);
  {
    int counts[2] = { 1, threads };
    double best[2][IMG_KINDS], lo[2], hi[2];

    printf ("%-10s", "input");
    for (int c = 0; c < 2; c++)
      {
        gh_engine *e = cpu_engine (counts[c]);
        printf (" %18s", gh_engine_backend_name (e));
        cpu_calls (e, images, width, height, repeat, best[c]);
        gh_engine_destroy (e);
        lo[c] = 1e300;
        hi[c] = 0;
      }
    printf ("\n");
    for (int k = 0; k < IMG_KINDS; k++)
      {
        if (!images[k])
          continue;
        printf ("%-10s", image_kind_names[k]);
        for (int c = 0; c < 2; c++)
          {
            printf (" %18.2f", bytes / best[c][k] / 1e9);
            lo[c] = best[c][k] < lo[c] ? best[c][k] : lo[c];
            hi[c] = best[c][k] > hi[c] ? best[c][k] : hi[c];
          }
        printf ("\n");
      }
    printf ("%-10s %18.2f %18.2f   (slowest input / fastest; best of %d "
            "rounds, inputs in turn)\n",
            "level", hi[0] / lo[0], hi[1] / lo[1], repeat);
    if (ceiling)
      cpu_ceiling (images, width, height, repeat, best[0]);
  }
  fflush (stdout);

#if GH_HAVE_CUDA
  if (!cpu_only && gpu_bench (images, width, height, repeat * 4))
    return 1;
#else
  if (!cpu_only)
    printf ("\n(built without CUDA: GPU figures skipped)\n");
#endif
  for (int k = 0; k < IMG_KINDS; k++)
    free (images[k]);
  return 0;
}
