/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_widgets.c — the histogram dialog put together from its parts,
 * the same source compiled against GTK 2 and GTK 3 (dialog_widgets.h):
 * the layout, the refresh from the state, the preview, and the functions
 * the parts share. */
#include "dialog_widgets.h"

#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>

#include "dialog_actions.h"
#include "dialog_export.h"
#include "dialog_plot.h"
#include "dialog_stats.h"
#include "dialog_toolkit.h"

void
dialog_sync (Dialog *d)
{
  d->updating = TRUE;
  dialog_stats_sync (d);
  dialog_plot_sync (d);
  dialog_actions_sync (d);
  d->updating = FALSE;
  gtk_widget_queue_draw (d->plot);
}

void
dialog_changed (Dialog *d)
{
  dialog_sync (d);
  if (d->preview)
    gimp_preview_invalidate (GIMP_PREVIEW (d->preview));
}

DialogAction
dialog_applied_action (const Dialog *d)
{
  DialogChoice choice;

  dialog_state_choice (d->state, &choice);
  return choice.request.operation;
}

GtkWidget *
dialog_box_new (GtkOrientation orientation, gint spacing)
{
#if GTK_CHECK_VERSION (3, 0, 0)
  return gtk_box_new (orientation, spacing);
#else
  return orientation == GTK_ORIENTATION_HORIZONTAL
           ? gtk_hbox_new (FALSE, spacing) : gtk_vbox_new (FALSE, spacing);
#endif
}

void
dialog_label_xalign (GtkWidget *label, gfloat xalign)
{
#if GTK_CHECK_VERSION (3, 0, 0)
  gtk_label_set_xalign (GTK_LABEL (label), xalign);
#else
  gtk_misc_set_alignment (GTK_MISC (label), xalign, 0.5);
#endif
}

GtkWidget *
dialog_named_label (const gchar *name, gfloat xalign)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_widget_set_name (label, name);
  dialog_label_xalign (label, xalign);
  return label;
}

void
dialog_label_fixed (GtkWidget *label, gint chars)
{
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (GTK_LABEL (label), chars);
  gtk_label_set_max_width_chars (GTK_LABEL (label), chars);
}

GtkWidget *
dialog_wrapped_label (const gchar *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
  dialog_label_wrap_at (label, 40);
  dialog_label_xalign (label, 0);
  return label;
}

GtkWidget *
dialog_int_combo (const gchar *const *labels, gint n, gint active,
                  const gchar *name, GCallback callback, Dialog *d)
{
  GtkWidget *combo = g_object_new (GIMP_TYPE_INT_COMBO_BOX, NULL);

  for (gint i = 0; i < n; i++)
    if (labels[i])
      gimp_int_combo_box_append (GIMP_INT_COMBO_BOX (combo),
                                 GIMP_INT_STORE_VALUE, i,
                                 GIMP_INT_STORE_LABEL, labels[i], -1);
  gimp_int_combo_box_set_active (GIMP_INT_COMBO_BOX (combo), active);
  gtk_widget_set_name (combo, name);
  g_signal_connect (combo, "changed", callback, d);
  return combo;
}

static void
preview_invalidated (GimpPreview *preview, Dialog *d)
{
  DialogChoice choice;
  GError      *error = NULL;
  gint         x0, y0, x1, y1, width, height, rowstride;
  guchar      *pixels;

  /* The part of the drawable the zoom preview shows, and its size there:
   * the whole layer (or the selection's box) at first, scaled down. */
  gimp_preview_get_size (preview, &width, &height);
  if (width <= 0 || height <= 0)
    return;
  dialog_state_choice (d->state, &choice);
  gimp_preview_untransform (preview, 0, 0, &x0, &y0);
  gimp_preview_untransform (preview, width, height, &x1, &y1);
  pixels = d->hooks->preview (&choice, x0, y0, MAX (x1 - x0, 1),
                              MAX (y1 - y0, 1), width, height, &rowstride,
                              d->hooks->data, &error);
  if (pixels)
    gimp_preview_draw_buffer (preview, pixels, rowstride);
  dialog_state_preview_done (d->state, error);
  dialog_message_show (d);
  g_clear_error (&error);
  g_free (pixels);
}

GtkWidget *
dialog_content_new (DialogState *state, const gchar *refusal,
                    const DialogHooks *hooks, GtkWidget *preview)
{
  Dialog    *d = g_new0 (Dialog, 1);
  GtkWidget *hbox = dialog_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *left = dialog_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *right = dialog_box_new (GTK_ORIENTATION_VERTICAL, 12);

  d->state = state;
  d->hooks = hooks;
  d->preview = preview;
  state->can_apply = ! refusal;
  /* Freed with the widgets. */
  g_object_set_data_full (G_OBJECT (hbox), "gh-dialog", d, g_free);

  gtk_container_set_border_width (GTK_CONTAINER (hbox), 12);
  gtk_box_pack_start (GTK_BOX (hbox), left, TRUE, TRUE, 0);
  gtk_box_pack_start (GTK_BOX (hbox), right, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (left), dialog_plot_new (d), TRUE, TRUE, 0);
  gtk_box_pack_start (GTK_BOX (left), dialog_stats_new (d), FALSE, FALSE, 0);
  /* What the export and the preview did, under the numbers (the plot
   * gives it room). */
  gtk_box_pack_start (GTK_BOX (left), dialog_message_new (d), FALSE, FALSE,
                      0);
  if (preview)
    {
      /* Wider than GIMP's 200 pixels: the photo, scaled to fit, is worth
       * the room. */
      gtk_widget_set_size_request (preview, DIALOG_PREVIEW_WIDTH, -1);
      gtk_box_pack_start (GTK_BOX (right), preview, TRUE, TRUE, 0);
      g_signal_connect (preview, "invalidated",
                        G_CALLBACK (preview_invalidated), d);
    }
  gtk_box_pack_start (GTK_BOX (right), dialog_actions_new (d, refusal),
                      FALSE, FALSE, 0);

  gtk_widget_show_all (hbox);
  dialog_message_show (d);
  dialog_sync (d);
  return hbox;
}

GtkWidget *
dialog_window_new (GtkWidget *preview, DialogState *state,
                   const gchar *refusal, const DialogHooks *hooks)
{
  GtkWidget *dialog, *content;
  Dialog    *d;

  dialog = gimp_dialog_new (DIALOG_TITLE, DIALOG_ROLE, NULL, 0,
                            gimp_standard_help_func, DIALOG_HELP_ID,
                            "_Cancel", GTK_RESPONSE_CANCEL,
                            "_OK", GTK_RESPONSE_OK, NULL);
  /* GTK 3 deprecates its own; libgimpwidgets 3.0 has the same call. */
#if GTK_CHECK_VERSION (3, 0, 0)
  gimp_dialog_set_alternative_button_order (GTK_DIALOG (dialog),
                                            GTK_RESPONSE_OK,
                                            GTK_RESPONSE_CANCEL, -1);
#else
  gtk_dialog_set_alternative_button_order (GTK_DIALOG (dialog),
                                           GTK_RESPONSE_OK,
                                           GTK_RESPONSE_CANCEL, -1);
#endif
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_OK);

  content = dialog_content_new (state, refusal, hooks, preview);
  gtk_box_pack_start (GTK_BOX (gtk_dialog_get_content_area (
                                 GTK_DIALOG (dialog))),
                      content, TRUE, TRUE, 0);
  /* The focus on the chosen action, where Return means OK (on the
   * channel picker, the first widget, it would open the list). */
  d = g_object_get_data (G_OBJECT (content), "gh-dialog");
  gtk_widget_grab_focus (d->action[dialog_applied_action (d)]);
  return dialog;
}

gboolean
dialog_window_run (GtkWidget *preview, DialogState *state,
                   const gchar *refusal, const DialogHooks *hooks,
                   DialogChoice *choice)
{
  GtkWidget *dialog = dialog_window_new (preview, state, refusal, hooks);
  gboolean   ok;

  gimp_window_set_transient (GTK_WINDOW (dialog));
  gtk_widget_show (dialog);
  ok = gimp_dialog_run (GIMP_DIALOG (dialog)) == GTK_RESPONSE_OK;
  if (ok)
    dialog_state_choice (state, choice);
  gtk_widget_destroy (dialog);
  return ok;
}
