/* SPDX-License-Identifier: GPL-3.0-or-later */
/* images.h — the benchmark's inputs: RGBA8 images of the kinds the
 * targets name (uniform random, all-equal, 90% one value, a smooth
 * gradient, a tiled real photo), and a partial-alpha selection for the
 * weighted path. */
#ifndef BENCH_IMAGES_H
#define BENCH_IMAGES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  IMG_UNIFORM,
  IMG_ALL_EQUAL,
  IMG_NINETY,
  IMG_GRADIENT,
  IMG_PHOTO,
  IMG_KINDS
} image_kind;

extern const char *const image_kind_names[IMG_KINDS];

/* Fills width x height RGBA pixels (alpha 255).  IMG_PHOTO tiles the
 * netpbm file `photo`; returns -1 if it can't be read. */
int image_make (image_kind kind, size_t width, size_t height, uint8_t *rgba,
                const char *photo);

/* Makes the image's alpha partial and fills a feathered-looking mask. */
void image_make_weighted (size_t width, size_t height, uint8_t *rgba,
                          uint8_t *mask);

double now_seconds (void);

/* The median of n > 0 values (sorts them). */
double median (double *v, int n);

#ifdef __cplusplus
}
#endif

#endif
