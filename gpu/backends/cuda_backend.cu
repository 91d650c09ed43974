/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cuda_backend.cu — the GPU backend's transfer pipeline (cuda_backend.h).
 *
 * SLOTS slots, each with its own stream: pinned staging buffers for a
 * chunk of packed pixels (and mask), device buffers, and the chunk's sums.
 * A chunk: copy in, zero its sums, count, copy its sums back, record an
 * event.  While one slot's chunk is copied and counted the next is filled.
 *
 * Contiguous pieces are handled as one long row, so chunks are whole.
 * Pieces already in page-locked memory (cudaHostAlloc'ed or registered)
 * skip staging: chunks are copied straight from the caller's memory, and
 * feed waits for them before returning, since the caller may reuse that
 * memory afterwards.  Pageable pieces are staged by every CPU thread.
 *
 * A slot is reused only after its event, when its sums are in the host
 * total; until then its pixels (staging or the caller's) are still at hand,
 * so a failure anywhere hands them to the CPU and nothing is lost.  A
 * kernel that cannot launch is first replaced by the next variant the
 * dispatcher offers (gh_choice), so only a GPU that runs none fails.
 */
#include "cuda_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_launch.h"
#include "fail.h"
#include "layout.h"

#define SLOTS 2
#define CHUNK_PIXELS ((size_t) 4 << 20) /* 16 MB of RGBA per chunk */
#define SUMS (GH_NUM_CHANNELS * 256)

typedef struct {
  uint8_t *h_pix, *h_mask, *d_pix, *d_mask;
  unsigned long long *h_sums, *d_sums;
  cudaStream_t stream;
  cudaEvent_t done;
  const uint8_t *src_pix, *src_mask; /* the chunk: staging or the caller's */
  size_t n;       /* pixels in the chunk */
  bool in_flight; /* submitted, sums not yet added */
} slot;

struct gh_cuda {
  slot slots[SLOTS];
  int cur;
  gh_image image;
  size_t bpp;
  gh_kernel kernel; /* as asked: AUTO lets the dispatcher choose */
  size_t smem_cap;  /* gh_options.smem_cap */
  gh_launch_kind kind; /* this image's */
  gh_choice choice;    /* its variants, in the dispatcher's order */
  int at;              /* the one in use: choice.order[at] */
  gh_accum total;
  int inject_after, submitted;
  bool failed; /* the GPU failed during this image; the CPU has the rest */
  char name[320];
};

static gh_status
cuda_fail (gh_error *error, const char *what, cudaError_t e)
{
  return gh_fail (error, GH_ERR_STATE, "%s: %s", what,
                  cudaGetErrorString (e));
}

void
gh_cuda_destroy (gh_cuda *gpu)
{
  if (!gpu)
    return;
  for (int i = 0; i < SLOTS; i++)
    {
      slot *s = &gpu->slots[i];
      if (s->stream)
        cudaStreamSynchronize (s->stream);
      cudaFreeHost (s->h_pix);
      cudaFreeHost (s->h_mask);
      cudaFreeHost (s->h_sums);
      cudaFree (s->d_pix);
      cudaFree (s->d_mask);
      cudaFree (s->d_sums);
      if (s->done)
        cudaEventDestroy (s->done);
      if (s->stream)
        cudaStreamDestroy (s->stream);
    }
  gh_accum_free (&gpu->total);
  free (gpu);
}

gh_status
gh_cuda_create (const gh_options *options, gh_cuda **out, gh_error *error)
{
  int count = 0;
  cudaDeviceProp prop;
  cudaError_t e;
  gh_cuda *gpu;

  /* No driver or no device: the machine has no GPU to offer, which
   * callers tell apart from a GPU that failed (cuda_backend.h). */
  e = cudaGetDeviceCount (&count);
  if (e != cudaSuccess)
    return gh_fail (error, GH_ERR_UNSUPPORTED, "no usable CUDA device: %s",
                    cudaGetErrorString (e));
  if (count == 0)
    return gh_fail (error, GH_ERR_UNSUPPORTED, "no CUDA device found");
  if ((e = cudaSetDevice (0)) != cudaSuccess
      || (e = cudaGetDeviceProperties (&prop, 0)) != cudaSuccess)
    return cuda_fail (error, "cannot open CUDA device 0", e);

  gpu = (gh_cuda *) calloc (1, sizeof *gpu);
  gh_image u8 = { GH_LAYOUT_RGBA, GH_SAMPLE_U8, 256, 0,
                  GH_LUMINANCE_PERCEPTUAL, 0 };
  if (!gpu || gh_accum_init (&gpu->total, &u8) != GH_OK)
    {
      free (gpu);
      return gh_fail (error, GH_ERR_NOMEM, "out of memory for the GPU backend");
    }
  snprintf (gpu->name, sizeof gpu->name, "cuda: %s", prop.name);
  gpu->kernel = options->kernel;
  gpu->smem_cap = options->smem_cap;
  gpu->inject_after = options->inject_gpu_failure_after;

  for (int i = 0; i < SLOTS; i++)
    {
      slot *s = &gpu->slots[i];
      size_t pix = CHUNK_PIXELS * 4, sums = SUMS * sizeof (unsigned long long);
      if ((e = cudaStreamCreateWithFlags (&s->stream, cudaStreamNonBlocking))
            != cudaSuccess
          || (e = cudaEventCreateWithFlags (&s->done,
                                            cudaEventDisableTiming))
               != cudaSuccess
          || (e = cudaHostAlloc ((void **) &s->h_pix, pix,
                                 cudaHostAllocDefault))
               != cudaSuccess
          || (e = cudaHostAlloc ((void **) &s->h_mask, CHUNK_PIXELS,
                                 cudaHostAllocDefault))
               != cudaSuccess
          || (e = cudaHostAlloc ((void **) &s->h_sums, sums,
                                 cudaHostAllocDefault))
               != cudaSuccess
          || (e = cudaMalloc ((void **) &s->d_pix, pix)) != cudaSuccess
          || (e = cudaMalloc ((void **) &s->d_mask, CHUNK_PIXELS))
               != cudaSuccess
          || (e = cudaMalloc ((void **) &s->d_sums, sums)) != cudaSuccess)
        {
          gh_cuda_destroy (gpu);
          return cuda_fail (error, "cannot set up the GPU buffers", e);
        }
    }
  *out = gpu;
  return GH_OK;
}

const char *
gh_cuda_device_name (const gh_cuda *gpu)
{
  return gpu->name;
}

void
gh_cuda_begin (gh_cuda *gpu, const gh_image *image)
{
  gpu->image = *image;
  gpu->bpp = (size_t) gh_layout_bpp (image->layout);
  gpu->kind.layout = image->layout;
  gpu->kind.mask = image->has_mask != 0;
  gpu->kind.raw = false;
  gpu->kind.luminance = image->luminance;
  /* Calibrates on the first image of its kind, before any copy. */
  gpu->choice = gh_cuda_choose (gpu->kernel, &gpu->kind, gpu->smem_cap);
  gpu->at = 0;
  gh_accum_zero (&gpu->total);
  gpu->failed = false;
  for (int i = 0; i < SLOTS; i++)
    {
      gpu->slots[i].n = 0;
      gpu->slots[i].src_pix = gpu->slots[i].h_pix;
      gpu->slots[i].src_mask = gpu->slots[i].h_mask;
    }
  gpu->cur = 0;
}

static cudaError_t
submit (gh_cuda *gpu, slot *s)
{
  bool mask = gpu->image.has_mask != 0;
  size_t sums = SUMS * sizeof (unsigned long long);
  cudaError_t e = cudaErrorInvalidConfiguration;

  if (gpu->inject_after > 0 && ++gpu->submitted > gpu->inject_after)
    return cudaErrorLaunchFailure;
  if ((e = cudaMemcpyAsync (s->d_pix, s->src_pix, s->n * gpu->bpp,
                            cudaMemcpyHostToDevice, s->stream))
        != cudaSuccess
      || (mask
          && (e = cudaMemcpyAsync (s->d_mask, s->src_mask, s->n,
                                   cudaMemcpyHostToDevice, s->stream))
               != cudaSuccess)
      || (e = cudaMemsetAsync (s->d_sums, 0, sums, s->stream)) != cudaSuccess)
    return e;
  /* A refused launch enqueues nothing: the next variant counts the chunk. */
  for (; gpu->at < gpu->choice.count; gpu->at++)
    if ((e = gh_cuda_histogram (gpu->choice.order[gpu->at], &gpu->kind,
                                gpu->smem_cap, s->d_pix,
                                mask ? s->d_mask : NULL, s->n, s->d_sums,
                                s->stream))
        == cudaSuccess)
      break;
  if (e != cudaSuccess
      || (e = cudaMemcpyAsync (s->h_sums, s->d_sums, sums,
                               cudaMemcpyDeviceToHost, s->stream))
           != cudaSuccess
      || (e = cudaEventRecord (s->done, s->stream)) != cudaSuccess)
    return e;
  s->in_flight = true;
  return cudaSuccess;
}

/* Waits for a submitted chunk and adds its sums to the total. */
static cudaError_t
retire (gh_cuda *gpu, slot *s)
{
  cudaError_t e = cudaEventSynchronize (s->done);
  if (e != cudaSuccess)
    return e;
  for (int i = 0; i < SUMS; i++)
    gpu->total.sum[i] += s->h_sums[i];
  s->in_flight = false;
  s->n = 0;
  s->src_pix = s->h_pix;
  s->src_mask = s->h_mask;
  return cudaSuccess;
}

/* After a failure: every staged chunk without results, then the part of
 * `piece` from row y, column x on (if any), is counted on the CPU. */
static void
fall_back (gh_cuda *gpu, gh_cpu *cpu, const gh_piece *piece, size_t y,
           size_t x)
{
  gpu->failed = true;
  for (int i = 0; i < SLOTS; i++)
    {
      slot *s = &gpu->slots[i];
      if (s->n > 0)
        {
          gh_piece chunk = { s->src_pix, s->n, 1, s->n * gpu->bpp,
                             s->src_mask, s->n };
          gh_cpu_feed (cpu, &chunk);
        }
      s->n = 0;
      s->in_flight = false;
      s->src_pix = s->h_pix;
      s->src_mask = s->h_mask;
    }
  if (!piece || y >= piece->height)
    return;
  if (x > 0)
    {
      gh_piece row;
      gh_piece_sub (&gpu->image, piece, x, y, piece->width - x, 1, &row);
      gh_cpu_feed (cpu, &row);
      y++;
    }
  if (y < piece->height)
    {
      gh_piece rest;
      gh_piece_sub (&gpu->image, piece, 0, y, piece->width,
                    piece->height - y, &rest);
      gh_cpu_feed (cpu, &rest);
    }
}

void *
gh_cuda_alloc_host (size_t bytes)
{
  void *p = NULL;
  return cudaHostAlloc (&p, bytes, cudaHostAllocDefault) == cudaSuccess ? p
                                                                       : NULL;
}

void
gh_cuda_free_host (void *memory)
{
  if (memory && gh_cuda_page_locked (memory))
    cudaFreeHost (memory);
  else
    free (memory);
}

int
gh_cuda_page_locked (const void *p)
{
  cudaPointerAttributes a;
  if (cudaPointerGetAttributes (&a, p) != cudaSuccess)
    {
      cudaGetLastError (); /* plain pageable memory can report an error */
      return 0;
    }
  return a.type == cudaMemoryTypeHost;
}

/* Counts a contiguous run straight from the caller's page-locked memory,
 * chunk by chunk over the slots, and waits for all of it. */
static cudaError_t
feed_direct (gh_cuda *gpu, const uint8_t *pix, const uint8_t *mask,
             size_t n, size_t *done)
{
  cudaError_t e;
  slot *s = &gpu->slots[gpu->cur];

  /* A partly filled staging chunk from earlier pieces goes first. */
  if (s->n > 0 && !s->in_flight)
    {
      if ((e = submit (gpu, s)) != cudaSuccess)
        return e;
      gpu->cur = (gpu->cur + 1) % SLOTS;
    }
  for (*done = 0; *done < n;)
    {
      size_t take = n - *done < CHUNK_PIXELS ? n - *done : CHUNK_PIXELS;
      s = &gpu->slots[gpu->cur];
      if (s->in_flight && (e = retire (gpu, s)) != cudaSuccess)
        return e;
      s->src_pix = pix + *done * gpu->bpp;
      s->src_mask = mask ? mask + *done : NULL;
      s->n = take;
      *done += take;
      if ((e = submit (gpu, s)) != cudaSuccess)
        return e;
      gpu->cur = (gpu->cur + 1) % SLOTS;
    }
  for (int i = 0; i < SLOTS; i++)
    if (gpu->slots[i].in_flight
        && (e = retire (gpu, &gpu->slots[i])) != cudaSuccess)
      return e;
  return cudaSuccess;
}

gh_status
gh_cuda_feed (gh_cuda *gpu, const gh_piece *piece, gh_cpu *cpu,
              gh_error *error)
{
  gh_piece p = *piece;
  size_t y = 0, x = 0;
  bool mask = gpu->image.has_mask != 0;
  cudaError_t e;

  if (p.stride == p.width * gpu->bpp && (!mask || p.mask_stride == p.width))
    {
      p.width *= p.height;
      p.height = 1;
      p.stride = p.width * gpu->bpp;
      p.mask_stride = p.width;
    }
  if (p.height == 1 && gh_cuda_page_locked (p.pixels)
      && (!mask || gh_cuda_page_locked (p.mask)))
    {
      size_t done = 0;
      if ((e = feed_direct (gpu, (const uint8_t *) p.pixels,
                            (const uint8_t *) p.mask, p.width, &done))
          != cudaSuccess)
        {
          fall_back (gpu, cpu, &p, 0, done);
          return cuda_fail (error, "CUDA failed while counting", e);
        }
      return GH_OK;
    }

  while (y < p.height)
    {
      slot *s = &gpu->slots[gpu->cur];
      const uint8_t *row;
      size_t take;

      if (s->in_flight && (e = retire (gpu, s)) != cudaSuccess)
        {
          fall_back (gpu, cpu, &p, y, x);
          return cuda_fail (error, "CUDA failed while counting", e);
        }
      take = p.width - x;
      if (take > CHUNK_PIXELS - s->n)
        take = CHUNK_PIXELS - s->n;
      row = (const uint8_t *) p.pixels + y * p.stride;
      gh_cpu_memcpy (cpu, s->h_pix + s->n * gpu->bpp, row + x * gpu->bpp,
                     take * gpu->bpp);
      if (mask)
        gh_cpu_memcpy (cpu, s->h_mask + s->n,
                       (const uint8_t *) p.mask + y * p.mask_stride + x, take);
      s->n += take;
      x += take;
      if (x == p.width)
        {
          x = 0;
          y++;
        }
      if (s->n == CHUNK_PIXELS)
        {
          if ((e = submit (gpu, s)) != cudaSuccess)
            {
              fall_back (gpu, cpu, &p, y, x);
              return cuda_fail (error, "CUDA failed while counting", e);
            }
          gpu->cur = (gpu->cur + 1) % SLOTS;
        }
    }
  return GH_OK;
}

gh_status
gh_cuda_finish (gh_cuda *gpu, gh_accum *acc, gh_cpu *cpu, gh_error *error)
{
  slot *last = &gpu->slots[gpu->cur];
  cudaError_t e = cudaSuccess;

  if (gpu->failed)
    {
      gh_accum_add (acc, &gpu->total);
      return GH_OK;
    }
  if (last->n > 0 && !last->in_flight)
    e = submit (gpu, last);
  for (int i = 0; i < SLOTS && e == cudaSuccess; i++)
    if (gpu->slots[i].in_flight)
      e = retire (gpu, &gpu->slots[i]);
  if (e != cudaSuccess)
    {
      fall_back (gpu, cpu, NULL, 0, 0);
      gh_accum_add (acc, &gpu->total);
      return cuda_fail (error, "CUDA failed while counting", e);
    }
  gh_accum_add (acc, &gpu->total);
  return GH_OK;
}
