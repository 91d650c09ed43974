/* view.h — a region's luminance view (region.h, CORE_VIEW_PAINT and
 * CORE_VIEW_MOVE): its histogram from the drawable's, and its strips, the
 * pieces of gray luminance (and alpha) the engine gets, made from the
 * drawable's pixels as GIMP's histogram reads them, and the engine's
 * result put back: painted into R, G and B, or each colour moved to it.
 * For region.c's reading and applying passes, a strip at a time.
 *
 *   CoreViewScratch s;
 *   core_view_scratch_init (&s, region, strip_pixels);
 *   core_view_piece (region, buffer, &rect, &s, piece, stride);
 *   ... gh_op_apply_rect on the piece ...
 *   core_view_move (region, &rect, &s, piece, stride, pixels);
 *   core_view_scratch_clear (&s);
 */
#ifndef GH_CORE_VIEW_H
#define GH_CORE_VIEW_H

#include "region.h"

/* Channel `from` of `src` as channel `to` of `dst` (histograms of the
 * same bins and sample type): a luminance view's value is the drawable's
 * luminance, and back. */
void core_view_copy_channel (gh_histogram *dst, gh_channel to,
                             const gh_histogram *src, gh_channel from);

/* What a luminance view's strips are made from: the drawable's pixels as
 * GIMP's histogram reads them (luminance_from), their luminance, and for
 * MOVE the same pixels in linear light; a strip's worth of each (nothing
 * on a region that is no view). */
typedef struct
{
  gfloat *read;
  gfloat *y;
  gfloat *linear;
} CoreViewScratch;

void core_view_scratch_init (CoreViewScratch *s, const CoreRegion *region,
                             gsize pixels);
void core_view_scratch_clear (CoreViewScratch *s);

/* The view's piece of `rect` from `buffer`: rows `stride` apart, each
 * pixel's luminance (8-bit: its bin, as GIMP bins it) and alpha; `s`
 * keeps what was read, for core_view_move. */
void core_view_piece (const CoreRegion *region, GeglBuffer *buffer,
                      const GeglRectangle *rect, CoreViewScratch *s,
                      guchar *piece, gsize stride);

/* The engine's result in `piece` (rows piece_stride apart) put back into
 * `pixels` (packed rows of `rect`, region->source): PAINT makes each
 * pixel's colour samples the gray result; MOVE moves each pixel's colour
 * read by core_view_piece to the result's luminance, hue kept. */
void core_view_paint (const CoreRegion *region, const GeglRectangle *rect,
                      const guchar *piece, gsize piece_stride,
                      gpointer pixels);
void core_view_move (const CoreRegion *region, const GeglRectangle *rect,
                     CoreViewScratch *s, const guchar *piece,
                     gsize piece_stride, gpointer pixels);

#endif
