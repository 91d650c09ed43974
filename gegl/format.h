/* SPDX-License-Identifier: GPL-3.0-or-later */
/* format.h — how a GEGL operation of this module reads its input: the
 * GIMP 3 plug-in's rule for a layer stored in the same format
 * (layer/layer_format.h, which both call), so the operations give the
 * procedures' bytes.
 *
 *   gh_layer layer;
 *   gh_gegl_layer (gegl_operation_get_source_format (op, "input"),
 *                  &layer);
 *   gegl_operation_set_format (op, "input", layer.source);
 *   gegl_operation_set_format (op, "output",
 *                              gh_gegl_output_format (input, &layer));
 *
 * The layer's facts come from its format as GIMP 3 has them: gray models
 * are "Y", "Y'", "Y~", "YA", ... (anything else, CMYK or Lab buffers
 * outside GIMP's layers too, is read as RGB); 8-bit storage in u8; linear
 * models (no "'" or "~") bin linear light; GIMP 3's luminance. */
#ifndef GH_GEGL_FORMAT_H
#define GH_GEGL_FORMAT_H

#include "layer_format.h"

/* `source` may be NULL (nothing connected yet): "R'G'B'A float" then. */
void gh_gegl_layer (const Babl *source, gh_layer *layer);

/* The output's format: the input's own where it differs from the layer's
 * reading only in sample type (16-bit, half, float and 8-bit linear
 * layers, read as floats), so the cached result keeps the layer's size;
 * else the reading's.  The renders write in the reading's format and
 * GEGL converts a strip at a time. */
const Babl *gh_gegl_output_format (const Babl *input, const gh_layer *layer);

#endif
