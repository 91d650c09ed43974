/* SPDX-License-Identifier: GPL-3.0-or-later */
/* layout.h — what an image description says, internal to the engine:
 * the bytes of a pixel, the channels a layout has, and the checks every
 * image, piece and strip gets before any backend or operation reads it.
 *
 *   if (gh_image_check (&image, &err) != GH_OK
 *       || gh_piece_check (&image, &piece, &err) != GH_OK) ...
 *   int bpp = gh_layout_bpp (image.layout);   -- samples a pixel
 */
#ifndef GH_LAYOUT_H
#define GH_LAYOUT_H

#include "gpu_histogram.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Samples per pixel (bytes for U8) and which channels an image has. */
int gh_layout_bpp (gh_layout layout);
size_t gh_pixel_bytes (const gh_image *image);
size_t gh_sample_bytes (gh_sample sample);
int gh_layout_has_alpha (gh_layout layout);
int gh_layout_is_rgb (gh_layout layout);
unsigned gh_layout_channels (gh_layout layout);
/* The channels a call on `image` gets: its layout's, those it wants. */
unsigned gh_image_channels (const gh_image *image);

/* Validates an image description; fills error on failure. */
gh_status gh_image_check (const gh_image *image, gh_error *error);
/* Validates a piece against its image (sizes, strides, overflow). */
gh_status gh_piece_check (const gh_image *image, const gh_piece *piece,
                          gh_error *error);

/* The part of a piece from column x, row y, `width` x `height` big. */
void gh_piece_sub (const gh_image *image, const gh_piece *piece, size_t x,
                   size_t y, size_t width, size_t height, gh_piece *part);

#ifdef __cplusplus
}
#endif

#endif
