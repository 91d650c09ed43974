/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_plot.c — the histogram dialog's plot, its pickers and the
 * pointer on it (dialog_plot.h). */
#include "dialog_plot.h"

#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>

#include "dialog_export.h"
#include "dialog_toolkit.h"

/* "All levels (drag on the plot to pick a range)", "Level 128: Red 12 345
 * Green 23 456 Blue 34 567" (the overlay's): each on a row of its own, as
 * wide as the plot. */
#define LINE_CHARS 50

void
dialog_plot_draw (Dialog *d, cairo_t *cr)
{
  GtkAllocation alloc;
  HistogramView view;

  gtk_widget_get_allocation (d->plot, &alloc);
  dialog_state_view (d->state, &view);
  histogram_view_draw (&view, cr, alloc.width, alloc.height);
}

static gint
plot_bin (Dialog *d, gdouble x)
{
  GtkAllocation alloc;
  HistogramView view;

  gtk_widget_get_allocation (d->plot, &alloc);
  dialog_state_view (d->state, &view);
  return histogram_view_bin_at (&view, alloc.width, alloc.height, x);
}

static void
show_hover (Dialog *d)
{
  gchar *text = dialog_state_hover_text (d->state);

  gtk_label_set_text (GTK_LABEL (d->hover), text);
  g_free (text);
  gtk_widget_queue_draw (d->plot);
}

static gboolean
plot_press (GtkWidget *widget, GdkEventButton *event, Dialog *d)
{
  (void) widget;
  if (event->button != 1)
    return FALSE;
  dialog_state_press (d->state, plot_bin (d, event->x),
                      event->type == GDK_2BUTTON_PRESS);
  dialog_changed (d);
  return TRUE;
}

static gboolean
plot_motion (GtkWidget *widget, GdkEventMotion *event, Dialog *d)
{
  (void) widget;
  /* The preview waits for the release. */
  if (dialog_state_motion (d->state, plot_bin (d, event->x)))
    dialog_sync (d);
  show_hover (d);
  return TRUE;
}

static gboolean
plot_release (GtkWidget *widget, GdkEventButton *event, Dialog *d)
{
  (void) widget;
  if (event->button != 1
      || ! dialog_state_release (d->state, plot_bin (d, event->x)))
    return FALSE;
  dialog_changed (d);
  return TRUE;
}

static gboolean
plot_leave (GtkWidget *widget, GdkEventCrossing *event, Dialog *d)
{
  (void) widget;
  (void) event;
  dialog_state_leave (d->state);
  show_hover (d);
  return FALSE;
}

static void
channel_changed (GtkWidget *combo, Dialog *d)
{
  gint channel;

  if (gimp_int_combo_box_get_active (GIMP_INT_COMBO_BOX (combo), &channel))
    dialog_state_set_param (d->state, GH_PARAM_CHANNEL, channel);
  dialog_changed (d);
}

static void
scale_changed (GtkWidget *combo, Dialog *d)
{
  gint scale;

  if (gimp_int_combo_box_get_active (GIMP_INT_COMBO_BOX (combo), &scale))
    dialog_state_set_scale (d->state, (HistogramViewScale) scale);
  gtk_widget_queue_draw (d->plot);
}

/* `widget` after a mnemonic label `text` that activates it, in a row. */
static GtkWidget *
labelled (const gchar *text, GtkWidget *widget)
{
  GtkWidget *box = dialog_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new_with_mnemonic (text);

  gtk_label_set_mnemonic_widget (GTK_LABEL (label), widget);
  gtk_box_pack_start (GTK_BOX (box), label, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), widget, FALSE, FALSE, 0);
  return box;
}

/* The channel picker (the layer's channels only), the scale picker and
 * Export CSV. */
static GtkWidget *
pickers_new (Dialog *d)
{
  const gchar *channels[DIALOG_NUM_CHANNEL_CHOICES];
  const gchar *scales[] = { dialog_scale_label (HISTOGRAM_VIEW_LINEAR),
                            dialog_scale_label (HISTOGRAM_VIEW_LOG) };
  GtkWidget   *row = dialog_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget   *export;

  for (gint c = 0; c < DIALOG_NUM_CHANNEL_CHOICES; c++)
    channels[c] = dialog_state_has_channel (d->state, c)
                    ? dialog_channel_label (c) : NULL;
  gtk_box_pack_start (GTK_BOX (row),
                      labelled ("C_hannel:",
                                dialog_int_combo (channels,
                                                  DIALOG_NUM_CHANNEL_CHOICES,
                                                  dialog_state_channel (
                                                    d->state),
                                                  "channel",
                                                  G_CALLBACK (channel_changed),
                                                  d)),
                      FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (row),
                      labelled ("_Scale:",
                                dialog_int_combo (scales,
                                                  G_N_ELEMENTS (scales),
                                                  d->state->settings.scale,
                                                  "scale",
                                                  G_CALLBACK (scale_changed),
                                                  d)),
                      FALSE, FALSE, 0);
  /* The export at the row's end: beside the numbers it would widen the
   * dialog by its own width. */
  export = dialog_export_new (d);
  if (export)
    gtk_box_pack_end (GTK_BOX (row), export, FALSE, FALSE, 0);
  return row;
}

GtkWidget *
dialog_plot_new (Dialog *d)
{
  GtkWidget *vbox = dialog_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *frame = gtk_frame_new (NULL);

  gtk_box_pack_start (GTK_BOX (vbox), pickers_new (d), FALSE, FALSE, 0);

  d->plot = gtk_drawing_area_new ();
  gtk_widget_set_name (d->plot, "plot");
  gtk_widget_set_size_request (d->plot, DIALOG_PLOT_WIDTH,
                               DIALOG_PLOT_HEIGHT);
  gtk_widget_add_events (d->plot, GDK_POINTER_MOTION_MASK
                                  | GDK_BUTTON_PRESS_MASK
                                  | GDK_BUTTON_RELEASE_MASK
                                  | GDK_LEAVE_NOTIFY_MASK);
  dialog_plot_connect (d);
  g_signal_connect (d->plot, "button-press-event", G_CALLBACK (plot_press), d);
  g_signal_connect (d->plot, "motion-notify-event", G_CALLBACK (plot_motion),
                    d);
  g_signal_connect (d->plot, "button-release-event",
                    G_CALLBACK (plot_release), d);
  g_signal_connect (d->plot, "leave-notify-event", G_CALLBACK (plot_leave),
                    d);
  gtk_frame_set_shadow_type (GTK_FRAME (frame), GTK_SHADOW_IN);
  gtk_container_add (GTK_CONTAINER (frame), d->plot);
  gtk_box_pack_start (GTK_BOX (vbox), frame, TRUE, TRUE, 0);

  d->range = dialog_named_label ("range", 0);
  d->hover = dialog_named_label ("hover", 0);
  /* Texts that change as the pointer moves: a fixed width each. */
  dialog_label_fixed (d->range, LINE_CHARS);
  dialog_label_fixed (d->hover, LINE_CHARS);
  gtk_box_pack_start (GTK_BOX (vbox), d->range, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (vbox), d->hover, FALSE, FALSE, 0);
  return vbox;
}

void
dialog_plot_sync (Dialog *d)
{
  gchar *text = dialog_state_range_text (d->state);

  gtk_label_set_text (GTK_LABEL (d->range), text);
  g_free (text);
}
