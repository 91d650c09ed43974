/* SPDX-License-Identifier: GPL-3.0-or-later */
/* operations.c — analyse, equalize, binarize, export one drawable. */
#define _POSIX_C_SOURCE 200809L /* fdopen() */

#include "operations.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "errors.h"
#include "files.h"

gboolean
core_engine_ensure (gh_engine **engine, gsize expected_pixels, GError **error)
{
  gh_options options;
  gh_error   err;

  if (*engine)
    return TRUE;
  gh_options_init (&options);
  options.quiet = 1;
  options.expected_pixels = expected_pixels;
  return core_error_from_engine (gh_engine_create (&options, engine, &err),
                                 &err, error);
}

gchar *
core_engine_fallback_note (const gh_engine *engine)
{
  if (! engine || ! gh_engine_gpu_failed (engine))
    return NULL;
  return g_strdup_printf ("the GPU could not be used: %s",
                          gh_engine_fallback_reason (engine));
}

gboolean
core_histogram (const CoreHost *host, gh_engine *engine, const CoreTarget *target,
                const gh_request *request, gh_histogram *hist,
                const CoreProgress *progress, GError **error)
{
  CoreRegion region;
  gboolean   ok;

  if (! core_region_init (host, target, &region, error))
    return FALSE;
  ok = core_region_histogram (engine, &region,
                              request ? gh_request_channels (request,
                                                             region.layout)
                                      : 0,
                              hist, progress, error);
  core_region_clear (&region);
  return ok;
}

/* Refuses, in the drawable's name, what it cannot do. */
static gboolean
set_drawable_error (GError **error, const CoreRegion *region,
                    const gchar *why)
{
  gchar *name = core_region_name (region);

  g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED, "'%s' %s", name, why);
  g_free (name);
  return FALSE;
}

/* Group and lock are asked here, before an apply, not by describe: a
 * histogram needs neither, and each is a round trip to GIMP. */
static gboolean
check_changeable (const CoreRegion *region, GError **error)
{
  gboolean is_group = FALSE;
  gboolean locked = FALSE;

  region->host->item_facts (region->drawable, TRUE, NULL, &is_group,
                            &locked);
  if (is_group)
    return set_drawable_error (error, region,
                               "is a layer group; pick one of its layers");
  if (region->info.is_indexed)
    return set_drawable_error (error, region,
                               "is indexed: its colours come from a "
                               "palette; convert the image to RGB or "
                               "grayscale first (Image > Mode)");
  if (locked)
    return set_drawable_error (error, region, "has its pixels locked");
  return TRUE;
}

gboolean
core_check_changeable (const CoreHost *host, const CoreTarget *target,
                       GError **error)
{
  CoreRegion region;
  gboolean   ok;

  ok = core_region_init (host, target, &region, error)
       && check_changeable (&region, error);
  core_region_clear (&region);
  return ok;
}

gboolean
core_changeable_region (const CoreHost *host, const CoreTarget *target,
                        CoreRegion *region, GError **error)
{
  if (! core_region_init (host, target, region, error))
    return FALSE;
  if (check_changeable (region, error))
    return TRUE;
  core_region_clear (region);
  return FALSE;
}

guint
core_operation_channels (const CoreRegion *region, gh_operation operation,
                         gint channel, gint mode)
{
  gh_request request;

  gh_request_defaults (&request, operation);
  request.channel = channel;
  request.mode = (gh_equalize_mode) mode;
  return gh_request_channels (&request, region->layout);
}

gboolean
core_ensure_histogram (gh_engine *engine, const CoreRegion *region,
                       guint channels, const gh_histogram **hist,
                       gh_histogram *own,
                       const CoreProgress *progress,
                       CoreProgress *apply_progress, GError **error)
{
  CoreProgress half = { 0, 0 };

  if (progress)
    *apply_progress = *progress;
  if (*hist && (*hist)->bins != region->bins)
    {
      g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                   "the histogram given has %d bins, the drawable's has %d",
                   (*hist)->bins, region->bins);
      return FALSE;
    }
  if (*hist)
    return core_region_view_histogram (region, hist, own, error);
  if (progress)
    {
      half.start = progress->start;
      half.span = progress->span / 2;
      apply_progress->start = half.start + half.span;
      apply_progress->span = half.span;
    }
  if (! core_region_histogram (engine, region, channels, own,
                               progress ? &half : NULL, error))
    return FALSE;
  *hist = own;
  return TRUE;
}

gboolean
core_equalize (const CoreHost *host, gh_engine *engine, const CoreTarget *target,
               gint mode, const gh_histogram *hist,
               const CoreProgress *progress, GError **error)
{
  CoreRegion   region;
  CoreProgress apply_progress;
  gh_histogram own;
  gh_op        op;
  gh_error     err;
  gboolean     ok;

  if (! core_changeable_region (host, target, &region, error))
    return FALSE;
  mode = core_region_view_mode (&region, mode);
  if (! hist)
    core_region_keep (&region);
  gh_histogram_init (&own);
  ok = core_ensure_histogram (engine, &region,
                              core_operation_channels (&region,
                                                       GH_REQ_EQUALIZE, 0,
                                                       mode),
                              &hist, &own, progress, &apply_progress, error)
       && core_error_from_engine (gh_op_equalize (&op, hist, region.layout,
                                                  region.sample,
                                                  core_region_luminance (&region),
                                                  (gh_equalize_mode) mode,
                                                  &err),
                                  &err, error);
  if (ok)
    {
      ok = core_region_apply (&region, &op, progress ? &apply_progress : NULL,
                              error);
      gh_op_clear (&op);
    }
  gh_histogram_clear (&own);
  core_region_clear (&region);
  return ok;
}

gboolean
core_channel_region (const CoreHost *host, const CoreTarget *target, gint channel,
                     gboolean changeable, CoreRegion *region, GError **error)
{
  gchar *why;

  if (changeable ? ! core_changeable_region (host, target, region, error)
                 : ! core_region_init (host, target, region, error))
    return FALSE;
  if (gh_layout_channel_mask (region->layout) & (1u << channel))
    return TRUE;
  why = g_strdup_printf ("has no %s channel",
                         gh_channel_name ((gh_channel) channel));
  set_drawable_error (error, region, why);
  g_free (why);
  core_region_clear (region);
  return FALSE;
}

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

/* Whether GIMP's own threshold (CoreHost.threshold) gives exactly
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
static gboolean
threshold_exact (const CoreRegion *region, gint channel, gint bin)
{
  const CoreHost *host = region->host;

  return host->threshold && region->sample == GH_SAMPLE_U8
         && bin < region->bins - 1 && channel != GH_CHANNEL_LUMINANCE
         && region->space == babl_space ("sRGB")
         && core_region_layer_format (region) == region->format;
}

/* Binarizes the region at a bin of its histogram. */
static gboolean
binarize_apply (const CoreRegion *region, gint channel, gint bin,
                const CoreProgress *progress, GError **error)
{
  /* Testing only (doc/colour-and-precision.md): =pixels makes binarize
   * always move the pixels itself, =gimp refuses one GIMP's threshold
   * would not do, so a test compares both paths and knows which one ran. */
  const gchar *path = g_getenv ("GPU_HISTOGRAM_BINARIZE");
  gh_op        op;
  gh_error     err;
  gboolean     ok;

  if (g_strcmp0 (path, "pixels") != 0
      && threshold_exact (region, channel, bin))
    {
      /* GIMP changes nothing where the selection misses the drawable. */
      if (region->info.height == 0)
        return TRUE;
      ok = region->host->threshold (region->drawable, channel,
                                    threshold_low (bin, region->bins), 1.0,
                                    error);
      if (ok && progress)
        region->host->progress_update (progress->start + progress->span);
      return ok;
    }
  if (g_strcmp0 (path, "gimp") == 0)
    {
      g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED,
                   "GPU_HISTOGRAM_BINARIZE=gimp: GIMP's threshold would not "
                   "give this binarize's pixels");
      return FALSE;
    }
  if (! core_error_from_engine (gh_op_binarize (&op, region->layout,
                                                region->sample,
                                                core_region_luminance (region),
                                                region->bins,
                                                (gh_channel) channel, bin,
                                                &err),
                                &err, error))
    return FALSE;
  ok = core_region_apply (region, &op, progress, error);
  gh_op_clear (&op);
  return ok;
}

gboolean
core_binarize (const CoreHost *host, gh_engine *engine, const CoreTarget *target,
               gint channel, gint threshold, const gh_histogram *hist,
               gint *used, const CoreProgress *progress, GError **error)
{
  CoreRegion   region;
  CoreProgress apply_progress = { 0, 0 };
  gh_histogram own;
  gint         bin = 0;
  gboolean     ok = TRUE;

  if (! core_channel_region (host, target, channel, TRUE, &region, error))
    return FALSE;
  channel = core_region_view_channel (&region, channel);
  gh_histogram_init (&own);
  if (threshold >= 0)
    {
      /* A fixed threshold needs no histogram: one pass only. */
      bin = gh_threshold_bin (threshold, region.bins);
      if (progress)
        apply_progress = *progress;
    }
  else
    {
      /* Otsu reads the pixels; the pixel path applies to them after. */
      if (! hist && ! threshold_exact (&region, channel, 0))
        core_region_keep (&region);
      ok = core_ensure_histogram (engine, &region,
                                  core_operation_channels (&region,
                                                           GH_REQ_BINARIZE,
                                                           channel, 0),
                                  &hist, &own, progress, &apply_progress,
                                  error);
    }
  if (ok && threshold < 0)
    {
      gdouble *counts = g_new (gdouble, hist->bins);

      gh_histogram_counts (hist, (gh_channel) channel, counts);
      bin = gh_otsu_threshold (counts, 0, hist->bins - 1);
      g_free (counts);
    }
  ok = ok && binarize_apply (&region, channel, bin,
                             progress ? &apply_progress : NULL, error);
  if (ok)
    *used = threshold >= 0 ? threshold
                           : gh_threshold_level (bin, region.bins);
  gh_histogram_clear (&own);
  core_region_clear (&region);
  return ok;
}

gboolean
core_binarize_bin (const CoreHost *host, const CoreTarget *target, gint channel,
                   gint bin, const gh_histogram *hist,
                   const CoreProgress *progress, GError **error)
{
  CoreRegion region;
  gboolean   ok;

  if (! core_channel_region (host, target, channel, TRUE, &region, error))
    return FALSE;
  channel = core_region_view_channel (&region, channel);
  ok = hist->bins == region.bins && bin >= 0 && bin < hist->bins;
  if (! ok)
    g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                 "bin %d of a %d-bin histogram is not a threshold for "
                 "the drawable's %d bins", bin, hist->bins, region.bins);
  ok = ok && binarize_apply (&region, channel, bin, progress, error);
  core_region_clear (&region);
  return ok;
}

static gboolean
check_csv_name (const gchar *filename, GError **error)
{
  if (filename && *filename)
    return TRUE;
  g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
               "filename: no file name given for the CSV");
  return FALSE;
}

gboolean
core_write_csv (const gh_histogram *hist, const gchar *filename,
                GError **error)
{
  gchar   *temp;
  FILE    *file;
  gint     errsv = 0;
  gboolean written;

  if (! check_csv_name (filename, error))
    return FALSE;
  /* Beside the target (files.h): the rename replaces it at once and
   * nobody ever reads half a table. */
  if (! (temp = core_file_temp (filename, FALSE, error)))
    return FALSE;
  if (! (file = g_fopen (temp, "w")))
    {
      errsv = errno;
      core_file_discard (temp);
      g_free (temp);
      return core_file_error (error, filename, errsv);
    }
  written = gh_csv_write_histogram (file, hist) == 0;
  errsv = errno;
  if (fclose (file) != 0 && written)
    {
      written = FALSE;
      errsv = errno;
    }
  if (! written)
    {
      core_file_discard (temp);
      g_free (temp);
      return core_file_error (error, filename, errsv);
    }
  written = core_file_commit (temp, filename, error);
  g_free (temp);
  return written;
}

gboolean
core_export (const CoreHost *host, gh_engine *engine, const CoreTarget *target,
             const gchar *filename, const CoreProgress *progress,
             GError **error)
{
  gh_histogram hist;
  gboolean     ok;

  gh_histogram_init (&hist);
  /* A missing name is refused before the pixels are read. */
  ok = check_csv_name (filename, error)
       && core_histogram (host, engine, target, NULL, &hist, progress, error)
       && core_write_csv (&hist, filename, error);
  gh_histogram_clear (&hist);
  return ok;
}
