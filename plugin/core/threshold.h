/* SPDX-License-Identifier: GPL-3.0-or-later */
/* threshold.h — binarize through GIMP's own threshold, the one operation
 * whose pixel pass GIMP itself can do exactly: where it gives the engine's
 * pixels, no pixel is sent to the plug-in and back (the apply's one named
 * special case, apply.c).
 *
 *   gboolean done;
 *   if (! core_threshold_try (&region, channel, bin, progress, &done,
 *                             &error)) ...
 *   if (! done) ... the engine's binarize over the region
 */
#ifndef GH_CORE_THRESHOLD_H
#define GH_CORE_THRESHOLD_H

#include "region.h"

/* Whether GIMP's threshold (CoreHost.threshold) gives exactly the
 * engine's binarize of `channel` at `bin` on this region: 8-bit sRGB
 * layers read as stored, every channel but the luminance (threshold.c
 * says why). */
gboolean core_threshold_exact (const CoreRegion *region, gint channel,
                               gint bin);

/* Binarizes the region at `bin` of its histogram by GIMP's threshold
 * where that is exact (*done TRUE), else leaves it to the caller (*done
 * FALSE).  GPU_HISTOGRAM_BINARIZE (testing only: doc/colour-and-
 * precision.md) =pixels always leaves it, =gimp refuses what GIMP's
 * threshold would not do, so a test knows which path ran. */
gboolean core_threshold_try (const CoreRegion *region, gint channel,
                             gint bin, const CoreProgress *progress,
                             gboolean *done, GError **error);

#endif
