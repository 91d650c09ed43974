/* SPDX-License-Identifier: GPL-3.0-or-later */
/* metadata.c — EXIF, XMP and IPTC from an input into its outputs through
 * gexiv2 (metadata.h). */
#include "metadata.h"
#include "streams.h"

#include <gexiv2/gexiv2.h>
#include <pthread.h>
#include <stdio.h>

/* gexiv2 0.16 (GIMP 3.2's) gives the calls that take a GError the plain
 * names, the try_ ones of 0.14 (Debian 12's) deprecated. */
#if GEXIV2_CHECK_VERSION (0, 15, 0)
#define erase_exif_thumbnail gexiv2_metadata_erase_exif_thumbnail
#define get_orientation gexiv2_metadata_get_orientation
#define set_orientation gexiv2_metadata_set_orientation
#define has_tag gexiv2_metadata_has_tag
#define get_tag_long gexiv2_metadata_get_tag_long
#define set_tag_long gexiv2_metadata_set_tag_long
#else
#define erase_exif_thumbnail gexiv2_metadata_try_erase_exif_thumbnail
#define get_orientation gexiv2_metadata_try_get_orientation
#define set_orientation gexiv2_metadata_try_set_orientation
#define has_tag gexiv2_metadata_try_has_tag
#define get_tag_long gexiv2_metadata_try_get_tag_long
#define set_tag_long gexiv2_metadata_try_set_tag_long
#endif

struct cli_metadata
{
  GExiv2Metadata *md;
  int orientation; /* as read: writing upright resets the tag */
  int upright;     /* the tags were set for pixels turned upright */
};

/* Exiv2's state (its XMP toolkit's above all) is not for threads at once:
 * every call under this lock (a pthread one, which ThreadSanitizer sees, not
 * GLib's futex). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* The file Exiv2's messages are about, under `lock`. */
static const char *about;

/* Exiv2's warnings and errors, on the stderr of the file's worker. */
static void
log_message (GExiv2LogLevel level, const gchar *msg)
{
  (void) level;
  fprintf (cli_err (), "%s: metadata: %s%s", about, msg,
           g_str_has_suffix (msg, "\n") ? "" : "\n");
}

/* gexiv2 set up once, under `lock`: 0, or -1 when it cannot be. */
static int
start (void)
{
  static int started; /* 1: ready, -1: failed */

  if (!started)
    {
      started = gexiv2_initialize () ? 1 : -1;
      gexiv2_log_set_handler (log_message);
      gexiv2_log_set_level (GEXIV2_LOG_LEVEL_WARN);
    }
  return started > 0 ? 0 : -1;
}

cli_metadata *
cli_metadata_read (const char *path)
{
  GExiv2Metadata *md = NULL;
  cli_metadata *m = NULL;
  GError *err = NULL;

  pthread_mutex_lock (&lock);
  about = path;
  if (start ())
    {
      fprintf (cli_err (), "%s: metadata: Exiv2 cannot be started; "
                           "written without\n", path);
      goto out;
    }
  md = gexiv2_metadata_new ();
  if (!gexiv2_metadata_open_path (md, path, &err))
    {
      fprintf (cli_err (), "%s: metadata cannot be read (%s); written "
                           "without\n", path, err->message);
      goto out;
    }
  if (!gexiv2_metadata_has_exif (md) && !gexiv2_metadata_has_xmp (md)
      && !gexiv2_metadata_has_iptc (md))
    goto out;
  /* The thumbnail would show the input, not the result. */
  erase_exif_thumbnail (md, &err);
  if (err)
    {
      fprintf (cli_err (), "%s: metadata: %s; written without\n", path,
               err->message);
      goto out;
    }
  m = g_new0 (cli_metadata, 1);
  m->md = g_steal_pointer (&md);
  m->orientation = (int) get_orientation (m->md, &err);
  if (err || m->orientation < 1 || m->orientation > 8)
    m->orientation = 1;
out:
  g_clear_error (&err);
  g_clear_object (&md);
  about = NULL;
  pthread_mutex_unlock (&lock);
  return m;
}

int
cli_metadata_orientation (const cli_metadata *m)
{
  return m ? m->orientation : 1;
}

/* Swaps the values of tags `x` and `y` where both are set. */
static void
swap_tags (GExiv2Metadata *md, const char *x, const char *y, GError **err)
{
  glong a, b = 0;

  if (!has_tag (md, x, err) || *err
      || !has_tag (md, y, err) || *err)
    return;
  a = get_tag_long (md, x, err);
  if (!*err)
    b = get_tag_long (md, y, err);
  if (!*err)
    set_tag_long (md, x, b, err);
  if (!*err)
    set_tag_long (md, y, a, err);
}

/* The tags of pixels turned upright: the orientation 1 and, where they
 * were turned by a quarter, the dimensions swapped. */
static void
set_upright (cli_metadata *m, GError **err)
{
  if (m->upright || m->orientation == 1)
    return;
  set_orientation (m->md, GEXIV2_ORIENTATION_NORMAL, err);
  if (!*err && m->orientation >= 5)
    swap_tags (m->md, "Exif.Photo.PixelXDimension",
               "Exif.Photo.PixelYDimension", err);
  if (!*err && m->orientation >= 5)
    swap_tags (m->md, "Xmp.exif.PixelXDimension", "Xmp.exif.PixelYDimension",
               err);
  m->upright = !*err;
}

int
cli_metadata_write (cli_metadata *m, const char *temp, const char *path,
                    int upright)
{
  GError *err = NULL;

  if (!m)
    return 0;
  pthread_mutex_lock (&lock);
  about = path;
  if (upright)
    set_upright (m, &err);
  if (!err)
    gexiv2_metadata_save_file (m->md, temp, &err);
  about = NULL;
  pthread_mutex_unlock (&lock);
  if (err)
    {
      fprintf (cli_err (), "cannot write %s: its metadata: %s\n", path,
               err->message);
      g_error_free (err);
      return -1;
    }
  return 0;
}

void
cli_metadata_free (cli_metadata *m)
{
  if (!m)
    return;
  pthread_mutex_lock (&lock);
  g_object_unref (m->md);
  pthread_mutex_unlock (&lock);
  g_free (m);
}
