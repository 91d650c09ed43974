/* SPDX-License-Identifier: GPL-3.0-or-later */
/* register.h — the plug-in's procedures in GIMP 2.10's form: their
 * GimpParamDefs from the core's texts and the operations' table
 * (actions.h), installed as plug-in procedures or as the resident's
 * temporary ones; and the arguments of a call checked against them.
 *
 *   gimp2_register (NULL);            -- in query
 *   gimp2_register (resident_run);    -- the resident's (resident.h)
 *   if (! gimp2_target (run_mode, nparams, N_IMAGE_PARAMS + 1, param,
 *                       &target, &error)) ...
 */
#ifndef GH_GIMP2_REGISTER_H
#define GH_GIMP2_REGISTER_H

#include <libgimp/gimp.h>

#include "core/host.h"

/* The run mode, image and drawable: the arguments of every procedure on a
 * drawable, before its own. */
#define N_IMAGE_PARAMS 3

/* The plug-in's procedures, or (temporary_run) the resident's. */
void gimp2_register (GimpRunProc temporary_run);

/* Arguments a run mode needs: all of them (`wanted`) without interaction,
 * `needed_otherwise` (the image and drawable, or nothing for the batch)
 * otherwise; a run mode GIMP does not have is a calling error too. */
gboolean gimp2_check_arguments (GimpRunMode run_mode, gint nparams,
                                gint wanted, gint needed_otherwise,
                                GError **error);

/* The call's target (call.h): the drawable argument of a procedure on a
 * drawable, in its image argument (the arguments checked as
 * gimp2_check_arguments does), and the part inside the selection, asked
 * once. */
gboolean gimp2_target (GimpRunMode run_mode, gint nparams, gint wanted,
                       const GimpParam *param, CoreTarget *target,
                       GError **error);

#endif
