/* SPDX-License-Identifier: GPL-3.0-or-later */
/* host.c — what the plug-in's core asks of a GIMP host. */
#include "host.h"

#include <string.h>

CoreTarget
core_target (gpointer drawable)
{
  CoreTarget target = { drawable, FALSE, NULL, FALSE, 0, 0, 0, 0, NULL };

  return target;
}

void
core_drawable_info_clear (CoreDrawableInfo *info)
{
  g_clear_object (&info->buffer);
}

gboolean
core_describe (const CoreHost *host, const CoreTarget *target,
               CoreDrawableInfo *info)
{
  if (! target->described)
    return host->describe (target, info);
  *info = *target->described;
  if (info->buffer)
    g_object_ref (info->buffer);
  return info->exists;
}

gboolean
core_format_is_linear (const Babl *format)
{
  const gchar *model;

  if (babl_format_is_palette (format))
    return FALSE;
  model = babl_get_name (babl_format_get_model (format));
  return ! strchr (model, '\'') && ! strchr (model, '~');
}

/* The precision class of a drawable stored in `format`, by its samples'
 * type and TRC (a palette: 8-bit perceptual). */
static CorePrecision
format_precision (const Babl *format)
{
  if (babl_format_get_type (format, 0) != babl_type ("u8"))
    return CORE_PRECISION_OTHER;
  return core_format_is_linear (format) ? CORE_PRECISION_U8_LINEAR
                                        : CORE_PRECISION_U8_PERCEPTUAL;
}

const Babl *
core_drawable_info_fill (CoreDrawableInfo *info, GeglBuffer *buffer,
                         const CoreTarget *facts)
{
  const Babl *format = gegl_buffer_get_format (buffer);

  info->exists = TRUE;
  info->buffer = buffer;
  info->is_indexed = babl_format_is_palette (format);
  info->has_alpha = babl_format_has_alpha (format);
  info->is_gray = ! info->is_indexed
                  && babl_format_get_n_components (format)
                       - info->has_alpha == 1;
  info->precision = format_precision (format);
  if (facts->intersects)
    {
      info->x = facts->x;
      info->y = facts->y;
      info->width = facts->width;
      info->height = facts->height;
    }
  return format;
}
