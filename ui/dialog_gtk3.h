/* dialog_gtk3.h — the histogram dialog in GTK 3 / libgimpui 3.0 (GIMP 3).
 *
 * The same dialog as dialog_gtk2.h, for the GIMP 3 host, with the same
 * function names (a plug-in links one glue or the other, never both): the
 * drawing is histogram_view's, every number and decision dialog_state's,
 * the work the host's hooks (dialog_hooks.h); this file only lays out
 * widgets and forwards their events.  GIMP's theme and icon size come
 * from gimp_ui_init; the plot is drawn at the display's scale factor.
 *
 *   gimp_ui_init (PLUG_IN_BINARY);
 *   DialogState st;  dialog_state_init (&st, &hist, backend, secs, &settings);
 *   DialogHooks hooks = { my_preview, my_export, my_data };
 *   DialogChoice choice;
 *   if (dialog_run (drawable, &st, refusal, &hooks, &choice))
 *     ... apply choice; st.settings is what to remember ...
 *
 * dialog_content_new builds everything but the window, the preview and
 * the buttons, for a test to render without GIMP running; its widgets are
 * named as dialog_hooks.h lists.  dialog_csv_file_choose is the Export CSV
 * file chooser, for the export procedure's own interactive run too.
 */
#ifndef GH_UI_DIALOG_GTK3_H
#define GH_UI_DIALOG_GTK3_H

#include <gtk/gtk.h>
#include <libgimp/gimp.h>

#include "dialog_hooks.h"
#include "dialog_state.h"

/* Shows the dialog on `drawable` until the user closes it.  `refusal`:
 * why the layer cannot be changed (the actions are then greyed out and
 * say so), or NULL.  TRUE for OK: `choice` says what to apply (perhaps
 * nothing) and state->settings what to remember.  FALSE: cancelled. */
gboolean dialog_run (GimpDrawable *drawable, DialogState *state,
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
