/* SPDX-License-Identifier: GPL-3.0-or-later */
/* reference.h — the plain reference the tests hold every backend to.
 *
 * One pixel at a time, straight from GIMP's definitions: luminance
 * through GIMP 2.10's own float arithmetic (or GIMP 3's, as babl computes
 * it, under GH_LUMINANCE_LINEAR), weights multiplied out per pixel
 * (no 32-bit tables, no flushing); only the channels the image asks for
 * (gh_image.channels), the others zero.  Slow and obvious on purpose.
 *
 *   gh_reference_begin (&image, &h);            -- h: gh_histogram_init'ed
 *   gh_reference_add (&image, &piece, &h);      -- any number of pieces
 */
#ifndef GH_REFERENCE_H
#define GH_REFERENCE_H

#include "gpu_histogram.h"

#ifdef __cplusplus
extern "C" {
#endif

gh_status gh_reference_begin (const gh_image *image, gh_histogram *h);
void gh_reference_add (const gh_image *image, const gh_piece *piece,
                       gh_histogram *h);

#ifdef __cplusplus
}
#endif

#endif
