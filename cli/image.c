/* SPDX-License-Identifier: GPL-3.0-or-later */
/* image.c — the CLI's images (image.h): the format by the file's
 * extension, netpbm here, JPEG in jpeg_io.c where it can, the others in
 * gegl_io.c. */
#define _DEFAULT_SOURCE /* madvise */
#include "image.h"
#include "streams.h"

#ifdef GH_HAVE_GEGL
#include "gegl_io.h"
#endif
#ifdef GH_HAVE_JPEG
#include "jpeg_io.h"
#endif

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>

typedef enum { FORMAT_NETPBM, FORMAT_GEGL, FORMAT_UNKNOWN } file_format;

static const char *const netpbm_extensions[]
  = { ".pgm", ".ppm", ".pnm", ".pam" };
/* The formats read and written through GEGL: PNG, JPEG, TIFF, WebP.
 * GEGL's own lookup would fall back to a PNG saver or ImageMagick's
 * loader for any other name (a PNG written under a .xyz name). */
static const char *const gegl_extensions[]
  = { ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".webp" };
static const char gegl_list[] = ".png, .jpg, .jpeg, .tif, .tiff, .webp";

static int
listed (const char *ext, const char *const *list, size_t n)
{
  for (size_t k = 0; k < n; k++)
    if (!strcasecmp (ext, list[k]))
      return 1;
  return 0;
}

const char *
cli_extension (const char *path)
{
  const char *slash = strrchr (path, '/');

  return strrchr (slash ? slash + 1 : path, '.');
}

/* The format `path`'s extension names; netpbm when it has none. */
static file_format
format_of (const char *path)
{
  const char *dot = cli_extension (path);

  if (!dot || listed (dot, netpbm_extensions, 4))
    return FORMAT_NETPBM;
  return listed (dot, gegl_extensions, 6) ? FORMAT_GEGL : FORMAT_UNKNOWN;
}

#ifdef GH_HAVE_JPEG
/* Whether `path` names a JPEG. */
static int
is_jpeg (const char *path)
{
  static const char *const jpeg_extensions[] = { ".jpg", ".jpeg" };
  const char *dot = cli_extension (path);

  return dot && listed (dot, jpeg_extensions, 2);
}
#endif

#ifndef GH_HAVE_GEGL
/* The message of a build without GEGL for a file in one of its formats. */
static int
without_gegl (const char *path, const char *verb)
{
  fprintf (cli_err (), "%s: this build %s netpbm only: built without GEGL\n",
           path, verb);
  return -1;
}
#endif

/* A netpbm input's fields; 0 or -1 (said).  `other`: its extension names
 * no format (the file may still be netpbm, as any name was before). */
static int
open_netpbm (const char *path, cli_image *im, int other)
{
  char msg[256];

  if (pnm_open (path, &im->pnm, msg, sizeof msg))
    {
      if (other)
        fprintf (cli_err (), "%s: not a netpbm image, and its extension "
                             "is none of %s\n", path, gegl_list);
      else
        fprintf (cli_err (), "%s\n", msg);
      return -1;
    }
  im->width = im->pnm.width;
  im->height = im->pnm.height;
  im->layout = (gh_layout) im->pnm.depth;
  im->sample = GH_SAMPLE_U8;
  im->bins = 256;
  im->row_bytes = im->width * (size_t) im->pnm.depth;
  return 0;
}

int
cli_image_open (const char *path, cli_image *im)
{
  file_format f = format_of (path);

  memset (im, 0, sizeof *im);
  im->path = path;
  if (f != FORMAT_GEGL)
    return open_netpbm (path, im, f == FORMAT_UNKNOWN);
#ifdef GH_HAVE_JPEG
  if (is_jpeg (path))
    {
      int rc = cli_jpeg_open (path, im);
      if (rc <= 0)
        return rc;
    }
#endif
#ifdef GH_HAVE_GEGL
  return cli_gegl_open (path, im);
#else
  return without_gegl (path, "reads");
#endif
}

int
cli_image_size (const char *path, size_t *width, size_t *height)
{
  pnm_image pnm;
  char msg[256];

#ifdef GH_HAVE_JPEG
  if (is_jpeg (path))
    return cli_jpeg_size (path, width, height);
#endif
  if (format_of (path) == FORMAT_GEGL)
#ifdef GH_HAVE_GEGL
    return cli_gegl_size (path, width, height);
#else
    return -1;
#endif
  if (pnm_open (path, &pnm, msg, sizeof msg))
    return -1;
  *width = pnm.width;
  *height = pnm.height;
  pnm_close (&pnm);
  return 0;
}

int
cli_image_read_rows (cli_image *im, void *buf, size_t rows)
{
  int rc = im->next_row + rows > im->height;

  if (!rc && im->whole)
    memcpy (buf, im->whole + im->next_row * im->row_bytes,
            rows * im->row_bytes);
  else
#ifdef GH_HAVE_JPEG
  if (!rc && im->jpeg)
    cli_jpeg_read_rows (im, buf, rows);
  else
#endif
#ifdef GH_HAVE_GEGL
  if (!rc && im->gegl)
    cli_gegl_read_rows (im, buf, rows);
  else
#endif
  if (!rc)
    rc = pnm_read_rows (&im->pnm, buf, rows);
  if (rc)
    return fprintf (cli_err (), "%s: the image file is truncated\n", im->path),
           -1;
  im->next_row += rows;
  return 0;
}

const void *
cli_image_held_rows (cli_image *im, size_t rows)
{
  if (im->whole && im->next_row + rows <= im->height)
    {
      const void *p = im->whole + im->next_row * im->row_bytes;
      im->next_row += rows;
      return p;
    }
#ifdef GH_HAVE_JPEG
  if (im->jpeg && im->next_row + rows <= im->height)
    {
      const void *p = cli_jpeg_rows (im);
      im->next_row += rows;
      return p;
    }
#endif
  (void) im;
  (void) rows;
  return NULL;
}

int
cli_image_rewind (cli_image *im)
{
  im->next_row = 0;
  if (!im->whole && !im->gegl && !im->jpeg && pnm_rewind (&im->pnm))
    return fprintf (cli_err (), "%s: cannot read the image again\n", im->path),
           -1;
  return 0;
}

void *
cli_pixels_alloc (size_t bytes)
{
  size_t huge = (size_t) 2 << 20, rounded = (bytes + huge - 1) / huge * huge;
  void *p;

  /* Rounded up to whole 2 MB pages; a smaller image takes plain pages. */
  if (bytes < huge)
    return malloc (bytes);
  p = aligned_alloc (huge, rounded);
#ifdef MADV_HUGEPAGE
  if (p)
    madvise (p, rounded, MADV_HUGEPAGE);
#endif
  return p;
}

int
cli_image_read_whole (cli_image *im)
{
  unsigned char *whole;

  if (im->whole || im->jpeg)
    return cli_image_rewind (im);
  if (!(whole = cli_pixels_alloc (im->row_bytes * im->height)))
    return fprintf (cli_err (), "out of memory\n"), -1;
  if (cli_image_rewind (im) || cli_image_read_rows (im, whole, im->height))
    {
      free (whole);
      return -1;
    }
  im->whole = whole;
  im->next_row = 0;
  return 0;
}

/* `im`'s metadata, read once (a netpbm file has none). */
static cli_metadata *
image_metadata (cli_image *im)
{
#ifdef GH_HAVE_GEXIV2
  if (!im->metadata_read && (im->gegl || im->jpeg))
    im->metadata = cli_metadata_read (im->path);
#endif
  im->metadata_read = 1;
  return im->metadata;
}

int
cli_image_orientation (cli_image *im)
{
#ifdef GH_HAVE_GEXIV2
  return cli_metadata_orientation (image_metadata (im));
#else
  (void) im;
  return 1;
#endif
}

void
cli_image_close (cli_image *im)
{
#ifdef GH_HAVE_GEGL
  cli_gegl_close (im->gegl);
#endif
#ifdef GH_HAVE_JPEG
  cli_jpeg_close (im->jpeg);
#endif
#ifdef GH_HAVE_GEXIV2
  cli_metadata_free (im->metadata);
#endif
  free (im->whole);
  im->whole = NULL;
  im->gegl = NULL;
  im->jpeg = NULL;
  im->metadata = NULL;
  im->metadata_read = 0;
  pnm_close (&im->pnm);
}

void
cli_image_thread_done (void)
{
#ifdef GH_HAVE_JPEG
  cli_jpeg_thread_done ();
#endif
}

/* The netpbm header for `im`: its own, or one made for a file of another
 * format (P5, P6, or PAM with alpha). */
static void
netpbm_header (const cli_image *im, pnm_image *h)
{
  static const char *const tupltypes[] = { "", "GRAYSCALE", "GRAYSCALE_ALPHA",
                                           "RGB", "RGB_ALPHA" };

  if (!im->gegl && !im->jpeg)
    {
      *h = im->pnm;
      return;
    }
  memset (h, 0, sizeof *h);
  h->width = im->width;
  h->height = im->height;
  h->depth = (int) im->layout;
  h->kind = h->depth == 1 ? 5 : h->depth == 3 ? 6 : 7;
  snprintf (h->tupltype, sizeof h->tupltype, "%s", tupltypes[h->depth]);
}

int
cli_output_open (cli_output *out, const char *path, cli_image *im_in,
                 int quality, int upright)
{
  file_format f = format_of (path);
  /* What is written: `im_in` as stored, or turned upright (by a quarter
   * for orientations 5..8). */
  cli_image turned = *im_in, *im = &turned;
  pnm_image header;
  int errsv;

  memset (out, 0, sizeof *out);
  out->path = path;
  out->metadata = image_metadata (im_in);
  out->upright = upright;
  if (upright && cli_image_orientation (im_in) >= 5)
    {
      turned.width = im_in->height;
      turned.height = im_in->width;
      turned.row_bytes = im_in->row_bytes / im_in->width * turned.width;
    }
  out->row_bytes = im->row_bytes;
  if (f == FORMAT_UNKNOWN)
    return fprintf (cli_err (), "cannot write %s: its extension is none of "
                            ".pgm, .ppm, .pnm, .pam, %s\n", path, gegl_list),
           -1;
#ifdef GH_HAVE_JPEG
  if (is_jpeg (path) && cli_jpeg_writes (im))
    return cli_jpeg_output_open (out, im, quality);
#endif
  if (f == FORMAT_GEGL)
#ifdef GH_HAVE_GEGL
    return cli_gegl_output_open (out, im, quality);
#else
    return (void) quality, without_gegl (path, "writes");
#endif
  if (im->sample != GH_SAMPLE_U8)
    return fprintf (cli_err (), "cannot write %s: netpbm is written at 8 "
                                "bits; write this image as PNG or TIFF\n",
                    path),
           -1;
  if ((errsv = io_whole_open (&out->pnm, path)))
    return fprintf (cli_err (), "cannot write %s: %s\n", path,
                    strerror (errsv)),
           -1;
  netpbm_header (im, &header);
  if (pnm_write_header (out->pnm.file, &header))
    {
      fprintf (cli_err (), "cannot write %s\n", path);
      io_whole_close (&out->pnm, 0);
      return -1;
    }
  return 0;
}

int
cli_output_metadata (cli_output *out, const char *temp)
{
#ifdef GH_HAVE_GEXIV2
  return cli_metadata_write (out->metadata, temp, out->path, out->upright);
#else
  (void) out;
  (void) temp;
  return 0;
#endif
}

int
cli_output_write_rows (cli_output *out, const void *buf, size_t rows)
{
#ifdef GH_HAVE_JPEG
  if (out->jpeg)
    {
      if (cli_jpeg_output_write_rows (out, buf, rows))
        return -1;
    }
  else
#endif
#ifdef GH_HAVE_GEGL
  if (out->gegl)
    cli_gegl_output_write_rows (out, buf, rows);
  else
#endif
  if (fwrite (buf, 1, out->row_bytes * rows, out->pnm.file)
      != out->row_bytes * rows)
    return fprintf (cli_err (), "cannot write %s: %s\n", out->path,
                    strerror (errno)),
           -1;
  out->next_row += rows;
  return 0;
}

int
cli_output_close (cli_output *out, int ok)
{
  int errsv;

#ifdef GH_HAVE_JPEG
  if (out->jpeg)
    return cli_jpeg_output_close (out, ok);
#endif
#ifdef GH_HAVE_GEGL
  if (out->gegl)
    return cli_gegl_output_close (out, ok);
#endif
  errsv = io_whole_close (&out->pnm, ok);
  if (ok && errsv)
    fprintf (cli_err (), "cannot write %s: %s\n", out->path,
             strerror (errsv));
  return errsv ? -1 : 0;
}
