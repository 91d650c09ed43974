/* SPDX-License-Identifier: GPL-3.0-or-later */
/* operations.h — what the procedures do to one drawable besides applying
 * a request (apply.h): analyse, export, and the checks before a change;
 * the same in every host.
 *
 * Written once for the PDB procedures of both GIMP hosts, the batch and
 * the dialog; each takes the call's target (host.h).  Those that count
 * pixels take the plug-in's one engine.  On error `error` says why, with
 * CORE_ERROR_CALLING for a bad argument.
 *
 *   gh_histogram hist;  gh_histogram_init (&hist);
 *   core_histogram (host, engine, &target, NULL, &hist, NULL, &error);
 *   gh_stats_table (&hist, stats);
 *   gh_histogram_clear (&hist);
 *
 * Added since the interface was first declared: core_engine_ensure, the
 * one engine of a plug-in process, created alike by both hosts, and
 * core_engine_fallback_note.
 */
#ifndef GH_CORE_OPERATIONS_H
#define GH_CORE_OPERATIONS_H

#include "region.h"

/* The plug-in's one engine, created at the first call that needs it
 * (*engine NULL until then): a batch pays the GPU start-up once.
 * expected_pixels: the pixels the call counts, the drawable's part inside
 * the selection (the engine then starts no GPU the CPU would beat:
 * gh_options), 0 for the
 * batch and the dialog, whose work is not known in advance.  The engine
 * is quiet: the hosts tell a fallback themselves, once per call, with
 * core_engine_fallback_note. */
gboolean core_engine_ensure (gh_engine **engine, gsize expected_pixels,
                             GError **error);

/* When a GPU was asked for or found and could not be used
 * (gh_engine_gpu_failed), one line saying why, to show in GIMP's message
 * (interactive) or print on stderr (scripts); NULL otherwise, notably when
 * there is no GPU under AUTO.  g_free it. */
gchar *core_engine_fallback_note (const gh_engine *engine);

/* The histogram of the drawable's part inside the selection: the channels
 * `request` reads of it (gh_request_channels), or every channel (NULL:
 * statistics, a table, the dialog). */
gboolean core_histogram (const CoreHost *host, gh_engine *engine,
                         const CoreTarget *target, const gh_request *request,
                         gh_histogram *hist, const CoreProgress *progress,
                         GError **error);

/* Whether the operations may rewrite this drawable's pixels (not
 * indexed, a group or locked); the dialog asks before offering them, the
 * operations before touching any pixel. */
gboolean core_check_changeable (const CoreHost *host, const CoreTarget *target,
                                GError **error);

/* The region of a drawable an operation may rewrite
 * (core_check_changeable's rule); cleared again when it may not. */
gboolean core_changeable_region (const CoreHost *host, const CoreTarget *target,
                                 CoreRegion *region, GError **error);

/* The histogram as CSV (gh_csv_write_histogram), written to a temporary
 * file beside `filename` and renamed over it when complete. */
gboolean core_write_csv (const gh_histogram *hist, const gchar *filename,
                         GError **error);

/* The drawable's histogram, computed, as core_write_csv writes it. */
gboolean core_export (const CoreHost *host, gh_engine *engine,
                      const CoreTarget *target, const gchar *filename,
                      const CoreProgress *progress, GError **error);

#endif
