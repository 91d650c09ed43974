/* SPDX-License-Identifier: GPL-3.0-or-later */
/* view.c — a region's luminance view on its drawable (view.h). */
#include "view.h"

#include <string.h>

#include "errors.h"

gboolean
core_region_view_histogram (const CoreRegion *region,
                            const gh_histogram **hist, gh_histogram *out,
                            GError **error)
{
  const gh_histogram *full = *hist;
  gh_error            err;

  if (region->view == CORE_VIEW_PIXELS)
    return TRUE;
  if (! core_error_from_engine (gh_histogram_reset (out, full->bins,
                                                    full->weight != NULL,
                                                    &err),
                                &err, error))
    return FALSE;
  gh_layer_view_copy_channel (out, GH_CHANNEL_VALUE, full,
                              GH_CHANNEL_LUMINANCE);
  if (region->info.has_alpha)
    gh_layer_view_copy_channel (out, GH_CHANNEL_ALPHA, full,
                                GH_CHANNEL_ALPHA);
  out->channels = gh_layout_channel_mask (region->layout);
  *hist = out;
  return TRUE;
}

gboolean
core_view_init (gh_layer_view *v, const CoreRegion *region, gsize pixels,
                GError **error)
{
  gh_error err;

  memset (v, 0, sizeof *v);
  if (region->view == CORE_VIEW_PIXELS)
    return TRUE;
  return core_error_from_engine (gh_layer_view_init (v, &region->layer,
                                                     (gh_layer_view_kind)
                                                       region->view,
                                                     pixels, &err),
                                 &err, error);
}

void
core_view_piece (const CoreRegion *region, GeglBuffer *buffer,
                 const GeglRectangle *rect, gh_layer_view *v, guchar *piece,
                 gsize stride)
{
  gegl_buffer_get (buffer, rect, 1.0, region->luminance_from, v->read,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  gh_layer_view_piece (v, rect->width, rect->height, piece, stride);
}
