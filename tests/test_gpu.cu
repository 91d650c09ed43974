/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_gpu.cu — the CUDA backend and every kernel variant against the
 * plain reference, the raw kernels against plain counts, GIMP 3's
 * luminance on the device for all 2^24 colours, and the fallback to the
 * CPU when the GPU fails mid-image; AUTO's background start (the GPU
 * joining an image the CPU began, a failure under AUTO told).  Everything runs under each
 * shared-memory cap (gh_options.smem_cap): none, then 163, 99 and 64 KB,
 * the limits of an A100, of consumer Ampere / Ada / Blackwell GPUs and of
 * Turing, so one GPU runs what each of them would launch.  Every image
 * must be counted by the CUDA backend.
 *
 *   test_gpu [--quick] [--cap KB]
 *
 * --quick runs a few cases of each (for compute-sanitizer); --cap runs
 * one cap only (0: none).  Exits 77 (skipped) where there is no CUDA
 * device, and fails where there is one the engine cannot use. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda_launch.h"
#include "kernel_common.cuh"

static int quick;
static size_t cap; /* bytes; 0: the device's own limits */

static gh_engine *
gpu_engine (gh_kernel kernel, int fail_after)
{
  gh_options o;
  gh_engine *e = NULL;
  gh_error err;
  gh_options_init (&o);
  o.backend = GH_BACKEND_CUDA;
  o.kernel = kernel;
  o.quiet = 1;
  o.inject_gpu_failure_after = fail_after;
  o.smem_cap = cap;
  if (gh_engine_create (&o, &e, &err) != GH_OK)
    {
      printf ("cannot create an engine: %s\n", err.message);
      exit (1);
    }
  return e;
}

static void
check_kernel (gh_kernel kernel, const char *name)
{
  gh_engine *e = gpu_engine (kernel, 0);
  printf ("kernel %s on %s\n", name, gh_engine_backend_name (e));
  test_seed (42 + (uint64_t) kernel);
  for (int i = 0; i < (quick ? 12 : 150); i++)
    {
      test_picture p;
      test_picture_random (&p, 700);
      test_check_picture (e, &p, name);
      test_picture_free (&p);
    }
  for (int layout = 1; layout <= 4; layout++)
    for (int mask = 0; mask <= 1; mask++)
      for (int d = 0; d < DIST_COUNT; d += quick ? 2 : 1)
        {
          test_picture p;
          /* 517x263: odd, not a multiple of 16 pixels; all-equal input
           * puts far more than 255 equal samples through each thread. */
          test_picture_make (&p, (gh_layout) layout, mask, 517, 263,
                             (test_dist) d, d == 0);
          test_check_picture (e, &p, name);
          test_picture_free (&p);
        }
  /* Several chunks through the pipeline, both slots reused. */
  for (int layout = 1; layout <= 4 && !quick; layout += 3)
    {
      test_picture p;
      test_picture_make (&p, (gh_layout) layout, layout == 4, 4099, 3001,
                         DIST_SKEWED, 0);
      test_check_picture (e, &p, name);
      test_picture_free (&p);
    }
  CHECK (gh_engine_fallback_reason (e) == NULL, "%s fell back: %s", name,
         gh_engine_fallback_reason (e));
  CHECK (!strncmp (gh_engine_backend_name (e), "cuda: ", 6),
         "%s counted by %s", name, gh_engine_backend_name (e));
  gh_engine_destroy (e);
}

/* Float images go to the CPU without the GPU being given up, and the
 * backend named is the one that counted each image. */
static void
check_float (void)
{
  gh_engine *e = gpu_engine (GH_KERNEL_AUTO, 0);
  CHECK (!strncmp (gh_engine_backend_name (e), "cuda: ", 6),
         "a GPU engine: %s", gh_engine_backend_name (e));
  test_seed (17);
  test_check_backend_names (e, 1, 999, 301);
  CHECK (gh_engine_fallback_reason (e) == NULL,
         "the GPU given up for a float image: %s",
         gh_engine_fallback_reason (e));
  gh_engine_destroy (e);
}

/* GIMP 3's luminance rule on a GPU engine: every layout is counted on the
 * GPU and equals the reference. */
static void
check_linear (void)
{
  gh_engine *e = gpu_engine (GH_KERNEL_AUTO, 0);
  test_seed (23);
  for (int i = 0; i < 6; i++)
    {
      test_picture p;
      const gh_layout layouts[3]
        = { GH_LAYOUT_RGB, GH_LAYOUT_RGBA, GH_LAYOUT_GRAYA };
      gh_layout layout = layouts[i % 3];
      test_picture_make (&p, layout, i & 1, 1000 + 13 * i, 211,
                         (test_dist) (i % DIST_COUNT), 0);
      p.image.luminance = GH_LUMINANCE_LINEAR;
      test_check_picture (e, &p, "linear luminance");
      CHECK (!strncmp (gh_engine_backend_name (e), "cuda: ", 6),
             "linear luminance, layout %d, counted by %s", (int) layout,
             gh_engine_backend_name (e));
      test_picture_free (&p);
    }
  CHECK (gh_engine_fallback_reason (e) == NULL,
         "the GPU given up for GIMP 3's luminance: %s",
         gh_engine_fallback_reason (e));
  gh_engine_destroy (e);
}

/* The budget under this run's cap. */
static gh_smem_budget
budget (void)
{
  gh_smem_budget b;
  cudaError_t e = gh_cuda_budget (cap, &b);
  if (e != cudaSuccess)
    {
      printf ("cannot read the device's limits: %s\n", cudaGetErrorString (e));
      exit (1);
    }
  return b;
}

/* The raw kernels (the benchmark's) count the stored samples. */
static void
check_raw (gh_variant v)
{
  const size_t n = quick ? 100003 : 3000017;
  const gh_launch_kind kind = { GH_LAYOUT_RGBA, false, true,
                                GH_LUMINANCE_PERCEPTUAL };
  uint8_t *h = (uint8_t *) malloc (n * 4), *d = NULL;
  unsigned long long *sums = NULL, got[GH_NUM_CHANNELS * 256];
  uint64_t want[4][256];
  memset (want, 0, sizeof want);
  test_seed (99);
  for (size_t i = 0; i < n * 4; i++)
    {
      h[i] = test_below (3) ? (uint8_t) test_rand () : 7;
      want[i & 3][h[i]]++;
    }
  if (!h || cudaMalloc (&d, n * 4) != cudaSuccess
      || cudaMalloc (&sums, sizeof got) != cudaSuccess
      || cudaMemcpy (d, h, n * 4, cudaMemcpyHostToDevice) != cudaSuccess
      || cudaMemset (sums, 0, sizeof got) != cudaSuccess)
    {
      printf ("cannot set up the raw check\n");
      exit (1);
    }
  cudaError_t e = gh_cuda_histogram (v, &kind, cap, d, NULL, n, sums, 0);
  CHECK (e == cudaSuccess, "raw launch of %s: %s", gh_variant_name (v),
         cudaGetErrorString (e));
  e = cudaMemcpy (got, sums, sizeof got, cudaMemcpyDeviceToHost);
  CHECK (e == cudaSuccess, "raw copy: %s", cudaGetErrorString (e));
  int ok = 1;
  for (int k = 0; k < 4; k++)
    for (int b = 0; b < 256; b++)
      ok &= got[(GH_CHANNEL_RED + k) * 256 + b] == want[k][b];
  CHECK (ok, "raw counts of %s", gh_variant_name (v));
  cudaFree (d);
  cudaFree (sums);
  free (h);
}

/* One variant launched directly on a picture (rows packed on the device),
 * against the reference's sums: every variant that fits, not only the one
 * the dispatcher picks, on every kind of call. */
static void
check_variant_picture (gh_variant v, const test_picture *p)
{
  const size_t bpp = (size_t) p->image.layout, n = p->width * p->height;
  const gh_launch_kind kind = { p->image.layout, p->mask != NULL, false,
                                p->image.luminance };
  uint8_t *d_pix = NULL, *d_mask = NULL;
  unsigned long long *sums = NULL, got[GH_NUM_CHANNELS * 256];
  gh_histogram want;
  cudaError_t e;

  if (cudaMalloc (&d_pix, n * bpp) != cudaSuccess
      || cudaMalloc (&d_mask, n) != cudaSuccess
      || cudaMalloc (&sums, sizeof got) != cudaSuccess
      || cudaMemset (sums, 0, sizeof got) != cudaSuccess
      || cudaMemcpy2D (d_pix, p->width * bpp, p->pixels, p->stride,
                       p->width * bpp, p->height, cudaMemcpyHostToDevice)
           != cudaSuccess
      || (p->mask
          && cudaMemcpy2D (d_mask, p->width, p->mask, p->mask_stride,
                           p->width, p->height, cudaMemcpyHostToDevice)
               != cudaSuccess))
    {
      printf ("cannot set up the variant check\n");
      exit (1);
    }
  e = gh_cuda_histogram (v, &kind, cap, d_pix, d_mask, n, sums, 0);
  if (e == cudaSuccess)
    e = cudaMemcpy (got, sums, sizeof got, cudaMemcpyDeviceToHost);
  CHECK (e == cudaSuccess, "%s, layout %d: %s", gh_variant_name (v),
         (int) p->image.layout, cudaGetErrorString (e));
  gh_histogram_init (&want);
  test_reference (p, &want);
  int first = -1;
  for (int i = 0; i < GH_NUM_CHANNELS * 256 && first < 0; i++)
    if (got[i] != want.raw[i])
      first = i;
  CHECK (first < 0,
         "%s, layout %d%s%s: channel %d bin %d is %llu, want %llu",
         gh_variant_name (v), (int) p->image.layout,
         p->mask ? ", mask" : "",
         p->image.luminance == GH_LUMINANCE_LINEAR ? ", GIMP 3" : "",
         first >> 8, first & 255, first < 0 ? 0ull : got[first],
         first < 0 ? 0ull : (unsigned long long) want.raw[first]);
  gh_histogram_clear (&want);
  cudaFree (d_pix);
  cudaFree (d_mask);
  cudaFree (sums);
}

/* Soft edges on an opaque picture: full weight except a ramp of partial
 * weight over the first and last 8 columns (alpha 0 to 224; a mask of
 * 200 there where there is alpha), a transparent block (weight 0, the
 * colours kept) over a ninth of the picture and a scattering of single
 * pixels of weight 128: warps whose pixels are all full, warps with a
 * few partial ones (in some quarters of their groups, not in others)
 * and warps with no full pixel at all. */
static void
soften (test_picture *p)
{
  const size_t bpp = (size_t) p->image.layout;
  const bool alpha = bpp % 2 == 0;
  for (size_t y = 0; y < p->height; y++)
    for (size_t x = 0; x < p->width; x++)
      {
        const bool ramp = x < 8 || x + 8 >= p->width;
        unsigned w = 255;
        if (ramp)
          w = (unsigned) (x < 8 ? x : p->width - 1 - x) * 32;
        if (y >= p->height / 4 && y < p->height / 2 && x >= p->width / 3
            && x < 2 * p->width / 3)
          w = 0;
        if ((x * 7 + y * 13) % 997 == 0)
          w = 128;
        if (alpha)
          p->pixels[y * p->stride + x * bpp + bpp - 1] = (uint8_t) w;
        if (p->mask)
          p->mask[y * p->mask_stride + x] = (uint8_t) (!alpha ? w
                                                       : ramp ? 200
                                                              : 255);
      }
}

/* Every variant that fits, on every layout, mask and luminance rule, on
 * every distribution (--quick: one a variant and layout), with random
 * alpha and mask (many 0 and 255: groups of full pixels, of partial ones
 * and mixed), opaque (the counts kernel's path of full groups alone) and
 * soft-edged (its choice of path per quarter of a warp's groups). */
static void
check_variants (void)
{
  gh_smem_budget b = budget ();
  test_seed (31);
  for (int v = 0; v < GH_VARIANT_COUNT; v++)
    for (int layout = 1; layout <= 4; layout++)
      for (int mask = 0; mask <= 1; mask++)
        for (int lin = 0; lin <= (layout >= 3); lin++)
          for (int d = 0; d < DIST_COUNT; d++)
            /* weights: random, opaque, soft edges (as far as there is
             * alpha or a mask to vary) */
            for (int weights = 0; weights < 3; weights++)
              {
                const gh_launch_kind kind
                  = { (gh_layout) layout, mask != 0, false,
                      lin ? GH_LUMINANCE_LINEAR : GH_LUMINANCE_PERCEPTUAL };
                test_picture p;
                if (!gh_variant_fits ((gh_variant) v, &kind, &b)
                    || (quick && d != (v + layout) % DIST_COUNT)
                    || (layout % 2 && (weights == 1 || (weights && !mask))))
                  continue;
                test_picture_make (&p, (gh_layout) layout, mask,
                                   quick ? 301 : 1001, quick ? 67 : 313,
                                   (test_dist) d, weights != 0);
                if (weights == 2)
                  soften (&p);
                p.image.luminance = kind.luminance;
                check_variant_picture ((gh_variant) v, &p);
                test_picture_free (&p);
              }
}

/* Each colour's GIMP 3 luminance bin on the device, through the kernels'
 * table (kernel_lin.cuh), and where the table's bin stood: 0 clear of a
 * bin's edge, 1 near one and right, 2 near one and one too high (the
 * colours whose counts the count kernel moves afterwards). */
__global__ void
linear_bins (uint8_t *out, uint8_t *near, uint32_t every)
{
  __shared__ uint32_t table[256 * 32];
  const gh_lin_table<32> lin = gh_lin_load<32> (table, threadIdx.x & 31);
  __syncthreads ();
  for (uint32_t c = (blockIdx.x * blockDim.x + threadIdx.x) * every;
       c < (1u << 24); c += gridDim.x * blockDim.x * every)
    {
      const unsigned r = c >> 16, g = (c >> 8) & 255, b = c & 255;
      bool is_near;
      const unsigned fast = gh_lin_fast (lin, r, g, b, is_near);
      out[c] = (uint8_t) gh_lin_bin (lin, r, g, b);
      near[c] = !is_near ? 0 : fast == gh_lin_exact (r, g, b) ? 1 : 2;
    }
}

/* A picture of the colours listed (rgb[3 * i]), each as many times as
 * fit, in turn, opaque. */
static void
colours_picture (test_picture *p, gh_layout layout, int has_mask,
                 size_t width, size_t height, const uint8_t *rgb,
                 size_t colours)
{
  const size_t bpp = (size_t) layout;
  test_picture_make (p, layout, has_mask, width, height, DIST_UNIFORM, 1);
  for (size_t y = 0; y < height; y++)
    for (size_t x = 0; x < width; x++)
      memcpy (p->pixels + y * p->stride + x * bpp,
              rgb + (y * width + x) % colours * 3, 3);
  p->image.luminance = GH_LUMINANCE_LINEAR;
}

/* Every variant that fits, on a picture of GIMP 3's luminance, RGB and
 * RGBA, with and without a mask (random: the counts kernel's mixed path
 * too); --quick: RGBA without a mask (the count path) and RGB with one. */
static void
check_linear_variants (const uint8_t *rgb, size_t colours, size_t width,
                       size_t height)
{
  gh_smem_budget b = budget ();
  for (int v = 0; v < GH_VARIANT_COUNT; v++)
    for (int layout = GH_LAYOUT_RGB; layout <= GH_LAYOUT_RGBA; layout++)
      for (int mask = 0; mask <= 1; mask++)
        {
          const gh_launch_kind kind = { (gh_layout) layout, mask != 0, false,
                                        GH_LUMINANCE_LINEAR };
          test_picture p;
          if (!gh_variant_fits ((gh_variant) v, &kind, &b)
              || (quick && (layout == GH_LAYOUT_RGBA) == (mask != 0)))
            continue;
          colours_picture (&p, (gh_layout) layout, mask, width, height, rgb,
                           colours);
          check_variant_picture ((gh_variant) v, &p);
          test_picture_free (&p);
        }
}

/* GIMP 3's luminance where the kernels' table cannot decide: the colours
 * near a bin's edge, those whose table bin is one too high first, then
 * one of those alone (every pixel of the picture corrected), through
 * every variant (--quick, as under compute-sanitizer: among every 61st
 * colour, and not the single colour).  All 2^24 colours (not --quick):
 * one by one against the host's bin, then as one 4096x4096 image through
 * every variant and through the engine on the GPU, against the
 * reference. */
static void
check_linear_colours (void)
{
  const size_t n = (size_t) 1 << 24;
  uint8_t *d = NULL, *bins = (uint8_t *) malloc (n);
  uint8_t *near = (uint8_t *) malloc (n), *rgb = (uint8_t *) malloc (3 * n);
  size_t wrong = 0, first = 0, colours = 0, too_high = 0;
  cudaError_t e;
  if (!bins || !near || !rgb || cudaMalloc (&d, 2 * n) != cudaSuccess
      || cudaMemset (d, 0, 2 * n) != cudaSuccess)
    {
      printf ("cannot allocate the colour check\n");
      exit (1);
    }
  linear_bins<<<1024, 256>>> (d, d + n, quick ? 61 : 1);
  e = cudaGetLastError ();
  if (e == cudaSuccess)
    e = cudaMemcpy (bins, d, n, cudaMemcpyDeviceToHost);
  if (e == cudaSuccess)
    e = cudaMemcpy (near, d + n, n, cudaMemcpyDeviceToHost);
  CHECK (e == cudaSuccess, "linear bins: %s", cudaGetErrorString (e));
  for (int pass = 2; pass >= 1; pass--)
    for (size_t c = 0; c < n; c++)
      if (near[c] == pass)
        {
          rgb[3 * colours] = (uint8_t) (c >> 16);
          rgb[3 * colours + 1] = (uint8_t) (c >> 8);
          rgb[3 * colours + 2] = (uint8_t) c;
          colours++;
          too_high += pass == 2;
        }
  printf ("GIMP 3 luminance: %zu colours near a bin's edge, %zu of them "
          "one bin too high in the table\n",
          colours, too_high);
  CHECK (too_high > 0 && colours < n / 4096 / (quick ? 61 : 1) + 1,
         "GIMP 3 luminance: %zu colours near an edge, %zu too high (the "
         "correction must be exercised, and rare)",
         colours, too_high);
  check_linear_variants (rgb, colours, quick ? 301 : 1001, quick ? 67 : 313);
  if (!quick)
    check_linear_variants (rgb, 1, 1001, 313);
  for (size_t c = 0; c < n && !quick && e == cudaSuccess; c++)
    if (bins[c]
        != gh_luminance_bin_linear ((unsigned) (c >> 16),
                                    (unsigned) ((c >> 8) & 255),
                                    (unsigned) (c & 255)))
      {
        if (!wrong++)
          first = c;
      }
  CHECK (wrong == 0, "GIMP 3 luminance on the device: %zu of 2^24 colours "
         "differ from the host, the first #%06zx", wrong, first);
  cudaFree (d);
  free (bins);
  free (near);
  if (quick)
    {
      free (rgb);
      return;
    }

  for (size_t c = 0; c < n; c++)
    {
      rgb[3 * c] = (uint8_t) (c >> 16);
      rgb[3 * c + 1] = (uint8_t) (c >> 8);
      rgb[3 * c + 2] = (uint8_t) c;
    }
  check_linear_variants (rgb, n, 4096, 4096);
  free (rgb);

  test_picture p;
  gh_engine *eng = gpu_engine (GH_KERNEL_AUTO, 0);
  test_picture_make (&p, GH_LAYOUT_RGB, 0, 4096, 4096, DIST_UNIFORM, 0);
  for (size_t y = 0; y < 4096; y++)
    for (size_t x = 0; x < 4096; x++)
      {
        uint8_t *px = p.pixels + y * p.stride + 3 * x;
        px[0] = (uint8_t) y;
        px[1] = (uint8_t) (y >> 8 << 4 | x >> 8);
        px[2] = (uint8_t) x;
      }
  p.image.luminance = GH_LUMINANCE_LINEAR;
  test_check_picture (eng, &p, "all 2^24 colours, GIMP 3's luminance");
  CHECK (!strncmp (gh_engine_backend_name (eng), "cuda: ", 6),
         "all colours counted by %s", gh_engine_backend_name (eng));
  test_picture_free (&p);
  gh_engine_destroy (eng);
}

/* The picture moved into the engine's page-locked memory without row
 * padding, so whole-width strips take the direct path and tiles the staged
 * one. */
static void
pin_picture (gh_engine *e, test_picture *p)
{
  size_t bpp = (size_t) p->image.layout, row = p->width * bpp;
  uint8_t *pix = (uint8_t *) gh_engine_alloc_host (e, row * p->height + 1);
  uint8_t *mask = (uint8_t *) gh_engine_alloc_host (e, p->width * p->height + 1);
  cudaPointerAttributes a;
  if (!pix || !mask || cudaPointerGetAttributes (&a, pix) != cudaSuccess
      || a.type != cudaMemoryTypeHost)
    {
      printf ("the engine gave no page-locked memory\n");
      exit (1);
    }
  for (size_t y = 0; y < p->height; y++)
    {
      memcpy (pix + y * row, p->pixels + y * p->stride, row);
      if (p->mask)
        memcpy (mask + y * p->width, p->mask + y * p->mask_stride, p->width);
    }
  free (p->pixels);
  free (p->mask);
  p->pixels = pix;
  p->mask = p->mask ? mask : NULL;
  if (!p->mask)
    gh_engine_free_host (e, mask);
  p->stride = row;
  p->mask_stride = p->width;
}

static void
unpin_picture (gh_engine *e, test_picture *p)
{
  gh_engine_free_host (e, p->pixels);
  gh_engine_free_host (e, p->mask);
  p->pixels = p->mask = NULL;
}

static void
check_pinned (void)
{
  gh_engine *e = gpu_engine (GH_KERNEL_AUTO, 0);
  test_seed (11);
  for (int i = 0; i < (quick ? 4 : 40); i++)
    {
      test_picture p;
      test_picture_random (&p, 3000);
      pin_picture (e, &p);
      test_check_picture (e, &p, "page-locked input");
      unpin_picture (e, &p);
    }
  gh_engine_destroy (e);
}

__global__ void
fill_words (uint32_t *p, size_t n, uint32_t v)
{
  for (size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x)
    p[i] = v;
}

/* One launch over 300 M equal pixels, with alpha and a mask (R = G = B =
 * A = 200) or opaque without one, either luminance rule: each block
 * handles over 2 M pixels, so the shared-memory kernels must empty their
 * 32-bit sums (and counts) into the 64-bit result on the way (sums here
 * pass 2^43).  The global kernel has no 32-bit sums to empty. */
static void
check_big_launch (gh_variant v, bool mask, bool lin)
{
  const size_t n = 300u << 20;
  const uint32_t pixel = mask ? 0xc8c8c8c8u : 0xffc8c8c8u;
  const gh_launch_kind kind
    = { GH_LAYOUT_RGBA, mask, false,
        lin ? GH_LUMINANCE_LINEAR : GH_LUMINANCE_PERCEPTUAL };
  const int lin_bin = gh_luminance_bin_linear (200, 200, 200);
  uint8_t *pix = NULL, *m = NULL;
  unsigned long long *sums = NULL, got[GH_NUM_CHANNELS * 256];
  cudaError_t e;
  if (cudaMalloc (&pix, n * 4) != cudaSuccess
      || cudaMalloc (&m, n) != cudaSuccess
      || cudaMalloc (&sums, sizeof got) != cudaSuccess)
    {
      printf ("cannot allocate %zu MB on the GPU\n", n * 5 >> 20);
      exit (1);
    }
  fill_words<<<1024, 256>>> ((uint32_t *) pix, n, pixel);
  e = cudaGetLastError ();
  if (e == cudaSuccess)
    e = cudaMemset (m, 255, n);
  if (e == cudaSuccess)
    e = cudaMemset (sums, 0, sizeof got);
  if (e == cudaSuccess)
    e = gh_cuda_histogram (v, &kind, cap, pix, mask ? m : NULL, n, sums, 0);
  if (e == cudaSuccess)
    e = cudaMemcpy (got, sums, sizeof got, cudaMemcpyDeviceToHost);
  CHECK (e == cudaSuccess, "big launch of %s: %s", gh_variant_name (v),
         cudaGetErrorString (e));
  for (int c = 0; c < GH_NUM_CHANNELS && e == cudaSuccess; c++)
    {
      /* Weights in the result's units (accum.h). */
      unsigned long long want
        = (unsigned long long) n
          * (c == GH_CHANNEL_ALPHA ? (mask ? 255 : 1)
                                   : (mask ? 200 * 255 : 255));
      int bin = c == GH_CHANNEL_ALPHA && !mask ? 255
                : c == GH_CHANNEL_LUMINANCE && lin ? lin_bin
                : 200;
      CHECK (got[c * 256 + bin] == want,
             "%s%s%s channel %d: %llu, want %llu", gh_variant_name (v),
             mask ? " (mask)" : "", lin ? " (GIMP 3)" : "", c,
             got[c * 256 + bin], want);
    }
  cudaFree (pix);
  cudaFree (m);
  cudaFree (sums);
}

/* Whether the dispatcher breaks a tie between variants a and b for a:
 * the rows' tie ranks (kernel_policy.h). */
static bool
tie_before (gh_variant a, gh_variant b, bool lin)
{
  return lin ? gh_variant_policies[a].tie_linear
                 < gh_variant_policies[b].tie_linear
             : gh_variant_policies[a].tie < gh_variant_policies[b].tie;
}

/* The dispatcher offers exactly the variants that fit the budget: every
 * one of them timed (GH_KERNEL_AUTO), first the earliest (tie_before)
 * within 10% of the fastest, the global kernel last; the same on every
 * later call. */
static void
check_dispatcher (void)
{
  gh_smem_budget b = budget ();
  for (int layout = 1; layout <= 4; layout++)
    for (int mask = 0; mask <= 1; mask++)
      for (int lin = 0; lin <= (layout >= 3); lin++)
        {
          const gh_launch_kind kind
            = { (gh_layout) layout, mask != 0, false,
                lin ? GH_LUMINANCE_LINEAR : GH_LUMINANCE_PERCEPTUAL };
          gh_choice c = gh_cuda_choose (GH_KERNEL_AUTO, &kind, cap);
          gh_choice again = gh_cuda_choose (GH_KERNEL_AUTO, &kind, cap);
          int fitting = 0, offered = 0, ok = 1;
          float fastest = 1e30f;
          char line[256];
          size_t len;

          for (int v = 0; v < GH_VARIANT_GLOBAL; v++)
            {
              fitting += gh_variant_fits ((gh_variant) v, &kind, &b);
              if (c.ms[v] > 0 && c.ms[v] < fastest)
                fastest = c.ms[v];
            }
          len = (size_t) snprintf (line, sizeof line, "layout %d%s%s:",
                                   layout, mask ? " with mask" : "",
                                   lin ? ", GIMP 3" : "");
          for (int i = 0; i < c.count; i++)
            {
              gh_variant v = c.order[i];
              ok &= gh_variant_fits (v, &kind, &b);
              ok &= (v == GH_VARIANT_GLOBAL) == (i == c.count - 1);
              /* No upper bound: under compute-sanitizer a probe takes
               * seconds. */
              ok &= v == GH_VARIANT_GLOBAL
                    || (c.ms[v] > 0
                        && (i == 0 ? c.ms[v] <= fastest * 1.1f
                                   : !tie_before (v, c.order[0], lin)
                                       || c.ms[v] > fastest * 1.1f));
              offered += v != GH_VARIANT_GLOBAL;
              if (len < sizeof line)
                len += (size_t) snprintf (line + len, sizeof line - len,
                                          " %s %.3f ms", gh_variant_name (v),
                                          c.ms[v]);
            }
          CHECK (ok && offered == fitting && c.count >= 1,
                 "%s: %d offered of %d that fit", line, offered, fitting);
          CHECK (again.count == c.count
                   && !memcmp (again.order, c.order, sizeof c.order)
                   && !memcmp (again.ms, c.ms, sizeof c.ms),
                 "%s: calibrated once", line);
          printf ("dispatcher, %s\n", line);
        }
}

/* A failure after `after` chunks: same result, one reason, CPU after. */
static void
check_fallback (int after, int pinned)
{
  gh_engine *e = gpu_engine (GH_KERNEL_AUTO, after);
  test_picture p;
  test_seed (5);
  test_picture_make (&p, GH_LAYOUT_RGBA, 1, 5003, quick ? 1001 : 4001,
                     DIST_UNIFORM, 0);
  if (pinned)
    pin_picture (e, &p);
  test_check_picture (e, &p, pinned ? "fallback, page-locked" : "fallback");
  CHECK (gh_engine_fallback_reason (e) != NULL, "a reason after %d chunks",
         after);
  CHECK (!strncmp (gh_engine_backend_name (e), "cpu: ", 5),
         "on the CPU afterwards: %s", gh_engine_backend_name (e));
  printf ("fallback after %d chunks%s: %s\n", after,
          pinned ? " (page-locked input)" : "", gh_engine_fallback_reason (e));
  test_check_picture (e, &p, "after fallback");
  if (pinned)
    unpin_picture (e, &p);
  test_picture_free (&p);
  gh_engine_destroy (e);
}

/* Every check under the current cap. */
static void
run_checks (void)
{
  gh_smem_budget b = budget ();
  const gh_launch_kind raw = { GH_LAYOUT_RGBA, false, true,
                               GH_LUMINANCE_PERCEPTUAL };
  printf ("== shared memory: %zu bytes a block, %zu a multiprocessor "
          "(cap %zu)\n",
          b.per_block, b.per_sm, cap);
  check_dispatcher ();
  /* Each family calibrates on its own; under compute-sanitizer (--quick)
   * that takes minutes, and check_variants launches every variant
   * directly anyway. */
  if (!quick)
    {
      check_kernel (GH_KERNEL_PACKED, "packed");
      check_kernel (GH_KERNEL_SHARED_ATOMIC, "shared-atomic");
    }
  check_kernel (GH_KERNEL_AUTO, "auto");
  check_variants ();
  for (int v = 0; v < GH_VARIANT_COUNT; v++)
    {
      if (gh_variant_fits ((gh_variant) v, &raw, &b))
        check_raw ((gh_variant) v);
      if (quick || v == GH_VARIANT_GLOBAL)
        continue;
      for (int lin = 0; lin <= 1; lin++)
        {
          const gh_luminance rule
            = lin ? GH_LUMINANCE_LINEAR : GH_LUMINANCE_PERCEPTUAL;
          const gh_launch_kind weighted
            = { GH_LAYOUT_RGBA, true, false, rule };
          const gh_launch_kind opaque
            = { GH_LAYOUT_RGBA, false, false, rule };
          if (gh_variant_fits ((gh_variant) v, &weighted, &b))
            check_big_launch ((gh_variant) v, true, lin);
          if (v != GH_VARIANT_PACKED
              && gh_variant_fits ((gh_variant) v, &opaque, &b))
            check_big_launch ((gh_variant) v, false, lin);
        }
    }
  check_pinned ();
  check_float ();
  check_linear ();
  check_linear_colours ();
  /* 20 M pixels are 5 chunks: fail at the first, in the middle, and at
   * the last one, submitted by finish. */
  for (int pinned = 0; pinned <= 1; pinned++)
    {
      check_fallback (1, pinned);
      if (!quick)
        {
          check_fallback (3, pinned);
          check_fallback (4, pinned);
        }
    }
}

static double
wall (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

/* Feeds rows [y0, y1) of a picture. */
static void
feed_rows (gh_engine *e, const test_picture *p, size_t y0, size_t y1)
{
  gh_error err;
  gh_piece piece = { p->pixels + y0 * p->stride, p->width, y1 - y0,
                     p->stride, p->mask ? p->mask + y0 * p->mask_stride : NULL,
                     p->mask_stride };
  CHECK (gh_engine_feed (e, &piece, &err) == GH_OK, "feed: %s", err.message);
}

static void
finish_exact (gh_engine *e, const test_picture *p, const char *what)
{
  gh_histogram got, want;
  gh_error err;
  gh_histogram_init (&got);
  gh_histogram_init (&want);
  CHECK (gh_engine_finish (e, &got, &err) == GH_OK, "%s: %s", what,
         err.message);
  test_reference (p, &want);
  CHECK (test_same_histogram (&got, &want), "%s differs from the reference",
         what);
  gh_histogram_clear (&got);
  gh_histogram_clear (&want);
}

/* AUTO on a real GPU (a call never waits for the GPU's start): create
 * does not wait for the context; a piece fed at once is counted by the CPU
 * and the GPU takes the rest once it is ready, exactly, named for both;
 * then a GPU that fails mid-image under AUTO is news
 * (gh_engine_gpu_failed) and the name says why. */
static void
check_auto (void)
{
  const struct timespec ready = { 3, 0 };
  gh_timings tm;
  gh_options o;
  gh_engine *e;
  gh_error err;
  test_picture p;
  double t;

  gh_options_init (&o);
  o.quiet = 1;
  /* The picture first: making it takes longer than a context's start,
   * which would then be ready before the first piece. */
  test_picture_make (&p, GH_LAYOUT_RGBA, 1, 2048, 1024, DIST_UNIFORM, 0);
  t = wall ();
  CHECK (gh_engine_create (&o, &e, &err) == GH_OK, "%s", err.message);
  t = wall () - t;
  CHECK (t < 0.05, "AUTO's create waited %.3f s", t);
  CHECK (gh_engine_begin (e, &p.image, &err) == GH_OK, "%s", err.message);
  feed_rows (e, &p, 0, 16);
  nanosleep (&ready, NULL); /* the context is ready well before this */
  for (size_t y = 16; y < p.height; y += 256)
    feed_rows (e, &p, y, y + 256 < p.height ? y + 256 : p.height);
  finish_exact (e, &p, "AUTO, GPU ready mid-image");
  gh_engine_timings (e, &tm);
  CHECK (tm.cpu_pixels > 0 && tm.gpu_pixels > 0,
         "the CPU began (%llu pixels), the GPU took the rest (%llu)",
         (unsigned long long) tm.cpu_pixels,
         (unsigned long long) tm.gpu_pixels);
  CHECK (!strncmp (gh_engine_backend_name (e), "cpu: ", 5)
           && strstr (gh_engine_backend_name (e), " + cuda: "),
         "a shared image is named for both: %s", gh_engine_backend_name (e));
  test_check_picture (e, &p, "AUTO, the next image");
  CHECK (!strncmp (gh_engine_backend_name (e), "cuda: ", 6),
         "then the GPU alone: %s", gh_engine_backend_name (e));
  CHECK (!gh_engine_gpu_failed (e), "nothing failed");
  gh_engine_destroy (e);
  test_picture_free (&p);

  o.inject_gpu_failure_after = 1;
  CHECK (gh_engine_create (&o, &e, &err) == GH_OK, "%s", err.message);
  nanosleep (&ready, NULL);
  test_picture_make (&p, GH_LAYOUT_RGBA, 0, 4096, 2560, DIST_SKEWED, 0);
  CHECK (gh_engine_begin (e, &p.image, &err) == GH_OK, "%s", err.message);
  feed_rows (e, &p, 0, p.height);
  finish_exact (e, &p, "AUTO, GPU failing after a chunk");
  CHECK (gh_engine_gpu_failed (e)
           && !strncmp (gh_engine_backend_name (e), "cpu: ", 5)
           && strstr (gh_engine_backend_name (e), " (GPU failed: "),
         "a GPU failing under AUTO is told: %s (failed %d)",
         gh_engine_backend_name (e), gh_engine_gpu_failed (e));
  gh_engine_destroy (e);
  test_picture_free (&p);
}

int
main (int argc, char **argv)
{
  /* None, then the A100's, consumer Ampere / Ada / Blackwell's and
   * Turing's opt-in limits, in KB. */
  const int caps[4] = { 0, 163, 99, 64 };
  int only = -1, devices = 0;
  for (int i = 1; i < argc; i++)
    if (!strcmp (argv[i], "--quick"))
      quick = 1;
    else if (!strcmp (argv[i], "--cap") && i + 1 < argc)
      only = atoi (argv[++i]);
    else
      {
        printf ("usage: test_gpu [--quick] [--cap KB]\n");
        return 2;
      }
  if (cudaGetDeviceCount (&devices) != cudaSuccess || devices == 0)
    {
      cudaGetLastError ();
      printf ("SKIP: no CUDA device\n");
      return 77;
    }
  gh_engine *probe = gpu_engine (GH_KERNEL_AUTO, 0);
  int usable = !strncmp (gh_engine_backend_name (probe), "cuda: ", 6);
  CHECK (usable, "a CUDA device, but the engine counts on %s (%s)",
         gh_engine_backend_name (probe), gh_engine_fallback_reason (probe));
  gh_engine_destroy (probe);
  if (!usable)
    return test_summary ();
  check_auto ();
  for (int i = 0; i < 4; i++)
    if (only < 0 || caps[i] == only)
      {
        cap = (size_t) caps[i] * 1024;
        run_checks ();
      }
  if (only > 0 && only != 64 && only != 99 && only != 163)
    {
      cap = (size_t) only * 1024;
      run_checks ();
    }
  return test_summary ();
}
