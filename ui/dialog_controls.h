/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_controls.h — private to ui/: each action's own controls, the page
 * dialog_actions shows under the radio buttons while OK applies that
 * action: the equalize mode, binarize's threshold and Use Otsu, CLAHE's
 * grid, clip limit and mode, match's reference and mode, posterize's
 * classes; analysing only, what OK does.  Their ranges, steps and the
 * names of those that stand for one parameter are the engine's
 * vocabulary's (gh_request.h); their values the state's settings.
 *
 *   dialog_controls_reference_new (d);    -- first: Match needs a picker
 *   for (a = 0; a < DIALOG_NUM_ACTIONS; a++)
 *     gtk_container_add (GTK_CONTAINER (d->pages),
 *                        dialog_controls_page_new (d, a, refusal));
 *   dialog_controls_sync (d);             -- in dialog_sync
 *
 * A new operation's controls are made from its parameters by themselves
 * (settings_table's default: a row each, a spin button over the range or
 * a picker of the named values); their values, sensitivity and changes
 * are loops over the vocabulary's parameters.
 */
#ifndef GH_UI_DIALOG_CONTROLS_H
#define GH_UI_DIALOG_CONTROLS_H

#include "dialog_widgets.h"

/* Makes d->reference, the host's reference picker, set to the remembered
 * reference (or the picker's own first choice, which then becomes the
 * state's); none without the hook. */
void dialog_controls_reference_new (Dialog *d);

/* `action`'s page; `refusal`: why the layer cannot be changed, which the
 * page of analysing only says, or NULL. */
GtkWidget *dialog_controls_page_new (Dialog *d, DialogAction action,
                                     const gchar *refusal);

/* The controls' values and sensitivity follow the state. */
void dialog_controls_sync (Dialog *d);

#endif
