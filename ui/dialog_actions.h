/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_actions.h — private to ui/: what OK applies, in the histogram
 * dialog's "On OK" frame: one radio button per action (greyed out where
 * the layer cannot be changed, Match without a reference picker), and
 * under them the chosen action's own controls (dialog_controls.h), one
 * page at a time, which keeps the dialog low enough for a 768-pixel
 * screen.
 *
 *   gtk_box_pack_start (GTK_BOX (right), dialog_actions_new (d, refusal),
 *                       FALSE, FALSE, 0);
 *   dialog_actions_sync (d);   -- in dialog_sync
 */
#ifndef GH_UI_DIALOG_ACTIONS_H
#define GH_UI_DIALOG_ACTIONS_H

#include "dialog_widgets.h"

/* Makes d->action, d->pages and every page's controls; the remembered
 * action chosen.  `refusal`: why the layer cannot be changed, or NULL. */
GtkWidget *dialog_actions_new (Dialog *d, const gchar *refusal);

/* The radio buttons' labels (binarize's and posterize's name the
 * channel), the page shown and its controls follow the state. */
void dialog_actions_sync (Dialog *d);

#endif
