/* SPDX-License-Identifier: GPL-3.0-or-later */
/* layer_format.c — how a host reads a layer (layer_format.h). */
#include "layer_format.h"

#include <stdio.h>
#include <string.h>

const Babl *
gh_layer_format (const gh_layer *layer, int gray, int alpha, const char *trc,
                 gh_sample sample)
{
  const char *type = sample == GH_SAMPLE_F32 ? "float" : "u8";
  char        name[32];

  if (gray)
    snprintf (name, sizeof name, "Y%s%s %s", trc, alpha ? "A" : "", type);
  else
    snprintf (name, sizeof name, "R%sG%sB%s%s %s", trc, trc, trc,
              alpha ? "A" : "", type);
  return babl_format_with_space (name, layer->space);
}

void
gh_layer_choose (const gh_layer_facts *facts, gh_layer *layer)
{
  const Babl *storage = facts->storage;
  /* A palette's model has no tone curve mark: its colours are "'". */
  const char *model = babl_format_is_palette (storage)
                      ? "R'G'B'" : babl_get_name (babl_format_get_model (storage));

  memset (layer, 0, sizeof *layer);
  layer->space = babl_format_get_space (storage);
  layer->gray = facts->gray;
  layer->alpha = facts->alpha;
  layer->layout = facts->gray ? (facts->alpha ? GH_LAYOUT_GRAYA
                                              : GH_LAYOUT_GRAY)
                              : (facts->alpha ? GH_LAYOUT_RGBA
                                              : GH_LAYOUT_RGB);
  /* Only 8-bit perceptual storage gives exactly GIMP's float bins through
   * bytes; 8-bit linear would round on its way to perceptual bytes, and
   * higher precisions would lose bits. */
  layer->sample = facts->u8 && facts->perceptual && ! facts->bins_linear
                  ? GH_SAMPLE_U8 : GH_SAMPLE_F32;
  layer->bins = facts->u8 ? 256 : 1024;
  layer->trc = facts->bins_linear ? "" : strchr (model, '~') ? "~" : "'";
  layer->luminance = facts->bins_linear ? GH_LUMINANCE_PERCEPTUAL
                                        : facts->host;
  layer->source = gh_layer_format (layer, facts->gray, facts->alpha,
                                   layer->trc, layer->sample);
  if (facts->host == GH_LUMINANCE_LINEAR && ! facts->gray
      && layer->space != babl_space ("sRGB"))
    layer->luminance_from = gh_layer_format (layer, 0, facts->alpha,
                                             layer->trc, GH_SAMPLE_F32);
}

void
gh_layer_use_bins (gh_layer *layer, int bins)
{
  if (bins == layer->bins)
    return;
  layer->sample = GH_SAMPLE_F32;
  layer->bins = bins;
  layer->source = gh_layer_format (layer, layer->gray, layer->alpha,
                                   layer->trc, layer->sample);
}
