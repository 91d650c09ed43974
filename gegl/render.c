/* SPDX-License-Identifier: GPL-3.0-or-later */
/* render.c — an operation over a GEGL buffer in strips (see render.h). */
#include "render.h"

#include <string.h>

#include "layer_channel.h"
#include "layer_view.h"

/* Strips of about this many bytes, as the plug-in's (plugin/core/region.c):
 * few calls per image, memory bounded. */
#define STRIP_BYTES (4 << 20)

typedef struct
{
  const gh_layer *layer;
  gh_layer_view   view;       /* kind NONE: the pixels go to the engine  */
  gh_layout       layout;     /* what the engine gets: the layer's, or   */
  gsize           bpp;        /* the view's pieces                       */
  gint            rows;       /* per strip */
  guchar         *pixels;     /* one strip, as layer->source             */
  guchar         *piece;      /* a view's piece of it                    */
} Strips;

static gboolean
strips_init (Strips *s, const gh_layer *layer, gh_layer_view_kind kind,
             gint width, gh_error *error)
{
  gsize source_bpp = babl_format_get_bytes_per_pixel (layer->source);
  gsize most = source_bpp, row;

  memset (s, 0, sizeof *s);
  s->layer = layer;
  s->layout = layer->layout;
  s->bpp = source_bpp;
  /* A view's strip holds the pixels read for the luminance too. */
  if (kind != GH_LAYER_VIEW_NONE)
    most = MAX (most, (gsize) babl_format_get_bytes_per_pixel (
                                layer->luminance_from));
  row = (gsize) MAX (width, 1) * most;
  s->rows = (gint) MAX ((gsize) 1, STRIP_BYTES / row);
  s->pixels = g_try_malloc ((gsize) MAX (width, 1) * source_bpp * s->rows);
  if (! s->pixels)
    {
      g_snprintf (error->message, sizeof error->message,
                  "out of memory for a strip of %d rows", s->rows);
      return FALSE;
    }
  if (kind == GH_LAYER_VIEW_NONE)
    return TRUE;
  if (gh_layer_view_init (&s->view, layer, kind,
                          (gsize) MAX (width, 1) * s->rows, error) != GH_OK)
    return FALSE;
  s->layout = s->view.layout;
  s->bpp = babl_format_get_bytes_per_pixel (s->view.format);
  s->piece = g_try_malloc ((gsize) MAX (width, 1) * s->bpp * s->rows);
  if (! s->piece)
    g_snprintf (error->message, sizeof error->message,
                "out of memory for a strip of %d rows", s->rows);
  return s->piece != NULL;
}

static void
strips_clear (Strips *s)
{
  gh_layer_view_clear (&s->view);
  g_free (s->pixels);
  g_free (s->piece);
}

/* Rows [y, y + rows) of `rect`: the engine's strip (the pixels, or the
 * view's piece) and, where `with_pixels`, the pixels too; returns the
 * strip's rectangle. */
static GeglRectangle
strip_get (Strips *s, GeglBuffer *buffer, const GeglRectangle *rect, gint y,
           gboolean with_pixels)
{
  GeglRectangle r = { rect->x, y, rect->width,
                      MIN (s->rows, rect->y + rect->height - y) };

  if (s->view.kind == GH_LAYER_VIEW_NONE || with_pixels)
    gegl_buffer_get (buffer, &r, 1.0, s->layer->source, s->pixels,
                     GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  if (s->view.kind != GH_LAYER_VIEW_NONE)
    {
      gegl_buffer_get (buffer, &r, 1.0, s->layer->luminance_from,
                       s->view.read, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
      gh_layer_view_piece (&s->view, r.width, r.height, s->piece,
                           s->bpp * r.width);
    }
  return r;
}

/* The strip the engine reads and writes. */
static guchar *
engine_strip (const Strips *s)
{
  return s->view.kind != GH_LAYER_VIEW_NONE ? s->piece : s->pixels;
}

/* The first pass: the histogram (of `channels`, 0 all), or the CLAHE
 * tiles, of `whole`. */
static gboolean
count (const gh_request *request, unsigned channels, Strips *s,
       gh_engine *engine, GeglBuffer *input, const GeglRectangle *whole,
       gh_histogram *hist, gh_clahe **clahe, gh_error *error)
{
  const gh_layer *l = s->layer;
  unsigned        needs = gh_request_needs (request);
  gh_image        image = { s->layout, l->sample, l->bins, 0, l->luminance,
                            channels };
  gsize           stride = (gsize) whole->width * s->bpp;

  if (needs & GH_NEEDS_CLAHE_PASS)
    {
      gh_clahe_params p = { request->clip_limit, request->tiles_x,
                            request->tiles_y, request->mode };

      if (gh_clahe_begin (engine, &p, s->layout, l->sample, l->luminance,
                          l->bins, whole->width, whole->height, clahe, error)
          != GH_OK)
        return FALSE;
    }
  else if (! (needs & GH_NEEDS_HISTOGRAM)
           || (request->operation == GH_REQ_BINARIZE
               && request->threshold >= 0))
    return TRUE;
  else if (gh_engine_begin (engine, &image, error) != GH_OK)
    return FALSE;

  for (gint y = whole->y; y < whole->y + whole->height; y += s->rows)
    {
      GeglRectangle r = strip_get (s, input, whole, y, FALSE);
      gh_piece      piece = { engine_strip (s), r.width, r.height, stride,
                              NULL, 0 };
      gh_status     st = *clahe
                           ? gh_clahe_feed (*clahe, engine_strip (s),
                                            y - whole->y, r.height, stride,
                                            error)
                           : gh_engine_feed (engine, &piece, error);

      if (st != GH_OK)
        return FALSE;
    }
  return *clahe || gh_engine_finish (engine, hist, error) == GH_OK;
}

/* The second pass: `op` over `result`; a view's result put back into the
 * pixels. */
static gboolean
apply (const gh_op *op, Strips *s, GeglBuffer *input,
       const GeglRectangle *whole, GeglBuffer *output,
       const GeglRectangle *result, gh_error *error)
{
  gsize stride = (gsize) result->width * s->bpp;

  for (gint y = result->y; y < result->y + result->height; y += s->rows)
    {
      GeglRectangle r = strip_get (s, input, result, y, TRUE);

      if (gh_op_apply_rect (op, engine_strip (s), r.x - whole->x,
                            r.y - whole->y, r.width, r.height, stride, error)
          != GH_OK)
        return FALSE;
      if (s->view.kind == GH_LAYER_VIEW_PAINT)
        gh_layer_view_paint (&s->view, r.width, r.height, s->piece, stride,
                             s->pixels);
      else if (s->view.kind == GH_LAYER_VIEW_MOVE)
        gh_layer_view_move (&s->view, r.width, r.height, s->piece, stride,
                            s->pixels);
      gegl_buffer_set (output, &r, 0, s->layer->source, s->pixels,
                       GEGL_AUTO_ROWSTRIDE);
    }
  return TRUE;
}

/* The CPU backend, as many threads as GEGL's own (GIMP's budget): the
 * GPU is for when it is measured faster inside GIMP. */
static gh_status
engine_create (int threads, gh_engine **engine, gh_error *error)
{
  gh_options options;

  gh_options_init (&options);
  options.backend = GH_BACKEND_CPU;
  options.cpu_threads = threads;
  options.quiet = 1;
  return gh_engine_create (&options, engine, error);
}

gboolean
gh_gegl_render (const gh_request *request, const gh_layer *layer,
                int threads, GeglBuffer *input, const GeglRectangle *whole,
                GeglBuffer *output, const GeglRectangle *result,
                gh_error *error)
{
  return gh_gegl_render_reference (request, layer, threads, input, whole,
                                   NULL, output, result, error);
}

gboolean
gh_gegl_render_reference (const gh_request *request, const gh_layer *layer,
                          int threads, GeglBuffer *input,
                          const GeglRectangle *whole,
                          const gh_histogram *reference, GeglBuffer *output,
                          const GeglRectangle *result, gh_error *error)
{
  gh_engine          *engine = NULL;
  gh_histogram        hist;
  gh_clahe           *clahe = NULL;
  gh_op               op;
  gh_request          req = *request;
  gh_layer_view_kind  kind = gh_layer_view_of (layer, &req);
  Strips              s;
  gboolean            ok = FALSE;

  memset (error, 0, sizeof *error);
  memset (&op, 0, sizeof op);
  gh_histogram_init (&hist);
  if (whole->width <= 0 || whole->height <= 0 || result->width <= 0
      || result->height <= 0)
    return TRUE;
  if (! strips_init (&s, layer, kind, MAX (whole->width, result->width),
                     error))
    {
      strips_clear (&s);
      return FALSE;
    }
  req.channel = gh_layer_channel (s.layout, req.channel);
  if (engine_create (threads, &engine, error) == GH_OK
      && count (&req, gh_request_channels (&req, s.layout), &s, engine,
                input, whole, &hist, &clahe, error))
    {
      gh_request_inputs in = { s.layout, layer->sample, layer->luminance,
                               layer->bins, &hist, reference, clahe };

      ok = gh_request_prepare (&req, &in, &op, NULL, error) == GH_OK
           && apply (&op, &s, input, whole, output, result, error);
      gh_op_clear (&op);
    }
  if (clahe)
    gh_clahe_destroy (clahe);
  gh_histogram_clear (&hist);
  gh_engine_destroy (engine);
  strips_clear (&s);
  return ok;
}

/* The histogram of `channels` (0: all) of `whole` through `kind`'s view
 * (NONE: the pixels). */
static gboolean
histogram_of (const gh_layer *layer, gh_layer_view_kind kind,
              unsigned channels, gh_engine *engine, GeglBuffer *buffer,
              const GeglRectangle *whole, gh_histogram *hist,
              gh_error *error)
{
  gh_request equalize; /* needs the histogram, nothing else */
  gh_clahe  *clahe = NULL;
  Strips     s;
  gboolean   ok;

  gh_request_defaults (&equalize, GH_REQ_EQUALIZE);
  ok = strips_init (&s, layer, kind, whole->width, error)
       && count (&equalize, channels, &s, engine, buffer, whole, hist,
                 &clahe, error);
  strips_clear (&s);
  return ok;
}

gboolean
gh_gegl_histogram (const gh_layer *layer, int threads, GeglBuffer *buffer,
                   const GeglRectangle *whole, gh_histogram *hist,
                   gh_error *error)
{
  gh_engine   *engine = NULL;
  gh_histogram luminance;
  gboolean     ok;

  memset (error, 0, sizeof *error);
  if (whole->width <= 0 || whole->height <= 0)
    {
      g_snprintf (error->message, sizeof error->message, "it is empty");
      return FALSE;
    }
  gh_histogram_init (&luminance);
  ok = engine_create (threads, &engine, error) == GH_OK;
  /* Where the luminance is babl's, the luminance view's value is the
   * luminance, as in the plug-in's core_region_histogram: the pixels'
   * pass counts the other channels. */
  if (ok && layer->luminance_from)
    ok = histogram_of (layer, GH_LAYER_VIEW_NONE,
                       gh_layer_view_pixel_channels (0), engine, buffer,
                       whole, hist, error)
         && histogram_of (layer, GH_LAYER_VIEW_PAINT,
                          1u << GH_CHANNEL_VALUE, engine, buffer, whole,
                          &luminance, error)
         && gh_layer_view_take_luminance (hist,
                                          gh_layer_view_pixel_channels (0),
                                          &luminance, error)
              == GH_OK;
  else if (ok)
    ok = histogram_of (layer, GH_LAYER_VIEW_NONE, 0, engine, buffer, whole,
                       hist, error);
  gh_histogram_clear (&luminance);
  gh_engine_destroy (engine);
  return ok;
}
