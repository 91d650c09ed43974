/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_colour.c — the luminance modes' 8-bit colour move (gpu/ops/colour.c:
 * floats first, doubles where the floats cannot tell, tables for the
 * encode) gives the colour model's own bytes: gh_luminance_shift in
 * doubles, then each sample clamped and encoded with libm's pow, for
 * every one of the 2^24 colours under both luminance rules, RGB and RGBA
 * (alpha kept), towards targets that reach every case: the colour's own
 * key and its opposite, black, white, levels beside them, and one that
 * varies with the colour.
 *
 *   test_colour                 those targets
 *   test_colour --all-targets   every colour towards each of the 256
 *                               targets (minutes; not in the suite)
 */
#include "test_util.h"

#include "colour.h"
#include "pixel.h"

#include <math.h>
#include <string.h>

/* The model's byte of a sample of light v (white 1): sRGB-encoded,
 * nearest level, within 0..255, NaN to 0. */
static uint8_t
encode_model (double v)
{
  double e;

  if (!(v > 0))
    return 0;
  if (v > 1)
    v = 1;
  e = v > 0.0031308 ? 1.055 * pow (v, 1.0 / 2.4) - 0.055 : 12.92 * v;
  e = floor (255.0 * e + 0.5);
  return (uint8_t) (e < 0 ? 0 : e > 255 ? 255 : e);
}

/* The model's bytes of colour rgb moved to `target` (0..255). */
static void
model (int linear, const uint8_t rgb[3], int target, uint8_t out[3])
{
  double c[3];

  for (int k = 0; k < 3; k++)
    c[k] = linear ? (double) gh_srgb_decode_u8[rgb[k]] : (double) rgb[k];
  if (linear)
    {
      gh_luminance_shift (c, c[0] * GH_BABL_Y_WR + c[1] * GH_BABL_Y_WG
                               + c[2] * GH_BABL_Y_WB,
                          target / 255.0, 1.0);
      for (int k = 0; k < 3; k++)
        out[k] = encode_model (c[k]);
      return;
    }
  gh_luminance_shift (c, c[0] * 0.22248840 + c[1] * 0.71690369
                           + c[2] * 0.06060791,
                      target, 255.0);
  for (int k = 0; k < 3; k++)
    {
      double v = floor (c[k] + 0.5);
      out[k] = (uint8_t) (v > 0 ? (v < 255 ? v : 255) : 0);
    }
}

#define N_RULES 8

/* Target `rule` of a colour whose key is `key`. */
static int
target_of (int rule, const uint8_t rgb[3], int key)
{
  switch (rule)
    {
    case 0: return key;
    case 1: return 255 - key;
    case 2: return 0;
    case 3: return 255;
    case 4: return 1;
    case 5: return 254;
    case 6: return key < 128 ? key * 2 : 255;
    default: return (rgb[0] * 7 + rgb[1] * 13 + rgb[2] * 29) & 255;
    }
}

/* Every colour, a span of 256 blues at a time, through the move of
 * `luminance` on `bpp` bytes a pixel, towards the first `rules` targets,
 * or every target where `all`.  Returns the colours that differ from the
 * model. */
static long
sweep (gh_luminance luminance, int bpp, int rules, int all)
{
  gh_op op;
  static gh_colour_span span;
  uint8_t px[GH_COLOUR_SPAN * 4], key[GH_COLOUR_SPAN],
    target[GH_COLOUR_SPAN];
  int linear = luminance == GH_LUMINANCE_LINEAR;
  long wrong = 0;

  memset (&op, 0, sizeof op);
  op.layout = bpp == 4 ? GH_LAYOUT_RGBA : GH_LAYOUT_RGB;
  op.sample = GH_SAMPLE_U8;
  op.luminance = luminance;
  for (int r = 0; r < 256; r++)
    for (int g = 0; g < 256; g++)
      for (int rule = 0; rule < (all ? 256 : rules); rule++)
        {
          for (int b = 0; b < 256; b++)
            {
              uint8_t *p = px + b * bpp;
              p[0] = (uint8_t) r;
              p[1] = (uint8_t) g;
              p[2] = (uint8_t) b;
              if (bpp == 4)
                p[3] = (uint8_t) (b ^ 0x5a);
            }
          gh_op_luminance_keys_u8 (&op, px, GH_COLOUR_SPAN, &span, key);
          for (int b = 0; b < 256; b++)
            {
              uint8_t rgb[3] = { (uint8_t) r, (uint8_t) g, (uint8_t) b };
              int k = linear ? gh_luminance_bin_linear (r, g, b)
                             : gh_luminance_bin (r, g, b);
              if (key[b] != k && wrong++ < 5)
                printf ("  (%d,%d,%d): key %d, the histogram's %d\n", r, g,
                        b, key[b], k);
              target[b] = (uint8_t) (all ? rule : target_of (rule, rgb, k));
            }
          gh_op_move_luminance_u8 (&op, &span, px, GH_COLOUR_SPAN, target);
          for (int b = 0; b < 256; b++)
            {
              uint8_t rgb[3] = { (uint8_t) r, (uint8_t) g, (uint8_t) b },
                      want[3];
              const uint8_t *p = px + b * bpp;
              model (linear, rgb, target[b], want);
              if (memcmp (p, want, 3) != 0
                  || (bpp == 4 && p[3] != (uint8_t) (b ^ 0x5a)))
                {
                  if (wrong++ < 5)
                    printf ("  (%d,%d,%d) to %d: %d,%d,%d, the model's "
                            "%d,%d,%d\n", r, g, b, target[b], p[0], p[1],
                            p[2], want[0], want[1], want[2]);
                }
            }
        }
  return wrong;
}

int
main (int argc, char **argv)
{
  int all = argc > 1 && strcmp (argv[1], "--all-targets") == 0;
  long wrong;

  wrong = sweep (GH_LUMINANCE_LINEAR, 3, N_RULES, all);
  CHECK (wrong == 0, "GIMP 3's rule, RGB: %ld colours differ", wrong);
  wrong = sweep (GH_LUMINANCE_PERCEPTUAL, 3, N_RULES, all);
  CHECK (wrong == 0, "GIMP 2.10's rule, RGB: %ld colours differ", wrong);
  /* RGBA differs in how the bytes are written: two targets. */
  if (!all)
    {
      wrong = sweep (GH_LUMINANCE_LINEAR, 4, 2, 0);
      CHECK (wrong == 0, "GIMP 3's rule, RGBA: %ld colours differ", wrong);
      wrong = sweep (GH_LUMINANCE_PERCEPTUAL, 4, 2, 0);
      CHECK (wrong == 0, "GIMP 2.10's rule, RGBA: %ld colours differ",
             wrong);
    }
  return test_summary ();
}
