/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_gtk2.h — the histogram dialog (dialog_gtk.h) for the GIMP 2.10
 * host: GTK 2 / libgimpui 2.0, on a drawable named by its id.
 *
 *   gimp_ui_init (PLUG_IN_BINARY, FALSE);
 *   if (dialog_run (drawable_id, &st, refusal, &hooks, &choice)) ...
 */
#ifndef GH_UI_DIALOG_GTK2_H
#define GH_UI_DIALOG_GTK2_H

#include "dialog_gtk.h"

/* Shows the dialog until the user closes it: dialog_gtk.h says how. */
gboolean dialog_run (gint32 drawable, DialogState *state,
                     const gchar *refusal, const DialogHooks *hooks,
                     DialogChoice *choice);

#endif
