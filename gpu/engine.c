/* engine.c — the public engine API (gpu_histogram.h): choosing a backend,
 * the begin / feed / finish cycle, and falling back to the CPU. */
#include "accum.h"
#include "cpu_backend.h"
#if GH_HAVE_CUDA
#include "cuda_backend.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gh_engine {
  gh_options options;
  gh_cpu *cpu;
#if GH_HAVE_CUDA
  gh_cuda *gpu;     /* NULL once the GPU is unusable */
  int gpu_began;    /* the current image began on the GPU */
  int image_on_gpu; /* ... and the GPU has not failed since */
#endif
  int open;       /* between begin and finish */
  gh_image image;
  gh_accum acc;
  char name[340]; /* the backend counting the current (or last) image */
  char fallback[300];
};

void
gh_options_init (gh_options *options)
{
  memset (options, 0, sizeof *options);
  options->backend = GH_BACKEND_AUTO;
  options->kernel = GH_KERNEL_AUTO;
}

static void
set_cpu_name (gh_engine *e)
{
  int n = gh_cpu_threads (e->cpu);
  snprintf (e->name, sizeof e->name, "cpu: %d thread%s", n, n == 1 ? "" : "s");
}

/* Records why the engine is on the CPU; says so on stderr when `loud`. */
static void
note_fallback (gh_engine *e, const char *why, int loud)
{
  snprintf (e->fallback, sizeof e->fallback, "%.270s; using the CPU", why);
  if (loud && !e->options.quiet)
    fprintf (stderr, "gpu-histogram: %s\n", e->fallback);
  set_cpu_name (e);
}

static gh_status
backend_from_env (gh_backend *backend, gh_error *error)
{
  const char *v = getenv ("GPU_HISTOGRAM_BACKEND");
  if (v && *v && gh_backend_parse (v, backend) != 0)
    return gh_fail (error, GH_ERR_INVALID,
                    "GPU_HISTOGRAM_BACKEND is '%s'; use auto, cpu or cuda",
                    v);
  return GH_OK;
}

gh_status
gh_engine_create (const gh_options *options, gh_engine **out,
                  gh_error *error)
{
  gh_engine *e;
  gh_status st;

  if (!out)
    return gh_fail (error, GH_ERR_INVALID, "no place for the engine given");
  *out = NULL;
  e = calloc (1, sizeof *e);
  if (!e)
    return gh_fail (error, GH_ERR_NOMEM, "out of memory for the engine");
  if (options)
    e->options = *options;
  else
    gh_options_init (&e->options);
  if ((st = backend_from_env (&e->options.backend, error)) != GH_OK
      || (st = gh_cpu_create (e->options.cpu_threads, &e->cpu, error))
           != GH_OK)
    {
      free (e);
      return st;
    }
  gh_image u8 = { GH_LAYOUT_RGBA, GH_SAMPLE_U8, 256, 0,
                  GH_LUMINANCE_PERCEPTUAL };
  if (gh_accum_init (&e->acc, &u8) != GH_OK)
    {
      gh_engine_destroy (e);
      return gh_fail (error, GH_ERR_NOMEM, "out of memory for the engine");
    }
  set_cpu_name (e);

  if (e->options.backend != GH_BACKEND_CPU)
    {
#if GH_HAVE_CUDA
      gh_error why;
      if (gh_cuda_create (&e->options, &e->gpu, &why) == GH_OK)
        snprintf (e->name, sizeof e->name, "%s", gh_cuda_device_name (e->gpu));
      else
        /* No GPU under AUTO is the normal case on most machines: quiet. */
        note_fallback (e, why.message,
                       e->options.backend == GH_BACKEND_CUDA);
#else
      note_fallback (e, "this build has no CUDA support",
                     e->options.backend == GH_BACKEND_CUDA);
#endif
    }
  *out = e;
  return GH_OK;
}

void
gh_engine_destroy (gh_engine *e)
{
  if (!e)
    return;
#if GH_HAVE_CUDA
  gh_cuda_destroy (e->gpu);
#endif
  gh_cpu_destroy (e->cpu);
  gh_accum_free (&e->acc);
  free (e);
}

const char *
gh_engine_backend_name (const gh_engine *e)
{
  return e ? e->name : "none";
}

const char *
gh_engine_fallback_reason (const gh_engine *e)
{
  return e && e->fallback[0] ? e->fallback : NULL;
}

void *
gh_engine_alloc_host (gh_engine *e, size_t bytes)
{
#if GH_HAVE_CUDA
  if (e && e->gpu)
    {
      void *p = gh_cuda_alloc_host (bytes);
      if (p)
        return p;
    }
#endif
  (void) e;
  return malloc (bytes ? bytes : 1);
}

void
gh_engine_free_host (gh_engine *e, void *memory)
{
  (void) e;
#if GH_HAVE_CUDA
  gh_cuda_free_host (memory);
#else
  free (memory);
#endif
}

#if GH_HAVE_CUDA
/* The GPU failed: the CUDA backend has already handed what it held to the
 * CPU; later pieces and images go to the CPU. */
static void
gpu_failed (gh_engine *e, const gh_error *why)
{
  char line[sizeof e->fallback];
  snprintf (line, sizeof line, "GPU failed (%.250s)", why->message);
  note_fallback (e, line, 1);
  e->image_on_gpu = 0;
}
#endif

gh_status
gh_engine_begin (gh_engine *e, const gh_image *image, gh_error *error)
{
  gh_status st;

  if (!e)
    return gh_fail (error, GH_ERR_INVALID, "no engine given");
  if ((st = gh_image_check (image, error)) != GH_OK)
    return st;
  if (!gh_accum_fits (&e->acc, image))
    {
      gh_accum_free (&e->acc);
      if (gh_accum_init (&e->acc, image) != GH_OK)
        return gh_fail (error, GH_ERR_NOMEM, "out of memory for %d bins",
                        image->bins);
    }
  if ((st = gh_cpu_begin (e->cpu, image, error)) != GH_OK)
    return st;
  e->image = *image;
  e->open = 1;
#if GH_HAVE_CUDA
  /* The kernels count 8-bit samples, under either luminance rule; float
   * images go to the CPU. */
  e->gpu_began = e->gpu && image->sample == GH_SAMPLE_U8;
  if (e->gpu_began)
    gh_cuda_begin (e->gpu, image);
  e->image_on_gpu = e->gpu_began;
  /* The name says who counts this image: callers report it with the
   * numbers. */
  if (e->gpu_began)
    {
      snprintf (e->name, sizeof e->name, "%s", gh_cuda_device_name (e->gpu));
      return GH_OK;
    }
#endif
  set_cpu_name (e);
  return GH_OK;
}

gh_status
gh_engine_feed (gh_engine *e, const gh_piece *piece, gh_error *error)
{
  gh_status st;

  if (!e)
    return gh_fail (error, GH_ERR_INVALID, "no engine given");
  if (!e->open)
    return gh_fail (error, GH_ERR_STATE, "feed called before begin");
  if ((st = gh_piece_check (&e->image, piece, error)) != GH_OK)
    return st;
#if GH_HAVE_CUDA
  if (e->image_on_gpu)
    {
      gh_error why;
      if (gh_cuda_feed (e->gpu, piece, e->cpu, &why) != GH_OK)
        gpu_failed (e, &why);
      return GH_OK;
    }
#endif
  gh_cpu_feed (e->cpu, piece);
  return GH_OK;
}

gh_status
gh_engine_finish (gh_engine *e, gh_histogram *out, gh_error *error)
{
  if (!e || !out)
    return gh_fail (error, GH_ERR_INVALID, "no engine or output given");
  if (!e->open)
    return gh_fail (error, GH_ERR_STATE, "finish called before begin");
  e->open = 0;
  gh_accum_zero (&e->acc);
#if GH_HAVE_CUDA
  if (e->gpu_began)
    {
      gh_error why;
      /* After a failure in feed this only adds the chunks the GPU did
       * finish; the CPU holds the rest. */
      if (gh_cuda_finish (e->gpu, &e->acc, e->cpu, &why) != GH_OK)
        gpu_failed (e, &why);
      if (!e->image_on_gpu && e->fallback[0])
        {
          gh_cuda_destroy (e->gpu);
          e->gpu = NULL;
        }
    }
#endif
  gh_cpu_collect (e->cpu, &e->acc);
  return gh_accum_finish (&e->acc, &e->image, out, error);
}
