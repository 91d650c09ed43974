/* SPDX-License-Identifier: GPL-3.0-or-later */
/* apply.c — equalization tables and thresholds applied to strips, and
 * a pixel's level in a channel under either luminance rule. */
#include "apply.h"

#include "fail.h"
#include "layout.h"
#include "pixel.h"

#include <stdlib.h>
#include <string.h>

gh_status
gh_strip_check (gh_layout layout, gh_sample sample, const void *pixels,
                size_t width, size_t height, size_t stride, gh_error *error)
{
  gh_image image = { layout, sample, 256, 0, GH_LUMINANCE_PERCEPTUAL, 0 };
  gh_piece piece = { pixels, width, height, stride, NULL, 0 };
  gh_status st = gh_image_check (&image, error);
  return st != GH_OK ? st : gh_piece_check (&image, &piece, error);
}

/* A pixel's level in `channel`, -1 where the layout lacks it; inlined
 * with a constant layout and channel in posterize_rows. */
static inline __attribute__ ((always_inline)) int
level_of (gh_layout layout, const uint8_t *p, gh_channel channel,
          gh_luminance luminance)
{
  int rgb = layout >= GH_LAYOUT_RGB;
  switch (channel)
    {
    case GH_CHANNEL_VALUE:
      return rgb ? (int) gh_max3 (p[0], p[1], p[2]) : p[0];
    case GH_CHANNEL_RED:
    case GH_CHANNEL_GREEN:
    case GH_CHANNEL_BLUE:
      return rgb ? p[channel - GH_CHANNEL_RED] : -1;
    case GH_CHANNEL_ALPHA:
      return layout == GH_LAYOUT_GRAYA || layout == GH_LAYOUT_RGBA
               ? p[(int) layout - 1]
               : -1;
    case GH_CHANNEL_LUMINANCE:
      if (!rgb)
        return -1;
      return luminance == GH_LUMINANCE_LINEAR
               ? gh_luminance_bin_linear (p[0], p[1], p[2])
               : gh_luminance_bin (p[0], p[1], p[2]);
    default:
      return -1;
    }
}

int
gh_pixel_level_with (gh_layout layout, const uint8_t *p, gh_channel channel,
                     gh_luminance luminance)
{
  return level_of (layout, p, channel, luminance);
}

/* The rows of a strip through byte tables, written once and specialised
 * for each layout through the constant bpp and colours: a sample is one
 * load from its table and one store, where a loop over a run-time layout
 * with the clamp inside took about twice as long (BENCHMARKS.md,
 * 2026-11-27). */
static inline __attribute__ ((always_inline)) void
apply_rows (uint8_t *pixels, size_t width, size_t height, size_t stride,
            const int bpp, const int colours, const uint8_t (*t)[256])
{
  for (size_t y = 0; y < height; y++)
    {
      uint8_t *p = pixels + y * stride;
      for (size_t x = 0; x < width; x++, p += bpp)
        for (int k = 0; k < colours; k++)
          p[k] = t[k][p[k]];
    }
}

gh_status
gh_apply_tables (gh_layout layout, void *pixels, size_t width, size_t height,
                 size_t stride, const uint16_t *const tables[3],
                 gh_error *error)
{
  gh_status st = gh_strip_check (layout, GH_SAMPLE_U8, pixels, width, height,
                                 stride, error);
  uint8_t t[3][256];
  int colours;

  if (st != GH_OK)
    return st;
  colours = gh_layout_is_rgb (layout) ? 3 : 1;
  for (int k = 0; k < colours; k++)
    {
      if (!tables || !tables[k])
        return gh_fail (error, GH_ERR_INVALID, "table %d is missing", k);
      for (int v = 0; v < 256; v++)
        t[k][v] = (uint8_t) (tables[k][v] > 255 ? 255 : tables[k][v]);
    }
  switch (layout)
    {
    case GH_LAYOUT_GRAY:
      apply_rows (pixels, width, height, stride, 1, 1, t);
      break;
    case GH_LAYOUT_GRAYA:
      apply_rows (pixels, width, height, stride, 2, 1, t);
      break;
    case GH_LAYOUT_RGB:
      apply_rows (pixels, width, height, stride, 3, 3, t);
      break;
    case GH_LAYOUT_RGBA:
      apply_rows (pixels, width, height, stride, 4, 3, t);
      break;
    }
  return GH_OK;
}

/* The class of a bin: how many thresholds it is above. */
static int
class_of (int bin, int n, const int *thresholds)
{
  int c = 0;
  while (c < n && bin > thresholds[c])
    c++;
  return c;
}

/* 8-bit rows posterized: each pixel's colour samples become `out` of its
 * level in `channel` (its class's level, one entry a level, so no search
 * of the thresholds a pixel).  Written once, specialised for each layout,
 * channel and luminance rule through the constant arguments, as
 * apply_rows; the cast keeps the layouts' instances of channels they
 * lack (never run: gh_op_posterize refuses them) inside the table. */
static inline __attribute__ ((always_inline)) void
posterize_rows (uint8_t *pixels, size_t width, size_t height, size_t stride,
                const gh_layout layout, const gh_channel channel,
                const gh_luminance luminance, const uint8_t out[256])
{
  const int bpp = (int) layout, colours = layout >= GH_LAYOUT_RGB ? 3 : 1;

  for (size_t y = 0; y < height; y++)
    {
      uint8_t *p = pixels + y * stride;
      for (size_t x = 0; x < width; x++, p += bpp)
        {
          uint8_t v = out[(uint8_t) level_of (layout, p, channel,
                                              luminance)];
          for (int k = 0; k < colours; k++)
            p[k] = v;
        }
    }
}

static inline __attribute__ ((always_inline)) void
posterize_layout (uint8_t *pixels, size_t width, size_t height,
                  size_t stride, const gh_layout layout, gh_channel channel,
                  gh_luminance luminance, const uint8_t out[256])
{
#define ROWS(c, l) posterize_rows (pixels, width, height, stride, layout, c, l, out)
  switch (channel)
    {
    case GH_CHANNEL_RED:
      ROWS (GH_CHANNEL_RED, GH_LUMINANCE_PERCEPTUAL);
      break;
    case GH_CHANNEL_GREEN:
      ROWS (GH_CHANNEL_GREEN, GH_LUMINANCE_PERCEPTUAL);
      break;
    case GH_CHANNEL_BLUE:
      ROWS (GH_CHANNEL_BLUE, GH_LUMINANCE_PERCEPTUAL);
      break;
    case GH_CHANNEL_ALPHA:
      ROWS (GH_CHANNEL_ALPHA, GH_LUMINANCE_PERCEPTUAL);
      break;
    case GH_CHANNEL_LUMINANCE:
      if (luminance == GH_LUMINANCE_LINEAR)
        ROWS (GH_CHANNEL_LUMINANCE, GH_LUMINANCE_LINEAR);
      else
        ROWS (GH_CHANNEL_LUMINANCE, GH_LUMINANCE_PERCEPTUAL);
      break;
    default:
      ROWS (GH_CHANNEL_VALUE, GH_LUMINANCE_PERCEPTUAL);
      break;
    }
#undef ROWS
}

gh_status
gh_posterize_strip (gh_layout layout, gh_sample sample,
                    gh_luminance luminance, void *pixels, size_t width,
                    size_t height, size_t stride, gh_channel channel, int n,
                    const int *thresholds, int bins, gh_error *error)
{
  gh_status st = gh_strip_check (layout, sample, pixels, width, height,
                                 stride, error);
  int bpp, colours;
  uint8_t out[256];

  /* gh_op_posterize checked the channel, the bins and the thresholds. */
  if (st != GH_OK)
    return st;
  if (sample == GH_SAMPLE_U8)
    {
      for (int b = 0; b < 256; b++)
        {
          int c = class_of (b, n, thresholds);
          out[b] = (uint8_t) ((c * 255 * 2 + n) / (2 * n)); /* rounded */
        }
#define CASE(l)                                                              \
  case GH_LAYOUT_##l:                                                        \
    posterize_layout (pixels, width, height, stride, GH_LAYOUT_##l, channel, \
                      luminance, out);                                       \
    break
      switch (layout)
        {
          CASE (GRAY);
          CASE (GRAYA);
          CASE (RGB);
          CASE (RGBA);
        }
#undef CASE
      return GH_OK;
    }
  bpp = gh_layout_bpp (layout);
  colours = gh_layout_is_rgb (layout) ? 3 : 1;
  for (size_t y = 0; y < height; y++)
    for (float *p = (float *) ((uint8_t *) pixels + y * stride);
         p < (float *) ((uint8_t *) pixels + y * stride) + width * bpp;
         p += bpp)
      {
        float v = (float) class_of (gh_pixel_bin_f32_with (layout, p,
                                                           channel, bins,
                                                           luminance),
                                    n, thresholds)
                  / (float) n;
        for (int k = 0; k < colours; k++)
          p[k] = v;
      }
  return GH_OK;
}

int
gh_pixel_bin_f32 (gh_layout layout, const float *p, gh_channel channel,
                  int bins)
{
  return gh_pixel_bin_f32_with (layout, p, channel, bins,
                                GH_LUMINANCE_PERCEPTUAL);
}

int
gh_pixel_bin_f32_with (gh_layout layout, const float *p, gh_channel channel,
                       int bins, gh_luminance luminance)
{
  int rgb = gh_layout_is_rgb (layout);
  switch (channel)
    {
    case GH_CHANNEL_VALUE:
      return gh_bin_f32 (rgb ? gh_max3_f32 (p[0], p[1], p[2]) : p[0], bins);
    case GH_CHANNEL_RED:
    case GH_CHANNEL_GREEN:
    case GH_CHANNEL_BLUE:
      return rgb ? gh_bin_f32 (p[channel - GH_CHANNEL_RED], bins) : -1;
    case GH_CHANNEL_ALPHA:
      return gh_layout_has_alpha (layout)
               ? gh_bin_f32 (p[gh_layout_bpp (layout) - 1], bins)
               : -1;
    case GH_CHANNEL_LUMINANCE:
      if (!rgb)
        return -1;
      return gh_bin_f32 (luminance == GH_LUMINANCE_LINEAR
                           ? gh_luminance_linear_f32 (p[0], p[1], p[2])
                           : gh_luminance_f32 (p[0], p[1], p[2]),
                         bins);
    default:
      return -1;
    }
}

gh_status
gh_equalize_curve_init (gh_equalize_curve *c, const double *counts, int bins)
{
  memset (c, 0, sizeof *c);
  if (!counts || bins < 2)
    return GH_ERR_INVALID;
  c->below = malloc (((size_t) bins + 1) * sizeof *c->below);
  if (!c->below)
    return GH_ERR_NOMEM;
  c->bins = bins;
  c->below[0] = 0.0;
  for (int k = 0; k < bins; k++)
    c->below[k + 1] = c->below[k] + (counts[k] > 0.0 ? counts[k] : 0.0);
  c->total = c->below[bins];
  return GH_OK;
}

float
gh_equalize_curve_map (const gh_equalize_curve *c, float v)
{
  /* Bin k holds positions [k - 0.5, k + 0.5) of v * (bins - 1); its count
   * is spread evenly across them. */
  double pos = (double) v * (c->bins - 1), frac, cum;
  int k = gh_bin_f32 (v, c->bins);
  if (!(c->total > 0.0))
    return v; /* an empty histogram: nothing to equalize */
  frac = pos - (k - 0.5);
  frac = frac < 0.0 ? 0.0 : frac > 1.0 ? 1.0 : frac;
  cum = c->below[k] + frac * (c->below[k + 1] - c->below[k]);
  cum /= c->total;
  return (float) (cum < 0.0 ? 0.0 : cum > 1.0 ? 1.0 : cum);
}

void
gh_equalize_curve_clear (gh_equalize_curve *c)
{
  free (c->below);
  memset (c, 0, sizeof *c);
}
