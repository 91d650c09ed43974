/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gpu_bench.cu — the GPU half of the benchmark: the kernels beside CUB's
 * MultiHistogramEven<4,4> and a read-only bandwidth kernel, on images
 * already on the GPU; the dispatcher's choice under each shared-memory cap
 * (the limits of smaller GPUs, gh_options.smem_cap); then the engine's
 * whole call on host-resident images (pageable and pinned) beside plain
 * host-to-device copies, and the GPU start-up on its own; each mode's
 * kernel against its on-chip ceiling (L2-resident input).  All figures are
 * GB/s of RGBA8 image read and ratios taken in this one run. */
#include "gpu_bench.h"

#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include <cub/device/device_histogram.cuh>
#include <cuda_profiler_api.h>

#include "cuda_launch.h"
#include "gpu_histogram.h"

#define CK(...)                                                              \
  do                                                                         \
    {                                                                        \
      cudaError_t e_ = (__VA_ARGS__);                                             \
      if (e_ != cudaSuccess)                                                 \
        {                                                                    \
          fprintf (stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #__VA_ARGS__,     \
                   cudaGetErrorString (e_));                                 \
          exit (1);                                                          \
        }                                                                    \
    }                                                                        \
  while (0)

/* Reads every 16 bytes once, several loads in flight; the xor is written
 * only if it hits an impossible value, so nothing is optimised away. */
__global__ void
read_kernel (const uint4 *__restrict__ p, size_t n, unsigned *out)
{
  unsigned x = 0;
  size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  size_t step = (size_t) gridDim.x * blockDim.x;
  for (; i + 3 * step < n; i += 4 * step)
    {
      uint4 a = __ldg (p + i), b = __ldg (p + i + step),
            c = __ldg (p + i + 2 * step), d = __ldg (p + i + 3 * step);
      x ^= a.x ^ a.y ^ a.z ^ a.w ^ b.x ^ b.y ^ b.z ^ b.w ^ c.x ^ c.y ^ c.z
           ^ c.w ^ d.x ^ d.y ^ d.z ^ d.w;
    }
  for (; i < n; i += step)
    {
      uint4 a = __ldg (p + i);
      x ^= a.x ^ a.y ^ a.z ^ a.w;
    }
  if (x == 0x9E3779B9u)
    out[blockIdx.x] = x;
}

typedef struct {
  cudaEvent_t start, stop;
  int repeat;
} timer;

/* Median milliseconds of `repeat` runs of f, after two warm-ups. */
template <class F>
static double
time_ms (timer &t, F f)
{
  std::vector<float> ms;
  for (int i = 0; i < 2; i++)
    f ();
  CK (cudaDeviceSynchronize ());
  for (int i = 0; i < t.repeat; i++)
    {
      float m;
      CK (cudaEventRecord (t.start));
      f ();
      CK (cudaEventRecord (t.stop));
      CK (cudaEventSynchronize (t.stop));
      CK (cudaEventElapsedTime (&m, t.start, t.stop));
      ms.push_back (m);
    }
  std::sort (ms.begin (), ms.end ());
  return ms[ms.size () / 2];
}

/* The dispatcher's calibration for one kind of call: what "chosen" ran. */
static void
print_choice (const gh_launch_kind *kind, size_t cap)
{
  gh_choice c = gh_cuda_choose (GH_KERNEL_AUTO, kind, cap);
  printf ("chosen: %s (calibration probe of 1 M random pixels:",
          gh_variant_name (c.order[0]));
  for (int i = 0; i < c.count; i++)
    if (c.ms[c.order[i]] > 0)
      printf (" %s %.3f ms", gh_variant_name (c.order[i]), c.ms[c.order[i]]);
  printf (")\n");
}

/* The variant the dispatcher picks for this kind under this cap. */
static gh_variant
chosen (const gh_launch_kind *kind, size_t cap)
{
  return gh_cuda_choose (GH_KERNEL_AUTO, kind, cap).order[0];
}

static double
host_median (std::vector<double> v)
{
  std::sort (v.begin (), v.end ());
  return v[v.size () / 2];
}

static double
gbps (size_t bytes, double ms)
{
  return (double) bytes / (ms * 1e-3) / 1e9;
}

/* Engine call on host pixels: begin, one piece, finish. */
static double
engine_call_ms (gh_engine *e, const uint8_t *pixels, size_t w, size_t h,
                int repeat)
{
  gh_image img = { GH_LAYOUT_RGBA, GH_SAMPLE_U8, 256, 0,
                   GH_LUMINANCE_PERCEPTUAL, 0 };
  gh_piece piece = { pixels, w, h, w * 4, NULL, 0 };
  gh_histogram out;
  gh_error err;
  std::vector<double> t;
  gh_histogram_init (&out);
  for (int i = 0; i < repeat + 1; i++)
    {
      double t0 = now_seconds ();
      if (gh_engine_begin (e, &img, &err) != GH_OK
          || gh_engine_feed (e, &piece, &err) != GH_OK
          || gh_engine_finish (e, &out, &err) != GH_OK)
        {
          fprintf (stderr, "engine: %s\n", err.message);
          exit (1);
        }
      if (i)
        t.push_back ((now_seconds () - t0) * 1e3);
    }
  gh_histogram_clear (&out);
  return host_median (t);
}

/* The read ceiling: `bytes` of device memory read once at the device's
 * rate. */
static double
read_ms (timer &t, const uint8_t *d, size_t bytes, unsigned *d_sink, int sms)
{
  double ms = time_ms (t, [&] {
    read_kernel<<<sms * 8, 256>>> ((const uint4 *) d, bytes / 16, d_sink);
  });
  CK (cudaGetLastError ());
  return ms;
}

/* The read ceiling of a masked call: the image's four bytes a pixel and
 * the mask's one, each read once at the device's rate, so a kernel that
 * reads both at that rate scores 1.0 (not the image's time alone, which
 * would cap a masked kernel at 0.8). */
static double
read_ms_with_mask (timer &t, double ms_read_image, const uint8_t *d_mask,
                   size_t n, unsigned *d_sink, int sms)
{
  return ms_read_image + read_ms (t, d_mask, n, d_sink, sms);
}

/* Input `image` on the GPU in d_img: as it is, or made weighted (partial
 * alpha, and its selection mask in d_mask) through the host buffers. */
static void
upload (const uint8_t *image, bool weighted, size_t width, size_t height,
        uint8_t *h_weighted, uint8_t *h_mask, uint8_t *d_img, uint8_t *d_mask)
{
  const size_t n = width * height, bytes = n * 4;

  if (!weighted)
    {
      CK (cudaMemcpy (d_img, image, bytes, cudaMemcpyHostToDevice));
      return;
    }
  memcpy (h_weighted, image, bytes);
  image_make_weighted (width, height, h_weighted, h_mask);
  CK (cudaMemcpy (d_img, h_weighted, bytes, cudaMemcpyHostToDevice));
  CK (cudaMemcpy (d_mask, h_mask, n, cudaMemcpyHostToDevice));
}

/* Under each shared-memory cap, on each input: every variant that fits
 * (the global kernel aside) and the dispatcher's choice, in five modes:
 * raw (the four stored channels), GIMP's six channels (opaque; with
 * GIMP 2.10's luminance, then GIMP 3's), weighted (partial alpha and a
 * mask) and alpha (the same partial alpha, no mask), as ratios to the
 * read ceiling of the same bytes (with a mask: the image's and the
 * mask's, read_ms_with_mask); then each column's lowest ratio and its
 * level (slowest / fastest input).  One table of the choices, then one
 * line per cap, mode and variant.  Each time (kernel and ceiling) is the
 * best of CAP_ROUNDS rounds, each round taking every input in turn: a
 * cell is a fraction of a millisecond, so a stall of the shared machine
 * during one cell's runs would otherwise stand as that cell's figure (one
 * cell of a table at 0.65-0.68 where the rest of its column ran at
 * 0.86-0.93, a different cell each run). */
#define CAPS 4
#define CAP_ROUNDS 3
#define CAP_MODES 5
static const char *const mode_names[CAP_MODES]
  = { "raw", "gimp", "gimp-linear", "weighted", "alpha" };
static const gh_launch_kind mode_kinds[CAP_MODES]
  = { { GH_LAYOUT_RGBA, false, true, GH_LUMINANCE_PERCEPTUAL },
      { GH_LAYOUT_RGBA, false, false, GH_LUMINANCE_PERCEPTUAL },
      { GH_LAYOUT_RGBA, false, false, GH_LUMINANCE_LINEAR },
      { GH_LAYOUT_RGBA, true, false, GH_LUMINANCE_PERCEPTUAL },
      { GH_LAYOUT_RGBA, false, false, GH_LUMINANCE_PERCEPTUAL } };
/* Whether a mode reads the weighted image (partial alpha). */
static const bool mode_partial[CAP_MODES] = { false, false, false, true,
                                              true };
static void
caps_table (uint8_t *const images[IMG_KINDS], size_t width, size_t height,
            uint8_t *h_weighted, uint8_t *h_mask, uint8_t *d_img,
            uint8_t *d_mask, unsigned long long *d_sums, unsigned *d_sink,
            int sms, timer &t)
{
  const size_t n = width * height, bytes = n * 4;
  const size_t sums_bytes = GH_NUM_CHANNELS * 256 * sizeof *d_sums;
  const int caps_kb[CAPS] = { 0, 163, 99, 64 };
  const char *const *names = mode_names;
  const gh_launch_kind *kinds = mode_kinds;
  const bool *partial = mode_partial;
  static double ratio[CAPS][GH_VARIANT_COUNT][IMG_KINDS][CAP_MODES];
  static double ms_of[CAPS][GH_VARIANT_COUNT][IMG_KINDS][CAP_MODES];
  gh_smem_budget budgets[CAPS];

  for (int c = 0; c < CAPS; c++)
    CK (gh_cuda_budget ((size_t) caps_kb[c] * 1024, &budgets[c]));
  /* Best times per input: the image's read (plain, partial alpha), the
   * image's and the mask's, and each kernel's. */
  double read_best[IMG_KINDS][2] = { { 0 } }, masked_best[IMG_KINDS] = { 0 };
  memset (ms_of, 0, sizeof ms_of);
  memset (ratio, 0, sizeof ratio);
  auto keep_best = [] (double *best, double ms) {
    *best = *best == 0 || ms < *best ? ms : *best;
  };
  for (int round = 0; round < CAP_ROUNDS; round++)
    for (int k = 0; k < IMG_KINDS; k++)
      for (int weighted = 0; weighted <= 1 && images[k]; weighted++)
        {
          upload (images[k], weighted, width, height, h_weighted, h_mask,
                  d_img, d_mask);
          double ms_read = read_ms (t, d_img, bytes, d_sink, sms);
          keep_best (&read_best[k][weighted], ms_read);
          if (weighted)
            keep_best (&masked_best[k], read_ms_with_mask (t, ms_read, d_mask,
                                                           n, d_sink, sms));
          for (int mode = 0; mode < CAP_MODES; mode++)
            for (int c = 0; c < CAPS && partial[mode] == (weighted != 0); c++)
              for (int v = 0; v < GH_VARIANT_GLOBAL; v++)
                {
                  size_t cap = (size_t) caps_kb[c] * 1024;
                  if (!gh_variant_fits ((gh_variant) v, &kinds[mode],
                                        &budgets[c]))
                    continue;
                  double ms = time_ms (t, [&] {
                    CK (cudaMemsetAsync (d_sums, 0, sums_bytes));
                    CK (gh_cuda_histogram ((gh_variant) v, &kinds[mode], cap,
                                           d_img,
                                           kinds[mode].mask ? d_mask : NULL,
                                           n, d_sums, 0));
                  });
                  double *best = &ms_of[c][v][k][mode];
                  keep_best (best, ms);
                  ratio[c][v][k][mode] = (kinds[mode].mask
                                            ? masked_best[k]
                                            : read_best[k][weighted])
                                         / *best;
                }
        }

  /* Lowest ratio and level of variant v in one mode under one cap. */
  auto summary = [&] (int c, int v, int mode, double *lo, double *level) {
    double fast = 1e30, slow = 0;
    *lo = 0;
    for (int k = 0; k < IMG_KINDS; k++)
      {
        double r = ratio[c][v][k][mode], ms = ms_of[c][v][k][mode];
        if (!images[k] || ms == 0)
          continue;
        *lo = *lo == 0 || r < *lo ? r : *lo;
        fast = ms < fast ? ms : fast;
        slow = ms > slow ? ms : slow;
      }
    *level = slow > 0 ? slow / fast : 0;
  };

  printf ("\n== Shared-memory caps: the chosen kernel, ratio to read "
          "(%zux%zu RGBA8)\n",
          width, height);
  printf ("%-5s %-10s", "cap", "input");
  for (int mode = 0; mode < CAP_MODES; mode++)
    printf (" %11s", names[mode]);
  printf ("\n");
  for (int c = 0; c < CAPS; c++)
    {
      char cap_name[16];
      size_t cap = (size_t) caps_kb[c] * 1024;
      snprintf (cap_name, sizeof cap_name, caps_kb[c] ? "%d KB" : "none",
                caps_kb[c]);
      for (int k = 0; k < IMG_KINDS; k++)
        {
          if (!images[k])
            continue;
          printf ("%-5s %-10s", cap_name, image_kind_names[k]);
          for (int mode = 0; mode < CAP_MODES; mode++)
            printf (" %11.2f", ratio[c][chosen (&kinds[mode], cap)][k][mode]);
          printf ("\n");
        }
      double lo[CAP_MODES], level[CAP_MODES];
      for (int mode = 0; mode < CAP_MODES; mode++)
        summary (c, chosen (&kinds[mode], cap), mode, &lo[mode],
                 &level[mode]);
      printf ("%-5s %-10s", cap_name, "lowest");
      for (int mode = 0; mode < CAP_MODES; mode++)
        printf (" %11.2f", lo[mode]);
      printf ("\n%-5s %-10s", cap_name, "level");
      for (int mode = 0; mode < CAP_MODES; mode++)
        printf (" %11.2f", level[mode]);
      printf ("\n%-5s %-10s", cap_name, "kernel");
      for (int mode = 0; mode < CAP_MODES; mode++)
        printf (" %11s", gh_variant_name (chosen (&kinds[mode], cap)));
      printf ("\n");
    }

  printf ("\n== Shared-memory caps: every variant that fits, lowest ratio "
          "to read over the inputs / level\n");
  printf ("%-5s %-18s", "cap", "variant");
  for (int mode = 0; mode < CAP_MODES; mode++)
    printf (" %11s", names[mode]);
  printf ("\n");
  for (int c = 0; c < CAPS; c++)
    for (int v = 0; v < GH_VARIANT_GLOBAL; v++)
      {
        bool any = false;
        for (int mode = 0; mode < CAP_MODES; mode++)
          any |= gh_variant_fits ((gh_variant) v, &kinds[mode], &budgets[c]);
        if (!any)
          continue;
        printf ("%-5d %-18s", caps_kb[c], gh_variant_name ((gh_variant) v));
        for (int mode = 0; mode < CAP_MODES; mode++)
          {
            double lo, level;
            summary (c, v, mode, &lo, &level);
            if (lo > 0)
              printf ("   %.2f/%.2f", lo, level);
            else
              printf (" %11s", "-");
          }
        printf ("\n");
      }
  for (int c = 0; c < CAPS; c++)
    {
      printf ("cap %d KB:\n", caps_kb[c]);
      for (int mode = 0; mode < CAP_MODES; mode++)
        {
          printf ("  %-11s ", names[mode]);
          print_choice (&kinds[mode], (size_t) caps_kb[c] * 1024);
        }
    }
}

/* Each mode's chosen kernel (no cap) against its two ceilings: the read
 * of the same bytes from device memory, and its own on-chip ceiling, the
 * same kernel on a slice of the image small enough to stay in L2 (half of
 * it), run back to back so that after the first launch no read goes to
 * device memory: the same shared-memory work with the DRAM reads taken
 * out.  The on-chip rate is the slice's time less its half's, so the
 * launches' gaps and each block's fixed start and flush, which a slice
 * pays more of than the whole image, drop out.  GB/s of image bytes
 * each; the kernel over the binding ceiling, min (read, on-chip), lowest
 * over the inputs. */
static void
onchip_table (uint8_t *const images[IMG_KINDS], size_t width, size_t height,
              uint8_t *h_weighted, uint8_t *h_mask, uint8_t *d_img,
              uint8_t *d_mask, unsigned long long *d_sums, unsigned *d_sink,
              int sms, size_t l2, timer &t)
{
  const size_t n = width * height, bytes = n * 4;
  const int reps = 50;

  printf ("\n== On-chip ceiling: each mode's chosen kernel (no cap) on an "
          "L2-resident slice; GB/s, kernel / min (read, on-chip)\n");
  printf ("%-11s %-10s %7s %8s %7s %6s %s\n", "mode", "input", "read",
          "on-chip", "kernel", "ratio", "binding");
  for (int mode = 0; mode < CAP_MODES; mode++)
    {
      const gh_launch_kind *kind = &mode_kinds[mode];
      gh_variant v = chosen (kind, 0);
      /* The slice: half of L2, image and mask together. */
      size_t ns = l2 / 2 / (kind->mask ? 5 : 4);
      double lowest = 0;
      ns = ns < n ? ns : n;
      for (int k = 0; k < IMG_KINDS; k++)
        {
          if (!images[k])
            continue;
          upload (images[k], mode_partial[mode], width, height, h_weighted,
                  h_mask, d_img, d_mask);
          double ms_read = read_ms (t, d_img, bytes, d_sink, sms);
          if (kind->mask)
            ms_read = read_ms_with_mask (t, ms_read, d_mask, n, d_sink, sms);
          double ms = time_ms (t, [&] {
            CK (cudaMemsetAsync (d_sums, 0, GH_NUM_CHANNELS * 256 * sizeof *d_sums));
            CK (gh_cuda_histogram (v, kind, 0, d_img, kind->mask ? d_mask : NULL,
                                   n, d_sums, 0));
          });
          double ms_slice[2];
          for (int h = 0; h < 2; h++)
            ms_slice[h] = time_ms (t, [&] {
              for (int r = 0; r < reps; r++)
                CK (gh_cuda_histogram (v, kind, 0, d_img,
                                       kind->mask ? d_mask : NULL, ns >> h,
                                       d_sums, 0));
            }) / reps;
          double read = gbps (bytes, ms_read), kern = gbps (bytes, ms);
          double chip = ms_slice[0] > ms_slice[1]
                          ? gbps ((ns - (ns >> 1)) * 4, ms_slice[0] - ms_slice[1])
                          : 1e30;
          double bound = read < chip ? read : chip, ratio = kern / bound;
          lowest = lowest == 0 || ratio < lowest ? ratio : lowest;
          printf ("%-11s %-10s %7.0f %8.0f %7.0f %6.2f %s\n", mode_names[mode],
                  image_kind_names[k], read, chip, kern, ratio,
                  read < chip ? "read" : "on-chip");
        }
      printf ("%-11s %-10s %7s %8s %7s %6.2f %s\n", mode_names[mode], "lowest", "",
              "", "", lowest, gh_variant_name (v));
    }
}

/* For a profiler (--profile-counts): each mode's chosen kernel (no cap),
 * raw aside, once on each input over the whole image, between
 * cudaProfilerStart and Stop (ncu --profile-from-start off), in the
 * order printed. */
extern "C" int
gpu_profile_counts (uint8_t *const images[IMG_KINDS], size_t width,
                    size_t height)
{
  const size_t n = width * height, bytes = n * 4;
  uint8_t *d_img, *d_mask, *h_weighted, *h_mask;
  unsigned long long *d_sums;
  gh_variant v[CAP_MODES];
  int devices = 0;

  if (cudaGetDeviceCount (&devices) != cudaSuccess || devices == 0)
    return fprintf (stderr, "GPU: none usable\n"), 77;
  CK (cudaMalloc (&d_img, bytes));
  CK (cudaMalloc (&d_mask, n));
  CK (cudaMalloc (&d_sums, GH_NUM_CHANNELS * 256 * sizeof *d_sums));
  h_weighted = (uint8_t *) malloc (bytes);
  h_mask = (uint8_t *) malloc (n);
  if (!h_weighted || !h_mask)
    return fprintf (stderr, "out of host memory\n"), 1;
  /* The choices first: whatever they launch stays outside the profile. */
  for (int mode = 1; mode < CAP_MODES; mode++)
    v[mode] = chosen (&mode_kinds[mode], 0);
  for (int mode = 1; mode < CAP_MODES; mode++)
    for (int k = 0; k < IMG_KINDS; k++)
      {
        const gh_launch_kind *kind = &mode_kinds[mode];
        if (!images[k])
          continue;
        upload (images[k], mode_partial[mode], width, height, h_weighted,
                h_mask, d_img, d_mask);
        CK (cudaMemset (d_sums, 0, GH_NUM_CHANNELS * 256 * sizeof *d_sums));
        CK (cudaDeviceSynchronize ());
        CK (cudaProfilerStart ());
        CK (gh_cuda_histogram (v[mode], kind, 0, d_img,
                               kind->mask ? d_mask : NULL, n, d_sums, 0));
        CK (cudaDeviceSynchronize ());
        CK (cudaProfilerStop ());
        printf ("profiled: %s, %s, %s\n", mode_names[mode],
                image_kind_names[k], gh_variant_name (v[mode]));
      }
  CK (cudaFree (d_img));
  CK (cudaFree (d_mask));
  CK (cudaFree (d_sums));
  free (h_weighted);
  free (h_mask);
  return 0;
}

extern "C" int
gpu_bench (uint8_t *const images[IMG_KINDS], size_t width, size_t height,
           int repeat)
{
  size_t n = width * height, bytes = n * 4;
  const size_t sums_n = GH_NUM_CHANNELS * 256;
  uint8_t *d_img, *d_mask, *h_pinned, *h_weighted, *h_mask;
  unsigned long long *d_sums;
  unsigned *d_sink;
  int *d_cub[4];
  void *d_temp = NULL;
  size_t temp_bytes = 0;
  cudaDeviceProp prop;
  timer t;
  int sms;

  if (cudaGetDeviceCount (&sms) != cudaSuccess || sms == 0)
    {
      printf ("GPU: none usable; GPU figures skipped\n");
      return 0;
    }
  /* Start-up, measured before anything else touches the GPU. */
  {
    gh_options o;
    gh_engine *e;
    gh_error err;
    double t0 = now_seconds (), t1, t2;
    gh_options_init (&o);
    o.backend = GH_BACKEND_CUDA;
    if (gh_engine_create (&o, &e, &err) != GH_OK)
      return fprintf (stderr, "%s\n", err.message), 1;
    t1 = now_seconds ();
    gh_engine_destroy (e);
    t2 = now_seconds ();
    gh_engine_create (&o, &e, &err);
    printf ("GPU start-up: first engine %.1f ms (context and buffers), "
            "another %.1f ms (buffers only)\n",
            (t1 - t0) * 1e3, (now_seconds () - t2) * 1e3);
    gh_engine_destroy (e);
  }

  CK (cudaGetDeviceProperties (&prop, 0));
  sms = prop.multiProcessorCount;
  printf ("device: %s, %d SMs, %.0f MB L2\n", prop.name, sms,
          prop.l2CacheSize / 1e6);
  t.repeat = repeat;
  CK (cudaEventCreate (&t.start));
  CK (cudaEventCreate (&t.stop));
  CK (cudaMalloc (&d_img, bytes));
  CK (cudaMalloc (&d_mask, n));
  CK (cudaMalloc (&d_sums, sums_n * sizeof *d_sums));
  CK (cudaMalloc (&d_sink, 4096 * sizeof *d_sink));
  for (int c = 0; c < 4; c++)
    CK (cudaMalloc (&d_cub[c], 256 * sizeof (int)));
  h_weighted = (uint8_t *) malloc (bytes);
  h_mask = (uint8_t *) malloc (n);
  if (!h_weighted || !h_mask)
    return fprintf (stderr, "out of host memory\n"), 1;

  cuda::std::array<int *, 4> hist = { d_cub[0], d_cub[1], d_cub[2], d_cub[3] };
  cuda::std::array<int, 4> levels = { 257, 257, 257, 257 };
  cuda::std::array<int, 4> lower = { 0, 0, 0, 0 }, upper = { 256, 256, 256, 256 };
  CK (cub::DeviceHistogram::MultiHistogramEven<4, 4> (
    NULL, temp_bytes, d_img, hist, levels, lower, upper, (int) n));
  CK (cudaMalloc (&d_temp, temp_bytes));

  /* One table per mode; rows: inputs; columns: ceilings, then kernels. */
  static const char *const modes[3] = { "raw: the four stored channels, as CUB",
                                        "gimp: GIMP's six channels, opaque",
                                        "weighted: GIMP's six channels, partial alpha and a mask" };
  /* The columns: packed, shared-atomic with 32 copies, the choice. */
  const int columns = 3;
  const gh_variant fixed[2] = { GH_VARIANT_PACKED, GH_VARIANT_SHARED_32 };
  for (int mode = 0; mode < 3; mode++)
    {
      printf ("\n== Image on the GPU, %s: %zux%zu RGBA8 (%.0f MB); GB/s, "
              "ratio to read\n",
              modes[mode], width, height, bytes / 1e6);
      printf ("%-10s %6s %12s | %12s %12s %12s\n", "input", "read",
              "CUB<4,4>", "packed", "shared-atomic", "chosen");
      for (int k = 0; k < IMG_KINDS; k++)
        {
          double ms_read, ms_cub;
          bool weighted = mode == 2;
          if (!images[k])
            continue;
          upload (images[k], weighted, width, height, h_weighted, h_mask,
                  d_img, d_mask);
          ms_read = read_ms (t, d_img, bytes, d_sink, sms);
          const double ms_ceiling
            = weighted ? read_ms_with_mask (t, ms_read, d_mask, n, d_sink, sms)
                       : ms_read;
          ms_cub = time_ms (t, [&] {
            CK (cub::DeviceHistogram::MultiHistogramEven<4, 4> (
              d_temp, temp_bytes, d_img, hist, levels, lower, upper, (int) n));
          });
          printf ("%-10s %6.0f %6.0f %5.2f |", image_kind_names[k],
                  gbps (bytes, ms_read), gbps (bytes, ms_cub),
                  ms_read / ms_cub);
          const gh_launch_kind kind = { GH_LAYOUT_RGBA, weighted, mode == 0,
                                        GH_LUMINANCE_PERCEPTUAL };
          for (int j = 0; j < columns; j++)
            {
              gh_variant v = j < 2 ? fixed[j] : chosen (&kind, 0);
              double ms = time_ms (t, [&] {
                CK (cudaMemsetAsync (d_sums, 0, sums_n * sizeof *d_sums));
                CK (gh_cuda_histogram (v, &kind, 0, d_img,
                                       weighted ? d_mask : NULL, n, d_sums, 0));
              });
              printf (" %6.0f %5.2f", gbps (bytes, ms), ms_ceiling / ms);
            }
          printf ("\n");
        }
      const gh_launch_kind kind = { GH_LAYOUT_RGBA, mode == 2, mode == 0,
                                    GH_LUMINANCE_PERCEPTUAL };
      print_choice (&kind, 0);
    }

  caps_table (images, width, height, h_weighted, h_mask, d_img, d_mask,
              d_sums, d_sink, sms, t);
  onchip_table (images, width, height, h_weighted, h_mask, d_img, d_mask,
                d_sums, d_sink, sms, (size_t) prop.l2CacheSize, t);

  /* Gray: the same bytes read as 4n one-channel pixels. */
  printf ("\n== Gray images on the GPU (the bytes above as %zu gray pixels)\n",
          4 * n);
  printf ("%-10s %12s %12s %12s\n", "input", "packed", "shared-atomic",
          "chosen");
  for (int k = 0; k < IMG_KINDS; k++)
    {
      double ms_read;
      if (!images[k])
        continue;
      upload (images[k], false, width, height, NULL, NULL, d_img, NULL);
      ms_read = read_ms (t, d_img, bytes, d_sink, sms);
      printf ("%-10s", image_kind_names[k]);
      const gh_launch_kind gray = { GH_LAYOUT_GRAY, false, false,
                                    GH_LUMINANCE_PERCEPTUAL };
      for (int j = 0; j < columns; j++)
        {
          gh_variant v = j < 2 ? fixed[j] : chosen (&gray, 0);
          double ms = time_ms (t, [&] {
            CK (cudaMemsetAsync (d_sums, 0, sums_n * sizeof *d_sums));
            CK (gh_cuda_histogram (v, &gray, 0, d_img, NULL, 4 * n, d_sums,
                                   0));
          });
          printf (" %6.0f %5.2f", gbps (bytes, ms), ms_read / ms);
        }
      printf ("\n");
    }
  {
    const gh_launch_kind gray = { GH_LAYOUT_GRAY, false, false,
                                  GH_LUMINANCE_PERCEPTUAL };
    print_choice (&gray, 0);
  }

  /* Host-resident input: the plug-in's case. */
  {
    const uint8_t *src = images[IMG_PHOTO] ? images[IMG_PHOTO]
                                           : images[IMG_UNIFORM];
    gh_options o;
    gh_engine *e;
    gh_error err;
    double copy_pageable, copy_pinned, eng_pageable, eng_pinned, kernel;
    std::vector<double> v;

    CK (cudaHostAlloc (&h_pinned, bytes, cudaHostAllocDefault));
    memcpy (h_pinned, src, bytes);
    for (int i = 0; i < repeat; i++)
      {
        double t0 = now_seconds ();
        CK (cudaMemcpy (d_img, src, bytes, cudaMemcpyHostToDevice));
        v.push_back ((now_seconds () - t0) * 1e3);
      }
    copy_pageable = host_median (v);
    v.clear ();
    for (int i = 0; i < repeat; i++)
      {
        double t0 = now_seconds ();
        CK (cudaMemcpy (d_img, h_pinned, bytes, cudaMemcpyHostToDevice));
        v.push_back ((now_seconds () - t0) * 1e3);
      }
    copy_pinned = host_median (v);
    const gh_launch_kind rgba = { GH_LAYOUT_RGBA, false, false,
                                  GH_LUMINANCE_PERCEPTUAL };
    kernel = time_ms (t, [&] {
      CK (cudaMemsetAsync (d_sums, 0, sums_n * sizeof *d_sums));
      CK (gh_cuda_histogram (chosen (&rgba, 0), &rgba, 0, d_img, NULL, n,
                             d_sums, 0));
    });
    gh_options_init (&o);
    o.backend = GH_BACKEND_CUDA;
    if (gh_engine_create (&o, &e, &err) != GH_OK)
      return fprintf (stderr, "%s\n", err.message), 1;
    eng_pageable = engine_call_ms (e, src, width, height, repeat);
    eng_pinned = engine_call_ms (e, h_pinned, width, height, repeat);
    gh_engine_destroy (e);

    printf ("\n== Image in host memory (%s), whole engine call, GIMP "
            "semantics\n",
            images[IMG_PHOTO] ? "photo" : "uniform");
    printf ("plain copy, pinned:    %7.2f ms %6.1f GB/s\n", copy_pinned,
            gbps (bytes, copy_pinned));
    printf ("plain copy, pageable:  %7.2f ms %6.1f GB/s\n", copy_pageable,
            gbps (bytes, copy_pageable));
    printf ("engine, pinned input:  %7.2f ms %6.1f GB/s  %.2f of a pinned "
            "copy\n",
            eng_pinned, gbps (bytes, eng_pinned), copy_pinned / eng_pinned);
    printf ("engine, pageable input:%7.2f ms %6.1f GB/s  %.2fx a pageable "
            "copy + kernel\n",
            eng_pageable, gbps (bytes, eng_pageable),
            (copy_pageable + kernel) / eng_pageable);
    CK (cudaFreeHost (h_pinned));
  }

  CK (cudaFree (d_temp));
  for (int c = 0; c < 4; c++)
    CK (cudaFree (d_cub[c]));
  CK (cudaFree (d_img));
  CK (cudaFree (d_mask));
  CK (cudaFree (d_sums));
  CK (cudaFree (d_sink));
  free (h_weighted);
  free (h_mask);
  return 0;
}
