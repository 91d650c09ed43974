/* SPDX-License-Identifier: GPL-3.0-or-later */
/* match.c — histogram matching (gh_op_match), as scikit-image 0.19's
 * exposure.match_histograms (_match_cumulative_cdf):
 *
 *   src_quantiles  = cumsum (src_counts) / source.size     (occupied levels)
 *   tmpl_quantiles = cumsum (tmpl_counts) / template.size
 *   out = np.interp (src_quantiles, tmpl_quantiles, tmpl_values)
 *
 * in the same double arithmetic (numpy's interp: the reference's value at
 * an exact knot, else slope * (x - xp[j]) + fp[j] with slope (fp[j+1] -
 * fp[j]) / (xp[j+1] - xp[j])), so 8-bit tables equal scikit-image's float
 * result rounded half up; scikit-image itself stores the float into the
 * uint8 image, truncating.  Levels the source lacks get the quantile of
 * the levels below them (no pixel reads them unless it weighs nothing).
 *
 * Float images keep their precision: a value's continuous cumulative share
 * in the source (gh_equalize_curve_map) is taken to the value with the
 * same share in the reference's continuous distribution (each bin's count
 * spread evenly across it), so matching an image to itself is the
 * identity and distinct values stay distinct. */
#include "fail.h"
#include "layout.h"
#include "op_kind.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* numpy's interp of one x over the knots (xp ascending, n >= 1). */
static double
interp (double x, const double *xp, const double *fp, int n)
{
  int lo = 0, hi = n - 1;
  double slope;

  if (x < xp[0])
    return fp[0];
  if (x >= xp[n - 1])
    return fp[n - 1];
  /* The j with xp[j] <= x < xp[j + 1]. */
  while (hi - lo > 1)
    {
      int mid = lo + (hi - lo) / 2;
      if (xp[mid] <= x)
        lo = mid;
      else
        hi = mid;
    }
  if (xp[lo] == x)
    return fp[lo];
  slope = (fp[lo + 1] - fp[lo]) / (xp[lo + 1] - xp[lo]);
  return slope * (x - xp[lo]) + fp[lo];
}

/* The 8-bit table of one channel. */
static void
match_table (const double *src, const double *ref, uint16_t *table)
{
  double xp[256], fp[256], src_total = 0, ref_total = 0, cum = 0;
  int n = 0;

  for (int v = 0; v < 256; v++)
    {
      src_total += src[v] > 0 ? src[v] : 0;
      ref_total += ref[v] > 0 ? ref[v] : 0;
    }
  for (int v = 0; v < 256; v++)
    if (ref[v] > 0)
      {
        cum += ref[v];
        xp[n] = cum / ref_total;
        fp[n++] = v;
      }
  cum = 0;
  for (int v = 0; v < 256; v++)
    {
      double out;
      cum += src[v] > 0 ? src[v] : 0;
      out = floor (interp (src_total > 0 ? cum / src_total : 0, xp, fp, n)
                   + 0.5);
      table[v] = (uint16_t) (out < 0 ? 0 : out > 255 ? 255 : out);
    }
}

gh_status
gh_op_match (gh_op *op, const gh_histogram *source,
             const gh_histogram *reference, gh_layout layout,
             gh_sample sample, gh_luminance luminance, gh_equalize_mode mode,
             gh_error *error)
{
  int rgb = gh_layout_is_rgb (layout);
  int ref_rgb, n = 0;
  gh_channel from[3], to[3];
  double *counts = NULL, *ref_counts = NULL;
  gh_status st;

  if (!op)
    return gh_fail (error, GH_ERR_INVALID, "no operation given");
  memset (op, 0, sizeof *op);
  if ((st = gh_op_check_kind (layout, sample, luminance, error)) != GH_OK
      || (st = gh_op_check_mode ("match", mode, error)) != GH_OK)
    return st;
  if (!source || (!source->raw && !source->weight))
    return gh_fail (error, GH_ERR_INVALID, "no histogram given");
  if (!reference || (!reference->raw && !reference->weight))
    return gh_fail (error, GH_ERR_INVALID, "no reference histogram given");
  if ((st = gh_op_check_bins ("source ", source->bins, sample, error))
        != GH_OK
      || (st = gh_op_check_bins ("reference ", reference->bins, sample,
                                 error)) != GH_OK)
    return st;
  ref_rgb = (reference->channels & (1u << GH_CHANNEL_RED)) != 0;
  /* Which source channel goes to which of the reference's: a gray
   * reference gives its gray level to every channel, a colour one its
   * luminance to a gray source or to the luminance. */
  if (rgb && mode == GH_EQUALIZE_CHANNELS)
    for (int k = 0; k < 3; k++, n++)
      {
        from[n] = (gh_channel) (GH_CHANNEL_RED + k);
        to[n] = ref_rgb ? from[n] : GH_CHANNEL_VALUE;
      }
  else
    {
      from[0] = rgb ? GH_CHANNEL_LUMINANCE : GH_CHANNEL_VALUE;
      to[0] = ref_rgb ? GH_CHANNEL_LUMINANCE : GH_CHANNEL_VALUE;
      n = 1;
    }
  for (int k = 0; k < n; k++)
    {
      double total = 0;
      if (!(source->channels & (1u << from[k])))
        return gh_fail (error, GH_ERR_INVALID,
                        "the histogram has no %s channel",
                        gh_channel_name (from[k]));
      if (!(reference->channels & (1u << to[k])))
        return gh_fail (error, GH_ERR_INVALID,
                        "the reference histogram has no %s channel",
                        gh_channel_name (to[k]));
      for (int b = 0; b < reference->bins; b++)
        total += gh_histogram_count (reference, to[k], b);
      if (!(total > 0))
        return gh_fail (error, GH_ERR_INVALID,
                        "the reference has no pixels to match (its %s "
                        "channel is empty)",
                        gh_channel_name (to[k]));
    }
  counts = malloc ((size_t) source->bins * sizeof *counts);
  ref_counts = malloc ((size_t) reference->bins * sizeof *ref_counts);
  if (!counts || !ref_counts)
    st = gh_fail (error, GH_ERR_NOMEM, "out of memory for %d bins",
                  source->bins + reference->bins);
  for (int k = 0; k < n && st == GH_OK; k++)
    {
      gh_histogram_counts (source, from[k], counts);
      gh_histogram_counts (reference, to[k], ref_counts);
      if (sample == GH_SAMPLE_U8)
        match_table (counts, ref_counts, op->tables[k]);
      else if (gh_equalize_curve_init (&op->curves[k], counts, source->bins)
                 != GH_OK
               || gh_equalize_curve_init (&op->targets[k], ref_counts,
                                          reference->bins)
                    != GH_OK)
        st = gh_fail (error, GH_ERR_NOMEM,
                      "out of memory for matching curves of %d bins",
                      source->bins + reference->bins);
    }
  free (counts);
  free (ref_counts);
  op->layout = layout;
  op->sample = sample;
  op->luminance = luminance;
  op->bins = source->bins;
  op->kind = rgb && mode == GH_EQUALIZE_LUMINANCE ? GH_OP_LUMINANCE
                                                  : GH_OP_CHANNELS;
  if (st != GH_OK)
    gh_op_clear (op);
  return st;
}
