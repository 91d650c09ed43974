/* SPDX-License-Identifier: GPL-3.0-or-later */
/* operations.h — what the procedures do to one drawable: analyse,
 * equalize, binarize, export; the same in every host.
 *
 * Written once for the PDB procedures of both GIMP hosts, the batch and
 * the dialog (its preview and OK), which call them through the
 * operations' table (actions.h); each takes the call's target (host.h).
 * Those that count pixels take the plug-in's one engine; the apply
 * operations take the drawable's histogram when the caller already has it
 * (else NULL: they compute it), change only the selection, and are one
 * undo step.  On error the drawable is
 * unchanged and `error` says why, with CORE_ERROR_CALLING for a bad
 * argument.
 *
 *   gh_histogram hist;  gh_histogram_init (&hist);
 *   core_histogram (host, engine, &target, NULL, &hist, NULL, &error);
 *   gh_stats_table (&hist, stats);
 *   core_equalize (host, engine, &target, GH_EQUALIZE_CHANNELS, &hist,
 *                  NULL, &error);
 *   gh_histogram_clear (&hist);
 *
 * Added since the interface was first declared: core_engine_ensure, the
 * one engine of a plug-in process, created alike by both hosts, and
 * core_engine_fallback_note.  Binarize has GIMP do its pixel pass where
 * GIMP's threshold gives the same pixels (no pixels sent to the plug-in
 * and back).
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

/* Whether equalize and binarize may rewrite this drawable's pixels (not
 * indexed, a group or locked); the dialog asks before offering them, the
 * operations before touching any pixel. */
gboolean core_check_changeable (const CoreHost *host, const CoreTarget *target,
                                GError **error);

/* For the operations of beyond.c, which share the rules of these:
 *
 * core_changeable_region: the region of a drawable equalize or binarize
 * may rewrite (core_check_changeable's rule); cleared again when it may
 * not.  core_channel_region: the drawable's region once `channel` is one
 * of GIMP's and the drawable has it (and, when `changeable`, may be
 * changed).  core_ensure_histogram: the histogram to apply from, *hist
 * the caller's (checked against the region's bins) or else its
 * `channels` (core_operation_channels) computed into `own` over the
 * first half of `progress`; the apply gets *apply_progress, the rest.
 * core_operation_channels: the channels of the region's histogram that
 * `operation` on `channel` or in `mode` reads (gh_request_channels). */
gboolean core_changeable_region (const CoreHost *host, const CoreTarget *target,
                                 CoreRegion *region, GError **error);
gboolean core_channel_region (const CoreHost *host, const CoreTarget *target,
                              gint channel, gboolean changeable,
                              CoreRegion *region, GError **error);
gboolean core_ensure_histogram (gh_engine *engine, const CoreRegion *region,
                                guint channels, const gh_histogram **hist,
                                gh_histogram *own,
                                const CoreProgress *progress,
                                CoreProgress *apply_progress, GError **error);
guint core_operation_channels (const CoreRegion *region,
                               gh_operation operation, gint channel,
                               gint mode);

/* mode: GH_EQUALIZE_CHANNELS or GH_EQUALIZE_LUMINANCE; anything else is a
 * calling error. */
gboolean core_equalize (const CoreHost *host, gh_engine *engine,
                        const CoreTarget *target, gint mode,
                        const gh_histogram *hist,
                        const CoreProgress *progress, GError **error);

/* threshold: -1 Otsu on the channel, or a level 0..254 (levels above it
 * turn white); the one used goes to *used, as a level (Otsu's last dark
 * bin's level, rounded down).  Where GIMP's own threshold gives exactly
 * these pixels (8-bit sRGB layers, every channel but GIMP 3's luminance),
 * GIMP does the pixel pass in its process (CoreHost.threshold): only Otsu
 * reads the pixels, and nothing is written back through the plug-in. */
gboolean core_binarize (const CoreHost *host, gh_engine *engine,
                        const CoreTarget *target, gint channel, gint threshold,
                        const gh_histogram *hist, gint *used,
                        const CoreProgress *progress, GError **error);

/* Binarizes at a bin of `hist`, the drawable's histogram: what the
 * dialog applies, exactly the bin its marker shows. */
gboolean core_binarize_bin (const CoreHost *host, const CoreTarget *target,
                            gint channel, gint bin, const gh_histogram *hist,
                            const CoreProgress *progress, GError **error);

/* The histogram as CSV (gh_csv_write_histogram), written to a temporary
 * file beside `filename` and renamed over it when complete. */
gboolean core_write_csv (const gh_histogram *hist, const gchar *filename,
                         GError **error);

/* The drawable's histogram, computed, as core_write_csv writes it. */
gboolean core_export (const CoreHost *host, gh_engine *engine,
                      const CoreTarget *target, const gchar *filename,
                      const CoreProgress *progress, GError **error);

#endif
