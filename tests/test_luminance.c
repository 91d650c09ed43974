/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_luminance.c — the fast fixed-point luminance bin equals GIMP's own
 * float computation for all 2^24 colours, and value is max(R, G, B). */
#include "test_util.h"

#include "pixel.h"

int
main (void)
{
  long mismatches = 0;
  for (unsigned r = 0; r < 256; r++)
    for (unsigned g = 0; g < 256; g++)
      for (unsigned b = 0; b < 256; b++)
        if (gh_luminance_bin (r, g, b) != gh_luminance_bin_gimp (r, g, b))
          {
            if (mismatches++ < 5)
              printf ("  (%u,%u,%u): fast %d, GIMP %d\n", r, g, b,
                      gh_luminance_bin (r, g, b),
                      gh_luminance_bin_gimp (r, g, b));
          }
  CHECK (mismatches == 0, "%ld colours bin differently", mismatches);
  /* Colours whose exact luminance is just under a half but which GIMP's
   * float rounding puts in the upper bin. */
  CHECK (gh_luminance_bin_gimp (128, 185, 188) == 173, "GIMP tie case");
  CHECK (gh_luminance_bin (128, 185, 188) == 173, "fast tie case");
  CHECK (gh_luminance_bin (255, 255, 255) == 255, "white");
  CHECK (gh_luminance_bin (0, 0, 0) == 0, "black");
  CHECK (gh_luminance_bin (255, 0, 0) == 57, "red: %d",
         gh_luminance_bin (255, 0, 0));
  CHECK (gh_max3 (3, 9, 4) == 9 && gh_max3 (9, 3, 4) == 9
           && gh_max3 (3, 4, 9) == 9,
         "max3");
  return test_summary ();
}
