/* SPDX-License-Identifier: GPL-3.0-or-later */
/* region_write.c — the write path (region.h): an engine operation over a
 * region's strips, written back in the layer's own precision (alpha as
 * read, bit for bit) through the shadow buffer and merged, or into a
 * buffer of the caller's (a preview). */
#include "region.h"
#include "region_parts.h"

#include <string.h>

#include "errors.h"
#include "view.h"

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
  rows = core_region_strip_rows (region,
                     MAX (core_region_strip_bpp (region),
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
  src = kept ? NULL : core_region_buffer (region);
  shadow = host->shadow_buffer (region->drawable);
  pixels = kept ? NULL : g_malloc (stride * rows);
  for (gint y = info->y; ok && y < info->y + info->height;)
    {
      gint           end = core_region_strip_end (region, y, rows);
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
      core_region_progress_update (progress, region, y);
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
  src = core_region_buffer (region);
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
