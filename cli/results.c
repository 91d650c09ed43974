/* SPDX-License-Identifier: GPL-3.0-or-later */
/* results.c — what the CLI writes (results.h). */
#include "results.h"

#include "count.h"
#include "streams.h"
#include "whole.h"

#include <stddef.h>
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

/* `op` over `rows` rows of `buf`, the image's from row `y`: 0, or -1
 * (said). */
static int
apply_strip (const gh_op *op, const cli_image *im, void *buf, size_t y,
             size_t rows)
{
  gh_error err;
  gh_status st;

  cli_engine_lock ();
  st = gh_op_apply_rect (op, buf, 0, y, im->width, rows, im->row_bytes,
                         &err);
  cli_engine_unlock ();
  if (st != GH_OK)
    return fprintf (cli_err (), "%s\n", err.message), -1;
  return 0;
}

/* Row `y` of `whole` (all of `im`'s rows as stored) turned upright by
 * EXIF `orientation` 2..8, into `row`: pixel by pixel from where the
 * row's first pixel is stored, a pixel (2..4) or a row (5..8, turned by
 * a quarter) on, forward or back. */
static void
upright_row (const cli_image *im, const unsigned char *whole,
             int orientation, size_t y, unsigned char *row)
{
  size_t ps = im->row_bytes / im->width, w = im->width, h = im->height;
  size_t n = orientation >= 5 ? h : w, x0 = 0, y0 = y;
  ptrdiff_t step = (ptrdiff_t) ps, down = (ptrdiff_t) im->row_bytes;

  switch (orientation)
    {
    case 2: x0 = w - 1; step = -step; break;
    case 3: x0 = w - 1; y0 = h - 1 - y; step = -step; break;
    case 4: y0 = h - 1 - y; break;
    case 5: x0 = y; y0 = 0; step = down; break;
    case 6: x0 = y; y0 = h - 1; step = -down; break;
    case 7: x0 = w - 1 - y; y0 = h - 1; step = -down; break;
    case 8: x0 = w - 1 - y; y0 = 0; step = down; break;
    }
  for (size_t k = 0; k < n; k++)
    memcpy (row + k * ps,
            whole + (ptrdiff_t) (y0 * im->row_bytes + x0 * ps)
              + (ptrdiff_t) k * step,
            ps);
}

/* `whole`, all of `im`'s rows, written to `path`, turned upright by the
 * input's orientation where `upright` (a strip at a time: the one copy
 * beside the image is a strip). */
static int
write_whole (cli_image *im, const unsigned char *whole, const char *path,
             int quality, int upright)
{
  int orientation = upright ? cli_image_orientation (im) : 1;
  size_t height = orientation >= 5 ? im->width : im->height;
  unsigned char *strip = NULL;
  cli_output out;
  int ok = 1;

  if (cli_output_open (&out, path, im, quality, upright))
    return -1;
  if (orientation == 1)
    ok = !cli_output_write_rows (&out, whole, im->height);
  else if (!(strip = malloc (out.row_bytes * CLI_STRIP_ROWS)))
    ok = 0, fprintf (cli_err (), "out of memory\n");
  for (size_t y = 0; strip && ok && y < height; y += CLI_STRIP_ROWS)
    {
      size_t rows = height - y < CLI_STRIP_ROWS ? height - y : CLI_STRIP_ROWS;
      for (size_t k = 0; k < rows; k++)
        upright_row (im, whole, orientation, y + k,
                     strip + k * out.row_bytes);
      ok = !cli_output_write_rows (&out, strip, rows);
    }
  free (strip);
  return cli_output_close (&out, ok);
}

/* `im` read whole through `op` and written turned upright. */
static int
rewrite_upright (cli_image *im, const char *path, const gh_op *op,
                 int quality)
{
  unsigned char *buf = cli_pixels_alloc (im->row_bytes * im->height);
  int rc = -1;

  if (!buf)
    return fprintf (cli_err (), "out of memory\n"), -1;
  if (cli_image_rewind (im) || cli_image_read_rows (im, buf, im->height))
    goto out;
  for (size_t y = 0; y < im->height; y += CLI_STRIP_ROWS)
    if (apply_strip (op, im, buf + y * im->row_bytes, y,
                     im->height - y < CLI_STRIP_ROWS ? im->height - y
                                                     : CLI_STRIP_ROWS))
      goto out;
  rc = write_whole (im, buf, path, quality, 1);
out:
  free (buf);
  return rc;
}

int
cli_rewrite (cli_image *im, const char *path, const gh_op *op, int quality,
             int upright)
{
  void *buf;
  cli_output out;
  int ok = 0;

  if (upright && cli_image_orientation (im) != 1)
    return rewrite_upright (im, path, op, quality);
  if (!(buf = malloc (im->row_bytes * CLI_STRIP_ROWS)))
    return fprintf (cli_err (), "out of memory\n"), -1;
  if (cli_image_rewind (im) || cli_output_open (&out, path, im, quality, 0))
    {
      free (buf);
      return -1;
    }
  for (size_t y = 0; y < im->height; y += CLI_STRIP_ROWS)
    {
      size_t rows = im->height - y < CLI_STRIP_ROWS ? im->height - y
                                                    : CLI_STRIP_ROWS;
      if (cli_image_read_rows (im, buf, rows)
          || apply_strip (op, im, buf, y, rows)
          || cli_output_write_rows (&out, buf, rows))
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
                   const char *path, int quality, int upright, int last,
                   double *decode)
{
  /* The held pixels themselves where nothing reads them after. */
  int own = !(last && im->whole);
  unsigned char *buf = own ? cli_pixels_alloc (im->row_bytes * im->height)
                           : im->whole;
  gh_error err;
  gh_status st;
  double t;
  int rc;

  if (!buf)
    return fprintf (cli_err (), "out of memory\n"), -1;
  t = cli_now ();
  if (own
      && (cli_image_rewind (im) || cli_image_read_rows (im, buf, im->height)))
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
  if (st == GH_OK)
    rc = write_whole (im, buf, path, quality, upright);
  else
    rc = (fprintf (cli_err (), "%s\n", err.message), -1);
  if (own)
    free (buf);
  return rc;
}
