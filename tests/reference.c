/* SPDX-License-Identifier: GPL-3.0-or-later */
/* reference.c — the plain reference histogram (reference.h). */
#include "reference.h"

#include "accum.h"
#include "layout.h"
#include "pixel.h"

gh_status
gh_reference_begin (const gh_image *image, gh_histogram *h)
{
  gh_status st = gh_histogram_reset (h, image->bins,
                                     image->sample == GH_SAMPLE_F32, NULL);
  if (st != GH_OK)
    return st;
  /* The channels asked for (gh_image.channels), each counted below only
   * when asked. */
  h->channels = gh_layout_channels (image->layout)
                & (image->channels ? image->channels : ~0u);
  /* Written out again rather than through gh_full_weight: the reference
   * shares nothing with the backends but the binning. */
  for (int c = 0; c < GH_NUM_CHANNELS && image->sample == GH_SAMPLE_U8; c++)
    {
      uint64_t unit = image->has_mask ? 255 : 1;
      if (c != GH_CHANNEL_ALPHA && gh_layout_has_alpha (image->layout))
        unit *= 255;
      h->unit[c] = unit;
    }
  return GH_OK;
}

#define HAS(c) (h->channels & (1u << GH_CHANNEL_##c))

/* Float pixels: every weight a product of doubles, as GIMP sums them. */
static void
add_f32 (const gh_image *image, const gh_piece *piece, gh_histogram *h)
{
  int bpp = gh_layout_bpp (image->layout), bins = h->bins;
  int alpha = gh_layout_has_alpha (image->layout);
  double *w = h->weight;

  for (size_t y = 0; y < piece->height; y++)
    for (size_t x = 0; x < piece->width; x++)
      {
        const float *p
          = (const float *) ((const uint8_t *) piece->pixels
                             + y * piece->stride)
            + x * bpp;
        double mask
          = image->has_mask
              ? ((const float *) ((const uint8_t *) piece->mask
                                  + y * piece->mask_stride))[x]
              : 1.0;
        double weight = mask * (alpha ? p[bpp - 1] : 1.0);

        if (gh_layout_is_rgb (image->layout))
          {
            if (HAS (VALUE))
              w[GH_CHANNEL_VALUE * bins
                + gh_bin_f32 (gh_max3_f32 (p[0], p[1], p[2]), bins)]
                += weight;
            for (int k = 0; k < 3; k++)
              if (h->channels & (1u << (GH_CHANNEL_RED + k)))
                w[(GH_CHANNEL_RED + k) * bins + gh_bin_f32 (p[k], bins)]
                  += weight;
            if (HAS (LUMINANCE))
              w[GH_CHANNEL_LUMINANCE * bins
                + gh_bin_f32 (image->luminance == GH_LUMINANCE_LINEAR
                                ? gh_luminance_linear_f32 (p[0], p[1], p[2])
                                : gh_luminance_f32 (p[0], p[1], p[2]),
                              bins)]
                += weight;
          }
        else if (HAS (VALUE))
          w[GH_CHANNEL_VALUE * bins + gh_bin_f32 (p[0], bins)] += weight;
        if (alpha && HAS (ALPHA))
          w[GH_CHANNEL_ALPHA * bins + gh_bin_f32 (p[bpp - 1], bins)] += mask;
      }
}

static void
add_u8 (const gh_image *image, const gh_piece *piece, gh_histogram *h)
{
  int bpp = gh_layout_bpp (image->layout);
  int alpha = gh_layout_has_alpha (image->layout);
  uint64_t *raw = h->raw;
  size_t bins = (size_t) h->bins;

  for (size_t y = 0; y < piece->height; y++)
    for (size_t x = 0; x < piece->width; x++)
      {
        const uint8_t *p
          = (const uint8_t *) piece->pixels + y * piece->stride + x * bpp;
        uint64_t mask
          = image->has_mask
              ? ((const uint8_t *) piece->mask)[y * piece->mask_stride + x]
              : 1;
        uint64_t weight = mask * (alpha ? p[bpp - 1] : 1);

        if (gh_layout_is_rgb (image->layout))
          {
            if (HAS (VALUE))
              raw[GH_CHANNEL_VALUE * bins + gh_max3 (p[0], p[1], p[2])]
                += weight;
            for (int k = 0; k < 3; k++)
              if (h->channels & (1u << (GH_CHANNEL_RED + k)))
                raw[(GH_CHANNEL_RED + k) * bins + p[k]] += weight;
            if (HAS (LUMINANCE))
              raw[GH_CHANNEL_LUMINANCE * bins
                  + (image->luminance == GH_LUMINANCE_LINEAR
                       ? gh_luminance_bin_linear (p[0], p[1], p[2])
                       : gh_luminance_bin_gimp (p[0], p[1], p[2]))]
                += weight;
          }
        else if (HAS (VALUE))
          raw[GH_CHANNEL_VALUE * bins + p[0]] += weight;
        if (alpha && HAS (ALPHA))
          raw[GH_CHANNEL_ALPHA * bins + p[bpp - 1]] += mask;
      }
}

void
gh_reference_add (const gh_image *image, const gh_piece *piece,
                  gh_histogram *h)
{
  if (image->sample == GH_SAMPLE_F32)
    add_f32 (image, piece, h);
  else
    add_u8 (image, piece, h);
}
