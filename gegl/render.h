/* SPDX-License-Identifier: GPL-3.0-or-later */
/* render.h — an operation rendered on GEGL buffers: what the operation
 * needs counted over the whole input (its histogram, or CLAHE's tile
 * histograms) on the engine's CPU backend, then the prepared gh_op applied
 * to the part of the result GEGL asks for; both passes in strips of rows,
 * so memory stays bounded whatever the input's size.
 *
 * A live filter keeps what it counted (GhGeglKeep) until GEGL says its
 * input changed, so a parameter that does not change the count (a
 * threshold's level, CLAHE's clip limit and mode, posterize's classes,
 * equalize's mode, the channel) only maps again:
 *
 *   keep = gh_gegl_keep_new ();
 *   get_invalidated_by_change:  gh_gegl_keep_input_changed (keep);
 *   get_required_for_output:    whole input only where
 *                               gh_gegl_keep_needs_input (keep, ...)
 *   process:  if (! gh_gegl_keep_render (keep, &request, &layer, threads,
 *                                        input, &whole, output, &result,
 *                                        level, &err))
 *               ... err.message; nothing was written to output
 *   finalize: gh_gegl_keep_free (keep);
 *
 * `whole` is the input's extent (the histogram's pixels), `result` the
 * part of it to write, in GEGL's full-size coordinates; positions (CLAHE's
 * tiles) count from whole's top-left corner.  At a mipmap level above 0 (a
 * zoomed-out canvas) the point operations map GEGL's scaled-down input
 * with the full-size count into the scaled-down output, as GEGL's own
 * point filters do; CLAHE, whose mapping depends on the full-size
 * position, renders full size and GEGL scales it down.  On a gray layout
 * every colour channel and the luminance are the gray level, so they read
 * it (value).  Where the layer's luminance is babl's (a colour layer in a
 * space other than sRGB: layer.luminance_from) a request on the luminance
 * works on the layer's luminance view (layer/layer_view.h), as the
 * plug-in's procedures do.
 *
 * A keep may be used from any thread, by several at once: a render
 * counts and prepares under its lock, one at a time, then maps its part
 * of the result outside it, as GEGL's threads ask for their parts;
 * gh_gegl_keep_input_changed takes no lock.  Each count made is told
 * at GLib's debug level in the log domain "gpu-histogram-gegl"
 * (G_MESSAGES_DEBUG=gpu-histogram-gegl shows them). */
#ifndef GH_GEGL_RENDER_H
#define GH_GEGL_RENDER_H

#include <gegl.h>

#include "format.h"
#include "gh_request.h"

/* The log domain of the counts' debug messages. */
#define GH_GEGL_LOG_DOMAIN "gpu-histogram-gegl"

typedef struct _GhGeglKeep GhGeglKeep;

GhGeglKeep *gh_gegl_keep_new (void);
void gh_gegl_keep_free (GhGeglKeep *keep);

/* The input changed: what was counted is counted again at the next
 * render.  Lock-free, from any thread, during a render too. */
void gh_gegl_keep_input_changed (GhGeglKeep *keep);

/* Whether the next render of `request` on `whole` of an input read as
 * `layer` counts, and so needs the whole input from GEGL: else the result's
 * own pixels are all it reads. */
gboolean gh_gegl_keep_needs_input (GhGeglKeep *keep,
                                   const gh_request *request,
                                   const gh_layer *layer,
                                   const GeglRectangle *whole);

/* `result` at mipmap `level` (0: full size): counts what the keep lacks,
 * prepares the op (kept until the request or the count changes) and
 * applies it.  A count made from an input GEGL was not asked whole for
 * (the input changed between the two) serves this render only. */
gboolean gh_gegl_keep_render (GhGeglKeep *keep, const gh_request *request,
                              const gh_layer *layer, int threads,
                              GeglBuffer *input, const GeglRectangle *whole,
                              GeglBuffer *output, const GeglRectangle *result,
                              gint level, gh_error *error);

/* One render at full size that keeps nothing, with the reference
 * histogram an operation that needs one (GH_NEEDS_REFERENCE: match) is
 * prepared with; NULL for none. */
gboolean gh_gegl_render_reference (const gh_request *request,
                                   const gh_layer *layer, int threads,
                                   GeglBuffer *input,
                                   const GeglRectangle *whole,
                                   const gh_histogram *reference,
                                   GeglBuffer *output,
                                   const GeglRectangle *result,
                                   gh_error *error);

/* The histogram of `whole` of `buffer` read as `layer` (its bins; its
 * luminance babl's where layer.luminance_from), as the plug-in counts a
 * drawable: what match takes as its reference.  `hist` is
 * gh_histogram_init'ed by the caller, who clears it. */
gboolean gh_gegl_histogram (const gh_layer *layer, int threads,
                            GeglBuffer *buffer, const GeglRectangle *whole,
                            gh_histogram *hist, gh_error *error);

#endif
