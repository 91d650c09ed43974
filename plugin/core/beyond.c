/* SPDX-License-Identifier: GPL-3.0-or-later */
/* beyond.c — CLAHE, histogram matching and multi-level Otsu on one
 * drawable. */
#include "beyond.h"

#include "errors.h"
#include "operations.h"
#include "procedures.h"

/* Progress in two halves: a reading pass, then the apply. */
static void
split_progress (const CoreProgress *progress, CoreProgress *first,
                CoreProgress *second)
{
  if (! progress)
    return;
  first->start = progress->start;
  first->span = second->span = progress->span / 2;
  second->start = first->start + first->span;
}

static gboolean
clahe_feed (const gh_piece *piece, gint y, gpointer clahe, GError **error)
{
  gh_error err;

  return core_error_from_engine (gh_clahe_feed (clahe, piece->pixels, y,
                                                piece->height, piece->stride,
                                                &err),
                                 &err, error);
}

gboolean
core_clahe_prepare (gh_engine *engine, const CoreRegion *region,
                    gdouble clip_limit, gint tiles_x, gint tiles_y, gint mode,
                    gh_op *op, const CoreProgress *progress, GError **error)
{
  const gh_clahe_params params = { clip_limit, tiles_x, tiles_y,
                                   (gh_equalize_mode) mode };
  gh_clahe *clahe = NULL;
  gh_error  err;
  gboolean  ok;

  ok = core_error_from_engine (gh_clahe_begin (engine, &params,
                                                  region->layout,
                                                  region->sample,
                                                  core_region_luminance (region),
                                                  region->bins,
                                                  region->info.width,
                                                  region->info.height, &clahe,
                                                  &err),
                                  &err, error)
       && core_region_read (engine, region, FALSE, clahe_feed, clahe,
                            progress, error)
       && core_error_from_engine (gh_op_clahe (op, clahe, &err), &err, error);
  gh_clahe_destroy (clahe);
  return ok;
}

gboolean
core_clahe (const CoreHost *host, gh_engine *engine, const CoreTarget *target,
            gdouble clip_limit, gint tiles_x, gint tiles_y, gint mode,
            const CoreProgress *progress, GError **error)
{
  CoreRegion   region;
  CoreProgress count = { 0, 0 }, apply = { 0, 0 };
  gh_op        op;
  gboolean     ok;

  if (! core_changeable_region (host, target, &region, error))
    return FALSE;
  mode = core_region_view_mode (&region, mode);
  /* An empty region (the selection misses the drawable): nothing to
   * change. */
  ok = region.info.height == 0;
  core_region_keep (&region);
  split_progress (progress, &count, &apply);
  /* Two passes over the strips: the tiles' histograms, then each pixel
   * mapped by the tiles around it. */
  if (! ok && core_clahe_prepare (engine, &region, clip_limit, tiles_x,
                                  tiles_y, mode, &op,
                                  progress ? &count : NULL, error))
    {
      ok = core_region_apply (&region, &op, progress ? &apply : NULL, error);
      gh_op_clear (&op);
    }
  core_region_clear (&region);
  return ok;
}

/* The weighted pixels of a histogram: in each colour channel it has
 * (value, red, ..., luminance: not alpha, weighted by the selection
 * alone), weighted by alpha and the selection. */
static gdouble
histogram_weight (const gh_histogram *hist)
{
  gdouble total = 0;
  gint    c = 0;

  while (c == GH_CHANNEL_ALPHA
         || (c < GH_NUM_CHANNELS && ! (hist->channels & (1u << c))))
    c++;
  for (gint b = 0; c < GH_NUM_CHANNELS && b < hist->bins; b++)
    total += gh_histogram_count (hist, (gh_channel) c, b);
  return total;
}

/* The reference's histogram, binned as the source's: a calling error
 * naming the argument when it does not exist or has no pixels. */
static gboolean
reference_histogram (const CoreHost *host, gh_engine *engine,
                     gpointer reference, gint bins, gh_histogram *hist,
                     const CoreProgress *progress, GError **error)
{
  CoreTarget ref = core_target (reference);
  CoreRegion region;
  gboolean   ok;

  if (! core_region_init (host, &ref, &region, error))
    {
      g_prefix_error (error, "%s: ", core_arg_reference.name);
      return FALSE;
    }
  core_region_use_bins (&region, bins);
  /* Every channel: whether the reference is in colour is read from it. */
  ok = core_region_histogram (engine, &region, 0, hist, progress, error);
  if (ok && histogram_weight (hist) <= 0)
    {
      gchar *name = core_region_name (&region);

      g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                   "%s: '%s' has no pixels to match to (it is empty, fully "
                   "transparent, or outside its image's selection)",
                   core_arg_reference.name, name);
      g_free (name);
      ok = FALSE;
    }
  core_region_clear (&region);
  return ok;
}

gboolean
core_match (const CoreHost *host, gh_engine *engine, const CoreTarget *target,
            gpointer reference, gint mode, const gh_histogram *hist,
            const CoreProgress *progress, GError **error)
{
  CoreRegion   region;
  CoreProgress first = { 0, 0 }, rest = { 0, 0 }, apply = { 0, 0 };
  gh_histogram own, ref;
  gh_op        op;
  gh_error     err;
  gboolean     ok;

  if (! core_changeable_region (host, target, &region, error))
    return FALSE;
  /* A gray source (the luminance view too) takes a colour reference's
   * luminance. */
  mode = core_region_view_mode (&region, mode);
  gh_histogram_init (&own);
  gh_histogram_init (&ref);
  /* The reference's histogram in the first half; the drawable's (unless
   * given) and the apply in the rest. */
  split_progress (progress, &first, &rest);
  if (! hist)
    core_region_keep (&region);
  ok = reference_histogram (host, engine, reference, region.bins, &ref,
                            progress ? &first : NULL, error)
       && core_ensure_histogram (engine, &region,
                                 core_operation_channels (&region,
                                                          GH_REQ_MATCH, 0,
                                                          mode),
                                 &hist, &own, progress ? &rest : NULL,
                                 &apply, error);
  /* Nothing to change where the selection misses the drawable or every
   * pixel is transparent: no levels to map. */
  if (ok && histogram_weight (hist) > 0)
    {
      ok = core_error_from_engine (gh_op_match (&op, hist, &ref,
                                                region.layout, region.sample,
                                                core_region_luminance (&region),
                                                (gh_equalize_mode) mode, &err),
                                   &err, error);
      if (ok)
        {
          ok = core_region_apply (&region, &op, progress ? &apply : NULL,
                                  error);
          gh_op_clear (&op);
        }
    }
  gh_histogram_clear (&own);
  gh_histogram_clear (&ref);
  core_region_clear (&region);
  return ok;
}

gboolean
core_multi_otsu (const CoreHost *host, gh_engine *engine, const CoreTarget *target,
                 gint channel, gint classes, gint apply,
                 const gh_histogram *hist, gint *levels, gint *n,
                 const CoreProgress *progress, GError **error)
{
  CoreRegion   region;
  CoreProgress apply_progress = { 0, 0 };
  gh_histogram own;
  gint         bins[GH_MULTI_OTSU_MAX_CLASSES - 1];
  gdouble     *counts;
  gh_op        op;
  gh_error     err;
  gboolean     ok;

  /* Computing only reads: any drawable with the channel will do. */
  if (! core_channel_region (host, target, channel, apply, &region, error))
    return FALSE;
  channel = core_region_view_channel (&region, channel);
  if (apply && ! hist)
    core_region_keep (&region);
  gh_histogram_init (&own);
  ok = core_ensure_histogram (engine, &region,
                              core_operation_channels (&region,
                                                       GH_REQ_POSTERIZE,
                                                       channel, 0),
                              &hist, &own, progress, &apply_progress, error);
  if (ok)
    {
      counts = g_new (gdouble, hist->bins);
      gh_histogram_counts (hist, (gh_channel) channel, counts);
      if (gh_multi_otsu (counts, hist->bins, classes, bins, &err) != GH_OK)
        {
          /* Too few levels in the pixels for this many classes: the
           * image's limit, not the engine's. */
          gchar *name = core_region_name (&region);

          g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED, "'%s': %s",
                       name, err.message);
          g_free (name);
          ok = FALSE;
        }
      g_free (counts);
    }
  if (ok && apply)
    {
      ok = core_error_from_engine (gh_op_posterize (&op, region.layout,
                                                    region.sample,
                                                    core_region_luminance (&region),
                                                    region.bins,
                                                    (gh_channel) channel,
                                                    classes - 1, bins, &err),
                                   &err, error);
      if (ok)
        {
          ok = core_region_apply (&region, &op,
                                  progress ? &apply_progress : NULL, error);
          gh_op_clear (&op);
        }
    }
  if (ok)
    {
      *n = classes - 1;
      for (gint k = 0; k < *n; k++)
        levels[k] = gh_threshold_level (bins[k], region.bins);
    }
  gh_histogram_clear (&own);
  core_region_clear (&region);
  return ok;
}

gboolean
core_posterize_bins (const CoreHost *host, const CoreTarget *target, gint channel,
                     gint n, const gint *bins, const gh_histogram *hist,
                     const CoreProgress *progress, GError **error)
{
  CoreRegion region;
  gh_op      op;
  gh_error   err;
  gboolean   ok;

  if (! core_channel_region (host, target, channel, TRUE, &region, error))
    return FALSE;
  ok = hist->bins == region.bins;
  if (! ok)
    g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                 "thresholds of a %d-bin histogram are not thresholds for "
                 "the drawable's %d bins", hist->bins, region.bins);
  ok = ok && core_error_from_engine (gh_op_posterize (&op, region.layout,
                                                      region.sample,
                                                      core_region_luminance (&region),
                                                      region.bins,
                                                      (gh_channel)
                                                      core_region_view_channel (
                                                        &region, channel),
                                                      n, bins, &err),
                                     &err, error);
  if (ok)
    {
      ok = core_region_apply (&region, &op, progress, error);
      gh_op_clear (&op);
    }
  core_region_clear (&region);
  return ok;
}

gchar *
core_multi_otsu_text (gint channel, const gint *levels, gint n)
{
  GString *text = g_string_new (NULL);

  g_string_printf (text, "Multi-level Otsu on %s: threshold%s",
                   gh_channel_name ((gh_channel) channel), n == 1 ? "" : "s");
  for (gint k = 0; k < n; k++)
    g_string_append_printf (text, "%s %d", k ? "," : "", levels[k]);
  return g_string_free (text, FALSE);
}
