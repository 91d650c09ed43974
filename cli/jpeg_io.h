/* SPDX-License-Identifier: GPL-3.0-or-later */
/* jpeg_io.h — the CLI's JPEGs straight through libjpeg, behind image.h,
 * where the build has libjpeg (GH_HAVE_JPEG): the common case of a folder
 * of photos without GEGL's loading into tiles, format conversions and
 * start-up.  The bytes are those GEGL's jpg-load and jpg-save give the CLI
 * (the same decoding, float IDCT; the same encoding: baseline, optimised
 * Huffman tables, 1x1 sampling, the JFIF header and babl's sRGB profile):
 * tests/cli_formats_jpeg.py compares the two paths.
 *
 * Read here: 8-bit gray and colour (YCbCr or RGB) JPEGs without an ICC
 * profile, decoded whole when opened (the engine reads an image twice:
 * count, then apply), into a buffer each worker thread keeps for its
 * next file.  Any other JPEG (a profile, CMYK, ...) is left to GEGL.
 * Written here: a JPEG of 8-bit sRGB gray or RGB rows (such a JPEG's, or
 * a netpbm file's), encoded a strip at a time into a file that appears
 * whole or not at all (io/whole.h), the input's metadata written into it
 * before it does (metadata.h).
 *
 * A JPEG whose headers or data are damaged (a truncated file) is refused
 * with the reason; GEGL's loader would exit the process on the first and
 * fill the missing part of the second with gray.  Each call says what
 * went wrong on cli_err () (streams.h).
 */
#ifndef CLI_JPEG_IO_H
#define CLI_JPEG_IO_H

#include "image.h"

/* Fills `im` (its jpeg member) from `path`, a JPEG by its extension: 0;
 * 1 when the file is GEGL's (one that cannot be opened, a profile, not
 * 8-bit gray or colour; nothing said); -1 when it is damaged (said). */
int cli_jpeg_open (const char *path, cli_image *im);
/* The size from the file's header: 0, or -1 (quiet). */
int cli_jpeg_size (const char *path, size_t *width, size_t *height);
/* The next `rows` rows of `im`, from im->next_row. */
void cli_jpeg_read_rows (cli_image *im, void *buf, size_t rows);
/* Where they are held. */
const unsigned char *cli_jpeg_rows (const cli_image *im);
void cli_jpeg_close (cli_jpeg_image *jpeg);
/* Frees the decoding buffer this thread keeps for its next file. */
void cli_jpeg_thread_done (void);

/* Whether `im`'s rows can be written here (8-bit sRGB gray or RGB). */
int cli_jpeg_writes (const cli_image *im);
/* out->path's file like `im`; `quality` 1..100, 0 for GEGL's default. */
int cli_jpeg_output_open (cli_output *out, const cli_image *im, int quality);
/* The next `rows` rows: 0, or -1 (said). */
int cli_jpeg_output_write_rows (cli_output *out, const void *buf,
                                size_t rows);
/* Puts the file in place when `ok`, else removes it; 0 when in place. */
int cli_jpeg_output_close (cli_output *out, int ok);

#endif
