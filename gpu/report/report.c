/* SPDX-License-Identifier: GPL-3.0-or-later */
/* report.c — what the hosts report from a histogram (gpu_histogram.h,
 * "Shared by every host"): the statistics table the procedures return and
 * the 256 levels the CSV and the dialog show, whatever the bin count. */
#include "gpu_histogram.h"

#include <stdlib.h>
#include <string.h>

void
gh_stats_table (const gh_histogram *h, double out[GH_NUM_STATS])
{
  memset (out, 0, GH_NUM_STATS * sizeof out[0]);
  for (int c = 0; h && c < GH_NUM_CHANNELS; c++)
    {
      double *row = out + c * GH_STATS_PER_CHANNEL;
      gh_stats s;

      if (!(h->channels & (1u << c))
          || gh_stats_compute (h, (gh_channel) c, 0, h->bins - 1, &s)
               != GH_OK)
        continue;
      row[0] = s.count;
      row[1] = s.min;
      row[2] = s.max;
      row[3] = s.mean;
      row[4] = s.median;
      row[5] = s.std_dev;
      row[6] = s.otsu;
    }
}

void
gh_histogram_levels (const gh_histogram *h, double out[GH_NUM_LEVELS])
{
  int last;

  memset (out, 0, GH_NUM_LEVELS * sizeof out[0]);
  if (!h || h->bins < 2)
    return;
  last = h->bins - 1;
  for (int c = 0; c < GH_NUM_CHANNELS; c++)
    /* Bin k's level k * 255 / last, rounded half up in integers; with 256
     * bins each bin is its own level. */
    for (int k = 0; k <= last; k++)
      out[c * GH_LEVELS + (2 * k * (GH_LEVELS - 1) + last) / (2 * last)]
        += gh_histogram_count (h, (gh_channel) c, k);
}
