/* region.h — pixels between a host's drawable and the engine, in strips.
 *
 * A CoreRegion is the part of a drawable inside the selection, with the
 * format the engine reads it in: perceptual 8-bit for 8-bit perceptual and
 * indexed layers, float for every other precision (perceptual, or linear
 * where the host's GIMP bins linear light: as GIMP's own histogram reads
 * them), so nothing is rounded on the way in or out.
 * Strips of a few MiB stream through, so memory stays bounded whatever the
 * image size:
 *
 *   CoreRegion region;
 *   if (! core_region_init (host, drawable, &region, &error)) ...
 *   core_region_histogram (engine, &region, &hist, &progress, &error);
 *   core_region_apply (&region, &op, &progress, &error);
 *   core_region_clear (&region);
 *
 * A region of one strip reads its drawable through one buffer from init
 * to clear (the host's describe hands it over: CoreDrawableInfo.buffer),
 * so a pass after the first finds its tiles in the plug-in; make a new
 * region to see pixels changed since (a merged apply).
 *
 * A larger region reads its drawable anew at each pass, as its tiles
 * would not stay in the plug-in's bounded tile cache.  An operation that
 * reads the pixels and then applies (equalize, Otsu, CLAHE, matching)
 * calls core_region_keep first: the reading pass then keeps an 8-bit
 * region of up to KEEP_BYTES (128 MiB: a 33 MP RGBA photo) in memory and
 * the apply takes its pixels from there, not from GIMP again, which in
 * GIMP 2.10 is a round trip per 64 x 64 tile (BENCHMARKS.md, issue 14).
 *
 * core_region_read hands every strip (and its selection mask) to a
 * function, for operations that read the pixels in passes of their own
 * (CLAHE's tile histograms).
 *
 * core_region_apply runs an engine operation (gh_op) over every strip and
 * writes the results through the drawable's shadow buffer in the layer's
 * own precision (alpha goes back exactly as it was read, bit for bit on
 * 32-bit and double layers too), then merges it as one undo step; GIMP's
 * merge blends the result with the original by the selection's value.  If
 * it fails nothing is merged and the drawable is unchanged.
 */
#ifndef GH_CORE_REGION_H
#define GH_CORE_REGION_H

#include "host.h"

typedef struct CoreKept CoreKept;

typedef struct
{
  const CoreHost  *host;
  gpointer         drawable;
  CoreDrawableInfo info;
  const Babl      *format;   /* "R'G'B'(A)" or "Y'(A)", u8 or float */
  gh_layout        layout;
  gh_sample        sample;
  gint             bins;     /* 256 for 8-bit storage, 1024 otherwise */
  CoreKept        *kept;     /* core_region_keep's; NULL: none */
} CoreRegion;

/* Where progress goes while a region streams: from start to start + span
 * of the host's progress bar.  NULL: no progress is shown. */
typedef struct
{
  gdouble start;
  gdouble span;
} CoreProgress;

/* Whether work on `pixels` pixels shows a progress bar: above a million,
 * where a call takes long enough to be seen.  Below, a host asks GIMP for
 * none (and passes no CoreProgress): each update is a round trip to GIMP
 * that costs more than a small image's pixels (issue 14). */
gboolean core_progress_shown (gsize pixels);

/* The luminance rule for the region's samples: the host's, except for
 * drawables read in linear light (bins_linear), whose samples are already
 * linear, so their luminance is the weighted sum of the samples as given
 * (GH_LUMINANCE_PERCEPTUAL's arithmetic). */
gh_luminance core_region_luminance (const CoreRegion *region);

/* The engine's description of the region's pixels. */
void core_region_image (const CoreRegion *region, gh_image *image);

/* The drawable's storage format (gimp_drawable_get_format), from the
 * buffer describe gave: no round trip to GIMP. */
const Babl *core_region_layer_format (const CoreRegion *region);

/* The drawable's name, for a message (a new string): asked of the host
 * only when a message is made (issue 14). */
gchar *core_region_name (const CoreRegion *region);

/* FALSE with a calling error when the drawable does not exist. */
gboolean core_region_init (const CoreHost *host, gpointer drawable,
                           CoreRegion *region, GError **error);
void core_region_clear (CoreRegion *region);

/* Makes the region's histogram one of `bins` bins (2..65536), reading it
 * as floats when that is not its own number: a reference histogram
 * binned as the histogram it is compared with. */
void core_region_use_bins (CoreRegion *region, gint bins);

/* Keeps the region's pixels from the next reading pass (core_region_read,
 * core_region_histogram) for core_region_apply, where the region is
 * 8-bit, larger than a strip and at most KEEP_BYTES, and the memory is
 * there; else each pass reads the drawable, as without it. */
void core_region_keep (CoreRegion *region);

/* One strip of the region: `piece` holds rows y .. y + piece->height - 1
 * of the region (0 its top row), with the selection mask when asked for
 * and there is a selection.  FALSE with an error stops the reading. */
typedef gboolean (*CoreStripFunc) (const gh_piece *piece, gint y,
                                   gpointer data, GError **error);

/* Reads the region's strips, top to bottom, into memory from `engine`
 * (gh_engine_alloc_host) and hands each to `func`. */
gboolean core_region_read (gh_engine *engine, const CoreRegion *region,
                           gboolean with_mask, CoreStripFunc func,
                           gpointer data, const CoreProgress *progress,
                           GError **error);

/* The region's histograms, weighted by the selection (and alpha). */
gboolean core_region_histogram (gh_engine *engine, const CoreRegion *region,
                                gh_histogram *hist,
                                const CoreProgress *progress, GError **error);

/* Applies `op` (prepared for the region's layout and sample type, and for
 * an image of the region's size: gh_op_apply_rect gets each strip's place
 * in it) to every strip and merges the result. */
gboolean core_region_apply (const CoreRegion *region, const gh_op *op,
                            const CoreProgress *progress, GError **error);

#endif
