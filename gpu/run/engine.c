/* SPDX-License-Identifier: GPL-3.0-or-later */
/* engine.c — the public engine API (gpu_histogram.h): choosing a backend,
 * the begin / feed / finish cycle, starting the GPU beside the CPU, and
 * falling back to the CPU.
 *
 * AUTO's background start.  gh_engine_create starts one thread that makes
 * the device (gh_cuda_create, or the test hook's CPU stand-in) and ends;
 * it touches nothing but its `starter` record, and publishes the result
 * under that record's lock.  The engine looks at the record in begin and
 * feed and adopts the device once it is there: the CPU counts every piece
 * until then, the device the pieces after (while its measured cost per
 * pixel is below the CPU's), and finish adds both sides' sums.
 *
 * Exit safety.  gh_engine_destroy joins the thread, so no thread of the
 * engine is ever inside the CUDA driver once destroy has returned, and
 * process exit never meets a start in flight.  (Leaving the thread running
 * is not safe: the CUDA runtime tears itself down in atexit handlers, some
 * registered during its own lazy start, which would then run beside the
 * thread still starting it.)  That join would make a short call wait for
 * a start it does not need, so a start is only begun when the work is
 * expected to outlast it (gh_options.expected_pixels): then the context is
 * ready, and the thread done, before the work ends.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "accum.h"
#include "cpu_backend.h"
#include "engine_share.h"
#include "fail.h"
#include "layout.h"
#if GH_HAVE_CUDA
#include "clahe_cuda.h"
#include "cuda_backend.h"
#endif

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef GH_HAVE_CUDA
#define GH_HAVE_CUDA 0
#endif

/* Measured on the GPU machine (BENCHMARKS.md, 2026-11-23): a CUDA context
 * takes about 0.35 s to start in a fresh process; one host thread counts
 * about 150 M RGBA pixels/s of GIMP's six channels. */
#define START_SECONDS 0.35
#define CPU_PIXELS_PER_SECOND_PER_THREAD 150e6

/* Pixels the device counts under AUTO before its measured cost is
 * compared with the CPU's: two chunks fill the CUDA backend's pipeline. */
#define TRIAL_PIXELS ((uint64_t) 8 << 20)

#define STANDIN_NAME "test: late GPU stand-in"

/* The background start: written by its thread until `done`, read by the
 * engine only after. */
typedef struct {
  pthread_t thread;
  pthread_mutex_t lock;
  int done;
  gh_status status;
  gh_error why;
  double ready; /* when it was done, on the engine's clock */
  double t0;
  gh_options options;
#if GH_HAVE_CUDA
  gh_cuda *gpu;
#endif
  gh_cpu *standin;
} starter;

struct gh_engine {
  gh_options options;
  gh_cpu *cpu;
  /* The device, once adopted: a GPU, or the test hook's stand-in. */
#if GH_HAVE_CUDA
  gh_cuda *gpu;
#endif
  struct gh_clahe_space *clahe_space; /* gh_engine_clahe_space */
  gh_cpu *standin;
  starter *start;   /* AUTO: the start in progress, until adopted */
  int dev_began;    /* the current image went to the device */
  int image_on_dev; /* ... and the device has not failed since */
  int open;         /* between begin and finish */
  gh_image image;
  gh_accum acc;
  unsigned long fed; /* pieces fed since create (the test hook's gate) */
  uint64_t image_cpu, image_dev; /* this image's pixels on each side */
  gh_timings timings;
  double t0;
  size_t pinned;    /* page-locked blocks handed out and not yet freed */
  int gpu_failed;   /* gh_engine_gpu_failed */
  int side_passes;  /* GPU passes beside the engine (CLAHE's), for tests */
  char name[400];   /* the backend counting the current (or last) image */
  char dev_name[330];
  char fallback[300];
  char failure[280]; /* why, for the name, when gpu_failed */
};

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

void
gh_options_init (gh_options *options)
{
  memset (options, 0, sizeof *options);
  options->backend = GH_BACKEND_AUTO;
  options->kernel = GH_KERNEL_AUTO;
}

static int
has_device (const gh_engine *e)
{
#if GH_HAVE_CUDA
  if (e->gpu)
    return 1;
#endif
  return e->standin != NULL;
}

/* The name of whoever counts an image that goes to the CPU, or to the
 * device, or to both. */
static void
set_name (gh_engine *e, int cpu, int dev)
{
  int n = gh_cpu_threads (e->cpu);
  char threads[40];

  snprintf (threads, sizeof threads, "cpu: %d thread%s", n, n == 1 ? "" : "s");
  if (dev && cpu)
    snprintf (e->name, sizeof e->name, "%s + %s", threads, e->dev_name);
  else if (dev)
    snprintf (e->name, sizeof e->name, "%s", e->dev_name);
  else if (e->gpu_failed)
    snprintf (e->name, sizeof e->name, "%s (GPU failed: %s)", threads,
              e->failure);
  else
    snprintf (e->name, sizeof e->name, "%s", threads);
}

/* Records why the engine is on the CPU.  `told`: a GPU was asked for or
 * exists and could not be used, which the user learns (stderr here unless
 * quiet; the hosts' message; the name); else it stays quiet. */
static void
note_fallback (gh_engine *e, const char *why, int told)
{
  snprintf (e->fallback, sizeof e->fallback, "%.270s; using the CPU", why);
  if (told)
    {
      e->gpu_failed = 1;
      snprintf (e->failure, sizeof e->failure, "%.270s", why);
      if (!e->options.quiet)
        fprintf (stderr, "gpu-histogram: %s\n", e->fallback);
    }
  set_name (e, 1, 0);
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

static void *
start_main (void *arg)
{
  starter *s = arg;
  gh_error why = { "" };
  gh_status st;

  if (s->options.test_late_gpu_pieces > 0)
    st = gh_cpu_create (1, &s->standin, &why);
  else
#if GH_HAVE_CUDA
    st = gh_cuda_create (&s->options, &s->gpu, &why);
#else
    st = gh_fail (&why, GH_ERR_UNSUPPORTED, "this build has no CUDA support");
#endif
  pthread_mutex_lock (&s->lock);
  s->status = st;
  s->why = why;
  s->ready = now () - s->t0;
  s->done = 1;
  pthread_mutex_unlock (&s->lock);
  return NULL;
}

/* Takes what the finished start made: the device, or the reason there is
 * none.  A failure to find a device is quiet; one that found a device and
 * could not start it is told. */
static void
adopt (gh_engine *e)
{
  starter *s = e->start;

  pthread_join (s->thread, NULL);
  pthread_mutex_destroy (&s->lock);
  e->start = NULL;
  if (s->status == GH_OK)
    {
#if GH_HAVE_CUDA
      e->gpu = s->gpu;
      if (e->gpu)
        snprintf (e->dev_name, sizeof e->dev_name, "%s",
                  gh_cuda_device_name (e->gpu));
#endif
      e->standin = s->standin;
      if (e->standin)
        snprintf (e->dev_name, sizeof e->dev_name, "%s", STANDIN_NAME);
      e->timings.gpu_ready = s->ready;
    }
  else
    note_fallback (e, s->why.message, s->status != GH_ERR_UNSUPPORTED);
  free (s);
}

/* Adopts the background start if it is done (the test hook: once its
 * gate of pieces is reached, waiting for it, so tests are exact about
 * where the switch happens).  1 when a device was adopted now. */
static int
poll_start (gh_engine *e)
{
  starter *s = e->start;
  int done;

  if (!s)
    return 0;
  if (s->options.test_late_gpu_pieces > 0)
    {
      if (e->fed < (unsigned long) s->options.test_late_gpu_pieces)
        return 0;
      done = 1;
    }
  else
    {
      pthread_mutex_lock (&s->lock);
      done = s->done;
      pthread_mutex_unlock (&s->lock);
    }
  if (!done)
    return 0;
  adopt (e);
  return has_device (e);
}

/* Whether AUTO should start a context for the work the caller expects. */
static int
start_worth_it (const gh_engine *e)
{
  double cpu_seconds;

  if (e->options.expected_pixels == 0 || e->options.test_late_gpu_pieces > 0)
    return 1;
  cpu_seconds = (double) e->options.expected_pixels
                / (CPU_PIXELS_PER_SECOND_PER_THREAD * gh_cpu_threads (e->cpu));
  return cpu_seconds > START_SECONDS;
}

static void
begin_start (gh_engine *e)
{
  starter *s = calloc (1, sizeof *s);

  if (s)
    {
      s->options = e->options;
      s->t0 = e->t0;
      pthread_mutex_init (&s->lock, NULL);
      if (pthread_create (&s->thread, NULL, start_main, s) == 0)
        {
          e->start = s;
          return;
        }
      pthread_mutex_destroy (&s->lock);
      free (s);
    }
  /* No thread: the start cannot run beside the CPU, and waiting for it
   * here would make AUTO slower than the CPU: stay on the CPU. */
  note_fallback (e, "cannot start the GPU in the background", 0);
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
  e->t0 = now ();
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
                  GH_LUMINANCE_PERCEPTUAL, 0 };
  if (gh_accum_init (&e->acc, &u8) != GH_OK)
    {
      gh_engine_destroy (e);
      return gh_fail (error, GH_ERR_NOMEM, "out of memory for the engine");
    }
  set_name (e, 1, 0);

  if (e->options.backend == GH_BACKEND_CUDA)
    {
      /* Asked for: started here, waiting for it, and told if it fails. */
#if GH_HAVE_CUDA
      gh_error why;
      if (gh_cuda_create (&e->options, &e->gpu, &why) == GH_OK)
        {
          snprintf (e->dev_name, sizeof e->dev_name, "%s",
                    gh_cuda_device_name (e->gpu));
          e->timings.gpu_ready = now () - e->t0;
          set_name (e, 0, 1);
        }
      else
        note_fallback (e, why.message, 1);
#else
      note_fallback (e, "this build has no CUDA support", 1);
#endif
    }
  else if (e->options.backend == GH_BACKEND_AUTO)
    {
      int can_start = e->options.test_late_gpu_pieces > 0 || GH_HAVE_CUDA;
      /* No GPU under AUTO is the normal case on most machines: quiet. */
      if (!can_start)
        note_fallback (e, "this build has no CUDA support", 0);
      else if (start_worth_it (e))
        begin_start (e);
      else
        note_fallback (e, "the expected work ends before a GPU could start",
                       0);
    }
  *out = e;
  return GH_OK;
}

static void
destroy_device (gh_engine *e)
{
#if GH_HAVE_CUDA
  gh_clahe_space_free (e->clahe_space);
  e->clahe_space = NULL;
  gh_cuda_destroy (e->gpu);
  e->gpu = NULL;
#endif
  gh_cpu_destroy (e->standin);
  e->standin = NULL;
}

void
gh_engine_destroy (gh_engine *e)
{
  if (!e)
    return;
  if (e->start)
    adopt (e); /* joins the thread: see the top of this file */
  destroy_device (e);
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

int
gh_engine_gpu_failed (const gh_engine *e)
{
  return e ? e->gpu_failed : 0;
}

void
gh_engine_timings (const gh_engine *e, gh_timings *out)
{
  if (!out)
    return;
  memset (out, 0, sizeof *out);
  if (e)
    *out = e->timings;
}

void *
gh_engine_alloc_host (gh_engine *e, size_t bytes)
{
#if GH_HAVE_CUDA
  /* Only once the GPU is adopted: asking CUDA earlier would wait for the
   * start in progress. */
  if (e && e->gpu)
    {
      void *p = gh_cuda_alloc_host (bytes);
      if (p)
        {
          e->pinned++;
          return p;
        }
    }
#endif
  (void) e;
  return malloc (bytes ? bytes : 1);
}

void
gh_engine_free_host (gh_engine *e, void *memory)
{
#if GH_HAVE_CUDA
  /* With nothing page-locked handed out the block is malloc's, and CUDA
   * is not asked (that too would wait for a start in progress). */
  if (memory && e && e->pinned > 0)
    {
      gh_cuda_free_host (memory);
      return;
    }
#endif
  (void) e;
  free (memory);
}

/* The device failed: the CUDA backend has already handed what it held to
 * the CPU; later pieces and images go to the CPU. */
static void
device_failed (gh_engine *e, const gh_error *why)
{
  char line[sizeof e->fallback];
  snprintf (line, sizeof line, "GPU failed (%.250s)", why->message);
  note_fallback (e, line, 1);
  e->image_on_dev = 0;
}

int
gh_engine_gpu_ready (gh_engine *e)
{
#if GH_HAVE_CUDA
  if (!e || e->gpu_failed)
    return 0;
  poll_start (e);
  return e->gpu != NULL;
#else
  (void) e;
  return 0;
#endif
}

int
gh_engine_gpu_preferred (gh_engine *e, int threads)
{
  gh_threads *pool = gh_engine_threads (e);

  return gh_engine_gpu_ready (e)
         && (e->options.backend == GH_BACKEND_CUDA
             || (pool ? gh_threads_count (pool) : gh_threads_cores ())
                  < threads);
}

gh_threads *
gh_engine_threads (gh_engine *e)
{
  return e ? gh_cpu_pool (e->cpu) : NULL;
}

struct gh_clahe_space **
gh_engine_clahe_space (gh_engine *e)
{
  return &e->clahe_space;
}

gh_status
gh_engine_gpu_injected (gh_engine *e, gh_error *why)
{
  if (e && e->options.inject_gpu_failure_after > 0
      && ++e->side_passes > e->options.inject_gpu_failure_after)
    return gh_fail (why, GH_ERR_STATE, "injected GPU failure (testing)");
  return GH_OK;
}

void
gh_engine_gpu_lost (gh_engine *e, const char *why)
{
  gh_error err;
  if (!e)
    return;
  snprintf (err.message, sizeof err.message, "%s", why);
  device_failed (e, &err);
}

/* Starts the open image on the device: at begin, or mid-image when the
 * device becomes ready; the CPU keeps what it already counted. */
static void
device_begin (gh_engine *e)
{
  e->dev_began = 0;
  e->image_on_dev = 0;
  if (!has_device (e) || e->image.sample != GH_SAMPLE_U8)
    return; /* the kernels count 8-bit samples; floats stay on the CPU */
  if (e->standin)
    {
      gh_error why;
      if (gh_cpu_begin (e->standin, &e->image, &why) != GH_OK)
        {
          device_failed (e, &why);
          destroy_device (e);
          return;
        }
    }
#if GH_HAVE_CUDA
  else
    gh_cuda_begin (e->gpu, &e->image);
#endif
  e->dev_began = e->image_on_dev = 1;
}

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
  e->image_cpu = e->image_dev = 0;
  poll_start (e);
  device_begin (e);
  /* The name says who counts this image: callers report it with the
   * numbers.  finish corrects it when AUTO shared the image. */
  set_name (e, !e->image_on_dev, e->image_on_dev);
  return GH_OK;
}

/* AUTO: the device keeps taking pieces while it costs less per pixel
 * than the CPU, as measured in this process. */
static int
device_worth_it (const gh_engine *e)
{
  const gh_timings *t = &e->timings;

  if (e->options.backend != GH_BACKEND_AUTO || t->gpu_pixels < TRIAL_PIXELS
      || t->cpu_pixels == 0)
    return 1;
  return t->gpu_count / (double) t->gpu_pixels
         <= t->cpu_count / (double) t->cpu_pixels;
}

gh_status
gh_engine_feed (gh_engine *e, const gh_piece *piece, gh_error *error)
{
  gh_status st;
  uint64_t pixels;
  double t;

  if (!e)
    return gh_fail (error, GH_ERR_INVALID, "no engine given");
  if (!e->open)
    return gh_fail (error, GH_ERR_STATE, "feed called before begin");
  if ((st = gh_piece_check (&e->image, piece, error)) != GH_OK)
    return st;
  pixels = (uint64_t) piece->width * piece->height;
  if (e->start && poll_start (e))
    device_begin (e);
  e->fed++;
  t = now ();
  if (e->image_on_dev && device_worth_it (e))
    {
      if (e->standin)
        gh_cpu_feed (e->standin, piece);
#if GH_HAVE_CUDA
      else
        {
          gh_error why;
          /* On failure the CPU has counted the rest of the piece. */
          if (gh_cuda_feed (e->gpu, piece, e->cpu, &why) != GH_OK)
            device_failed (e, &why);
        }
#endif
      e->timings.gpu_count += now () - t;
      e->timings.gpu_pixels += pixels;
      e->image_dev += pixels;
      return GH_OK;
    }
  gh_cpu_feed (e->cpu, piece);
  e->timings.cpu_count += now () - t;
  e->timings.cpu_pixels += pixels;
  e->image_cpu += pixels;
  return GH_OK;
}

gh_status
gh_engine_finish (gh_engine *e, gh_histogram *out, gh_error *error)
{
  double t;

  if (!e || !out)
    return gh_fail (error, GH_ERR_INVALID, "no engine or output given");
  if (!e->open)
    return gh_fail (error, GH_ERR_STATE, "finish called before begin");
  e->open = 0;
  gh_accum_zero (&e->acc);
  if (e->dev_began)
    {
      t = now ();
      if (e->standin)
        gh_cpu_collect (e->standin, &e->acc);
#if GH_HAVE_CUDA
      else
        {
          gh_error why;
          /* After a failure in feed this only adds the chunks the GPU did
           * finish; the CPU holds the rest. */
          if (gh_cuda_finish (e->gpu, &e->acc, e->cpu, &why) != GH_OK)
            device_failed (e, &why);
        }
#endif
      e->timings.gpu_count += now () - t;
      if (!e->image_on_dev)
        destroy_device (e);
    }
  t = now ();
  gh_cpu_collect (e->cpu, &e->acc);
  e->timings.cpu_count += now () - t;
  if (e->image_on_dev && (e->image_cpu > 0 || e->image_dev > 0))
    set_name (e, e->image_cpu > 0, e->image_dev > 0);
  return gh_accum_finish (&e->acc, &e->image, out, error);
}
