/* batch.c — one operation over a set of image files, in one plug-in call. */
#define _POSIX_C_SOURCE 200809L /* glob() */

#include "batch.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>

#include <glib/gstdio.h>

#include "errors.h"
#include "operations.h"

static gboolean
save_result (const CoreHost *host, gpointer image, gpointer drawable,
             const gchar *path, const gchar *output_dir, GError **error)
{
  gchar   *base = g_path_get_basename (path);
  gchar   *out = g_build_filename (output_dir, base, NULL);
  gchar   *in_abs = g_canonicalize_filename (path, NULL);
  gchar   *out_abs = g_canonicalize_filename (out, NULL);
  gboolean ok = FALSE;

  if (! g_strcmp0 (in_abs, out_abs))
    g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED,
                 "the output would overwrite the input");
  else if (! host->file_save (image, drawable, out, error))
    g_prefix_error (error, "cannot save '%s': ", out);
  else
    ok = TRUE;
  g_free (base);
  g_free (out);
  g_free (in_abs);
  g_free (out_abs);
  return ok;
}

/* Applies the operation to a file's drawable, with its histogram. */
static gboolean
apply_operation (const CoreHost *host, gh_engine *engine, gpointer drawable,
                 gint operation, const gh_histogram *hist,
                 const CoreProgress *progress, GError **error)
{
  gint threshold;

  switch (operation)
    {
    case CORE_BATCH_EQUALIZE_CHANNELS:
    case CORE_BATCH_EQUALIZE_LUMINANCE:
      return core_equalize (host, engine, drawable,
                            operation == CORE_BATCH_EQUALIZE_CHANNELS
                              ? GH_EQUALIZE_CHANNELS : GH_EQUALIZE_LUMINANCE,
                            hist, progress, error);
    case CORE_BATCH_BINARIZE_OTSU:
      /* Gray layers have no luminance channel: their value is it. */
      return core_binarize (host, engine, drawable,
                            hist->channels & (1u << GH_CHANNEL_LUMINANCE)
                              ? GH_CHANNEL_LUMINANCE : GH_CHANNEL_VALUE,
                            -1, hist, &threshold, progress, error);
    default:
      return TRUE;
    }
}

/* Loads one file, computes its histogram into `hist` and writes its
 * statistics rows, applies the operation and saves the result.  Rows
 * written stay when a later step fails: the caller adds the error row. */
static gboolean
batch_file (const CoreHost *host, gh_engine *engine, FILE *csv,
            const gchar *path, gint operation, const gchar *output_dir,
            gh_histogram *hist, const CoreProgress *progress, GError **error)
{
  CoreProgress half = { progress->start, progress->span / 2 };
  CoreProgress rest = { half.start + half.span, half.span };
  gpointer     image, drawable = NULL;
  gboolean     ok;

  image = host->file_load (path, &drawable, error);
  if (! image)
    {
      g_prefix_error (error, "cannot load: ");
      return FALSE;
    }
  ok = drawable != NULL;
  if (! ok)
    g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED,
                 "the image has no layer");
  ok = ok && core_histogram (host, engine, drawable, hist, &half, error);
  /* Named now: the backend that counted this file. */
  if (ok)
    gh_csv_write_stats_rows (csv, path, hist,
                             gh_engine_backend_name (engine));
  ok = ok && apply_operation (host, engine, drawable, operation, hist, &rest,
                              error);
  if (operation != CORE_BATCH_STATISTICS)
    ok = ok && save_result (host, image, drawable, path, output_dir, error);
  host->image_close (image);
  return ok;
}

static gboolean
check_arguments (const gchar *pattern, gint operation,
                 const gchar *output_dir, const gchar *stats_csv,
                 GError **error)
{
  const gchar *why = NULL;

  if (! pattern || ! *pattern)
    why = "no file pattern given";
  else if (operation < 0 || operation >= CORE_BATCH_NUM_OPERATIONS)
    why = "the operation must be 0 (statistics), 1 (equalize channels), "
          "2 (equalize luminance) or 3 (binarize, Otsu)";
  else if (operation != CORE_BATCH_STATISTICS
           && (! output_dir || ! *output_dir))
    why = "no output folder given";
  else if (! stats_csv || ! *stats_csv)
    why = "no statistics CSV file given";
  if (why)
    g_set_error_literal (error, CORE_ERROR, CORE_ERROR_CALLING, why);
  return ! why;
}

/* The statistics table, opened for appending, its header written when
 * it is new. */
static FILE *
open_stats_csv (gint operation, const gchar *output_dir,
                const gchar *stats_csv, GError **error)
{
  FILE *csv;

  if (operation != CORE_BATCH_STATISTICS
      && g_mkdir_with_parents (output_dir, 0777) != 0)
    {
      g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED,
                   "cannot create the folder '%s': %s", output_dir,
                   g_strerror (errno));
      return NULL;
    }
  if (! (csv = g_fopen (stats_csv, "a")))
    {
      g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED,
                   "cannot write '%s': %s", stats_csv, g_strerror (errno));
      return NULL;
    }
  /* Appending to an existing table: its header is already there. */
  fseek (csv, 0, SEEK_END);
  if (ftell (csv) == 0)
    fputs (GH_CSV_STATS_HEADER, csv);
  return csv;
}

gboolean
core_batch_run (const CoreHost *host, gh_engine *engine,
                const gchar *pattern, gint operation,
                const gchar *output_dir, const gchar *stats_csv, guint *done,
                guint *failed, GError **error)
{
  glob_t       files;
  FILE        *csv;
  gh_histogram hist;

  *done = *failed = 0;
  if (! check_arguments (pattern, operation, output_dir, stats_csv, error))
    return FALSE;
  /* Expanded before anything is written, so results never feed back. */
  if (glob (pattern, 0, NULL, &files) != 0 || files.gl_pathc == 0)
    {
      g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED,
                   "no file matches '%s'", pattern);
      globfree (&files);
      return FALSE;
    }
  if (! (csv = open_stats_csv (operation, output_dir, stats_csv, error)))
    {
      globfree (&files);
      return FALSE;
    }
  gh_histogram_init (&hist);
  for (gsize i = 0; i < files.gl_pathc; i++)
    {
      const gchar *path = files.gl_pathv[i];
      CoreProgress progress = { (gdouble) i / files.gl_pathc,
                                1.0 / files.gl_pathc };
      GError      *file_error = NULL;
      gchar       *text;

      text = g_strdup_printf ("Histogram batch %zu/%zu: %s", i + 1,
                              files.gl_pathc, path);
      host->progress_text (text);
      g_free (text);
      if (! batch_file (host, engine, csv, path, operation, output_dir, &hist,
                        &progress, &file_error))
        {
          gh_csv_write_error_row (csv, path, file_error->message);
          g_error_free (file_error);
          (*failed)++;
        }
      (*done)++;
      /* Rows reach the disk file by file: a crash later loses nothing. */
      fflush (csv);
    }
  host->progress_update (1.0);
  gh_histogram_clear (&hist);
  globfree (&files);
  if (ferror (csv) | fclose (csv))
    {
      g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED,
                   "cannot write '%s': %s", stats_csv, g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}
