/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_beyond_gpu.cu — CLAHE on the GPU (gpu/ops/clahe_cuda.cu) against the
 * CPU, byte for byte: random 8-bit images of every layout and awkward
 * sizes (1x1, 2x3, not divisible by the grid, wider than a block, tall
 * and thin), grids from 1x1 to 64x64 and clip limits 0 to 40, each
 * channel and the luminance (both rules: the GPU counts its tiles), strips
 * fed in shuffled order and rectangles mapped at their places, and whole
 * (gh_clahe_image, rows with and without bytes beyond the pixels, in
 * ordinary and in page-locked memory); the engine must report no
 * fallback.  Then the fallback: a GPU failure injected mid-image (the
 * counting), after the tiles (the mapping) and, whole, after one and after
 * four bands written back (page-locked: after one and after two bands
 * sent back) must finish on the CPU with the same bytes, the failure told
 * through the engine.
 *
 *   test_beyond_gpu [--quick]
 *
 * --quick (for compute-sanitizer) leaves out the 12 MP image and the
 * injected failures.  Exits 77 (skipped) where there is no CUDA device. */
#include "test_util.h"

#include <cuda_runtime.h>

#include <stdlib.h>
#include <string.h>

/* CLAHE of an interleaved image, in place: shuffled strips of rows in,
 * then a grid of rectangles mapped. */
static gh_status
clahe (gh_engine *e, const gh_clahe_params *p, gh_layout layout,
       gh_luminance lum, uint8_t *img, int w, int h, gh_error *err)
{
  size_t stride = (size_t) w * layout;
  int nstrips = h < 4 ? 1 : 4, order[4] = { 2, 0, 3, 1 };
  gh_clahe *c;
  gh_op op;
  gh_status st;

  if (nstrips == 1)
    order[0] = 0;
  st = gh_clahe_begin (e, p, layout, GH_SAMPLE_U8, lum, 256, (size_t) w,
                       (size_t) h, &c, err);
  for (int i = 0; i < nstrips && st == GH_OK; i++)
    {
      int s = order[i], y0 = h * s / nstrips, y1 = h * (s + 1) / nstrips;
      if (y1 > y0)
        st = gh_clahe_feed (c, img + (size_t) y0 * stride, (size_t) y0,
                            (size_t) (y1 - y0), stride, err);
    }
  if (st == GH_OK)
    st = gh_op_clahe (&op, c, err);
  gh_clahe_destroy (c);
  if (st != GH_OK)
    return st;
  for (int by = 0; by < 2 && st == GH_OK; by++)
    for (int bx = 0; bx < 2 && st == GH_OK; bx++)
      {
        int y0 = h * by / 2, y1 = h * (by + 1) / 2;
        int x0 = w * bx / 2, x1 = w * (bx + 1) / 2;
        if (y1 > y0 && x1 > x0)
          st = gh_op_apply_rect (&op, img + (size_t) y0 * stride
                                        + (size_t) x0 * layout,
                                 (size_t) x0, (size_t) y0,
                                 (size_t) (x1 - x0), (size_t) (y1 - y0),
                                 stride, err);
      }
  gh_op_clear (&op);
  return st;
}

/* A CUDA engine; `fail_after` > 0: its GPU passes fail after that many. */
static gh_engine *
cuda_engine (int fail_after)
{
  gh_options o;
  gh_engine *e = NULL;
  gh_error err;
  gh_options_init (&o);
  o.backend = GH_BACKEND_CUDA;
  o.quiet = 1;
  o.inject_gpu_failure_after = fail_after;
  if (gh_engine_create (&o, &e, &err) != GH_OK)
    {
      printf ("cannot create an engine: %s\n", err.message);
      exit (1);
    }
  return e;
}

/* gh_clahe_image on `e` of img in a buffer of rows `pad` bytes longer than
 * the pixels (`locked`: the engine's page-locked memory), into out
 * (packed). */
static gh_status
clahe_whole (gh_engine *e, const gh_clahe_params *p, gh_layout layout,
             gh_luminance lum, const uint8_t *img, int w, int h, size_t pad,
             int locked, uint8_t *out, gh_error *err)
{
  size_t row = (size_t) w * layout, stride = row + pad;
  uint8_t *buf = (uint8_t *) (locked ? gh_engine_alloc_host (e, stride * h)
                                     : malloc (stride * h));
  gh_status st;

  for (int y = 0; y < h; y++)
    memcpy (buf + y * stride, img + y * row, row);
  st = gh_clahe_image (e, p, layout, GH_SAMPLE_U8, lum, 256, buf,
                       (size_t) w, (size_t) h, stride, err);
  for (int y = 0; y < h; y++)
    memcpy (out + y * row, buf + y * stride, row);
  if (locked)
    gh_engine_free_host (e, buf);
  else
    free (buf);
  return st;
}

/* GPU and CPU on a copy each, in strips and whole (gh_clahe_image, rows
 * `pad` bytes apart beyond the pixels; on the GPU also from page-locked
 * memory); 1 when the bytes are equal. */
static int
same_as_cpu (gh_engine *e, const gh_clahe_params *p, gh_layout layout,
             gh_luminance lum, const uint8_t *img, int w, int h, size_t pad)
{
  size_t bytes = (size_t) w * h * layout;
  uint8_t *a = (uint8_t *) malloc (bytes), *b = (uint8_t *) malloc (bytes);
  uint8_t *c = (uint8_t *) malloc (bytes), *d = (uint8_t *) malloc (bytes);
  uint8_t *l = (uint8_t *) malloc (bytes);
  gh_error err;
  int same;

  memcpy (a, img, bytes);
  memcpy (b, img, bytes);
  CHECK (clahe (e, p, layout, lum, a, w, h, &err) == GH_OK,
         "GPU CLAHE: %s", err.message);
  CHECK (clahe (NULL, p, layout, lum, b, w, h, &err) == GH_OK,
         "CPU CLAHE: %s", err.message);
  CHECK (clahe_whole (e, p, layout, lum, img, w, h, pad, 0, c, &err)
           == GH_OK,
         "GPU CLAHE, whole: %s", err.message);
  CHECK (clahe_whole (e, p, layout, lum, img, w, h, pad, 1, l, &err)
           == GH_OK,
         "GPU CLAHE, whole, page-locked: %s", err.message);
  CHECK (clahe_whole (NULL, p, layout, lum, img, w, h, pad, 0, d, &err)
           == GH_OK,
         "CPU CLAHE, whole: %s", err.message);
  same = !memcmp (a, b, bytes) && !memcmp (c, b, bytes)
         && !memcmp (d, b, bytes) && !memcmp (l, b, bytes);
  free (l);
  free (a);
  free (b);
  free (c);
  free (d);
  return same;
}

int
main (int argc, char **argv)
{
  /* 37x2000 and 4099x67: tall and thin, short and wide, rows not a
   * multiple of the interpolation's rows a block. */
  static const int sizes[][2] = { { 1, 1 },      { 2, 3 },    { 65, 47 },
                                  { 1001, 733 }, { 300, 1 },  { 1, 300 },
                                  { 37, 2000 },  { 4099, 67 }, { 4000, 3000 } };
  static const int grids[][2] = { { 1, 1 }, { 8, 8 }, { 3, 5 }, { 16, 16 },
                                  { 64, 64 } };
  static const double clips[] = { 0, 1, 2, 40 };
  int devices = 0, bad = 0, cases = 0, quick = 0;
  gh_engine *e;

  for (int i = 1; i < argc; i++)
    if (!strcmp (argv[i], "--quick"))
      quick = 1;
    else
      {
        printf ("usage: test_beyond_gpu [--quick]\n");
        return 2;
      }

  if (cudaGetDeviceCount (&devices) != cudaSuccess || devices == 0)
    {
      cudaGetLastError ();
      printf ("SKIP: no CUDA device\n");
      return 77;
    }
  e = cuda_engine (0);
  CHECK (!strncmp (gh_engine_backend_name (e), "cuda: ", 6),
         "a CUDA device, but the engine is on %s (%s)",
         gh_engine_backend_name (e), gh_engine_fallback_reason (e));
  test_seed (1717);
  for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
    for (size_t gi = 0; gi < sizeof grids / sizeof *grids; gi++)
      for (size_t ci = 0; ci < sizeof clips / sizeof *clips; ci++)
        {
          int w = sizes[si][0], h = sizes[si][1];
          gh_layout layout = (gh_layout) (1 + test_below (4));
          gh_clahe_params p = { clips[ci], grids[gi][0], grids[gi][1],
                                test_below (2) ? GH_EQUALIZE_LUMINANCE
                                               : GH_EQUALIZE_CHANNELS };
          gh_luminance lum = (gh_luminance) test_below (2);
          size_t bytes = (size_t) w * h * layout;
          uint8_t *img;

          if (w * h > 1000000 && (quick || gi != 1 || ci != 2))
            continue; /* 12 MP: the default parameters only */
          img = (uint8_t *) malloc (bytes);
          for (size_t i = 0; i < bytes; i++)
            img[i] = (uint8_t) (test_below (3) ? (i / layout) % 251
                                               : test_below (256));
          cases++;
          if (!same_as_cpu (e, &p, layout, lum, img, w, h, ci % 2 ? 5 : 0)
              && bad++ < 5)
            printf ("GPU and CPU differ: %dx%d layout %d grid %dx%d clip %g "
                    "mode %d rule %d\n",
                    w, h, (int) layout, p.tiles_x, p.tiles_y, p.clip_limit,
                    (int) p.mode, (int) lum);
          free (img);
          if (gi + 1 == sizeof grids / sizeof *grids
              && ci + 1 == sizeof clips / sizeof *clips)
            {
              printf ("%dx%d: checked\n", w, h);
              fflush (stdout);
            }
        }
  CHECK (bad == 0, "CLAHE: GPU and CPU differ in %d of %d cases", bad, cases);
  CHECK (!gh_engine_gpu_failed (e) && !gh_engine_fallback_reason (e),
         "the GPU fell back: %s", gh_engine_fallback_reason (e));
  gh_engine_destroy (e);

  /* The fallback: the GPU failing mid-count (the third of four strips),
   * and at the first rectangle mapped; whole, 12 MP RGB in five bands:
   * after one band is written back, and after four; from page-locked
   * memory (three bands, straight to the caller's rows): after one band
   * is sent back, and after two. */
  for (int when = 0; when < (quick ? 0 : 4); when++)
    {
      static const char *const whens[] = {
        "after one band", "after four bands", "page-locked, after one band",
        "page-locked, after two bands"
      };
      static const int after[] = { 1, 4, 1, 2 };
      int w = 4000, h = 3000, locked = when >= 2;
      gh_clahe_params p = { 2.0, 8, 8, GH_EQUALIZE_CHANNELS };
      size_t bytes = (size_t) w * h * 3;
      uint8_t *img = (uint8_t *) malloc (bytes);
      uint8_t *a = (uint8_t *) malloc (bytes), *b = (uint8_t *) malloc (bytes);
      gh_error err;
      for (size_t i = 0; i < bytes; i++)
        img[i] = (uint8_t) (test_below (3) ? (i / 3) % 251 : test_below (256));
      e = cuda_engine (after[when]);
      CHECK (clahe_whole (e, &p, GH_LAYOUT_RGB, GH_LUMINANCE_PERCEPTUAL, img,
                          w, h, 3, locked, a, &err)
               == GH_OK,
             "GPU CLAHE, whole: %s", err.message);
      CHECK (clahe_whole (NULL, &p, GH_LAYOUT_RGB, GH_LUMINANCE_PERCEPTUAL,
                          img, w, h, 3, 0, b, &err)
               == GH_OK,
             "CPU CLAHE, whole: %s", err.message);
      CHECK (!memcmp (a, b, bytes),
             "after a GPU failure %s, the CPU's result differs", whens[when]);
      CHECK (gh_engine_gpu_failed (e) && gh_engine_fallback_reason (e),
             "a GPU failure %s was not told", whens[when]);
      printf ("whole, failure %s: %s\n", whens[when],
              gh_engine_fallback_reason (e) ? gh_engine_fallback_reason (e)
                                            : "(nothing told)");
      gh_engine_destroy (e);
      free (img);
      free (a);
      free (b);
    }
  for (int when = 0; when < (quick ? 0 : 2); when++)
    {
      int w = 321, h = 203;
      gh_clahe_params p = { 2.0, 8, 8, GH_EQUALIZE_CHANNELS };
      uint8_t *img = (uint8_t *) malloc ((size_t) w * h * 3);
      for (size_t i = 0; i < (size_t) w * h * 3; i++)
        img[i] = (uint8_t) test_below (256);
      e = cuda_engine (when ? 4 : 2);
      CHECK (same_as_cpu (e, &p, GH_LAYOUT_RGB, GH_LUMINANCE_PERCEPTUAL, img,
                          w, h, 0),
             "after a GPU failure %s, the CPU's result differs",
             when ? "before the mapping" : "mid-count");
      CHECK (gh_engine_gpu_failed (e) && gh_engine_fallback_reason (e),
             "a GPU failure %s was not told",
             when ? "before the mapping" : "mid-count");
      printf ("failure %s: %s\n", when ? "before the mapping" : "mid-count",
              gh_engine_fallback_reason (e) ? gh_engine_fallback_reason (e)
                                            : "(nothing told)");
      gh_engine_destroy (e);
      free (img);
    }
  return test_summary ();
}
