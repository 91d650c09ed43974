/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_pnm.c — io/pnm.c on any file: pnm_open, then its rows read a strip
 * at a time as the CLI does, rewound and read again (the same bytes), and
 * its header written back by pnm_write_header and opened again (the same
 * image). */
#include "fuzz_util.h"
#include "pnm.h"

/* The header `im` writes, opened again. */
static void
header_round_trip (const pnm_image *im)
{
  char *text = NULL, path[64];
  size_t len = 0;
  FILE *out = open_memstream (&text, &len);
  pnm_image again;
  char err[200];
  int fd;

  FUZZ_CHECK (out && pnm_write_header (out, im) == 0);
  fclose (out);
  fd = fuzz_file (text, len, path, sizeof path);
  FUZZ_CHECK (fd >= 0);
  if (pnm_open (path, &again, err, sizeof err))
    {
      fprintf (stderr, "the header written does not open: %s\n%s", err, text);
      abort ();
    }
  FUZZ_CHECK (again.kind == im->kind && again.width == im->width
              && again.height == im->height && again.depth == im->depth
              && !strcmp (again.tupltype, im->tupltype));
  pnm_close (&again);
  close (fd);
  free (text);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char path[64], err[200];
  pnm_image im;
  int fd = fuzz_file (data, size, path, sizeof path);

  if (fd < 0)
    return 0;
  if (pnm_open (path, &im, err, sizeof err) == 0)
    {
      size_t row = im.width * (size_t) im.depth;

      FUZZ_CHECK (im.kind >= 5 && im.kind <= 7 && im.depth >= 1
                  && im.depth <= 4 && im.width >= 1 && im.height >= 1
                  && im.width <= 1u << 30 && im.height <= 1u << 30);
      FUZZ_CHECK (im.kind == 7 || im.depth == (im.kind == 5 ? 1 : 3));
      header_round_trip (&im);
      /* A row longer than the file cannot be in it: not allocated. */
      if (row <= size)
        {
          uint8_t *strip = malloc (3 * row), *first = malloc (row);
          size_t done = 0;

          FUZZ_CHECK (strip && first);
          while (done < im.height)
            {
              size_t rows = im.height - done < 3 ? im.height - done : 3;
              if (pnm_read_rows (&im, strip, rows))
                break;
              if (!done)
                memcpy (first, strip, row);
              done += rows;
            }
          if (done)
            {
              FUZZ_CHECK (pnm_rewind (&im) == 0
                          && pnm_read_rows (&im, strip, 1) == 0
                          && !memcmp (strip, first, row));
            }
          free (strip);
          free (first);
        }
      pnm_close (&im);
    }
  else
    FUZZ_CHECK (err[0] && !im.file);
  close (fd);
  return 0;
}
