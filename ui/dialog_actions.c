/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_actions.c — the histogram dialog's actions and their pages
 * (dialog_actions.h). */
#include "dialog_actions.h"

#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>

#include "dialog_controls.h"
#include "dialog_toolkit.h"

static void
action_toggled (GtkWidget *radio, Dialog *d)
{
  if (! gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (radio)))
    return;
  dialog_state_set_action (d->state, GPOINTER_TO_INT (
                             g_object_get_data (G_OBJECT (radio), "action")));
  dialog_changed (d);
}

static void
live_toggled (GtkWidget *check, Dialog *d)
{
  if (d->updating)
    return;
  dialog_state_set_live (d->state, gtk_toggle_button_get_active (
                                     GTK_TOGGLE_BUTTON (check)));
  dialog_changed (d);
}

/* GIMP 3's "Keep as live filter", where the host offers live filters. */
static void
live_new (Dialog *d, GtkWidget *vbox)
{
  if (! d->hooks || ! d->hooks->live_offered)
    return;
  d->live = gtk_check_button_new_with_mnemonic ("_Keep as live filter");
  gtk_widget_set_name (d->live, "live");
  gimp_help_set_help_data (d->live, "Leave the result on the layer as a "
                           "live filter (the GEGL module's), editable in "
                           "its filter list; else merged", NULL);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (d->live),
                                d->state->settings.live);
  g_signal_connect (d->live, "toggled", G_CALLBACK (live_toggled), d);
  gtk_box_pack_start (GTK_BOX (vbox), d->live, FALSE, FALSE, 0);
}

static GtkWidget *
separator_new (void)
{
#if GTK_CHECK_VERSION (3, 0, 0)
  return gtk_separator_new (GTK_ORIENTATION_HORIZONTAL);
#else
  return gtk_hseparator_new ();
#endif
}

GtkWidget *
dialog_actions_new (Dialog *d, const gchar *refusal)
{
  GtkWidget *frame = gimp_frame_new ("On OK");
  GtkWidget *vbox = dialog_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GSList    *group = NULL;

  gtk_container_add (GTK_CONTAINER (frame), vbox);
  dialog_controls_reference_new (d);
  d->pages = dialog_pages_new ();
  gtk_widget_set_name (d->pages, "action-pages");
  for (gint a = 0; a < DIALOG_NUM_ACTIONS; a++)
    {
      gchar name[32];

      d->action[a] = gtk_radio_button_new_with_mnemonic (
                       group, dialog_action_label ((DialogAction) a));
      group = gtk_radio_button_get_group (GTK_RADIO_BUTTON (d->action[a]));
      g_object_set_data (G_OBJECT (d->action[a]), "action",
                         GINT_TO_POINTER (a));
      g_snprintf (name, sizeof name, "action-%d", a);
      gtk_widget_set_name (d->action[a], name);
      /* Match needs a picker to choose its reference with. */
      gtk_widget_set_sensitive (d->action[a],
                                a == DIALOG_ACTION_NONE
                                || (! refusal
                                    && (a != DIALOG_ACTION_MATCH
                                        || d->reference)));
      gtk_box_pack_start (GTK_BOX (vbox), d->action[a], FALSE, FALSE, 0);
      gtk_container_add (GTK_CONTAINER (d->pages),
                         dialog_controls_page_new (d, (DialogAction) a,
                                                   refusal));
    }
  gtk_box_pack_start (GTK_BOX (vbox), separator_new (), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (vbox), d->pages, FALSE, FALSE, 0);
  live_new (d, vbox);
  /* A remembered Match without a picker here analyses only. */
  if (! d->reference && d->state->settings.action == DIALOG_ACTION_MATCH)
    dialog_state_set_action (d->state, DIALOG_ACTION_NONE);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (
                                  d->action[d->state->settings.action]),
                                TRUE);
  for (gint a = 0; a < DIALOG_NUM_ACTIONS; a++)
    g_signal_connect (d->action[a], "toggled", G_CALLBACK (action_toggled),
                      d);
  return frame;
}

void
dialog_actions_sync (Dialog *d)
{
  gchar *text = dialog_state_binarize_label (d->state);

  gtk_button_set_label (GTK_BUTTON (d->action[DIALOG_ACTION_BINARIZE]), text);
  g_free (text);
  text = dialog_state_posterize_label (d->state);
  gtk_button_set_label (GTK_BUTTON (d->action[DIALOG_ACTION_POSTERIZE]),
                        text);
  g_free (text);
  dialog_controls_sync (d);
  dialog_pages_show (d->pages, dialog_applied_action (d));
  if (d->live)
    {
      DialogChoice choice;

      dialog_state_choice (d->state, &choice);
      gtk_widget_set_sensitive (d->live,
                                d->hooks->live_offered (&choice,
                                                        d->hooks->data));
    }
}
