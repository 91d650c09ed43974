/* SPDX-License-Identifier: GPL-3.0-or-later */
/* flow.c — the dialog flow, once for both GIMP hosts (flow.h). */
#include "flow.h"

#include "core/apply.h"
#include "core/call.h"
#include "core/errors.h"
#include "core/operations.h"
#include "core/preview.h"

/* What the dialog's hooks work on. */
typedef struct
{
  const FlowHost     *host;
  gpointer            drawable;
  const gh_histogram *hist;
  CorePreview        *preview;
} FlowDialog;

gboolean
flow_choice_request (const FlowHost *host, gpointer drawable,
                     const DialogChoice *choice, CoreRequest *req,
                     GError **error)
{
  gchar *why = dialog_choice_refusal (choice);

  core_request_defaults (req, choice->request.operation);
  req->request = choice->request;
  if (why)
    {
      gchar *name = NULL;

      host->core->item_facts (drawable, TRUE, &name, NULL, NULL);
      g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED, "'%s': %s", name,
                   why);
      g_free (name);
      g_free (why);
      return FALSE;
    }
  if (! (gh_request_needs (&req->request) & GH_NEEDS_REFERENCE))
    return TRUE;
  req->reference = choice->reference >= 0 ? host->reference (choice->reference)
                                          : NULL;
  if (req->reference)
    return TRUE;
  g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
               "Match: the reference (ID %d) is no drawable of an open "
               "image; choose another", choice->reference);
  return FALSE;
}

/* The dialog's preview: the core's, what OK does pixel for pixel. */
static guchar *
preview_pixels (const DialogChoice *choice, gint x, gint y, gint width,
                gint height, gint out_width, gint out_height, gint *rowstride,
                gpointer data, GError **error)
{
  const FlowDialog *d = data;
  CoreRequest       req;

  if (! flow_choice_request (d->host, d->drawable, choice, &req, error))
    return NULL;
  return core_preview_pixels (d->preview, &req, x, y, width, height,
                              out_width, out_height, rowstride, error);
}

/* The dialog's Export CSV: the histogram it shows, as the export
 * procedure writes it. */
static gboolean
export_csv (const gchar *filename, gpointer data, GError **error)
{
  const FlowDialog *d = data;

  return core_write_csv (d->hist, filename, error)
         && (! d->host->export_done
             || d->host->export_done (filename, error));
}

/* The statistics of every channel the histogram has, as one message:
 * what an analyse shows without a dialog. */
static gchar *
statistics_text (const gh_histogram *hist, const gchar *backend)
{
  gdouble  stats[GH_NUM_STATS];
  GString *text = g_string_new (NULL);

  gh_stats_table (hist, stats);
  g_string_append_printf (text, "Histogram (%s)\nchannel: count, min, max, "
                          "mean, median, std-dev, otsu", backend);
  for (gint c = 0; c < GH_NUM_CHANNELS; c++)
    {
      const gdouble *s = stats + c * GH_STATS_PER_CHANNEL;

      if (hist->channels & (1u << c))
        g_string_append_printf (text, "\n%s: %.1f, %g, %g, %.3f, %g, %.3f, "
                                "%g", gh_channel_name ((gh_channel) c), s[0],
                                s[1], s[2], s[3], s[4], s[5], s[6]);
    }
  return g_string_free (text, FALSE);
}

/* The choice: the dialog's where there is one, `dialog` (FALSE: Cancel),
 * else the settings' (nothing to apply: their statistics, as GIMP's
 * message).  The refusal and the preview take the target's description. */
static gboolean
choose (const FlowHost *host, gh_engine *engine, const CoreTarget *target,
        DialogState *state, gboolean dialog, DialogChoice *choice)
{
  gpointer    drawable = target->drawable;
  FlowDialog  d = { host, drawable, state->hist, NULL };
  DialogHooks hooks = { preview_pixels, export_csv, host->reference_picker,
                        &d, host->live_offered };
  GError     *refusal = NULL;
  gboolean    chosen;
  gchar      *text;

  if (dialog)
    {
      core_check_changeable (host->core, target, &refusal);
      d.preview = core_preview_new (host->core, engine, target, state->hist);
      chosen = host->run_dialog (drawable, state,
                                 refusal ? refusal->message : NULL, &hooks,
                                 choice);
      core_preview_free (d.preview);
      g_clear_error (&refusal);
      return chosen;
    }
  dialog_state_choice (state, choice);
  if (choice->request.operation == DIALOG_ACTION_NONE)
    {
      text = statistics_text (state->hist, gh_engine_backend_name (engine));
      host->message (text);
      g_free (text);
    }
  return TRUE;
}

/* OK: the choice applied with the dialog's histogram, under the progress
 * bar with its procedure's text: as the host's filter where it has one
 * for it (GIMP 3's live filters), else by the core.  After a dialog
 * (`again`) the drawable is described anew, its facts asked of GIMP
 * again: the selection (or the drawable) may have changed while the
 * dialog was open; a repeat applies to the target as described. */
static gboolean
apply (const FlowHost *host, gh_engine *engine,
       const CoreTarget *target, gboolean again, const DialogChoice *choice,
       const gh_histogram *hist, GError **error)
{
  static const CoreProgress whole = { 0, 1 };
  CoreTarget                now = again ? core_target (target->drawable)
                                        : *target;
  const CoreAction         *action;
  CoreRequest               req;
  gboolean                  applied = FALSE;
  gboolean                  ok;

  if (! (action = core_action_get (choice->request.operation)))
    return TRUE;
  if (! flow_choice_request (host, target->drawable, choice, &req, error))
    return FALSE;
  host->core->progress_text (action->proc->progress);
  if (host->undo_group)
    host->undo_group (target->image, TRUE);
  ok = ! host->apply_filter
       || host->apply_filter (&now, &req, choice->live, &applied, error);
  ok = ok && (applied || core_apply_request (host->core, engine, &now, &req,
                                             hist, &whole, NULL, error));
  if (host->undo_group)
    host->undo_group (target->image, FALSE);
  return ok;
}

gboolean
flow_run (const FlowHost *host, gh_engine **engine,
          const CoreTarget *target, DialogAction action,
          gboolean interactive, gpointer store, gh_histogram *hist,
          FlowResult *result, GError **error)
{
  gboolean         dialog = interactive && host->ui_available ();
  CoreDrawableInfo info;
  CoreTarget       described;
  DialogSettings   settings;
  DialogState      state;
  DialogChoice     choice;
  gdouble          seconds;
  gboolean         ok;

  result->cancelled = result->changed = FALSE;
  result->used = -1;
  /* Described once: the refusal, the histogram, the preview and a
   * repeat's apply take that description, not GIMP's again. */
  if (! core_target_describe (host->core, target, &described, &info, error))
    return FALSE;
  /* A repeat that cannot apply fails before counting anything. */
  ok = (action == DIALOG_ACTION_NONE || interactive
        || core_check_changeable (host->core, &described, error))
       && core_call_histogram (host->core, engine, &described, hist,
                               &seconds, error);
  if (! ok)
    {
      core_drawable_info_clear (&info);
      return FALSE;
    }
  dialog_settings_for (&settings, action);
  host->settings_load (store, action, &settings);
  /* The procedures with an action of their own always start on it. */
  if (action != DIALOG_ACTION_NONE)
    settings.action = action;
  dialog_state_init (&state, hist, gh_engine_backend_name (*engine), seconds,
                     &settings);
  result->cancelled = ! choose (host, *engine, &described, &state, dialog,
                                &choice);
  /* Cancel changes nothing, not even the remembered settings. */
  ok = result->cancelled
       || apply (host, *engine, &described, dialog, &choice, hist, error);
  if (ok && ! result->cancelled)
    {
      host->settings_save (store, action, &state);
      result->changed = choice.request.operation != DIALOG_ACTION_NONE;
      if (core_action_get (choice.request.operation)
          && core_action_get (choice.request.operation)->returns
               == CORE_RETURN_THRESHOLD)
        result->used = dialog_state_threshold (&state);
    }
  dialog_state_clear (&state);
  core_drawable_info_clear (&info);
  return ok;
}
