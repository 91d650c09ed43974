/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpu_ceiling.c — counting schemes for the CPU ceiling (cpu_ceiling.h). */
#include "cpu_ceiling.h"

#include "images.h"
#include "pixel.h"

#include <string.h>

#define COPIES 4
#define ROW 272 /* 256 bins padded: no two tables 4 KB apart */
#define BLOCK CEILING_MIN_PIXELS

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

const char *const ceiling_scheme_names[CEILING_SCHEMES]
  = { "four", "folded", "pairs" };

double
ceiling_gbs (ceiling_scheme scheme, const uint8_t *rgba, size_t pixels,
             int repeat)
{
  static void (*const count[CEILING_SCHEMES]) (const uint8_t *, size_t)
    = { four, folded, pairs };
  double best = 0;

  if (scheme == CEILING_FOLDED)
    folded_prepare (rgba);
  for (int r = 0; r < repeat; r++)
    {
      double t0 = now_seconds ();
      count[scheme] (rgba, pixels);
      t0 = now_seconds () - t0;
      if (r == 0 || t0 < best)
        best = t0;
    }
  return (double) pixels * 4 / best / 1e9;
}

unsigned long long
ceiling_checksum (void)
{
  return (unsigned long long) sink;
}
