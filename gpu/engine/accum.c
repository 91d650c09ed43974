/* SPDX-License-Identifier: GPL-3.0-or-later */
/* accum.c — the exact accumulator (accum.h). */
#include "accum.h"

#include "layout.h"

#include <stdlib.h>
#include <string.h>

gh_status
gh_accum_init (gh_accum *acc, const gh_image *image)
{
  size_t n = (size_t) GH_NUM_CHANNELS * (size_t) image->bins;
  memset (acc, 0, sizeof *acc);
  acc->bins = image->bins;
  acc->sum = calloc (n, sizeof *acc->sum);
  if (image->sample == GH_SAMPLE_F32)
    acc->weight = calloc (n, sizeof *acc->weight);
  if (!acc->sum || (image->sample == GH_SAMPLE_F32 && !acc->weight))
    {
      gh_accum_free (acc);
      return GH_ERR_NOMEM;
    }
  return GH_OK;
}

int
gh_accum_fits (const gh_accum *acc, const gh_image *image)
{
  return acc->sum && acc->bins == image->bins
         && (acc->weight != NULL) == (image->sample == GH_SAMPLE_F32);
}

void
gh_accum_zero (gh_accum *acc)
{
  size_t n = (size_t) GH_NUM_CHANNELS * (size_t) acc->bins;
  memset (acc->sum, 0, n * sizeof *acc->sum);
  if (acc->weight)
    memset (acc->weight, 0, n * sizeof *acc->weight);
}

void
gh_accum_add (gh_accum *dst, const gh_accum *src)
{
  size_t n = (size_t) GH_NUM_CHANNELS * (size_t) dst->bins;
  for (size_t i = 0; i < n; i++)
    {
      dst->sum[i] += src->sum[i];
      if (dst->weight)
        dst->weight[i] += src->weight[i];
    }
}

void
gh_accum_free (gh_accum *acc)
{
  free (acc->sum);
  free (acc->weight);
  acc->sum = NULL;
  acc->weight = NULL;
}

uint64_t
gh_full_weight (const gh_image *image, int channel)
{
  uint64_t w = image->has_mask ? 255 : 1;
  if (channel != GH_CHANNEL_ALPHA && gh_layout_has_alpha (image->layout))
    w *= 255;
  return w;
}

gh_status
gh_accum_finish (const gh_accum *acc, const gh_image *image,
                 gh_histogram *out, gh_error *error)
{
  gh_status st = gh_histogram_reset (out, acc->bins, acc->weight != NULL,
                                     error);
  size_t bins = (size_t) acc->bins;

  if (st != GH_OK)
    return st;
  out->channels = gh_image_channels (image);
  for (int c = 0; c < GH_NUM_CHANNELS; c++)
    {
      if (!acc->weight)
        out->unit[c] = gh_full_weight (image, c);
      if (!(out->channels & (1u << c)))
        continue;
      for (size_t b = 0; b < bins; b++)
        if (acc->weight)
          out->weight[c * bins + b] = acc->weight[c * bins + b];
        else
          out->raw[c * bins + b] = acc->sum[c * bins + b];
    }
  return GH_OK;
}
