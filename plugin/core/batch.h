/* SPDX-License-Identifier: GPL-3.0-or-later */
/* batch.h — one operation over a set of image files, in one plug-in call.
 *
 * Loads each file matching a glob (through the host), records its
 * statistics, applies the operation, saves the result under the output
 * folder with the same name (GIMP picks the format from the extension)
 * and appends its rows to a statistics CSV.  A file that fails gets an
 * "error" row (after its statistics rows when it failed later than the
 * statistics) and the run goes on; one engine serves every file, so the
 * GPU starts once, made when the first file needs it.  Where the host
 * applies the operation inside GIMP (CoreHost.apply_inside) no pixel
 * comes back to the plug-in, and without a statistics CSV none is read
 * out either: then no engine is made (no GPU start) unless a file needs
 * one.
 *
 *   guint done, failed;  gchar *failures;
 *   if (! core_batch_run (host, &engine, pattern, CORE_BATCH_EQUALIZE_CHANNELS,
 *                         "/out", "/out/stats.csv", &done, &failed,
 *                         &failures, &error)) ...
 */
#ifndef GH_CORE_BATCH_H
#define GH_CORE_BATCH_H

#include "host.h"

typedef enum
{
  CORE_BATCH_STATISTICS = 0,    /* statistics only: no image is written  */
  CORE_BATCH_EQUALIZE_CHANNELS, /* equalize, GH_EQUALIZE_CHANNELS        */
  CORE_BATCH_EQUALIZE_LUMINANCE,/* equalize, GH_EQUALIZE_LUMINANCE       */
  CORE_BATCH_BINARIZE_OTSU,     /* Otsu on luminance (value for gray)    */
  CORE_BATCH_CLAHE,             /* CLAHE on luminance, 2.0, 8 x 8        */
  CORE_BATCH_POSTERIZE_OTSU,    /* multi-level Otsu, 3 classes, applied,
                                   on luminance (value for gray)         */
  CORE_BATCH_NUM_OPERATIONS
} CoreBatchOperation;

/* `stats_csv` NULL: no statistics table (not for CORE_BATCH_STATISTICS);
 * the failures are still counted and said in *failures.
 * FALSE (and nothing processed or written) for bad arguments (calling
 * errors naming the argument), a pattern matching nothing, an output
 * folder that is an input's folder, or a CSV that cannot be opened;
 * otherwise TRUE with the number of files handled and of those that
 * failed, and in *failures (g_free it; NULL when none failed) one line
 * "<file>: <why>" per failed file, for the host's message.  Each result
 * and every row is written whole (files.h; the table under an flock).
 * *engine: the host's (core_engine_ensure), made here when the first file
 * needs one and left there for the host; NULL stays NULL where none does. */
gboolean core_batch_run (const CoreHost *host, gh_engine **engine,
                         const gchar *pattern, gint operation,
                         const gchar *output_dir, const gchar *stats_csv,
                         guint *done, guint *failed, gchar **failures,
                         GError **error);

/* What the host shows after a batch (g_free it): the counts, where the
 * statistics are (if anywhere: `stats_csv` NULL), and every failed file's
 * line.  Hosts show it after
 * interactive runs, and after any run where a file failed. */
gchar *core_batch_message (guint done, guint failed, const gchar *stats_csv,
                           const gchar *failures);

#endif
