/* SPDX-License-Identifier: GPL-3.0-or-later */
/* region.c — pixels between a host's drawable and the engine, in strips. */
#include "region.h"

#include <string.h>

#include "errors.h"
#include "view.h"

/* Strips of about this many bytes: large enough that the per-call cost of
 * the host's tile transfers and of an engine feed is small, small enough
 * that memory stays bounded. */
#define STRIP_BYTES (4 << 20)

/* The most a region keeps between a reading pass and its apply
 * (core_region_keep): the plug-in's memory stays bounded. */
#define KEEP_BYTES (128 << 20)

/* The pixels of a reading pass, in the region's format, rows of the
 * region's width. */
struct CoreKept
{
  guchar  *pixels;
  gboolean filled;
};

gboolean
core_progress_shown (gsize pixels)
{
  return pixels > 1000 * 1000;
}

gh_luminance
core_region_luminance (const CoreRegion *region)
{
  return region->layer.luminance;
}

void
core_region_image (const CoreRegion *region, gh_image *image)
{
  image->layout = region->layout;
  image->sample = region->sample;
  image->bins = region->bins;
  image->has_mask = region->info.has_selection;
  image->luminance = core_region_luminance (region);
  image->channels = 0;
}

/* The region's fields from its layer: the drawable's pixels as stored
 * (their own space and tone curve: babl converts the sample type only)
 * and the pieces'.  A luminance view's pieces are made here, never
 * exchanged with GIMP: their format gives their size. */
static void
set_formats (CoreRegion *region)
{
  const gh_layer *layer = &region->layer;

  region->space = layer->space;
  region->trc = layer->trc;
  region->source = layer->source;
  region->luminance_from = layer->luminance_from;
  region->sample = layer->sample;
  region->bins = layer->bins;
  region->format = region->view
                     ? gh_layer_format (layer, TRUE, layer->alpha, "",
                                        layer->sample)
                     : layer->source;
}

gboolean
core_region_init (const CoreHost *host, const CoreTarget *target,
                  CoreRegion *region, GError **error)
{
  CoreDrawableInfo *info = &region->info;
  gh_layer_facts    facts;

  memset (region, 0, sizeof *region);
  region->host = host;
  region->drawable = target->drawable;
  if (! core_describe (host, target, info) || ! info->exists)
    {
      gchar *name = core_region_name (region);

      g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                   "drawable %s belongs to no image", name);
      g_free (name);
      core_region_clear (region);
      return FALSE;
    }
  /* Reading "R'G'B'A" from an indexed drawable goes through its palette,
   * which is how GIMP's own histogram sees it. */
  facts.gray = info->is_gray;
  facts.alpha = info->has_alpha;
  facts.u8 = info->precision != CORE_PRECISION_OTHER;
  facts.perceptual = info->precision == CORE_PRECISION_U8_PERCEPTUAL;
  facts.bins_linear = info->bins_linear;
  facts.storage = core_region_layer_format (region);
  facts.host = host->luminance;
  gh_layer_choose (&facts, &region->layer);
  region->layout = region->layer.layout;
  set_formats (region);
  return TRUE;
}

void
core_region_use_bins (CoreRegion *region, gint bins)
{
  gh_layer_use_bins (&region->layer, bins);
  set_formats (region);
}

/* Makes the region its luminance view (see region.h). */
static gboolean
luminance_view (CoreRegion *region, CoreView view)
{
  if (! region->luminance_from || region->view != CORE_VIEW_PIXELS)
    return FALSE;
  region->view = view;
  region->layout = region->info.has_alpha ? GH_LAYOUT_GRAYA : GH_LAYOUT_GRAY;
  set_formats (region);
  return TRUE;
}

void
core_region_view (CoreRegion *region, gh_request *request)
{
  CoreView view = (CoreView) gh_layer_view_of (&region->layer, request);

  if (view != CORE_VIEW_PIXELS)
    luminance_view (region, view);
}

gchar *
core_region_name (const CoreRegion *region)
{
  gchar *name = NULL;

  region->host->item_facts (region->drawable, region->info.exists, &name,
                            NULL, NULL);
  return name;
}

void
core_region_clear (CoreRegion *region)
{
  if (region->kept)
    g_free (region->kept->pixels);
  g_clear_pointer (&region->kept, g_free);
  core_drawable_info_clear (&region->info);
}

/* The region's bytes in the format it is read in. */
static gsize
region_bytes (const CoreRegion *region)
{
  return (gsize) region->info.width * region->info.height
         * babl_format_get_bytes_per_pixel (region->format);
}

void
core_region_keep (CoreRegion *region)
{
  gsize   bytes = region_bytes (region);
  guchar *pixels;

  /* A region of one strip keeps its tiles in the plug-in already
   * (region_buffer); float regions apply through the layer's own format
   * where alpha must stay bit for bit (AlphaKeeper); a luminance view's
   * apply reads the pixels as floats too. */
  if (region->kept || region->sample != GH_SAMPLE_U8
      || region->view != CORE_VIEW_PIXELS || bytes <= STRIP_BYTES
      || bytes > KEEP_BYTES || ! (pixels = g_try_malloc (bytes)))
    return;
  region->kept = g_new0 (CoreKept, 1);
  region->kept->pixels = pixels;
}

/* The drawable's pixels (a new reference): those describe got where the
 * region is one strip, so a small call asks GIMP for them once and its
 * tiles stay in the plug-in from the histogram's pass to the apply's;
 * else the host's, new for each pass, as tiles kept from a pass larger
 * than GEGL's cache would only push the next pass's out. */
static GeglBuffer *
region_buffer (const CoreRegion *region)
{
  const CoreDrawableInfo *info = &region->info;

  if (info->buffer && region_bytes (region) <= STRIP_BYTES)
    return g_object_ref (info->buffer);
  return region->host->buffer (region->drawable);
}

const Babl *
core_region_layer_format (const CoreRegion *region)
{
  if (region->info.buffer)
    return gegl_buffer_get_format (region->info.buffer);
  return region->host->format (region->drawable);
}

/* Rows per strip of pixels of `bpp` bytes: whole tiles where a strip
 * holds more than one, so each of the host's tiles crosses once. */
static gint
strip_rows (const CoreRegion *region, gsize bpp)
{
  gsize row = (gsize) region->info.width * bpp;
  gsize rows = STRIP_BYTES / MAX (row, 1);
  gsize tile = region->host->tile_height ();

  if (rows > tile)
    rows -= rows % tile;
  return (gint) CLAMP (rows, 1, (gsize) region->info.height);
}

/* The end of the strip starting at row y: on a tile boundary of the
 * drawable when possible. */
static gint
strip_end (const CoreRegion *region, gint y, gint rows)
{
  gint tile = region->host->tile_height ();
  gint end = y + rows;

  if (rows >= tile && end % tile)
    end -= end % tile;
  return MIN (end, region->info.y + region->info.height);
}

static void
progress_update (const CoreProgress *progress, const CoreRegion *region,
                 gint y)
{
  if (progress)
    region->host->progress_update (progress->start + progress->span
                                   * (y - region->info.y)
                                   / (gdouble) region->info.height);
}

/* A strip's bytes per pixel at most: the pieces', the drawable's pixels'
 * and, on a view, those read for the luminance. */
static gsize
strip_bpp (const CoreRegion *region)
{
  gsize bpp = MAX (babl_format_get_bytes_per_pixel (region->format),
                   babl_format_get_bytes_per_pixel (region->source));

  if (region->view != CORE_VIEW_PIXELS)
    bpp = MAX (bpp, (gsize) babl_format_get_bytes_per_pixel (region->luminance_from));
  return bpp;
}

gboolean
core_region_read (gh_engine *engine, const CoreRegion *region,
                  gboolean with_mask, CoreStripFunc func, gpointer data,
                  const CoreProgress *progress, GError **error)
{
  const CoreDrawableInfo *info = &region->info;
  GeglBuffer             *buffer, *mask_buffer = NULL;
  const Babl             *mask_format = NULL;
  gh_layer_view           view;
  gpointer                pixels, mask = NULL;
  gsize                   stride = (gsize) info->width
                                   * babl_format_get_bytes_per_pixel (
                                       region->format);
  gsize                   mask_stride = 0;
  gint                    rows;
  gboolean                ok = TRUE;

  if (info->height == 0)
    return TRUE;
  with_mask = with_mask && info->has_selection;
  rows = strip_rows (region, strip_bpp (region));
  if (! core_view_init (&view, region, (gsize) info->width * rows, error))
    return FALSE;
  buffer = region_buffer (region);
  /* Page-locked when the engine is on the GPU: strips then go straight
   * to the device. */
  pixels = gh_engine_alloc_host (engine, stride * rows);
  if (with_mask)
    {
      /* The selection is stored as "Y u8" in 8-bit images, so bytes are
       * its exact values there; GIMP reads it as "Y float" otherwise.
       * In its own space: linear gray converts the sample type only. */
      mask_buffer = region->host->selection_buffer (region->drawable);
      mask_format = babl_format_with_space (region->sample == GH_SAMPLE_U8
                                            ? "Y u8" : "Y float",
                                            gegl_buffer_get_format (
                                              mask_buffer));
      mask_stride = (gsize) info->width
                    * babl_format_get_bytes_per_pixel (mask_format);
      mask = gh_engine_alloc_host (engine, mask_stride * rows);
    }
  for (gint y = info->y; ok && y < info->y + info->height;)
    {
      gint           end = strip_end (region, y, rows);
      GeglRectangle *rect = GEGL_RECTANGLE (info->x, y, info->width,
                                            end - y);
      gh_piece       piece = { pixels, info->width, end - y, stride,
                               mask, mask_stride };

      if (region->view != CORE_VIEW_PIXELS)
        core_view_piece (region, buffer, rect, &view, pixels, stride);
      else
        gegl_buffer_get (buffer, rect, 1.0, region->format, pixels, stride,
                         GEGL_ABYSS_NONE);
      /* The selection channel is in image coordinates. */
      if (mask)
        gegl_buffer_get (mask_buffer,
                         GEGL_RECTANGLE (info->x + info->offset_x,
                                         y + info->offset_y,
                                         info->width, end - y),
                         1.0, mask_format, mask, mask_stride,
                         GEGL_ABYSS_NONE);
      if (region->kept)
        memcpy (region->kept->pixels + (gsize) (y - info->y) * stride,
                pixels, stride * (end - y));
      ok = func (&piece, y - info->y, data, error);
      y = end;
      progress_update (progress, region, y);
    }
  if (region->kept)
    region->kept->filled = ok;
  g_object_unref (buffer);
  g_clear_object (&mask_buffer);
  gh_layer_view_clear (&view);
  gh_engine_free_host (engine, pixels);
  gh_engine_free_host (engine, mask);
  return ok;
}

static gboolean
feed_piece (const gh_piece *piece, gint y G_GNUC_UNUSED, gpointer engine,
            GError **error)
{
  gh_error err;

  return core_error_from_engine (gh_engine_feed (engine, piece, &err), &err,
                                 error);
}

/* One pass of the engine over the region's pieces, counting `channels`
 * (0: all). */
static gboolean
count_pieces (gh_engine *engine, const CoreRegion *region, guint channels,
              gh_histogram *hist, const CoreProgress *progress,
              GError **error)
{
  gh_image image;
  gh_error err;
  gboolean ok, finished;

  core_region_image (region, &image);
  image.channels = channels;
  if (! core_error_from_engine (gh_engine_begin (engine, &image, &err), &err,
                                error))
    return FALSE;
  ok = core_region_read (engine, region, TRUE, feed_piece, engine, progress,
                         error);
  /* Finish even after a failed feed, so the engine is closed and ready
   * for the next image. */
  finished = core_error_from_engine (gh_engine_finish (engine, hist, &err),
                                     &err, ok ? error : NULL);
  return ok && finished;
}

gboolean
core_region_histogram (gh_engine *engine, const CoreRegion *region,
                       guint channels, gh_histogram *hist,
                       const CoreProgress *progress, GError **error)
{
  CoreRegion   view;
  CoreProgress half[2];
  gh_histogram luminance;
  gh_error     err;
  guint        others;
  gboolean     ok;

  /* One pass where the luminance is the engine's, or not wanted. */
  if (region->view != CORE_VIEW_PIXELS || ! region->luminance_from
      || (channels && ! (channels & (1u << GH_CHANNEL_LUMINANCE))))
    return count_pieces (engine, region, channels, hist, progress, error);
  /* The luminance is babl's: a pass over the luminance view gives it (its
   * value channel), one over the pixels the other channels, if any are
   * wanted. */
  others = gh_layer_view_pixel_channels (channels);
  if (progress)
    {
      half[0].start = progress->start;
      half[0].span = half[1].span = others ? progress->span / 2
                                           : progress->span;
      half[1].start = half[0].start + (others ? half[0].span : 0);
    }
  view = *region;
  view.kept = NULL;
  luminance_view (&view, CORE_VIEW_PAINT);
  gh_histogram_init (&luminance);
  ok = (! others
        || count_pieces (engine, region, others, hist,
                         progress ? &half[0] : NULL, error))
       && count_pieces (engine, &view, 1u << GH_CHANNEL_VALUE, &luminance,
                        progress ? &half[1] : NULL, error)
       && core_error_from_engine (gh_layer_view_take_luminance (hist, others,
                                                                &luminance,
                                                                &err),
                                  &err, error);
  gh_histogram_clear (&luminance);
  return ok;
}

/* A float strip holds 24 bits of a sample: alpha of 32-bit integer and
 * double layers would be rounded on its way through (8 and 16-bit, half
 * and float alpha go through float and back exactly).  So those layers'
 * strips with alpha are read in the layer's own format, converted to float
 * for the operation, and converted back with the alpha read put back
 * untouched, bit for bit. */
typedef struct
{
  const Babl *format;   /* the layer's; NULL: strips go through as floats */
  const Babl *to_float;
  const Babl *to_layer;
  gsize       bpp;
  gsize       alpha_offset;
  gsize       alpha_bytes;
  guchar     *read;     /* a strip as read, in the layer's format */
  guchar     *written;  /* the operation's result, converted back */
} AlphaKeeper;

static void
alpha_keeper_init (AlphaKeeper *k, const CoreRegion *region,
                   const Babl *layer_format, gsize pixels)
{
  const Babl *type = babl_format_get_type (layer_format, 0);

  memset (k, 0, sizeof *k);
  if (region->sample != GH_SAMPLE_F32 || ! region->info.has_alpha
      || (type != babl_type ("u32") && type != babl_type ("double")))
    return;
  k->format = layer_format;
  k->to_float = babl_fish (k->format, region->source);
  k->to_layer = babl_fish (region->source, k->format);
  k->bpp = babl_format_get_bytes_per_pixel (k->format);
  /* GIMP's layer formats: samples of one type, alpha last. */
  k->alpha_bytes = k->bpp / babl_format_get_n_components (k->format);
  k->alpha_offset = k->bpp - k->alpha_bytes;
  k->read = g_malloc (k->bpp * pixels);
  k->written = g_malloc (k->bpp * pixels);
}

static void
alpha_keeper_clear (AlphaKeeper *k)
{
  g_free (k->read);
  g_free (k->written);
}

static void
strip_get (GeglBuffer *src, const GeglRectangle *rect,
           const CoreRegion *region, AlphaKeeper *k, gpointer pixels,
           gsize stride)
{
  if (! k->format)
    {
      gegl_buffer_get (src, rect, 1.0, region->source, pixels, stride,
                       GEGL_ABYSS_NONE);
      return;
    }
  gegl_buffer_get (src, rect, 1.0, k->format, k->read,
                   k->bpp * rect->width, GEGL_ABYSS_NONE);
  babl_process (k->to_float, k->read, pixels,
                (glong) rect->width * rect->height);
}

/* Writes the strip `pixels` of the region's `rect` at `dest` in `to`. */
static void
strip_set (GeglBuffer *to, const GeglRectangle *dest,
           const CoreRegion *region, AlphaKeeper *k, gpointer pixels,
           gsize stride)
{
  gsize n = (gsize) dest->width * dest->height;

  if (! k->format)
    {
      gegl_buffer_set (to, dest, 0, region->source, pixels, stride);
      return;
    }
  babl_process (k->to_layer, pixels, k->written, (glong) n);
  for (gsize i = 0; i < n; i++)
    memcpy (k->written + i * k->bpp + k->alpha_offset,
            k->read + i * k->bpp + k->alpha_offset, k->alpha_bytes);
  gegl_buffer_set (to, dest, 0, k->format, k->written,
                   k->bpp * dest->width);
}

/* What an apply holds while it runs. */
typedef struct
{
  AlphaKeeper keeper;
  gh_layer_view view;
  guchar     *piece;  /* a view's piece of the strip */
  gsize       piece_stride;
} Applying;

static gboolean
applying_init (Applying *a, const CoreRegion *region, gint width, gint rows,
               GError **error)
{
  gsize pixels = (gsize) width * rows;

  if (! core_view_init (&a->view, region, pixels, error))
    return FALSE;
  alpha_keeper_init (&a->keeper, region, core_region_layer_format (region),
                     pixels);
  a->piece_stride = (gsize) width
                    * babl_format_get_bytes_per_pixel (region->format);
  a->piece = region->view != CORE_VIEW_PIXELS
             ? g_malloc (a->piece_stride * rows) : NULL;
  return TRUE;
}

static void
applying_clear (Applying *a)
{
  alpha_keeper_clear (&a->keeper);
  gh_layer_view_clear (&a->view);
  g_free (a->piece);
}

/* `op` on the strip `pixels` of the region's `rect` (packed rows, in
 * region->source), at its place in the region; a view's through its
 * piece, read from `src`. */
static gboolean
apply_strip (const CoreRegion *region, const gh_op *op, GeglBuffer *src,
             const GeglRectangle *rect, Applying *a, gpointer pixels,
             gsize stride, GError **error)
{
  gsize    x0 = rect->x - region->info.x, y0 = rect->y - region->info.y;
  gh_error err;

  if (region->view == CORE_VIEW_PIXELS)
    return core_error_from_engine (gh_op_apply_rect (op, pixels, x0, y0,
                                                     rect->width,
                                                     rect->height, stride,
                                                     &err),
                                   &err, error);
  core_view_piece (region, src, rect, &a->view, a->piece, a->piece_stride);
  if (! core_error_from_engine (gh_op_apply_rect (op, a->piece, x0, y0,
                                                  rect->width, rect->height,
                                                  a->piece_stride, &err),
                                &err, error))
    return FALSE;
  if (region->view == CORE_VIEW_PAINT)
    gh_layer_view_paint (&a->view, rect->width, rect->height, a->piece,
                         a->piece_stride, pixels);
  else
    gh_layer_view_move (&a->view, rect->width, rect->height, a->piece,
                        a->piece_stride, pixels);
  return TRUE;
}

gboolean
core_region_apply (const CoreRegion *region, const gh_op *op,
                   const CoreProgress *progress, GError **error)
{
  const CoreHost         *host = region->host;
  const CoreDrawableInfo *info = &region->info;
  GeglBuffer             *src, *shadow;
  gpointer                pixels;
  gsize                   stride = (gsize) info->width
                                   * babl_format_get_bytes_per_pixel (
                                       region->source);
  Applying                a;
  guchar                 *kept = NULL;
  gint                    rows;
  gboolean                ok = TRUE;

  if (info->height == 0)
    return TRUE; /* the selection misses the drawable: nothing to change */
  /* Sized by the widest of the formats, so the strips held stay a few
   * MiB each. */
  rows = strip_rows (region,
                     MAX (strip_bpp (region),
                          (gsize) babl_format_get_bytes_per_pixel (
                            core_region_layer_format (region))));
  if (! applying_init (&a, region, info->width, rows, error))
    return FALSE;
  /* The pixels a reading pass kept are changed where they lie, so they
   * serve this apply only. */
  if (region->kept && region->kept->filled && ! a.keeper.format)
    kept = region->kept->pixels;
  if (region->kept)
    region->kept->filled = FALSE;
  src = kept ? NULL : region_buffer (region);
  shadow = host->shadow_buffer (region->drawable);
  pixels = kept ? NULL : g_malloc (stride * rows);
  for (gint y = info->y; ok && y < info->y + info->height;)
    {
      gint           end = strip_end (region, y, rows);
      GeglRectangle *rect = GEGL_RECTANGLE (info->x, y, info->width,
                                            end - y);

      if (kept)
        pixels = kept + (gsize) (y - info->y) * stride;
      else
        strip_get (src, rect, region, &a.keeper, pixels, stride);
      /* At the strip's place in the region: CLAHE's mapping depends on
       * it. */
      ok = apply_strip (region, op, src, rect, &a, pixels, stride, error);
      if (ok)
        strip_set (shadow, rect, region, &a.keeper, pixels, stride);
      y = end;
      progress_update (progress, region, y);
    }
  if (! kept)
    g_free (pixels);
  applying_clear (&a);
  g_clear_object (&src);
  /* Unreferencing flushes the shadow's tiles to the host before the
   * merge. */
  g_object_unref (shadow);
  if (ok)
    host->merge_shadow (region->drawable, info->x, info->y, info->width,
                        info->height);
  return ok;
}

gboolean
core_region_apply_to (const CoreRegion *region, const gh_op *op,
                      const GeglRectangle *rect, GeglBuffer *dest,
                      gint dest_x, gint dest_y, GError **error)
{
  gsize       stride = (gsize) rect->width
                       * babl_format_get_bytes_per_pixel (region->source);
  GeglBuffer *src;
  gpointer    pixels;
  Applying    a;
  gboolean    ok;

  if (! applying_init (&a, region, rect->width, rect->height, error))
    return FALSE;
  src = region_buffer (region);
  pixels = g_malloc (stride * rect->height);
  strip_get (src, rect, region, &a.keeper, pixels, stride);
  ok = apply_strip (region, op, src, rect, &a, pixels, stride, error);
  if (ok)
    strip_set (dest, GEGL_RECTANGLE (dest_x, dest_y, rect->width,
                                     rect->height),
               region, &a.keeper, pixels, stride);
  applying_clear (&a);
  g_free (pixels);
  g_object_unref (src);
  return ok;
}

gboolean
core_target_describe (const CoreHost *host, const CoreTarget *target,
                      CoreTarget *described, CoreDrawableInfo *info,
                      GError **error)
{
  CoreRegion region;

  /* A region's description, with core_region_init's message for a
   * drawable that does not exist; the region's format set-up is cheap
   * (no round trip to GIMP). */
  memset (info, 0, sizeof *info);
  if (! core_region_init (host, target, &region, error))
    return FALSE;
  *info = region.info;
  region.info.buffer = NULL;
  core_region_clear (&region);
  *described = *target;
  described->described = info;
  return TRUE;
}
