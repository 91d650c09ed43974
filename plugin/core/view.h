/* SPDX-License-Identifier: GPL-3.0-or-later */
/* view.h — a region's luminance view (region.h, CORE_VIEW_PAINT and
 * CORE_VIEW_MOVE) on the region's drawable: its histogram from the
 * drawable's, and its strips read from the drawable for layer_view.h,
 * which makes the pieces the engine gets and puts the result back (the
 * GEGL module runs the same).  For the region's reading and applying
 * passes (region_read.c, region_write.c), a strip at a time.
 *
 *   gh_layer_view v;
 *   if (! core_view_init (&v, region, strip_pixels, error)) ...
 *   core_view_piece (region, buffer, &rect, &v, piece, stride);
 *   ... gh_op_apply_rect on the piece ...
 *   gh_layer_view_move (&v, rect.width, rect.height, piece, stride, pixels);
 *   gh_layer_view_clear (&v);
 */
#ifndef GH_CORE_VIEW_H
#define GH_CORE_VIEW_H

#include "layer_view.h"
#include "region.h"

/* `v` for strips of up to `pixels` of the region's view (zeroed, nothing
 * held, on a region that is no view); FALSE with an error when memory is
 * short.  gh_layer_view_clear frees it. */
gboolean core_view_init (gh_layer_view *v, const CoreRegion *region,
                         gsize pixels, GError **error);

/* The view's piece of `rect` from `buffer` (gh_layer_view_piece): rows
 * `stride` apart; `v` keeps what was read, for gh_layer_view_move. */
void core_view_piece (const CoreRegion *region, GeglBuffer *buffer,
                      const GeglRectangle *rect, gh_layer_view *v,
                      guchar *piece, gsize stride);

#endif
