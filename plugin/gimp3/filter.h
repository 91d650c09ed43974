/* SPDX-License-Identifier: GPL-3.0-or-later */
/* filter.h — the GIMP 3 procedures through the GEGL module (gegl/): an
 * operation applied as GIMP's own filter (libgimp's GimpDrawableFilter),
 * merged at once (one undo step, no pixel moved through the plug-in) or
 * left live on the layer, where GIMP has the module and its result is
 * the pixel path's.
 *
 *   switch (gimp3_filter_apply (&target, &req, live, &result, &error))
 *     {
 *     case GIMP3_FILTER_APPLIED: ... done ...
 *     case GIMP3_FILTER_FAILED:  ... error says why, nothing changed ...
 *     case GIMP3_FILTER_NOT_HERE: ... the pixel path (core_call_action) ...
 *     }
 */
#ifndef GH_GIMP3_FILTER_H
#define GH_GIMP3_FILTER_H

#include <libgimp/gimp.h>

#include "core/actions.h"
#include "dialog_state.h"

/* The procedures' optional argument (GIMP 3 only): leave the filter live. */
extern const CoreArgText gimp3_arg_live;

typedef enum
{
  GIMP3_FILTER_APPLIED = 0,
  GIMP3_FILTER_FAILED,
  GIMP3_FILTER_NOT_HERE  /* the pixel path applies: no module op for the
                            request, its result would differ there, or
                            GIMP (or the plug-in's GEGL) lacks the module */
} Gimp3FilterStatus;

/* Whether `op`'s procedure takes `live` (the module has its operation). */
gboolean gimp3_filter_has_live (gh_operation op);

/* The dialog flow's hooks (FlowHost.live_offered, .apply_filter): whether
 * the dialog's choice can be left live (a module operation the plug-in's
 * GEGL knows, applied at its own thresholds, not at the markers' bins),
 * and OK's apply through gimp3_filter_apply (*applied FALSE: the pixel
 * path); the batch's apply is the same call, merged (CoreHost's
 * apply_inside). */
gboolean gimp3_filter_offered (const DialogChoice *choice, gpointer data);
gboolean gimp3_filter_apply_flow (const CoreTarget *target,
                                  const CoreRequest *req, gboolean live,
                                  gboolean *applied, GError **error);

/* `req` (checked against the vocabulary first) applied to the target's
 * drawable as the module's filter: merged, or with `live` appended to the
 * layer's filters and checked there.  `result`: binarize's threshold as
 * given (-1 for a live Otsu: it follows the layer), no posterize
 * thresholds (only live posterize comes here).  Inside the caller's undo
 * group. */
Gimp3FilterStatus gimp3_filter_apply (const CoreTarget *target,
                                      const CoreRequest *req, gboolean live,
                                      gh_request_result *result,
                                      GError **error);

#endif
