/* format.c — the input's pixel format, as the GIMP 3 plug-in reads a
 * layer (see format.h). */
#include "format.h"

#include <stdio.h>
#include <string.h>

void
gh_gegl_format_choose (const Babl *source, GhGeglFormat *out)
{
  const Babl *space = source ? babl_format_get_space (source) : NULL;
  const char *model = source && ! babl_format_is_palette (source)
                      ? babl_get_name (babl_format_get_model (source)) : "R'";
  /* Gray models are "Y", "Y'", "Y~", "YA", "YaA", ...; anything else
   * (RGB, and CMYK or Lab buffers outside GIMP's layers) is read as RGB. */
  int gray = model[0] == 'Y';
  int alpha = source ? babl_format_has_alpha (source) : 1;
  int linear = source && ! strchr (model, '\'') && ! strchr (model, '~');
  int u8 = source && babl_format_get_type (source, 0) == babl_type ("u8");
  const char *trc = linear ? "" : "'";
  char name[32];

  out->layout = gray ? (alpha ? GH_LAYOUT_GRAYA : GH_LAYOUT_GRAY)
                     : (alpha ? GH_LAYOUT_RGBA : GH_LAYOUT_RGB);
  out->sample = u8 && ! linear ? GH_SAMPLE_U8 : GH_SAMPLE_F32;
  out->bins = u8 ? 256 : 1024;
  out->luminance = linear ? GH_LUMINANCE_PERCEPTUAL : GH_LUMINANCE_LINEAR;
  if (gray)
    snprintf (name, sizeof name, "Y%s%s %s", trc, alpha ? "A" : "",
              out->sample == GH_SAMPLE_U8 ? "u8" : "float");
  else
    snprintf (name, sizeof name, "R%sG%sB%s%s %s", trc, trc, trc,
              alpha ? "A" : "",
              out->sample == GH_SAMPLE_U8 ? "u8" : "float");
  out->format = babl_format_with_space (name, space);
}

void
gh_gegl_format_use_bins (GhGeglFormat *format, int bins)
{
  char        name[32];
  const Babl *space = babl_format_get_space (format->format);
  const char *encoding = babl_format_get_encoding (format->format);
  size_t      n = strcspn (encoding, " ");

  if (bins == format->bins)
    return;
  format->bins = bins;
  if (format->sample == GH_SAMPLE_F32)
    return;
  format->sample = GH_SAMPLE_F32;
  /* "R'G'B'A u8" -> "R'G'B'A float", in the same space. */
  snprintf (name, sizeof name, "%.*s float", (int) n, encoding);
  format->format = babl_format_with_space (name, space);
}
