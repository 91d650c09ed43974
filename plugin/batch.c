/* batch.c — one operation over a set of image files, in one plug-in call. */
#define _POSIX_C_SOURCE 200809L /* glob() */

#include "batch.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>

#include <glib/gstdio.h>

#include "csv.h"
#include "errors.h"
#include "operations.h"

#define CSV_HEADER \
  "file,channel,count,min,max,mean,median,std_dev,otsu,backend\n"

static gboolean
save_result (gint32 image, gint32 drawable, const gchar *path,
             const gchar *output_dir, GError **error)
{
  gchar   *base = g_path_get_basename (path);
  gchar   *out = g_build_filename (output_dir, base, NULL);
  gchar   *in_abs = g_canonicalize_filename (path, NULL);
  gchar   *out_abs = g_canonicalize_filename (out, NULL);
  gboolean ok = FALSE;

  if (! g_strcmp0 (in_abs, out_abs))
    g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_FAILED,
                 "the output would overwrite the input");
  else if (! gimp_file_save (GIMP_RUN_NONINTERACTIVE, image, drawable, out,
                             base))
    g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_FAILED,
                 "cannot save '%s': %s", out, gimp_get_pdb_error ());
  else
    ok = TRUE;
  g_free (base);
  g_free (out);
  g_free (in_abs);
  g_free (out_abs);
  return ok;
}

static void
write_stats_rows (FILE *csv, const gchar *path, const gh_histogram *hist,
                  const gchar *backend)
{
  gdouble stats[OPERATIONS_NUM_STATS];

  operations_stats (hist, stats);
  for (gint c = 0; c < GH_NUM_CHANNELS; c++)
    {
      if (! (hist->channels & (1u << c)))
        continue;
      csv_write_text (csv, path);
      fprintf (csv, ",%s", operations_channel_name (c));
      for (gint k = 0; k < OPERATIONS_STATS_PER_CHANNEL; k++)
        {
          fputc (',', csv);
          csv_write_number (csv, stats[c * OPERATIONS_STATS_PER_CHANNEL + k]);
        }
      fputc (',', csv);
      csv_write_text (csv, backend);
      fputc ('\n', csv);
    }
}

/* Loads one file, computes its histogram into `hist` and writes its
 * statistics rows, applies the operation and saves the result.  Rows
 * written stay when a later step fails: the caller adds the error row. */
static gboolean
batch_file (gh_engine *engine, FILE *csv, const gchar *path, gint operation,
            const gchar *output_dir, gh_histogram *hist,
            const PixelsProgress *progress, GError **error)
{
  PixelsProgress half = { progress->start, progress->span / 2 };
  PixelsProgress rest = { half.start + half.span, half.span };
  gint32         image, drawable;
  gint           threshold;
  gboolean       ok;

  image = gimp_file_load (GIMP_RUN_NONINTERACTIVE, path, path);
  if (image == -1)
    {
      g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_FAILED,
                   "cannot load: %s", gimp_get_pdb_error ());
      return FALSE;
    }
  /* Nobody can undo inside a batch: keeping undo steps only costs
   * memory. */
  gimp_image_undo_disable (image);
  drawable = gimp_image_get_active_drawable (image);
  ok = drawable != -1;
  if (! ok)
    g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_FAILED,
                 "the image has no layer");
  ok = ok && operations_histogram (engine, drawable, hist, &half, error);
  /* Named now: the backend that counted this file. */
  if (ok)
    write_stats_rows (csv, path, hist, gh_engine_backend_name (engine));
  switch (operation)
    {
    case BATCH_EQUALIZE_CHANNELS:
    case BATCH_EQUALIZE_LUMINANCE:
      ok = ok && operations_equalize (engine, drawable,
                                      operation == BATCH_EQUALIZE_CHANNELS
                                        ? OPERATIONS_EQUALIZE_CHANNELS
                                        : OPERATIONS_EQUALIZE_LUMINANCE,
                                      hist, &rest, error);
      break;
    case BATCH_BINARIZE_OTSU:
      /* Gray layers have no luminance channel: their value is it. */
      ok = ok && operations_binarize (engine, drawable,
                                      gimp_drawable_is_gray (drawable)
                                        ? GH_CHANNEL_VALUE
                                        : GH_CHANNEL_LUMINANCE,
                                      -1, hist, &threshold, &rest, error);
      break;
    default:
      break;
    }
  if (operation != BATCH_STATISTICS)
    ok = ok && save_result (image, drawable, path, output_dir, error);
  gimp_image_delete (image);
  return ok;
}

/* A failed file's row: the message where the backend would be. */
static void
write_error_row (FILE *csv, const gchar *path, const gchar *message)
{
  csv_write_text (csv, path);
  fputs (",error,,,,,,,,", csv);
  csv_write_text (csv, message);
  fputc ('\n', csv);
}

static gboolean
check_arguments (const gchar *pattern, gint operation,
                 const gchar *output_dir, const gchar *stats_csv,
                 GError **error)
{
  const gchar *why = NULL;

  if (! pattern || ! *pattern)
    why = "no file pattern given";
  else if (operation < 0 || operation >= BATCH_NUM_OPERATIONS)
    why = "the operation must be 0 (statistics), 1 (equalize channels), "
          "2 (equalize luminance) or 3 (binarize, Otsu)";
  else if (operation != BATCH_STATISTICS && (! output_dir || ! *output_dir))
    why = "no output folder given";
  else if (! stats_csv || ! *stats_csv)
    why = "no statistics CSV file given";
  if (why)
    g_set_error_literal (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_CALLING,
                         why);
  return ! why;
}

gboolean
batch_run (gh_engine *engine, const gchar *pattern, gint operation,
           const gchar *output_dir, const gchar *stats_csv, guint *done,
           guint *failed, GError **error)
{
  glob_t    files;
  FILE     *csv = NULL;
  gh_histogram hist;
  gboolean  ok;

  *done = *failed = 0;
  if (! check_arguments (pattern, operation, output_dir, stats_csv, error))
    return FALSE;
  /* Expanded before anything is written, so results never feed back. */
  if (glob (pattern, 0, NULL, &files) != 0 || files.gl_pathc == 0)
    {
      g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_FAILED,
                   "no file matches '%s'", pattern);
      globfree (&files);
      return FALSE;
    }
  ok = operation == BATCH_STATISTICS
       || g_mkdir_with_parents (output_dir, 0777) == 0;
  if (! ok)
    g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_FAILED,
                 "cannot create the folder '%s': %s", output_dir,
                 g_strerror (errno));
  if (ok && ! (csv = g_fopen (stats_csv, "a")))
    {
      g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_FAILED,
                   "cannot write '%s': %s", stats_csv, g_strerror (errno));
      ok = FALSE;
    }
  if (! ok)
    {
      globfree (&files);
      return FALSE;
    }
  /* Appending to an existing table: its header is already there. */
  fseek (csv, 0, SEEK_END);
  if (ftell (csv) == 0)
    fputs (CSV_HEADER, csv);
  gh_histogram_init (&hist);
  for (gsize i = 0; i < files.gl_pathc; i++)
    {
      const gchar   *path = files.gl_pathv[i];
      PixelsProgress progress = { (gdouble) i / files.gl_pathc,
                                  1.0 / files.gl_pathc };
      GError        *file_error = NULL;

      gimp_progress_init_printf ("Histogram batch %zu/%zu: %s", i + 1,
                                 files.gl_pathc, path);
      if (! batch_file (engine, csv, path, operation, output_dir, &hist,
                        &progress, &file_error))
        {
          write_error_row (csv, path, file_error->message);
          g_error_free (file_error);
          (*failed)++;
        }
      (*done)++;
      /* Rows reach the disk file by file: a crash later loses nothing. */
      fflush (csv);
    }
  gimp_progress_update (1.0);
  gh_histogram_clear (&hist);
  globfree (&files);
  if (ferror (csv) | fclose (csv))
    {
      g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_FAILED,
                   "cannot write '%s': %s", stats_csv, g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}
