/* SPDX-License-Identifier: GPL-3.0-or-later */
/* count.c — the CLI's passes over an image (count.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "count.h"
#include "streams.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

/* The engine's: see count.h. */
static pthread_mutex_t engine_lock = PTHREAD_MUTEX_INITIALIZER;

void
cli_engine_lock (void)
{
  pthread_mutex_lock (&engine_lock);
}

void
cli_engine_unlock (void)
{
  pthread_mutex_unlock (&engine_lock);
}

double
cli_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

/* The rows of the next strip of `im` (and `mask`): *pixels where `im`
 * holds them, else read into `buf`.  The mask is read as bytes and, for a
 * float image, widened in place to the image's sample type (the engine's
 * rule), from the last so nothing is overwritten before it is read. */
static int
read_strip (cli_image *im, void *buf, const void **pixels, cli_image *mask,
            void *mbuf, size_t rows, double *decode)
{
  double t = cli_now ();
  int rc = 0;

  if (!(*pixels = cli_image_held_rows (im, rows)))
    {
      rc = cli_image_read_rows (im, buf, rows);
      *pixels = buf;
    }
  rc = rc || (mask && cli_image_read_rows (mask, mbuf, rows));

  if (!rc && mask && im->sample == GH_SAMPLE_F32)
    for (size_t i = mask->width * rows; i-- > 0;)
      ((float *) mbuf)[i] = ((const uint8_t *) mbuf)[i] / 255.0f;
  *decode += cli_now () - t;
  return rc ? -1 : 0;
}

/* cli_count under the engine's lock. */
static int
count_locked (gh_engine *engine, cli_image *im, cli_image *mask,
              gh_luminance luminance, gh_histogram *hist, double *decode)
{
  size_t msample = im->sample == GH_SAMPLE_F32 ? sizeof (float) : 1;
  void *buf = malloc (im->row_bytes * CLI_STRIP_ROWS);
  void *mbuf = mask ? malloc (im->width * msample * CLI_STRIP_ROWS) : NULL;
  /* Every channel: each one's statistics are printed, and a reference's
   * channels say whether it is in colour. */
  gh_image desc = { im->layout, im->sample, im->bins, mask != NULL,
                    luminance, 0 };
  gh_error err;
  int rc = -1;

  if (!buf || (mask && !mbuf))
    {
      fprintf (cli_err (), "out of memory\n");
      goto out;
    }
  if (gh_engine_begin (engine, &desc, &err) != GH_OK)
    goto fail;
  for (size_t y = 0; y < im->height; y += CLI_STRIP_ROWS)
    {
      size_t rows = im->height - y < CLI_STRIP_ROWS ? im->height - y
                                                    : CLI_STRIP_ROWS;
      gh_piece piece = { NULL, im->width, rows, im->row_bytes, mbuf,
                         im->width * msample };
      if (read_strip (im, buf, &piece.pixels, mask, mbuf, rows, decode))
        goto out;
      if (gh_engine_feed (engine, &piece, &err) != GH_OK)
        goto fail;
    }
  if (gh_engine_finish (engine, hist, &err) == GH_OK)
    {
      rc = 0;
      goto out;
    }
fail:
  fprintf (cli_err (), "%s\n", err.message);
out:
  free (buf);
  free (mbuf);
  return rc;
}

int
cli_count (gh_engine *engine, cli_image *im, cli_image *mask,
           gh_luminance luminance, gh_histogram *hist, double *decode)
{
  int rc;

  cli_engine_lock ();
  rc = count_locked (engine, im, mask, luminance, hist, decode);
  cli_engine_unlock ();
  return rc;
}

int
cli_count_file (gh_engine *engine, const char *path, gh_luminance luminance,
                gh_histogram *hist, double *decode)
{
  cli_image im;
  int rc;

  if (cli_image_open (path, &im))
    return -1;
  rc = cli_count (engine, &im, NULL, luminance, hist, decode);
  cli_image_close (&im);
  return rc;
}

/* cli_clahe_pass under the engine's lock. */
static int
clahe_pass_locked (gh_engine *engine, const gh_clahe_params *params,
                   gh_luminance luminance, cli_image *im, gh_clahe **clahe,
                   double *decode)
{
  void *buf = malloc (im->row_bytes * CLI_STRIP_ROWS);
  gh_error err;

  *clahe = NULL;
  if (!buf)
    return fprintf (cli_err (), "out of memory\n"), -1;
  if (cli_image_rewind (im))
    goto out;
  if (gh_clahe_begin (engine, params, im->layout, im->sample, luminance,
                      im->bins, im->width, im->height, clahe, &err)
      != GH_OK)
    goto fail;
  for (size_t y = 0; y < im->height; y += CLI_STRIP_ROWS)
    {
      size_t rows = im->height - y < CLI_STRIP_ROWS ? im->height - y
                                                    : CLI_STRIP_ROWS;
      const void *pixels;
      if (read_strip (im, buf, &pixels, NULL, NULL, rows, decode))
        goto out;
      if (gh_clahe_feed (*clahe, pixels, y, rows, im->row_bytes, &err)
          != GH_OK)
        goto fail;
    }
  free (buf);
  return 0;
fail:
  fprintf (cli_err (), "%s\n", err.message);
out:
  gh_clahe_destroy (*clahe);
  *clahe = NULL;
  free (buf);
  return -1;
}

int
cli_clahe_pass (gh_engine *engine, const gh_clahe_params *params,
                gh_luminance luminance, cli_image *im, gh_clahe **clahe,
                double *decode)
{
  int rc;

  cli_engine_lock ();
  rc = clahe_pass_locked (engine, params, luminance, im, clahe, decode);
  cli_engine_unlock ();
  return rc;
}
