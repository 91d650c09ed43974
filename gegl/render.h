/* SPDX-License-Identifier: GPL-3.0-or-later */
/* render.h — one render of an operation on a GEGL buffer: what the
 * operation needs counted over the whole input (its histogram, or CLAHE's
 * tile histograms) on the engine's CPU backend, then the prepared gh_op
 * applied to the result rectangle; both passes in strips of rows, so
 * memory stays bounded whatever the input's size.
 *
 *   gh_error err;
 *   if (! gh_gegl_render (&request, &layer, threads, input, &whole,
 *                         output, &result, &err))
 *     ... err.message; nothing was written to output
 *
 * `whole` is the input's extent (the histogram's pixels), `result` the
 * part of it to write; positions (CLAHE's tiles) count from whole's
 * top-left corner.  On a gray layout every colour channel and the
 * luminance are the gray level, so they read it (value).  Where the
 * layer's luminance is babl's (a colour layer in a space other than sRGB:
 * layer.luminance_from) a request on the luminance works on the layer's
 * luminance view (layer/layer_view.h), as the plug-in's procedures do. */
#ifndef GH_GEGL_RENDER_H
#define GH_GEGL_RENDER_H

#include <gegl.h>

#include "format.h"
#include "gh_request.h"

gboolean gh_gegl_render (const gh_request *request, const gh_layer *layer,
                         int threads, GeglBuffer *input,
                         const GeglRectangle *whole, GeglBuffer *output,
                         const GeglRectangle *result, gh_error *error);

/* As gh_gegl_render, with the reference histogram an operation that
 * needs one (GH_NEEDS_REFERENCE: match) is prepared with; NULL for none. */
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
