/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpu_backend.c — multi-threaded CPU histograms (cpu_backend.h). */
#include "cpu_backend.h"

#include "fail.h"
#include "layout.h"
#include "pixel.h"
#include "threads.h"

#include <stdlib.h>
#include <string.h>

/* Four copies of each 32-bit table: consecutive pixels go to different
 * copies, so equal values don't wait on each other's store.  Each table is
 * padded so no two of them start a multiple of 4 KB apart: otherwise the
 * same bin of two channels aliases in the store buffer and equal-valued
 * input stalls.  About 25 KB, inside L1. */
#define COPIES 4
#define BINS 256
#define ROW (BINS + 16)

typedef struct {
  uint32_t t[COPIES][GH_NUM_CHANNELS][ROW];
} tables;

/* Pieces smaller than this are counted on the calling thread: waking the
 * pool costs more than it saves. */
#define PARALLEL_MIN_PIXELS 65536

#define BIT(c) (1u << GH_CHANNEL_##c)

/* The sets of channels the count is specialised for: a call's channels
 * (gh_image.channels) round up to the first that holds them, so
 * equalizing R, G and B skips the value and the luminance (GIMP 3's, a
 * decode per sample, costs most), and a luminance or value call skips the
 * rest.  Alpha only in ALL and NO_LUMINANCE; gray layouts count VALUE
 * or ALL. */
enum {
  SET_RGB = BIT (RED) | BIT (GREEN) | BIT (BLUE),
  SET_VALUE = BIT (VALUE),
  SET_LUMINANCE = BIT (LUMINANCE),
  SET_ALL = (1u << GH_NUM_CHANNELS) - 1,
  /* A layer whose luminance is babl's counts it apart (its view). */
  SET_NO_LUMINANCE = SET_ALL & ~BIT (LUMINANCE)
};

/* Adds the tables of `channels` into acc and zeroes them: between calls
 * every table is zero, and a call touches only its set's. */
static void
flush_tables (tables *t, gh_accum *acc, unsigned channels)
{
  for (int c = 0; c < GH_NUM_CHANNELS; c++)
    {
      if (!(channels & (1u << c)))
        continue;
      uint64_t *dst = acc->sum + (size_t) c * BINS;
      for (int b = 0; b < BINS; b++)
        dst[b] += (uint64_t) t->t[0][c][b] + t->t[1][c][b] + t->t[2][c][b]
                  + t->t[3][c][b];
      for (int k = 0; k < COPIES; k++)
        memset (t->t[k][c], 0, sizeof t->t[k][c]);
    }
}

/* One pixel's weights into copy k (accum.h: alpha x mask for colour, the
 * mask for alpha, 1 without either).  Written once, specialised by the
 * compiler for each layout, mask, luminance rule and channel set through
 * the constant arguments, so GIMP 2.10's luminance pays nothing for GIMP
 * 3's, and a call nothing for channels outside its set. */
static inline __attribute__ ((always_inline)) void
count_pixel (const uint8_t *p, unsigned m, const int bpp, const int has_mask,
             const int linear, const unsigned set, uint32_t (*t)[ROW])
{
  const int has_alpha = bpp == 2 || bpp == 4;
  unsigned a = has_alpha ? p[bpp - 1] : 255u;
  unsigned w = (has_alpha ? a : 1u) * (has_mask ? m : 1u);

  if (bpp >= 3)
    {
      unsigned r = p[0], g = p[1], b = p[2];
      if (set & BIT (VALUE))
        t[GH_CHANNEL_VALUE][gh_max3 (r, g, b)] += w;
      if (set & SET_RGB)
        {
          t[GH_CHANNEL_RED][r] += w;
          t[GH_CHANNEL_GREEN][g] += w;
          t[GH_CHANNEL_BLUE][b] += w;
        }
      if (set & BIT (LUMINANCE))
        t[GH_CHANNEL_LUMINANCE][linear ? gh_luminance_bin_linear (r, g, b)
                                       : gh_luminance_bin (r, g, b)]
          += w;
    }
  else
    t[GH_CHANNEL_VALUE][p[0]] += w;
  if (has_alpha && (set & BIT (ALPHA)))
    t[GH_CHANNEL_ALPHA][a] += has_mask ? m : 1u;
}

static inline __attribute__ ((always_inline)) void
count_rows (const gh_piece *piece, const int bpp, const int has_mask,
            const int linear, const unsigned set, tables *t, gh_accum *acc)
{
  const int has_alpha = bpp == 2 || bpp == 4;
  /* The tables count_pixel writes. */
  const unsigned channels
    = (bpp >= 3 ? set : BIT (VALUE) | (set & BIT (ALPHA)))
      & (has_alpha ? SET_ALL : ~BIT (ALPHA));
  /* Pixels after which the 32-bit tables could overflow. */
  const size_t limit = 0xffffffffu / ((has_alpha ? 255u : 1u)
                                      * (has_mask ? 255u : 1u));
  size_t since_flush = 0;

  for (size_t y = 0; y < piece->height; y++)
    {
      const uint8_t *p = (const uint8_t *) piece->pixels + y * piece->stride;
      const uint8_t *m = has_mask ? (const uint8_t *) piece->mask
                                      + y * piece->mask_stride
                                  : NULL;
      size_t x = 0;

      while (x < piece->width)
        {
          size_t end = piece->width - x < limit - since_flush
                         ? piece->width
                         : x + (limit - since_flush);
          since_flush += end - x;
          for (; x + COPIES <= end; x += COPIES)
            for (int k = 0; k < COPIES; k++)
              count_pixel (p + (x + k) * bpp, has_mask ? m[x + k] : 255u,
                           bpp, has_mask, linear, set, t->t[k]);
          for (; x < end; x++)
            count_pixel (p + x * bpp, has_mask ? m[x] : 255u, bpp, has_mask,
                         linear, set, t->t[0]);
          if (since_flush == limit)
            {
              flush_tables (t, acc, channels);
              since_flush = 0;
            }
        }
    }
  flush_tables (t, acc, channels);
}

/* Float pixels: GIMP's float binning and double weights (alpha x mask,
 * the mask alone for alpha), summed straight into the accumulator. */
static inline __attribute__ ((always_inline)) void
count_rows_f32 (const gh_piece *piece, const int bpp, const int has_mask,
                const int linear, const unsigned set, gh_accum *acc)
{
  const int has_alpha = bpp == 2 || bpp == 4;
  const int bins = acc->bins;
  double *w = acc->weight;

  for (size_t y = 0; y < piece->height; y++)
    {
      const float *p = (const float *) ((const uint8_t *) piece->pixels
                                        + y * piece->stride);
      const float *m
        = has_mask ? (const float *) ((const uint8_t *) piece->mask
                                      + y * piece->mask_stride)
                   : NULL;
      for (size_t x = 0; x < piece->width; x++, p += bpp)
        {
          double mask = has_mask ? (double) m[x] : 1.0;
          double weight = (has_alpha ? (double) p[bpp - 1] : 1.0) * mask;
          if (bpp >= 3)
            {
              if (set & BIT (VALUE))
                w[GH_CHANNEL_VALUE * bins
                  + gh_bin_f32 (gh_max3_f32 (p[0], p[1], p[2]), bins)]
                  += weight;
              if (set & SET_RGB)
                {
                  w[GH_CHANNEL_RED * bins + gh_bin_f32 (p[0], bins)]
                    += weight;
                  w[GH_CHANNEL_GREEN * bins + gh_bin_f32 (p[1], bins)]
                    += weight;
                  w[GH_CHANNEL_BLUE * bins + gh_bin_f32 (p[2], bins)]
                    += weight;
                }
              if (set & BIT (LUMINANCE))
                w[GH_CHANNEL_LUMINANCE * bins
                  + gh_bin_f32 (linear
                                  ? gh_luminance_linear_f32 (p[0], p[1], p[2])
                                  : gh_luminance_f32 (p[0], p[1], p[2]),
                                bins)]
                  += weight;
            }
          else
            w[GH_CHANNEL_VALUE * bins + gh_bin_f32 (p[0], bins)] += weight;
          if (has_alpha && (set & BIT (ALPHA)))
            w[GH_CHANNEL_ALPHA * bins + gh_bin_f32 (p[bpp - 1], bins)]
              += mask;
        }
    }
}

/* The specialisations, chosen once a piece: each level turns one
 * run-time value into a constant for the next. */
static inline __attribute__ ((always_inline)) void
count_variant (const gh_piece *piece, const int f32, const int bpp,
               const int has_mask, const int linear, const unsigned set,
               tables *t, gh_accum *acc)
{
  if (f32)
    count_rows_f32 (piece, bpp, has_mask, linear, set, acc);
  else
    count_rows (piece, bpp, has_mask, linear, set, t, acc);
}

/* Gray layouts have no luminance (one rule) and count the value, with or
 * without alpha; colour layouts by the set, the rule only with the
 * luminance. */
static inline __attribute__ ((always_inline)) void
count_set (const gh_piece *piece, const int f32, const int bpp,
           const int has_mask, int linear, unsigned set, tables *t,
           gh_accum *acc)
{
  if (bpp < 3)
    {
      if (set == SET_ALL)
        count_variant (piece, f32, bpp, has_mask, 0, SET_ALL, t, acc);
      else
        count_variant (piece, f32, bpp, has_mask, 0, SET_VALUE, t, acc);
      return;
    }
  switch (set)
    {
    case SET_RGB:
      count_variant (piece, f32, bpp, has_mask, 0, SET_RGB, t, acc);
      break;
    case SET_VALUE:
      count_variant (piece, f32, bpp, has_mask, 0, SET_VALUE, t, acc);
      break;
    case SET_NO_LUMINANCE:
      count_variant (piece, f32, bpp, has_mask, 0, SET_NO_LUMINANCE, t, acc);
      break;
    case SET_LUMINANCE:
      if (linear)
        count_variant (piece, f32, bpp, has_mask, 1, SET_LUMINANCE, t, acc);
      else
        count_variant (piece, f32, bpp, has_mask, 0, SET_LUMINANCE, t, acc);
      break;
    default:
      if (linear)
        count_variant (piece, f32, bpp, has_mask, 1, SET_ALL, t, acc);
      else
        count_variant (piece, f32, bpp, has_mask, 0, SET_ALL, t, acc);
      break;
    }
}

static inline __attribute__ ((always_inline)) void
count_layout (const gh_image *image, const int f32, const gh_piece *piece,
              int linear, unsigned set, tables *t, gh_accum *acc)
{
  const int mask = image->has_mask != 0;

#define CASE(layout, bpp, m)                                                 \
  case GH_LAYOUT_##layout * 2 + m:                                           \
    count_set (piece, f32, bpp, m, linear, set, t, acc);                     \
    break
  switch (image->layout * 2 + mask)
    {
      CASE (GRAY, 1, 0);
      CASE (GRAY, 1, 1);
      CASE (GRAYA, 2, 0);
      CASE (GRAYA, 2, 1);
      CASE (RGB, 3, 0);
      CASE (RGB, 3, 1);
      CASE (RGBA, 4, 0);
      CASE (RGBA, 4, 1);
    }
#undef CASE
}

/* The smallest set holding the image's wanted channels. */
static unsigned
channel_set (const gh_image *image)
{
  static const unsigned sets[] = { SET_RGB, SET_VALUE, SET_LUMINANCE,
                                   SET_NO_LUMINANCE };
  unsigned want = gh_image_channels (image);

  if (!gh_layout_is_rgb (image->layout))
    return want & BIT (ALPHA) ? SET_ALL : SET_VALUE;
  for (size_t k = 0; k < sizeof sets / sizeof *sets; k++)
    if (!(want & ~sets[k]))
      return sets[k];
  return SET_ALL;
}

static void
count_with (const gh_image *image, const gh_piece *piece, tables *t,
            gh_accum *acc)
{
  /* Gray layouts have no luminance: one rule for them. */
  int linear = image->luminance == GH_LUMINANCE_LINEAR
               && gh_layout_is_rgb (image->layout);
  unsigned set = channel_set (image);

  if (image->sample == GH_SAMPLE_F32)
    count_layout (image, 1, piece, linear, set, t, acc);
  else
    count_layout (image, 0, piece, linear, set, t, acc);
}

/* Worker i counts part i of a piece into its own accumulator. */
typedef struct {
  tables t;
  gh_accum acc;
  gh_piece part;
  int has_part;
} worker;

struct gh_cpu {
  gh_threads *pool;
  int threads;
  worker *workers; /* threads of them; workers[0] is the caller's */
  gh_image image;
};

gh_status
gh_cpu_create (int threads, gh_cpu **out, gh_error *error)
{
  gh_cpu *cpu = calloc (1, sizeof *cpu);
  gh_status st;

  if (!cpu)
    return gh_fail (error, GH_ERR_NOMEM, "out of memory for the CPU backend");
  if ((st = gh_threads_create (threads, &cpu->pool, error)) != GH_OK)
    {
      free (cpu);
      return st;
    }
  cpu->threads = gh_threads_count (cpu->pool);
  cpu->workers = calloc ((size_t) cpu->threads, sizeof *cpu->workers);
  if (!cpu->workers)
    goto fail;
  for (int i = 0; i < cpu->threads; i++)
    {
      gh_image u8 = { GH_LAYOUT_RGBA, GH_SAMPLE_U8, BINS, 0,
                      GH_LUMINANCE_PERCEPTUAL, 0 };
      if (gh_accum_init (&cpu->workers[i].acc, &u8) != GH_OK)
        goto fail;
    }
  *out = cpu;
  return GH_OK;

fail:
  gh_cpu_destroy (cpu);
  return gh_fail (error, GH_ERR_NOMEM, "out of memory for CPU histograms");
}

void
gh_cpu_destroy (gh_cpu *cpu)
{
  if (!cpu)
    return;
  gh_threads_destroy (cpu->pool);
  if (cpu->workers)
    for (int i = 0; i < cpu->threads; i++)
      gh_accum_free (&cpu->workers[i].acc);
  free (cpu->workers);
  free (cpu);
}

gh_threads *
gh_cpu_pool (gh_cpu *cpu)
{
  return cpu->pool;
}

int
gh_cpu_threads (const gh_cpu *cpu)
{
  return cpu->threads;
}

gh_status
gh_cpu_begin (gh_cpu *cpu, const gh_image *image, gh_error *error)
{
  cpu->image = *image;
  for (int i = 0; i < cpu->threads; i++)
    {
      gh_accum *acc = &cpu->workers[i].acc;
      if (gh_accum_fits (acc, image))
        gh_accum_zero (acc);
      else
        {
          gh_accum_free (acc);
          if (gh_accum_init (acc, image) != GH_OK)
            return gh_fail (error, GH_ERR_NOMEM,
                            "out of memory for %d bins", image->bins);
        }
    }
  return GH_OK;
}

/* Part i of n: whole rows when there are enough, else columns. */
static void
split_piece (const gh_image *image, const gh_piece *piece, int i, int n,
             gh_piece *part)
{
  if (piece->height >= (size_t) n)
    {
      size_t y0 = piece->height * (size_t) i / (size_t) n;
      size_t y1 = piece->height * (size_t) (i + 1) / (size_t) n;
      gh_piece_sub (image, piece, 0, y0, piece->width, y1 - y0, part);
    }
  else
    {
      size_t x0 = piece->width * (size_t) i / (size_t) n;
      size_t x1 = piece->width * (size_t) (i + 1) / (size_t) n;
      gh_piece_sub (image, piece, x0, 0, x1 - x0, piece->height, part);
    }
}

static void
count_part (int index, void *arg)
{
  gh_cpu *cpu = arg;
  worker *w = &cpu->workers[index];
  if (w->has_part)
    count_with (&cpu->image, &w->part, &w->t, &w->acc);
}

void
gh_cpu_feed (gh_cpu *cpu, const gh_piece *piece)
{
  int n = cpu->threads;
  worker *w0 = &cpu->workers[0];

  if (n == 1 || piece->width * piece->height < PARALLEL_MIN_PIXELS)
    {
      count_with (&cpu->image, piece, &w0->t, &w0->acc);
      return;
    }
  for (int i = 0; i < n; i++)
    {
      worker *w = &cpu->workers[i];
      split_piece (&cpu->image, piece, i, n, &w->part);
      w->has_part = w->part.width > 0 && w->part.height > 0;
    }
  gh_threads_run (cpu->pool, n, count_part, cpu);
}

typedef struct {
  uint8_t *dst;
  const uint8_t *src;
  size_t bytes;
  int n;
} copy_job;

static void
copy_part (int index, void *arg)
{
  const copy_job *c = arg;
  size_t from = c->bytes * (size_t) index / (size_t) c->n;
  size_t to = c->bytes * (size_t) (index + 1) / (size_t) c->n;
  memcpy (c->dst + from, c->src + from, to - from);
}

/* One thread copies at a few GB/s; memory bandwidth allows several times
 * that.  Below a megabyte waking the pool costs more than it saves. */
void
gh_cpu_memcpy (gh_cpu *cpu, void *dst, const void *src, size_t bytes)
{
  copy_job c = { dst, src, bytes, cpu->threads };
  if (cpu->threads == 1 || bytes < ((size_t) 1 << 20))
    memcpy (dst, src, bytes);
  else
    gh_threads_run (cpu->pool, cpu->threads, copy_part, &c);
}

void
gh_cpu_collect (gh_cpu *cpu, gh_accum *acc)
{
  for (int i = 0; i < cpu->threads; i++)
    gh_accum_add (acc, &cpu->workers[i].acc);
}
