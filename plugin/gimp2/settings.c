/* SPDX-License-Identifier: GPL-3.0-or-later */
/* settings.c — what the GIMP 2.10 plug-in remembers with gimp_set_data
 * (settings.h). */
#include "settings.h"

#include "errors.h"

gboolean
gimp2_settings_last (const gchar *proc, gpointer settings, gsize size,
                     GError **error)
{
  if (gimp_get_data_size (proc) == (gint) size
      && gimp_get_data (proc, settings))
    return TRUE;
  g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
               "%s has no last settings yet: run it once with its "
               "arguments (RUN-NONINTERACTIVE)", proc);
  return FALSE;
}

gboolean
gimp2_settings_copy (gchar *dest, const gchar *src, const gchar *what,
                     GError **error)
{
  if (g_strlcpy (dest, src ? src : "", PATH_LEN) < PATH_LEN)
    return TRUE;
  g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
               "the %s is longer than %d bytes", what, PATH_LEN - 1);
  return FALSE;
}
