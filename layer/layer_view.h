/* SPDX-License-Identifier: GPL-3.0-or-later */
/* layer_view.h — a layer's luminance view, where its luminance is babl's
 * (gh_layer.luminance_from, layer_format.h): the engine gets a gray image
 * of the pixels' luminances (and alpha), and its result goes back into
 * the pixels: painted into R, G and B (binarize, posterize on the
 * luminance: GH_LAYER_VIEW_PAINT) or each colour moved to the result's
 * luminance keeping the hue, in the space's own linear light (equalize,
 * CLAHE, match in luminance mode: GH_LAYER_VIEW_MOVE).  The plug-in's
 * region (plugin/core/view.c) and the GEGL module (gegl/render.c) run it
 * a strip at a time; the host reads the pixels, this does the rest.
 *
 *   gh_layer_view v;
 *   if (gh_layer_view_init (&v, &layer, GH_LAYER_VIEW_MOVE, strip_pixels,
 *                           &err) != GH_OK) ... err.message
 *   ... read a strip of n pixels as layer.luminance_from into v.read
 *   gh_layer_view_piece (&v, width, height, piece, piece_stride);
 *   ... the engine's histogram of the pieces (layout v.layout), or
 *       gh_op_apply_rect on the piece ...
 *   gh_layer_view_move (&v, width, height, piece, piece_stride, pixels);
 *   gh_layer_view_clear (&v);
 */
#ifndef GH_LAYER_VIEW_H
#define GH_LAYER_VIEW_H

#include <stddef.h>

#include "gh_request.h"
#include "layer_format.h"

typedef enum
{
  GH_LAYER_VIEW_NONE = 0, /* no view: the pixels go to the engine */
  GH_LAYER_VIEW_PAINT,
  GH_LAYER_VIEW_MOVE
} gh_layer_view_kind;

typedef struct
{
  const gh_layer    *layer;
  gh_layer_view_kind kind;
  gh_layout          layout; /* of the pieces: GRAY, or GRAYA          */
  const Babl        *format; /* of the pieces: "Y(A)" of the layer's
                                sample type (its size per pixel)        */
  float             *read;   /* a strip as layer->luminance_from        */
  float             *y;      /* its luminances                          */
  float             *linear; /* MOVE: its colours in linear light       */
} gh_layer_view;

/* The view a request on `layer` goes through, the one rule of the
 * plug-in's region and the GEGL module: where the layer's luminance is
 * babl's (luminance_from) and the request works on the luminance
 * (gh_request_on_luminance), its luminance view: a channel's result
 * painted into the colour (PAINT; the request's channel becomes the
 * view's value) or a mode's colours moved to it (MOVE; the mode becomes
 * each channel, of the view's one).  Else NONE, the request as it was. */
gh_layer_view_kind gh_layer_view_of (const gh_layer *layer,
                                     gh_request *req);

/* For `layer` (its luminance_from set; it must outlive v), strips of up
 * to `pixels`.  GH_ERR_NOMEM, with its message, when memory is short. */
gh_status gh_layer_view_init (gh_layer_view *v, const gh_layer *layer,
                              gh_layer_view_kind kind, size_t pixels,
                              gh_error *error);
void gh_layer_view_clear (gh_layer_view *v);

/* The piece of the strip in v->read (width x height, packed): rows
 * `stride` apart, each pixel's luminance (8-bit: its bin, as GIMP bins
 * it) and alpha. */
void gh_layer_view_piece (gh_layer_view *v, int width, int height,
                          unsigned char *piece, size_t stride);

/* The engine's result in `piece` put back into `pixels` (packed rows of
 * the strip, as layer->source): PAINT makes each pixel's colour samples
 * the gray result; MOVE moves each colour read into v->read to the
 * result's luminance, hue kept. */
void gh_layer_view_paint (const gh_layer_view *v, int width, int height,
                          const unsigned char *piece, size_t piece_stride,
                          void *pixels);
void gh_layer_view_move (gh_layer_view *v, int width, int height,
                         const unsigned char *piece, size_t piece_stride,
                         void *pixels);

/* Channel `from` of `src` as channel `to` of `dst` (histograms of the
 * same bins and sample type): a view's value is the layer's luminance,
 * and back. */
void gh_layer_view_copy_channel (gh_histogram *dst, gh_channel to,
                                 const gh_histogram *src, gh_channel from);

/* A histogram of `channels` (0: every one) of a layer whose luminance is
 * babl's takes two passes, neither counting what the other gives: one
 * over the pixels, of the channels gh_layer_view_pixel_channels returns
 * (all but the luminance; 0: the luminance alone is wanted, so no such
 * pass), and one over the view (its value channel), which
 * gh_layer_view_take_luminance then makes `hist`'s luminance: into the
 * pixels' histogram, or, with no pass over the pixels, as its one
 * channel. */
unsigned gh_layer_view_pixel_channels (unsigned channels);
gh_status gh_layer_view_take_luminance (gh_histogram *hist,
                                        unsigned pixel_channels,
                                        const gh_histogram *view,
                                        gh_error *error);

#endif
