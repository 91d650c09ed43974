/* SPDX-License-Identifier: GPL-3.0-or-later */
/* apply.c — one request applied to one drawable (apply.h). */
#include "apply.h"

#include "errors.h"
#include "operations.h"
#include "threshold.h"

/* A failure the drawable itself causes, in its name. */
static gboolean
drawable_error (GError **error, gint code, const CoreRegion *region,
                const gchar *why)
{
  gchar *name = core_region_name (region);

  g_set_error (error, CORE_ERROR, code, "'%s'%s", name, why);
  g_free (name);
  return FALSE;
}

/* The progress of the call's k-th of n passes (reference, count, CLAHE's
 * tiles, apply), each an equal part. */
static const CoreProgress *
next_pass (const CoreProgress *progress, gint n, gint *k, CoreProgress *part)
{
  if (! progress)
    return NULL;
  part->span = progress->span / n;
  part->start = progress->start + part->span * (*k)++;
  return part;
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

static gboolean
clahe_feed (const gh_piece *piece, gint y, gpointer clahe, GError **error)
{
  gh_error err;

  return core_error_from_engine (gh_clahe_feed (clahe, piece->pixels, y,
                                                piece->height, piece->stride,
                                                &err),
                                 &err, error);
}

/* CLAHE's first pass: the tiles' histograms of the region, into *clahe
 * (gh_clahe_destroy it, also on failure). */
static gboolean
clahe_pass (gh_engine *engine, const CoreRegion *region,
            const gh_request *request, gh_clahe **clahe,
            const CoreProgress *progress, GError **error)
{
  gh_clahe_params params;
  gh_error        err;

  gh_request_clahe_params (request, &params);
  return core_error_from_engine (gh_clahe_begin (engine, &params,
                                                 region->layout,
                                                 region->sample,
                                                 core_region_luminance (region),
                                                 region->bins,
                                                 region->info.width,
                                                 region->info.height, clahe,
                                                 &err),
                                 &err, error)
         && core_region_read (engine, region, FALSE, clahe_feed, *clahe,
                              progress, error);
}

/* The engine's operation of `request` on the region's pieces, from what
 * it needs (`in`'s histogram and reference; its format is set here). */
static gboolean
prepare (const CoreRegion *region, const gh_request *request,
         gh_request_inputs *in, gh_op *op, GError **error)
{
  gh_error err;

  in->layout = region->layout;
  in->sample = region->sample;
  in->luminance = core_region_luminance (region);
  in->bins = region->bins;
  return core_error_from_engine (gh_request_prepare (request, in, op, NULL,
                                                     &err),
                                 &err, error);
}

gboolean
core_clahe_prepare (gh_engine *engine, const CoreRegion *region,
                    const gh_request *request, gh_op *op,
                    const CoreProgress *progress, GError **error)
{
  gh_request_inputs in = { 0 };
  gh_clahe         *clahe = NULL;
  gboolean          ok;

  ok = clahe_pass (engine, region, request, &clahe, progress, error);
  in.clahe = clahe;
  ok = ok && prepare (region, request, &in, op, error);
  gh_clahe_destroy (clahe);
  return ok;
}

/* What the caller must get right: the vocabulary's ranges, apply's 0 or
 * 1, bins with the histogram they are bins of, match's reference. */
static gboolean
check_request (const CoreRequest *req, const gh_histogram *hist,
               GError **error)
{
  const CoreAction *action = core_action_get (req->request.operation);

  if (! core_request_check (&req->request, error))
    return FALSE;
  if (req->apply != FALSE && req->apply != TRUE)
    {
      g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                   "%s: %d is not 0 (compute only) or 1 (posterize)",
                   core_arg_apply.name, req->apply);
      return FALSE;
    }
  if (req->request.n_bins > 0 && ! hist)
    {
      g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                   "%s: threshold bins given without their histogram",
                   action->proc->name);
      return FALSE;
    }
  if ((gh_request_needs (&req->request) & GH_NEEDS_REFERENCE)
      && ! req->reference)
    {
      g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                   "%s: no drawable given", core_arg_reference.name);
      return FALSE;
    }
  return TRUE;
}

/* The drawable's region for `r`: one whose pixels may change
 * (core_changeable_region) unless the call only reads, and, where `r`
 * reads a channel, one that has it. */
static gboolean
open_region (const CoreHost *host, const CoreTarget *target,
             const gh_request *r, gboolean changes, CoreRegion *region,
             GError **error)
{
  gchar *why;

  if (changes ? ! core_changeable_region (host, target, region, error)
              : ! core_region_init (host, target, region, error))
    return FALSE;
  if (gh_operation_param (r->operation, GH_PARAM_CHANNEL) < 0
      || (gh_layout_channel_mask (region->layout) & (1u << r->channel)))
    return TRUE;
  why = g_strdup_printf (" has no %s channel",
                         gh_channel_name ((gh_channel) r->channel));
  drawable_error (error, CORE_ERROR_FAILED, region, why);
  g_free (why);
  core_region_clear (region);
  return FALSE;
}

/* The caller's histogram of the drawable, as the region's pieces see it
 * (core_region_view_histogram), and the bins it gives inside it. */
static gboolean
given_histogram (const CoreRegion *region, const gh_request *r,
                 const gh_histogram **hist, gh_histogram *own,
                 GError **error)
{
  if ((*hist)->bins != region->bins)
    {
      g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                   "the histogram given has %d bins, the drawable's has %d",
                   (*hist)->bins, region->bins);
      return FALSE;
    }
  for (gint k = 0; k < r->n_bins; k++)
    if (r->bins[k] < 0 || r->bins[k] >= region->bins)
      {
        g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                     "bin %d is not a threshold of the drawable's %d bins",
                     r->bins[k], region->bins);
        return FALSE;
      }
  return core_region_view_histogram (region, hist, own, error);
}

/* The engine's operation of `r` prepared from `in` (after CLAHE's pass
 * where it needs one, over `tiles`) and applied over the region. */
static gboolean
apply_op (gh_engine *engine, const CoreRegion *region, const gh_request *r,
          gh_request_inputs *in, const CoreProgress *tiles,
          const CoreProgress *applying, GError **error)
{
  gh_clahe *clahe = NULL;
  gh_op     op;
  gboolean  ok = TRUE;

  if (gh_request_needs (r) & GH_NEEDS_CLAHE_PASS)
    {
      ok = clahe_pass (engine, region, r, &clahe, tiles, error);
      in->clahe = clahe;
    }
  if (ok && (ok = prepare (region, r, in, &op, error)))
    {
      ok = core_region_apply (region, &op, applying, error);
      gh_op_clear (&op);
    }
  gh_clahe_destroy (clahe);
  return ok;
}

gboolean
core_apply_request (const CoreHost *host, gh_engine *engine,
                    const CoreTarget *target, const CoreRequest *req,
                    const gh_histogram *hist, const CoreProgress *progress,
                    gh_request_result *result, GError **error)
{
  const CoreAction   *action = core_action_get (req->request.operation);
  gh_request          r = req->request;
  unsigned            needs = gh_request_needs (&r);
  /* A fixed threshold needs no histogram. */
  gboolean            count = (needs & GH_NEEDS_HISTOGRAM) && ! hist
                              && ! (gh_operation_param (r.operation,
                                                        GH_PARAM_THRESHOLD)
                                      >= 0
                                    && r.threshold >= 0);
  gint                passes = ((needs & GH_NEEDS_REFERENCE) != 0) + count
                               + ((needs & GH_NEEDS_CLAHE_PASS) != 0)
                               + (req->apply == TRUE);
  gint                k = 0;
  CoreRegion          region;
  CoreProgress        parts[4];
  const CoreProgress *tiles, *applying;
  gh_histogram        own, ref;
  gh_request_result   found = { 0 };
  gh_request_inputs   in = { 0 };
  gboolean            done = FALSE, ok;

  if (r.operation == GH_REQ_NONE)
    return TRUE;
  if (! check_request (req, hist, error)
      || ! open_region (host, target, &r, req->apply, &region, error))
    return FALSE;
  core_region_view (&region, &r);
  /* Where a reading pass comes before the apply, the apply takes its
   * pixels from it, not from GIMP again; but not where GIMP's threshold
   * applies (no pixels go through the plug-in). */
  if (req->apply && (count || (needs & GH_NEEDS_CLAHE_PASS))
      && ! (r.operation == GH_REQ_BINARIZE
            && core_threshold_exact (&region, r.channel, 0)))
    core_region_keep (&region);
  gh_histogram_init (&own);
  gh_histogram_init (&ref);
  passes = MAX (passes, 1);
  ok = ! (needs & GH_NEEDS_REFERENCE)
       || reference_histogram (host, engine, req->reference, region.bins,
                               &ref, next_pass (progress, passes, &k,
                                                &parts[0]),
                               error);
  in.reference = &ref;
  if (ok && hist && (needs & GH_NEEDS_HISTOGRAM))
    ok = given_histogram (&region, &r, &hist, &own, error);
  else if (ok && count)
    {
      ok = core_region_histogram (engine, &region,
                                  gh_request_channels (&r, region.layout),
                                  &own,
                                  next_pass (progress, passes, &k, &parts[1]),
                                  error);
      hist = &own;
    }
  in.histogram = hist;
  /* The thresholds, where the operation has them: what the call returns,
   * and the bins its apply uses. */
  if (ok && action->returns != CORE_RETURN_NONE)
    {
      gh_error err;

      if (gh_request_thresholds (&r, hist, region.bins, &found, &err)
          != GH_OK)
        {
          /* Too few levels in the pixels for the classes: the image's
           * limit, not the engine's. */
          gchar *why = g_strdup_printf (": %s", err.message);

          ok = drawable_error (error, CORE_ERROR_FAILED, &region, why);
          g_free (why);
        }
      r.n_bins = found.n;
      for (gint b = 0; b < found.n; b++)
        r.bins[b] = found.bins[b];
    }
  tiles = needs & GH_NEEDS_CLAHE_PASS
            ? next_pass (progress, passes, &k, &parts[2]) : NULL;
  applying = next_pass (progress, passes, &k, &parts[3]);
  /* Nothing to change where the selection misses the drawable, nor,
   * where a reference's levels are matched, where it has no pixels. */
  done = ! ok || ! req->apply || region.info.height == 0
         || ((needs & GH_NEEDS_REFERENCE) && histogram_weight (hist) <= 0);
  if (ok && ! done && r.operation == GH_REQ_BINARIZE)
    ok = core_threshold_try (&region, r.channel, r.bins[0], applying, &done,
                             error);
  if (ok && ! done)
    ok = apply_op (engine, &region, &r, &in, tiles, applying, error);
  if (ok && result && action->returns != CORE_RETURN_NONE)
    *result = found;
  gh_histogram_clear (&own);
  gh_histogram_clear (&ref);
  core_region_clear (&region);
  return ok;
}
