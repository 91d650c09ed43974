/* SPDX-License-Identifier: GPL-3.0-or-later */
/* files.h — files written whole: what the core writes (a CSV, a batch's
 * results) appears under its name only when complete.
 *
 * A file is written to a hidden temporary name in the target's own folder
 * (the same file system), flushed to the disk and renamed over the
 * target, so a crash, kill -9, full disk or error leaves either the old
 * file or the new one, never half of one (at worst a hidden temporary
 * ".NAME.XXXXXX" beside it):
 *
 *   gchar *temp = core_file_temp (path, TRUE, &error);   -- ".a.X1b2c3.png"
 *   ... write temp (GIMP saves it: the same extension picks the format) ...
 *   if (! core_file_commit (temp, path, &error)) ...     -- temp removed
 *   g_free (temp);
 */
#ifndef GH_CORE_FILES_H
#define GH_CORE_FILES_H

#include <glib.h>

/* Creates an empty hidden file beside `path` (mode 0666 less the umask,
 * as fopen would) and returns its name; `keep_extension`: the name ends
 * with the target's extension.  NULL with an error when the folder cannot
 * be written. */
gchar *core_file_temp (const gchar *path, gboolean keep_extension,
                       GError **error);

/* Flushes `temp` to the disk and renames it over `path`; on failure
 * removes `temp` and says why ("cannot write '<path>': ...").  A file
 * system left without one free block is taken as a write cut short (a
 * saver that ignores a full disk): refused as "No space left on device". */
gboolean core_file_commit (const gchar *temp, const gchar *path,
                           GError **error);

/* Whether the file system holding `path` has no block left for this
 * user: why a save that failed there failed, when its saver said not. */
gboolean core_file_system_full (const gchar *path);

/* Sets "cannot write '<path>': <errno's text>" (the name made displayable,
 * whatever its bytes) as an execution error; returns FALSE. */
gboolean core_file_error (GError **error, const gchar *path, gint errsv);

/* Removes a temporary that will not be committed. */
void core_file_discard (const gchar *temp);

/* Adds `len` bytes (whole rows) at the end of the table at `path`, after
 * `header` when the table is empty or new, so that every reader at every
 * moment sees it whole: under an exclusive flock on the table, the old
 * table and the new rows are written to a temporary beside it that is
 * committed over it.  A writer killed at any moment leaves the old table
 * (and at worst a hidden temporary); writers appending at once take
 * turns, each adding its rows whole.  A table without a final newline (a
 * hand edit) gets one before the rows.  Rewriting costs a copy of the
 * table per call: call it once per group of rows (a file's), not per
 * row.  A table that cannot be written, or a link's target that cannot,
 * is an error ("cannot write ..."), the table unchanged. */
gboolean core_file_append (const gchar *path, const gchar *header,
                           const gchar *data, gsize len, GError **error);

#endif
