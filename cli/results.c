/* results.c — what the CLI writes (results.h). */
#include "results.h"

#include "count.h"
#include "whole.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void
cli_print_stats (const gh_histogram *h, int lo, int hi)
{
  printf ("channel,count,pixels,percentile,min,max,mean,median,std_dev,otsu\n");
  for (int c = 0; c < GH_NUM_CHANNELS; c++)
    {
      gh_stats s;
      if (!(h->channels & (1u << c))
          || gh_stats_compute (h, (gh_channel) c, lo, hi, &s) != GH_OK)
        continue;
      printf ("%s,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g\n",
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
    fprintf (stderr, "cannot write %s: %s\n", path, strerror (errsv));
  return errsv ? -1 : 0;
}

/* Puts the file in place when `ok`, else removes it; 0 when in place. */
static int
close_whole (io_whole_file *out, int ok)
{
  int errsv = io_whole_close (out, ok);

  if (ok && errsv)
    fprintf (stderr, "cannot write %s: %s\n", out->path, strerror (errsv));
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
cli_rewrite (pnm_image *im, const char *path, const gh_op *op)
{
  size_t row = im->width * (size_t) im->depth;
  uint8_t *buf = malloc (row * CLI_STRIP_ROWS);
  io_whole_file out;
  int ok = 0;

  if (!buf)
    return fprintf (stderr, "out of memory\n"), -1;
  if (open_whole (&out, path))
    {
      free (buf);
      return -1;
    }
  if (pnm_rewind (im) || pnm_write_header (out.file, im))
    {
      fprintf (stderr, "cannot write %s\n", path);
      goto done;
    }
  for (size_t y = 0; y < im->height; y += CLI_STRIP_ROWS)
    {
      size_t rows = im->height - y < CLI_STRIP_ROWS ? im->height - y
                                                    : CLI_STRIP_ROWS;
      gh_error err;
      if (pnm_read_rows (im, buf, rows))
        {
          fprintf (stderr, "the image file is truncated\n");
          goto done;
        }
      if (gh_op_apply_rect (op, buf, 0, y, im->width, rows, row, &err)
          != GH_OK)
        {
          fprintf (stderr, "%s\n", err.message);
          goto done;
        }
      if (fwrite (buf, 1, row * rows, out.file) != row * rows)
        {
          fprintf (stderr, "cannot write %s: %s\n", path, strerror (errno));
          goto done;
        }
    }
  ok = 1;
done:
  free (buf);
  return close_whole (&out, ok);
}
