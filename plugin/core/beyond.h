/* SPDX-License-Identifier: GPL-3.0-or-later */
/* beyond.h — what GIMP has no tool for: CLAHE, histogram matching and
 * multi-level Otsu on one drawable, for both hosts.
 *
 * The same rules as operations.h: the part of the drawable inside the
 * selection's bounds is read in strips and, for the operations that
 * change pixels, written back as one undo step (the selection blends the
 * result in); nothing changes when a call fails.  Their arguments are
 * the vocabulary's, checked against its ranges by core_action_apply
 * (actions.h), which calls them; what only the drawable can refuse (a
 * channel it lacks, a reference without pixels) they refuse themselves.
 *
 *   if (! core_clahe (host, engine, &target, 2.0, 8, 8,
 *                     GH_EQUALIZE_LUMINANCE, &progress, &error)) ...
 *   gint levels[GH_MULTI_OTSU_MAX_CLASSES - 1], n;
 *   core_multi_otsu (host, engine, &target, GH_CHANNEL_LUMINANCE, 3, TRUE,
 *                    NULL, levels, &n, &progress, &error);
 */
#ifndef GH_CORE_BEYOND_H
#define GH_CORE_BEYOND_H

#include "region.h"

/* CLAHE over the selection's bounding box as one image (its tile grid
 * spans the box): OpenCV's createCLAHE (clip_limit, (tiles_x, tiles_y)).
 * mode: GH_EQUALIZE_CHANNELS or GH_EQUALIZE_LUMINANCE. */
gboolean core_clahe (const CoreHost *host, gh_engine *engine,
                     const CoreTarget *target, gdouble clip_limit, gint tiles_x,
                     gint tiles_y, gint mode, const CoreProgress *progress,
                     GError **error);

/* CLAHE's first pass alone, for the dialog's preview: `op` (gh_op_clear
 * it) prepared over `region` (not empty), to apply with gh_op_apply_rect
 * at any rectangle's place in the region (arguments checked before). */
gboolean core_clahe_prepare (gh_engine *engine, const CoreRegion *region,
                             gdouble clip_limit, gint tiles_x, gint tiles_y,
                             gint mode, gh_op *op,
                             const CoreProgress *progress, GError **error);

/* Matches the selection's histogram to `reference`'s (any drawable of any
 * open image; its histogram is that of its own image's selection).  A
 * reference that does not exist or has no pixels there (weight 0) is a
 * calling error.  `hist`: the drawable's histogram when the caller has it
 * (the dialog), else NULL. */
gboolean core_match (const CoreHost *host, gh_engine *engine,
                     const CoreTarget *target, gpointer reference, gint mode,
                     const gh_histogram *hist, const CoreProgress *progress,
                     GError **error);

/* The classes - 1 multi-level Otsu thresholds of `channel` (one the
 * drawable has) as levels 0..255 into levels[] (GH_MULTI_OTSU_MAX_CLASSES - 1
 * entries), their number in *n; with `apply`, the region posterized by
 * them.  `hist`: the drawable's histogram when the caller has it (the
 * batch), else NULL. */
gboolean core_multi_otsu (const CoreHost *host, gh_engine *engine,
                          const CoreTarget *target, gint channel, gint classes,
                          gint apply, const gh_histogram *hist, gint *levels,
                          gint *n, const CoreProgress *progress,
                          GError **error);

/* Posterizes the drawable at `n` ascending bins of `hist`, its histogram
 * (the dialog's multi-level Otsu thresholds over its range, exactly the
 * bins its markers show), by `channel`: what the dialog applies, as
 * core_binarize_bin for one threshold. */
gboolean core_posterize_bins (const CoreHost *host, const CoreTarget *target,
                              gint channel, gint n, const gint *bins,
                              const gh_histogram *hist,
                              const CoreProgress *progress, GError **error);

/* What an interactive run says of the thresholds found (g_free it):
 * "Multi-level Otsu on luminance: thresholds 85, 170". */
gchar *core_multi_otsu_text (gint channel, const gint *levels, gint n);

#endif
