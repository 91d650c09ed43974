/* test_gpu.cu — the CUDA backend and both kernels against the plain
 * reference, the raw kernels against plain counts, and the fallback to the
 * CPU when the GPU fails mid-image.  Exits 77 (skipped) with no GPU.
 * --quick runs a few cases of each, for compute-sanitizer. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "cuda_launch.h"

static int quick;

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

/* GIMP 3's luminance rule on a GPU engine: colour images under it are
 * counted on the CPU (the kernels bin GIMP 2.10's luminance only), equal
 * the reference, say so in the backend name, and leave the GPU in use
 * for the next image; gray ones stay on the GPU. */
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
      CHECK (!strncmp (gh_engine_backend_name (e),
                       layout == GH_LAYOUT_GRAYA ? "cuda: " : "cpu: ", 5),
             "linear luminance, layout %d, counted by %s", (int) layout,
             gh_engine_backend_name (e));
      test_picture_free (&p);
    }
  CHECK (gh_engine_fallback_reason (e) == NULL,
         "the GPU given up for GIMP 3's luminance: %s",
         gh_engine_fallback_reason (e));
  gh_engine_destroy (e);
}

/* The raw kernels (the benchmark's) count the stored samples. */
static void
check_raw (gh_kernel kernel)
{
  const size_t n = quick ? 100003 : 3000017;
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
  cudaMalloc (&d, n * 4);
  cudaMalloc (&sums, sizeof got);
  cudaMemcpy (d, h, n * 4, cudaMemcpyHostToDevice);
  cudaMemset (sums, 0, sizeof got);
  cudaError_t e = gh_cuda_histogram (kernel, GH_LAYOUT_RGBA, false, true, d,
                                     NULL, n, sums, 0);
  CHECK (e == cudaSuccess, "raw launch: %s", cudaGetErrorString (e));
  e = cudaMemcpy (got, sums, sizeof got, cudaMemcpyDeviceToHost);
  CHECK (e == cudaSuccess, "raw copy: %s", cudaGetErrorString (e));
  int ok = 1;
  for (int k = 0; k < 4; k++)
    for (int b = 0; b < 256; b++)
      ok &= got[(GH_CHANNEL_RED + k) * 256 + b] == want[k][b];
  CHECK (ok, "raw kernel %d counts", (int) kernel);
  cudaFree (d);
  cudaFree (sums);
  free (h);
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
 * A = 200) or opaque without one: each block handles over 2 M pixels, so
 * the kernels must empty their 32-bit sums into the 64-bit result on the
 * way (sums here pass 2^43). */
static void
check_big_launch (gh_kernel kernel, bool mask)
{
  const size_t n = 300u << 20;
  const uint32_t pixel = mask ? 0xc8c8c8c8u : 0xffc8c8c8u;
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
  cudaMemset (m, 255, n);
  cudaMemset (sums, 0, sizeof got);
  e = gh_cuda_histogram (kernel, GH_LAYOUT_RGBA, mask, false, pix,
                         mask ? m : NULL, n, sums, 0);
  CHECK (e == cudaSuccess, "big launch: %s", cudaGetErrorString (e));
  cudaMemcpy (got, sums, sizeof got, cudaMemcpyDeviceToHost);
  for (int c = 0; c < GH_NUM_CHANNELS; c++)
    {
      /* Weights in the result's units (accum.h). */
      unsigned long long want
        = (unsigned long long) n
          * (c == GH_CHANNEL_ALPHA ? (mask ? 255 : 1)
                                   : (mask ? 200 * 255 : 255));
      int bin = c == GH_CHANNEL_ALPHA && !mask ? 255 : 200;
      CHECK (got[c * 256 + bin] == want,
             "kernel %d%s channel %d: %llu, want %llu", (int) kernel,
             mask ? " (mask)" : "", c, got[c * 256 + bin], want);
    }
  cudaFree (pix);
  cudaFree (m);
  cudaFree (sums);
}

/* The dispatcher's calibration ran (both probe times measured) and keeps
 * the faster kernel, the same on every later call. */
static void
check_dispatcher (void)
{
  for (int layout = 1; layout <= 4; layout++)
    for (int mask = 0; mask <= 1; mask++)
      {
        float ms[2], again[2];
        gh_kernel k = gh_cuda_choose_kernel ((gh_layout) layout, mask, false,
                                             ms);
        gh_kernel k2 = gh_cuda_choose_kernel ((gh_layout) layout, mask,
                                              false, again);
        CHECK (ms[0] > 0 && ms[1] > 0 && ms[0] < 1e3f && ms[1] < 1e3f,
               "layout %d mask %d: probe times %g, %g ms", layout, mask,
               ms[0], ms[1]);
        CHECK (k == (ms[0] < ms[1] ? GH_KERNEL_PACKED
                                   : GH_KERNEL_SHARED_ATOMIC),
               "layout %d mask %d: the faster kernel", layout, mask);
        CHECK (k2 == k && again[0] == ms[0] && again[1] == ms[1],
               "layout %d mask %d: calibrated once", layout, mask);
        printf ("dispatcher, layout %d%s: %s (probe: packed %.3f ms, "
                "shared-atomic %.3f ms)\n",
                layout, mask ? " with mask" : "",
                k == GH_KERNEL_PACKED ? "packed" : "shared-atomic", ms[0],
                ms[1]);
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

int
main (int argc, char **argv)
{
  quick = argc > 1 && !strcmp (argv[1], "--quick");
  gh_engine *probe = gpu_engine (GH_KERNEL_AUTO, 0);
  if (strncmp (gh_engine_backend_name (probe), "cuda: ", 6))
    {
      printf ("SKIP: no usable GPU (%s)\n",
              gh_engine_fallback_reason (probe));
      gh_engine_destroy (probe);
      return 77;
    }
  gh_engine_destroy (probe);
  check_dispatcher ();
  check_kernel (GH_KERNEL_PACKED, "packed");
  check_kernel (GH_KERNEL_SHARED_ATOMIC, "shared-atomic");
  check_kernel (GH_KERNEL_AUTO, "auto");
  check_raw (GH_KERNEL_PACKED);
  check_raw (GH_KERNEL_SHARED_ATOMIC);
  if (!quick)
    {
      check_big_launch (GH_KERNEL_PACKED, true);
      check_big_launch (GH_KERNEL_SHARED_ATOMIC, true);
      check_big_launch (GH_KERNEL_SHARED_ATOMIC, false);
    }
  /* 20 M pixels are 5 chunks: fail at the first, in the middle, and at
   * the last one, submitted by finish. */
  check_pinned ();
  check_float ();
  check_linear ();
  for (int pinned = 0; pinned <= 1; pinned++)
    {
      check_fallback (1, pinned);
      if (!quick)
        {
          check_fallback (3, pinned);
          check_fallback (4, pinned);
        }
    }
  return test_summary ();
}
