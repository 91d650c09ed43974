/* pixels.c — pixels between a GIMP drawable and the engine, in strips. */
#include "pixels.h"

#include <string.h>

#include "errors.h"

/* Strips of about this many bytes: large enough that the per-call cost of
 * the plug-in's tile transfers and of an engine feed is small, small
 * enough that memory stays bounded. */
#define STRIP_BYTES (4 << 20)

gboolean
pixels_region_init (gint32 drawable, PixelsRegion *region, GError **error)
{
  /* By sample type (U8, F32) and layout (gray, gray+alpha, RGB, RGBA). */
  static const gchar *const formats[2][4] = {
    { "Y' u8", "Y'A u8", "R'G'B' u8", "R'G'B'A u8" },
    { "Y' float", "Y'A float", "R'G'B' float", "R'G'B'A float" },
  };
  gint32        image = gimp_item_get_image (drawable);
  gboolean      alpha = gimp_drawable_has_alpha (drawable);
  GimpPrecision precision;

  if (image == -1)
    {
      g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_CALLING,
                   "drawable %d belongs to no image", drawable);
      return FALSE;
    }
  region->drawable = drawable;
  /* Reading "R'G'B'A" from an indexed drawable goes through its palette,
   * which is how GIMP's own histogram sees it. */
  if (gimp_drawable_is_gray (drawable))
    region->layout = alpha ? GH_LAYOUT_GRAYA : GH_LAYOUT_GRAY;
  else
    region->layout = alpha ? GH_LAYOUT_RGBA : GH_LAYOUT_RGB;
  /* GIMP's histogram reads every layer as perceptual float.  Only 8-bit
   * perceptual storage (indexed images are that too) gives exactly the
   * same bins through bytes; 8-bit linear would round on its way to
   * perceptual bytes, and higher precisions would lose bits. */
  precision = gimp_image_get_precision (image);
  region->sample = precision == GIMP_PRECISION_U8_GAMMA ? GH_SAMPLE_U8
                                                        : GH_SAMPLE_F32;
  region->bins = precision == GIMP_PRECISION_U8_GAMMA
                 || precision == GIMP_PRECISION_U8_LINEAR ? 256 : 1024;
  region->format = babl_format (formats[region->sample == GH_SAMPLE_F32]
                                       [region->layout - 1]);
  gimp_drawable_offsets (drawable, &region->offset_x, &region->offset_y);
  region->selection = gimp_selection_is_empty (image)
                        ? -1 : gimp_image_get_selection (image);
  if (! gimp_drawable_mask_intersect (drawable, &region->x, &region->y,
                                      &region->width, &region->height))
    region->width = region->height = 0;
  return TRUE;
}

/* Rows per strip of pixels of `bpp` bytes: whole tiles where a strip
 * holds more than one, so each GIMP tile crosses the wire once. */
static gint
strip_rows (const PixelsRegion *region, gsize bpp)
{
  gsize row = (gsize) region->width * bpp;
  gsize rows = STRIP_BYTES / MAX (row, 1);
  gsize tile = gimp_tile_height ();

  if (rows > tile)
    rows -= rows % tile;
  return (gint) CLAMP (rows, 1, (gsize) region->height);
}

/* The end of the strip starting at row y: on a tile boundary of the
 * drawable when possible. */
static gint
strip_end (const PixelsRegion *region, gint y, gint rows)
{
  gint tile = gimp_tile_height ();
  gint end = y + rows;

  if (rows >= tile && end % tile)
    end -= end % tile;
  return MIN (end, region->y + region->height);
}

static void
progress_update (const PixelsProgress *progress, const PixelsRegion *region,
                 gint y)
{
  if (progress)
    gimp_progress_update (progress->start + progress->span
                          * (y - region->y) / (gdouble) region->height);
}

gboolean
pixels_histogram (gh_engine *engine, const PixelsRegion *region,
                  gh_histogram *hist, const PixelsProgress *progress,
                  GError **error)
{
  gh_image    image = { region->layout, region->sample, region->bins,
                        region->selection != -1 };
  gh_error    err;
  GeglBuffer *buffer = NULL, *mask_buffer = NULL;
  /* The selection is stored as "Y u8" in 8-bit images, so bytes are its
   * exact values there; GIMP reads it as "Y float" otherwise. */
  const Babl *mask_format = babl_format (region->sample == GH_SAMPLE_U8
                                         ? "Y u8" : "Y float");
  gpointer    pixels = NULL, mask = NULL;
  gsize       stride = (gsize) region->width
                       * babl_format_get_bytes_per_pixel (region->format);
  gsize       mask_stride = (gsize) region->width
                            * babl_format_get_bytes_per_pixel (mask_format);
  gboolean    begun, ok;

  begun = ok = errors_from_engine (gh_engine_begin (engine, &image, &err),
                                   &err, error);
  if (ok && region->height > 0)
    {
      gint rows = strip_rows (region,
                              babl_format_get_bytes_per_pixel (region->format));

      buffer = gimp_drawable_get_buffer (region->drawable);
      /* Page-locked when the engine is on the GPU: strips then go
       * straight to the device. */
      pixels = gh_engine_alloc_host (engine, stride * rows);
      if (image.has_mask)
        {
          mask_buffer = gimp_drawable_get_buffer (region->selection);
          mask = gh_engine_alloc_host (engine, mask_stride * rows);
        }
      for (gint y = region->y; ok && y < region->y + region->height;)
        {
          gint     end = strip_end (region, y, rows);
          gh_piece piece = { pixels, region->width, end - y, stride,
                             mask, mask_stride };

          gegl_buffer_get (buffer,
                           GEGL_RECTANGLE (region->x, y, region->width,
                                           end - y),
                           1.0, region->format, pixels, stride,
                           GEGL_ABYSS_NONE);
          /* The selection channel is in image coordinates. */
          if (mask)
            gegl_buffer_get (mask_buffer,
                             GEGL_RECTANGLE (region->x + region->offset_x,
                                             y + region->offset_y,
                                             region->width, end - y),
                             1.0, mask_format, mask, mask_stride,
                             GEGL_ABYSS_NONE);
          ok = errors_from_engine (gh_engine_feed (engine, &piece, &err),
                                   &err, error);
          y = end;
          progress_update (progress, region, y);
        }
    }
  if (begun)
    {
      /* Finish even after a failed feed, so the engine is closed and
       * ready for the next image. */
      gboolean finished = errors_from_engine (gh_engine_finish (engine, hist,
                                                                &err),
                                              &err, ok ? error : NULL);
      ok = ok && finished;
    }
  g_clear_object (&buffer);
  g_clear_object (&mask_buffer);
  gh_engine_free_host (engine, pixels);
  gh_engine_free_host (engine, mask);
  return ok;
}

/* A float strip holds 24 bits of a sample: alpha of 32-bit integer and
 * double layers would be rounded on its way through (8 and 16-bit, half
 * and float alpha go through float and back exactly).  So those layers'
 * strips with alpha are read in the layer's own format, converted to float
 * for the strip function, and converted back with the alpha read put back
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
  guchar     *written;  /* the strip function's result, converted back */
} AlphaKeeper;

static void
alpha_keeper_init (AlphaKeeper *k, const PixelsRegion *region,
                   const Babl *layer_format, gint rows)
{
  memset (k, 0, sizeof *k);
  const Babl *type = babl_format_get_type (layer_format, 0);

  if (region->sample != GH_SAMPLE_F32
      || (region->layout != GH_LAYOUT_GRAYA
          && region->layout != GH_LAYOUT_RGBA)
      || (type != babl_type ("u32") && type != babl_type ("double")))
    return;
  k->format = layer_format;
  k->to_float = babl_fish (k->format, region->format);
  k->to_layer = babl_fish (region->format, k->format);
  k->bpp = babl_format_get_bytes_per_pixel (k->format);
  /* GIMP's layer formats: samples of one type, alpha last. */
  k->alpha_bytes = k->bpp / babl_format_get_n_components (k->format);
  k->alpha_offset = k->bpp - k->alpha_bytes;
  k->read = g_malloc (k->bpp * region->width * rows);
  k->written = g_malloc (k->bpp * region->width * rows);
}

static void
alpha_keeper_clear (AlphaKeeper *k)
{
  g_free (k->read);
  g_free (k->written);
}

static void
strip_get (GeglBuffer *src, const GeglRectangle *rect,
           const PixelsRegion *region, AlphaKeeper *k, gpointer pixels,
           gsize stride)
{
  if (! k->format)
    {
      gegl_buffer_get (src, rect, 1.0, region->format, pixels, stride,
                       GEGL_ABYSS_NONE);
      return;
    }
  gegl_buffer_get (src, rect, 1.0, k->format, k->read,
                   k->bpp * rect->width, GEGL_ABYSS_NONE);
  babl_process (k->to_float, k->read, pixels,
                (glong) rect->width * rect->height);
}

static void
strip_set (GeglBuffer *shadow, const GeglRectangle *rect,
           const PixelsRegion *region, AlphaKeeper *k, gpointer pixels,
           gsize stride)
{
  gsize n = (gsize) rect->width * rect->height;

  if (! k->format)
    {
      gegl_buffer_set (shadow, rect, 0, region->format, pixels, stride);
      return;
    }
  babl_process (k->to_layer, pixels, k->written, (glong) n);
  for (gsize i = 0; i < n; i++)
    memcpy (k->written + i * k->bpp + k->alpha_offset,
            k->read + i * k->bpp + k->alpha_offset, k->alpha_bytes);
  gegl_buffer_set (shadow, rect, 0, k->format, k->written,
                   k->bpp * rect->width);
}

gboolean
pixels_apply (const PixelsRegion *region, PixelsStripFunc func, gpointer data,
              const PixelsProgress *progress, GError **error)
{
  GeglBuffer *src, *shadow;
  gpointer    pixels;
  gsize       stride = (gsize) region->width
                       * babl_format_get_bytes_per_pixel (region->format);
  const Babl *layer_format;
  AlphaKeeper keeper;
  gint        rows;
  gboolean    ok = TRUE;

  if (region->height == 0)
    return TRUE; /* the selection misses the drawable: nothing to change */
  layer_format = gimp_drawable_get_format (region->drawable);
  /* Sized by the wider of the two formats, so the strips held stay a few
   * MiB each. */
  rows = strip_rows (region,
                     MAX (babl_format_get_bytes_per_pixel (region->format),
                          babl_format_get_bytes_per_pixel (layer_format)));
  alpha_keeper_init (&keeper, region, layer_format, rows);
  src = gimp_drawable_get_buffer (region->drawable);
  shadow = gimp_drawable_get_shadow_buffer (region->drawable);
  pixels = g_malloc (stride * rows);
  for (gint y = region->y; ok && y < region->y + region->height;)
    {
      gint           end = strip_end (region, y, rows);
      GeglRectangle *rect = GEGL_RECTANGLE (region->x, y, region->width,
                                            end - y);

      strip_get (src, rect, region, &keeper, pixels, stride);
      ok = func (region, pixels, region->width, end - y, stride, data, error);
      if (ok)
        strip_set (shadow, rect, region, &keeper, pixels, stride);
      y = end;
      progress_update (progress, region, y);
    }
  g_free (pixels);
  alpha_keeper_clear (&keeper);
  g_object_unref (src);
  /* Unreferencing flushes the shadow's tiles to GIMP before the merge. */
  g_object_unref (shadow);
  if (ok)
    {
      gimp_drawable_merge_shadow (region->drawable, TRUE);
      gimp_drawable_update (region->drawable, region->x, region->y,
                            region->width, region->height);
    }
  return ok;
}
