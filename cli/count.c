/* count.c — the CLI's passes over an image (count.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "count.h"

#include <stdlib.h>
#include <time.h>

double
cli_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

/* The rows of the next strip of `im` (and `mask`) into the buffers. */
static int
read_strip (pnm_image *im, uint8_t *buf, pnm_image *mask, uint8_t *mbuf,
            size_t rows, double *decode)
{
  double t = cli_now ();
  int rc = pnm_read_rows (im, buf, rows)
           || (mask && pnm_read_rows (mask, mbuf, rows));

  *decode += cli_now () - t;
  if (rc)
    fprintf (stderr, "the image%s file is truncated\n", mask ? " or mask" : "");
  return rc ? -1 : 0;
}

int
cli_count (gh_engine *engine, pnm_image *im, pnm_image *mask,
           gh_luminance luminance, gh_histogram *hist, double *decode)
{
  size_t row = im->width * (size_t) im->depth;
  uint8_t *buf = malloc (row * CLI_STRIP_ROWS);
  uint8_t *mbuf = mask ? malloc (im->width * CLI_STRIP_ROWS) : NULL;
  gh_image desc = { (gh_layout) im->depth, GH_SAMPLE_U8, 256, mask != NULL,
                    luminance };
  gh_error err;
  int rc = -1;

  if (!buf || (mask && !mbuf))
    {
      fprintf (stderr, "out of memory\n");
      goto out;
    }
  if (gh_engine_begin (engine, &desc, &err) != GH_OK)
    goto fail;
  for (size_t y = 0; y < im->height; y += CLI_STRIP_ROWS)
    {
      size_t rows = im->height - y < CLI_STRIP_ROWS ? im->height - y
                                                    : CLI_STRIP_ROWS;
      gh_piece piece = { buf, im->width, rows, row, mbuf, im->width };
      if (read_strip (im, buf, mask, mbuf, rows, decode))
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
  fprintf (stderr, "%s\n", err.message);
out:
  free (buf);
  free (mbuf);
  return rc;
}

int
cli_count_file (gh_engine *engine, const char *path, gh_luminance luminance,
                gh_histogram *hist, double *decode)
{
  pnm_image im;
  char msg[256];
  int rc;

  if (pnm_open (path, &im, msg, sizeof msg))
    return fprintf (stderr, "%s\n", msg), -1;
  rc = cli_count (engine, &im, NULL, luminance, hist, decode);
  pnm_close (&im);
  return rc;
}

int
cli_clahe_pass (gh_engine *engine, const gh_clahe_params *params,
                gh_luminance luminance, pnm_image *im, gh_clahe **clahe,
                double *decode)
{
  size_t row = im->width * (size_t) im->depth;
  uint8_t *buf = malloc (row * CLI_STRIP_ROWS);
  gh_error err;

  *clahe = NULL;
  if (!buf)
    return fprintf (stderr, "out of memory\n"), -1;
  if (pnm_rewind (im))
    {
      fprintf (stderr, "cannot read the image again\n");
      goto out;
    }
  if (gh_clahe_begin (engine, params, (gh_layout) im->depth, GH_SAMPLE_U8,
                      luminance, 256, im->width, im->height, clahe, &err)
      != GH_OK)
    goto fail;
  for (size_t y = 0; y < im->height; y += CLI_STRIP_ROWS)
    {
      size_t rows = im->height - y < CLI_STRIP_ROWS ? im->height - y
                                                    : CLI_STRIP_ROWS;
      if (read_strip (im, buf, NULL, NULL, rows, decode))
        goto out;
      if (gh_clahe_feed (*clahe, buf, y, rows, row, &err) != GH_OK)
        goto fail;
    }
  free (buf);
  return 0;
fail:
  fprintf (stderr, "%s\n", err.message);
out:
  gh_clahe_destroy (*clahe);
  *clahe = NULL;
  free (buf);
  return -1;
}
