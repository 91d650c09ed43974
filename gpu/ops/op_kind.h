/* SPDX-License-Identifier: GPL-3.0-or-later */
/* op_kind.h — what the gh_op kinds share, internal to the engine: the
 * kinds and the checks every preparation makes (op_kind.c).  ops.c,
 * clahe.c and match.c prepare their kinds through it:
 *
 *   if ((st = gh_op_check_kind (layout, sample, luminance, error)) != GH_OK)
 *     return st;
 *   ...
 *   op->kind = GH_OP_LUMINANCE; */
#ifndef GH_OP_KIND_H
#define GH_OP_KIND_H

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

#endif
