/* SPDX-License-Identifier: GPL-3.0-or-later */
/* match.h — gpu-histogram:match: histogram matching as a
 * GeglOperationComposer, the image on "input", the reference on "aux"
 * (in GIMP, the drawable chosen in the filter's dialog, or
 * gimp_drawable_filter_set_aux_input (filter, "aux", drawable)).
 *
 *   static const GhGeglOpInfo info = { GH_REQ_MATCH, "gpu-histogram:match",
 *     ... };
 *   gh_gegl_match_register (module, "GhGeglMatch", &info);
 *
 * Its properties are the vocabulary's GH_REQ_MATCH row (mode).  Each
 * render counts the whole aux (in its own format, binned as the input:
 * the plug-in's procedure's reference) and the whole input, and writes
 * the input matched as the procedure plug-in-gpu-histogram-match does.
 * Nothing on aux, or a reference the engine refuses (an empty one): the
 * input passes through and one warning says why. */
#ifndef GH_GEGL_MATCH_H
#define GH_GEGL_MATCH_H

#include "operation.h"

GType gh_gegl_match_register (GTypeModule *module, const char *type_name,
                              const GhGeglOpInfo *info);

#endif
