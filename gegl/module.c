/* SPDX-License-Identifier: GPL-3.0-or-later */
/* module.c — the GEGL module: its operations, each an operation of the
 * engine's vocabulary (gh_request.h).  GEGL loads it from its module
 * folder (GEGL_PATH, ~/.local/share/gegl-0.4/plug-ins, GEGL's libdir):
 * inside GIMP 3, in the gegl tool, in any GEGL program. */
#include <gegl-plugin.h>

#include "match.h"
#include "names.h"
#include "operation.h"

static const GhGeglOpInfo operations[] = {
  { GH_REQ_EQUALIZE, GH_GEGL_EQUALIZE,
    "Spreads the levels over the whole range as OpenCV's equalizeHist: "
    "each colour channel, or the luminance with hue kept" },
  { GH_REQ_CLAHE, GH_GEGL_CLAHE,
    "Contrast-limited adaptive histogram equalization, as OpenCV's CLAHE: "
    "each tile equalized, its histogram clipped, blended between tiles" },
  { GH_REQ_BINARIZE, GH_GEGL_THRESHOLD,
    "Black and white at Otsu's threshold of a channel (or a level you "
    "give): levels above it turn white" },
  { GH_REQ_POSTERIZE, GH_GEGL_POSTERIZE,
    "Posterizes into classes at multi-level Otsu thresholds of a channel, "
    "as scikit-image's threshold_multiotsu" },
};

/* A composer: the reference on its aux input. */
static const GhGeglOpInfo match = {
  GH_REQ_MATCH, GH_GEGL_MATCH,
  "Matches the histogram to the reference's on the aux input, as "
  "scikit-image's match_histograms: each colour channel, or the luminance "
  "with hue kept"
};

static const char *const type_names[G_N_ELEMENTS (operations)] = {
  "GhGeglEqualize", "GhGeglClahe", "GhGeglThreshold", "GhGeglPosterize"
};

static const GeglModuleInfo module_info = {
  GEGL_MODULE_ABI_VERSION
};

G_MODULE_EXPORT const GeglModuleInfo *
gegl_module_query (GTypeModule *module)
{
  (void) module;
  return &module_info;
}

G_MODULE_EXPORT gboolean
gegl_module_register (GTypeModule *module)
{
  for (gsize k = 0; k < G_N_ELEMENTS (operations); k++)
    gh_gegl_operation_register (module, type_names[k], &operations[k]);
  gh_gegl_match_register (module, "GhGeglMatch", &match);
  return TRUE;
}
