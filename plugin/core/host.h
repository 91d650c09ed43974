/* SPDX-License-Identifier: GPL-3.0-or-later */
/* host.h — what the plug-in's core asks of a GIMP host.
 *
 * The core (plugin/core/) knows GLib, GEGL and babl but no libgimp: every
 * call into GIMP goes through this table, which each host (plugin/gimp2/,
 * plugin/gimp3/) fills once with its own API's calls.  A drawable, an image
 * and a file's handle are the host's own (a gint32 ID packed with
 * GINT_TO_POINTER in GIMP 2.10, a GimpDrawable * in GIMP 3).
 *
 *   static const CoreHost host = { gimp2_describe, gimp2_buffer, ... };
 *   core_histogram (&host, engine, &target, NULL, &hist, &progress, &error);
 *
 * Changes since the interface was first declared (meaning unchanged, what
 * was left open now said): describe's return value and the name of a
 * drawable that does not exist; progress_text restarts the bar; the
 * errors of file_load and file_save say only why (the core words the
 * message around it), and file_load returns an image without a layer
 * with *drawable NULL (the core reports it and closes the image).
 * Added since: threshold, GIMP's own, for binarize; item_facts, the
 * name, group and lock that describe no longer asks (each is a round trip
 * to GIMP that a histogram does not need); describe takes the call's
 * target (CoreTarget), which replaced the facts a run handed over through
 * a hidden static (a call's facts now travel with it); the target
 * carries its drawable's description once made (core_describe: a call
 * describes its drawable once); apply_inside, the batch's operation
 * applied in GIMP's own process where that is exact (no pixels sent to
 * the plug-in and back).
 */
#ifndef GH_CORE_HOST_H
#define GH_CORE_HOST_H

#include <gegl.h>

#include "gh_request.h"
#include "gpu_histogram.h"

/* The precision classes that decide how pixels are read (region.c's
 * rule, the same in GIMP 2.10 and 3): 8-bit perceptual and indexed layers
 * as bytes with 256 bins, 8-bit linear as floats with 256 bins, every
 * other precision as floats with 1024 bins. */
typedef enum
{
  CORE_PRECISION_U8_PERCEPTUAL = 0,
  CORE_PRECISION_U8_LINEAR,
  CORE_PRECISION_OTHER
} CorePrecision;

/* What the core needs to know of a drawable. */
typedef struct
{
  gboolean      exists;      /* FALSE: not a drawable of an open image;
                                nothing below is set then                */
  gboolean      is_gray;
  gboolean      has_alpha;
  gboolean      is_indexed;
  CorePrecision precision;
  gboolean      bins_linear; /* this host's GIMP bins the drawable's linear-
                                light values: GIMP 3 on *_LINEAR precisions,
                                channels and masks (app/core/gimphistogram.c
                                reads a drawable in its own TRC), so it is
                                read as "RGB(A)
                                float" / "Y(A) float" and its luminance is
                                the weighted sum of those samples as given;
                                FALSE: perceptual values (GIMP 2.10 always,
                                GIMP 3 on the other precisions) */
  gint          x, y;        /* the part inside the selection, in drawable */
  gint          width;       /* coordinates (mask_intersect); 0 x 0 when  */
  gint          height;      /* the selection misses it                   */
  gint          offset_x;    /* the drawable's offsets: the selection is  */
  gint          offset_y;    /* in image coordinates (asked only when     */
                             /* has_selection; 0 otherwise)               */
  gboolean      has_selection;
  GeglBuffer   *buffer;      /* the drawable's pixels where describe got
                                them to learn the above from their format
                                and size (a reference, dropped by
                                core_drawable_info_clear): the region
                                reads and applies through it, so the host
                                is asked for them once; NULL: the core asks
                                buffer () */
} CoreDrawableInfo;

void core_drawable_info_clear (CoreDrawableInfo *info);

/* Whether `format` holds linear light: babl marks a non-linear model's
 * name with ' or ~; a palette's colours are 8-bit non-linear. */
gboolean core_format_is_linear (const Babl *format);

/* A call's target: its drawable, and what the host's run asked GIMP of it
 * just before handing it to the core, once (`asked`): its image (the run
 * checks that the drawable is in the image given) and the part inside the
 * selection (its size is the work the engine and the progress bar are
 * chosen for).  The run makes it once and passes it down; describe takes
 * those facts from it instead of asking GIMP again.  A target made by
 * core_target (a reference, a batch's file, a preview's scratch layer, a
 * dialog's apply, which must see a selection changed while it was open)
 * has none: describe asks GIMP.  A call that makes several regions of its
 * drawable (the dialog flow: histogram, refusal, preview, a repeat's
 * apply; a batch's file: histogram and apply) describes it once
 * (core_target_describe, region.h) and passes that description down in
 * `described`: each region copies it instead of describing again. */
typedef struct
{
  gpointer drawable;
  gboolean asked;      /* FALSE: none of the below is known */
  gpointer image;      /* the host's handle of the drawable's image */
  gboolean intersects; /* gimp_drawable_mask_intersect's answer */
  gint     x, y, width, height;
  const CoreDrawableInfo *described; /* NULL: not described yet */
} CoreTarget;

/* A target of `drawable` without facts. */
CoreTarget core_target (gpointer drawable);

/* What both hosts' describe learn alike, set in `info`: that the drawable
 * exists, its `buffer` (taken: core_drawable_info_clear drops it), what
 * the buffer's storage format tells (gray, alpha and indexed, a palette's
 * colours not gray; the precision class by the samples' type and TRC, a
 * palette 8-bit perceptual) and the part inside the selection from
 * `facts` (asked: by the run, or by describe).  Returns that format. */
const Babl *core_drawable_info_fill (CoreDrawableInfo *info,
                                     GeglBuffer       *buffer,
                                     const CoreTarget *facts);

typedef struct
{
  /* Which luminance this GIMP's histogram bins. */
  gh_luminance luminance;

  /* Fills `info` (cleared or zeroed before) for target->drawable;
   * returns info->exists.  Every PDB call is a round trip to GIMP (about
   * 0.1 ms): a host asks what one call of a procedure needs, once; what
   * target->asked says the run asked is taken from it. */
  gboolean    (*describe)         (const CoreTarget *target,
                                   CoreDrawableInfo *info);
  /* What only a message or an apply's check needs, asked there and not
   * by describe: the drawable's name (a new string; where describe found
   * no drawable of an open image, `exists` FALSE, the host's word for it
   * without asking GIMP: GIMP 2.10 its ID, as "drawable <name>" says),
   * whether it is a layer group and whether its pixels are locked (only
   * asked where it exists).  An output NULL is not asked. */
  void        (*item_facts)       (gpointer drawable, gboolean exists,
                                   gchar **name, gboolean *is_group,
                                   gboolean *locked);
  /* New references (g_object_unref them); the selection is the image's
   * selection channel, asked for only when info.has_selection. */
  GeglBuffer *(*buffer)           (gpointer drawable);
  GeglBuffer *(*shadow_buffer)    (gpointer drawable);
  GeglBuffer *(*selection_buffer) (gpointer drawable);
  /* The drawable's storage format (gimp_drawable_get_format). */
  const Babl *(*format)           (gpointer drawable);
  /* Merges the shadow buffer as one undo step and updates the rectangle. */
  void        (*merge_shadow)     (gpointer drawable, gint x, gint y,
                                   gint width, gint height);
  gint        (*tile_height)      (void);

  /* Progress: a new text, with the bar back at 0 (gimp_progress_init),
   * and the fraction done. */
  void        (*progress_text)    (const gchar *text);
  void        (*progress_update)  (gdouble fraction);

  /* Files, for the batch: load (the image and its active drawable, or
   * NULL with an error), save under `path` (format from the extension),
   * and close (delete the image).  Their errors say why only (GIMP's
   * PDB error): the core prefixes "cannot load: " and "cannot save
   * '<path>': ".  An image loaded without a layer comes back with
   * *drawable NULL; the core closes it. */
  gpointer    (*file_load)        (const gchar *path, gpointer *drawable,
                                   GError **error);
  gboolean    (*file_save)        (gpointer image, gpointer drawable,
                                   const gchar *path, GError **error);
  void        (*image_close)      (gpointer image);

  /* For the dialog's preview: a new image (undo off) holding one layer of
   * the drawable's type and precision, width x height; the image (close
   * it with image_close) and the layer in *layer. */
  gpointer    (*scratch_layer)    (gpointer drawable, gint width,
                                   gint height, gpointer *layer);

  /* GIMP's own threshold (gimp-drawable-threshold; GIMP 3: its
   * gimp:threshold filter, merged) of the drawable's part
   * inside the selection, in GIMP's process, as one undo step: colour
   * white where the pixel's `channel` (GimpHistogramChannel) lies in
   * low..high (0..1), else black; alpha kept.  Binarize calls it only
   * where that gives exactly its own pixels (operations.c). */
  gboolean    (*threshold)        (gpointer drawable, gint channel,
                                   gdouble low, gdouble high,
                                   GError **error);

  /* The batch's request applied to the target's drawable inside GIMP, as
   * one undo step with no pixel through the plug-in, where that gives
   * exactly the core's own result (GIMP 3: the GEGL module's filter,
   * merged, by the rule the procedures use: plugin/gimp3/filter.h).
   * TRUE with *applied FALSE: it cannot here, nothing changed, the core
   * applies.  FALSE: it failed (error says why), nothing changed.  NULL:
   * the core always applies (GIMP 2.10). */
  gboolean    (*apply_inside)     (const CoreTarget *target,
                                   const gh_request *request,
                                   gboolean *applied, GError **error);
} CoreHost;

/* Fills `info` (cleared or zeroed before) for target->drawable: a copy of
 * target->described (its buffer a new reference) where the call described
 * it already, else host->describe.  Returns info->exists. */
gboolean core_describe (const CoreHost *host, const CoreTarget *target,
                        CoreDrawableInfo *info);

#endif
