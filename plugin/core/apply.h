/* SPDX-License-Identifier: GPL-3.0-or-later */
/* apply.h — one request of the vocabulary applied to one drawable: the
 * plug-in's one path from a request to the pixels, as the CLI's
 * (cli_run_operation) and the GEGL module's (gegl_render) are theirs.
 *
 * It makes the drawable's region and, by layer/'s rule
 * (gh_layer_view_of), its luminance view; gathers what the operation
 * needs (gh_request_needs: the drawable's histogram, a reference's, the
 * CLAHE pass); finds the thresholds where the operation has them
 * (gh_request_thresholds: binarize's, multi-Otsu's, which a compute-only
 * multi-Otsu stops at); prepares the engine's operation
 * (gh_request_prepare) and applies it over the region's strips as one
 * undo step.  One special case, named: binarize goes through GIMP's own
 * threshold where that gives the same pixels (threshold.h).  Dialog OK,
 * the preview, the batch and both hosts' runs apply through it.
 *
 *   CoreRequest req;
 *   core_request_defaults (&req, GH_REQ_CLAHE);
 *   gh_request_set (&req.request, GH_PARAM_CLIP_LIMIT, 3.0);
 *   gh_request_result res;
 *   if (! core_apply_request (host, engine, &target, &req, NULL, progress,
 *                             &res, &error)) ... error->message
 */
#ifndef GH_CORE_APPLY_H
#define GH_CORE_APPLY_H

#include "actions.h"

/* Checks `req` (its ranges, apply 0 or 1, bins given with their
 * histogram, a reference where needed: calling errors) and applies it to
 * the target's drawable; GH_REQ_NONE changes nothing.  `hist`: the
 * drawable's histogram when the caller has it (the dialog, the batch),
 * else NULL: counted here.  What only the drawable can refuse (a group,
 * locked or indexed pixels, a channel it lacks, too few levels for the
 * classes, a reference without pixels) is refused with its name; nothing
 * changes then.  Nothing changes either where the selection misses the
 * drawable, or match's drawable has no pixels.  `result` (may be NULL):
 * binarize's threshold, multi-Otsu's thresholds. */
gboolean core_apply_request (const CoreHost *host, gh_engine *engine,
                             const CoreTarget *target, const CoreRequest *req,
                             const gh_histogram *hist,
                             const CoreProgress *progress,
                             gh_request_result *result, GError **error);

/* CLAHE's pass and preparation alone, for the dialog's preview: `op`
 * (gh_op_clear it) prepared from `request` (checked; its view taken:
 * core_region_view) over `region` (not empty), to apply with
 * gh_op_apply_rect at any rectangle's place in the region. */
gboolean core_clahe_prepare (gh_engine *engine, const CoreRegion *region,
                             const gh_request *request, gh_op *op,
                             const CoreProgress *progress, GError **error);

#endif
