/* SPDX-License-Identifier: GPL-3.0-or-later */
/* register.h — the plug-in's procedures in GIMP 3's form: the texts of
 * the core (procedures.h), the arguments and return values of the
 * operations' table (actions.h), each action's dialog settings as aux
 * arguments, and the run of each (gimp3_run_*).  The seven that work on a
 * drawable are GimpImageProcedures taking exactly one drawable, arrays
 * carry their length, files are GFile arguments.
 *
 *   plug_in_class->query_procedures = ... gimp3_procedure_names () ...;
 *   procedure = gimp3_procedure_new (plug_in, name, FALSE);
 */
#ifndef GH_GIMP3_REGISTER_H
#define GH_GIMP3_REGISTER_H

#include <libgimp/gimp.h>

/* The names of the plug-in's procedures, the resident's last (g_free
 * each and g_list_free it, or hand it to GIMP). */
GList *gimp3_procedure_names (void);

/* Procedure `name`: the plug-in's, or (temporary) the resident's
 * temporary one (resident.h); NULL when there is none of that name. */
GimpProcedure *gimp3_procedure_new (GimpPlugIn *plug_in, const gchar *name,
                                    gboolean temporary);

/* The runs of the analyse and the operations' procedures (main.c; the
 * row's operation is the run's data). */
GimpValueArray *gimp3_run_analyse (GimpProcedure *procedure,
                                   GimpRunMode run_mode, GimpImage *image,
                                   GimpDrawable **drawables,
                                   GimpProcedureConfig *config,
                                   gpointer data);
GimpValueArray *gimp3_run_action (GimpProcedure *procedure,
                                  GimpRunMode run_mode, GimpImage *image,
                                  GimpDrawable **drawables,
                                  GimpProcedureConfig *config, gpointer data);

#endif
