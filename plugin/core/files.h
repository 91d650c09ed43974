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

#endif
