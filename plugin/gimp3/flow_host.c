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

/* The dialog settings kept in a procedure's config (`store`): the
 * analyse (DIALOG_ACTION_NONE) keeps the last action too. */
static void
settings_load (gpointer store, DialogAction action, DialogSettings *s)
{
  GimpProcedureConfig *config = store;
  gint ch, scale, mode, threshold, tiles_x, tiles_y, reference, classes;
  gboolean live;

  g_object_get (config, core_arg_channel.name, &ch, AUX_SCALE, &scale,
                core_arg_mode.name, &mode, core_arg_threshold.name,
                &threshold, AUX_RANGE_LO, &s->range_lo, AUX_RANGE_HI,
                &s->range_hi, core_arg_clip_limit.name, &s->clip_limit,
                core_arg_tiles_x.name, &tiles_x, core_arg_tiles_y.name,
                &tiles_y, AUX_REFERENCE, &reference, core_arg_classes.name,
                &classes, gimp3_arg_live.name, &live, NULL);
  if (action == DIALOG_ACTION_NONE)
    g_object_get (config, AUX_ACTION, &s->action, NULL);
  s->channel = ch;
  s->scale = scale;
  s->mode = mode;
  s->threshold = threshold;
  s->tiles_x = tiles_x;
  s->tiles_y = tiles_y;
  s->reference = reference;
  s->classes = classes;
  s->live = live;
}

static void
settings_save (gpointer store, DialogAction action, const DialogState *state)
{
  GimpProcedureConfig  *config = store;
  const DialogSettings *s = &state->settings;
  /* Binarize's and posterize's channel argument is the channel compared:
   * luminance where the dialog showed the RGB overlay. */
  gint ch = action == DIALOG_ACTION_BINARIZE
                || action == DIALOG_ACTION_POSTERIZE
              ? (gint) dialog_state_binarize_channel (state) : s->channel;

  g_object_set (config, core_arg_channel.name, ch, AUX_SCALE, s->scale,
                core_arg_mode.name, s->mode, core_arg_threshold.name,
                s->threshold, AUX_RANGE_LO, s->range_lo, AUX_RANGE_HI,
                s->range_hi, core_arg_clip_limit.name, s->clip_limit,
                core_arg_tiles_x.name, s->tiles_x, core_arg_tiles_y.name,
                s->tiles_y, AUX_REFERENCE, s->reference,
                core_arg_classes.name, s->classes, gimp3_arg_live.name,
                (gboolean) s->live, NULL);
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

