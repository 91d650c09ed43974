/* SPDX-License-Identifier: GPL-3.0-or-later */
/* request.c — the vocabulary's dispatch (gh_request.h): what a request
 * needs, its thresholds, and its preparation into a gh_op by the
 * operation's own function.  The tables, lookups and checks it reads are
 * gpu/vocabulary.c's, under it. */
#include "gh_request.h"

#include "fail.h"

#include <stdlib.h>
#include <string.h>

unsigned
gh_request_needs (const gh_request *r)
{
  const gh_operation_spec *spec = r ? gh_operation_get (r->operation) : NULL;

  return spec ? spec->needs : 0;
}

gh_status
gh_request_thresholds (const gh_request *r, const gh_histogram *hist,
                       int bins, gh_request_result *res, gh_error *error)
{
  double *counts;
  gh_status st = GH_OK;

  memset (res, 0, sizeof *res);
  if (gh_request_check (r, error) != GH_OK)
    return GH_ERR_INVALID;
  if (r->operation != GH_REQ_BINARIZE && r->operation != GH_REQ_POSTERIZE)
    return gh_fail (error, GH_ERR_INVALID, "%s has no thresholds",
                    gh_operation_get (r->operation)->name);
  if (r->n_bins > 0 || (r->operation == GH_REQ_BINARIZE && r->threshold >= 0))
    {
      /* Given: the dialog's bins, or a fixed level (no histogram read). */
      res->n = r->n_bins > 0 ? r->n_bins : 1;
      for (int k = 0; k < res->n; k++)
        {
          res->bins[k] = r->n_bins > 0 ? r->bins[k]
                                       : gh_threshold_bin (r->threshold, bins);
          res->levels[k] = r->n_bins > 0 ? gh_threshold_level (r->bins[k],
                                                               bins)
                                         : r->threshold;
        }
      return GH_OK;
    }
  if (!hist || hist->bins != bins)
    return gh_fail (error, GH_ERR_INVALID, "%s: no histogram of %d bins",
                    gh_operation_get (r->operation)->name, bins);
  counts = malloc ((size_t) hist->bins * sizeof *counts);
  if (!counts)
    return gh_fail (error, GH_ERR_NOMEM, "out of memory");
  gh_histogram_counts (hist, (gh_channel) r->channel, counts);
  if (r->operation == GH_REQ_BINARIZE)
    {
      res->n = 1;
      res->bins[0] = gh_otsu_threshold (counts, 0, hist->bins - 1);
    }
  else if ((st = gh_multi_otsu (counts, hist->bins, r->classes, res->bins,
                                error))
           == GH_OK)
    res->n = r->classes - 1;
  free (counts);
  for (int k = 0; k < res->n; k++)
    res->levels[k] = gh_threshold_level (res->bins[k], hist->bins);
  return st;
}

/* A contrast stretch is the equalization of a histogram flat from the
 * low percentile's bin to the high one's in each channel: OpenCV's
 * equalizeHist table of it is (v - lo) * 255 / (hi - lo) rounded, 0 below
 * and 255 above, and a float curve the same line from the low bin to the
 * high one.  A percentile is numpy's inverted_cdf: the first bin whose
 * cumulative count reaches that share (at 0, the first one occupied).
 * Where both fall on one level (a channel of one level), the channel keeps
 * its levels. */
static gh_status
prepare_stretch (const gh_request *r, const gh_request_inputs *in,
                 gh_op *op, gh_error *error)
{
  const gh_histogram *h = in->histogram;
  size_t n = (size_t) GH_NUM_CHANNELS * (size_t) h->bins;
  gh_histogram box = *h;
  double *counts = malloc ((size_t) h->bins * sizeof *counts);
  gh_status st;

  box.raw = calloc (n, sizeof *box.raw);
  box.weight = h->weight ? calloc (n, sizeof *box.weight) : NULL;
  if (!counts || !box.raw || (h->weight && !box.weight))
    st = gh_fail (error, GH_ERR_NOMEM, "out of memory for %d bins",
                  h->bins);
  else
    {
      for (int c = 0; c < GH_NUM_CHANNELS; c++)
        {
          double total = 0, cum = 0;
          int lo = -1, hi = -1;

          box.unit[c] = 1;
          if (!(h->channels & (1u << c)))
            continue;
          gh_histogram_counts (h, (gh_channel) c, counts);
          for (int b = 0; b < h->bins; b++)
            total += counts[b];
          for (int b = 0; b < h->bins && hi < 0; b++)
            {
              cum += counts[b];
              if (lo < 0 && cum > 0 && cum >= r->low_percentile / 100 * total)
                lo = b;
              if (cum > 0 && cum >= r->high_percentile / 100 * total)
                hi = b;
            }
          if (!(lo >= 0 && hi > lo))
            lo = 0, hi = h->bins - 1;
          for (int b = lo; b <= hi; b++)
            if (box.weight)
              box.weight[(size_t) c * h->bins + b] = 1;
            else
              box.raw[(size_t) c * h->bins + b] = 1;
        }
      st = gh_op_equalize (op, &box, in->layout, in->sample, in->luminance,
                           r->mode, error);
    }
  free (counts);
  free (box.raw);
  free (box.weight);
  return st;
}

gh_status
gh_request_prepare (const gh_request *r, const gh_request_inputs *in,
                    gh_op *op, gh_request_result *res, gh_error *error)
{
  gh_request_result own;
  unsigned needs = gh_request_needs (r);

  if (!res)
    res = &own;
  memset (res, 0, sizeof *res);
  if (gh_request_check (r, error) != GH_OK)
    return GH_ERR_INVALID;
  if (!in || ((needs & GH_NEEDS_HISTOGRAM) && !in->histogram
              && !(r->operation == GH_REQ_BINARIZE
                   && (r->threshold >= 0 || r->n_bins > 0)))
      || ((needs & GH_NEEDS_REFERENCE) && !in->reference)
      || ((needs & GH_NEEDS_CLAHE_PASS) && !in->clahe))
    return gh_fail (error, GH_ERR_INVALID, "%s: an input it needs is missing",
                    gh_operation_get (r->operation)->name);
  switch (r->operation)
    {
    case GH_REQ_EQUALIZE:
      return gh_op_equalize (op, in->histogram, in->layout, in->sample,
                             in->luminance, r->mode, error);
    case GH_REQ_MATCH:
      return gh_op_match (op, in->histogram, in->reference, in->layout,
                          in->sample, in->luminance, r->mode, error);
    case GH_REQ_CLAHE:
      return gh_op_clahe (op, in->clahe, error);
    case GH_REQ_STRETCH:
      return prepare_stretch (r, in, op, error);
    case GH_REQ_BINARIZE:
    case GH_REQ_POSTERIZE:
      if (gh_request_thresholds (r, in->histogram, in->bins, res, error)
          != GH_OK)
        return GH_ERR_INVALID;
      return r->operation == GH_REQ_BINARIZE
               ? gh_op_binarize (op, in->layout, in->sample, in->luminance,
                                 in->bins, (gh_channel) r->channel,
                                 res->bins[0], error)
               : gh_op_posterize (op, in->layout, in->sample, in->luminance,
                                  in->bins, (gh_channel) r->channel, res->n,
                                  res->bins, error);
    default:
      return gh_fail (error, GH_ERR_INVALID, "%s applies nothing",
                      gh_operation_get (r->operation)->name);
    }
}
