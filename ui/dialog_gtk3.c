/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_gtk3.c — the histogram dialog in GTK 3 / libgimpui 3.0 (GIMP 3):
 * what GTK 3 does differently from GTK 2 (dialog_toolkit.h lists it) and
 * dialog_run on a GimpDrawable. */
#include "dialog_gtk3.h"

#include <libgimp/gimpui.h>

#include "dialog_toolkit.h"

#define INDENT 24 /* an action's own controls stand under its radio button */
#define PREVIEW_BOX (DIALOG_PREVIEW_WIDTH - 20) /* its scroll bar beside */

static gboolean
plot_draw (GtkWidget *widget, cairo_t *cr, Dialog *d)
{
  (void) widget;
  /* In logical pixels: GTK 3 hands a cairo_t whose surface carries the
   * widget's scale factor, so on a HiDPI display the bars, lines and text
   * are drawn at the display's own resolution, not scaled up. */
  dialog_plot_draw (d, cr);
  return TRUE;
}

void
dialog_plot_connect (Dialog *d)
{
  g_signal_connect (d->plot, "draw", G_CALLBACK (plot_draw), d);
}

/* GtkGrid sizes itself: `rows` and `columns` are GtkTable's. */
GtkWidget *
dialog_grid_new (guint rows, guint columns, guint column_spacing,
                 guint row_spacing)
{
  GtkWidget *grid = gtk_grid_new ();

  (void) rows;
  (void) columns;
  gtk_grid_set_column_spacing (GTK_GRID (grid), column_spacing);
  gtk_grid_set_row_spacing (GTK_GRID (grid), row_spacing);
  return grid;
}

void
dialog_grid_attach (GtkWidget *grid, GtkWidget *child, guint column,
                    guint row)
{
  gtk_grid_attach (GTK_GRID (grid), child, column, row, 1, 1);
}

GtkWidget *
dialog_threshold_new (Dialog *d, const DialogSlider *s)
{
  GtkWidget *entry = gimp_scale_entry_new (s->label, s->value, s->lower,
                                           s->upper, s->digits);
  GtkWidget *range = gimp_scale_entry_get_range (GIMP_SCALE_ENTRY (entry));

  gimp_label_spin_set_increments (GIMP_LABEL_SPIN (entry), s->step, s->page);
  gimp_help_set_help_data (entry, s->tip, NULL);
  gtk_widget_set_name (range, s->name);
  /* A slider, not a knob: outside a stretching grid it gets no width. */
  gtk_widget_set_size_request (range, s->width, -1);
  gtk_widget_set_margin_start (entry, INDENT);
  d->threshold = G_OBJECT (entry);
  return entry;
}

void
dialog_threshold_set_sensitive (Dialog *d, gboolean sensitive)
{
  gtk_widget_set_sensitive (GTK_WIDGET (d->threshold), sensitive);
}

GtkWidget *
dialog_indented (GtkWidget *row)
{
  gtk_widget_set_margin_start (row, INDENT);
  gtk_widget_set_halign (row, GTK_ALIGN_START);
  return row;
}

GtkWidget *
dialog_pages_new (void)
{
  return gtk_stack_new ();
}

/* GtkStack shows a child by widget or name: the page-th. */
void
dialog_pages_show (GtkWidget *pages, gint page)
{
  GList *children = gtk_container_get_children (GTK_CONTAINER (pages));
  GList *child = g_list_nth (children, page);

  if (child)
    gtk_stack_set_visible_child (GTK_STACK (pages), child->data);
  g_list_free (children);
}

void
dialog_label_wrap_at (GtkWidget *label, gint chars)
{
  gtk_label_set_max_width_chars (GTK_LABEL (label), chars);
}

/* libgimpui 3's zoom preview is as large as its theme's "size" (200
 * pixels at most, set again on every style change), whatever room the
 * dialog gives it: larger at the same aspect, within a box as wide as the
 * dialog's preview column and no taller than before (a tall photo keeps
 * its size), so the dialog keeps its height. */
static void
preview_style_updated (GtkWidget *widget, gpointer data)
{
  GimpPreview *preview = GIMP_PREVIEW (widget);
  gint         width, height, size;
  gdouble      k;

  (void) data;
  gimp_preview_get_size (preview, &width, &height);
  gtk_widget_style_get (widget, "size", &size, NULL);
  if (width <= 0 || height <= 0)
    return;
  k = MIN ((gdouble) PREVIEW_BOX / width, (gdouble) size / height);
  if (k > 1)
    gimp_preview_set_size (preview, (gint) (width * k), (gint) (height * k));
}

gboolean
dialog_run (GimpDrawable *drawable, DialogState *state, const gchar *refusal,
            const DialogHooks *hooks, DialogChoice *choice)
{
  GtkWidget *preview = gimp_zoom_preview_new_from_drawable (drawable);

  g_signal_connect_after (preview, "style-updated",
                          G_CALLBACK (preview_style_updated), NULL);
  return dialog_window_run (preview, state, refusal, hooks, choice);
}
