/* SPDX-License-Identifier: GPL-3.0-or-later */
/* colour.h — the colour model of the luminance modes (colour.c), internal
 * to the engine: a pixel's colour samples (R, G, B first) moved to a new
 * luminance keeping hue, the luminance being the one the histogram bins
 * under op->luminance.  Equalize, match (ops.c) and CLAHE (clahe*.c) use
 * it; gh_luminance_shift (gpu_histogram.h) is the model itself.
 *
 *   U8, a span of n <= GH_COLOUR_SPAN RGB or RGBA pixels at a time:
 *        gh_colour_span span;
 *        gh_op_luminance_keys_u8 (op, p, n, &span, key);
 *        target[i] = map (key[i]);                        -- 0..255
 *        gh_op_move_luminance_u8 (op, &span, p, n, target);
 *   F32, a pixel at a time:
 *        gh_op_move_luminance_f32 (op, p,
 *          map (gh_op_luminance_key_f32 (op, p)));        -- 0..1
 *
 * The keys are the luminance as the histogram binned it (the levels the
 * mappings read). */
#ifndef GH_COLOUR_H
#define GH_COLOUR_H

#include "gpu_histogram.h"

/* The samples of a span as the keys read them, for the move: as floats,
 * exact either way (GIMP 3's rule: the decode table's; GIMP 2.10's: the
 * bytes), and under GIMP 3's rule the float luminance the keys bin. */
#define GH_COLOUR_SPAN 256
typedef struct {
  float c[3][GH_COLOUR_SPAN];
  float y[GH_COLOUR_SPAN];
} gh_colour_span;

void gh_op_luminance_keys_u8 (const gh_op *op, const uint8_t *p, int n,
                              gh_colour_span *span, uint8_t *key);
void gh_op_move_luminance_u8 (const gh_op *op, gh_colour_span *span,
                              uint8_t *p, int n, const uint8_t *target);
float gh_op_luminance_key_f32 (const gh_op *op, const float *p);
void gh_op_move_luminance_f32 (const gh_op *op, float *p, double target);

#endif
