/* ops.c — what equalize and binarize do to a strip of pixels (gh_op in
 * gpu_histogram.h), written once for every host: prepared from the
 * image's histogram, then applied strip by strip.
 *
 * Luminance-only equalization moves each pixel's colour to a new
 * luminance keeping its hue (luminance_shift).  Under GIMP 2.10's rule
 * the model works on the stored R'G'B' samples and GIMP's perceptual
 * luminance of them; under GIMP 3's rule on the sRGB-decoded linear
 * samples and their Y, the samples being encoded back afterwards: in
 * both, the luminance changed is the one the histogram bins. */
#include "apply.h"

#include "accum.h"
#include "pixel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
  OP_NONE = 0, /* cleared, or never prepared */
  OP_EQUALIZE_CHANNELS,
  OP_EQUALIZE_LUMINANCE,
  OP_BINARIZE
};

/* GIMP_RGB_LUMINANCE: GIMP 2.10's weights in double. */
static double
perceptual_luminance (double r, double g, double b)
{
  return r * 0.22248840 + g * 0.71690369 + b * 0.06060791;
}

/* The colour model.  A pixel's colour c (white at `white`) is its
 * luminance `lum` plus a chroma offset c - lum.  Scaling c by
 * target / lum scales both, which keeps the hue and the ratios between
 * the samples.  Where that would push a sample past white the chroma is
 * shrunk instead, c = target + s (c - target) with the largest s that
 * fits: luminance and hue stay, saturation drops, and at target = white
 * the pixel is white. */
static void
luminance_shift (double c[3], double lum, double target, double white)
{
  double top = 0;

  for (int k = 0; k < 3; k++)
    {
      /* Black has no hue: it becomes the gray of the new luminance. */
      c[k] = lum > 0 ? c[k] * (target / lum) : target;
      top = top > c[k] ? top : c[k];
    }
  if (top > white)
    for (int k = 0; k < 3; k++)
      c[k] = target + (white - target) / (top - target) * (c[k] - target);
}

/* sRGB encoding of linear light, the inverse of the decode GIMP 3's
 * luminance uses. */
static double
srgb_encode (double v)
{
  return v > 0.0031308 ? 1.055 * pow (v, 1.0 / 2.4) - 0.055 : 12.92 * v;
}

static double
clamp (double v, double lo, double hi)
{
  return v > lo ? (v < hi ? v : hi) : lo; /* NaN to lo */
}

static void
equalize_luminance_u8 (const gh_op *op, uint8_t *p)
{
  int level = gh_pixel_level_with (op->layout, p, GH_CHANNEL_LUMINANCE,
                                   op->luminance);
  double target = op->tables[0][level] < 255 ? op->tables[0][level] : 255;
  double c[3];

  if (op->luminance == GH_LUMINANCE_LINEAR)
    {
      for (int k = 0; k < 3; k++)
        c[k] = gh_srgb_decode_u8[p[k]];
      luminance_shift (c,
                       c[0] * GH_BABL_Y_WR + c[1] * GH_BABL_Y_WG
                         + c[2] * GH_BABL_Y_WB,
                       target / 255.0, 1.0);
      for (int k = 0; k < 3; k++)
        c[k] = 255.0 * srgb_encode (c[k]);
    }
  else
    {
      for (int k = 0; k < 3; k++)
        c[k] = p[k];
      luminance_shift (c, perceptual_luminance (c[0], c[1], c[2]), target,
                       255.0);
    }
  for (int k = 0; k < 3; k++)
    p[k] = (uint8_t) clamp (floor (c[k] + 0.5), 0.0, 255.0);
}

static void
equalize_luminance_f32 (const gh_op *op, float *p)
{
  double c[3];

  if (op->luminance == GH_LUMINANCE_LINEAR)
    {
      float lum = gh_luminance_linear_f32 (p[0], p[1], p[2]);
      for (int k = 0; k < 3; k++)
        c[k] = gh_srgb_decode_f32 (p[k]);
      luminance_shift (c, lum, gh_equalize_curve_map (&op->curves[0], lum),
                       1.0);
      for (int k = 0; k < 3; k++)
        c[k] = srgb_encode (c[k]);
    }
  else
    {
      double lum = perceptual_luminance (p[0], p[1], p[2]);
      for (int k = 0; k < 3; k++)
        c[k] = p[k];
      /* The curve reads the luminance as the histogram binned it: the
       * double stored to float. */
      luminance_shift (c, lum,
                       gh_equalize_curve_map (&op->curves[0], (float) lum),
                       1.0);
    }
  /* Float layers may hold samples outside 0..1 (negative chroma, say);
   * the equalized result lies within the range. */
  for (int k = 0; k < 3; k++)
    p[k] = (float) clamp (c[k], 0.0, 1.0);
}

static gh_status
check_kind (gh_layout layout, gh_sample sample, gh_luminance luminance,
            gh_error *error)
{
  if (layout < GH_LAYOUT_GRAY || layout > GH_LAYOUT_RGBA)
    return gh_fail (error, GH_ERR_INVALID, "unknown layout %d",
                    (int) layout);
  if (sample != GH_SAMPLE_U8 && sample != GH_SAMPLE_F32)
    return gh_fail (error, GH_ERR_INVALID, "unknown sample type %d",
                    (int) sample);
  if (luminance != GH_LUMINANCE_PERCEPTUAL
      && luminance != GH_LUMINANCE_LINEAR)
    return gh_fail (error, GH_ERR_INVALID, "unknown luminance rule %d",
                    (int) luminance);
  return GH_OK;
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
  if ((st = check_kind (layout, sample, luminance, error)) != GH_OK)
    return st;
  if (mode != GH_EQUALIZE_CHANNELS && mode != GH_EQUALIZE_LUMINANCE)
    return gh_fail (error, GH_ERR_INVALID,
                    "equalize mode %d is not 0 (each channel) or 1 "
                    "(luminance)",
                    (int) mode);
  if (!hist || !hist->raw)
    return gh_fail (error, GH_ERR_INVALID, "no histogram given");
  if (sample == GH_SAMPLE_U8 ? hist->bins != 256
                             : hist->bins < 2 || hist->bins > 65536)
    return gh_fail (error, GH_ERR_INVALID,
                    "a histogram of %d bins does not fit %s samples",
                    hist->bins, sample == GH_SAMPLE_U8 ? "8-bit" : "float");
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
  op->kind = rgb && mode == GH_EQUALIZE_LUMINANCE ? OP_EQUALIZE_LUMINANCE
                                                  : OP_EQUALIZE_CHANNELS;
  if (st != GH_OK)
    gh_op_clear (op);
  return st;
}

gh_status
gh_op_binarize (gh_op *op, gh_layout layout, gh_sample sample,
                gh_luminance luminance, int bins, gh_channel channel,
                int threshold_bin, gh_error *error)
{
  gh_status st;

  if (!op)
    return gh_fail (error, GH_ERR_INVALID, "no operation given");
  memset (op, 0, sizeof *op);
  if ((st = check_kind (layout, sample, luminance, error)) != GH_OK)
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
  if (threshold_bin < 0 || threshold_bin >= bins)
    return gh_fail (error, GH_ERR_INVALID,
                    "threshold bin %d is not in 0..%d", threshold_bin,
                    bins - 1);
  op->kind = OP_BINARIZE;
  op->layout = layout;
  op->sample = sample;
  op->luminance = luminance;
  op->bins = bins;
  op->channel = channel;
  op->threshold_bin = threshold_bin;
  return GH_OK;
}

gh_status
gh_op_apply (const gh_op *op, void *pixels, size_t width, size_t height,
             size_t stride, gh_error *error)
{
  int bpp;
  gh_status st;

  if (!op || op->kind == OP_NONE)
    return gh_fail (error, GH_ERR_STATE, "the operation is not prepared");
  if (op->kind == OP_BINARIZE)
    return gh_threshold_strip (op->layout, op->sample, op->luminance, pixels,
                               width, height, stride, op->channel,
                               op->threshold_bin, op->bins, error);
  if (op->kind == OP_EQUALIZE_CHANNELS && op->sample == GH_SAMPLE_U8)
    {
      const uint16_t *const t[3]
        = { op->tables[0], op->tables[1], op->tables[2] };
      return gh_apply_tables (op->layout, pixels, width, height, stride, t,
                              error);
    }
  if (op->kind == OP_EQUALIZE_CHANNELS)
    {
      const gh_equalize_curve *const c[3]
        = { &op->curves[0], &op->curves[1], &op->curves[2] };
      return gh_apply_curves_f32 (op->layout, pixels, width, height, stride,
                                  c, error);
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
        for (uint8_t *p = row; p < row + width * bpp; p += bpp)
          equalize_luminance_u8 (op, p);
      else
        for (float *p = (float *) row; p < (float *) row + width * bpp;
             p += bpp)
          equalize_luminance_f32 (op, p);
    }
  return GH_OK;
}

void
gh_op_clear (gh_op *op)
{
  if (!op)
    return;
  for (int k = 0; k < 3; k++)
    gh_equalize_curve_clear (&op->curves[k]);
  memset (op, 0, sizeof *op);
}
