/* SPDX-License-Identifier: GPL-3.0-or-later */
/* batch.c — one operation over a set of image files, in one plug-in call.
 *
 * Nothing it writes can be left half-written: each result is saved by
 * GIMP under a hidden temporary name with the result's extension in the
 * output folder and renamed into place when complete (files.h); the
 * statistics table gets each file's rows whole, through
 * core_file_append: the old table and the rows written beside it under
 * an exclusive flock and renamed over it, so concurrent batches appending
 * to one table never interleave, exactly one header is written, and a
 * batch killed at any moment, even in the middle of a row, or a disk
 * full leaves the table as it was before that file. */
#define _POSIX_C_SOURCE 200809L /* glob, open_memstream */

#include "batch.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "actions.h"
#include "apply.h"
#include "errors.h"
#include "files.h"
#include "operations.h"

/* A name for messages: the bytes of a file name need not be UTF-8. */
static gchar *
shown (const gchar *path)
{
  return g_filename_display_name (path);
}

static gboolean
same_file (const gchar *a, const gchar *b)
{
  struct stat sa, sb;

  return g_stat (a, &sa) == 0 && g_stat (b, &sb) == 0
         && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static gboolean
save_result (const CoreHost *host, gpointer image, gpointer drawable,
             const gchar *path, const gchar *output_dir, GError **error)
{
  gchar   *base = g_path_get_basename (path);
  gchar   *out = g_build_filename (output_dir, base, NULL);
  gchar   *temp = NULL;
  gboolean ok = FALSE;

  /* Also through links: a result renamed over a link's target would
   * replace the input it was made from. */
  if (same_file (path, out))
    g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED,
                 "the output would overwrite the input");
  else if (! (temp = core_file_temp (out, TRUE, error)))
    ;
  else if (! host->file_save (image, drawable, temp, error))
    {
      gchar *name = shown (out);

      /* GIMP's savers say "Could not export image" whatever happened: a
       * full disk is said here, before the half-written file is gone. */
      if (core_file_system_full (temp))
        g_prefix_error (error, "cannot save '%s': %s; ", name,
                        g_strerror (ENOSPC));
      else
        g_prefix_error (error, "cannot save '%s': ", name);
      g_free (name);
      core_file_discard (temp);
    }
  else
    ok = core_file_commit (temp, out, error);
  g_free (temp);
  g_free (base);
  g_free (out);
  return ok;
}

/* Each batch operation as the vocabulary's request: its operation at its
 * defaults, equalize in the mode given (-1: the default). */
static const struct
{
  gh_operation operation;
  gint         mode;
} batch_requests[CORE_BATCH_NUM_OPERATIONS] = {
  [CORE_BATCH_STATISTICS] = { GH_REQ_NONE, -1 },
  [CORE_BATCH_EQUALIZE_CHANNELS] = { GH_REQ_EQUALIZE, GH_EQUALIZE_CHANNELS },
  [CORE_BATCH_EQUALIZE_LUMINANCE] = { GH_REQ_EQUALIZE,
                                      GH_EQUALIZE_LUMINANCE },
  [CORE_BATCH_BINARIZE_OTSU] = { GH_REQ_BINARIZE, -1 },
  [CORE_BATCH_CLAHE] = { GH_REQ_CLAHE, -1 },
  [CORE_BATCH_POSTERIZE_OTSU] = { GH_REQ_POSTERIZE, -1 },
};

/* The batch operation's request for a drawable: gray layers have no
 * luminance channel (their histogram has none): their value is it. */
static void
batch_request (gint operation, gboolean gray, CoreRequest *req)
{
  core_request_defaults (req, batch_requests[operation].operation);
  if (batch_requests[operation].mode >= 0)
    req->request.mode = (gh_equalize_mode) batch_requests[operation].mode;
  if (gray)
    req->request.channel = GH_CHANNEL_VALUE;
}

/* The request applied inside GIMP where the host can do it exactly (no
 * pixel comes back through the plug-in); *applied FALSE: the core
 * applies it. */
static gboolean
apply_inside (const CoreHost *host, const CoreTarget *target,
              const CoreRequest *req, const CoreProgress *progress,
              gboolean *applied, GError **error)
{
  *applied = FALSE;
  if (req->request.operation == GH_REQ_NONE || ! host->apply_inside)
    return TRUE;
  if (! host->apply_inside (target, &req->request, applied, error))
    return FALSE;
  if (*applied)
    host->progress_update (progress->start + progress->span);
  return TRUE;
}

/* What a glob can match that no loader should be handed: a folder, a
 * FIFO (a loader would wait on it forever), a device, a dangling link. */
static gboolean
check_input (const gchar *path, GError **error)
{
  struct stat st;

  if (g_stat (path, &st) != 0)
    g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED, "cannot load: %s",
                 g_strerror (errno));
  else if (S_ISDIR (st.st_mode))
    g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED,
                 "cannot load: it is a folder");
  else if (! S_ISREG (st.st_mode))
    g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED,
                 "cannot load: not a regular file");
  else
    return TRUE;
  return FALSE;
}

/* Loads one file, computes its histogram into `hist` and writes its
 * statistics rows to `rows`, applies the operation and saves the result.
 * Rows written stay when a later step fails: the caller adds the error
 * row.  Without a table (`rows` NULL) a file that GIMP can apply the
 * operation to itself is not read at all: GIMP counts its pixels, and
 * the engine is made (*engine NULL) only for the first file that is. */
static gboolean
batch_file (const CoreHost *host, gh_engine **engine, FILE *rows,
            const gchar *path, gint operation, const gchar *output_dir,
            gh_histogram *hist, const CoreProgress *progress, GError **error)
{
  CoreProgress     half = { progress->start, progress->span / 2 };
  CoreProgress     rest = { half.start + half.span, half.span };
  gpointer         image, drawable = NULL;
  CoreTarget       target, described;
  CoreDrawableInfo info = { 0 };
  CoreRequest      req;
  gboolean         ok, applied = FALSE;

  if (! check_input (path, error))
    return FALSE;
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
  target = core_target (drawable);
  /* Described once for the histogram and the apply. */
  ok = ok && core_target_describe (host, &target, &described, &info, error);
  if (ok)
    batch_request (operation, info.is_gray, &req);
  if (ok && ! rows)
    ok = apply_inside (host, &described, &req, progress, &applied, error);
  if (ok && ! applied)
    {
      /* A table gets every channel's rows; else only what the apply
       * reads is counted. */
      ok = core_engine_ensure (engine, 0, error)
           && core_histogram (host, *engine, &described,
                              rows ? NULL : &req.request, hist, &half,
                              error);
      /* Named now: the backend that counted this file. */
      if (ok && rows)
        gh_csv_write_stats_rows (rows, path, hist,
                                 gh_engine_backend_name (*engine));
      if (ok && rows)
        ok = apply_inside (host, &described, &req, &rest, &applied, error);
      ok = ok && (applied
                  || core_apply_request (host, *engine, &described, &req, hist,
                                         &rest, NULL, error));
    }
  core_drawable_info_clear (&info);
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
    why = "pattern: no file pattern given";
  else if (operation < 0 || operation >= CORE_BATCH_NUM_OPERATIONS)
    why = "operation: must be 0 (statistics), 1 (equalize channels), "
          "2 (equalize luminance), 3 (binarize, Otsu), 4 (CLAHE on "
          "luminance) or 5 (posterize, multi-level Otsu)";
  else if (operation != CORE_BATCH_STATISTICS
           && (! output_dir || ! *output_dir))
    why = "output-dir: no output folder given";
  else if (stats_csv ? ! *stats_csv : operation == CORE_BATCH_STATISTICS)
    why = "stats-csv: no statistics CSV file given";
  if (why)
    g_set_error_literal (error, CORE_ERROR, CORE_ERROR_CALLING, why);
  return ! why;
}

/* A batch never overwrites its inputs: an output folder that is the
 * folder of any input (also through a link) is refused before anything
 * is written.  A folder that does not exist yet is no input's. */
static gboolean
check_output_dir (const glob_t *files, const gchar *output_dir,
                  GError **error)
{
  for (gsize i = 0; i < files->gl_pathc; i++)
    {
      gchar   *dir = g_path_get_dirname (files->gl_pathv[i]);
      gboolean same = same_file (dir, output_dir);

      g_free (dir);
      if (same)
        {
          gchar *out = shown (output_dir), *in = shown (files->gl_pathv[i]);

          g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                       "output-dir: '%s' is the folder of the input '%s': "
                       "the results would overwrite the inputs; choose "
                       "another folder", out, in);
          g_free (out);
          g_free (in);
          return FALSE;
        }
    }
  return TRUE;
}

/* Makes the output folder (for operations that save) and the statistics
 * table (where asked), empty when new: a table that cannot be written
 * fails the batch before any file is read. */
static gboolean
stats_open (gint operation, const gchar *output_dir, const gchar *stats_csv,
            GError **error)
{
  gint fd;

  if (operation != CORE_BATCH_STATISTICS
      && g_mkdir_with_parents (output_dir, 0777) != 0)
    {
      gchar *name = shown (output_dir);

      g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED,
                   "cannot create the folder '%s': %s", name,
                   g_strerror (errno));
      g_free (name);
      return FALSE;
    }
  if (! stats_csv)
    return TRUE;
  fd = g_open (stats_csv, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd == -1)
    return core_file_error (error, stats_csv, errno);
  g_close (fd, NULL);
  return TRUE;
}

gboolean
core_batch_run (const CoreHost *host, gh_engine **engine,
                const gchar *pattern, gint operation,
                const gchar *output_dir, const gchar *stats_csv, guint *done,
                guint *failed, gchar **failures, GError **error)
{
  glob_t       files;
  gh_histogram hist;
  GString     *report = g_string_new (NULL);

  *done = *failed = 0;
  *failures = NULL;
  if (! check_arguments (pattern, operation, output_dir, stats_csv, error))
    return g_string_free (report, TRUE), FALSE;
  /* Expanded before anything is written, so results never feed back. */
  if (glob (pattern, 0, NULL, &files) != 0 || files.gl_pathc == 0)
    {
      g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED,
                   "pattern: no file matches '%s'", pattern);
      globfree (&files);
      return g_string_free (report, TRUE), FALSE;
    }
  if ((operation != CORE_BATCH_STATISTICS
       && ! check_output_dir (&files, output_dir, error))
      || ! stats_open (operation, output_dir, stats_csv, error))
    {
      globfree (&files);
      return g_string_free (report, TRUE), FALSE;
    }
  gh_histogram_init (&hist);
  for (gsize i = 0; i < files.gl_pathc; i++)
    {
      const gchar *path = files.gl_pathv[i];
      CoreProgress progress = { (gdouble) i / files.gl_pathc,
                                1.0 / files.gl_pathc };
      GError      *file_error = NULL, *csv_error = NULL;
      gchar       *text, *name = shown (path);
      gchar       *rows = NULL;
      size_t       len = 0;
      FILE        *memory = stats_csv ? open_memstream (&rows, &len) : NULL;
      gboolean     ok;

      text = g_strdup_printf ("Histogram batch %zu/%zu: %s", i + 1,
                              files.gl_pathc, name);
      host->progress_text (text);
      g_free (text);
      if (stats_csv && ! memory)
        {
          g_set_error (&file_error, CORE_ERROR, CORE_ERROR_FAILED,
                       "out of memory");
          ok = FALSE;
        }
      else
        {
          ok = batch_file (host, engine, memory, path, operation, output_dir,
                           &hist, &progress, &file_error);
          if (! ok && memory)
            gh_csv_write_error_row (memory, path, file_error->message);
          if (memory)
            fclose (memory);
        }
      /* A file's rows at once: the table is rewritten whole each time. */
      if (memory && ! core_file_append (stats_csv, GH_CSV_STATS_HEADER, rows,
                                        len, &csv_error))
        {
          /* The table cannot take its rows (a full disk): the message
           * still says what became of the file. */
          if (ok)
            file_error = csv_error;
          else
            {
              g_prefix_error (&file_error, "%s; ", csv_error->message);
              g_error_free (csv_error);
            }
          ok = FALSE;
        }
      if (! ok)
        {
          g_string_append_printf (report, "%s: %s\n", name,
                                  file_error->message);
          g_error_free (file_error);
          (*failed)++;
        }
      (*done)++;
      free (rows);
      g_free (name);
    }
  host->progress_update (1.0);
  gh_histogram_clear (&hist);
  globfree (&files);
  *failures = g_string_free (report, report->len == 0);
  return TRUE;
}

gchar *
core_batch_message (guint done, guint failed, const gchar *stats_csv,
                    const gchar *failures)
{
  gchar *name = stats_csv ? shown (stats_csv) : NULL;
  gchar *text = g_strdup_printf ("%u files, %u failed%s%s%s%s", done, failed,
                                 name ? "; statistics in " : "",
                                 name ? name : "",
                                 failures ? "\n" : "",
                                 failures ? failures : "");

  g_free (name);
  return text;
}
