/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_widgets.h — private to ui/: the histogram dialog's widgets, one
 * source for both toolkits, and what its parts share.
 *
 * The dialog's sources are compiled twice, into the GTK 2 library beside
 * dialog_gtk2.c and into the GTK 3 one beside dialog_gtk3.c.  Its parts,
 * each with its header:
 *   dialog_widgets.c  the layout (dialog_content_new, dialog_window_new):
 *                     the plot, its numbers and the export at the left,
 *                     each text that changes at a fixed width, so the
 *                     dialog keeps one width whatever it shows;
 *                     the preview and the actions at the right, so the
 *                     window fits a 1366 x 768 screen; the refresh from
 *                     dialog_state; the preview;
 *   dialog_plot.c     the plot, its channel and scale pickers, the pointer;
 *   dialog_stats.c    the statistics table and the backend that counted;
 *   dialog_export.c   Export CSV and the message line;
 *   dialog_actions.c  what OK applies: the actions' radio buttons and,
 *                     under them, the chosen action's own controls;
 *   dialog_toolkit.h  what GTK 2 and GTK 3 do differently: each glue's.
 * A part makes its widgets into the Dialog below, feeds their events to
 * the state and calls dialog_changed; dialog_sync refreshes every part
 * from the state:
 *
 *   gtk_box_pack_start (GTK_BOX (left), dialog_plot_new (d), TRUE, TRUE, 0);
 *   ... an event: dialog_state_set_param (d->state, GH_PARAM_MODE, mode);
 *   dialog_changed (d);
 */
#ifndef GH_UI_DIALOG_WIDGETS_H
#define GH_UI_DIALOG_WIDGETS_H

#include <gtk/gtk.h>

#include "dialog_gtk.h"
#include "dialog_texts.h"

/* One dialog's widgets, freed with its content (dialog_content_new). */
typedef struct
{
  DialogState       *state;
  const DialogHooks *hooks;
  GtkWidget         *plot;
  GtkWidget         *hover, *range, *message;
  GtkWidget         *titles[DIALOG_MAX_COLUMNS];
  GtkWidget         *values[DIALOG_MAX_COLUMNS][DIALOG_NUM_STATS];
  GtkWidget         *action[DIALOG_NUM_ACTIONS]; /* radios, by DialogAction */
  GtkWidget         *params[DIALOG_NUM_ACTIONS][GH_NUM_PARAMS]; /* each
                                       action's spin button or picker of
                                       each of its parameters (one
                                       setting, shown under every action
                                       that takes it); NULL: none */
  GObject           *threshold;      /* binarize's GimpScaleEntry (GTK
                                       3) or its adjustment (GTK 2):
                                       either has a "value" property
                                       and "value-changed" */
  GtkWidget         *otsu;
  GtkWidget         *reference;      /* the host's picker; NULL: none */
  GtkWidget         *pages;          /* the actions' own controls, one
                                       page per DialogAction, the chosen
                                       one's shown */
  GtkWidget         *live;           /* Keep as live filter; NULL where
                                       the host offers none (GIMP 2.10) */
  GtkWidget         *preview;
  gboolean           updating;       /* the dialog moves its own widgets */
} Dialog;

/* Every widget but the plot's pixels follows the state (each part's
 * *_sync); the plot is redrawn. */
void dialog_sync (Dialog *d);

/* The choice changed: dialog_sync, and the preview follows. */
void dialog_changed (Dialog *d);

/* What OK applies now (the chosen one, or none where the layer cannot be
 * changed). */
DialogAction dialog_applied_action (const Dialog *d);

/* A row or a column of widgets, `spacing` apart. */
GtkWidget *dialog_box_new (GtkOrientation orientation, gint spacing);

/* The label's text at the left (0) or the right (1) of its space. */
void dialog_label_xalign (GtkWidget *label, gfloat xalign);

/* An empty label named `name`, aligned as dialog_label_xalign. */
GtkWidget *dialog_named_label (const gchar *name, gfloat xalign);

/* Makes `label` `chars` characters of its font wide whatever its text
 * (ellipsized past them): a text that changes (a count, the hovered
 * level) never resizes the dialog. */
void dialog_label_fixed (GtkWidget *label, gint chars);

/* A label whose text wraps at about 40 characters rather than widening
 * the dialog, at the left of its space. */
GtkWidget *dialog_wrapped_label (const gchar *text);

/* A GimpIntComboBox of labels[0..n) valued by their index (NULL labels
 * left out), showing `active`, named `name`, `callback` on "changed". */
GtkWidget *dialog_int_combo (const gchar *const *labels, gint n,
                             gint active, const gchar *name,
                             GCallback callback, Dialog *d);

/* Shows the dialog (dialog_window_new's) until the user closes it:
 * dialog_run's work once the glue has made the preview (dialog_gtk.h says
 * what it returns). */
gboolean dialog_window_run (GtkWidget *preview, DialogState *state,
                            const gchar *refusal, const DialogHooks *hooks,
                            DialogChoice *choice);

#endif
