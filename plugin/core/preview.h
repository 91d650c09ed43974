/* SPDX-License-Identifier: GPL-3.0-or-later */
/* preview.h — the dialog's preview of an operation on one drawable: what
 * OK does, pixel for pixel, on any rectangle of it.
 *
 * The preview keeps between two calls what a rectangle cannot make on its
 * own: the CLAHE operation prepared over the whole region for the
 * parameters last previewed (CLAHE maps a pixel by the tiles around it).
 *
 *   CorePreview *preview = core_preview_new (host, engine, &target, &hist);
 *   pixels = core_preview_pixels (preview, &req, x, y, w, h, &rowstride,
 *                                 &error);
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

/* The preview of `req` on the drawable's rectangle (x, y, width, height),
 * read back in core_preview_format, rows *rowstride bytes apart (g_free
 * them).  The rectangle is copied into a scratch layer of the same type
 * and precision (host->scratch_layer) and the request applied there by
 * core_apply_request, as OK applies it, with the dialog's histogram; CLAHE's
 * prepared operation is applied to the part inside the region at its
 * place in the region.  NULL with no error: nothing to apply. */
guchar *core_preview_pixels (CorePreview *preview, const CoreRequest *req,
                             gint x, gint y, gint width, gint height,
                             gint *rowstride, GError **error);

#endif
