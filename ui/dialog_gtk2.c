/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_gtk2.c — the histogram dialog in GTK 2 / libgimpui (GIMP 2.10):
 * what GTK 2 does differently from GTK 3 (dialog_toolkit.h lists it) and
 * dialog_run on a drawable id. */
#include "dialog_gtk2.h"

#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>

#include "dialog_toolkit.h"

/* GTK 2 hands no cairo_t: one on the window, clipped to what is exposed. */
static gboolean
plot_expose (GtkWidget *widget, GdkEventExpose *event, Dialog *d)
{
  cairo_t *cr = gdk_cairo_create (gtk_widget_get_window (widget));

  gdk_cairo_region (cr, event->region);
  cairo_clip (cr);
  dialog_plot_draw (d, cr);
  cairo_destroy (cr);
  return TRUE;
}

void
dialog_plot_connect (Dialog *d)
{
  g_signal_connect (d->plot, "expose-event", G_CALLBACK (plot_expose), d);
}

GtkWidget *
dialog_grid_new (guint rows, guint columns, guint column_spacing,
                 guint row_spacing)
{
  GtkWidget *table = gtk_table_new (rows, columns, FALSE);

  gtk_table_set_col_spacings (GTK_TABLE (table), column_spacing);
  gtk_table_set_row_spacings (GTK_TABLE (table), row_spacing);
  return table;
}

void
dialog_grid_attach (GtkWidget *grid, GtkWidget *child, guint column,
                    guint row)
{
  gtk_table_attach (GTK_TABLE (grid), child, column, column + 1, row,
                    row + 1, GTK_FILL, GTK_FILL, 0, 0);
}

/* GTK 2 has no margins: the actions' own controls are set in under their
 * radio buttons by labels of spaces. */
GtkWidget *
dialog_threshold_new (Dialog *d, const DialogSlider *s)
{
  GtkWidget *table = gtk_table_new (1, 3, FALSE);
  gchar     *label = g_strconcat ("    ", s->label, NULL);
  GtkObject *adj;

  gtk_table_set_col_spacings (GTK_TABLE (table), 6);
  adj = gimp_scale_entry_new (GTK_TABLE (table), 0, 0, label, s->width, 4,
                              s->value, s->lower, s->upper, s->step, s->page,
                              s->digits, TRUE, 0, 0, s->tip, NULL);
  g_free (label);
  gtk_widget_set_name (GIMP_SCALE_ENTRY_SCALE (adj), s->name);
  d->threshold = G_OBJECT (adj);
  return table;
}

void
dialog_threshold_set_sensitive (Dialog *d, gboolean sensitive)
{
  gimp_scale_entry_set_sensitive (GTK_OBJECT (d->threshold), sensitive);
}

GtkWidget *
dialog_indented (GtkWidget *row)
{
  GtkWidget *box = gtk_hbox_new (FALSE, 0);

  gtk_box_pack_start (GTK_BOX (box), gtk_label_new ("     "), FALSE, FALSE,
                      0);
  gtk_box_pack_start (GTK_BOX (box), row, FALSE, FALSE, 0);
  return box;
}

GtkWidget *
dialog_pages_new (void)
{
  GtkWidget *notebook = gtk_notebook_new ();

  gtk_notebook_set_show_tabs (GTK_NOTEBOOK (notebook), FALSE);
  gtk_notebook_set_show_border (GTK_NOTEBOOK (notebook), FALSE);
  return notebook;
}

void
dialog_pages_show (GtkWidget *pages, gint page)
{
  gtk_notebook_set_current_page (GTK_NOTEBOOK (pages), page);
}

/* GTK 2 wraps a label at the width it is asked for, else at one wider
 * than the dialog. */
void
dialog_label_wrap_at (GtkWidget *label, gint chars)
{
  PangoFontMetrics *metrics
    = pango_context_get_metrics (gtk_widget_get_pango_context (label),
                                 gtk_widget_get_style (label)->font_desc,
                                 NULL);
  gint              width
    = chars * pango_font_metrics_get_approximate_char_width (metrics);

  gtk_widget_set_size_request (label, PANGO_PIXELS (width), -1);
  pango_font_metrics_unref (metrics);
}

gboolean
dialog_run (gint32 drawable, DialogState *state, const gchar *refusal,
            const DialogHooks *hooks, DialogChoice *choice)
{
  return dialog_window_run (
           gimp_zoom_preview_new_from_drawable_id (drawable), state,
           refusal, hooks, choice);
}
