/* SPDX-License-Identifier: GPL-3.0-or-later */
/* call.c — the start and end of a host's procedure call (call.h). */
#include "call.h"

#include "apply.h"
#include "operations.h"

gboolean
core_call_start (const CoreHost *host, gh_engine **engine,
                 const CoreTarget *target, const gchar *text,
                 const CoreProgress **progress, GError **error)
{
  static const CoreProgress whole = { 0.0, 1.0 };
  /* None is still one: 0 would tell the engine nothing. */
  gsize pixels = target->intersects
                   ? MAX ((gsize) target->width * target->height, 1) : 1;

  *progress = NULL;
  if (core_progress_shown (pixels))
    {
      host->progress_text (text);
      *progress = &whole;
    }
  return core_engine_ensure (engine, pixels, error);
}

gboolean
core_call_histogram (const CoreHost *host, gh_engine **engine,
                     const CoreTarget *target, gh_histogram *hist,
                     gdouble *seconds, GError **error)
{
  const CoreProgress *progress;
  GTimer             *timer;
  gboolean            ok;

  if (! core_call_start (host, engine, target, core_proc_analyse.progress,
                         &progress, error))
    return FALSE;
  timer = g_timer_new ();
  ok = core_histogram (host, *engine, target, NULL, hist, progress, error);
  *seconds = g_timer_elapsed (timer, NULL);
  g_timer_destroy (timer);
  return ok;
}

void
core_call_request (gh_operation op, const gdouble *values, gpointer reference,
                   CoreRequest *req)
{
  const CoreAction *action = core_action_get (op);

  core_request_defaults (req, op);
  for (gint k = 0; k < action->n_args; k++)
    core_request_set_arg (req, &action->args[k], values[k], reference);
}

gboolean
core_call_action (const CoreHost *host, gh_engine **engine,
                  const CoreTarget *target, gh_operation op,
                  const gdouble *values, gpointer reference, CoreRequest *req,
                  gh_request_result *result, GError **error)
{
  const CoreAction   *action = core_action_get (op);
  const CoreProgress *progress;

  core_call_request (op, values, reference, req);
  return core_call_start (host, engine, target, action->proc->progress,
                          &progress, error)
         && core_apply_request (host, *engine, target, req, NULL, progress,
                                result, error);
}

void
core_call_end (const gh_engine *engine,
               gboolean (*tell) (const gchar *message))
{
  gchar *note = core_engine_fallback_note (engine);

  if (note && tell)
    tell (note);
  else if (note)
    g_printerr ("gpu-histogram: %s\n", note);
  g_free (note);
}
