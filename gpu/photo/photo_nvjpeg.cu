/* SPDX-License-Identifier: GPL-3.0-or-later */
/* photo_nvjpeg.cu — JPEG photos decoded, counted, mapped and encoded on
 * the GPU through nvJPEG (gh_photo.h). */
#include "gh_photo.h"

#include "fail.h"
#include "photo_clahe.h"
#include "pixel.h"

#include <cuda_runtime.h>
#include <nvjpeg.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A decoded image at most: 2^31 bytes (its counts fit 32 bits). */
#define MAX_IMAGE_BYTES ((size_t) 1 << 31)
#define BINS 256
#define COUNTS (GH_NUM_CHANNELS * BINS)

struct gh_photo
{
  int batch;
  cudaStream_t stream;
  nvjpegHandle_t gpu;            /* nvJPEG's default (GPU) backend, made
                                    when first needed where hw is */
  nvjpegJpegState_t gpu_state;
  nvjpegHandle_t hw;             /* the hardware decoder, or NULL */
  nvjpegJpegState_t hw_state;
  nvjpegJpegStream_t hw_stream;  /* parses a file: can hw take it? */
  int hw_batch;                  /* the batch size hw_state is set for */
  int held;                      /* counted in handles.refs */
  unsigned char *pixels[GH_PHOTO_MAX_BATCH];
  size_t pixels_size[GH_PHOTO_MAX_BATCH];
  unsigned *dev_counts, *host_counts;  /* batch x COUNTS */
  uint8_t *dev_tables, *host_tables;   /* batch x 3 x 256 */
  /* One encoder, an image at a time: as fast as one a batch's image
   * (~900 12 MP images/s on the H200) without each state's first use
   * (~12 ms). */
  nvjpegEncoderState_t enc;
  gh_photo_clahe_space *clahe;   /* CLAHE's scratch, reused */
  nvjpegEncoderParams_t params_rgb, params_gray;
  int quality;                   /* the params' (0: not set yet) */
  char device[256];
  gh_photo_timings t;
};

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

static const char *
nvjpeg_reason (nvjpegStatus_t s)
{
  switch (s)
    {
    case NVJPEG_STATUS_SUCCESS: return "success";
    case NVJPEG_STATUS_NOT_INITIALIZED: return "not initialized";
    case NVJPEG_STATUS_INVALID_PARAMETER: return "invalid parameter";
    case NVJPEG_STATUS_BAD_JPEG: return "bad JPEG";
    case NVJPEG_STATUS_JPEG_NOT_SUPPORTED: return "JPEG not supported";
    case NVJPEG_STATUS_ALLOCATOR_FAILURE: return "allocator failure";
    case NVJPEG_STATUS_EXECUTION_FAILED: return "execution failed";
    case NVJPEG_STATUS_ARCH_MISMATCH: return "not on this GPU";
    case NVJPEG_STATUS_INTERNAL_ERROR: return "internal error";
    case NVJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED:
      return "implementation not supported";
    default: return "unknown status";
    }
}

static gh_status
cuda_fail (gh_error *error, const char *what, cudaError_t e)
{
  return gh_fail (error, GH_ERR_STATE, "%s: %s", what, cudaGetErrorString (e));
}

static gh_status
nvjpeg_fail (gh_error *error, const char *what, nvjpegStatus_t s)
{
  return gh_fail (error, GH_ERR_STATE, "%s: nvJPEG: %s (%d)", what,
                  nvjpeg_reason (s), (int) s);
}

/* The frame header of a JPEG, read on the host: its SOF marker (0xC0:
 * baseline, 0xC1 extended, 0xC2 progressive, ...), sample precision and
 * components: 0, or -1 when there is none before the scan. */
static int
jpeg_frame (const unsigned char *d, size_t n, int *sof, int *precision,
            int *components)
{
  size_t i = 2;

  if (n < 4 || d[0] != 0xFF || d[1] != 0xD8)
    return -1;
  while (i + 4 <= n)
    {
      unsigned m;
      size_t len;
      if (d[i] != 0xFF)
        return -1;
      while (i < n && d[i] == 0xFF)
        i++;
      if (i >= n)
        return -1;
      m = d[i++];
      if (m == 0xD8 || m == 0x01 || (m >= 0xD0 && m <= 0xD7))
        continue;
      if (m == 0xDA || m == 0xD9 || i + 2 > n)
        return -1;
      len = ((size_t) d[i] << 8) | d[i + 1];
      if (len < 2 || i + len > n)
        return -1;
      if (m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC)
        {
          if (len < 8)
            return -1;
          *sof = (int) m;
          *precision = d[i + 2];
          *components = d[i + 7];
          return 0;
        }
      i += len;
    }
  return -1;
}

/* GIMP's histograms of interleaved RGB: value, red, green, blue and
 * (perceptual) luminance, as the engine bins them (pixel.h); per-block
 * counts in shared memory, added to `out` at the end. */
__global__ void
count_rgb (const uint8_t *px, size_t n, unsigned *out)
{
  __shared__ unsigned h[COUNTS];

  for (int i = threadIdx.x; i < COUNTS; i += blockDim.x)
    h[i] = 0;
  __syncthreads ();
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x)
    {
      unsigned r = px[3 * i], g = px[3 * i + 1], b = px[3 * i + 2];
      unsigned v = r > g ? r : g;
      v = b > v ? b : v;
      atomicAdd (&h[GH_CHANNEL_VALUE * BINS + v], 1u);
      atomicAdd (&h[GH_CHANNEL_RED * BINS + r], 1u);
      atomicAdd (&h[GH_CHANNEL_GREEN * BINS + g], 1u);
      atomicAdd (&h[GH_CHANNEL_BLUE * BINS + b], 1u);
      atomicAdd (&h[GH_CHANNEL_LUMINANCE * BINS + gh_luminance_bin (r, g, b)],
                 1u);
    }
  __syncthreads ();
  for (int i = threadIdx.x; i < COUNTS; i += blockDim.x)
    if (h[i])
      atomicAdd (&out[i], h[i]);
}

/* A gray image's value histogram. */
__global__ void
count_gray (const uint8_t *px, size_t n, unsigned *out)
{
  __shared__ unsigned h[BINS];

  for (int i = threadIdx.x; i < BINS; i += blockDim.x)
    h[i] = 0;
  __syncthreads ();
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x)
    atomicAdd (&h[px[i]], 1u);
  __syncthreads ();
  for (int i = threadIdx.x; i < BINS; i += blockDim.x)
    if (h[i])
      atomicAdd (&out[GH_CHANNEL_VALUE * BINS + i], h[i]);
}

/* Each sample through its channel's table (channels: 1 or 3), in place. */
__global__ void
apply_tables (uint8_t *px, size_t n, int channels, const uint8_t *tables)
{
  __shared__ uint8_t t[3 * BINS];

  for (int i = threadIdx.x; i < 3 * BINS; i += blockDim.x)
    t[i] = tables[i];
  __syncthreads ();
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x)
    {
      int c = channels == 1 ? 0 : (int) (i % 3);
      px[i] = t[c * BINS + px[i]];
    }
}

/* Every colour sample of a pixel through one table, indexed by the
 * pixel's level in channel `key` (GIMP's value, a colour, or perceptual
 * luminance: pixel.h), as the engine's posterize_rows. */
__global__ void
apply_keyed (uint8_t *px, size_t n, int channels, int key,
             const uint8_t *table)
{
  __shared__ uint8_t t[BINS];

  for (int i = threadIdx.x; i < BINS; i += blockDim.x)
    t[i] = table[i];
  __syncthreads ();
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n;
       i += (size_t) gridDim.x * blockDim.x)
    {
      if (channels == 1)
        {
          px[i] = t[px[i]];
          continue;
        }
      uint8_t *q = px + 3 * i;
      unsigned r = q[0], g = q[1], b = q[2], level;
      switch (key)
        {
        case GH_CHANNEL_RED: level = r; break;
        case GH_CHANNEL_GREEN: level = g; break;
        case GH_CHANNEL_BLUE: level = b; break;
        case GH_CHANNEL_LUMINANCE: level = (unsigned) gh_luminance_bin (r, g, b); break;
        default:
          level = r > g ? r : g;
          level = b > level ? b : level;
        }
      q[0] = q[1] = q[2] = t[level];
    }
}

static int
blocks_for (size_t n)
{
  size_t b = (n + 255) / 256;
  return b > 1056 ? 1056 : b < 1 ? 1 : (int) b;
}

/* nvJPEG's handles, one of each backend a process, shared by every
 * gh_photo (a handle serves any thread; the states are each gh_photo's
 * own): on the H200 a process's first handle takes ~280 ms, another ~75
 * ms, and handles made at once are made one after another, so lanes that
 * each made their own waited in line (BENCHMARKS.md, 2026-11-29).  The
 * hardware decoder's handle is tried once a process (GH_PHOTO_NO_HARDWARE
 * leaves it out); the default backend's is made at once only where there
 * is no hardware decoder, else when a file first needs it (progressive,
 * gray, refused by the hardware).  Each guarded by `lock`. */
static struct
{
  pthread_mutex_t lock;
  int refs, hw_tried;
  nvjpegHandle_t hw, gpu;
} handles = { PTHREAD_MUTEX_INITIALIZER, 0, 0, NULL, NULL };

/* The default backend's handle, made if need be: NVJPEG_STATUS_SUCCESS
 * or why not.  Under handles.lock. */
static nvjpegStatus_t
default_handle (nvjpegHandle_t *out)
{
  nvjpegStatus_t s = NVJPEG_STATUS_SUCCESS;

  if (!handles.gpu
      && (s = nvjpegCreateEx (NVJPEG_BACKEND_DEFAULT, NULL, NULL, 0,
                              &handles.gpu)) != NVJPEG_STATUS_SUCCESS)
    handles.gpu = NULL;
  *out = handles.gpu;
  return s;
}

/* p's share of the handles: the hardware decoder's where the GPU has one
 * (A100, H100, H200...) with its state and parser, else the default
 * backend's; p->t.start_handles the time from t0 to the handles had.
 * GH_OK, or the error. */
static gh_status
handles_take (gh_photo *p, double t0, gh_error *error)
{
  nvjpegStatus_t s = NVJPEG_STATUS_SUCCESS;

  pthread_mutex_lock (&handles.lock);
  handles.refs++;
  p->held = 1;
  if (!handles.hw_tried && !getenv ("GH_PHOTO_NO_HARDWARE"))
    {
      handles.hw_tried = 1;
      if (nvjpegCreateEx (NVJPEG_BACKEND_HARDWARE, NULL, NULL, 0, &handles.hw)
          != NVJPEG_STATUS_SUCCESS)
        handles.hw = NULL;
    }
  p->hw = handles.hw;
  if (!p->hw)
    s = default_handle (&p->gpu);
  pthread_mutex_unlock (&handles.lock);
  p->t.start_handles = now () - t0;
  if (s != NVJPEG_STATUS_SUCCESS)
    return nvjpeg_fail (error, "cannot start nvJPEG", s);
  /* Any failure of the hardware decoder's state only leaves it out. */
  if (p->hw
      && (nvjpegJpegStateCreate (p->hw, &p->hw_state) != NVJPEG_STATUS_SUCCESS
          || nvjpegJpegStreamCreate (p->hw, &p->hw_stream)
               != NVJPEG_STATUS_SUCCESS))
    {
      if (p->hw_state)
        nvjpegJpegStateDestroy (p->hw_state);
      p->hw_state = NULL;
      p->hw_stream = NULL;
      p->hw = NULL;
      pthread_mutex_lock (&handles.lock);
      s = default_handle (&p->gpu);
      pthread_mutex_unlock (&handles.lock);
      if (s != NVJPEG_STATUS_SUCCESS)
        return nvjpeg_fail (error, "cannot start nvJPEG", s);
    }
  return GH_OK;
}

/* p's default backend (handle and state), for a file the hardware
 * decoder does not take: NVJPEG_STATUS_SUCCESS or why not. */
static nvjpegStatus_t
default_backend (gh_photo *p)
{
  nvjpegStatus_t s = NVJPEG_STATUS_SUCCESS;

  if (!p->gpu)
    {
      pthread_mutex_lock (&handles.lock);
      s = default_handle (&p->gpu);
      pthread_mutex_unlock (&handles.lock);
    }
  if (s == NVJPEG_STATUS_SUCCESS && !p->gpu_state
      && (s = nvjpegJpegStateCreate (p->gpu, &p->gpu_state))
           != NVJPEG_STATUS_SUCCESS)
    p->gpu_state = NULL;
  return s;
}

/* The handle that parses headers and encodes: either serves. */
static nvjpegHandle_t
coder (const gh_photo *p)
{
  return p->hw ? p->hw : p->gpu;
}

/* The stream, buffers, handles and encoder parameters: GH_OK, or the
 * error (gh_photo_destroy frees what was made). */
static gh_status
start_gpu (gh_photo *p, int batch, gh_error *error)
{
  cudaError_t e;
  nvjpegStatus_t s;
  gh_status st;
  double t0 = now ();

  if ((e = cudaStreamCreateWithFlags (&p->stream, cudaStreamNonBlocking))
        != cudaSuccess
      || (e = cudaMalloc ((void **) &p->dev_counts,
                          (size_t) batch * COUNTS * sizeof (unsigned)))
           != cudaSuccess
      || (e = cudaMallocHost ((void **) &p->host_counts,
                              (size_t) batch * COUNTS * sizeof (unsigned)))
           != cudaSuccess
      || (e = cudaMalloc ((void **) &p->dev_tables, (size_t) batch * 3 * BINS))
           != cudaSuccess
      || (e = cudaMallocHost ((void **) &p->host_tables,
                              (size_t) batch * 3 * BINS)) != cudaSuccess)
    return cuda_fail (error, "cannot set up the GPU buffers", e);
  if ((st = handles_take (p, t0, error)) != GH_OK)
    return st;
  if ((p->gpu && (s = nvjpegJpegStateCreate (p->gpu, &p->gpu_state))
                   != NVJPEG_STATUS_SUCCESS)
      || (s = nvjpegEncoderParamsCreate (coder (p), &p->params_rgb,
                                         p->stream)) != NVJPEG_STATUS_SUCCESS
      || (s = nvjpegEncoderParamsCreate (coder (p), &p->params_gray,
                                         p->stream)) != NVJPEG_STATUS_SUCCESS
      || (s = nvjpegEncoderParamsSetSamplingFactors (
            p->params_rgb, NVJPEG_CSS_444, p->stream)) != NVJPEG_STATUS_SUCCESS
      || (s = nvjpegEncoderParamsSetSamplingFactors (
            p->params_gray, NVJPEG_CSS_GRAY, p->stream))
           != NVJPEG_STATUS_SUCCESS
      || (s = nvjpegEncoderParamsSetOptimizedHuffman (p->params_rgb, 1,
                                                      p->stream))
           != NVJPEG_STATUS_SUCCESS
      || (s = nvjpegEncoderParamsSetOptimizedHuffman (p->params_gray, 1,
                                                      p->stream))
           != NVJPEG_STATUS_SUCCESS)
    return nvjpeg_fail (error, "cannot set up nvJPEG", s);
  return GH_OK;
}

gh_status
gh_photo_create (int batch, gh_photo **out, gh_error *error)
{
  gh_photo *p;
  cudaError_t e;
  int devices = 0;
  struct cudaDeviceProp prop;
  double t0 = now ();
  gh_status st;

  *out = NULL;
  if (batch < 1 || batch > GH_PHOTO_MAX_BATCH)
    return gh_fail (error, GH_ERR_INVALID, "a batch of %d", batch);
  if (cudaGetDeviceCount (&devices) != cudaSuccess || devices < 1)
    {
      cudaGetLastError ();
      return gh_fail (error, GH_ERR_UNSUPPORTED, "no CUDA device");
    }
  if (!(p = (gh_photo *) calloc (1, sizeof *p)))
    return gh_fail (error, GH_ERR_NOMEM, "out of memory");
  p->batch = batch;
  if ((e = cudaSetDevice (0)) != cudaSuccess
      || (e = cudaGetDeviceProperties (&prop, 0)) != cudaSuccess)
    {
      gh_photo_destroy (p);
      return cuda_fail (error, "cannot open CUDA device 0", e);
    }
  snprintf (p->device, sizeof p->device, "%s", prop.name);
  p->t.start_context = now () - t0;
  st = start_gpu (p, batch, error);
  if (st != GH_OK)
    {
      gh_photo_destroy (p);
      return st;
    }
  p->t.start = now () - t0;
  *out = p;
  return GH_OK;
}

void
gh_photo_destroy (gh_photo *p)
{
  if (!p)
    return;
  if (p->stream)
    cudaStreamSynchronize (p->stream);
  for (int k = 0; k < GH_PHOTO_MAX_BATCH; k++)
    {
      cudaFree (p->pixels[k]);
    }
  if (p->enc)
    nvjpegEncoderStateDestroy (p->enc);
  if (p->params_rgb)
    nvjpegEncoderParamsDestroy (p->params_rgb);
  if (p->params_gray)
    nvjpegEncoderParamsDestroy (p->params_gray);
  if (p->hw_stream)
    nvjpegJpegStreamDestroy (p->hw_stream);
  if (p->hw_state)
    nvjpegJpegStateDestroy (p->hw_state);
  if (p->gpu_state)
    nvjpegJpegStateDestroy (p->gpu_state);
  /* The last gh_photo out frees the handles. */
  pthread_mutex_lock (&handles.lock);
  if (p->held && --handles.refs == 0)
    {
      if (handles.hw)
        nvjpegDestroy (handles.hw);
      if (handles.gpu)
        nvjpegDestroy (handles.gpu);
      handles.hw = handles.gpu = NULL;
      handles.hw_tried = 0;
    }
  pthread_mutex_unlock (&handles.lock);
  gh_photo_clahe_space_free (p->clahe);
  cudaFree (p->dev_counts);
  cudaFree (p->dev_tables);
  cudaFreeHost (p->host_counts);
  cudaFreeHost (p->host_tables);
  if (p->stream)
    cudaStreamDestroy (p->stream);
  cudaGetLastError ();
  free (p);
}

const char *
gh_photo_device_name (const gh_photo *p)
{
  return p->device;
}

const char *
gh_photo_decoder_name (const gh_photo *p)
{
  return p->hw ? "hardware" : "GPU";
}

void
gh_photo_get_timings (const gh_photo *p, gh_photo_timings *out)
{
  *out = p->t;
}

/* Slot k's device buffer of at least `bytes`: 0, or the CUDA error. */
static cudaError_t
room (gh_photo *p, int k, size_t bytes)
{
  cudaError_t e;

  if (p->pixels_size[k] >= bytes)
    return cudaSuccess;
  cudaFree (p->pixels[k]);
  p->pixels[k] = NULL;
  p->pixels_size[k] = 0;
  /* CLAHE's count reads whole aligned 16-byte words. */
  if ((e = cudaMalloc ((void **) &p->pixels[k], (bytes + 15) & ~(size_t) 15))
      != cudaSuccess)
    return e;
  p->pixels_size[k] = bytes;
  return cudaSuccess;
}

gh_status
gh_photo_decode_count (gh_photo *p, gh_photo_item *items, int n,
                       gh_error *error)
{
  const unsigned char *hw_data[GH_PHOTO_MAX_BATCH];
  size_t hw_len[GH_PHOTO_MAX_BATCH];
  nvjpegImage_t hw_dest[GH_PHOTO_MAX_BATCH];
  int hw_index[GH_PHOTO_MAX_BATCH], m = 0, single[GH_PHOTO_MAX_BATCH];
  double t0 = now (), t1;
  cudaError_t e;

  if (n < 0 || n > p->batch)
    return gh_fail (error, GH_ERR_INVALID, "a batch of %d", n);
  /* Each file's frame: what it is, and who decodes it. */
  for (int k = 0; k < n; k++)
    {
      gh_photo_item *it = &items[k];
      int sof = 0, precision = 0, comps = 0, nc = 0;
      int widths[NVJPEG_MAX_COMPONENT], heights[NVJPEG_MAX_COMPONENT];
      nvjpegChromaSubsampling_t ss;
      nvjpegStatus_t s;
      size_t bytes;

      it->ok = 0;
      it->why[0] = '\0';
      it->hardware = 0;
      single[k] = 0;
      if (jpeg_frame (it->jpeg, it->length, &sof, &precision, &comps))
        {
          snprintf (it->why, sizeof it->why, "no JPEG frame header");
          continue;
        }
      if (precision != 8)
        {
          snprintf (it->why, sizeof it->why,
                    "a %d-bit JPEG: the GPU path decodes 8-bit ones",
                    precision);
          continue;
        }
      if (comps != 1 && comps != 3)
        {
          snprintf (it->why, sizeof it->why,
                    "a JPEG of %d components (CMYK?): the GPU path decodes "
                    "gray and colour ones", comps);
          continue;
        }
      if ((s = nvjpegGetImageInfo (coder (p), it->jpeg, it->length, &nc, &ss,
                                   widths, heights)) != NVJPEG_STATUS_SUCCESS)
        {
          snprintf (it->why, sizeof it->why,
                    "nvJPEG cannot read its header: %s (%d)",
                    nvjpeg_reason (s), (int) s);
          continue;
        }
      it->width = widths[0];
      it->height = heights[0];
      it->channels = comps == 1 ? 1 : 3;
      bytes = (size_t) it->width * (size_t) it->height * (size_t) it->channels;
      if (it->width < 1 || it->height < 1 || bytes > MAX_IMAGE_BYTES)
        {
          snprintf (it->why, sizeof it->why,
                    "%dx%d: the GPU path takes images of up to 2 GB",
                    it->width, it->height);
          continue;
        }
      if ((e = room (p, k, bytes)) != cudaSuccess)
        return cuda_fail (error, "cannot hold the decoded photos", e);
      single[k] = 1;
      if (p->hw && it->channels == 3 && (sof == 0xC0 || sof == 0xC1))
        {
          int unsupported = 1;
          /* The headers only: the decoder parses the scans itself (the
           * whole parse here cost ~1 ms of a 12 MP file's 2.6). */
          if (nvjpegJpegStreamParseHeader (p->hw, it->jpeg, it->length,
                                           p->hw_stream) == NVJPEG_STATUS_SUCCESS
              && nvjpegDecodeBatchedSupported (p->hw, p->hw_stream,
                                               &unsupported)
                   == NVJPEG_STATUS_SUCCESS
              && unsupported == 0)
            {
              hw_data[m] = it->jpeg;
              hw_len[m] = it->length;
              memset (&hw_dest[m], 0, sizeof hw_dest[m]);
              hw_dest[m].channel[0] = p->pixels[k];
              hw_dest[m].pitch[0] = (size_t) it->width * 3;
              hw_index[m++] = k;
              single[k] = 0;
            }
        }
    }
  /* The hardware decoder's batch, in one call; if it fails, its files
   * are decoded one at a time below. */
  if (m > 0)
    {
      nvjpegStatus_t s = NVJPEG_STATUS_SUCCESS;
      if (p->hw_batch != m)
        {
          s = nvjpegDecodeBatchedInitialize (p->hw, p->hw_state, m, 1,
                                             NVJPEG_OUTPUT_RGBI);
          p->hw_batch = s == NVJPEG_STATUS_SUCCESS ? m : 0;
        }
      if (s == NVJPEG_STATUS_SUCCESS)
        s = nvjpegDecodeBatched (p->hw, p->hw_state, hw_data, hw_len, hw_dest,
                                 p->stream);
      for (int j = 0; j < m; j++)
        {
          if (s == NVJPEG_STATUS_SUCCESS)
            items[hw_index[j]].ok = items[hw_index[j]].hardware = 1;
          else
            single[hw_index[j]] = 1;
        }
      if ((e = cudaGetLastError ()) != cudaSuccess)
        return cuda_fail (error, "the hardware JPEG decoder failed", e);
    }
  for (int k = 0; k < n; k++)
    {
      gh_photo_item *it = &items[k];
      nvjpegImage_t dest;
      nvjpegStatus_t s;
      if (!single[k])
        continue;
      if ((s = default_backend (p)) != NVJPEG_STATUS_SUCCESS)
        {
          snprintf (it->why, sizeof it->why,
                    "nvJPEG's GPU decoder did not start: %s (%d)",
                    nvjpeg_reason (s), (int) s);
          continue;
        }
      memset (&dest, 0, sizeof dest);
      dest.channel[0] = p->pixels[k];
      dest.pitch[0] = (size_t) it->width * (size_t) it->channels;
      s = nvjpegDecode (p->gpu, p->gpu_state, it->jpeg, it->length,
                        it->channels == 1 ? NVJPEG_OUTPUT_Y
                                          : NVJPEG_OUTPUT_RGBI,
                        &dest, p->stream);
      if (s == NVJPEG_STATUS_SUCCESS)
        it->ok = 1;
      else if (s == NVJPEG_STATUS_EXECUTION_FAILED
               || s == NVJPEG_STATUS_ALLOCATOR_FAILURE
               || s == NVJPEG_STATUS_INTERNAL_ERROR)
        return nvjpeg_fail (error, "the GPU's JPEG decoder failed", s);
      else
        snprintf (it->why, sizeof it->why, "nvJPEG cannot decode it: %s (%d)",
                  nvjpeg_reason (s), (int) s);
    }
  if ((e = cudaStreamSynchronize (p->stream)) != cudaSuccess)
    return cuda_fail (error, "the GPU's JPEG decoder failed", e);
  t1 = now ();
  p->t.decode += t1 - t0;
  /* The counts, all of them back in one copy. */
  if ((e = cudaMemsetAsync (p->dev_counts, 0,
                            (size_t) n * COUNTS * sizeof (unsigned),
                            p->stream)) != cudaSuccess)
    return cuda_fail (error, "CUDA failed while counting", e);
  for (int k = 0; k < n; k++)
    {
      gh_photo_item *it = &items[k];
      size_t px = (size_t) it->width * (size_t) it->height;
      if (!it->ok)
        continue;
      if (it->channels == 3)
        count_rgb<<<blocks_for (px), 256, 0, p->stream>>> (
          p->pixels[k], px, p->dev_counts + (size_t) k * COUNTS);
      else
        count_gray<<<blocks_for (px), 256, 0, p->stream>>> (
          p->pixels[k], px, p->dev_counts + (size_t) k * COUNTS);
    }
  if ((e = cudaGetLastError ()) != cudaSuccess
      || (e = cudaMemcpyAsync (p->host_counts, p->dev_counts,
                               (size_t) n * COUNTS * sizeof (unsigned),
                               cudaMemcpyDeviceToHost, p->stream))
           != cudaSuccess
      || (e = cudaStreamSynchronize (p->stream)) != cudaSuccess)
    {
      for (int k = 0; k < n; k++)
        items[k].ok = 0;
      return cuda_fail (error, "CUDA failed while counting", e);
    }
  for (int k = 0; k < n; k++)
    {
      if (!items[k].ok)
        continue;
      for (int i = 0; i < COUNTS; i++)
        items[k].counts[i] = p->host_counts[(size_t) k * COUNTS + i];
      p->t.images++;
      p->t.hardware += (unsigned long) items[k].hardware;
    }
  p->t.count += now () - t1;
  return GH_OK;
}

gh_status
gh_photo_apply_encode (gh_photo *p, gh_photo_item *items, int n,
                       const uint8_t (*tables)[3][256], const int *keys,
                       int quality, gh_error *error)
{
  double t0 = now ();
  cudaError_t e;

  if (n < 0 || n > p->batch || quality < 1 || quality > 100)
    return gh_fail (error, GH_ERR_INVALID, "a batch of %d at quality %d", n,
                    quality);
  memcpy (p->host_tables, tables, (size_t) n * 3 * BINS);
  if ((e = cudaMemcpyAsync (p->dev_tables, p->host_tables,
                            (size_t) n * 3 * BINS, cudaMemcpyHostToDevice,
                            p->stream)) != cudaSuccess)
    return cuda_fail (error, "CUDA failed while applying", e);
  for (int k = 0; k < n; k++)
    {
      gh_photo_item *it = &items[k];
      size_t bytes = (size_t) it->width * it->height * it->channels;
      size_t px = (size_t) it->width * it->height;
      if (!it->ok)
        continue;
      if (keys && keys[k] >= 0)
        apply_keyed<<<blocks_for (px), 256, 0, p->stream>>> (
          p->pixels[k], px, it->channels, keys[k],
          p->dev_tables + (size_t) k * 3 * BINS);
      else
        apply_tables<<<blocks_for (bytes), 256, 0, p->stream>>> (
          p->pixels[k], bytes, it->channels,
          p->dev_tables + (size_t) k * 3 * BINS);
    }
  if ((e = cudaGetLastError ()) != cudaSuccess
      || (e = cudaStreamSynchronize (p->stream)) != cudaSuccess)
    return cuda_fail (error, "CUDA failed while applying", e);
  p->t.apply += now () - t0;
  return gh_photo_encode (p, items, n, quality, error);
}

gh_status
gh_photo_clahe (gh_photo *p, gh_photo_item *items, int n,
                const gh_clahe_params *params, gh_error *error)
{
  double t0 = now ();
  cudaError_t e;
  gh_status st;

  if (n < 0 || n > p->batch)
    return gh_fail (error, GH_ERR_INVALID, "a batch of %d", n);
  for (int k = 0; k < n; k++)
    if (items[k].ok
        && (st = gh_photo_clahe_run (params, p->pixels[k], items[k].width,
                                     items[k].height, items[k].channels,
                                     &p->clahe, p->stream, error))
             != GH_OK)
      return st;
  if ((e = cudaStreamSynchronize (p->stream)) != cudaSuccess)
    return cuda_fail (error, "CLAHE on the GPU failed", e);
  p->t.apply += now () - t0;
  return GH_OK;
}

gh_status
gh_photo_encode (gh_photo *p, gh_photo_item *items, int n, int quality,
                 gh_error *error)
{
  double t1 = now ();
  cudaError_t e;
  nvjpegStatus_t s;

  if (n < 0 || n > p->batch || quality < 1 || quality > 100)
    return gh_fail (error, GH_ERR_INVALID, "a batch of %d at quality %d", n,
                    quality);
  if (p->quality != quality)
    {
      if ((s = nvjpegEncoderParamsSetQuality (p->params_rgb, quality,
                                              p->stream))
            != NVJPEG_STATUS_SUCCESS
          || (s = nvjpegEncoderParamsSetQuality (p->params_gray, quality,
                                                 p->stream))
               != NVJPEG_STATUS_SUCCESS)
        return nvjpeg_fail (error, "cannot set the JPEG quality", s);
      p->quality = quality;
    }
  if (!p->enc
      && (s = nvjpegEncoderStateCreate (coder (p), &p->enc, p->stream))
           != NVJPEG_STATUS_SUCCESS)
    {
      p->enc = NULL;
      return nvjpeg_fail (error, "cannot start the GPU's JPEG encoder", s);
    }
  for (int k = 0; k < n; k++)
    {
      gh_photo_item *it = &items[k];
      nvjpegImage_t src;
      size_t len = 0;
      if (!it->ok)
        continue;
      memset (&src, 0, sizeof src);
      src.channel[0] = p->pixels[k];
      src.pitch[0] = (size_t) it->width * it->channels;
      if (it->channels == 3)
        s = nvjpegEncodeImage (coder (p), p->enc, p->params_rgb, &src,
                               NVJPEG_INPUT_RGBI, it->width, it->height,
                               p->stream);
      else
        s = nvjpegEncodeYUV (coder (p), p->enc, p->params_gray, &src,
                             NVJPEG_CSS_GRAY, it->width, it->height,
                             p->stream);
      if (s != NVJPEG_STATUS_SUCCESS
          || (s = nvjpegEncodeRetrieveBitstream (coder (p), p->enc, NULL, &len,
                                                 p->stream))
               != NVJPEG_STATUS_SUCCESS)
        return nvjpeg_fail (error, "the GPU's JPEG encoder failed", s);
      if ((e = cudaStreamSynchronize (p->stream)) != cudaSuccess)
        return cuda_fail (error, "the GPU's JPEG encoder failed", e);
      if (len > it->encoded_size)
        {
          unsigned char *b = (unsigned char *) realloc (it->encoded, len);
          if (!b)
            return gh_fail (error, GH_ERR_NOMEM, "out of memory");
          it->encoded = b;
          it->encoded_size = len;
        }
      /* The state is the next image's once its bytes are out. */
      if ((s = nvjpegEncodeRetrieveBitstream (coder (p), p->enc, it->encoded,
                                              &len, p->stream))
          != NVJPEG_STATUS_SUCCESS)
        return nvjpeg_fail (error, "the GPU's JPEG encoder failed", s);
      if ((e = cudaStreamSynchronize (p->stream)) != cudaSuccess)
        return cuda_fail (error, "the GPU's JPEG encoder failed", e);
      it->encoded_length = len;
    }
  p->t.encode += now () - t1;
  return GH_OK;
}

gh_status
gh_photo_download (gh_photo *p, int k, const gh_photo_item *item, void *host,
                   gh_error *error)
{
  size_t bytes = (size_t) item->width * item->height * item->channels;
  cudaError_t e;

  if (k < 0 || k >= p->batch || !item->ok || bytes > p->pixels_size[k])
    return gh_fail (error, GH_ERR_INVALID, "no image in slot %d", k);
  if ((e = cudaMemcpy (host, p->pixels[k], bytes, cudaMemcpyDeviceToHost))
      != cudaSuccess)
    return cuda_fail (error, "cannot copy the photo back", e);
  return GH_OK;
}
