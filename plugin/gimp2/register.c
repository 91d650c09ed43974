/* SPDX-License-Identifier: GPL-3.0-or-later */
/* register.c — the plug-in's procedures in GIMP 2.10's form
 * (register.h). */
#include "register.h"

#include <string.h>

#include "actions.h"
#include "errors.h"
#include "host.h"

/* A GimpParamDef from the core's texts (libgimp 2.0 wants them
 * non-const, and only reads them). */
#define PARAM(type, text) \
  { type, (gchar *) (text).name, (gchar *) (text).blurb }
#define RUN_MODE_PARAM \
  { GIMP_PDB_INT32, "run-mode", \
    "The run mode { RUN-INTERACTIVE (0), RUN-NONINTERACTIVE (1), " \
    "RUN-WITH-LAST-VALS (2) }" }
#define IMAGE_PARAMS \
  RUN_MODE_PARAM, \
  { GIMP_PDB_IMAGE, "image", "Input image" }, \
  { GIMP_PDB_DRAWABLE, "drawable", "Input drawable" }

/* Installs a procedure, with its menu entry when it has one; with
 * temporary_run, the resident's temporary procedure of that name, which
 * has none (resident.h). */
static void
install (GimpRunProc temporary_run, const CoreProcText *proc, gint n_args,
         const GimpParamDef *args, gint n_returns,
         const GimpParamDef *returns)
{
  if (temporary_run)
    {
      gimp_install_temp_proc (proc->name, proc->blurb, proc->help,
                              CORE_AUTHOR, CORE_COPYRIGHT, CORE_DATE, NULL,
                              proc->image_types, GIMP_TEMPORARY, n_args,
                              n_returns, args, returns, temporary_run);
      return;
    }
  gimp_install_procedure (proc->name, proc->blurb, proc->help, CORE_AUTHOR,
                          CORE_COPYRIGHT, CORE_DATE, proc->menu_label,
                          proc->image_types, GIMP_PLUGIN, n_args, n_returns,
                          args, returns);
  if (proc->menu_label)
    gimp_plugin_menu_register (proc->name, CORE_MENU_PATH);
}

/* The image's arguments, then the action's (actions.h): how many. */
static gint
action_args (const CoreAction *action, GimpParamDef *args)
{
  const GimpParamDef image[] = { IMAGE_PARAMS };
  gint               n = N_IMAGE_PARAMS;

  memcpy (args, image, sizeof image);
  for (gint k = 0; k < action->n_args; k++, n++)
    {
      const CoreArg *a = &action->args[k];

      args[n].type = a->kind == CORE_ARG_REFERENCE ? GIMP_PDB_DRAWABLE
                     : a->kind == CORE_ARG_PARAM
                         && ! gh_param_get (a->param)->is_integer
                       ? GIMP_PDB_FLOAT : GIMP_PDB_INT32;
      args[n].name = (gchar *) a->text->name;
      args[n].description = (gchar *) core_arg_blurb (a);
    }
  return n;
}

void
gimp2_register (GimpRunProc temporary_run)
{
  const GimpParamDef analyse_args[] = { IMAGE_PARAMS };
  const GimpParamDef analyse_return[] = {
    PARAM (GIMP_PDB_STRING, core_ret_backend),
    /* GIMP 2.10's arrays come after their length. */
    { GIMP_PDB_INT32, "num-stats", "Length of stats (42)" },
    PARAM (GIMP_PDB_FLOATARRAY, core_ret_stats),
    { GIMP_PDB_INT32, "num-bins", "Length of histogram (1536)" },
    PARAM (GIMP_PDB_FLOATARRAY, core_ret_histogram),
  };
  const GimpParamDef export_args[] = {
    IMAGE_PARAMS,
    PARAM (GIMP_PDB_STRING, core_arg_filename),
  };
  const GimpParamDef batch_args[] = {
    RUN_MODE_PARAM,
    PARAM (GIMP_PDB_STRING, core_arg_pattern),
    PARAM (GIMP_PDB_INT32, core_arg_operation),
    PARAM (GIMP_PDB_STRING, core_arg_output_dir),
    PARAM (GIMP_PDB_STRING, core_arg_stats_csv),
  };
  const GimpParamDef binarize_return[] = {
    PARAM (GIMP_PDB_INT32, core_ret_threshold),
  };
  const GimpParamDef multi_otsu_return[] = {
    PARAM (GIMP_PDB_INT32, core_ret_num_thresholds),
    PARAM (GIMP_PDB_INT32ARRAY, core_ret_thresholds),
  };
  const struct
  {
    const GimpParamDef *defs;
    gint                n;
  } returns[GH_NUM_REQS] = {
    [GH_REQ_BINARIZE] = { binarize_return, G_N_ELEMENTS (binarize_return) },
    [GH_REQ_POSTERIZE] = { multi_otsu_return,
                           G_N_ELEMENTS (multi_otsu_return) },
  };

  if (! temporary_run)
    /* The submenu's own label, with its mnemonic. */
    gimp_plugin_menu_branch_register (CORE_MENU_PARENT, CORE_MENU_LABEL);
  install (temporary_run, &core_proc_analyse, G_N_ELEMENTS (analyse_args),
           analyse_args, G_N_ELEMENTS (analyse_return), analyse_return);
  for (gint o = 0; o < GH_NUM_REQS; o++)
    {
      const CoreAction *action = core_action_get ((gh_operation) o);
      GimpParamDef      args[N_IMAGE_PARAMS + CORE_ACTION_MAX_ARGS];

      if (action)
        install (temporary_run, action->proc, action_args (action, args),
                 args, returns[o].n, returns[o].defs);
    }
  install (temporary_run, &core_proc_export, G_N_ELEMENTS (export_args),
           export_args, 0, NULL);
  install (temporary_run, &core_proc_batch, G_N_ELEMENTS (batch_args),
           batch_args, 0, NULL);
}


/* Arguments a run mode needs: all of them without interaction, the image
 * and drawable (or nothing for the batch) otherwise. */
gboolean
gimp2_check_arguments (GimpRunMode run_mode, gint nparams, gint wanted,
                       gint needed_otherwise, GError **error)
{
  if (run_mode != GIMP_RUN_INTERACTIVE && run_mode != GIMP_RUN_NONINTERACTIVE
      && run_mode != GIMP_RUN_WITH_LAST_VALS)
    g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                 "unknown run mode %d", run_mode);
  else if (run_mode == GIMP_RUN_NONINTERACTIVE ? nparams != wanted
                                               : nparams < needed_otherwise)
    g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                 "%d arguments given, %d expected", nparams, wanted);
  else
    return TRUE;
  return FALSE;
}

/* The call's target (call.h): the drawable argument of a procedure on a
 * drawable, checked, and the part inside the selection, asked once. */
gboolean
gimp2_target (GimpRunMode run_mode, gint nparams, gint wanted,
              const GimpParam *param, CoreTarget *target,
              GError **error)
{
  gint32 drawable = param[2].data.d_drawable;
  gint32 image = param[1].data.d_image;

  if (! gimp2_check_arguments (run_mode, nparams, wanted, N_IMAGE_PARAMS,
                               error))
    return FALSE;
  if (gimp_item_get_image (drawable) != image)
    {
      g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                   "drawable %d is not in image %d", drawable, image);
      return FALSE;
    }
  *target = (CoreTarget) { GIMP2_HANDLE (drawable), TRUE,
                           GIMP2_HANDLE (image), FALSE, 0, 0, 0, 0, NULL };
  target->intersects = gimp_drawable_mask_intersect (drawable, &target->x,
                                                     &target->y,
                                                     &target->width,
                                                     &target->height);
  return TRUE;
}

/* ---- Running -------------------------------------------------------- */

