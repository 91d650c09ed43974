/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gegl_io.h — the CLI's images in the formats GEGL loads and saves (PNG,
 * JPEG, TIFF, WebP), behind image.h, which calls these where the build
 * has GEGL (GH_HAVE_GEGL), for JPEGs those that jpeg_io.h leaves.  A file
 * is loaded whole into a GeglBuffer by its loader and read from it a
 * strip of rows at a time; a result is set into a GeglBuffer of the
 * input's stored format (bit depth and colour space, hence the ICC
 * profile where the saver writes one) a strip at a time and saved by the
 * saver of its extension under a temporary name beside the target, the
 * input's metadata written into it (metadata.h), then renamed over it
 * (io/whole.h).  GEGL is started on the first call.
 *
 * A JPEG whose headers libjpeg cannot read is refused by jpeg_io.c
 * before GEGL's loader sees it (where built with libjpeg: GH_HAVE_JPEG):
 * that loader exits the process on it.  Each call says what went wrong
 * on stderr (streams.h) and returns -1; GEGL may be used from several
 * threads.
 */
#ifndef CLI_GEGL_IO_H
#define CLI_GEGL_IO_H

#include "image.h"

/* `path` ends in one of image.c's extensions for GEGL.  Fills `im` (its
 * gegl member) from the file. */
int cli_gegl_open (const char *path, cli_image *im);
/* The size from the file's header; quiet (the file is said to be bad
 * when its turn comes). */
int cli_gegl_size (const char *path, size_t *width, size_t *height);
/* The next `rows` rows of `im`, from im->next_row. */
void cli_gegl_read_rows (cli_image *im, void *buf, size_t rows);
void cli_gegl_close (cli_gegl_image *gegl);

/* out->path's file like `im` (its gegl member NULL for a netpbm input:
 * 8-bit sRGB). */
int cli_gegl_output_open (cli_output *out, const cli_image *im, int quality);
/* The next `rows` rows, from out->next_row. */
void cli_gegl_output_write_rows (cli_output *out, const void *buf,
                                 size_t rows);
int cli_gegl_output_close (cli_output *out, int ok);

#endif
