/* pixels.h — pixels between a GIMP drawable and the engine, in strips.
 *
 * A PixelsRegion is the part of a drawable inside the selection, with the
 * format the engine reads it in: perceptual 8-bit for 8-bit perceptual and
 * indexed layers, perceptual float for every other precision (as GIMP's own
 * histogram reads them), so nothing is rounded on the way in or out.
 * Strips of at most a few MiB stream through, so memory stays bounded
 * whatever the image size:
 *
 *   PixelsRegion region;
 *   if (! pixels_region_init (drawable, &region, &error)) ...
 *   pixels_histogram (engine, &region, &hist, NULL, &error);
 *   pixels_apply (&region, my_strip_func, my_data, NULL, &error);
 *
 * pixels_apply hands strips to the strip function in the region's format
 * and writes the results through the drawable's shadow buffer in the
 * layer's own precision (float results keep 16-bit and float layers at
 * their precision; alpha goes back exactly as it was read, bit for bit on
 * 32-bit and double layers too), and merges it as one undo step; GIMP's merge blends the result with the original by
 * the selection's value (Replace mode, as for every GIMP filter).  If it
 * fails nothing is merged and the drawable is unchanged.
 */
#ifndef GH_PLUGIN_PIXELS_H
#define GH_PLUGIN_PIXELS_H

#include <libgimp/gimp.h>

#include "gpu_histogram.h"

typedef struct
{
  gint32      drawable;
  gint32      selection; /* the image's selection channel; -1: none      */
  gint        x, y;      /* the part inside the selection, in drawable   */
  gint        width;     /* coordinates (gimp_drawable_mask_intersect);  */
  gint        height;    /* width and height are 0 when it misses        */
  gint        offset_x;  /* the drawable's offsets: the selection is in  */
  gint        offset_y;  /* image coordinates                            */
  const Babl *format;    /* "R'G'B'(A)" or "Y'(A)", u8 or float           */
  gh_layout   layout;
  gh_sample   sample;    /* U8 (8-bit perceptual, indexed) or F32         */
  gint        bins;      /* GIMP's: 256 for 8-bit storage, 1024 otherwise */
} PixelsRegion;

/* Where gimp_progress_update goes while a region streams: from start to
 * start + span.  NULL: no progress is shown. */
typedef struct
{
  gdouble start;
  gdouble span;
} PixelsProgress;

/* Rewrites one strip in place: `rows` rows of `width` pixels, `stride`
 * bytes apart, in the region's format (guchar or gfloat samples). */
typedef gboolean (*PixelsStripFunc) (const PixelsRegion *region,
                                     gpointer pixels, gsize width, gsize rows,
                                     gsize stride, gpointer data,
                                     GError **error);

/* Indexed drawables are read through their palette (as RGB). */
gboolean pixels_region_init (gint32 drawable, PixelsRegion *region,
                             GError **error);

/* The region's histograms, weighted by the selection (and alpha). */
gboolean pixels_histogram (gh_engine *engine, const PixelsRegion *region,
                           gh_histogram *hist, const PixelsProgress *progress,
                           GError **error);

/* Runs `func` over every strip of the region and merges the result. */
gboolean pixels_apply (const PixelsRegion *region, PixelsStripFunc func,
                       gpointer data, const PixelsProgress *progress,
                       GError **error);

#endif
