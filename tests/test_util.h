/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_util.h — what the engine's C tests share: a tiny check harness that
 * ends with the "N passed, N failed" line, a seeded random generator, and
 * random images (odd sizes, padded strides, masks, partial alpha, several
 * value distributions) fed to an engine in random pieces. */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include "gpu_histogram.h"

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

extern int test_passed, test_failed;

#define CHECK(cond, ...)                                                     \
  do                                                                         \
    {                                                                        \
      if (cond)                                                              \
        test_passed++;                                                       \
      else                                                                   \
        {                                                                    \
          test_failed++;                                                     \
          printf ("FAIL %s:%d: ", __FILE__, __LINE__);                       \
          printf (__VA_ARGS__);                                              \
          printf ("\n");                                                     \
        }                                                                    \
    }                                                                        \
  while (0)

/* Prints the closing line; returns the exit status. */
int test_summary (void);

uint64_t test_rand (void);
void test_seed (uint64_t seed);
size_t test_below (size_t n); /* 0 .. n-1 */

typedef enum {
  DIST_UNIFORM,
  DIST_ALL_EQUAL,
  DIST_TWO_VALUES,
  DIST_SKEWED,   /* 90% one value */
  DIST_GRADIENT,
  DIST_COUNT
} test_dist;

typedef struct {
  gh_image image;
  size_t width, height, stride, mask_stride;
  uint8_t *pixels; /* height * stride bytes, padding filled with junk */
  uint8_t *mask;   /* height * mask_stride bytes, or NULL */
} test_picture;

/* A picture of the given shape; alpha (if any) and the mask are random
 * with many 0 and 255 values; alpha_opaque forces alpha to 255. */
void test_picture_make (test_picture *p, gh_layout layout, int has_mask,
                        size_t width, size_t height, test_dist dist,
                        int alpha_opaque);
void test_picture_random (test_picture *p, size_t max_side);
/* Float pictures: levels in 0..1 with some outside it and some NaN colour
 * samples (GIMP clamps; NaN bins at 0), float alpha and mask; `bins` per
 * channel. */
void test_picture_make_f32 (test_picture *p, gh_layout layout, int has_mask,
                            size_t width, size_t height, int bins);
void test_picture_free (test_picture *p);

/* The reference histogram of the whole picture. */
void test_reference (const test_picture *p, gh_histogram *h);

/* Feeds the picture to the engine in random tiles (rows and columns
 * split at random) and finishes.  Returns the status of the first failing
 * call. */
gh_status test_engine_run (gh_engine *e, const test_picture *p,
                           gh_histogram *out, gh_error *err);

/* Runs the picture through the engine and checks the result against the
 * reference (two CHECKs). */
void test_check_picture (gh_engine *e, const test_picture *p,
                         const char *what);

/* Counts a float picture, then an 8-bit one, with `e` (checking both):
 * the float one must be named as counted on the CPU ("cpu: "), the 8-bit
 * one by the name `e` had before them. */
void test_check_backend_names (gh_engine *e, int has_mask, size_t width,
                               size_t height);

/* 1 when two histograms are identical (bins, channels, units, sums; float
 * weights to 1e-12 relative, since summation order differs); prints the
 * first difference otherwise. */
int test_same_histogram (const gh_histogram *a, const gh_histogram *b);

#ifdef __cplusplus
}
#endif

#endif
