/* SPDX-License-Identifier: GPL-3.0-or-later */
/* histogram.c — gh_histogram storage and reading weighted counts. */
#include "fail.h"

#include <stdlib.h>
#include <string.h>

void
gh_histogram_init (gh_histogram *h)
{
  memset (h, 0, sizeof *h);
}

gh_status
gh_histogram_reset (gh_histogram *h, int bins, int weights, gh_error *error)
{
  size_t n = (size_t) GH_NUM_CHANNELS * (size_t) bins;
  if (bins <= 0)
    return gh_fail (error, GH_ERR_INVALID, "%d bins", bins);
  if (h->bins != bins || !h->raw)
    {
      uint64_t *raw = realloc (h->raw, n * sizeof *raw);
      if (!raw)
        return gh_fail (error, GH_ERR_NOMEM, "out of memory for %d bins",
                        bins);
      h->raw = raw;
      h->bins = bins;
      free (h->weight);
      h->weight = NULL;
    }
  if (weights && !h->weight && !(h->weight = malloc (n * sizeof *h->weight)))
    return gh_fail (error, GH_ERR_NOMEM, "out of memory for %d bins", bins);
  if (!weights)
    {
      free (h->weight);
      h->weight = NULL;
    }
  memset (h->raw, 0, n * sizeof *h->raw);
  if (h->weight)
    memset (h->weight, 0, n * sizeof *h->weight);
  h->channels = 0;
  for (int c = 0; c < GH_NUM_CHANNELS; c++)
    h->unit[c] = 1;
  return GH_OK;
}

void
gh_histogram_clear (gh_histogram *h)
{
  free (h->raw);
  free (h->weight);
  gh_histogram_init (h);
}

double
gh_histogram_count (const gh_histogram *h, gh_channel channel, int bin)
{
  if (!h->raw || (unsigned) channel >= GH_NUM_CHANNELS || bin < 0
      || bin >= h->bins)
    return 0.0;
  if (h->weight)
    return h->weight[(size_t) channel * (size_t) h->bins + (size_t) bin];
  return (double) h->raw[(size_t) channel * (size_t) h->bins + (size_t) bin]
         / (double) h->unit[channel];
}

void
gh_histogram_counts (const gh_histogram *h, gh_channel channel, double *out)
{
  for (int b = 0; b < h->bins; b++)
    out[b] = gh_histogram_count (h, channel, b);
}
