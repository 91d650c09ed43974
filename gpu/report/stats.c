/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stats.c — statistics, Otsu and equalization over one channel's bins.
 *
 * Pure functions of a histogram.  Mean, median and standard deviation
 * follow GIMP 2.10's gimphistogram.c operation for operation (level
 * factor i / (bins - 1), results scaled to 0..255 as its PDB returns them);
 * Otsu and equalization follow OpenCV's arithmetic so 8-bit results are
 * identical, not merely close.
 */
#include "gpu_histogram.h"

#include <math.h>
#include <stdlib.h>

gh_status
gh_stats_compute (const gh_histogram *h, gh_channel channel, int lo, int hi,
                  gh_stats *out)
{
  double n, count = 0.0, pixels = 0.0, mean = 0.0, dev = 0.0, sum = 0.0;
  double *c;

  if (!h || !out || !h->raw || (unsigned) channel >= GH_NUM_CHANNELS)
    return GH_ERR_INVALID;
  if (lo < 0 || hi >= h->bins || lo > hi)
    return GH_ERR_INVALID;
  c = malloc ((size_t) h->bins * sizeof *c);
  if (!c)
    return GH_ERR_NOMEM;
  gh_histogram_counts (h, channel, c);
  n = (double) (h->bins - 1);

  for (int i = 0; i < h->bins; i++)
    pixels += c[i];
  for (int i = lo; i <= hi; i++)
    {
      count += c[i];
      mean += ((double) i / n) * c[i];
    }
  if (count > 0.0)
    mean /= count;
  for (int i = lo; i <= hi; i++)
    dev += c[i] * (((double) i / n) - mean) * (((double) i / n) - mean);

  out->count = count;
  out->pixels = pixels;
  out->percentile = pixels > 0.0 ? count / pixels : 0.0;
  out->mean = mean * 255.0;
  out->std_dev = sqrt (dev / (count == 0.0 ? 1.0 : count)) * 255.0;
  out->min = out->max = out->median = -1.0;
  for (int i = lo; i <= hi; i++)
    if (c[i] > 0.0)
      {
        if (out->min < 0.0)
          out->min = (double) i / n * 255.0;
        out->max = (double) i / n * 255.0;
      }
  for (int i = lo; i <= hi; i++)
    {
      sum += c[i];
      if (sum * 2 > count)
        {
          out->median = (double) i / n * 255.0;
          break;
        }
    }
  out->otsu_bin = gh_otsu_threshold (c, lo, hi);
  out->otsu = (double) out->otsu_bin / n * 255.0;
  free (c);
  return GH_OK;
}

/* OpenCV's getThreshVal_Otsu_8u, step for step, so ties between equal
 * variances (common: empty bins between two candidates) fall the same way.
 * One deliberate difference: OpenCV skips candidates whose class holds
 * less than FLT_EPSILON of the pixels, which on images over 8 megapixels
 * ignores real but tiny classes and leaves its running mean unscaled; here
 * only truly empty classes are skipped.  Below 2^23 pixels the two agree. */
int
gh_threshold_bin (int level, int bins)
{
  return level * (bins - 1) / 255;
}

int
gh_threshold_level (int bin, int bins)
{
  return bin * 255 / (bins - 1);
}

int
gh_otsu_threshold (const double *counts, int lo, int hi)
{
  double total = 0.0, mu = 0.0, scale, mu1 = 0.0, q1 = 0.0, below = 0.0;
  double max_sigma = 0.0;
  int best = lo;

  for (int i = lo; i <= hi; i++)
    total += counts[i];
  if (total <= 0.0)
    return lo;
  scale = 1.0 / total;
  for (int i = lo; i <= hi; i++)
    mu += i * counts[i];
  mu *= scale;

  for (int i = lo; i <= hi; i++)
    {
      double p_i = counts[i] * scale, q2, mu2, sigma;

      mu1 *= q1;
      q1 += p_i;
      q2 = 1.0 - q1;
      below += counts[i];
      if (below <= 0.0 || below >= total)
        continue;
      mu1 = (mu1 + i * p_i) / q1;
      mu2 = (mu - q1 * mu1) / q2;
      sigma = q1 * q2 * (mu1 - mu2) * (mu1 - mu2);
      if (sigma > max_sigma)
        {
          max_sigma = sigma;
          best = i;
        }
    }
  return best;
}

/* OpenCV's equalizeHist table: float scale, float products, rounded to
 * nearest even; an image of one level keeps that level. */
void
gh_equalize_table (const double *counts, int bins, uint16_t *table)
{
  double total = 0.0, sum = 0.0;
  int first = 0;
  float scale;

  for (int i = 0; i < bins; i++)
    total += counts[i];
  while (first < bins && counts[first] <= 0.0)
    first++;
  if (first == bins)
    {
      for (int i = 0; i < bins; i++)
        table[i] = (uint16_t) i;
      return;
    }
  if (counts[first] >= total)
    {
      for (int i = 0; i < bins; i++)
        table[i] = (uint16_t) first;
      return;
    }
  scale = (float) (bins - 1) / (float) (total - counts[first]);
  for (int i = 0; i <= first; i++)
    table[i] = 0;
  for (int i = first + 1; i < bins; i++)
    {
      long v;
      sum += counts[i];
      v = lrintf ((float) sum * scale);
      table[i] = (uint16_t) (v < 0 ? 0 : v > bins - 1 ? bins - 1 : v);
    }
}
