/* ops.h — what the gh_op kinds share, internal to the engine: the kinds,
 * the checks every preparation makes, and the luminance-only colour model
 * (ops.c) that equalize, match and CLAHE all use to move a pixel to a new
 * luminance.  clahe.c and match.c prepare their kinds through it. */
#ifndef GH_OPS_H
#define GH_OPS_H

#include "gpu_histogram.h"

enum {
  GH_OP_NONE = 0,  /* cleared, or never prepared */
  GH_OP_CHANNELS,  /* each colour sample through its table (U8) or map (F32) */
  GH_OP_LUMINANCE, /* the luminance through table 0 / map 0, colour moved */
  GH_OP_POSTERIZE, /* classes by thresholds on one channel */
  GH_OP_CLAHE      /* per-position tile mappings (clahe.c) */
};

/* Layout, sample type and luminance rule are known values. */
gh_status gh_op_check_kind (gh_layout layout, gh_sample sample,
                            gh_luminance luminance, gh_error *error);
/* The mode of the operation `what` ("equalize", "match", "CLAHE") is a
 * gh_equalize_mode. */
gh_status gh_op_check_mode (const char *what, gh_equalize_mode mode,
                            gh_error *error);
/* A histogram of `bins` bins suits the sample type: 256 for U8, 2..65536
 * for F32.  `which` names it in the message ("", "source ", ...). */
gh_status gh_op_check_bins (const char *which, int bins, gh_sample sample,
                            gh_error *error);

/* The colour model: a pixel's colour samples (R, G, B first) moved to a
 * new luminance keeping hue, the luminance being the one the histogram
 * bins under op->luminance.  U8: `target` a level 0..255.  F32: `target`
 * in 0..1; gh_op_luminance_key_f32 is the luminance as the histogram
 * binned it (the key the F32 mappings read). */
void gh_op_move_luminance_u8 (const gh_op *op, uint8_t *p, double target);
float gh_op_luminance_key_f32 (const gh_op *op, const float *p);
void gh_op_move_luminance_f32 (const gh_op *op, float *p, double target);

/* F32: the mapping of colour channel k (curves[k], then the inverse of
 * targets[k] when the op matches a reference). */
float gh_op_map_f32 (const gh_op *op, int k, float v);

/* clahe.c: applying the tile mappings to a rectangle, and freeing them. */
gh_status gh_clahe_apply (const gh_op *op, void *pixels, size_t x0,
                          size_t y0, size_t width, size_t height,
                          size_t stride, gh_error *error);
void gh_clahe_map_free (struct gh_clahe_map *map);

#endif
