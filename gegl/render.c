/* render.c — an operation over a GEGL buffer in strips (see render.h). */
#include "render.h"

#include <string.h>

/* Strips of about this many bytes, as the plug-in's (plugin/core/region.c):
 * few calls per image, memory bounded. */
#define STRIP_BYTES (4 << 20)

typedef struct
{
  const GhGeglFormat *format;
  gsize               bpp;
  gint                rows;   /* per strip */
  guchar             *pixels; /* one strip */
} Strips;

static gboolean
strips_init (Strips *s, const GhGeglFormat *format, gint width,
             gh_error *error)
{
  gsize row;

  s->format = format;
  s->bpp = babl_format_get_bytes_per_pixel (format->format);
  row = (gsize) MAX (width, 1) * s->bpp;
  s->rows = (gint) MAX ((gsize) 1, STRIP_BYTES / row);
  s->pixels = g_try_malloc (row * s->rows);
  if (! s->pixels)
    g_snprintf (error->message, sizeof error->message,
                "out of memory for a strip of %d rows", s->rows);
  return s->pixels != NULL;
}

/* Rows [y, y + rows) of `rect` into the strip; returns the strip's
 * rectangle. */
static GeglRectangle
strip_get (const Strips *s, GeglBuffer *buffer, const GeglRectangle *rect,
           gint y)
{
  GeglRectangle r = { rect->x, y, rect->width,
                      MIN (s->rows, rect->y + rect->height - y) };

  gegl_buffer_get (buffer, &r, 1.0, s->format->format, s->pixels,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  return r;
}

/* The request's channel as the layout has it (see render.h). */
static void
layout_request (const gh_request *request, gh_layout layout, gh_request *out)
{
  unsigned have = gh_layout_channel_mask (layout);

  *out = *request;
  if (! (have & (1u << out->channel)) && out->channel != GH_CHANNEL_ALPHA)
    out->channel = GH_CHANNEL_VALUE;
}

/* The first pass: the histogram, or the CLAHE tiles, of `whole`. */
static gboolean
count (const gh_request *request, const Strips *s, gh_engine *engine,
       GeglBuffer *input, const GeglRectangle *whole, gh_histogram *hist,
       gh_clahe **clahe, gh_error *error)
{
  const GhGeglFormat *f = s->format;
  unsigned            needs = gh_request_needs (request);
  gh_image            image = { f->layout, f->sample, f->bins, 0,
                                f->luminance };
  gsize               stride = (gsize) whole->width * s->bpp;

  if (needs & GH_NEEDS_CLAHE_PASS)
    {
      gh_clahe_params p = { request->clip_limit, request->tiles_x,
                            request->tiles_y, request->mode };

      if (gh_clahe_begin (engine, &p, f->layout, f->sample, f->luminance,
                          f->bins, whole->width, whole->height, clahe, error)
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
      GeglRectangle r = strip_get (s, input, whole, y);
      gh_piece      piece = { s->pixels, r.width, r.height, stride, NULL, 0 };
      gh_status     st = *clahe
                           ? gh_clahe_feed (*clahe, s->pixels, y - whole->y,
                                            r.height, stride, error)
                           : gh_engine_feed (engine, &piece, error);

      if (st != GH_OK)
        return FALSE;
    }
  return *clahe || gh_engine_finish (engine, hist, error) == GH_OK;
}

/* The second pass: `op` over `result`. */
static gboolean
apply (const gh_op *op, const Strips *s, GeglBuffer *input,
       const GeglRectangle *whole, GeglBuffer *output,
       const GeglRectangle *result, gh_error *error)
{
  gsize stride = (gsize) result->width * s->bpp;

  for (gint y = result->y; y < result->y + result->height; y += s->rows)
    {
      GeglRectangle r = strip_get (s, input, result, y);

      if (gh_op_apply_rect (op, s->pixels, r.x - whole->x, r.y - whole->y,
                            r.width, r.height, stride, error) != GH_OK)
        return FALSE;
      gegl_buffer_set (output, &r, 0, s->format->format, s->pixels,
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
gh_gegl_render (const gh_request *request, const GhGeglFormat *format,
                int threads, GeglBuffer *input, const GeglRectangle *whole,
                GeglBuffer *output, const GeglRectangle *result,
                gh_error *error)
{
  return gh_gegl_render_reference (request, format, threads, input, whole,
                                   NULL, output, result, error);
}

gboolean
gh_gegl_render_reference (const gh_request *request,
                          const GhGeglFormat *format, int threads,
                          GeglBuffer *input, const GeglRectangle *whole,
                          const gh_histogram *reference, GeglBuffer *output,
                          const GeglRectangle *result, gh_error *error)
{
  gh_engine         *engine = NULL;
  gh_histogram       hist;
  gh_clahe          *clahe = NULL;
  gh_op              op;
  gh_request         req;
  gh_request_inputs  in = { format->layout, format->sample, format->luminance,
                            format->bins, &hist, reference, NULL };
  Strips             s;
  gboolean           ok = FALSE;

  memset (error, 0, sizeof *error);
  memset (&op, 0, sizeof op);
  gh_histogram_init (&hist);
  layout_request (request, format->layout, &req);
  if (whole->width <= 0 || whole->height <= 0 || result->width <= 0
      || result->height <= 0)
    return TRUE;
  if (! strips_init (&s, format, MAX (whole->width, result->width), error))
    return FALSE;
  if (engine_create (threads, &engine, error) == GH_OK
      && count (&req, &s, engine, input, whole, &hist, &clahe, error))
    {
      in.clahe = clahe;
      ok = gh_request_prepare (&req, &in, &op, NULL, error) == GH_OK
           && apply (&op, &s, input, whole, output, result, error);
      gh_op_clear (&op);
    }
  if (clahe)
    gh_clahe_destroy (clahe);
  gh_histogram_clear (&hist);
  gh_engine_destroy (engine);
  g_free (s.pixels);
  return ok;
}

gboolean
gh_gegl_histogram (const GhGeglFormat *format, int threads,
                   GeglBuffer *buffer, const GeglRectangle *whole,
                   gh_histogram *hist, gh_error *error)
{
  gh_engine *engine = NULL;
  gh_clahe  *clahe = NULL;
  gh_request equalize; /* needs the histogram, nothing else */
  Strips     s;
  gboolean   ok;

  memset (error, 0, sizeof *error);
  gh_request_defaults (&equalize, GH_REQ_EQUALIZE);
  if (whole->width <= 0 || whole->height <= 0)
    {
      g_snprintf (error->message, sizeof error->message, "it is empty");
      return FALSE;
    }
  if (! strips_init (&s, format, whole->width, error))
    return FALSE;
  ok = engine_create (threads, &engine, error) == GH_OK
       && count (&equalize, &s, engine, buffer, whole, hist, &clahe, error);
  gh_engine_destroy (engine);
  g_free (s.pixels);
  return ok;
}
