/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_plot.h — private to ui/: the histogram dialog's plot (drawn by
 * histogram_view from dialog_state), its channel and scale pickers and
 * the export's button (dialog_export.h) above it, and under it the
 * selected range and the level under the pointer, a row each;
 * clicks and drags on it select levels (dialog_state_press and on).
 *
 *   gtk_box_pack_start (GTK_BOX (left), dialog_plot_new (d), TRUE, TRUE, 0);
 *   dialog_plot_sync (d);    -- in dialog_sync: the range's text
 */
#ifndef GH_UI_DIALOG_PLOT_H
#define GH_UI_DIALOG_PLOT_H

#include "dialog_widgets.h"

/* Makes d->plot, d->range and d->hover; returns them with the pickers. */
GtkWidget *dialog_plot_new (Dialog *d);

/* The range's text follows the state. */
void dialog_plot_sync (Dialog *d);

#endif
