/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_export.h — private to ui/: the histogram dialog's Export CSV
 * button (the host's export_csv hook, after dialog_csv_file_choose) and
 * the message line that says what the export and the preview did
 * (dialog_state_message).
 *
 *   GtkWidget *button = dialog_export_new (d);  -- NULL: no export hook
 *   gtk_box_pack_start (GTK_BOX (left), dialog_message_new (d), ...);
 *   ... after the preview: dialog_message_show (d);
 */
#ifndef GH_UI_DIALOG_EXPORT_H
#define GH_UI_DIALOG_EXPORT_H

#include "dialog_widgets.h"

/* The Export CSV button, or NULL where the hooks export nothing. */
GtkWidget *dialog_export_new (Dialog *d);

/* Makes d->message: shown only while the state has a message. */
GtkWidget *dialog_message_new (Dialog *d);

/* The message line follows the state. */
void dialog_message_show (Dialog *d);

#endif
