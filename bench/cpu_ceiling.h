/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpu_ceiling.h — how fast can one CPU core count GIMP's six histograms?
 *
 * The CPU target compares the engine (six channels: value, R, G, B, alpha,
 * luminance) with OpenCV's calcHist (four).  Scalar histogramming is bound
 * by counter read-modify-writes, so these are the schemes that could make
 * six channels cost no more than four, each timed on one thread:
 *
 *   four      R, G, B, A into four table copies: calcHist's work in one
 *             pass, the rate to beat.
 *   folded    the fewest updates an exact scheme needs: alpha of an opaque
 *             block counted once, value folded into the R, G or B update
 *             (a second table per channel meaning "this channel is the
 *             maximum"), so four updates a pixel.  Only the updates are
 *             timed: their indices are worked out beforehand for the
 *             image's first 4096 pixels and replayed from L1 across its
 *             size, so this is an upper bound.
 *   pairs     two channels per update: (R,G), (B,luminance), (value,A) in
 *             65536-entry tables (L2), three updates a pixel.
 *
 *   double gbs = ceiling_gbs (CEILING_FOUR, rgba, pixels, 3);
 *
 * The best GB/s of RGBA8 over `repeat` runs, as the CPU backend's;
 * `pixels` at least CEILING_MIN_PIXELS.  The
 * benchmark prints them beside the engine (gpu-histogram-bench
 * --cpu-ceiling); ceiling_checksum keeps the counting from being optimised
 * away.
 */
#ifndef BENCH_CPU_CEILING_H
#define BENCH_CPU_CEILING_H

#include <stddef.h>
#include <stdint.h>

#define CEILING_MIN_PIXELS 4096

typedef enum {
  CEILING_FOUR,
  CEILING_FOLDED,
  CEILING_PAIRS,
  CEILING_SCHEMES
} ceiling_scheme;

extern const char *const ceiling_scheme_names[CEILING_SCHEMES];

double ceiling_gbs (ceiling_scheme scheme, const uint8_t *rgba, size_t pixels,
                    int repeat);

unsigned long long ceiling_checksum (void);

#endif
