/* SPDX-License-Identifier: GPL-3.0-or-later */
/* results.c — what the CLI writes (results.h). */
#include "results.h"

#include "count.h"
#include "streams.h"
#include "whole.h"

#include <stdlib.h>
#include <string.h>

/* A level of 0..255 as the nearest of `bins` bins (the dialog's rule for
 * its range). */
static int
level_bin (int level, int bins)
{
  return (int) ((double) level * (bins - 1) / 255.0 + 0.5);
}

void
cli_print_stats (const gh_histogram *h, int lo, int hi)
{
  lo = level_bin (lo, h->bins);
  hi = level_bin (hi, h->bins);
  fprintf (cli_out (), "channel,count,pixels,percentile,min,max,mean,"
                       "median,std_dev,otsu\n");
  for (int c = 0; c < GH_NUM_CHANNELS; c++)
    {
      gh_stats s;
      if (!(h->channels & (1u << c))
          || gh_stats_compute (h, (gh_channel) c, lo, hi, &s) != GH_OK)
        continue;
      fprintf (cli_out (),
               "%s,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g\n",
               gh_channel_name ((gh_channel) c), s.count, s.pixels,
               s.percentile, s.min, s.max, s.mean, s.median, s.std_dev,
               s.otsu);
    }
}

/* Opens `path` to be written whole; 0 or -1 (said). */
static int
open_whole (io_whole_file *out, const char *path)
{
  int errsv = io_whole_open (out, path);

  if (errsv)
    fprintf (cli_err (), "cannot write %s: %s\n", path, strerror (errsv));
  return errsv ? -1 : 0;
}

/* Puts the file in place when `ok`, else removes it; 0 when in place. */
static int
close_whole (io_whole_file *out, int ok)
{
  int errsv = io_whole_close (out, ok);

  if (ok && errsv)
    fprintf (cli_err (), "cannot write %s: %s\n", out->path,
             strerror (errsv));
  return errsv ? -1 : 0;
}

int
cli_write_csv (const char *path, const gh_histogram *h)
{
  io_whole_file out;

  if (open_whole (&out, path))
    return -1;
  return close_whole (&out, gh_csv_write_histogram (out.file, h) == 0);
}

int
cli_rewrite (cli_image *im, const char *path, const gh_op *op, int quality)
{
  void *buf = malloc (im->row_bytes * CLI_STRIP_ROWS);
  cli_output out;
  int ok = 0;

  if (!buf)
    return fprintf (cli_err (), "out of memory\n"), -1;
  if (cli_image_rewind (im) || cli_output_open (&out, path, im, quality))
    {
      free (buf);
      return -1;
    }
  for (size_t y = 0; y < im->height; y += CLI_STRIP_ROWS)
    {
      size_t rows = im->height - y < CLI_STRIP_ROWS ? im->height - y
                                                    : CLI_STRIP_ROWS;
      gh_error err;
      gh_status st;
      if (cli_image_read_rows (im, buf, rows))
        goto done;
      cli_engine_lock ();
      st = gh_op_apply_rect (op, buf, 0, y, im->width, rows, im->row_bytes,
                             &err);
      cli_engine_unlock ();
      if (st != GH_OK)
        {
          fprintf (cli_err (), "%s\n", err.message);
          goto done;
        }
      if (cli_output_write_rows (&out, buf, rows))
        goto done;
    }
  ok = 1;
done:
  free (buf);
  return cli_output_close (&out, ok);
}

int
cli_rewrite_clahe (gh_engine *engine, cli_image *im,
                   const gh_clahe_params *params, gh_luminance luminance,
                   const char *path, int quality, double *decode)
{
  void *buf = malloc (im->row_bytes * im->height);
  cli_output out;
  gh_error err;
  gh_status st;
  double t;
  int ok = 0;

  if (!buf)
    return fprintf (cli_err (), "out of memory\n"), -1;
  t = cli_now ();
  if (cli_image_rewind (im) || cli_image_read_rows (im, buf, im->height))
    {
      free (buf);
      return -1;
    }
  *decode += cli_now () - t;
  cli_engine_lock ();
  st = gh_clahe_image (engine, params, im->layout, im->sample, luminance,
                       im->bins, buf, im->width, im->height, im->row_bytes,
                       &err);
  cli_engine_unlock ();
  if (st != GH_OK)
    {
      free (buf);
      return fprintf (cli_err (), "%s\n", err.message), -1;
    }
  if (cli_output_open (&out, path, im, quality))
    {
      free (buf);
      return -1;
    }
  ok = !cli_output_write_rows (&out, buf, im->height);
  free (buf);
  return cli_output_close (&out, ok);
}
