/* SPDX-License-Identifier: GPL-3.0-or-later */
/* flow.h — the dialog flow, once for both GIMP hosts.
 *
 * The procedures with a dialog (analyse, equalize, binarize, CLAHE,
 * match), in every run mode but NONINTERACTIVE: the histogram, then the
 * dialog (ui/dialog_state.h's model; an interactive run with a display)
 * or the remembered settings (a repeat, or no display), what they choose
 * applied with that histogram through core_apply_request, and the settings
 * remembered.  Each host fills a FlowHost with what differs between
 * libgimp 2.10 and 3; the arrows stay host -> flow -> core, ui.
 *
 *   static const FlowHost host = { &gimp2_host, ui_available, ... };
 *   FlowResult result;
 *   if (! flow_run (&host, &engine, &target, DIALOG_ACTION_BINARIZE, TRUE,
 *                   store, &hist, &result, &error)) ...
 *   ... result.used: the binarize threshold applied, as a level
 */
#ifndef GH_PLUGIN_FLOW_H
#define GH_PLUGIN_FLOW_H

#include "core/actions.h"
#include "core/host.h"
#include "dialog_hooks.h"

typedef struct
{
  const CoreHost *core;
  /* Whether a dialog can be shown: GIMP has a display. */
  gboolean  (*ui_available)     (void);
  /* The dialog on `drawable` (libgimpui started first): TRUE for OK, with
   * the choice (dialog_run of dialog_gtk2.h / dialog_gtk3.h). */
  gboolean  (*run_dialog)       (gpointer drawable, DialogState *state,
                                 const gchar *refusal,
                                 const DialogHooks *hooks,
                                 DialogChoice *choice);
  /* Match's reference picker (DialogHooks.reference_picker; data unused)
   * and the host's handle of the item ID chosen (NULL: no drawable). */
  gpointer  (*reference_picker) (gint32 reference, gpointer data);
  gpointer  (*reference)        (gint32 id);
  /* The dialog settings remembered in `store` (the host's: GIMP 2.10 the
   * procedure's name, GIMP 3 its config) for the dialog of `action`'s
   * procedure: load overwrites `settings` (the first run's) with them
   * where there are any; save keeps the state's after an applied run. */
  void      (*settings_load)    (gpointer store, DialogAction action,
                                 DialogSettings *settings);
  void      (*settings_save)    (gpointer store, DialogAction action,
                                 const DialogState *state);
  /* After the dialog's Export CSV wrote `filename`: what the host
   * remembers of it (NULL: nothing). */
  gboolean  (*export_done)      (const gchar *filename, GError **error);
  /* GIMP's message. */
  gboolean  (*message)          (const gchar *text);
  /* An undo group around OK's apply, in `image` (NULL: the host's
   * merge_shadow is one undo step already). */
  void      (*undo_group)       (gpointer image, gboolean start);
  /* GIMP 3's live filters (plugin/gimp3/filter.h); NULL: none (GIMP
   * 2.10).  live_offered: the dialog's DialogHooks.live_offered (data
   * unused).  apply_filter: OK's request applied as the host's filter,
   * merged or `live`, inside the undo group, where it can (*applied);
   * FALSE when that failed, nothing changed; *applied FALSE: the core's
   * pixel path applies it. */
  gboolean  (*live_offered)     (const DialogChoice *choice, gpointer data);
  gboolean  (*apply_filter)     (const CoreTarget *target,
                                 const CoreRequest *req, gboolean live,
                                 gboolean *applied, GError **error);
} FlowHost;

typedef struct
{
  gboolean cancelled; /* the dialog's Cancel: nothing changed, nothing
                         remembered                                     */
  gboolean changed;   /* an operation was applied                       */
  gint     used;      /* binarize's threshold as a level; -1: none      */
} FlowResult;

/* The dialog's choice on `drawable` as the core's request (OK and the
 * preview apply it): FALSE with the reason when it cannot be applied (a
 * posterize that found no thresholds; match's reference gone).  Asks only
 * host->core and host->reference. */
gboolean flow_choice_request (const FlowHost *host, gpointer drawable,
                              const DialogChoice *choice, CoreRequest *req,
                              GError **error);

/* The flow on `target` (made once by the host: core/host.h), whose
 * histogram it counts; whose procedure's action is `action` (DIALOG_ACTION_NONE:
 * analyse, which starts on its last action).  `interactive`: the dialog
 * where there is a display; else the remembered settings apply (a repeat
 * that cannot apply fails before counting anything).  The drawable is
 * described once (core_target_describe) for the histogram, the refusal,
 * the preview and a repeat's apply; OK after a dialog describes it again,
 * asking GIMP: the selection may have changed while the dialog was open.  `hist` (initialised)
 * gets the histogram.  FALSE with an error when it failed; a Cancel is
 * TRUE with result->cancelled. */
gboolean flow_run (const FlowHost *host, gh_engine **engine,
                   const CoreTarget *target, DialogAction action,
                   gboolean interactive, gpointer store, gh_histogram *hist,
                   FlowResult *result, GError **error);

#endif
