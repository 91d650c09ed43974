/* SPDX-License-Identifier: GPL-3.0-or-later */
/* register.c — the plug-in's procedures in GIMP 3's form (register.h). */
#include "register.h"

#include "core/actions.h"
#include "core/batch.h"
#include "dialog_texts.h"
#include "export_batch.h"
#include "filter.h"
#include "flow_host.h"
#include "resident.h"

GList *
gimp3_procedure_names (void)
{
  GList *names = g_list_append (NULL, g_strdup (core_proc_analyse.name));

  for (gint o = 0; o < GH_NUM_REQS; o++)
    if (core_action_get ((gh_operation) o))
      names = g_list_append (names, g_strdup (core_action_get (
                                                (gh_operation) o)->proc->name));
  names = g_list_append (names, g_strdup (core_proc_export.name));
  names = g_list_append (names, g_strdup (core_proc_batch.name));
  names = g_list_append (names, g_strdup (core_proc_resident.name));
  return names;
}

/* Where GIMP 3 keeps each operation's kin, its second menu entry: in
 * Colors, beside GIMP's own Equalize, Stretch Contrast, Threshold and
 * Posterize.  A named
 * section ("[Modify]") is one of GIMP's own menus'. */
static const gchar *const colors_paths[GH_NUM_REQS] = {
  [GH_REQ_EQUALIZE] = "<Image>/Colors/Auto",
  [GH_REQ_CLAHE] = "<Image>/Colors/Auto",
  [GH_REQ_BINARIZE] = "<Image>/Colors/[Modify]",
  [GH_REQ_POSTERIZE] = "<Image>/Colors/[Modify]",
  [GH_REQ_MATCH] = "<Image>/Colors/Map",
  [GH_REQ_STRETCH] = "<Image>/Colors/Auto",
};

/* What every procedure with a menu entry declares alike; the resident's
 * temporary one of the same name has no menu entry (resident.h). */
static GimpProcedure *
image_procedure_new (GimpPlugIn *plug_in, const CoreProcText *text,
                     GimpRunImageFunc run, gpointer run_data,
                     gboolean temporary)
{
  GimpProcedure *procedure;

  procedure = temporary ? resident_image_procedure_new (plug_in, text->name,
                                                        run, run_data)
                        : gimp_image_procedure_new (plug_in, text->name,
                                                    GIMP_PDB_PROC_TYPE_PLUGIN,
                                                    run, run_data, NULL);
  gimp_procedure_set_image_types (procedure, text->image_types);
  /* One drawable: the entries are greyed out with several selected. */
  gimp_procedure_set_sensitivity_mask (procedure,
                                       GIMP_PROCEDURE_SENSITIVE_DRAWABLE);
  if (! temporary)
    {
      gimp_procedure_set_menu_label (procedure, text->menu_label);
      gimp_procedure_add_menu_path (procedure,
                                    CORE_MENU_PARENT "/" CORE_MENU_LABEL);
    }
  return procedure;
}

/* An int or double aux argument, unless the procedure has `name` as an
 * argument already. */
static void
aux_int (GimpProcedure *procedure, const gchar *name, const gchar *nick,
         const gchar *blurb, gint min, gint max, gint value)
{
  if (! gimp_procedure_find_argument (procedure, name))
    gimp_procedure_add_int_aux_argument (procedure, name, nick, blurb, min,
                                         max, value, G_PARAM_READWRITE);
}

static void
aux_double (GimpProcedure *procedure, const gchar *name, const gchar *nick,
            const gchar *blurb, gdouble min, gdouble max, gdouble value)
{
  if (! gimp_procedure_find_argument (procedure, name))
    gimp_procedure_add_double_aux_argument (procedure, name, nick, blurb,
                                            min, max, value,
                                            G_PARAM_READWRITE);
}

/* A vocabulary parameter's aux argument: its name, label, description
 * and range are the vocabulary's. */
static void
aux_param (GimpProcedure *procedure, gh_param param, gdouble value)
{
  const gh_param_spec *spec = gh_param_get (param);

  if (spec->is_integer)
    aux_int (procedure, spec->name, spec->label, core_param_blurb (param),
             spec->min, spec->max, value);
  else
    aux_double (procedure, spec->name, spec->label, core_param_blurb (param),
                spec->min, spec->max, value);
}

/* The aux action's description: the dialog's actions by their
 * vocabulary names. */
static const gchar *
actions_blurb (void)
{
  GString     *text = g_string_new ("The dialog's last action (");
  const gchar *blurb;

  for (gint o = 0; o < GH_NUM_REQS; o++)
    g_string_append_printf (text, "%s%d %s", o ? ", " : "", o,
                            gh_operation_get ((gh_operation) o)->label);
  g_string_append (text, ")");
  blurb = g_intern_string (text->str);
  g_string_free (text, TRUE);
  return blurb;
}

/* The aux channel's: the vocabulary's channels, then the RGB overlay. */
static const gchar *
channels_blurb (void)
{
  gchar       *text = g_strdup_printf ("The channel shown (%s)",
                                       core_param_values (
                                         GH_PARAM_CHANNEL,
                                         dialog_channel_label (
                                           DIALOG_CHANNEL_RGB)));
  const gchar *blurb = g_intern_string (text);

  g_free (text);
  return blurb;
}

/* The dialog's settings that are not arguments of the procedure (add them
 * after its arguments), as aux arguments with a first run's values
 * (dialog_settings_for): libgimp remembers them with the arguments after
 * every interactive run. */
static void
add_dialog_settings (GimpProcedure *procedure, DialogAction action)
{
  DialogSettings d;

  dialog_settings_for (&d, action);
  if (action == DIALOG_ACTION_NONE)
    aux_int (procedure, AUX_ACTION, "Action", actions_blurb (),
             DIALOG_ACTION_NONE, DIALOG_NUM_ACTIONS - 1, d.action);
  /* The channel shown, past the vocabulary's range: the RGB overlay. */
  aux_int (procedure, core_arg_channel.name, "Channel", channels_blurb (),
           GH_CHANNEL_VALUE, DIALOG_NUM_CHANNEL_CHOICES - 1,
           d.params[GH_PARAM_CHANNEL]);
  for (gint p = 0; p < GH_NUM_PARAMS; p++)
    if (p != GH_PARAM_CHANNEL)
      aux_param (procedure, (gh_param) p, d.params[p]);
  aux_int (procedure, AUX_SCALE, "Scale",
           "The plot's scale: 0 linear, 1 logarithmic",
           HISTOGRAM_VIEW_LINEAR, HISTOGRAM_VIEW_LOG, d.scale);
  aux_double (procedure, AUX_RANGE_LO, "From level",
              "The selected levels' first, on the 0..255 scale", 0, 255,
              d.range_lo);
  aux_double (procedure, AUX_RANGE_HI, "To level",
              "The selected levels' last, on the 0..255 scale", 0, 255,
              d.range_hi);
  aux_int (procedure, AUX_REFERENCE, "Reference",
           "Match's reference drawable, as its item ID; -1: none", -1,
           G_MAXINT32, d.reference);
  /* The dialog's Keep as live filter: an argument of the procedures with a
   * module operation, aux of the analyse and match. */
  if (! gimp_procedure_find_argument (procedure, gimp3_arg_live.name))
    gimp_procedure_add_boolean_aux_argument (procedure, gimp3_arg_live.name,
                                             gimp3_arg_live.nick,
                                             gimp3_arg_live.blurb, d.live,
                                             G_PARAM_READWRITE);
}

/* An action's procedure (actions.h): its arguments, return values and
 * the dialog's settings, from its row. */
static GimpProcedure *
action_procedure_new (GimpPlugIn *plug_in, gh_operation op,
                      gboolean temporary)
{
  const CoreAction *action = core_action_get (op);
  GimpProcedure    *procedure;

  procedure = image_procedure_new (plug_in, action->proc, gimp3_run_action,
                                   GINT_TO_POINTER (op), temporary);
  if (! temporary && colors_paths[op])
    gimp_procedure_add_menu_path (procedure, colors_paths[op]);
  for (gint k = 0; k < action->n_args; k++)
    {
      const CoreArg     *a = &action->args[k];
      const CoreArgText *t = a->text;
      const gchar       *blurb = core_arg_blurb (a);
      gdouble            min, max, value;

      core_arg_range (op, a, &min, &max, &value);
      if (a->kind == CORE_ARG_REFERENCE)
        gimp_procedure_add_drawable_argument (procedure, t->name, t->nick,
                                              blurb, FALSE,
                                              G_PARAM_READWRITE);
      else if (a->kind == CORE_ARG_PARAM
               && ! gh_param_get (a->param)->is_integer)
        gimp_procedure_add_double_argument (procedure, t->name, t->nick,
                                            blurb, min, max, value,
                                            G_PARAM_READWRITE);
      else
        gimp_procedure_add_int_argument (procedure, t->name, t->nick,
                                         blurb, min, max, value,
                                         G_PARAM_READWRITE);
    }
  if (gimp3_filter_has_live (op))
    gimp_procedure_add_boolean_argument (procedure, gimp3_arg_live.name,
                                         gimp3_arg_live.nick,
                                         gimp3_arg_live.blurb, FALSE,
                                         G_PARAM_READWRITE);
  if (action->returns == CORE_RETURN_THRESHOLD)
    gimp_procedure_add_int_return_value (
      procedure, core_ret_threshold.name, core_ret_threshold.nick,
      core_ret_threshold.blurb, -1, gh_param_get (GH_PARAM_THRESHOLD)->max,
      -1, G_PARAM_READWRITE);
  else if (action->returns == CORE_RETURN_THRESHOLDS)
    /* GIMP 3's arrays carry their length: no num-thresholds. */
    gimp_procedure_add_int32_array_return_value (
      procedure, core_ret_thresholds.name, core_ret_thresholds.nick,
      core_ret_thresholds.blurb, G_PARAM_READWRITE);
  add_dialog_settings (procedure, op);
  return procedure;
}

GimpProcedure *
gimp3_procedure_new (GimpPlugIn *plug_in, const gchar *name,
                     gboolean temporary)
{
  const CoreProcText *text;
  GimpProcedure      *procedure;

  if (! g_strcmp0 (name, core_proc_analyse.name))
    {
      text = &core_proc_analyse;
      procedure = image_procedure_new (plug_in, text, gimp3_run_analyse, NULL,
                                       temporary);
      gimp_procedure_add_string_return_value (procedure,
                                              core_ret_backend.name,
                                              core_ret_backend.nick,
                                              core_ret_backend.blurb, NULL,
                                              G_PARAM_READWRITE);
      gimp_procedure_add_double_array_return_value (procedure,
                                                    core_ret_stats.name,
                                                    core_ret_stats.nick,
                                                    core_ret_stats.blurb,
                                                    G_PARAM_READWRITE);
      gimp_procedure_add_double_array_return_value (procedure,
                                                    core_ret_histogram.name,
                                                    core_ret_histogram.nick,
                                                    core_ret_histogram.blurb,
                                                    G_PARAM_READWRITE);
      add_dialog_settings (procedure, DIALOG_ACTION_NONE);
    }
  else if (core_action_lookup (name) != GH_REQ_NONE)
    {
      text = core_action_get (core_action_lookup (name))->proc;
      procedure = action_procedure_new (plug_in, core_action_lookup (name),
                                        temporary);
    }
  else if (! g_strcmp0 (name, core_proc_export.name))
    {
      text = &core_proc_export;
      procedure = image_procedure_new (plug_in, text, gimp3_run_export, NULL,
                                       temporary);
      gimp_procedure_add_file_argument (procedure, core_arg_filename.name,
                                        core_arg_filename.nick,
                                        core_arg_filename.blurb,
                                        GIMP_FILE_CHOOSER_ACTION_SAVE, FALSE,
                                        NULL, G_PARAM_READWRITE);
    }
  else if (! g_strcmp0 (name, core_proc_batch.name))
    {
      /* No image: a plain procedure, with the run mode every PDB
       * procedure takes first. */
      text = &core_proc_batch;
      procedure = temporary
                    ? resident_plain_procedure_new (plug_in, text->name,
                                                    gimp3_run_batch)
                    : gimp_procedure_new (plug_in, text->name,
                                          GIMP_PDB_PROC_TYPE_PLUGIN,
                                          gimp3_run_batch, NULL, NULL);
      gimp_procedure_add_enum_argument (procedure, "run-mode", "Run mode",
                                        "The run mode", GIMP_TYPE_RUN_MODE,
                                        GIMP_RUN_NONINTERACTIVE,
                                        G_PARAM_READWRITE);
      gimp_procedure_add_string_argument (procedure, core_arg_pattern.name,
                                          core_arg_pattern.nick,
                                          core_arg_pattern.blurb, "",
                                          G_PARAM_READWRITE);
      gimp_procedure_add_int_argument (procedure, core_arg_operation.name,
                                       core_arg_operation.nick,
                                       core_arg_operation.blurb,
                                       CORE_BATCH_STATISTICS,
                                       CORE_BATCH_NUM_OPERATIONS - 1,
                                       CORE_BATCH_STATISTICS,
                                       G_PARAM_READWRITE);
      /* May be none: statistics only write no image. */
      gimp_procedure_add_file_argument (procedure, core_arg_output_dir.name,
                                        core_arg_output_dir.nick,
                                        core_arg_output_dir.blurb,
                                        GIMP_FILE_CHOOSER_ACTION_CREATE_FOLDER,
                                        TRUE, NULL, G_PARAM_READWRITE);
      /* May be left out: no table, and where the module applies the
       * operation inside GIMP no pixel is read out (core/batch.c). */
      gimp_procedure_add_file_argument (procedure, core_arg_stats_csv.name,
                                        core_arg_stats_csv.nick,
                                        core_arg_stats_csv.blurb,
                                        GIMP_FILE_CHOOSER_ACTION_SAVE, TRUE,
                                        NULL, G_PARAM_READWRITE);
    }
  else
    return NULL;

  gimp_procedure_set_documentation (procedure, text->blurb, text->help,
                                    text->name);
  gimp_procedure_set_attribution (procedure, CORE_AUTHOR, CORE_COPYRIGHT,
                                  CORE_DATE);
  return procedure;
}

