/* SPDX-License-Identifier: GPL-3.0-or-later */
/* operations.c — analyse and export one drawable; the checks before a
 * change (operations.h). */
#define _POSIX_C_SOURCE 200809L /* fdopen() */

#include "operations.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

#include <glib/gstdio.h>

#include "errors.h"
#include "files.h"

gboolean
core_engine_ensure (gh_engine **engine, gsize expected_pixels, GError **error)
{
  gh_options options;
  gh_error   err;

  if (*engine)
    return TRUE;
  gh_options_init (&options);
  options.quiet = 1;
  options.expected_pixels = expected_pixels;
  return core_error_from_engine (gh_engine_create (&options, engine, &err),
                                 &err, error);
}

gchar *
core_engine_fallback_note (const gh_engine *engine)
{
  if (! engine || ! gh_engine_gpu_failed (engine))
    return NULL;
  return g_strdup_printf ("the GPU could not be used: %s",
                          gh_engine_fallback_reason (engine));
}

gboolean
core_histogram (const CoreHost *host, gh_engine *engine, const CoreTarget *target,
                const gh_request *request, gh_histogram *hist,
                const CoreProgress *progress, GError **error)
{
  CoreRegion region;
  gboolean   ok;

  if (! core_region_init (host, target, &region, error))
    return FALSE;
  ok = core_region_histogram (engine, &region,
                              request ? gh_request_channels (request,
                                                             region.layout)
                                      : 0,
                              hist, progress, error);
  core_region_clear (&region);
  return ok;
}

/* Refuses, in the drawable's name, what it cannot do. */
static gboolean
set_drawable_error (GError **error, const CoreRegion *region,
                    const gchar *why)
{
  gchar *name = core_region_name (region);

  g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED, "'%s' %s", name, why);
  g_free (name);
  return FALSE;
}

/* Group and lock are asked here, before an apply, not by describe: a
 * histogram needs neither, and each is a round trip to GIMP. */
static gboolean
check_changeable (const CoreRegion *region, GError **error)
{
  gboolean is_group = FALSE;
  gboolean locked = FALSE;

  region->host->item_facts (region->drawable, TRUE, NULL, &is_group,
                            &locked);
  if (is_group)
    return set_drawable_error (error, region,
                               "is a layer group; pick one of its layers");
  if (region->info.is_indexed)
    return set_drawable_error (error, region,
                               "is indexed: its colours come from a "
                               "palette; convert the image to RGB or "
                               "grayscale first (Image > Mode)");
  if (locked)
    return set_drawable_error (error, region, "has its pixels locked");
  return TRUE;
}

gboolean
core_check_changeable (const CoreHost *host, const CoreTarget *target,
                       GError **error)
{
  CoreRegion region;
  gboolean   ok;

  ok = core_region_init (host, target, &region, error)
       && check_changeable (&region, error);
  core_region_clear (&region);
  return ok;
}

gboolean
core_changeable_region (const CoreHost *host, const CoreTarget *target,
                        CoreRegion *region, GError **error)
{
  if (! core_region_init (host, target, region, error))
    return FALSE;
  if (check_changeable (region, error))
    return TRUE;
  core_region_clear (region);
  return FALSE;
}

static gboolean
check_csv_name (const gchar *filename, GError **error)
{
  if (filename && *filename)
    return TRUE;
  g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
               "filename: no file name given for the CSV");
  return FALSE;
}

gboolean
core_write_csv (const gh_histogram *hist, const gchar *filename,
                GError **error)
{
  gchar   *temp;
  FILE    *file;
  gint     errsv = 0;
  gboolean written;

  if (! check_csv_name (filename, error))
    return FALSE;
  /* Beside the target (files.h): the rename replaces it at once and
   * nobody ever reads half a table. */
  if (! (temp = core_file_temp (filename, FALSE, error)))
    return FALSE;
  if (! (file = g_fopen (temp, "w")))
    {
      errsv = errno;
      core_file_discard (temp);
      g_free (temp);
      return core_file_error (error, filename, errsv);
    }
  written = gh_csv_write_histogram (file, hist) == 0;
  errsv = errno;
  if (fclose (file) != 0 && written)
    {
      written = FALSE;
      errsv = errno;
    }
  if (! written)
    {
      core_file_discard (temp);
      g_free (temp);
      return core_file_error (error, filename, errsv);
    }
  written = core_file_commit (temp, filename, error);
  g_free (temp);
  return written;
}

gboolean
core_export (const CoreHost *host, gh_engine *engine, const CoreTarget *target,
             const gchar *filename, const CoreProgress *progress,
             GError **error)
{
  gh_histogram hist;
  gboolean     ok;

  gh_histogram_init (&hist);
  /* A missing name is refused before the pixels are read. */
  ok = check_csv_name (filename, error)
       && core_histogram (host, engine, target, NULL, &hist, progress, error)
       && core_write_csv (&hist, filename, error);
  gh_histogram_clear (&hist);
  return ok;
}
