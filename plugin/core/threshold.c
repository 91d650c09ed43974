/* SPDX-License-Identifier: GPL-3.0-or-later */
/* threshold.c — binarize through GIMP's own threshold (threshold.h). */
#include "threshold.h"

#include <string.h>

#include "errors.h"

/* The least float GIMP's threshold must see for a pixel to be above
 * `bin`: the float the histogram bins just above it (gh_bin_f32's
 * rounding, as gh_pixel_bin_f32_with applies it).  Binning is monotonic, so
 * v >= this  <=>  v's bin > bin, for every float v; the bit patterns of
 * floats 0..1 are ordered as the floats. */
static gdouble
threshold_low (gint bin, gint bins)
{
  guint32 lo = 0, hi = 0x3f800000; /* 0.0f, 1.0f */
  gfloat  v;

  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      memcpy (&v, &mid, sizeof v);
      if (gh_pixel_bin_f32_with (GH_LAYOUT_GRAY, &v, GH_CHANNEL_VALUE, bins,
                                 GH_LUMINANCE_PERCEPTUAL) > bin)
        hi = mid;
      else
        lo = mid + 1;
    }
  memcpy (&v, &lo, sizeof v);
  return v;
}

/* GIMP's own threshold (CoreHost.threshold) gives exactly
 * gh_op_binarize's pixels here, so the pixels need not leave GIMP.  GIMP's
 * threshold (app/operations/gimpoperationthreshold.c) reads the layer as
 * "R'G'B'A float" in the layer's own space, takes value (max of R, G, B),
 * red, green, blue or alpha and writes 1.0 where it is in low..high, else
 * 0, alpha kept; GIMP merges that with the selection as it merges a
 * plug-in's shadow buffer.  On a layer stored exactly as the region reads
 * it, 8-bit ("R'G'B'(A) u8" or "Y'(A) u8", sRGB), GIMP sees the floats
 * k / 255 the histogram bins, so low = threshold_low and high = 1 give our
 * pixels.  babl picks its u8-to-float path per machine (CPU, timing), so
 * GIMP may see k / 255 off by an ulp; a level sits half a level from any
 * bin edge, so that moves no sample, but a luminance (a weighted sum) can
 * land within an ulp of an edge: on one CI machine GIMP 2.10's threshold
 * put 3 of tests/plugin_threshold.py's edge colours across it.  In another
 * colour space (GIMP 3, a profile) babl's u8-to-float can go through
 * linear light and the space's curve: up to 0.4 of a level off in Adobe
 * RGB (babl 0.1.114, measured), too near an edge.  So luminance, other
 * precisions and spaces keep to the pixel path.  That test checks the rest
 * on every 8-bit colour, level and threshold against the pixel path and
 * the engine. */
gboolean
core_threshold_exact (const CoreRegion *region, gint channel, gint bin)
{
  const CoreHost *host = region->host;

  return host->threshold && region->sample == GH_SAMPLE_U8
         && bin < region->bins - 1 && channel != GH_CHANNEL_LUMINANCE
         && region->space == babl_space ("sRGB")
         && core_region_layer_format (region) == region->format;
}

gboolean
core_threshold_try (const CoreRegion *region, gint channel, gint bin,
                    const CoreProgress *progress, gboolean *done,
                    GError **error)
{
  const gchar *path = g_getenv ("GPU_HISTOGRAM_BINARIZE");

  *done = g_strcmp0 (path, "pixels") != 0
          && core_threshold_exact (region, channel, bin);
  if (! *done && g_strcmp0 (path, "gimp") == 0)
    {
      g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED,
                   "GPU_HISTOGRAM_BINARIZE=gimp: GIMP's threshold would not "
                   "give this binarize's pixels");
      return FALSE;
    }
  /* GIMP changes nothing where the selection misses the drawable. */
  if (! *done || region->info.height == 0)
    return TRUE;
  if (! region->host->threshold (region->drawable, channel,
                                 threshold_low (bin, region->bins), 1.0,
                                 error))
    return FALSE;
  if (progress)
    region->host->progress_update (progress->start + progress->span);
  return TRUE;
}
