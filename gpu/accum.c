/* accum.c — layouts, input checks and the exact accumulator (accum.h). */
#include "accum.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

gh_status
gh_fail (gh_error *error, gh_status status, const char *fmt, ...)
{
  if (error)
    {
      va_list ap;
      va_start (ap, fmt);
      vsnprintf (error->message, sizeof error->message, fmt, ap);
      va_end (ap);
    }
  return status;
}

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
  out->channels = gh_layout_channels (image->layout);
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
