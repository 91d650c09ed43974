/* accum.h — the engine's exact accumulator, shared by every backend.
 *
 * Each backend counts pixels per bin (count) and, for pixels not fully
 * weighted, how much weight they lack (deficit).  The weighted sum of a bin
 * is then unit * count - deficit, exact in 64-bit integers: an opaque image
 * without a mask never touches the deficits, so it runs at counting speed.
 *
 * Colour channels (value, red, green, blue, luminance) are weighted by
 * alpha x mask, so their unit is (alpha ? 255 : 1) * (mask ? 255 : 1); the
 * alpha channel is weighted by the mask alone.
 */
#ifndef GH_ACCUM_H
#define GH_ACCUM_H

#include "gpu_histogram.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int bins;
  uint64_t *count;   /* GH_NUM_CHANNELS * bins */
  uint64_t *deficit; /* GH_NUM_CHANNELS * bins */
  double *weight;    /* F32 images: summed weights instead; else NULL */
} gh_accum;

/* Samples per pixel (bytes for U8) and which channels an image has. */
int gh_layout_bpp (gh_layout layout);
size_t gh_pixel_bytes (const gh_image *image);
size_t gh_sample_bytes (gh_sample sample);
int gh_layout_has_alpha (gh_layout layout);
int gh_layout_is_rgb (gh_layout layout);
unsigned gh_layout_channels (gh_layout layout);

/* Validates an image description; fills error on failure. */
gh_status gh_image_check (const gh_image *image, gh_error *error);
/* Validates a piece against its image (sizes, strides, overflow). */
gh_status gh_piece_check (const gh_image *image, const gh_piece *piece,
                          gh_error *error);

/* The part of a piece from column x, row y, `width` x `height` big. */
void gh_piece_sub (const gh_image *image, const gh_piece *piece, size_t x,
                   size_t y, size_t width, size_t height, gh_piece *part);

/* An accumulator for images like `image` (float weights for F32). */
gh_status gh_accum_init (gh_accum *acc, const gh_image *image);
/* True when acc already fits images like `image`. */
int gh_accum_fits (const gh_accum *acc, const gh_image *image);
void gh_accum_zero (gh_accum *acc);
void gh_accum_add (gh_accum *dst, const gh_accum *src);
void gh_accum_free (gh_accum *acc);
/* Turns counts and deficits into the weighted histogram of `image`. */
gh_status gh_accum_finish (const gh_accum *acc, const gh_image *image,
                           gh_histogram *out, gh_error *error);

/* Formats a one-line message into error (NULL-safe) and returns status. */
gh_status gh_fail (gh_error *error, gh_status status, const char *fmt, ...)
#ifdef __GNUC__
  __attribute__ ((format (printf, 3, 4)))
#endif
  ;

#ifdef __cplusplus
}
#endif

#endif
