/* format.h — how a GEGL operation of this module reads its input: the
 * pixel format and engine settings the GIMP 3 plug-in uses for a layer
 * stored in the same format (plugin/core/region.c's rule), so the
 * operations give the procedures' bytes.
 *
 *   GhGeglFormat f;
 *   gh_gegl_format_choose (gegl_operation_get_source_format (op, "input"),
 *                          &f);
 *   gegl_operation_set_format (op, "input", f.format);  -- and "output"
 *
 * 8-bit perceptual layers (GIMP 3's default "R'G'B'(A) u8", "Y'(A) u8")
 * are read as bytes in their own space, 256 bins, GIMP 3's luminance
 * (GH_LUMINANCE_LINEAR); 8-bit linear layers as floats with 256 bins and
 * every higher precision as floats with 1024 bins; linear layers in
 * linear light, their luminance the weighted sum of the samples as given
 * (GIMP 3 bins a drawable in its own tone curve). */
#ifndef GH_GEGL_FORMAT_H
#define GH_GEGL_FORMAT_H

#include <babl/babl.h>

#include "gpu_histogram.h"

typedef struct
{
  const Babl  *format; /* input and output format of the operation */
  gh_layout    layout;
  gh_sample    sample;
  int          bins;
  gh_luminance luminance;
} GhGeglFormat;

/* `source` may be NULL (nothing connected yet): RGBA float then. */
void gh_gegl_format_choose (const Babl *source, GhGeglFormat *out);

/* The same pixels counted in `bins` bins: read as floats where the
 * count differs (plugin/core/region.c's core_region_use_bins: match's
 * reference is binned as the image it is matched to). */
void gh_gegl_format_use_bins (GhGeglFormat *format, int bins);

#endif
