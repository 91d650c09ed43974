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
