/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ops.c — what equalize, binarize and posterize do to a strip of pixels
 * (gh_op in gpu_histogram.h), written once for every host: prepared from
 * the image's histogram, then applied strip by strip; the dispatch of
 * every kind, match (match.c) and CLAHE (clahe.c) included.  Luminance
 * modes move the colour by colour.c's model. */
#include "apply.h"

#include "clahe.h"
#include "colour.h"
#include "fail.h"
#include "layout.h"
#include "op_kind.h"
#include "pixel.h"

#include <stdlib.h>
#include <string.h>

_Static_assert (sizeof ((gh_op *) 0)->thresholds
                  == (GH_MULTI_OTSU_MAX_CLASSES - 1) * sizeof (int),
                "gh_op holds the thresholds of the most classes");

/* The inverse of a curve: the value whose cumulative share is q, the
 * count of each bin spread evenly across it as gh_equalize_curve_map
 * does. */
static float
curve_inverse (const gh_equalize_curve *c, float q)
{
  double want = (double) q * c->total, pos;
  int lo = 1, hi = c->bins, k;

  if (want <= 0.0)
    {
      for (k = 0; k < c->bins - 1 && !(c->below[k + 1] > 0.0); k++)
        ;
      pos = k - 0.5;
    }
  else
    {
      /* The first k + 1 with below[k + 1] >= want: bin k is occupied. */
      if (want > c->total)
        want = c->total;
      while (lo < hi)
        {
          int mid = lo + (hi - lo) / 2;
          if (c->below[mid] >= want)
            hi = mid;
          else
            lo = mid + 1;
        }
      k = lo - 1;
      pos = k - 0.5
            + (want - c->below[k]) / (c->below[k + 1] - c->below[k]);
    }
  pos /= c->bins - 1;
  return (float) gh_clamp (pos, 0.0, 1.0);
}

/* F32: the mapping of colour channel k (curves[k], then the inverse of
 * targets[k] when the op matches a reference). */
static float
op_map_f32 (const gh_op *op, int k, float v)
{
  float q = gh_equalize_curve_map (&op->curves[k], v);
  return op->targets[k].below ? curve_inverse (&op->targets[k], q) : q;
}

gh_status
gh_op_equalize (gh_op *op, const gh_histogram *hist, gh_layout layout,
                gh_sample sample, gh_luminance luminance,
                gh_equalize_mode mode, gh_error *error)
{
  int rgb = gh_layout_is_rgb (layout);
  gh_channel channels[3];
  int n = 0;
  double *counts;
  gh_status st;

  if (!op)
    return gh_fail (error, GH_ERR_INVALID, "no operation given");
  memset (op, 0, sizeof *op);
  if ((st = gh_op_check_kind (layout, sample, luminance, error)) != GH_OK
      || (st = gh_op_check_mode ("equalize", mode, error)) != GH_OK)
    return st;
  if (!hist || !hist->raw)
    return gh_fail (error, GH_ERR_INVALID, "no histogram given");
  if ((st = gh_op_check_bins ("", hist->bins, sample, error)) != GH_OK)
    return st;
  /* On gray, luminance is the gray level: both modes are the same. */
  if (rgb && mode == GH_EQUALIZE_LUMINANCE)
    channels[n++] = GH_CHANNEL_LUMINANCE;
  else if (rgb)
    for (int k = 0; k < 3; k++)
      channels[n++] = (gh_channel) (GH_CHANNEL_RED + k);
  else
    channels[n++] = GH_CHANNEL_VALUE;
  for (int k = 0; k < n; k++)
    if (!(hist->channels & (1u << channels[k])))
      return gh_fail (error, GH_ERR_INVALID,
                      "the histogram has no %s channel",
                      gh_channel_name (channels[k]));
  if (!(counts = malloc ((size_t) hist->bins * sizeof *counts)))
    return gh_fail (error, GH_ERR_NOMEM, "out of memory for %d bins",
                    hist->bins);
  for (int k = 0; k < n && st == GH_OK; k++)
    {
      gh_histogram_counts (hist, channels[k], counts);
      if (sample == GH_SAMPLE_U8)
        gh_equalize_table (counts, 256, op->tables[k]);
      else if (gh_equalize_curve_init (&op->curves[k], counts, hist->bins)
               != GH_OK)
        st = gh_fail (error, GH_ERR_NOMEM,
                      "out of memory for an equalization curve of %d bins",
                      hist->bins);
    }
  free (counts);
  op->layout = layout;
  op->sample = sample;
  op->luminance = luminance;
  op->bins = hist->bins;
  op->kind = rgb && mode == GH_EQUALIZE_LUMINANCE ? GH_OP_LUMINANCE
                                                  : GH_OP_CHANNELS;
  if (st != GH_OK)
    gh_op_clear (op);
  return st;
}

gh_status
gh_op_binarize (gh_op *op, gh_layout layout, gh_sample sample,
                gh_luminance luminance, int bins, gh_channel channel,
                int threshold_bin, gh_error *error)
{
  return gh_op_posterize (op, layout, sample, luminance, bins, channel, 1,
                          &threshold_bin, error);
}

gh_status
gh_op_posterize (gh_op *op, gh_layout layout, gh_sample sample,
                 gh_luminance luminance, int bins, gh_channel channel,
                 int n_thresholds, const int *threshold_bins,
                 gh_error *error)
{
  gh_status st;

  if (!op)
    return gh_fail (error, GH_ERR_INVALID, "no operation given");
  memset (op, 0, sizeof *op);
  if ((st = gh_op_check_kind (layout, sample, luminance, error)) != GH_OK)
    return st;
  if (sample == GH_SAMPLE_U8 ? bins != 256 : bins < 2 || bins > 65536)
    return gh_fail (error, GH_ERR_INVALID, "%d bins do not fit %s samples",
                    bins, sample == GH_SAMPLE_U8 ? "8-bit" : "float");
  if ((unsigned) channel >= GH_NUM_CHANNELS
      || !(gh_layout_channels (layout) & (1u << channel)))
    return gh_fail (error, GH_ERR_INVALID, "this image has no %s channel",
                    (unsigned) channel < GH_NUM_CHANNELS
                      ? gh_channel_name (channel)
                      : "such");
  if (n_thresholds < 1 || n_thresholds > GH_MULTI_OTSU_MAX_CLASSES - 1
      || !threshold_bins)
    return gh_fail (error, GH_ERR_INVALID,
                    "%d thresholds; posterize takes 1 to %d", n_thresholds,
                    GH_MULTI_OTSU_MAX_CLASSES - 1);
  for (int i = 0; i < n_thresholds; i++)
    {
      if (threshold_bins[i] < 0 || threshold_bins[i] >= bins)
        return gh_fail (error, GH_ERR_INVALID,
                        "threshold bin %d is not in 0..%d",
                        threshold_bins[i], bins - 1);
      if (i > 0 && threshold_bins[i] <= threshold_bins[i - 1])
        return gh_fail (error, GH_ERR_INVALID,
                        "thresholds %d, %d are not ascending",
                        threshold_bins[i - 1], threshold_bins[i]);
      op->thresholds[i] = threshold_bins[i];
    }
  op->kind = GH_OP_POSTERIZE;
  op->layout = layout;
  op->sample = sample;
  op->luminance = luminance;
  op->bins = bins;
  op->channel = channel;
  op->n_thresholds = n_thresholds;
  return GH_OK;
}

gh_status
gh_op_apply (const gh_op *op, void *pixels, size_t width, size_t height,
             size_t stride, gh_error *error)
{
  return gh_op_apply_rect (op, pixels, 0, 0, width, height, stride, error);
}

gh_status
gh_op_apply_rect (const gh_op *op, void *pixels, size_t x0, size_t y0,
                  size_t width, size_t height, size_t stride,
                  gh_error *error)
{
  int bpp;
  gh_status st;

  if (!op || op->kind == GH_OP_NONE)
    return gh_fail (error, GH_ERR_STATE, "the operation is not prepared");
  if (op->kind == GH_OP_CLAHE)
    return gh_clahe_apply (op, pixels, x0, y0, width, height, stride, error);
  if (op->kind == GH_OP_POSTERIZE)
    return gh_posterize_strip (op->layout, op->sample, op->luminance, pixels,
                               width, height, stride, op->channel,
                               op->n_thresholds, op->thresholds, op->bins,
                               error);
  if (op->kind == GH_OP_CHANNELS && op->sample == GH_SAMPLE_U8)
    {
      const uint16_t *const t[3]
        = { op->tables[0], op->tables[1], op->tables[2] };
      return gh_apply_tables (op->layout, pixels, width, height, stride, t,
                              error);
    }
  st = gh_strip_check (op->layout, op->sample, pixels, width, height, stride,
                       error);
  if (st != GH_OK)
    return st;
  bpp = gh_layout_bpp (op->layout);
  for (size_t y = 0; y < height; y++)
    {
      uint8_t *row = (uint8_t *) pixels + y * stride;
      if (op->sample == GH_SAMPLE_U8)
        for (size_t x = 0; x < width; x += GH_COLOUR_SPAN)
          {
            int n = width - x < GH_COLOUR_SPAN ? (int) (width - x)
                                               : GH_COLOUR_SPAN;
            uint8_t *p = row + x * bpp, level[GH_COLOUR_SPAN];
            gh_colour_span span;
            gh_op_luminance_keys_u8 (op, p, n, &span, level);
            for (int i = 0; i < n; i++)
              level[i] = (uint8_t) op->tables[0][level[i]];
            gh_op_move_luminance_u8 (op, &span, p, n, level);
          }
      else if (op->kind == GH_OP_CHANNELS)
        for (float *p = (float *) row; p < (float *) row + width * bpp;
             p += bpp)
          for (int k = 0; k < (gh_layout_is_rgb (op->layout) ? 3 : 1); k++)
            p[k] = op_map_f32 (op, k, p[k]);
      else
        for (float *p = (float *) row; p < (float *) row + width * bpp;
             p += bpp)
          gh_op_move_luminance_f32 (
            op, p, op_map_f32 (op, 0, gh_op_luminance_key_f32 (op, p)));
    }
  return GH_OK;
}

void
gh_op_clear (gh_op *op)
{
  if (!op)
    return;
  for (int k = 0; k < 3; k++)
    {
      gh_equalize_curve_clear (&op->curves[k]);
      gh_equalize_curve_clear (&op->targets[k]);
    }
  gh_clahe_map_free (op->clahe);
  memset (op, 0, sizeof *op);
}
