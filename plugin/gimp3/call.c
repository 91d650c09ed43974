/* SPDX-License-Identifier: GPL-3.0-or-later */
/* call.c — a GIMP 3 call's target, engine, end and failure (call.h). */
#include "call.h"

#include "core/call.h"
#include "core/errors.h"
#include "core/procedures.h"
#include "resident.h"

gh_engine *gimp3_engine;

gboolean
gimp3_target (GimpImage *image, GimpDrawable **drawables,
              CoreTarget *target, GError **error)
{
  gsize n = drawables ? gimp_core_object_array_get_length (
                          (GObject **) drawables)
                      : 0;

  if (n != 1)
    g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                 "%s takes exactly one drawable, %" G_GSIZE_FORMAT
                 " given: select one layer or channel",
                 CORE_PLUG_IN_BINARY, n);
  else if (gimp_item_get_image (GIMP_ITEM (drawables[0])) != image)
    {
      gchar *name = gimp_item_get_name (GIMP_ITEM (drawables[0]));

      g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                   "drawable '%s' (ID %d) is not in the image given (ID %d)",
                   name, gimp_item_get_id (GIMP_ITEM (drawables[0])),
                   gimp_image_get_id (image));
      g_free (name);
    }
  else
    {
      *target = (CoreTarget) { drawables[0], TRUE, image, FALSE,
                               0, 0, 0, 0, NULL };
      target->intersects = gimp_drawable_mask_intersect (drawables[0],
                                                         &target->x,
                                                         &target->y,
                                                         &target->width,
                                                         &target->height);
      return TRUE;
    }
  return FALSE;
}

GimpValueArray *
gimp3_failure (GimpProcedure *procedure, GError *error)
{
  if (! error)
    return gimp_procedure_new_return_values (procedure, GIMP_PDB_CANCEL,
                                             NULL);
  return gimp_procedure_new_return_values (
    procedure,
    core_error_is_calling (error) ? GIMP_PDB_CALLING_ERROR
                                  : GIMP_PDB_EXECUTION_ERROR,
    error);
}

void
gimp3_call_end (GimpRunMode run_mode)
{
  core_call_end (gimp3_engine, run_mode == GIMP_RUN_INTERACTIVE ? gimp_message
                                                          : NULL);
  if (resident_serving ())
    return;
  gh_engine_destroy (gimp3_engine);
  gimp3_engine = NULL;
}

