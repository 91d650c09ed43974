/* SPDX-License-Identifier: GPL-3.0-or-later */
/* render.c — an operation over GEGL buffers in strips, its counts kept
 * until the input changes (see render.h). */
#include "render.h"

#include <pthread.h>
#include <string.h>

#include "layer_channel.h"
#include "layer_view.h"

/* A count's strips of about this many bytes, as the plug-in's
 * (plugin/core/region_parts.h): few calls per image, memory bounded. */
#define STRIP_BYTES (4 << 20)
/* A render's smaller: a strip stays in the cache from its read through
 * its mapping to its write, and comes from the heap, not fresh pages
 * (the 2048 x 1024 parts of GIMP's canvas: a threshold 3.1 ns a pixel,
 * 4.2 in 4 MB strips; GIMP's thumbnail asks for parts too small to
 * differ). */
#define MAP_STRIP_BYTES (256 << 10)

typedef struct
{
  const gh_layer *layer;
  gh_layer_view   view;       /* kind NONE: the pixels go to the engine  */
  gh_layout       layout;     /* what the engine gets: the layer's, or   */
  gsize           bpp;        /* the view's pieces                       */
  gsize           pixel_bpp;  /* of the pixels, as layer->source         */
  gint            rows;       /* per strip */
  guchar         *pixels;     /* one strip, as layer->source             */
  guchar         *piece;      /* a view's piece of it                    */
} Strips;

/* The op prepared for a request, held by each render that maps with it
 * (outside the keep's lock, so that GEGL's threads map at once) and by
 * the keep until the request or the count changes. */
typedef struct
{
  gint       refs;    /* atomic */
  gh_request request; /* as asked */
  gh_op      op;
} Prepared;

struct _GhGeglKeep
{
  pthread_mutex_t    lock;       /* pthread's: ThreadSanitizer sees it   */
  gint               changes;    /* atomic: the input's changes so far   */
  gint               asked_at;   /* changes when GEGL was asked for the
                                    whole input                          */
  gint               counted_at; /* changes the counts below are of      */
  gh_layer           layer;      /* ... the input read so                */
  GeglRectangle      whole;      /* ... of this extent                   */
  gh_engine         *engine;     /* the first render's: CLAHE's tiles and
                                    ops use its threads (a pool runs one
                                    call at a time)                      */
  gboolean           have_pixels, have_view;
  gh_histogram       pixels;     /* every channel of the pixels          */
  gh_histogram       view;       /* the luminance view's value           */
  gh_clahe          *clahe[2];   /* tile histograms by CLAHE's mode (a
                                    gray layer's: [0] for both)          */
  gint               tiles_x, tiles_y;
  Prepared          *prepared;   /* NULL: none */
};

/* Strips of about `bytes`, of up to `width` x `height` pixels. */
static gboolean
strips_init (Strips *s, const gh_layer *layer, gh_layer_view_kind kind,
             gint width, gint height, gsize bytes, gh_error *error)
{
  gsize most, row;

  memset (s, 0, sizeof *s);
  s->layer = layer;
  s->layout = layer->layout;
  s->pixel_bpp = babl_format_get_bytes_per_pixel (layer->source);
  s->bpp = s->pixel_bpp;
  most = s->pixel_bpp;
  /* A view's strip holds the pixels read for the luminance too. */
  if (kind != GH_LAYER_VIEW_NONE)
    most = MAX (most, (gsize) babl_format_get_bytes_per_pixel (
                                layer->luminance_from));
  width = MAX (width, 1);
  row = (gsize) width * most;
  s->rows = (gint) CLAMP (bytes / row, 1, (gsize) MAX (height, 1));
  s->pixels = g_try_malloc ((gsize) width * s->pixel_bpp * s->rows);
  if (! s->pixels)
    {
      g_snprintf (error->message, sizeof error->message,
                  "out of memory for a strip of %d rows", s->rows);
      return FALSE;
    }
  if (kind == GH_LAYER_VIEW_NONE)
    return TRUE;
  if (gh_layer_view_init (&s->view, layer, kind, (gsize) width * s->rows,
                          error) != GH_OK)
    return FALSE;
  s->layout = s->view.layout;
  s->bpp = babl_format_get_bytes_per_pixel (s->view.format);
  s->piece = g_try_malloc ((gsize) width * s->bpp * s->rows);
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

/* Rows [y, y + rows) of `rect`, read at `scale` (rect in its
 * coordinates): the engine's strip (the pixels, or the view's piece) and,
 * where `with_pixels`, the pixels too; returns the strip's rectangle. */
static GeglRectangle
strip_get (Strips *s, GeglBuffer *buffer, const GeglRectangle *rect, gint y,
           gdouble scale, gboolean with_pixels)
{
  GeglRectangle r = { rect->x, y, rect->width,
                      MIN (s->rows, rect->y + rect->height - y) };

  if (s->view.kind == GH_LAYER_VIEW_NONE || with_pixels)
    gegl_buffer_get (buffer, &r, scale, s->layer->source, s->pixels,
                     GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  if (s->view.kind != GH_LAYER_VIEW_NONE)
    {
      gegl_buffer_get (buffer, &r, scale, s->layer->luminance_from,
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

/* What one pass over `whole` feeds: the engine's histogram (begun) and
 * CLAHE's tile histograms, each of the pixels or of the view's pieces. */
typedef struct
{
  gboolean  histogram, histogram_piece;
  gh_clahe *clahe[2];
  gboolean  clahe_piece[2];
} Feeds;

static gboolean
feed (Strips *s, gh_engine *engine, const Feeds *f, GeglBuffer *input,
      const GeglRectangle *whole, gh_error *error)
{
  gboolean pixels = (f->histogram && ! f->histogram_piece)
                    || (f->clahe[0] && ! f->clahe_piece[0])
                    || (f->clahe[1] && ! f->clahe_piece[1]);
  gsize    pixel_stride = (gsize) whole->width * s->pixel_bpp;
  gsize    piece_stride = (gsize) whole->width * s->bpp;

  for (gint y = whole->y; y < whole->y + whole->height; y += s->rows)
    {
      GeglRectangle r = strip_get (s, input, whole, y, 1.0, pixels);
      gh_piece      piece = { f->histogram_piece ? s->piece : s->pixels,
                              r.width, r.height,
                              f->histogram_piece ? piece_stride
                                                 : pixel_stride,
                              NULL, 0 };

      if (f->histogram && gh_engine_feed (engine, &piece, error) != GH_OK)
        return FALSE;
      for (int m = 0; m < 2; m++)
        if (f->clahe[m]
            && gh_clahe_feed (f->clahe[m],
                              f->clahe_piece[m] ? s->piece : s->pixels,
                              y - whole->y, r.height,
                              f->clahe_piece[m] ? piece_stride
                                                : pixel_stride,
                              error) != GH_OK)
          return FALSE;
    }
  return TRUE;
}

static void
told (const char *what, const GeglRectangle *whole)
{
  g_log (GH_GEGL_LOG_DOMAIN, G_LOG_LEVEL_DEBUG, "counted %s of %d x %d",
         what, whole->width, whole->height);
}

/* The histogram of `channels` (0: all) of `whole` through `kind`'s view
 * (NONE: the pixels). */
static gboolean
count_histogram (gh_engine *engine, const gh_layer *layer,
                 gh_layer_view_kind kind, unsigned channels,
                 GeglBuffer *input, const GeglRectangle *whole,
                 gh_histogram *hist, gh_error *error)
{
  Strips   s;
  Feeds    f = { TRUE, kind != GH_LAYER_VIEW_NONE, { NULL, NULL },
                 { FALSE, FALSE } };
  gboolean ok = strips_init (&s, layer, kind, whole->width, whole->height,
                             STRIP_BYTES, error);

  if (ok)
    {
      gh_image image = { s.layout, layer->sample, layer->bins, 0,
                         layer->luminance, channels };

      ok = gh_engine_begin (engine, &image, error) == GH_OK
           && feed (&s, engine, &f, input, whole, error)
           && gh_engine_finish (engine, hist, error) == GH_OK;
    }
  strips_clear (&s);
  if (ok)
    told (kind == GH_LAYER_VIEW_NONE ? "the histogram"
                                     : "the luminance view's histogram",
          whole);
  return ok;
}

/* CLAHE's slot for `mode` on `layer`: a gray layer has one set of tiles
 * whatever the mode. */
static int
clahe_slot (const gh_layer *layer, gh_equalize_mode mode)
{
  return layer->gray ? 0 : mode == GH_EQUALIZE_LUMINANCE;
}

static void
drop_clahe (GhGeglKeep *k)
{
  for (int m = 0; m < 2; m++)
    {
      if (k->clahe[m])
        gh_clahe_destroy (k->clahe[m]);
      k->clahe[m] = NULL;
    }
}

/* The tile histograms of every mode at once, in one pass: a change of
 * mode maps again without counting.  Each channel of the pixels; the
 * luminance of the pixels, or of the view where the layer's luminance is
 * babl's. */
static gboolean
count_clahe (GhGeglKeep *k, const gh_layer *layer, const gh_request *request,
             GeglBuffer *input, const GeglRectangle *whole, gh_error *error)
{
  gh_layer_view_kind kind = layer->luminance_from ? GH_LAYER_VIEW_PAINT
                                                   : GH_LAYER_VIEW_NONE;
  Feeds              f = { FALSE, FALSE, { NULL, NULL }, { FALSE, FALSE } };
  Strips             s;
  gboolean           ok = strips_init (&s, layer, kind, whole->width,
                                       whole->height, STRIP_BYTES, error);

  drop_clahe (k);
  for (int m = 0; ok && m <= clahe_slot (layer, GH_EQUALIZE_LUMINANCE); m++)
    {
      gboolean        piece = m == 1 && kind != GH_LAYER_VIEW_NONE;
      gh_clahe_params p = { request->clip_limit, request->tiles_x,
                            request->tiles_y,
                            m == 1 && ! piece ? GH_EQUALIZE_LUMINANCE
                                              : GH_EQUALIZE_CHANNELS };

      ok = gh_clahe_begin (k->engine, &p, piece ? s.layout : layer->layout,
                           layer->sample, layer->luminance, layer->bins,
                           whole->width, whole->height, &k->clahe[m], error)
           == GH_OK;
      f.clahe[m] = k->clahe[m];
      f.clahe_piece[m] = piece;
    }
  ok = ok && feed (&s, k->engine, &f, input, whole, error);
  strips_clear (&s);
  if (! ok)
    drop_clahe (k);
  k->tiles_x = request->tiles_x;
  k->tiles_y = request->tiles_y;
  if (ok)
    told ("CLAHE's tiles", whole);
  return ok;
}

/* Whether two readings of an input are the same. */
static gboolean
same_reading (const gh_layer *a, const gh_layer *b)
{
  return a->source == b->source && a->luminance_from == b->luminance_from
         && a->layout == b->layout && a->sample == b->sample
         && a->bins == b->bins && a->luminance == b->luminance;
}

static Prepared *
prepared_ref (Prepared *p)
{
  g_atomic_int_inc (&p->refs);
  return p;
}

static void
prepared_unref (Prepared *p)
{
  if (! p || ! g_atomic_int_dec_and_test (&p->refs))
    return;
  gh_op_clear (&p->op);
  g_free (p);
}

static void
drop (GhGeglKeep *k)
{
  prepared_unref (k->prepared);
  k->prepared = NULL;
  k->have_pixels = k->have_view = FALSE;
  drop_clahe (k);
}

/* Drops what was counted of an input that has changed since, or was read
 * otherwise, or had another extent. */
static void
check (GhGeglKeep *k, const gh_layer *layer, const GeglRectangle *whole)
{
  gint now = g_atomic_int_get (&k->changes);

  if (k->counted_at == now && same_reading (&k->layer, layer)
      && gegl_rectangle_equal (&k->whole, whole))
    return;
  drop (k);
  k->counted_at = now;
  k->layer = *layer;
  k->whole = *whole;
}

/* What a request needs counted. */
typedef enum { NEEDS_NOTHING, NEEDS_PIXELS, NEEDS_VIEW, NEEDS_CLAHE } Needs;

/* The request as applied (`req`, through `kind`'s view: its channel or
 * mode on the view's value, its channel one `layout` has) and what it
 * needs counted. */
static Needs
needs_of (const gh_request *request, const gh_layer *layer, gh_request *req,
          gh_layer_view_kind *kind)
{
  unsigned needs;

  *req = *request;
  *kind = gh_layer_view_of (layer, req);
  req->channel = gh_layer_channel (*kind == GH_LAYER_VIEW_NONE
                                     ? layer->layout
                                     : layer->alpha ? GH_LAYOUT_GRAYA
                                                    : GH_LAYOUT_GRAY,
                                   req->channel);
  needs = gh_request_needs (req);
  if (needs & GH_NEEDS_CLAHE_PASS)
    return NEEDS_CLAHE;
  if (! (needs & GH_NEEDS_HISTOGRAM)
      || (req->operation == GH_REQ_BINARIZE && req->threshold >= 0))
    return NEEDS_NOTHING;
  return *kind == GH_LAYER_VIEW_NONE ? NEEDS_PIXELS : NEEDS_VIEW;
}

/* Whether the keep holds what `needs` of `request`. */
static gboolean
holds (const GhGeglKeep *k, Needs needs, const gh_request *request,
       const gh_layer *layer)
{
  switch (needs)
    {
    case NEEDS_PIXELS:
      return k->have_pixels;
    case NEEDS_VIEW:
      return k->have_view;
    case NEEDS_CLAHE:
      return k->clahe[clahe_slot (layer, request->mode)]
             && k->tiles_x == request->tiles_x
             && k->tiles_y == request->tiles_y;
    default:
      return TRUE;
    }
}

/* Counts what `request` needs and the keep lacks, and prepares its op. */
static gboolean
prepare (GhGeglKeep *k, const gh_request *request, const gh_layer *layer,
         gh_layout layout, GeglBuffer *input, const GeglRectangle *whole,
         const gh_histogram *reference, gh_error *error)
{
  gh_layer_view_kind kind;
  gh_request         req;
  Needs              needs = needs_of (request, layer, &req, &kind);
  gh_clahe          *clahe = NULL;
  const gh_histogram *hist = &k->pixels;
  Prepared          *p;
  gboolean           ok = TRUE;

  if (k->prepared
      && ! memcmp (&k->prepared->request, request, sizeof *request))
    return TRUE;
  prepared_unref (k->prepared);
  k->prepared = NULL;
  if (needs == NEEDS_PIXELS && ! k->have_pixels)
    ok = k->have_pixels = count_histogram (k->engine, layer,
                                           GH_LAYER_VIEW_NONE, 0, input,
                                           whole, &k->pixels, error);
  else if (needs == NEEDS_VIEW && ! k->have_view)
    ok = k->have_view = count_histogram (k->engine, layer,
                                         GH_LAYER_VIEW_PAINT,
                                         1u << GH_CHANNEL_VALUE, input,
                                         whole, &k->view, error);
  else if (needs == NEEDS_CLAHE && ! holds (k, needs, request, layer))
    ok = count_clahe (k, layer, request, input, whole, error);
  if (needs == NEEDS_VIEW)
    hist = &k->view;
  if (ok && needs == NEEDS_CLAHE)
    {
      clahe = k->clahe[clahe_slot (layer, request->mode)];
      ok = gh_clahe_set_clip_limit (clahe, req.clip_limit, error) == GH_OK;
    }
  if (! ok)
    return FALSE;
  p = g_new0 (Prepared, 1);
  {
    gh_request_inputs in = { layout, layer->sample, layer->luminance,
                             layer->bins, hist, reference, clahe };

    ok = gh_request_prepare (&req, &in, &p->op, NULL, error) == GH_OK;
  }
  if (! ok)
    {
      gh_op_clear (&p->op);
      g_free (p);
      return FALSE;
    }
  p->refs = 1;
  p->request = *request;
  k->prepared = p;
  return TRUE;
}

/* Rows [y, y + rows) of `rect` (level `level`'s coordinates) of the
 * engine's strip mapped by an op `by_position` (CLAHE) at each pixel's
 * full-size centre: each row spread over the full-size columns it covers
 * (each pixel repeated 2^level times) in `row`, mapped as the full-size row
 * through its centres, and the centres taken back. */
static gboolean
apply_centres (const gh_op *op, Strips *s, const GeglRectangle *whole,
               const GeglRectangle *rect, const GeglRectangle *r, gint level,
               guchar *row, gh_error *error)
{
  gint    half = (1 << level) / 2;
  /* The full-size columns [a, b) of the strip's pixels, in the image. */
  gint    a = MAX (rect->x << level, whole->x);
  gint    b = MIN ((rect->x + rect->width) << level,
                   whole->x + whole->width);
  gsize   bpp = s->bpp;
  guchar *px = engine_strip (s);

  for (gint j = 0; j < r->height; j++, px += (gsize) r->width * bpp)
    {
      gint y = CLAMP (((r->y + j) << level) + half, whole->y,
                      whole->y + whole->height - 1);

      for (gint x = a; x < b; x++)
        memcpy (row + (gsize) (x - a) * bpp,
                px + (gsize) ((x >> level) - rect->x) * bpp, bpp);
      if (gh_op_apply_rect (op, row, a - whole->x, y - whole->y, b - a, 1,
                            (gsize) (b - a) * bpp, error) != GH_OK)
        return FALSE;
      for (gint i = 0; i < r->width; i++)
        {
          gint x = CLAMP (((rect->x + i) << level) + half, a, b - 1);

          memcpy (px + (gsize) i * bpp, row + (gsize) (x - a) * bpp, bpp);
        }
    }
  return TRUE;
}

/* `op` over `result` at mipmap `level` (as GEGL's point filters scale a
 * result to a level); a view's result put back into the pixels.  An op
 * `by_position` (CLAHE) maps full-size positions: at level 0 from where
 * the result is, above it each pixel at its full-size centre. */
static gboolean
apply (const gh_op *op, gboolean by_position, Strips *s, GeglBuffer *input,
       const GeglRectangle *whole, GeglBuffer *output,
       const GeglRectangle *result, gint level, gh_error *error)
{
  GeglRectangle rect;
  gdouble       scale = 1.0 / (1 << level);
  gsize         stride;
  guchar       *row = NULL;
  gboolean      ok = TRUE;

  /* From the edges: GEGL's threads split a result anywhere, and parts
   * side by side must meet at the level too. */
  rect.x = result->x >> level;
  rect.y = result->y >> level;
  rect.width = ((result->x + result->width) >> level) - rect.x;
  rect.height = ((result->y + result->height) >> level) - rect.y;
  stride = (gsize) rect.width * s->bpp;
  if (by_position && level > 0 && rect.width > 0
      && ! (row = g_try_malloc ((gsize) (rect.width << level) * s->bpp)))
    {
      g_snprintf (error->message, sizeof error->message,
                  "out of memory for a row of %d pixels",
                  rect.width << level);
      return FALSE;
    }
  for (gint y = rect.y; y < rect.y + rect.height; y += s->rows)
    {
      GeglRectangle r = strip_get (s, input, &rect, y, scale, TRUE);

      /* Positions count only for an op by position. */
      if (row)
        ok = apply_centres (op, s, whole, &rect, &r, level, row, error);
      else
        ok = gh_op_apply_rect (op, engine_strip (s),
                               by_position ? r.x - whole->x : 0,
                               by_position ? r.y - whole->y : 0, r.width,
                               r.height, stride, error) == GH_OK;
      if (! ok)
        break;
      if (s->view.kind == GH_LAYER_VIEW_PAINT)
        gh_layer_view_paint (&s->view, r.width, r.height, s->piece, stride,
                             s->pixels);
      else if (s->view.kind == GH_LAYER_VIEW_MOVE)
        gh_layer_view_move (&s->view, r.width, r.height, s->piece, stride,
                            s->pixels);
      gegl_buffer_set (output, &r, level, s->layer->source, s->pixels,
                       GEGL_AUTO_ROWSTRIDE);
    }
  g_free (row);
  return ok;
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

GhGeglKeep *
gh_gegl_keep_new (void)
{
  GhGeglKeep *k = g_new0 (GhGeglKeep, 1);

  pthread_mutex_init (&k->lock, NULL);
  k->asked_at = k->counted_at = -1;
  gh_histogram_init (&k->pixels);
  gh_histogram_init (&k->view);
  return k;
}

void
gh_gegl_keep_free (GhGeglKeep *k)
{
  if (! k)
    return;
  /* Under the lock: after the last render's (GEGL's threads hand back
   * through GLib, which ThreadSanitizer does not see). */
  pthread_mutex_lock (&k->lock);
  drop (k);
  pthread_mutex_unlock (&k->lock);
  gh_histogram_clear (&k->pixels);
  gh_histogram_clear (&k->view);
  gh_engine_destroy (k->engine);
  pthread_mutex_destroy (&k->lock);
  g_free (k);
}

void
gh_gegl_keep_input_changed (GhGeglKeep *k)
{
  g_atomic_int_inc (&k->changes);
}

gboolean
gh_gegl_keep_needs_input (GhGeglKeep *k, const gh_request *request,
                          const gh_layer *layer, const GeglRectangle *whole)
{
  gh_layer_view_kind kind;
  gh_request         req;
  gboolean           needs;

  pthread_mutex_lock (&k->lock);
  check (k, layer, whole);
  needs = ! holds (k, needs_of (request, layer, &req, &kind), request,
                   layer);
  if (needs)
    k->asked_at = k->counted_at;
  pthread_mutex_unlock (&k->lock);
  return needs;
}

/* A render: what it needs counted and prepared under the keep's lock,
 * then mapped outside it (GEGL's threads render parts of a result at
 * once).  `any_input`: count from whatever part of the input is given,
 * for this render only (a keep of one render); else what is counted is
 * kept where GEGL was asked for the whole input. */
static gboolean
render (GhGeglKeep *k, const gh_request *request, const gh_layer *layer,
        int threads, GeglBuffer *input, const GeglRectangle *whole,
        const gh_histogram *reference, GeglBuffer *output,
        const GeglRectangle *result, gint level, gboolean any_input,
        gh_error *error)
{
  gh_layer_view_kind kind;
  gh_request         req;
  Needs              needs;
  Strips             s = { 0 };
  Prepared          *p = NULL;
  gboolean           whole_given, ok;

  memset (error, 0, sizeof *error);
  if (whole->width <= 0 || whole->height <= 0 || result->width <= 0
      || result->height <= 0)
    return TRUE;
  pthread_mutex_lock (&k->lock);
  whole_given = any_input || k->asked_at == g_atomic_int_get (&k->changes);
  check (k, layer, whole);
  needs = needs_of (request, layer, &req, &kind);
  whole_given = whole_given || holds (k, needs, request, layer);
  ok = (k->engine || engine_create (threads, &k->engine, error) == GH_OK)
       && strips_init (&s, layer, kind, result->width, result->height,
                       MAP_STRIP_BYTES, error)
       && prepare (k, request, layer, s.layout, input, whole, reference,
                   error);
  if (ok)
    p = prepared_ref (k->prepared);
  /* Counted from an input that may be a part of the whole: for this
   * render only. */
  if (! whole_given)
    drop (k);
  pthread_mutex_unlock (&k->lock);
  ok = ok && apply (&p->op, needs == NEEDS_CLAHE, &s, input, whole, output,
                    result, level, error);
  prepared_unref (p);
  strips_clear (&s);
  return ok;
}

gboolean
gh_gegl_keep_render (GhGeglKeep *k, const gh_request *request,
                     const gh_layer *layer, int threads, GeglBuffer *input,
                     const GeglRectangle *whole, GeglBuffer *output,
                     const GeglRectangle *result, gint level,
                     gh_error *error)
{
  return render (k, request, layer, threads, input, whole, NULL, output,
                 result, level, FALSE, error);
}

gboolean
gh_gegl_render_reference (const gh_request *request, const gh_layer *layer,
                          int threads, GeglBuffer *input,
                          const GeglRectangle *whole,
                          const gh_histogram *reference, GeglBuffer *output,
                          const GeglRectangle *result, gh_error *error)
{
  GhGeglKeep *k = gh_gegl_keep_new ();
  gboolean    ok = render (k, request, layer, threads, input, whole,
                           reference, output, result, 0, TRUE, error);

  gh_gegl_keep_free (k);
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
    ok = count_histogram (engine, layer, GH_LAYER_VIEW_NONE,
                          gh_layer_view_pixel_channels (0), buffer, whole,
                          hist, error)
         && count_histogram (engine, layer, GH_LAYER_VIEW_PAINT,
                             1u << GH_CHANNEL_VALUE, buffer, whole,
                             &luminance, error)
         && gh_layer_view_take_luminance (hist,
                                          gh_layer_view_pixel_channels (0),
                                          &luminance, error)
              == GH_OK;
  else if (ok)
    ok = count_histogram (engine, layer, GH_LAYER_VIEW_NONE, 0, buffer,
                          whole, hist, error);
  gh_histogram_clear (&luminance);
  gh_engine_destroy (engine);
  return ok;
}
