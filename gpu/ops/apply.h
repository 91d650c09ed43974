/* SPDX-License-Identifier: GPL-3.0-or-later */
/* apply.h — the strip loops behind gh_op_apply, internal to the engine:
 * the checks a strip gets, 8-bit tables, and posterizing (binarizing)
 * with either luminance rule. */
#ifndef GH_APPLY_H
#define GH_APPLY_H

#include "gpu_histogram.h"

/* A strip gets the same checks as a piece of an image. */
gh_status gh_strip_check (gh_layout layout, gh_sample sample,
                          const void *pixels, size_t width, size_t height,
                          size_t stride, gh_error *error);

/* Each colour sample (gray, or R, G and B) of an 8-bit strip through
 * tables[k] (256 entries each, k = sample index; gray uses tables[0]);
 * alpha is kept. */
gh_status gh_apply_tables (gh_layout layout, void *pixels, size_t width,
                           size_t height, size_t stride,
                           const uint16_t *const tables[3], gh_error *error);

/* Posterize: every colour sample of a pixel becomes its class's level,
 * the class being how many of the n ascending `thresholds` the pixel's
 * bin in `channel` (U8: its level; F32: among `bins`) under `luminance`
 * is above; class i of n + 1 is level i / n of white (255, rounded to the
 * nearest level, or 1.0 for F32).  One threshold binarizes.  Alpha kept.
 * Channel, bins and thresholds as gh_op_posterize checked them. */
gh_status gh_posterize_strip (gh_layout layout, gh_sample sample,
                              gh_luminance luminance, void *pixels,
                              size_t width, size_t height, size_t stride,
                              gh_channel channel, int n,
                              const int *thresholds, int bins,
                              gh_error *error);

#endif
