/* dialog_gtk2.h — the histogram dialog in GTK 2 / libgimpui (GIMP 2.10).
 *
 * Thin glue: the drawing is histogram_view's, every number and decision
 * dialog_state's; this file only lays out widgets and forwards their
 * events.  It knows nothing of the plug-in's operations: the caller hands
 * in hooks (dialog_hooks.h) that render the preview and write the CSV, so
 * the same operations the procedures use do the work (the arrows stay
 * plugin -> ui -> engine).  dialog_gtk3.h is the same dialog for GIMP 3.
 *
 *   gimp_ui_init (PLUG_IN_BINARY, FALSE);
 *   DialogState st;  dialog_state_init (&st, &hist, backend, secs, &settings);
 *   DialogHooks hooks = { my_preview, my_export, my_data };
 *   DialogChoice choice;
 *   if (dialog_run (drawable, &st, refusal, &hooks, &choice))
 *     ... apply choice; st.settings is what to remember ...
 *
 * dialog_content_new builds everything but the window, the preview and
 * the buttons, for a test to render without GIMP running.  Its widgets
 * are named for finding them as dialog_hooks.h lists.
 *
 * dialog_csv_file_choose is the dialog's Export CSV file chooser, for the
 * export procedure's own interactive run.
 */
#ifndef GH_UI_DIALOG_GTK2_H
#define GH_UI_DIALOG_GTK2_H

#include <gtk/gtk.h>

#include "dialog_hooks.h"
#include "dialog_state.h"

/* Shows the dialog on `drawable` until the user closes it.  `refusal`:
 * why the layer cannot be changed (the actions are then greyed out and
 * say so), or NULL.  TRUE for OK: `choice` says what to apply (perhaps
 * nothing) and state->settings what to remember.  FALSE: cancelled. */
gboolean dialog_run (gint32 drawable, DialogState *state,
                     const gchar *refusal, const DialogHooks *hooks,
                     DialogChoice *choice);

/* The dialog's content; `preview` (may be NULL) goes above the actions
 * and is invalidated whenever the choice changes.  `hooks` may be NULL
 * (no export).  The state must outlive the widget. */
GtkWidget *dialog_content_new (DialogState *state, const gchar *refusal,
                               const DialogHooks *hooks, GtkWidget *preview);

/* Asks for a CSV file to save to (confirming an overwrite), starting at
 * `filename` (NULL: histogram.csv).  The chosen file (g_free it), or NULL
 * when cancelled.  `parent` NULL: the window is GIMP's transient. */
gchar *dialog_csv_file_choose (GtkWindow *parent, const gchar *filename);

#endif
