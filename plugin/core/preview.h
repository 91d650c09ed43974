/* SPDX-License-Identifier: GPL-3.0-or-later */
/* preview.h — the dialog's preview of an operation on one drawable: what
 * OK does on any rectangle of it, at 1:1 pixel for pixel, or scaled to
 * the preview's size.
 *
 * The preview keeps between two calls what a rectangle cannot make on its
 * own: the CLAHE operation prepared over the whole region for the
 * parameters last previewed (CLAHE maps a pixel by the tiles around it),
 * and the drawable's pixels last scaled, which the next choice on the
 * same view reuses.
 *
 *   CorePreview *preview = core_preview_new (host, engine, &target, &hist);
 *   pixels = core_preview_pixels (preview, &req, x, y, w, h, out_w, out_h,
 *                                 &rowstride, &error);
 *   core_preview_free (preview);
 */
#ifndef GH_CORE_PREVIEW_H
#define GH_CORE_PREVIEW_H

#include "actions.h"

/* The 8-bit format of the target drawable's type in its own colour space,
 * what GIMP's drawable previews draw: "Y'(A) u8" or "R'G'B'(A) u8"; NULL
 * when it does not exist. */
const Babl *core_preview_format (const CoreHost *host,
                                 const CoreTarget *target);

/* The target (copied; its description, host.h, is the one the dialog's
 * call made, and with the engine and the histogram the dialog shows must
 * outlive the preview): its regions, for the format and CLAHE's pass, are
 * made from its description, so the preview asks GIMP to describe the
 * drawable only where the target was not described. */
typedef struct _CorePreview CorePreview;

CorePreview *core_preview_new (const CoreHost *host, gh_engine *engine,
                               const CoreTarget *target,
                               const gh_histogram *hist);
void core_preview_free (CorePreview *preview);

/* The preview of `req` on the drawable's rectangle (x, y, width,
 * height) shown at out_width x out_height, read back in
 * core_preview_format, rows *rowstride bytes apart (g_free them).
 *
 * At 1:1 (out_width x out_height the rectangle's size) the rectangle is
 * copied into a scratch layer of the same type and precision
 * (host->scratch_layer) and the request applied there by
 * core_apply_request, as OK applies it, with the dialog's histogram;
 * CLAHE's prepared operation is applied to the part inside the region at
 * its place in the region: OK's result there, byte for byte.
 *
 * Scaled (a zoomed-out view of the whole layer: any other size), the
 * rectangle's rows stream from GIMP a box at a time, each output pixel
 * the mean of its box of pixels (colours weighted by alpha) in the
 * drawable's own space and tone curve, so memory stays a few rows
 * whatever the layer's size.  A point operation (equalize, binarize,
 * match, posterize) is applied to those scaled pixels, read once per
 * view; CLAHE maps each box at its place first, so its preview is OK's
 * result scaled.  NULL with no error: nothing to apply. */
guchar *core_preview_pixels (CorePreview *preview, const CoreRequest *req,
                             gint x, gint y, gint width, gint height,
                             gint out_width, gint out_height,
                             gint *rowstride, GError **error);

#endif
