/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_stats.h — private to ui/: the histogram dialog's statistics, one
 * row per number (DialogStat), one column per channel shown, as
 * dialog_state's texts (every column keeps its width, blank where no
 * channel is shown), under them the backend that counted.
 *
 *   gtk_box_pack_start (GTK_BOX (left), dialog_stats_new (d), ...);
 *   dialog_stats_sync (d);   -- in dialog_sync: the columns and numbers
 */
#ifndef GH_UI_DIALOG_STATS_H
#define GH_UI_DIALOG_STATS_H

#include "dialog_widgets.h"

/* Makes d->titles and d->values. */
GtkWidget *dialog_stats_new (Dialog *d);

/* Shows the state's columns with their titles and numbers, blanks the
 * others. */
void dialog_stats_sync (Dialog *d);

#endif
