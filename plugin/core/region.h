/* SPDX-License-Identifier: GPL-3.0-or-later */
/* region.h — pixels between a host's drawable and the engine, in strips.
 * One module's face over three files, an idea each: the target's
 * description (region.c: init, view, bins, the strips it is cut into),
 * the read path (region_read.c: keep, read, histogram) and the write path
 * (region_write.c: apply, apply_to); region_parts.h is what they share.
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
 *   core_region_histogram (engine, &region, 0, &hist, &progress, &error);
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
 * GIMP 2.10 is a round trip per 64 x 64 tile (BENCHMARKS.md, 2026-11-24).
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
 *
 * Colour spaces.  How a drawable is read is layer/layer_format.h's rule,
 * the one the GEGL module follows too: pixels in the drawable's own
 * colour space (its storage format's: the image's colour profile in GIMP
 * 3; GIMP 2.10's plug-ins see none) and tone curve, so babl converts
 * nothing but the sample type, as GIMP's own histogram reads them
 * (app/core/gimphistogram.c).  Where GIMP 3's luminance is babl's (a
 * colour drawable in a space other than sRGB: region->luminance_from), a
 * luminance question goes to the engine as a gray image of those
 * luminances: the region's luminance view (core_region_view,
 * layer/layer_view.h).  Its histogram is the drawable's luminance
 * histogram (core_region_histogram puts it in place of the engine's), and
 * an operation applied to it paints its gray result into the colour
 * (binarize, posterize) or moves each colour to it keeping the hue, in the
 * space's own linear light (equalize, CLAHE, match on luminance).
 */
#ifndef GH_CORE_REGION_H
#define GH_CORE_REGION_H

#include "host.h"
#include "layer_view.h"

typedef struct CoreKept CoreKept;

/* What the region hands the engine: the drawable's pixels, or its
 * luminance view (gray, and alpha, pieces of its luminance), whose
 * apply paints the result into R, G and B or moves each colour to the
 * result's luminance. */
typedef enum
{
  CORE_VIEW_PIXELS = GH_LAYER_VIEW_NONE,
  CORE_VIEW_PAINT = GH_LAYER_VIEW_PAINT,
  CORE_VIEW_MOVE = GH_LAYER_VIEW_MOVE
} CoreView;

typedef struct
{
  const CoreHost  *host;
  gpointer         drawable;
  CoreDrawableInfo info;
  gh_layer         layer;    /* how the drawable is read (layer_format.h);
                                the four below are its fields, kept here
                                for the core's operations */
  const Babl      *space;    /* the drawable's colour space */
  const gchar     *trc;      /* its tone curve in babl's names: "'" non-
                                linear, "~" perceptual, "" linear */
  const Babl      *source;   /* the drawable's pixels as read and written:
                                "R'G'B'(A)" or "Y'(A)" (trc), u8 or
                                float, in space */
  /* GIMP 3, a colour drawable in a space other than sRGB: its pixels as
   * GIMP's histogram reads them ("R'G'B'(A) float" in space, trc), whose
   * babl "Y float" is their luminance; NULL: the engine's rule. */
  const Babl      *luminance_from;
  const Babl      *format;   /* the pieces the engine gets: source, or on a
                                luminance view "Y(A)" of the sample type */
  gh_layout        layout;   /* of the pieces */
  gh_sample        sample;
  gint             bins;     /* 256 for 8-bit storage, 1024 otherwise */
  CoreView         view;
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
 * that costs more than a small image's pixels. */
gboolean core_progress_shown (gsize pixels);

/* The luminance rule for the region's samples (layer_format.h): the
 * host's, except for drawables read in linear light (bins_linear).  (A
 * region whose luminance is babl's answers luminance questions through
 * its view.) */
gh_luminance core_region_luminance (const CoreRegion *region);

/* The engine's description of the region's pixels. */
void core_region_image (const CoreRegion *region, gh_image *image);

/* The drawable's storage format (gimp_drawable_get_format), from the
 * buffer describe gave: no round trip to GIMP. */
const Babl *core_region_layer_format (const CoreRegion *region);

/* The drawable's name, for a message (a new string): asked of the host
 * only when a message is made: a round trip to GIMP that a call without
 * one does not pay. */
gchar *core_region_name (const CoreRegion *region);

/* FALSE with a calling error when the drawable does not exist. */
gboolean core_region_init (const CoreHost *host, const CoreTarget *target,
                           CoreRegion *region, GError **error);
void core_region_clear (CoreRegion *region);

/* Makes the region's histogram one of `bins` bins (2..65536), reading it
 * as floats when that is not its own number: a reference histogram
 * binned as the histogram it is compared with. */
void core_region_use_bins (CoreRegion *region, gint bins);

/* For `request`, on a region as made (its pixels), before anything is
 * read (core_region_keep keeps nothing of a view): where it works on the
 * luminance and the region's is babl's (region->luminance_from), the
 * region becomes its luminance view, PAINT for a channel, MOVE for a
 * mode, and the request's channel or mode becomes the one to use on its
 * pieces (value, each channel): layer/'s rule, gh_layer_view_of.  Else
 * both stay as they are. */
void core_region_view (CoreRegion *region, gh_request *request);

/* The histogram the region's pieces make, from *hist, the drawable's own
 * (core_region_histogram of its pixels): that one, or on a luminance view
 * `out` (gh_histogram_init'ed), a copy with its luminance as the value
 * channel, then in *hist. */
gboolean core_region_view_histogram (const CoreRegion *region,
                                     const gh_histogram **hist,
                                     gh_histogram *out, GError **error);

/* ---- The read path (region_read.c) ---- */

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

/* The region's histograms of `channels` (bit mask of 1 << gh_channel, 0:
 * every channel; the others left out, gh_image.channels), weighted by
 * the selection (and alpha). */
gboolean core_region_histogram (gh_engine *engine, const CoreRegion *region,
                                guint channels, gh_histogram *hist,
                                const CoreProgress *progress, GError **error);

/* ---- The write path (region_write.c) ---- */

/* Applies `op` (prepared for the region's layout and sample type, and for
 * an image of the region's size: gh_op_apply_rect gets each strip's place
 * in it) to every strip and merges the result. */
gboolean core_region_apply (const CoreRegion *region, const gh_op *op,
                            const CoreProgress *progress, GError **error);

/* The same for the part `rect` of the region (drawable coordinates,
 * inside the region), written into `dest` at (dest_x, dest_y) as the
 * drawable's pixels are stored (`dest` a buffer of the same format):
 * CLAHE's preview of one rectangle, mapped at its place in the region. */
gboolean core_region_apply_to (const CoreRegion *region, const gh_op *op,
                               const GeglRectangle *rect, GeglBuffer *dest,
                               gint dest_x, gint dest_y, GError **error);

/* ---- The target description (region.c), for several regions ---- */

/* The target's drawable described once for a call that makes several
 * regions of it (host.h): `info` gets the description (as
 * core_region_init's region: FALSE with its error when the drawable does
 * not exist; core_drawable_info_clear it after the call), *described the
 * target carrying it, whose regions copy it instead of describing again.
 * Only while the drawable is as described: a region that must see pixels
 * merged since, or a selection changed since, is made of `target`. */
gboolean core_target_describe (const CoreHost *host, const CoreTarget *target,
                               CoreTarget *described, CoreDrawableInfo *info,
                               GError **error);

#endif
