/* SPDX-License-Identifier: GPL-3.0-or-later */
/* flow_host.h — the dialog flow's host (flow.h) in libgimp 2.10's calls:
 * GTK 2's display, libgimpui 2.0's dialog and reference picker, the
 * dialog's settings kept with gimp_set_data under the procedure's name
 * (the flow's `store`), GIMP's message; merge_shadow is one undo step.
 *
 *   flow_run (&gimp2_flow_host, &engine, &target, action, interactive,
 *             (gpointer) proc_name, &hist, &result, &error);
 */
#ifndef GH_GIMP2_FLOW_HOST_H
#define GH_GIMP2_FLOW_HOST_H

#include "flow.h"

extern const FlowHost gimp2_flow_host;

/* The dialog settings kept under the procedure `store`: load overwrites
 * `settings` with them where there are any. */
void gimp2_settings_load (gpointer store, DialogAction action,
                          DialogSettings *settings);
void gimp2_settings_save (gpointer store, DialogAction action,
                          const DialogState *state);

#endif
