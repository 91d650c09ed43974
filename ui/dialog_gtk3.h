/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_gtk3.h — the histogram dialog (dialog_gtk.h) for the GIMP 3
 * host: GTK 3 / libgimpui 3.0, on a GimpDrawable.  GIMP's theme and icon
 * size come from gimp_ui_init; the plot is drawn at the display's scale
 * factor.
 *
 *   gimp_ui_init (PLUG_IN_BINARY);
 *   if (dialog_run (drawable, &st, refusal, &hooks, &choice)) ...
 */
#ifndef GH_UI_DIALOG_GTK3_H
#define GH_UI_DIALOG_GTK3_H

#include <libgimp/gimp.h>

#include "dialog_gtk.h"

/* Shows the dialog until the user closes it: dialog_gtk.h says how. */
gboolean dialog_run (GimpDrawable *drawable, DialogState *state,
                     const gchar *refusal, const DialogHooks *hooks,
                     DialogChoice *choice);

#endif
