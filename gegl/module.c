/* SPDX-License-Identifier: GPL-3.0-or-later */
/* module.c — the GEGL module: one operation for each operation of the
 * engine's vocabulary (gh_request.h) that has a filter's name (names.h),
 * described in the vocabulary's words.  GEGL loads it from its module
 * folder (GEGL_PATH, ~/.local/share/gegl-0.4/plug-ins, GEGL's libdir):
 * inside GIMP 3, in the gegl tool, in any GEGL program. */
#include <gegl-plugin.h>

#include "match.h"
#include "names.h"
#include "operation.h"

/* What each class keeps for the module's life. */
static GhGeglOpInfo infos[GH_NUM_REQS];
static char type_names[GH_NUM_REQS][64];

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
  for (gint o = GH_REQ_NONE + 1; o < GH_NUM_REQS; o++)
    {
      const char *name = gh_gegl_operation_name ((gh_operation) o);
      const char *suffix = name ? strchr (name, ':') + 1 : NULL;

      if (! name)
        continue;
      infos[o].operation = (gh_operation) o;
      infos[o].name = name;
      infos[o].description = gh_operation_get ((gh_operation) o)->blurb;
      /* "gpu-histogram:threshold" is GhGeglThreshold. */
      g_snprintf (type_names[o], sizeof type_names[o], "GhGegl%c%s",
                  g_ascii_toupper (suffix[0]), suffix + 1);
      if (gh_gegl_operation_has_aux ((gh_operation) o))
        gh_gegl_match_register (module, type_names[o], &infos[o]);
      else
        gh_gegl_operation_register (module, type_names[o], &infos[o]);
    }
  return TRUE;
}
