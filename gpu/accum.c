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
  if (image->sample != GH_SAMPLE_U8)
    return gh_fail (error, GH_ERR_UNSUPPORTED,
                    "unsupported sample type %d (only 8-bit samples so far)",
                    (int) image->sample);
  if (image->bins != 256)
    return gh_fail (error, GH_ERR_UNSUPPORTED,
                    "%d bins requested; 8-bit samples have 256",
                    image->bins);
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
  size_t bpp = (size_t) gh_layout_bpp (image->layout);

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
  if (image->has_mask)
    {
      if (!piece->mask)
        return gh_fail (error, GH_ERR_INVALID,
                        "the image has a mask but the piece has none");
      if (piece->mask_stride < piece->width)
        return gh_fail (error, GH_ERR_INVALID,
                        "mask stride %zu is shorter than a row (%zu bytes)",
                        piece->mask_stride, piece->width);
      if (!rows_fit (piece->width, piece->mask_stride, piece->height))
        return gh_fail (error, GH_ERR_INVALID,
                        "the mask's rows overflow the address space");
    }
  return GH_OK;
}

gh_status
gh_accum_init (gh_accum *acc, int bins)
{
  size_t n = (size_t) GH_NUM_CHANNELS * (size_t) bins;
  acc->bins = bins;
  acc->count = calloc (n, sizeof *acc->count);
  acc->deficit = calloc (n, sizeof *acc->deficit);
  if (!acc->count || !acc->deficit)
    {
      gh_accum_free (acc);
      return GH_ERR_NOMEM;
    }
  return GH_OK;
}

void
gh_accum_zero (gh_accum *acc)
{
  size_t n = (size_t) GH_NUM_CHANNELS * (size_t) acc->bins;
  memset (acc->count, 0, n * sizeof *acc->count);
  memset (acc->deficit, 0, n * sizeof *acc->deficit);
}

void
gh_accum_add (gh_accum *dst, const gh_accum *src)
{
  size_t n = (size_t) GH_NUM_CHANNELS * (size_t) dst->bins;
  for (size_t i = 0; i < n; i++)
    {
      dst->count[i] += src->count[i];
      dst->deficit[i] += src->deficit[i];
    }
}

void
gh_accum_free (gh_accum *acc)
{
  free (acc->count);
  free (acc->deficit);
  acc->count = acc->deficit = NULL;
}

gh_status
gh_accum_finish (const gh_accum *acc, const gh_image *image,
                 gh_histogram *out, gh_error *error)
{
  gh_status st = gh_histogram_reset (out, acc->bins, error);
  uint64_t alpha_unit = image->has_mask ? 255 : 1;
  uint64_t colour_unit
    = alpha_unit * (gh_layout_has_alpha (image->layout) ? 255 : 1);

  if (st != GH_OK)
    return st;
  out->channels = gh_layout_channels (image->layout);
  for (int c = 0; c < GH_NUM_CHANNELS; c++)
    {
      uint64_t unit = c == GH_CHANNEL_ALPHA ? alpha_unit : colour_unit;
      size_t base = (size_t) c * (size_t) acc->bins;
      out->unit[c] = unit;
      if (!(out->channels & (1u << c)))
        continue;
      for (int b = 0; b < acc->bins; b++)
        out->raw[base + b]
          = unit * acc->count[base + b] - acc->deficit[base + b];
    }
  return GH_OK;
}
