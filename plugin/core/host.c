/* host.c — what the plug-in's core asks of a GIMP host. */
#include "host.h"

void
core_drawable_info_clear (CoreDrawableInfo *info)
{
  g_clear_pointer (&info->name, g_free);
}
