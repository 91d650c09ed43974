/* SPDX-License-Identifier: GPL-3.0-or-later */
/* whole.h — files written whole: a file appears under its name only when
 * complete, so a crash, kill -9, full disk or error leaves the old file or
 * the new one, never half of one (at worst a hidden temporary
 * ".NAME.XXXXXX" beside it).  The one implementation for the CLI (stdio)
 * and the plug-in's core (plugin/core/files.c wraps it in GErrors).
 *
 * A file is written under a hidden temporary name in the target's own
 * folder (the same file system), flushed to the disk and renamed over the
 * target, and the folder flushed so the rename lasts:
 *
 *   char *temp;  int fd;
 *   if ((errsv = io_whole_temp (path, 1, NULL, &temp, &fd))) ... strerror
 *   ... write fd (or close it, and let another writer fill temp) ...
 *   if ((errsv = io_whole_commit (temp, path))) ...   -- temp removed
 *   free (temp);
 *
 * or through stdio:
 *
 *   io_whole_file w;
 *   if ((errsv = io_whole_open (&w, path))) ...
 *   fprintf (w.file, ...);
 *   if ((errsv = io_whole_close (&w, ok))) ...        -- 0: in place
 *
 * Every call returns 0 or an errno value and sets no global state. */
#ifndef IO_WHOLE_H
#define IO_WHOLE_H

#include <stdio.h>

/* Creates an empty hidden file beside `path`, mode 0666 less the umask
 * (as fopen would), and sets *temp to its name (free it).  `keep_extension`:
 * the name ends with the target's extension (a saver that picks the format
 * by it); `stem`: the name's part before it, NULL for the target's own.
 * `fd`: the file open for writing, or NULL to have it closed. */
int io_whole_temp (const char *path, int keep_extension, const char *stem,
                   char **temp, int *fd);

/* Flushes `temp` to the disk, renames it over `path` and flushes the
 * folder; on failure removes `temp`. */
int io_whole_commit (const char *temp, const char *path);

/* A file written through stdio. */
typedef struct {
  FILE *file;
  char *temp;
  const char *path; /* not copied: must outlive the file */
} io_whole_file;

int io_whole_open (io_whole_file *w, const char *path);
/* Closes the file and commits it when `ok`, else removes it; 0 when the
 * file is in place, ECANCELED when `ok` was 0. */
int io_whole_close (io_whole_file *w, int ok);
/* Only closes the file, leaving it complete under w->temp for another
 * writer to finish (metadata written in place), io_whole_close to
 * follow: 0, or why the file is incomplete. */
int io_whole_close_file (io_whole_file *w);

#endif
