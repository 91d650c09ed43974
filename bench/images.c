/* SPDX-License-Identifier: GPL-3.0-or-later */
/* images.c — benchmark inputs (images.h). */
#define _POSIX_C_SOURCE 200809L
#include "images.h"

#include "pnm.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *const image_kind_names[IMG_KINDS]
  = { "uniform", "all-equal", "90%-one", "gradient", "photo" };

static uint64_t
next (uint64_t *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static int
tile_photo (size_t width, size_t height, uint8_t *rgba, const char *path)
{
  pnm_image im;
  char err[256];
  uint8_t *src;
  size_t row;

  if (!path || pnm_open (path, &im, err, sizeof err))
    return -1;
  row = im.width * (size_t) im.depth;
  src = malloc (row * im.height);
  if (!src || pnm_read_rows (&im, src, im.height))
    {
      free (src);
      pnm_close (&im);
      return -1;
    }
  for (size_t y = 0; y < height; y++)
    for (size_t x = 0; x < width; x++)
      {
        const uint8_t *s
          = src + (y % im.height) * row + (x % im.width) * (size_t) im.depth;
        uint8_t *d = rgba + (y * width + x) * 4;
        d[0] = s[0];
        d[1] = im.depth >= 3 ? s[1] : s[0];
        d[2] = im.depth >= 3 ? s[2] : s[0];
        d[3] = 255;
      }
  free (src);
  pnm_close (&im);
  return 0;
}

int
image_make (image_kind kind, size_t width, size_t height, uint8_t *rgba,
            const char *photo)
{
  uint64_t s = 0x9E3779B97F4A7C15ull;
  size_t n = width * height;

  if (kind == IMG_PHOTO)
    return tile_photo (width, height, rgba, photo);
  for (size_t i = 0; i < n; i++)
    {
      uint8_t *p = rgba + i * 4;
      uint64_t r = next (&s);
      switch (kind)
        {
        case IMG_ALL_EQUAL:
          p[0] = 97, p[1] = 97, p[2] = 97;
          break;
        case IMG_NINETY:
          if (r % 10)
            p[0] = 200, p[1] = 200, p[2] = 200;
          else
            p[0] = (uint8_t) (r >> 8), p[1] = (uint8_t) (r >> 16),
            p[2] = (uint8_t) (r >> 24);
          break;
        case IMG_GRADIENT:
          {
            size_t x = i % width, y = i / width;
            p[0] = (uint8_t) (x * 256 / width);
            p[1] = (uint8_t) (y * 256 / height);
            p[2] = (uint8_t) ((x + y) * 128 / (width + height) * 2);
          }
          break;
        default:
          p[0] = (uint8_t) r, p[1] = (uint8_t) (r >> 8),
          p[2] = (uint8_t) (r >> 16);
          break;
        }
      p[3] = 255;
    }
  return 0;
}

void
image_make_weighted (size_t width, size_t height, uint8_t *rgba,
                     uint8_t *mask)
{
  for (size_t y = 0; y < height; y++)
    for (size_t x = 0; x < width; x++)
      {
        size_t i = y * width + x;
        /* Opaque and selected in the middle, ramps towards the edges. */
        size_t dx = x < width / 2 ? x : width - 1 - x;
        size_t dy = y < height / 2 ? y : height - 1 - y;
        size_t d = dx < dy ? dx : dy;
        rgba[i * 4 + 3] = (uint8_t) (d * 8 > 255 ? 255 : d * 8);
        mask[i] = (uint8_t) ((x * 255) / (width ? width : 1));
      }
}

double
now_seconds (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return (double) t.tv_sec + (double) t.tv_nsec * 1e-9;
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

double
median (double *v, int n)
{
  qsort (v, (size_t) n, sizeof *v, compare_doubles);
  return v[n / 2];
}
