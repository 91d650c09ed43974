/* SPDX-License-Identifier: GPL-3.0-or-later */
/* files.c — files written whole (files.h): io/whole.c's, with GErrors,
 * and the tables appended to under a lock. */
#define _DEFAULT_SOURCE /* flock, realpath */
#define _POSIX_C_SOURCE 200809L /* statvfs, O_CLOEXEC */

#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "errors.h"
#include "whole.h"

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
  gchar *base = g_path_get_basename (path);
  gchar *temp = NULL;
  char  *name;
  /* GIMP 3 cannot tell the format of a file whose name is not UTF-8
   * ("Unknown file type"): such a name's temporary is named plainly. */
  gint   errsv = io_whole_temp (path, keep_extension,
                                g_utf8_validate (base, -1, NULL)
                                  ? NULL : "gpu-histogram",
                                &name, NULL);

  if (errsv)
    core_file_error (error, path, errsv);
  else
    {
      temp = g_strdup (name);
      free (name);
    }
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

gboolean
core_file_commit (const gchar *temp, const gchar *path, GError **error)
{
  gint errsv;

  if (core_file_system_full (temp))
    {
      g_unlink (temp);
      errsv = ENOSPC;
    }
  else
    errsv = io_whole_commit (temp, path);
  return errsv ? core_file_error (error, path, errsv) : TRUE;
}

void
core_file_discard (const gchar *temp)
{
  if (temp)
    g_unlink (temp);
}

static gboolean
write_all (gint fd, const gchar *data, gsize len, gint *errsv)
{
  while (len > 0)
    {
      ssize_t n = write (fd, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          *errsv = n < 0 ? errno : ENOSPC;
          return FALSE;
        }
      data += n;
      len -= (gsize) n;
    }
  return TRUE;
}

/* Opens the table (made empty when missing) and locks it.  A writer that
 * waited for the lock may hold a table another one has since replaced:
 * it opens the new one and waits again (a bounded number of times: a
 * file system whose inode numbers change would otherwise keep it). */
static gint
lock_table (const gchar *path, struct stat *st, gint *errsv)
{
  for (gint tries = 0; tries < 1000; tries++)
    {
      struct stat now;
      gint        fd = g_open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);

      if (fd == -1)
        {
          *errsv = errno;
          return -1;
        }
      while (flock (fd, LOCK_EX) != 0)
        if (errno != EINTR)
          {
            *errsv = errno;
            g_close (fd, NULL);
            return -1;
          }
      if (fstat (fd, st) != 0)
        {
          *errsv = errno;
          g_close (fd, NULL);
          return -1;
        }
      if (g_stat (path, &now) == 0 && now.st_dev == st->st_dev
          && now.st_ino == st->st_ino)
        return fd;
      g_close (fd, NULL);
    }
  *errsv = EBUSY;
  return -1;
}

/* Copies the table from `from` to `to`; *last: its last byte. */
static gboolean
copy_table (gint from, gint to, gchar *last, gint *errsv)
{
  gchar   buf[65536];
  ssize_t n;

  while ((n = read (from, buf, sizeof buf)) != 0)
    {
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          *errsv = errno;
          return FALSE;
        }
      if (! write_all (to, buf, (gsize) n, errsv))
        return FALSE;
      *last = buf[n - 1];
    }
  return TRUE;
}

/* The new table in `temp`: the old one (or the header), then the rows. */
static gboolean
write_table (gint table, const struct stat *st, const gchar *temp,
             const gchar *header, const gchar *data, gsize len, gint *errsv)
{
  gint     out = g_open (temp, O_WRONLY | O_CLOEXEC, 0);
  gchar    last = '\n';
  gboolean ok;

  if (out == -1)
    {
      *errsv = errno;
      return FALSE;
    }
  /* The table's permissions, not the umask's. */
  ok = fchmod (out, st->st_mode & 07777) == 0;
  if (! ok)
    *errsv = errno;
  if (ok && st->st_size == 0)
    ok = write_all (out, header, strlen (header), errsv);
  else if (ok)
    ok = copy_table (table, out, &last, errsv)
         && (last == '\n' || write_all (out, "\n", 1, errsv));
  ok = ok && write_all (out, data, len, errsv);
  if (close (out) != 0 && ok)
    {
      *errsv = errno;
      ok = FALSE;
    }
  return ok;
}

gboolean
core_file_append (const gchar *path, const gchar *header, const gchar *data,
                  gsize len, GError **error)
{
  struct stat st;
  gchar      *real, *temp = NULL;
  gint        errsv = 0;
  gint        fd = lock_table (path, &st, &errsv);
  gboolean    ok = FALSE;

  if (fd == -1)
    return core_file_error (error, path, errsv);
  /* Through a link: its target is replaced, the link stays. */
  real = realpath (path, NULL);
  if (! real)
    core_file_error (error, path, errno);
  else if ((temp = core_file_temp (real, FALSE, error)))
    {
      if (! write_table (fd, &st, temp, header, data, len, &errsv))
        {
          core_file_discard (temp);
          core_file_error (error, path, errsv);
        }
      else
        ok = core_file_commit (temp, real, error);
    }
  /* Closing unlocks: the next writer finds the new table. */
  g_close (fd, NULL);
  g_free (temp);
  free (real);
  return ok;
}
