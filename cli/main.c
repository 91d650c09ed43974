/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gpu-histogram-cli — the engine from the command line, on image files
 * (netpbm; PNG, JPEG, TIFF and WebP where built with GEGL: image.h).
 *
 * Prints its version, the backend and the statistics of every channel
 * (CSV after a "generator:" and a "backend:" line); optionally
 * writes the histogram as CSV and a copy of the image through each
 * operation asked for (equalize, binarize, CLAHE, match, posterize), the
 * operations and their parameters being the engine's vocabulary
 * (gh_request.h) as the GIMP plug-ins' are, so all three hosts agree.
 * Images stream through in strips, so memory stays bounded; output files
 * are written whole (io/whole.h).  Run with --help for the options.
 *
 * Here: the files through one engine, several at once (--threads): each
 * file decoded, counted, applied and encoded on one of the workers, the
 * engine's calls one at a time (count.h's lock), what each file prints
 * kept and printed in input order, with a progress line and a summary
 * (progress.h).  options.c: the command line; count.c: the passes that
 * count; operations.c: one operation; results.c: what is written;
 * streams.c: where prints go.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "count.h"
#include "gh_version.h"
#include "operations.h"
#include "options.h"
#include "photo_run.h"
#include "progress.h"
#include "results.h"
#include "streams.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/* Where the time goes (--timings): reading and decoding the files, and
 * the rest of writing results; the engine keeps its own
 * (gh_engine_timings). */
typedef struct {
  double decode, encode;
} cli_timers;

/* Opens --mask for `im`: 0, or -1 (said). */
static int
open_mask (const char *path, const cli_image *im, cli_image *mask)
{
  if (cli_image_open (path, mask))
    return -1;
  if (mask->layout != GH_LAYOUT_GRAY || mask->sample != GH_SAMPLE_U8
      || mask->width != im->width || mask->height != im->height)
    {
      fprintf (cli_err (), "the mask must be an 8-bit gray image of %zux%zu\n",
               im->width, im->height);
      cli_image_close (mask);
      return -1;
    }
  return 0;
}

/* Counts one file and prints (and writes) what the options ask for.
 * `im` is open; 0 on success. */
static int
process_file (gh_engine *engine, const cli_options *o, cli_image *im,
              cli_timers *timers)
{
  cli_image mask;
  gh_histogram hist;
  int rc = 1;
  double t, decoded;

  if (o->mask && open_mask (o->mask, im, &mask))
    return 1;
  gh_histogram_init (&hist);
  t = cli_now ();
  if (cli_reads_whole (o, im) && cli_image_read_whole (im))
    goto out;
  timers->decode += cli_now () - t;
  if (cli_count (engine, im, o->mask ? &mask : NULL, o->luminance, &hist,
                 &timers->decode))
    goto out;
  t = cli_now ();
  decoded = timers->decode;
  cli_engine_lock ();
  fprintf (cli_out (), "backend: %s\n", gh_engine_backend_name (engine));
  cli_engine_unlock ();
  cli_print_stats (&hist, o->lo, o->hi);
  if (o->histogram && cli_write_csv (o->histogram, &hist))
    goto out;
  for (int k = GH_REQ_NONE + 1; k < GH_NUM_REQS; k++)
    if (cli_wants (o, (gh_operation) k)
        && cli_run_operation (engine, o, (gh_operation) k, im, &hist,
                              &timers->decode))
      goto out;
  timers->encode += cli_now () - t - (timers->decode - decoded);
  rc = 0;
out:
  gh_histogram_clear (&hist);
  if (o->mask)
    cli_image_close (&mask);
  return rc;
}

/* --timings: one line on stderr, milliseconds; decode and encode are
 * summed over the files, so over the workers' threads. */
static void
print_timings (const gh_engine *engine, int files, const cli_timers *timers,
               double create, double start)
{
  gh_timings t;
  gh_engine_timings (engine, &t);
  fprintf (cli_err (),
           "timings: files %d, decode %.1f ms, count %.1f ms (cpu %.1f ms "
           "for %llu px, gpu %.1f ms for %llu px: staging, transfer and "
           "kernels overlapped), gpu ready after %.1f ms, encode %.1f ms, "
           "engine create %.1f ms, main %.1f ms\n",
           files, timers->decode * 1e3, (t.cpu_count + t.gpu_count) * 1e3,
           t.cpu_count * 1e3, (unsigned long long) t.cpu_pixels,
           t.gpu_count * 1e3, (unsigned long long) t.gpu_pixels,
           t.gpu_ready * 1e3, timers->encode * 1e3, create * 1e3,
           (cli_now () - start) * 1e3);
}

/* The work expected: the pixels of every input, from their headers, so
 * AUTO starts no GPU that the CPU would beat (a GPU started for nothing
 * is joined at exit: one large file and many small ones cost 0.4 s more
 * on the GPU machine when the first file's size stood for all).  A file
 * that cannot be opened counts nothing here and is reported in turn. */
static size_t
expected_pixels (const cli_options *o, const cli_image *first, int at)
{
  size_t total = first->width * first->height;

  for (int i = 0; i < o->n_inputs; i++)
    {
      size_t w, h;
      if (i != at && !cli_image_size (o->inputs[i], &w, &h))
        total += w * h;
    }
  return total;
}

/* What one input printed while it ran on a worker, until its turn. */
typedef struct {
  char *out, *err;
  size_t out_len, err_len;
  int done;
} cli_file;

/* The run over all inputs. */
typedef struct {
  const cli_options *o;
  int workers;          /* files in flight at most */
  /* Under count.h's engine lock: */
  gh_engine *engine;    /* made for the first file that opens */
  int no_engine;        /* it could not be made */
  double create;
  /* Under `lock`: */
  pthread_mutex_t lock;
  int next;             /* the next input to start */
  int printed;          /* the inputs before this one are printed */
  int stop;             /* start no more: no engine */
  int rc;
  cli_timers timers;
  cli_file *files;
  cli_progress progress;
} cli_run;

/* The engine, made for the first file that opens (`im`, input `at`): 0,
 * or -1 when it cannot be (said). */
static int
need_engine (cli_run *run, const cli_image *im, int at)
{
  int rc;

  cli_engine_lock ();
  if (!run->engine && !run->no_engine)
    {
      gh_options eo;
      gh_error err;
      double t = cli_now ();
      gh_options_init (&eo);
      eo.backend = run->o->backend;
      eo.cpu_threads = run->o->threads;
      eo.smem_cap = (size_t) run->o->smem_cap_kb * 1024;
      eo.expected_pixels = expected_pixels (run->o, im, at);
      if (gh_engine_create (&eo, &run->engine, &err) != GH_OK)
        {
          fprintf (cli_err (), "%s\n", err.message);
          run->engine = NULL;
          run->no_engine = 1;
        }
      run->create = cli_now () - t;
    }
  rc = run->engine ? 0 : -1;
  cli_engine_unlock ();
  return rc;
}

/* Input `i` decoded, counted and written: 0, 1 when it failed (said), 2
 * when there is no engine. */
static int
run_input (cli_run *run, int i, cli_timers *timers)
{
  const cli_options *o = run->o;
  cli_options file;
  cli_image im;
  double t = cli_now ();
  int rc;

  if (cli_image_open (o->inputs[i], &im))
    return 1;
  timers->decode += cli_now () - t;
  if (need_engine (run, &im, i))
    rc = 2;
  else
    {
      if (o->n_inputs > 1)
        fprintf (cli_out (), "file: %s\n", o->inputs[i]);
      rc = cli_for_input (o, o->inputs[i], &file)
           || process_file (run->engine, &file, &im, timers);
      cli_for_input_clear (&file);
    }
  cli_image_close (&im);
  return rc;
}

/* What input `i` printed, onto stdout and stderr. */
static void
print_file (cli_file *f)
{
  if (f->out)
    fwrite (f->out, 1, f->out_len, stdout);
  fflush (stdout);
  if (f->err)
    fwrite (f->err, 1, f->err_len, stderr);
  free (f->out);
  free (f->err);
  f->out = f->err = NULL;
}

/* A worker: takes the next input until none is left, its prints kept in
 * memory when there are several inputs (open_memstream; where that fails,
 * printed at once), so they print in order and a refusal's reason reaches
 * the summary. */
static void *
worker (void *arg)
{
  cli_run *run = arg;

  for (;;)
    {
      cli_timers timers = { 0, 0 };
      FILE *out = NULL, *err = NULL;
      cli_file *f;
      int i, rc;

      pthread_mutex_lock (&run->lock);
      i = run->stop ? run->o->n_inputs : run->next++;
      pthread_mutex_unlock (&run->lock);
      if (i >= run->o->n_inputs)
        {
          cli_image_thread_done ();
          return NULL;
        }
      f = &run->files[i];
      if (run->o->n_inputs > 1 && (out = open_memstream (&f->out, &f->out_len))
          && (err = open_memstream (&f->err, &f->err_len)))
        cli_streams_set (out, err);
      rc = run_input (run, i, &timers);
      cli_streams_set (NULL, NULL);
      if (out)
        fclose (out);
      if (err)
        fclose (err);
      pthread_mutex_lock (&run->lock);
      f->done = 1;
      run->rc |= rc != 0;
      run->stop |= rc == 2;
      run->timers.decode += timers.decode;
      run->timers.encode += timers.encode;
      cli_progress_file (&run->progress, rc == 0, err ? f->err : NULL,
                         err ? f->err_len : 0);
      while (run->printed < run->o->n_inputs && run->files[run->printed].done)
        {
          cli_progress_clear (&run->progress);
          print_file (&run->files[run->printed++]);
        }
      cli_progress_draw (&run->progress);
      pthread_mutex_unlock (&run->lock);
    }
}

/* The workers: --threads (0: one per core), no more than the inputs; the
 * caller's thread is one of them. */
static void
run_workers (cli_run *run)
{
  long cores = sysconf (_SC_NPROCESSORS_ONLN);
  int n = run->o->threads > 0 ? run->o->threads : cores > 0 ? (int) cores : 1;
  pthread_t *threads;
  int started = 0;

  run->workers = n < run->o->n_inputs ? n : run->o->n_inputs;
  threads = calloc ((size_t) run->workers, sizeof *threads);
  while (threads && started + 1 < run->workers
         && !pthread_create (&threads[started], NULL, worker, run))
    started++;
  worker (run);
  for (int k = 0; k < started; k++)
    pthread_join (threads[k], NULL);
  free (threads);
  /* Stopped for want of an engine: what the files begun printed. */
  cli_progress_clear (&run->progress);
  for (int i = run->printed; i < run->o->n_inputs; i++)
    if (run->files[i].done)
      print_file (&run->files[i]);
  cli_progress_finish (&run->progress);
}

/* The GPU path's way back to the CPU path for input `i` (photo_run.h). */
static int
run_fallback (void *arg, int i)
{
  cli_run *run = arg;
  cli_timers timers = { 0, 0 };
  int rc = run_input (run, i, &timers);

  pthread_mutex_lock (&run->lock);
  run->timers.decode += timers.decode;
  run->timers.encode += timers.encode;
  pthread_mutex_unlock (&run->lock);
  return rc;
}

/* JPEG folders through the GPU where this run is its (photo_run.h): 1
 * when it ran, 0 when the CPU path is to. */
static int
run_photos (cli_run *run)
{
  const char *why;
  int rc;

  if (!cli_photo_takes (run->o, &why))
    {
      if (run->o->decoder == CLI_DECODER_GPU)
        fprintf (stderr, "--decoder gpu: %s: decoding on the CPU\n", why);
      return 0;
    }
  if (cli_photo_run (run->o, run_fallback, run, &run->progress, &rc))
    return 0;
  run->rc |= rc;
  cli_progress_clear (&run->progress);
  cli_progress_finish (&run->progress);
  return 1;
}

/* Memory freed after a file kept for the next: glibc would return the
 * buffers of 32 MB and less to the kernel and map them afresh (libjpeg's
 * coefficients of a photo being encoded, 24 MB a channel), a page fault
 * each 4 KB: on a folder of 12 MP photos 12,000 a photo, 0.025 s of the
 * CLI's 0.28 s of CPU.  What is kept is at most what a file used.  One
 * arena for all workers: each thread's own (64 MB heaps) still gave back
 * and faulted in about 2,500 pages a photo; the workers allocate a few
 * large buffers a file, so they hardly contend for it. */
static void
keep_freed_memory (void)
{
#ifdef __GLIBC__
  mallopt (M_MMAP_THRESHOLD, 32 << 20); /* glibc's largest */
  mallopt (M_TRIM_THRESHOLD, 1 << 30);
  mallopt (M_ARENA_MAX, 1);
#endif
}

int
main (int argc, char **argv)
{
  double start = cli_now ();
  cli_options o;
  cli_run run = { 0 };
  int rc = cli_parse_args (argc, argv, &o);

  if (rc)
    {
      cli_options_clear (&o);
      return rc < 0 ? 0 : rc;
    }
  run.o = &o;
  /* Which version wrote the numbers, once above them. */
  printf ("generator: gpu-histogram-cli %s\n", GH_VERSION);
  keep_freed_memory ();
  pthread_mutex_init (&run.lock, NULL);
  if (!(run.files = calloc ((size_t) o.n_inputs, sizeof *run.files)))
    {
      fprintf (stderr, "out of memory\n");
      cli_options_clear (&o);
      return 1;
    }
  cli_progress_init (&run.progress, o.n_inputs, o.quiet);
  if (!run_photos (&run))
    run_workers (&run);
  if (run.engine && o.timings)
    print_timings (run.engine, o.n_inputs, &run.timers, run.create, start);
  gh_engine_destroy (run.engine);
  pthread_mutex_destroy (&run.lock);
  free (run.files);
  cli_options_clear (&o);
  return run.rc;
}
