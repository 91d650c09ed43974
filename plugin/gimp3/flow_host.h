/* SPDX-License-Identifier: GPL-3.0-or-later */
/* flow_host.h — the dialog flow's host (flow.h) in libgimp 3's calls:
 * GIMP's display, libgimpui 3.0's dialog and reference picker, the
 * dialog's settings kept in each procedure's config (the flow's `store`;
 * the settings that are not arguments as aux arguments: AUX_*), GIMP's
 * message, OK's apply in one undo group, as the GEGL module's filter where
 * it can be (filter.h: merged, or live with the dialog's Keep as live
 * filter, remembered as "live").
 *
 *   flow_run (gimp3_flow_host (), &gimp3_engine, &target, action,
 *             interactive, config, &hist, &result, &error);
 */
#ifndef GH_GIMP3_FLOW_HOST_H
#define GH_GIMP3_FLOW_HOST_H

#include "flow.h"

/* The dialog's settings that are not arguments of any procedure (aux
 * arguments: remembered, never passed); "channel", "mode", "threshold"
 * and CLAHE's and posterize's are arguments of some procedures, aux of the
 * others.  Match's reference is remembered as its item ID: an int keeps
 * in any config. */
#define AUX_ACTION    "action"
#define AUX_SCALE     "scale"
#define AUX_RANGE_LO  "range-lo"
#define AUX_RANGE_HI  "range-hi"
#define AUX_REFERENCE "reference-id"

const FlowHost *gimp3_flow_host (void);

#endif
