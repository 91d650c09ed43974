/* SPDX-License-Identifier: GPL-3.0-or-later */
/* settings.h — what the GIMP 2.10 plug-in remembers with gimp_set_data,
 * as it has always laid it out: the dialog's DialogSettings under each
 * procedure with a dialog, multi-Otsu's arguments as gint32s, the
 * export's file and the batch's arguments.
 *
 *   ExportSettings s;
 *   if (gimp2_settings_last (core_proc_export.name, &s, sizeof s, &error))
 */
#ifndef GH_GIMP2_SETTINGS_H
#define GH_GIMP2_SETTINGS_H

#include <libgimp/gimp.h>

#define PATH_LEN 4096


typedef struct
{
  gchar filename[PATH_LEN];
} ExportSettings;

typedef struct
{
  gchar  pattern[PATH_LEN];
  gint32 operation;
  gchar  output_dir[PATH_LEN];
  gchar  stats_csv[PATH_LEN];
} BatchSettings;

/* The settings last kept for `proc` (`size` bytes), if there are any:
 * FALSE with a calling error otherwise.  Data of another size is another
 * version's: not ours to read. */
gboolean gimp2_settings_last (const gchar *proc, gpointer settings,
                              gsize size, GError **error);

/* A string argument copied into settings; too long is a calling error
 * naming `what`. */
gboolean gimp2_settings_copy (gchar *dest, const gchar *src,
                              const gchar *what, GError **error);

#endif
