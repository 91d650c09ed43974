/* cpu_ceiling.c — how fast can one CPU core count GIMP's six histograms?
 *
 * The CPU target compares the engine (six channels: value, R, G, B, alpha,
 * luminance) with OpenCV's calcHist (four).  Scalar histogramming is bound
 * by counter read-modify-writes, so this measures, on one thread, the
 * schemes that could make six channels cost no more than four:
 *
 *   four      R, G, B, A into four table copies: calcHist's work in one
 *             pass, the rate to beat.
 *   six       the engine's loop: six updates a pixel.
 *   folded    the least an exact scheme needs: alpha of an opaque block
 *             counted once, value folded into the R, G or B update (a
 *             second table per channel for "this channel is the maximum"),
 *             so four updates a pixel.  Only the updates are timed: their
 *             indices are worked out beforehand for a 4096-pixel block,
 *             replayed from L1 across the image's size.
 *   pairs     two channels per update: (R,G), (B,luminance), (value,A)
 *             in 65536-entry tables (L2), three updates a pixel.
 *
 *   gpu-histogram-cpu-ceiling [megapixels]
 *
 * Prints GB/s of RGBA8 for each input kind, and each scheme over four.
 */
#define _POSIX_C_SOURCE 200809L
#include "images.h"
#include "pixel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COPIES 4
#define ROW 272 /* 256 bins padded: no two tables 4 KB apart */
#define BLOCK 4096
#define REPEAT 3

/* A checksum of every table, printed so no loop can be optimised away. */
static uint64_t sink;

static uint64_t
sum32 (const uint32_t *t, size_t n)
{
  uint64_t s = 0;
  for (size_t i = 0; i < n; i++)
    s += t[i];
  return s;
}

static void
four (const uint8_t *p, size_t n)
{
  static uint32_t t[COPIES][4][ROW];
  memset (t, 0, sizeof t);
  for (size_t i = 0; i + COPIES <= n; i += COPIES)
    for (int k = 0; k < COPIES; k++)
      {
        const uint8_t *q = p + (i + k) * 4;
        t[k][0][q[0]]++;
        t[k][1][q[1]]++;
        t[k][2][q[2]]++;
        t[k][3][q[3]]++;
      }
  sink += sum32 (&t[0][0][0], sizeof t / 4);
}

static void
six (const uint8_t *p, size_t n)
{
  static uint32_t t[COPIES][6][ROW];
  memset (t, 0, sizeof t);
  for (size_t i = 0; i + COPIES <= n; i += COPIES)
    for (int k = 0; k < COPIES; k++)
      {
        const uint8_t *q = p + (i + k) * 4;
        unsigned r = q[0], g = q[1], b = q[2];
        t[k][0][gh_max3 (r, g, b)]++;
        t[k][1][r]++;
        t[k][2][g]++;
        t[k][3][b]++;
        t[k][4][q[3]]++;
        t[k][5][gh_luminance_bin (r, g, b)]++;
      }
  sink += sum32 (&t[0][0][0], sizeof t / 4);
}

/* Table offsets of the folded scheme: R, R as maximum, G, G as maximum,
 * B, B as maximum, luminance. */
enum { F_R = 0, F_G = 2 * ROW, F_B = 4 * ROW, F_L = 6 * ROW, F_SIZE = 7 * ROW };

static uint16_t folded_index[BLOCK][4];

static void
folded_prepare (const uint8_t *p)
{
  for (size_t i = 0; i < BLOCK; i++)
    {
      unsigned r = p[i * 4], g = p[i * 4 + 1], b = p[i * 4 + 2];
      unsigned m = gh_max3 (r, g, b);
      unsigned er = r == m, eg = !er && g == m, eb = !er && !eg;
      folded_index[i][0] = (uint16_t) (F_R + r + er * ROW);
      folded_index[i][1] = (uint16_t) (F_G + g + eg * ROW);
      folded_index[i][2] = (uint16_t) (F_B + b + eb * ROW);
      folded_index[i][3] = (uint16_t) (F_L + gh_luminance_bin (r, g, b));
    }
}

static void
folded (const uint8_t *p, size_t n)
{
  static uint32_t t[COPIES][F_SIZE];
  (void) p;
  memset (t, 0, sizeof t);
  for (size_t done = 0; done + BLOCK <= n; done += BLOCK)
    for (size_t i = 0; i < BLOCK; i += COPIES)
      for (int k = 0; k < COPIES; k++)
        for (int c = 0; c < 4; c++)
          t[k][folded_index[i + k][c]]++;
  sink += sum32 (&t[0][0], sizeof t / 4);
}

static void
pairs (const uint8_t *p, size_t n)
{
  static uint32_t t[3][65536 + 16];
  memset (t, 0, sizeof t);
  for (size_t i = 0; i < n; i++)
    {
      const uint8_t *q = p + i * 4;
      unsigned r = q[0], g = q[1], b = q[2];
      t[0][r << 8 | g]++;
      t[1][b << 8 | (unsigned) gh_luminance_bin (r, g, b)]++;
      t[2][gh_max3 (r, g, b) << 8 | q[3]]++;
    }
  sink += sum32 (&t[0][0], sizeof t / 4);
}

static double
rate (void (*count) (const uint8_t *, size_t), const uint8_t *p, size_t n)
{
  double best = 0;
  for (int r = 0; r < REPEAT; r++)
    {
      double t0 = now_seconds ();
      count (p, n);
      double gbs = (double) n * 4 / (now_seconds () - t0) / 1e9;
      if (gbs > best)
        best = gbs;
    }
  return best;
}

int
main (int argc, char **argv)
{
  double mp = argc > 1 ? atof (argv[1]) : 64;
  size_t width = 8192, height = (size_t) (mp * 1e6 / 8192 + 0.5);
  size_t n = width * height;
  uint8_t *rgba;

  if (mp <= 0 || height == 0 || n < BLOCK)
    {
      fprintf (stderr, "usage: %s [megapixels > 0.01]\n", argv[0]);
      return 2;
    }
  rgba = malloc (n * 4);
  if (!rgba)
    {
      fprintf (stderr, "out of memory for %zu pixels\n", n);
      return 1;
    }
  printf ("== CPU counting ceiling, one thread, %.0f MP RGBA8, GB/s "
          "(best of %d)\n", n / 1e6, REPEAT);
  printf ("%-10s %6s %6s %6s %6s   %s\n", "input", "four", "six", "folded",
          "pairs", "over four: six folded pairs");
  for (int kind = IMG_UNIFORM; kind <= IMG_GRADIENT; kind++)
    {
      image_make ((image_kind) kind, width, height, rgba, NULL);
      folded_prepare (rgba);
      double f4 = rate (four, rgba, n), f6 = rate (six, rgba, n);
      double ff = rate (folded, rgba, n), fp = rate (pairs, rgba, n);
      printf ("%-10s %6.2f %6.2f %6.2f %6.2f   %.2f %.2f %.2f\n",
              image_kind_names[kind], f4, f6, ff, fp, f6 / f4, ff / f4,
              fp / f4);
    }
  printf ("(checksum %llu)\n", (unsigned long long) sink);
  free (rgba);
  return 0;
}
