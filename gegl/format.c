/* SPDX-License-Identifier: GPL-3.0-or-later */
/* format.c — the input's layer facts, as the GIMP 3 plug-in has them
 * (see format.h). */
#include "format.h"

#include <string.h>

void
gh_gegl_layer (const Babl *source, gh_layer *layer)
{
  const Babl    *storage = source ? source : babl_format ("R'G'B'A float");
  const char    *model = babl_format_is_palette (storage)
                         ? "R'" : babl_get_name (babl_format_get_model (storage));
  int            linear = ! strchr (model, '\'') && ! strchr (model, '~');
  gh_layer_facts facts = {
    .gray = model[0] == 'Y',
    .alpha = babl_format_has_alpha (storage),
    .u8 = babl_format_get_type (storage, 0) == babl_type ("u8"),
    .perceptual = ! linear,
    .bins_linear = linear,
    .storage = storage,
    .host = GH_LUMINANCE_LINEAR,
  };

  gh_layer_choose (&facts, layer);
}

/* In floats a 16-bit RGB 100 MP layer's cached result took 1.1 GiB
 * besides the 572 MiB its merge into the layer needs; in the layer's own
 * type GIMP's merge takes it as it is. */
const Babl *
gh_gegl_output_format (const Babl *input, const gh_layer *layer)
{
  /* A model is one object per components, tone curve and space. */
  return input && babl_format_get_model (input)
                    == babl_format_get_model (layer->source)
           ? input : layer->source;
}
