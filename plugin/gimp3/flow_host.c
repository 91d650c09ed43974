/* SPDX-License-Identifier: GPL-3.0-or-later */
/* flow_host.c — the dialog flow's host (flow.h) in libgimp 3's calls
 * (flow_host.h). */
#include "flow_host.h"

#include <libgimp/gimpui.h>

#include "core/procedures.h"
#include "dialog_gtk3.h"
#include "filter.h"
#include "host.h"

/* Whether a dialog can be shown: GIMP names a display to plug-ins only
 * when it has one (gimp-console has none). */
static gboolean
ui_available (void)
{
  const gchar *name = gimp_display_name ();

  return name && *name;
}

static gboolean
run_dialog (gpointer drawable, DialogState *state, const gchar *refusal,
            const DialogHooks *hooks, DialogChoice *choice)
{
  gimp_ui_init (CORE_PLUG_IN_BINARY);
  return dialog_run (drawable, state, refusal, hooks, choice);
}

/* Match's reference: NULL when the ID is no drawable (any more). */
static gpointer
reference (gint32 id)
{
  return gimp_drawable_get_by_id (id);
}

/* libgimpui's picker: every drawable of every open image, by item ID. */
static gpointer
reference_picker (gint32 id, gpointer data G_GNUC_UNUSED)
{
  GtkWidget *combo = gimp_drawable_combo_box_new (NULL, NULL, NULL);

  if (id >= 0 && reference (id))
    gimp_int_combo_box_set_active (GIMP_INT_COMBO_BOX (combo), id);
  return combo;
}

/* A vocabulary parameter in a procedure's config: an argument of the
 * procedure, or an aux one (register.c), int or double as the
 * vocabulary's. */
static gdouble
config_param (GimpProcedureConfig *config, gh_param param)
{
  const gh_param_spec *spec = gh_param_get (param);
  gint                 i;
  gdouble              value;

  if (! spec->is_integer)
    {
      g_object_get (config, spec->name, &value, NULL);
      return value;
    }
  g_object_get (config, spec->name, &i, NULL);
  return i;
}

static void
config_set_param (GimpProcedureConfig *config, gh_param param,
                  gdouble value)
{
  const gh_param_spec *spec = gh_param_get (param);

  if (spec->is_integer)
    g_object_set (config, spec->name, (gint) value, NULL);
  else
    g_object_set (config, spec->name, value, NULL);
}

/* The dialog settings kept in a procedure's config (`store`): the
 * analyse (DIALOG_ACTION_NONE) keeps the last action too. */
static void
settings_load (gpointer store, DialogAction action, DialogSettings *s)
{
  GimpProcedureConfig *config = store;
  gint                 scale, reference;
  gboolean             live;

  for (gint p = 0; p < GH_NUM_PARAMS; p++)
    s->params[p] = config_param (config, (gh_param) p);
  g_object_get (config, AUX_SCALE, &scale, AUX_RANGE_LO, &s->range_lo,
                AUX_RANGE_HI, &s->range_hi, AUX_REFERENCE, &reference,
                gimp3_arg_live.name, &live, NULL);
  if (action == DIALOG_ACTION_NONE)
    g_object_get (config, AUX_ACTION, &s->action, NULL);
  s->scale = scale;
  s->reference = reference;
  s->live = live;
}

static void
settings_save (gpointer store, DialogAction action, const DialogState *state)
{
  GimpProcedureConfig  *config = store;
  const DialogSettings *s = &state->settings;

  for (gint p = 0; p < GH_NUM_PARAMS; p++)
    config_set_param (config, (gh_param) p, s->params[p]);
  /* Binarize's and posterize's channel argument is the channel compared:
   * luminance where the dialog showed the RGB overlay. */
  if (action == DIALOG_ACTION_BINARIZE || action == DIALOG_ACTION_POSTERIZE)
    config_set_param (config, GH_PARAM_CHANNEL,
                      dialog_state_binarize_channel (state));
  g_object_set (config, AUX_SCALE, s->scale, AUX_RANGE_LO, s->range_lo,
                AUX_RANGE_HI, s->range_hi, AUX_REFERENCE, s->reference,
                gimp3_arg_live.name, (gboolean) s->live, NULL);
  if (action == DIALOG_ACTION_NONE)
    g_object_set (config, AUX_ACTION, s->action, NULL);
}

/* OK's apply is one undo step. */
static void
undo_group (gpointer image, gboolean start)
{
  if (start)
    gimp_image_undo_group_start (image);
  else
    gimp_image_undo_group_end (image);
}

const FlowHost *
gimp3_flow_host (void)
{
  static FlowHost host = {
    NULL, ui_available, run_dialog, reference_picker, reference,
    settings_load, settings_save, NULL, gimp_message, undo_group,
    gimp3_filter_offered, gimp3_filter_apply_flow,
  };

  /* GIMP 3's CoreHost is made at run time. */
  host.core = gimp3_host ();
  return &host;
}

