/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_whole.c — io/whole.h: a file appears under its name only whole.
 * In a fresh folder: the temporary is hidden beside the target (with its
 * extension kept, or a stem given), empty and of mode 0666 less the
 * umask; committing renames it over the target; a commit that fails, or a
 * stdio file closed as not ok, leaves the old target and no temporary. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "test_util.h"
#include "whole.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/test_whole.XXXXXX";

/* The folder's entries other than . and .., and the last one's name. */
static int
entries (char *last, size_t len)
{
  DIR *d = opendir (dir);
  struct dirent *e;
  int n = 0;

  while (d && (e = readdir (d)))
    if (strcmp (e->d_name, ".") && strcmp (e->d_name, ".."))
      {
        snprintf (last, len, "%s", e->d_name);
        n++;
      }
  if (d)
    closedir (d);
  return n;
}

static char *
in_dir (const char *name)
{
  static char path[512];
  snprintf (path, sizeof path, "%s/%s", dir, name);
  return path;
}

static void
slurp (const char *path, char *buf, size_t len)
{
  FILE *f = fopen (path, "rb");
  size_t n = f ? fread (buf, 1, len - 1, f) : 0;
  buf[n] = '\0';
  if (f)
    fclose (f);
}

static void
check_temp (void)
{
  char target[512], *temp, name[256], text[64];
  struct stat st;
  mode_t mask = umask (022);
  int fd, errsv;

  snprintf (target, sizeof target, "%s", in_dir ("a.png"));
  errsv = io_whole_temp (target, 1, NULL, &temp, &fd);
  CHECK (!errsv, "temp: %s", strerror (errsv));
  if (errsv)
    return;
  CHECK (entries (name, sizeof name) == 1 && name[0] == '.'
           && !strncmp (name, ".a.", 3) && strlen (name) == 13
           && !strcmp (name + 9, ".png"),
         "hidden beside, extension kept: %s", name);
  CHECK (fstat (fd, &st) == 0 && st.st_size == 0
           && (st.st_mode & 0777) == 0644,
         "empty, 0666 less the umask: %o", (unsigned) (st.st_mode & 0777));
  CHECK (write (fd, "new", 3) == 3, "write");
  close (fd);
  CHECK (io_whole_commit (temp, target) == 0, "commit");
  slurp (target, text, sizeof text);
  CHECK (!strcmp (text, "new") && entries (name, sizeof name) == 1,
         "renamed over the target, nothing else left: %s", name);
  free (temp);

  errsv = io_whole_temp (target, 0, "plain", &temp, NULL);
  CHECK (!errsv && !strncmp (strrchr (temp, '/'), "/.plain.", 8)
           && strlen (strrchr (temp, '/')) == 14,
         "a stem given, no extension: %s", errsv ? "" : temp);
  if (!errsv)
    {
      /* A commit into a folder that is not there fails and cleans up. */
      CHECK (io_whole_commit (temp, in_dir ("none/a.png")) == ENOENT,
             "commit to nowhere: ENOENT");
      CHECK (entries (name, sizeof name) == 1, "its temporary removed");
      free (temp);
    }
  CHECK (io_whole_temp (in_dir ("none/a.png"), 1, NULL, &temp, NULL)
           == ENOENT,
         "no folder: ENOENT");
  umask (mask);
}

static void
check_stdio (void)
{
  io_whole_file w;
  char name[256], text[64];

  CHECK (io_whole_open (&w, in_dir ("a.png")) == 0, "open");
  fputs ("half", w.file);
  CHECK (io_whole_close (&w, 0) == ECANCELED, "closed as not ok");
  slurp (in_dir ("a.png"), text, sizeof text);
  CHECK (!strcmp (text, "new") && entries (name, sizeof name) == 1,
         "the old file kept, no temporary");
  CHECK (io_whole_open (&w, in_dir ("b.csv")) == 0, "open");
  fputs ("whole", w.file);
  CHECK (io_whole_close (&w, 1) == 0, "closed ok");
  slurp (in_dir ("b.csv"), text, sizeof text);
  CHECK (!strcmp (text, "whole") && entries (name, sizeof name) == 2,
         "in place");
}

int
main (void)
{
  if (!mkdtemp (dir))
    return printf ("mkdtemp: %s\n", strerror (errno)), 1;
  check_temp ();
  check_stdio ();
  unlink (in_dir ("a.png"));
  unlink (in_dir ("b.csv"));
  rmdir (dir);
  return test_summary ();
}
