/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clahe_bench.c — CLAHE's timings (clahe_bench.h).  Two calls: in strips,
 * what a host streaming its tiles does (the tile histograms fed in strips
 * of 256 rows, the mappings made, the image mapped in the same strips at
 * their places), and whole, the image in memory (gh_clahe_image), on the
 * GPU from ordinary memory and from page-locked memory
 * (gh_engine_alloc_host's, what a host may pass to skip the staging).
 * Median of `repeat` calls; the GPU engine is started before timing (its
 * start-up is the histogram benchmark's business). */
#include "clahe_bench.h"

#include "gpu_histogram.h"
#include "images.h"
#include "pnm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STRIP 256

typedef struct {
  double total, count, map;
} timing;

/* One CLAHE call on a copy of `src` into `dst`, in strips or whole. */
static int
clahe_call (gh_engine *e, const uint8_t *src, uint8_t *dst, size_t w,
            size_t h, int depth, int whole, timing *t)
{
  gh_clahe_params p = { 2.0, 8, 8, GH_EQUALIZE_CHANNELS };
  size_t stride = w * (size_t) depth;
  gh_clahe *c;
  gh_op op;
  gh_error err;
  double t0 = now_seconds (), t1;

  memcpy (dst, src, stride * h);
  t0 = now_seconds ();
  if (whole)
    {
      if (gh_clahe_image (e, &p, (gh_layout) depth, GH_SAMPLE_U8,
                          GH_LUMINANCE_PERCEPTUAL, 256, dst, w, h, stride,
                          &err)
          != GH_OK)
        goto fail;
      t->total = now_seconds () - t0;
      t->count = t->map = 0;
      return 0;
    }
  if (gh_clahe_begin (e, &p, (gh_layout) depth, GH_SAMPLE_U8,
                      GH_LUMINANCE_PERCEPTUAL, 256, w, h, &c, &err)
      != GH_OK)
    goto fail;
  for (size_t y = 0; y < h; y += STRIP)
    if (gh_clahe_feed (c, dst + y * stride, y, h - y < STRIP ? h - y : STRIP,
                       stride, &err)
        != GH_OK)
      goto fail;
  if (gh_op_clahe (&op, c, &err) != GH_OK)
    goto fail;
  gh_clahe_destroy (c);
  t1 = now_seconds ();
  for (size_t y = 0; y < h; y += STRIP)
    if (gh_op_apply_rect (&op, dst + y * stride, 0, y, w,
                          h - y < STRIP ? h - y : STRIP, stride, &err)
        != GH_OK)
      goto fail;
  gh_op_clear (&op);
  t->map = now_seconds () - t1;
  t->count = t1 - t0;
  t->total = t->count + t->map;
  return 0;
fail:
  fprintf (stderr, "CLAHE: %s\n", err.message);
  return -1;
}

/* Median timings of `repeat` calls; the last result left in dst. */
static int
clahe_median (gh_engine *e, const uint8_t *src, uint8_t *dst, size_t w,
              size_t h, int depth, int whole, int repeat, timing *out)
{
  double *v = calloc ((size_t) repeat * 3, sizeof *v);
  timing t;
  if (!v)
    return -1;
  for (int i = 0; i < repeat; i++)
    {
      if (clahe_call (e, src, dst, w, h, depth, whole, &t))
        {
          free (v);
          return -1;
        }
      v[i] = t.total;
      v[repeat + i] = t.count;
      v[2 * repeat + i] = t.map;
    }
  out->total = median (v, repeat);
  out->count = median (v + repeat, repeat);
  out->map = median (v + 2 * repeat, repeat);
  free (v);
  return 0;
}

int
clahe_bench (const char *const *files, int n, int repeat, int threads,
             int gpu_whole_only)
{
  gh_options o;
  gh_engine *cpu = NULL, *gpu = NULL;
  gh_error err;
  int rc = 0;

  gh_options_init (&o);
  o.backend = GH_BACKEND_CPU;
  o.cpu_threads = threads;
  if (gh_engine_create (&o, &cpu, &err) != GH_OK)
    {
      fprintf (stderr, "%s\n", err.message);
      return -1;
    }
  gh_options_init (&o);
  o.backend = GH_BACKEND_CUDA;
  o.quiet = 1;
  if (gh_engine_create (&o, &gpu, &err) != GH_OK
      || strncmp (gh_engine_backend_name (gpu), "cuda: ", 6))
    {
      printf ("(no usable GPU: %s; CLAHE on the CPU only)\n",
              gpu && gh_engine_fallback_reason (gpu)
                ? gh_engine_fallback_reason (gpu)
                : err.message);
      gh_engine_destroy (gpu);
      gpu = NULL;
    }
  printf ("== CLAHE (8x8 tiles, clip limit 2, each channel), median of %d "
          "calls, ms: in strips, total (tile histograms + mappings, "
          "interpolation); whole (gh_clahe_image; gpu locked: the image in "
          "page-locked memory, its allocation and free apart); the CPU's "
          "engine: %s\n",
          repeat, gh_engine_backend_name (cpu));
  for (int f = 0; f < n && rc == 0; f++)
    {
      pnm_image im;
      char msg[256];
      uint8_t *src = NULL, *out[5] = { NULL, NULL, NULL, NULL, NULL };
      size_t bytes;
      /* CPU strips, GPU strips, CPU whole, GPU whole, GPU whole from
       * page-locked memory. */
      timing t[5] = { { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 },
                      { 0, 0, 0 } };
      double alloc = 0;
      int same = 1;

      if (pnm_open (files[f], &im, msg, sizeof msg))
        {
          fprintf (stderr, "%s\n", msg);
          rc = -1;
          break;
        }
      bytes = im.width * im.height * (size_t) im.depth;
      src = malloc (bytes);
      for (int i = 0; i < 4; i++)
        out[i] = malloc (bytes);
      if (gpu)
        {
          /* The page-locked buffer's own cost: a host pays it once per
           * buffer it keeps, or per image if it allocates each. */
          double t0 = now_seconds ();
          out[4] = gh_engine_alloc_host (gpu, bytes);
          alloc = now_seconds () - t0;
        }
      if (!src || !out[0] || !out[1] || !out[2] || !out[3]
          || (gpu && !out[4]) || pnm_read_rows (&im, src, im.height))
        {
          fprintf (stderr, "%s: cannot read it into memory\n", files[f]);
          rc = -1;
        }
      for (int i = 0; i < 5 && rc == 0; i++)
        {
          gh_engine *e = i % 2 ? gpu : cpu;
          if (i == 4)
            e = gpu;
          if (!e || (gpu_whole_only && i < 3))
            continue;
          rc = clahe_median (e, src, out[i], im.width, im.height, im.depth,
                             i >= 2, repeat, &t[i]);
          if (rc == 0 && !gpu_whole_only && memcmp (out[0], out[i], bytes))
            same = 0;
        }
      if (gpu && gh_engine_gpu_failed (gpu))
        printf ("(the GPU fell back: %s)\n", gh_engine_fallback_reason (gpu));
      if (rc == 0)
        {
          printf ("%s %zux%zu x%d: strips: cpu %.1f (%.1f + %.1f)",
                  files[f], im.width, im.height, im.depth, t[0].total * 1e3,
                  t[0].count * 1e3, t[0].map * 1e3);
          if (gpu)
            printf (", gpu %.1f (%.1f + %.1f)", t[1].total * 1e3,
                    t[1].count * 1e3, t[1].map * 1e3);
          printf ("; whole: cpu %.2f", t[2].total * 1e3);
          if (gpu)
            printf (", gpu %.2f, %.1fx; gpu locked %.2f (allocated in "
                    "%.2f)",
                    t[3].total * 1e3, t[2].total / t[3].total,
                    t[4].total * 1e3, alloc * 1e3);
          printf ("; same bytes: %s\n", same ? "yes" : "NO");
          printf ("clahe-row,%s,%zu,%zu,%d,%.3f,%.3f,%.3f,%.3f,%d,%.3f,"
                  "%.3f\n",
                  files[f], im.width, im.height, im.depth, t[0].total * 1e3,
                  gpu ? t[1].total * 1e3 : -1.0, t[2].total * 1e3,
                  gpu ? t[3].total * 1e3 : -1.0, same,
                  gpu ? t[4].total * 1e3 : -1.0, gpu ? alloc * 1e3 : -1.0);
          if (!same)
            rc = -1;
        }
      free (src);
      for (int i = 0; i < 4; i++)
        free (out[i]);
      if (gpu)
        gh_engine_free_host (gpu, out[4]);
      pnm_close (&im);
    }
  gh_engine_destroy (cpu);
  gh_engine_destroy (gpu);
  return rc;
}
