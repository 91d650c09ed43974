/* SPDX-License-Identifier: GPL-3.0-or-later */
/* image.h — the CLI's images, whatever their file format: netpbm through
 * io/pnm.h, and where the build has GEGL (GH_HAVE_GEGL) PNG, JPEG, TIFF
 * and WebP through GEGL's loaders and savers (gegl_io.h), most JPEGs
 * through libjpeg itself where the build has it (jpeg_io.h).  An image is
 * read a strip of rows at a time in the engine's terms (layout, sample,
 * bins), and a result written a strip at a time into a file that appears
 * whole or not at all (io/whole.h), with the input's EXIF, XMP and IPTC
 * where the format holds them and the build has gexiv2 (metadata.h).
 *
 * 8-bit files are read as bytes (256 bins); files of more bits as floats
 * (0..1 in the file's own tone curve, 1024 bins), as the GIMP plug-ins
 * read layers above 8 bits, and written back at their bit depth.
 *
 *   cli_image im;
 *   if (cli_image_open (path, &im)) ...                   -- said on stderr
 *   cli_image_read_rows (&im, buf, rows);                 -- row_bytes each
 *   cli_image_rewind (&im);
 *   cli_output out;
 *   if (cli_output_open (&out, "eq.jpg", &im, quality, 0)) ...
 *   cli_output_write_rows (&out, buf, rows);
 *   cli_output_close (&out, ok);                          -- 0: in place
 *   cli_image_close (&im);
 *   cli_image_thread_done ();          -- a thread that opened images ends
 *
 * Each call says what went wrong on stderr and returns -1.
 */
#ifndef CLI_IMAGE_H
#define CLI_IMAGE_H

#include "gpu_histogram.h"
#include "metadata.h"
#include "pnm.h"
#include "whole.h"

typedef struct cli_gegl_image cli_gegl_image;
typedef struct cli_gegl_output cli_gegl_output;
typedef struct cli_jpeg_image cli_jpeg_image;
typedef struct cli_jpeg_output cli_jpeg_output;

typedef struct {
  const char *path; /* as opened, not copied: its messages name it */
  size_t width, height;
  gh_layout layout; /* its value is the samples per pixel */
  gh_sample sample; /* U8, or F32 above 8 bits */
  int bins;         /* 256, or 1024 above 8 bits */
  size_t row_bytes;
  size_t next_row;
  pnm_image pnm;         /* netpbm: open */
  cli_gegl_image *gegl;  /* the other formats */
  cli_jpeg_image *jpeg;  /* a JPEG read by libjpeg itself */
  cli_metadata *metadata; /* read with the first output: metadata.h */
  int metadata_read;
  unsigned char *whole;  /* cli_image_read_whole's pixels, or NULL */
} cli_image;

int cli_image_open (const char *path, cli_image *im);
/* The size from the file's header, without reading its pixels. */
int cli_image_size (const char *path, size_t *width, size_t *height);
int cli_image_read_rows (cli_image *im, void *buf, size_t rows);
/* The next `rows` rows where `im` holds them (a JPEG read by libjpeg),
 * moving on as cli_image_read_rows does; NULL where they must be read
 * (nothing moved). */
const void *cli_image_held_rows (cli_image *im, size_t rows);
int cli_image_rewind (cli_image *im);
/* Reads `im` whole into memory, once, where the format does not hold it
 * already (netpbm, read from the file again at every pass): the passes
 * after it (the statistics' count, CLAHE, each output) take their rows
 * from there through cli_image_held_rows and cli_image_read_rows, and
 * cli_image_rewind reads nothing again.  Memory: the decoded size. */
int cli_image_read_whole (cli_image *im);
/* A buffer of `bytes` for a whole image (free it with free ()): on
 * transparent huge pages where the kernel gives them on request, as a
 * whole image read into fresh 4 KB pages (8800 page faults for 12 MP
 * RGB) costs more than copying its 36 MB. */
void *cli_pixels_alloc (size_t bytes);
void cli_image_close (cli_image *im);
/* The orientation of `im`'s metadata, 1..8 (1: none; netpbm has none),
 * its metadata read if not yet. */
int cli_image_orientation (cli_image *im);
/* Frees what this thread kept for its next image. */
void cli_image_thread_done (void);
/* `path`'s extension, its dot included, or NULL. */
const char *cli_extension (const char *path);

typedef struct {
  const char *path; /* not copied */
  size_t next_row, row_bytes;
  io_whole_file pnm;        /* netpbm: open */
  cli_gegl_output *gegl;    /* the other formats */
  cli_jpeg_output *jpeg;    /* a JPEG written by libjpeg itself */
  cli_metadata *metadata;   /* the input's, not owned */
  int upright;              /* its pixels are turned by its orientation */
} cli_output;

/* A file like `im` (size, layout, bit depth, colour profile, metadata:
 * its metadata read if not yet), its format from the extension of
 * `path`: netpbm (.pgm, .ppm, .pnm, .pam or none; 8-bit only; no
 * metadata) or, with GEGL, .png, .jpg/.jpeg, .tif/.tiff, .webp.
 * `quality` 1..100 for JPEG and WebP, 0 for GEGL's default.  `upright`:
 * the rows written are `im`'s turned by cli_image_orientation (5..8: the
 * width and height swapped). */
int cli_output_open (cli_output *out, const char *path, cli_image *im,
                     int quality, int upright);
int cli_output_write_rows (cli_output *out, const void *buf, size_t rows);
/* Puts the file in place when `ok`, else removes it; 0 when in place. */
int cli_output_close (cli_output *out, int ok);
/* For the encoders: the input's metadata into `temp`, out's file written
 * under its temporary name, before it is put in place: 0, or -1 (said). */
int cli_output_metadata (cli_output *out, const char *temp);

#endif
