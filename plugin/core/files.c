/* files.c — files written whole (files.h). */
#define _POSIX_C_SOURCE 200809L /* fsync, statvfs */

#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "errors.h"

gboolean
core_file_error (GError **error, const gchar *path, gint errsv)
{
  gchar *name = g_filename_display_name (path);

  g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED, "cannot write '%s': %s",
               name, g_strerror (errsv));
  g_free (name);
  return FALSE;
}

gchar *
core_file_temp (const gchar *path, gboolean keep_extension, GError **error)
{
  gchar       *dir = g_path_get_dirname (path);
  gchar       *base = g_path_get_basename (path);
  const gchar *dot = keep_extension ? strrchr (base, '.') : NULL;
  gchar       *stem, *temp;
  gint         fd;

  /* "a.png" -> ".a.XXXXXX.png": GIMP picks the format by the extension,
   * and the leading dot keeps a half-made file out of everyone's globs. */
  if (! dot || dot == base)
    dot = "";
  stem = g_strndup (base, strlen (base) - strlen (dot));
  /* GIMP 3 cannot tell the format of a file whose name is not UTF-8
   * ("Unknown file type"): such a name's temporary is named plainly. */
  if (! g_utf8_validate (stem, -1, NULL))
    {
      g_free (stem);
      stem = g_strdup ("gpu-histogram");
    }
  temp = g_strdup_printf ("%s%c.%s.XXXXXX%s", dir, G_DIR_SEPARATOR, stem,
                          dot);
  /* GLib's mkstemp takes the last XXXXXX wherever it is. */
  fd = g_mkstemp_full (temp, O_WRONLY | O_CLOEXEC, 0666);
  if (fd == -1)
    {
      core_file_error (error, path, errno);
      g_clear_pointer (&temp, g_free);
    }
  else
    g_close (fd, NULL);
  g_free (stem);
  g_free (dir);
  g_free (base);
  return temp;
}

/* Whether the file system holding `path` has no block left for its user:
 * a save that fills it to the last block may have been cut short. */
gboolean
core_file_system_full (const gchar *path)
{
  struct statvfs fs;

  if (statvfs (path, &fs) != 0)
    return FALSE;
  return (geteuid () == 0 ? fs.f_bfree : fs.f_bavail) == 0;
}

/* Flushes a file (or a folder's entries) to the disk. */
static gint
sync_path (const gchar *path, gint flags)
{
  gint fd = g_open (path, flags | O_CLOEXEC, 0);
  gint errsv = 0;

  if (fd == -1)
    return errno;
  if (fsync (fd) != 0 && errno != EINVAL)
    errsv = errno;
  g_close (fd, NULL);
  return errsv;
}

gboolean
core_file_commit (const gchar *temp, const gchar *path, GError **error)
{
  gint errsv = 0;

  if (core_file_system_full (temp))
    errsv = ENOSPC;
  else
    errsv = sync_path (temp, O_RDONLY);
  if (! errsv && g_rename (temp, path) != 0)
    errsv = errno;
  if (errsv)
    {
      g_unlink (temp);
      return core_file_error (error, path, errsv);
    }
  /* The rename itself reaches the disk with the folder. */
  {
    gchar *dir = g_path_get_dirname (path);
    sync_path (dir, O_RDONLY | O_DIRECTORY);
    g_free (dir);
  }
  return TRUE;
}

void
core_file_discard (const gchar *temp)
{
  if (temp)
    g_unlink (temp);
}
