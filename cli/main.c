/* gpu-histogram-cli — the engine from the command line, on image files
 * (netpbm; PNG, JPEG, TIFF and WebP where built with GEGL: image.h).
 *
 * Prints the backend and the statistics of every channel; optionally
 * writes the histogram as CSV and a copy of the image through each
 * operation asked for (equalize, binarize, CLAHE, match, posterize), the
 * operations and their parameters being the engine's vocabulary
 * (gh_request.h) as the GIMP plug-ins' are, so all three hosts agree.
 * Images stream through in strips, so memory stays bounded; output files
 * are written whole (io/whole.h).  Run with --help for the options.
 *
 * Here: the files in turn through one engine.  options.c: the command
 * line; count.c: the passes that count; operations.c: one operation;
 * results.c: what is written.
 */
#include "count.h"
#include "operations.h"
#include "options.h"
#include "results.h"

#include <stdio.h>
#include <stdlib.h>

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
      fprintf (stderr, "the mask must be an 8-bit gray image of %zux%zu\n",
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
  if (cli_count (engine, im, o->mask ? &mask : NULL, o->luminance, &hist,
                 &timers->decode))
    goto out;
  t = cli_now ();
  decoded = timers->decode;
  printf ("backend: %s\n", gh_engine_backend_name (engine));
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

/* --timings: one line on stderr, milliseconds. */
static void
print_timings (const gh_engine *engine, int files, const cli_timers *timers,
               double create, double start)
{
  gh_timings t;
  gh_engine_timings (engine, &t);
  fprintf (stderr,
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

  for (int i = at + 1; i < o->n_inputs; i++)
    {
      size_t w, h;
      if (!cli_image_size (o->inputs[i], &w, &h))
        total += w * h;
    }
  return total;
}

/* The engine, made for the first file that opens. */
static gh_engine *
create_engine (const cli_options *o, size_t expected, double *create)
{
  gh_options eo;
  gh_engine *engine;
  gh_error err;
  double t = cli_now ();

  gh_options_init (&eo);
  eo.backend = o->backend;
  eo.smem_cap = (size_t) o->smem_cap_kb * 1024;
  eo.expected_pixels = expected;
  if (gh_engine_create (&eo, &engine, &err) != GH_OK)
    {
      fprintf (stderr, "%s\n", err.message);
      return NULL;
    }
  *create = cli_now () - t;
  return engine;
}

int
main (int argc, char **argv)
{
  double start = cli_now (), create = 0;
  cli_options o, file;
  cli_image im;
  gh_engine *engine = NULL;
  cli_timers timers = { 0, 0 };
  int rc = cli_parse_args (argc, argv, &o);

  if (rc)
    {
      cli_options_clear (&o);
      return rc < 0 ? 0 : rc;
    }
  for (int i = 0; i < o.n_inputs; i++)
    {
      double t = cli_now ();
      size_t expected = 0;
      if (cli_image_open (o.inputs[i], &im))
        {
          rc = 1;
          continue;
        }
      if (!engine)
        expected = expected_pixels (&o, &im, i);
      timers.decode += cli_now () - t;
      if (!engine && !(engine = create_engine (&o, expected, &create)))
        {
          cli_image_close (&im);
          cli_options_clear (&o);
          return 1;
        }
      if (o.n_inputs > 1)
        printf ("file: %s\n", o.inputs[i]);
      if (cli_for_input (&o, o.inputs[i], &file)
          || process_file (engine, &file, &im, &timers))
        rc = 1;
      cli_for_input_clear (&file);
      cli_image_close (&im);
    }
  if (engine && o.timings)
    print_timings (engine, o.n_inputs, &timers, create, start);
  gh_engine_destroy (engine);
  cli_options_clear (&o);
  return rc;
}
