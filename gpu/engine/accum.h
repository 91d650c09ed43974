/* SPDX-License-Identifier: GPL-3.0-or-later */
/* accum.h — the engine's exact accumulator, shared by every backend.
 *
 * Every backend sums each pixel's weight into its bins, in integer units:
 * colour channels (value, red, green, blue, luminance) weigh alpha x mask,
 * so their unit is 1/((alpha ? 255 : 1) * (mask ? 255 : 1)) of a pixel;
 * the alpha channel weighs the mask alone.  A weight costs the same as a
 * count (an add of a register instead of a constant), so weighted images
 * take no slower path; without alpha and mask the sums are plain counts.
 * Sums are 64-bit: exact for any image that fits in memory.  Float images
 * sum double weights instead, as GIMP does.
 */
#ifndef GH_ACCUM_H
#define GH_ACCUM_H

#include "gpu_histogram.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int bins;
  uint64_t *sum;  /* GH_NUM_CHANNELS * bins, in the units above */
  double *weight; /* F32 images: summed weights instead; else NULL */
} gh_accum;

/* An accumulator for images like `image` (float weights for F32). */
gh_status gh_accum_init (gh_accum *acc, const gh_image *image);
/* True when acc already fits images like `image`. */
int gh_accum_fits (const gh_accum *acc, const gh_image *image);
void gh_accum_zero (gh_accum *acc);
void gh_accum_add (gh_accum *dst, const gh_accum *src);
void gh_accum_free (gh_accum *acc);
/* The weight of a fully weighted pixel in channel c's units. */
uint64_t gh_full_weight (const gh_image *image, int channel);
/* Stores the sums as the weighted histogram of `image`. */
gh_status gh_accum_finish (const gh_accum *acc, const gh_image *image,
                           gh_histogram *out, gh_error *error);

#ifdef __cplusplus
}
#endif

#endif
