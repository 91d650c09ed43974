/* region.c — pixels between a host's drawable and the engine, in strips. */
#include "region.h"

#include <string.h>

#include "errors.h"

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
  return region->info.bins_linear ? GH_LUMINANCE_PERCEPTUAL
                                  : region->host->luminance;
}

void
core_region_image (const CoreRegion *region, gh_image *image)
{
  image->layout = region->layout;
  image->sample = region->sample;
  image->bins = region->bins;
  image->has_mask = region->info.has_selection;
  image->luminance = core_region_luminance (region);
}

/* The format a region is read in (region->layout, sample, info). */
static const Babl *
read_format (const CoreRegion *region)
{
  /* By sample type (U8, F32) and layout (gray, gray+alpha, RGB, RGBA);
   * linear-light floats for drawables binned in linear light. */
  static const gchar *const linear[4] = {
    "Y float", "YA float", "RGB float", "RGBA float",
  };
  static const gchar *const formats[2][4] = {
    { "Y' u8", "Y'A u8", "R'G'B' u8", "R'G'B'A u8" },
    { "Y' float", "Y'A float", "R'G'B' float", "R'G'B'A float" },
  };

  return babl_format (region->info.bins_linear
                      ? linear[region->layout - 1]
                      : formats[region->sample == GH_SAMPLE_F32]
                               [region->layout - 1]);
}

gboolean
core_region_init (const CoreHost *host, gpointer drawable, CoreRegion *region,
                  GError **error)
{
  CoreDrawableInfo *info = &region->info;

  memset (region, 0, sizeof *region);
  region->host = host;
  region->drawable = drawable;
  if (! host->describe (drawable, info) || ! info->exists)
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
  if (info->is_gray)
    region->layout = info->has_alpha ? GH_LAYOUT_GRAYA : GH_LAYOUT_GRAY;
  else
    region->layout = info->has_alpha ? GH_LAYOUT_RGBA : GH_LAYOUT_RGB;
  /* GIMP's histogram reads a layer as float: perceptual in GIMP 2.10,
   * in the layer's own TRC in GIMP 3 (bins_linear: linear precisions).
   * Only 8-bit perceptual storage (indexed images are that too) gives
   * exactly the same bins through bytes; 8-bit linear would round on its
   * way to perceptual bytes, and higher precisions would lose bits. */
  region->sample = info->precision == CORE_PRECISION_U8_PERCEPTUAL
                   && ! info->bins_linear ? GH_SAMPLE_U8 : GH_SAMPLE_F32;
  region->bins = info->precision == CORE_PRECISION_OTHER ? 1024 : 256;
  region->format = read_format (region);
  return TRUE;
}

void
core_region_use_bins (CoreRegion *region, gint bins)
{
  if (bins == region->bins)
    return;
  region->sample = GH_SAMPLE_F32;
  region->bins = bins;
  region->format = read_format (region);
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
   * where alpha must stay bit for bit (AlphaKeeper). */
  if (region->kept || region->sample != GH_SAMPLE_U8 || bytes <= STRIP_BYTES
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

gboolean
core_region_read (gh_engine *engine, const CoreRegion *region,
                  gboolean with_mask, CoreStripFunc func, gpointer data,
                  const CoreProgress *progress, GError **error)
{
  const CoreDrawableInfo *info = &region->info;
  GeglBuffer             *buffer, *mask_buffer = NULL;
  /* The selection is stored as "Y u8" in 8-bit images, so bytes are its
   * exact values there; GIMP reads it as "Y float" otherwise. */
  const Babl *mask_format = babl_format (region->sample == GH_SAMPLE_U8
                                         ? "Y u8" : "Y float");
  gpointer    pixels, mask = NULL;
  gsize       stride = (gsize) info->width
                       * babl_format_get_bytes_per_pixel (region->format);
  gsize       mask_stride = (gsize) info->width
                            * babl_format_get_bytes_per_pixel (mask_format);
  gint        rows;
  gboolean    ok = TRUE;

  if (info->height == 0)
    return TRUE;
  with_mask = with_mask && info->has_selection;
  rows = strip_rows (region, babl_format_get_bytes_per_pixel (region->format));
  buffer = region_buffer (region);
  /* Page-locked when the engine is on the GPU: strips then go straight
   * to the device. */
  pixels = gh_engine_alloc_host (engine, stride * rows);
  if (with_mask)
    {
      mask_buffer = region->host->selection_buffer (region->drawable);
      mask = gh_engine_alloc_host (engine, mask_stride * rows);
    }
  for (gint y = info->y; ok && y < info->y + info->height;)
    {
      gint     end = strip_end (region, y, rows);
      gh_piece piece = { pixels, info->width, end - y, stride,
                         mask, mask_stride };

      gegl_buffer_get (buffer,
                       GEGL_RECTANGLE (info->x, y, info->width, end - y),
                       1.0, region->format, pixels, stride, GEGL_ABYSS_NONE);
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

gboolean
core_region_histogram (gh_engine *engine, const CoreRegion *region,
                       gh_histogram *hist, const CoreProgress *progress,
                       GError **error)
{
  gh_image image;
  gh_error err;
  gboolean ok, finished;

  core_region_image (region, &image);
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
                   const Babl *layer_format, gint rows)
{
  const Babl *type = babl_format_get_type (layer_format, 0);

  memset (k, 0, sizeof *k);
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
  k->read = g_malloc (k->bpp * region->info.width * rows);
  k->written = g_malloc (k->bpp * region->info.width * rows);
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
           const CoreRegion *region, AlphaKeeper *k, gpointer pixels,
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
core_region_apply (const CoreRegion *region, const gh_op *op,
                   const CoreProgress *progress, GError **error)
{
  const CoreHost         *host = region->host;
  const CoreDrawableInfo *info = &region->info;
  GeglBuffer             *src, *shadow;
  gpointer                pixels;
  gsize                   stride = (gsize) info->width
                                   * babl_format_get_bytes_per_pixel (
                                       region->format);
  const Babl             *layer_format;
  AlphaKeeper             keeper;
  guchar                 *kept = NULL;
  gh_error                err;
  gint                    rows;
  gboolean                ok = TRUE;

  if (info->height == 0)
    return TRUE; /* the selection misses the drawable: nothing to change */
  layer_format = core_region_layer_format (region);
  /* Sized by the wider of the two formats, so the strips held stay a few
   * MiB each. */
  rows = strip_rows (region,
                     MAX (babl_format_get_bytes_per_pixel (region->format),
                          babl_format_get_bytes_per_pixel (layer_format)));
  alpha_keeper_init (&keeper, region, layer_format, rows);
  /* The pixels a reading pass kept are changed where they lie, so they
   * serve this apply only. */
  if (region->kept && region->kept->filled && ! keeper.format)
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
        strip_get (src, rect, region, &keeper, pixels, stride);
      /* At the strip's place in the region: CLAHE's mapping depends on
       * it. */
      ok = core_error_from_engine (gh_op_apply_rect (op, pixels, 0,
                                                     y - info->y,
                                                     info->width, end - y,
                                                     stride, &err),
                                   &err, error);
      if (ok)
        strip_set (shadow, rect, region, &keeper, pixels, stride);
      y = end;
      progress_update (progress, region, y);
    }
  if (! kept)
    g_free (pixels);
  alpha_keeper_clear (&keeper);
  g_clear_object (&src);
  /* Unreferencing flushes the shadow's tiles to the host before the
   * merge. */
  g_object_unref (shadow);
  if (ok)
    host->merge_shadow (region->drawable, info->x, info->y, info->width,
                        info->height);
  return ok;
}
