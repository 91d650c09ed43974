/* SPDX-License-Identifier: GPL-3.0-or-later */
/* region_read.c — the read path (region.h): a region's strips, with its
 * selection mask, from the drawable (or its luminance view) to a function
 * or the engine's histogram, and the pixels kept for the apply. */
#include "region.h"
#include "region_parts.h"

#include <string.h>

#include "errors.h"
#include "view.h"

void
core_region_keep (CoreRegion *region)
{
  gsize   bytes = core_region_bytes (region);
  guchar *pixels;

  /* A region of one strip keeps its tiles in the plug-in already
   * (core_region_buffer); float regions apply through the layer's own
   * format where alpha must stay bit for bit (region_write.c's
   * AlphaKeeper); a luminance view's apply reads the pixels as floats
   * too. */
  if (region->kept || region->sample != GH_SAMPLE_U8
      || region->view != CORE_VIEW_PIXELS || bytes <= STRIP_BYTES
      || bytes > KEEP_BYTES || ! (pixels = g_try_malloc (bytes)))
    return;
  region->kept = g_new0 (CoreKept, 1);
  region->kept->pixels = pixels;
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
  rows = core_region_strip_rows (region, core_region_strip_bpp (region));
  if (! core_view_init (&view, region, (gsize) info->width * rows, error))
    return FALSE;
  buffer = core_region_buffer (region);
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
      gint           end = core_region_strip_end (region, y, rows);
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
      core_region_progress_update (progress, region, y);
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
  core_region_luminance_view (&view, CORE_VIEW_PAINT);
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
