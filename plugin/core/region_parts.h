/* SPDX-License-Identifier: GPL-3.0-or-later */
/* region_parts.h — what the region's three files share and no other file
 * sees: region.c (the description, and the strips it is cut into),
 * region_read.c (the read path) and region_write.c (the write path).  Both
 * paths walk the same strips:
 *
 *   rows = core_region_strip_rows (region, core_region_strip_bpp (region));
 *   for (y = info->y; y < info->y + info->height; y = end)
 *     end = core_region_strip_end (region, y, rows); ...
 *     core_region_progress_update (progress, region, end);
 */
#ifndef GH_CORE_REGION_PARTS_H
#define GH_CORE_REGION_PARTS_H

#include "region.h"

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

/* The region's bytes in the format it is read in. */
gsize core_region_bytes (const CoreRegion *region);

/* The drawable's pixels (a new reference): describe's buffer for a region
 * of one strip, else the host's, new for each pass. */
GeglBuffer *core_region_buffer (const CoreRegion *region);

/* Rows per strip of pixels of `bpp` bytes, and the end of the strip that
 * starts at row y (on a tile boundary of the drawable when possible). */
gint core_region_strip_rows (const CoreRegion *region, gsize bpp);
gint core_region_strip_end (const CoreRegion *region, gint y, gint rows);

/* A strip's bytes per pixel at most: the pieces', the drawable's pixels'
 * and, on a view, those read for the luminance. */
gsize core_region_strip_bpp (const CoreRegion *region);

/* The host's progress bar at row y of the region. */
void core_region_progress_update (const CoreProgress *progress,
                                  const CoreRegion *region, gint y);

/* Makes the region its luminance view `view` (region.h,
 * core_region_view); FALSE where it has none or is one already. */
gboolean core_region_luminance_view (CoreRegion *region, CoreView view);

#endif
