/* SPDX-License-Identifier: GPL-3.0-or-later */
/* call.h — the start and end of a host's procedure call, alike in both
 * GIMPs.
 *
 * A call on a drawable makes its target once (host.h: the drawable, its
 * image and the part inside the selection, asked of GIMP once by the
 * host's run), passes it down and starts from it: the engine sized for
 * that work and, where the work is long enough to be seen, the progress
 * bar.  At its end the call tells a GPU that was there and not used, once.
 *
 *   CoreTarget target = { drawable, TRUE, image, FALSE, 0, 0, 0, 0, NULL };
 *   target.intersects = gimp_drawable_mask_intersect (...);
 *   if (core_call_start (&host, &engine, &target, "Equalizing (GPU)",
 *                        &progress, &error))
 *     core_apply_request (&host, engine, &target, &req, NULL, progress,
 *                        NULL, &error);
 *   ...
 *   core_call_end (engine, interactive ? gimp_message : NULL);
 */
#ifndef GH_CORE_CALL_H
#define GH_CORE_CALL_H

#include "actions.h"
#include "host.h"
#include "region.h"

/* Makes sure of the engine for the target's pixels inside the selection
 * (core_engine_ensure), and
 * sets *progress: the whole bar, restarted with `text`
 * (host->progress_text), where that work shows one (core_progress_shown);
 * else NULL, and GIMP is asked nothing.  The bar comes first: a failed
 * engine still leaves *progress set. */
gboolean core_call_start (const CoreHost *host, gh_engine **engine,
                          const CoreTarget *target, const gchar *text,
                          const CoreProgress **progress, GError **error);

/* The start of a call that counts its drawable first (core_call_start
 * with the analyse's progress text) and the histogram of its part inside
 * the selection, with how long the engine took, its start-up left out. */
gboolean core_call_histogram (const CoreHost *host, gh_engine **engine,
                              const CoreTarget *target,
                              gh_histogram *hist, gdouble *seconds,
                              GError **error);

/* An action's procedure's request (actions.h) from the arguments'
 * `values` (one per action->args, in order) and match's `reference`; not
 * checked (core_apply_request checks it). */
void core_call_request (gh_operation op, const gdouble *values,
                        gpointer reference, CoreRequest *req);

/* The run of an action's procedure (actions.h) without its dialog (a
 * script's): its request made by core_call_request, started as a call
 * with the procedure's progress text (core_call_start) and applied
 * (core_apply_request).  *req: the request applied. */
gboolean core_call_action (const CoreHost *host, gh_engine **engine,
                           const CoreTarget *target, gh_operation op,
                           const gdouble *values, gpointer reference,
                           CoreRequest *req, gh_request_result *result,
                           GError **error);

/* The end of every call: a GPU that was there and not used is told once
 * (core_engine_fallback_note)
 * with `tell` (GIMP's message, in interactive use), or on stderr where
 * `tell` is NULL (scripts). */
void core_call_end (const gh_engine *engine,
                    gboolean (*tell) (const gchar *message));

#endif
