/* SPDX-License-Identifier: GPL-3.0-or-later */
/* layout.c — layouts and the input checks (layout.h). */
#include "layout.h"

#include "fail.h"

#include <stdint.h>

int
gh_layout_bpp (gh_layout layout)
{
  return (int) layout;
}

int
gh_layout_has_alpha (gh_layout layout)
{
  return layout == GH_LAYOUT_GRAYA || layout == GH_LAYOUT_RGBA;
}

int
gh_layout_is_rgb (gh_layout layout)
{
  return layout == GH_LAYOUT_RGB || layout == GH_LAYOUT_RGBA;
}

size_t
gh_sample_bytes (gh_sample sample)
{
  return sample == GH_SAMPLE_F32 ? sizeof (float) : 1;
}

size_t
gh_pixel_bytes (const gh_image *image)
{
  return (size_t) gh_layout_bpp (image->layout)
         * gh_sample_bytes (image->sample);
}

unsigned
gh_image_channels (const gh_image *image)
{
  unsigned have = gh_layout_channels (image->layout);
  return image->channels ? have & image->channels : have;
}

unsigned
gh_layout_channels (gh_layout layout)
{
  unsigned c = 1u << GH_CHANNEL_VALUE;
  if (gh_layout_is_rgb (layout))
    c |= 1u << GH_CHANNEL_RED | 1u << GH_CHANNEL_GREEN
         | 1u << GH_CHANNEL_BLUE | 1u << GH_CHANNEL_LUMINANCE;
  if (gh_layout_has_alpha (layout))
    c |= 1u << GH_CHANNEL_ALPHA;
  return c;
}

gh_status
gh_image_check (const gh_image *image, gh_error *error)
{
  if (!image)
    return gh_fail (error, GH_ERR_INVALID, "no image description given");
  if (image->layout < GH_LAYOUT_GRAY || image->layout > GH_LAYOUT_RGBA)
    return gh_fail (error, GH_ERR_INVALID,
                    "unsupported channel count %d (1 to 4 are)",
                    (int) image->layout);
  if (image->sample != GH_SAMPLE_U8 && image->sample != GH_SAMPLE_F32)
    return gh_fail (error, GH_ERR_UNSUPPORTED,
                    "unsupported sample type %d (8-bit and float are)",
                    (int) image->sample);
  if (image->sample == GH_SAMPLE_U8 && image->bins != 256)
    return gh_fail (error, GH_ERR_UNSUPPORTED,
                    "%d bins requested; 8-bit samples have 256",
                    image->bins);
  if (image->bins < 2 || image->bins > 65536)
    return gh_fail (error, GH_ERR_INVALID,
                    "%d bins requested; 2 to 65536 are possible",
                    image->bins);
  if (image->luminance != GH_LUMINANCE_PERCEPTUAL
      && image->luminance != GH_LUMINANCE_LINEAR)
    return gh_fail (error, GH_ERR_INVALID,
                    "unknown luminance rule %d (0 GIMP 2.10's, 1 GIMP 3's)",
                    (int) image->luminance);
  if (image->channels >> GH_NUM_CHANNELS)
    return gh_fail (error, GH_ERR_INVALID,
                    "channels 0x%x: bits 0 to %d name the channels",
                    image->channels, GH_NUM_CHANNELS - 1);
  return GH_OK;
}

/* True when rows of `row_bytes` bytes, `stride` apart, `height` of them,
 * span an addressable range. */
static int
rows_fit (size_t row_bytes, size_t stride, size_t height)
{
  return (height - 1) <= (SIZE_MAX - row_bytes) / stride;
}

gh_status
gh_piece_check (const gh_image *image, const gh_piece *piece,
                gh_error *error)
{
  size_t bpp = gh_pixel_bytes (image);
  size_t mask_row = piece ? piece->width * gh_sample_bytes (image->sample) : 0;

  if (!piece)
    return gh_fail (error, GH_ERR_INVALID, "no piece given");
  if (!piece->pixels)
    return gh_fail (error, GH_ERR_INVALID, "the piece has no pixel buffer");
  if (piece->width == 0 || piece->height == 0)
    return gh_fail (error, GH_ERR_INVALID, "the piece is empty (%zux%zu)",
                    piece->width, piece->height);
  if (piece->width > SIZE_MAX / bpp
      || piece->width > (size_t) 1 << 40 || piece->height > (size_t) 1 << 40)
    return gh_fail (error, GH_ERR_INVALID, "the piece is too large (%zux%zu)",
                    piece->width, piece->height);
  if (piece->stride < piece->width * bpp)
    return gh_fail (error, GH_ERR_INVALID,
                    "stride %zu is shorter than a row (%zu bytes)",
                    piece->stride, piece->width * bpp);
  if (!rows_fit (piece->width * bpp, piece->stride, piece->height))
    return gh_fail (error, GH_ERR_INVALID,
                    "the piece's rows overflow the address space");
  /* Float rows must start on a float: a stride of odd bytes would read
   * every row after the first misaligned. */
  if (piece->stride % gh_sample_bytes (image->sample)
      || (image->has_mask
          && piece->mask_stride % gh_sample_bytes (image->sample)))
    return gh_fail (error, GH_ERR_INVALID,
                    "stride %zu (mask %zu) is not a whole number of %zu-byte "
                    "samples", piece->stride, piece->mask_stride,
                    gh_sample_bytes (image->sample));
  if (image->has_mask)
    {
      if (!piece->mask)
        return gh_fail (error, GH_ERR_INVALID,
                        "the image has a mask but the piece has none");
      if (piece->mask_stride < mask_row)
        return gh_fail (error, GH_ERR_INVALID,
                        "mask stride %zu is shorter than a row (%zu bytes)",
                        piece->mask_stride, mask_row);
      if (!rows_fit (mask_row, piece->mask_stride, piece->height))
        return gh_fail (error, GH_ERR_INVALID,
                        "the mask's rows overflow the address space");
    }
  return GH_OK;
}

void
gh_piece_sub (const gh_image *image, const gh_piece *piece, size_t x,
              size_t y, size_t width, size_t height, gh_piece *part)
{
  *part = *piece;
  part->pixels = (const uint8_t *) piece->pixels + y * piece->stride
                 + x * gh_pixel_bytes (image);
  if (image->has_mask)
    part->mask = (const uint8_t *) piece->mask + y * piece->mask_stride
                 + x * gh_sample_bytes (image->sample);
  part->width = width;
  part->height = height;
}
