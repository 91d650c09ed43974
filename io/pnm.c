/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pnm.c — 8-bit netpbm reading and writing (pnm.h). */
#include "pnm.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static int
fail (char *err, size_t errlen, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (err, errlen, fmt, ap);
  va_end (ap);
  return -1;
}

/* Next whitespace-separated token, skipping # comments. */
static int
token (FILE *f, char *buf, size_t len)
{
  int c;
  size_t n = 0;
  do
    {
      c = fgetc (f);
      if (c == '#')
        while (c != '\n' && c != EOF)
          c = fgetc (f);
    }
  while (c != EOF && isspace (c));
  while (c != EOF && !isspace (c) && n + 1 < len)
    {
      buf[n++] = (char) c;
      c = fgetc (f);
    }
  buf[n] = 0;
  return n > 0 ? 0 : -1; /* the one whitespace after a token is consumed */
}

static int
number (FILE *f, size_t *out)
{
  char buf[32], *end;
  unsigned long long v;
  if (token (f, buf, sizeof buf) || !isdigit ((unsigned char) buf[0]))
    return -1;
  v = strtoull (buf, &end, 10);
  if (*end || v == 0 || v > (1ull << 31))
    return -1;
  *out = (size_t) v;
  return 0;
}

static int
read_pam_header (pnm_image *im, char *err, size_t errlen)
{
  char key[32], val[32];
  size_t maxval = 0, depth = 0;
  for (;;)
    {
      if (token (im->file, key, sizeof key))
        return fail (err, errlen, "truncated PAM header");
      if (!strcmp (key, "ENDHDR"))
        break;
      if (token (im->file, val, sizeof val))
        return fail (err, errlen, "truncated PAM header");
      if (!strcmp (key, "WIDTH"))
        im->width = strtoull (val, NULL, 10);
      else if (!strcmp (key, "HEIGHT"))
        im->height = strtoull (val, NULL, 10);
      else if (!strcmp (key, "DEPTH"))
        depth = strtoull (val, NULL, 10);
      else if (!strcmp (key, "MAXVAL"))
        maxval = strtoull (val, NULL, 10);
      else if (!strcmp (key, "TUPLTYPE"))
        snprintf (im->tupltype, sizeof im->tupltype, "%s", val);
    }
  if (maxval != 255)
    return fail (err, errlen, "only 8-bit images (MAXVAL 255) are supported");
  if (depth < 1 || depth > 4)
    return fail (err, errlen, "PAM depth %zu: 1 to 4 samples are supported",
                 depth);
  im->depth = (int) depth;
  return 0;
}

int
pnm_open (const char *path, pnm_image *im, char *err, size_t errlen)
{
  char magic[4];
  size_t maxval;

  memset (im, 0, sizeof *im);
  im->file = fopen (path, "rb");
  if (!im->file)
    return fail (err, errlen, "cannot open %s", path);
  if (token (im->file, magic, sizeof magic) || magic[0] != 'P'
      || (magic[1] != '5' && magic[1] != '6' && magic[1] != '7') || magic[2])
    {
      pnm_close (im);
      return fail (err, errlen, "%s is not a P5, P6 or P7 netpbm image", path);
    }
  im->kind = magic[1] - '0';
  if (im->kind == 7)
    {
      if (read_pam_header (im, err, errlen))
        {
          pnm_close (im);
          return -1;
        }
    }
  else
    {
      if (number (im->file, &im->width) || number (im->file, &im->height)
          || number (im->file, &maxval) || maxval != 255)
        {
          pnm_close (im);
          return fail (err, errlen, "%s: bad header or not 8-bit", path);
        }
      im->depth = im->kind == 5 ? 1 : 3;
    }
  if (im->width == 0 || im->height == 0 || im->width > (1u << 30)
      || im->height > (1u << 30))
    {
      pnm_close (im);
      return fail (err, errlen, "%s: bad size %zux%zu", path, im->width,
                   im->height);
    }
  im->data_start = ftell (im->file);
  return 0;
}

int
pnm_read_rows (pnm_image *im, uint8_t *buf, size_t rows)
{
  size_t n = rows * im->width * (size_t) im->depth;
  return fread (buf, 1, n, im->file) == n ? 0 : -1;
}

int
pnm_rewind (pnm_image *im)
{
  return fseek (im->file, im->data_start, SEEK_SET);
}

int
pnm_write_header (FILE *out, const pnm_image *im)
{
  /* TUPLTYPE is optional, and one with no value would not read back:
   * written only where the image has one. */
  if (im->kind == 7)
    return fprintf (out,
                    "P7\nWIDTH %zu\nHEIGHT %zu\nDEPTH %d\nMAXVAL 255\n"
                    "%s%s%sENDHDR\n",
                    im->width, im->height, im->depth,
                    im->tupltype[0] ? "TUPLTYPE " : "", im->tupltype,
                    im->tupltype[0] ? "\n" : "")
                   < 0
             ? -1
             : 0;
  return fprintf (out, "P%d\n%zu %zu\n255\n", im->kind, im->width, im->height)
                 < 0
           ? -1
           : 0;
}

void
pnm_close (pnm_image *im)
{
  if (im->file)
    fclose (im->file);
  im->file = NULL;
}
