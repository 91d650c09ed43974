/* SPDX-License-Identifier: GPL-3.0-or-later */
/* whole.c — files written whole (whole.h). */
#define _POSIX_C_SOURCE 200809L /* fsync, O_CLOEXEC, O_DIRECTORY */

#include "whole.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Fills the XXXXXX at `x` with letters and digits that differ from call
 * to call and process to process. */
static void
fill_name (char *x, unsigned long long *seed)
{
  static const char letters[] = "abcdefghijklmnopqrstuvwxyz"
                                "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
  for (int k = 0; k < 6; k++)
    x[k] = letters[(*seed >> (16 + 6 * k)) % (sizeof letters - 1)];
}

int
io_whole_temp (const char *path, int keep_extension, const char *stem,
               char **temp, int *fd_out)
{
  const char *slash = strrchr (path, '/');
  const char *base = slash ? slash + 1 : path;
  const char *dot = keep_extension ? strrchr (base, '.') : NULL;
  size_t dir_len = (size_t) (base - path), stem_len;
  struct timespec ts;
  unsigned long long seed;
  char *name, *x;
  int fd = -1, errsv = EEXIST;

  /* "a.png" -> ".a.XXXXXX.png": the leading dot keeps a half-made file
   * out of everyone's globs. */
  if (!dot || dot == base)
    dot = base + strlen (base);
  if (!stem)
    {
      stem = base;
      stem_len = (size_t) (dot - base);
    }
  else
    stem_len = strlen (stem);
  name = malloc (dir_len + stem_len + strlen (dot) + 10);
  if (!name)
    return ENOMEM;
  memcpy (name, path, dir_len);
  name[dir_len] = '.';
  memcpy (name + dir_len + 1, stem, stem_len);
  x = name + dir_len + 1 + stem_len;
  memcpy (x, ".XXXXXX", 7);
  strcpy (x + 7, dot);
  x++;
  clock_gettime (CLOCK_REALTIME, &ts);
  seed = (unsigned long long) ts.tv_nsec
         ^ ((unsigned long long) getpid () << 32)
         ^ (unsigned long long) (uintptr_t) name;
  /* mkstemp's loop, but with open's mode: the umask applies, as fopen's. */
  for (int tries = 0; fd == -1 && errsv == EEXIST && tries < 100; tries++)
    {
      fill_name (x, &seed);
      fd = open (name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      errsv = fd == -1 ? errno : 0;
    }
  if (fd == -1)
    {
      free (name);
      return errsv;
    }
  if (fd_out)
    *fd_out = fd;
  else
    close (fd);
  *temp = name;
  return 0;
}

/* Flushes a file (or a folder's entries) to the disk; 0 or errno. */
static int
sync_path (const char *path, int flags)
{
  int fd = open (path, flags | O_CLOEXEC);
  int errsv = 0;

  if (fd == -1)
    return errno;
  if (fsync (fd) != 0 && errno != EINVAL)
    errsv = errno;
  close (fd);
  return errsv;
}

int
io_whole_commit (const char *temp, const char *path)
{
  int errsv = sync_path (temp, O_RDONLY);
  const char *slash;

  if (!errsv && rename (temp, path) != 0)
    errsv = errno;
  if (errsv)
    {
      unlink (temp);
      return errsv;
    }
  /* The rename itself reaches the disk with the folder. */
  slash = strrchr (path, '/');
  if (!slash)
    sync_path (".", O_RDONLY | O_DIRECTORY);
  else
    {
      char *dir = strndup (path, (size_t) (slash - path) + 1);
      if (dir)
        sync_path (dir, O_RDONLY | O_DIRECTORY);
      free (dir);
    }
  return 0;
}

int
io_whole_open (io_whole_file *w, const char *path)
{
  int fd, errsv = io_whole_temp (path, 0, NULL, &w->temp, &fd);

  w->path = path;
  w->file = NULL;
  if (errsv)
    return errsv;
  if (!(w->file = fdopen (fd, "wb")))
    {
      errsv = errno;
      close (fd);
      unlink (w->temp);
      free (w->temp);
      return errsv;
    }
  return 0;
}

int
io_whole_close_file (io_whole_file *w)
{
  int errsv = ferror (w->file) ? EIO : 0;

  if (fflush (w->file) != 0 && !errsv)
    errsv = errno;
  if (fclose (w->file) != 0 && !errsv)
    errsv = errno;
  w->file = NULL;
  return errsv;
}

int
io_whole_close (io_whole_file *w, int ok)
{
  int errsv = w->file ? io_whole_close_file (w) : 0;

  if (!ok)
    errsv = ECANCELED;
  if (errsv)
    unlink (w->temp);
  else
    errsv = io_whole_commit (w->temp, w->path);
  free (w->temp);
  return errsv;
}
