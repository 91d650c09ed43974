/* gpu_bench.cu — the GPU half of the benchmark: every kernel beside CUB's
 * MultiHistogramEven<4,4> and a read-only bandwidth kernel, on images
 * already on the GPU; then the engine's whole call on host-resident
 * images (pageable and pinned) beside plain host-to-device copies, and the
 * GPU start-up on its own.  All figures are GB/s of RGBA8 image read and
 * ratios taken in this one run. */
#include "gpu_bench.h"

#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include <cub/device/device_histogram.cuh>

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
print_choice (gh_layout layout, bool mask, bool raw)
{
  float ms[2];
  gh_kernel k = gh_cuda_choose_kernel (layout, mask, raw, ms);
  printf ("chosen: %s (calibration probe of 1 M random pixels: packed "
          "%.3f ms, shared-atomic %.3f ms)\n",
          k == GH_KERNEL_PACKED ? "packed" : "shared-atomic", ms[0], ms[1]);
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
                   GH_LUMINANCE_PERCEPTUAL };
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
  const gh_kernel kernels[3] = { GH_KERNEL_PACKED, GH_KERNEL_SHARED_ATOMIC,
                                 GH_KERNEL_AUTO };
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
          if (weighted)
            {
              memcpy (h_weighted, images[k], bytes);
              image_make_weighted (width, height, h_weighted, h_mask);
              CK (cudaMemcpy (d_img, h_weighted, bytes,
                              cudaMemcpyHostToDevice));
              CK (cudaMemcpy (d_mask, h_mask, n, cudaMemcpyHostToDevice));
            }
          else
            CK (cudaMemcpy (d_img, images[k], bytes, cudaMemcpyHostToDevice));
          ms_read = time_ms (t, [&] {
            read_kernel<<<sms * 8, 256>>> ((const uint4 *) d_img, bytes / 16,
                                           d_sink);
          });
          CK (cudaGetLastError ());
          ms_cub = time_ms (t, [&] {
            CK (cub::DeviceHistogram::MultiHistogramEven<4, 4> (
              d_temp, temp_bytes, d_img, hist, levels, lower, upper, (int) n));
          });
          printf ("%-10s %6.0f %6.0f %5.2f |", image_kind_names[k],
                  gbps (bytes, ms_read), gbps (bytes, ms_cub),
                  ms_read / ms_cub);
          for (int j = 0; j < 3; j++)
            {
              double ms = time_ms (t, [&] {
                CK (cudaMemsetAsync (d_sums, 0, sums_n * sizeof *d_sums));
                CK (gh_cuda_histogram (kernels[j], GH_LAYOUT_RGBA, weighted,
                                       mode == 0, d_img,
                                       weighted ? d_mask : NULL, n, d_sums, 0));
              });
              printf (" %6.0f %5.2f", gbps (bytes, ms), ms_read / ms);
            }
          printf ("\n");
        }
      print_choice (GH_LAYOUT_RGBA, mode == 2, mode == 0);
    }

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
      CK (cudaMemcpy (d_img, images[k], bytes, cudaMemcpyHostToDevice));
      ms_read = time_ms (t, [&] {
        read_kernel<<<sms * 8, 256>>> ((const uint4 *) d_img, bytes / 16,
                                       d_sink);
      });
      printf ("%-10s", image_kind_names[k]);
      for (int j = 0; j < 3; j++)
        {
          double ms = time_ms (t, [&] {
            CK (cudaMemsetAsync (d_sums, 0, sums_n * sizeof *d_sums));
            CK (gh_cuda_histogram (kernels[j], GH_LAYOUT_GRAY, false, false,
                                   d_img, NULL, 4 * n, d_sums, 0));
          });
          printf (" %6.0f %5.2f", gbps (bytes, ms), ms_read / ms);
        }
      printf ("\n");
    }
  print_choice (GH_LAYOUT_GRAY, false, false);

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
    kernel = time_ms (t, [&] {
      CK (cudaMemsetAsync (d_sums, 0, sums_n * sizeof *d_sums));
      CK (gh_cuda_histogram (GH_KERNEL_AUTO, GH_LAYOUT_RGBA, false, false,
                             d_img, NULL, n, d_sums, 0));
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
