/* SPDX-License-Identifier: GPL-3.0-or-later */
/* names.h — the GEGL module's operation names, for the module and for the
 * GIMP 3 plug-in, which applies them through libgimp's filter API
 * (plugin/gimp3/filter.h).  Header only: the plug-in does not link the
 * module.
 *
 *   const char *name = gh_gegl_operation_name (GH_REQ_CLAHE);
 *   // "gpu-histogram:clahe"; NULL: the operation has none (analyse)
 */
#ifndef GH_GEGL_NAMES_H
#define GH_GEGL_NAMES_H

#include "gh_request.h"

#define GH_GEGL_EQUALIZE  "gpu-histogram:equalize"
#define GH_GEGL_CLAHE     "gpu-histogram:clahe"
#define GH_GEGL_THRESHOLD "gpu-histogram:threshold"
#define GH_GEGL_POSTERIZE "gpu-histogram:posterize"
#define GH_GEGL_STRETCH   "gpu-histogram:stretch"
/* A composer: the reference on its aux input (gegl/match.h). */
#define GH_GEGL_MATCH     "gpu-histogram:match"

/* The module's filter of the vocabulary's `operation`, which the
 * procedures apply; NULL for analyse. */
static inline const char *
gh_gegl_operation_name (gh_operation operation)
{
  static const char *const names[GH_NUM_REQS] = {
    [GH_REQ_EQUALIZE] = GH_GEGL_EQUALIZE,
    [GH_REQ_CLAHE] = GH_GEGL_CLAHE,
    [GH_REQ_BINARIZE] = GH_GEGL_THRESHOLD,
    [GH_REQ_POSTERIZE] = GH_GEGL_POSTERIZE,
    [GH_REQ_MATCH] = GH_GEGL_MATCH,
    [GH_REQ_STRETCH] = GH_GEGL_STRETCH,
  };

  return (unsigned) operation < GH_NUM_REQS ? names[operation] : NULL;
}

/* Whether `operation`'s filter takes a second image on its "aux" pad
 * (match's reference): GIMP 3.0 and 3.2 apply such a filter merged only,
 * never live. */
static inline int
gh_gegl_operation_has_aux (gh_operation operation)
{
  return operation == GH_REQ_MATCH;
}

#endif
