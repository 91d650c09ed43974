/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_gtk.h — the histogram dialog in GTK, the same for both GIMP hosts.
 *
 * Thin glue: the drawing is histogram_view's, every number and decision
 * dialog_state's; the dialog only lays out widgets and forwards their
 * events.  It knows nothing of the plug-in's operations: the caller hands
 * in hooks (dialog_hooks.h) that render the preview and write the CSV, so
 * the same operations the procedures use do the work (the arrows stay
 * plugin -> ui -> engine).
 *
 * One source serves both toolkits (dialog_widgets.c and its parts, listed
 * in dialog_widgets.h, built against GTK 2 and again against GTK 3); what
 * differs is in dialog_gtk2.c (GTK 2 / libgimpui 2.0, GIMP 2.10) and
 * dialog_gtk3.c (GTK 3 / libgimpui 3.0, GIMP 3).  A plug-in includes its
 * host's header, dialog_gtk2.h or dialog_gtk3.h, which declares dialog_run
 * for that host's drawables and includes this one, and links that glue's
 * library, never both (the functions have the same names):
 *
 *   gimp_ui_init (...);   -- as the host's libgimpui asks
 *   DialogState st;  dialog_state_init (&st, &hist, backend, secs, &settings);
 *   DialogHooks hooks = { my_preview, my_export, my_data };
 *   DialogChoice choice;
 *   if (dialog_run (drawable, &st, refusal, &hooks, &choice))
 *     ... apply choice; st.settings is what to remember ...
 *
 * dialog_run shows the dialog on `drawable` (GIMP 2.10: its id; GIMP 3:
 * the GimpDrawable) until the user closes it.  `refusal`: why the layer
 * cannot be changed (the actions are then greyed out and say so), or NULL.
 * TRUE for OK: `choice` says what to apply (perhaps nothing) and
 * state->settings what to remember.  FALSE: cancelled.
 */
#ifndef GH_UI_DIALOG_GTK_H
#define GH_UI_DIALOG_GTK_H

#include <gtk/gtk.h>

#include "dialog_hooks.h"
#include "dialog_state.h"

/* The dialog's content, all but the window, the preview and the buttons,
 * for a test to render without GIMP running; its widgets are named as
 * dialog_hooks.h lists.  `preview` (may be NULL) goes above the actions
 * and is invalidated whenever the choice changes.  `hooks` may be NULL
 * (no export).  The state must outlive the widget. */
GtkWidget *dialog_content_new (DialogState *state, const gchar *refusal,
                               const DialogHooks *hooks, GtkWidget *preview);

/* The whole dialog window, not shown yet: the content about `preview`
 * (dialog_run's is libgimpui's zoom preview of the drawable), Help,
 * Cancel and OK (the default), the focus on the chosen action.
 * dialog_run shows and runs it; a test can measure it (it needs no GIMP
 * running). */
GtkWidget *dialog_window_new (GtkWidget *preview, DialogState *state,
                              const gchar *refusal, const DialogHooks *hooks);

/* The dialog's Export CSV file chooser, for the export procedure's own
 * interactive run too: asks for a CSV file to save to (confirming an
 * overwrite), starting at `filename` (NULL: histogram.csv).  The chosen
 * file (g_free it), or NULL when cancelled.  `parent` NULL: the window is
 * GIMP's transient. */
gchar *dialog_csv_file_choose (GtkWindow *parent, const gchar *filename);

#endif
