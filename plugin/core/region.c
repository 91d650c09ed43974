/* SPDX-License-Identifier: GPL-3.0-or-later */
/* region.c — the target description (region.h): a drawable's part inside
 * the selection, how it is read (layer/'s rule), its luminance view, and
 * how it is cut into strips; the read path is region_read.c, the write
 * path region_write.c. */
#include "region.h"
#include "region_parts.h"

#include <string.h>

#include "errors.h"

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
gboolean
core_region_luminance_view (CoreRegion *region, CoreView view)
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
    core_region_luminance_view (region, view);
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
gsize
core_region_bytes (const CoreRegion *region)
{
  return (gsize) region->info.width * region->info.height
         * babl_format_get_bytes_per_pixel (region->format);
}

/* The drawable's pixels (a new reference): those describe got where the
 * region is one strip, so a small call asks GIMP for them once and its
 * tiles stay in the plug-in from the histogram's pass to the apply's;
 * else the host's, new for each pass, as tiles kept from a pass larger
 * than GEGL's cache would only push the next pass's out. */
GeglBuffer *
core_region_buffer (const CoreRegion *region)
{
  const CoreDrawableInfo *info = &region->info;

  if (info->buffer && core_region_bytes (region) <= STRIP_BYTES)
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
gint
core_region_strip_rows (const CoreRegion *region, gsize bpp)
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
gint
core_region_strip_end (const CoreRegion *region, gint y, gint rows)
{
  gint tile = region->host->tile_height ();
  gint end = y + rows;

  if (rows >= tile && end % tile)
    end -= end % tile;
  return MIN (end, region->info.y + region->info.height);
}

void
core_region_progress_update (const CoreProgress *progress,
                             const CoreRegion *region, gint y)
{
  if (progress)
    region->host->progress_update (progress->start + progress->span
                                   * (y - region->info.y)
                                   / (gdouble) region->info.height);
}

/* A strip's bytes per pixel at most: the pieces', the drawable's pixels'
 * and, on a view, those read for the luminance. */
gsize
core_region_strip_bpp (const CoreRegion *region)
{
  gsize bpp = MAX (babl_format_get_bytes_per_pixel (region->format),
                   babl_format_get_bytes_per_pixel (region->source));

  if (region->view != CORE_VIEW_PIXELS)
    bpp = MAX (bpp, (gsize) babl_format_get_bytes_per_pixel (region->luminance_from));
  return bpp;
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
