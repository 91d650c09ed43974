/* SPDX-License-Identifier: GPL-3.0-or-later */
/* colour.h — the colour model of the luminance modes (colour.c), internal
 * to the engine: a pixel's colour samples (R, G, B first) moved to a new
 * luminance keeping hue, the luminance being the one the histogram bins
 * under op->luminance.  Equalize, match (ops.c) and CLAHE (clahe*.c) use
 * it; gh_luminance_shift (gpu_histogram.h) is the model itself.
 *
 *   U8:  gh_op_move_luminance_u8 (op, p, table[level]);   -- 0..255
 *   F32: gh_op_move_luminance_f32 (op, p,
 *          map (gh_op_luminance_key_f32 (op, p)));        -- 0..1
 *
 * gh_op_luminance_key_f32 is the luminance as the histogram binned it
 * (the key the F32 mappings read). */
#ifndef GH_COLOUR_H
#define GH_COLOUR_H

#include "gpu_histogram.h"

void gh_op_move_luminance_u8 (const gh_op *op, uint8_t *p, double target);
float gh_op_luminance_key_f32 (const gh_op *op, const float *p);
void gh_op_move_luminance_f32 (const gh_op *op, float *p, double target);

#endif
