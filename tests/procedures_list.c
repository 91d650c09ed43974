/* SPDX-License-Identifier: GPL-3.0-or-later */
/* procedures_list.c — what both GIMP hosts register for each operation's
 * procedure (the plug-in's core: actions.h, procedures.h), for
 * tests/frontends_agree.py: one line per procedure, then one per argument
 * after the image and drawable.
 *
 *   OPERATION \t PROCEDURE \t MENU LABEL \t GEGL OPERATION
 *     NAME \t KIND (int, double, drawable) \t MIN \t MAX \t DEFAULT \t BLURB
 */
#include <stdio.h>

#include "core/actions.h"
#include "gegl/names.h"

int
main (void)
{
  for (gint o = 0; o < GH_NUM_REQS; o++)
    {
      const CoreAction *action = core_action_get ((gh_operation) o);
      const gchar      *gegl = gh_gegl_operation_name ((gh_operation) o);

      if (! action)
        continue;
      printf ("%s\t%s\t%s\t%s\n", gh_operation_get ((gh_operation) o)->name,
              action->proc->name, action->proc->menu_label,
              gegl ? gegl : "");
      for (gint k = 0; k < action->n_args; k++)
        {
          const CoreArg *a = &action->args[k];
          gdouble        min, max, value;

          core_arg_range ((gh_operation) o, a, &min, &max, &value);
          printf ("  %s\t%s\t%.17g\t%.17g\t%.17g\t%s\n", a->text->name,
                  a->kind == CORE_ARG_REFERENCE ? "drawable"
                  : a->kind == CORE_ARG_PARAM
                      && ! gh_param_get (a->param)->is_integer ? "double"
                                                              : "int",
                  min, max, value, core_arg_blurb (a));
        }
    }
  return 0;
}
