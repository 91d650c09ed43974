/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_stats.c — the histogram dialog's statistics table and backend
 * line (dialog_stats.h). */
#include "dialog_stats.h"

#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>

#include "dialog_export.h"
#include "dialog_toolkit.h"

/* The table's columns and rows, the labels of each row first. */
static GtkWidget *
table_new (Dialog *d)
{
  GtkWidget *grid = dialog_grid_new (DIALOG_NUM_STATS + 1,
                                     DIALOG_MAX_COLUMNS + 1, 18, 2);

  for (gint k = 0; k < DIALOG_MAX_COLUMNS; k++)
    {
      gchar name[32];

      g_snprintf (name, sizeof name, "column-%d", k);
      d->titles[k] = dialog_named_label (name, 1);
      dialog_grid_attach (grid, d->titles[k], k + 1, 0);
    }
  for (gint s = 0; s < DIALOG_NUM_STATS; s++)
    {
      const gchar *tip = dialog_stat_tip ((DialogStat) s);
      GtkWidget   *label = gtk_label_new (dialog_stat_label ((DialogStat) s));

      dialog_label_xalign (label, 0);
      gimp_help_set_help_data (label, tip, NULL);
      dialog_grid_attach (grid, label, 0, s + 1);
      for (gint k = 0; k < DIALOG_MAX_COLUMNS; k++)
        {
          gchar name[32];

          g_snprintf (name, sizeof name, "stat-%d-%d", k, s);
          d->values[k][s] = dialog_named_label (name, 1);
          gimp_help_set_help_data (d->values[k][s], tip, NULL);
          dialog_grid_attach (grid, d->values[k][s], k + 1, s + 1);
        }
    }
  return grid;
}

GtkWidget *
dialog_stats_new (Dialog *d)
{
  GtkWidget *vbox = dialog_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *row = dialog_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *button = dialog_export_new (d);
  GtkWidget *backend;
  gchar     *text;

  gtk_box_pack_start (GTK_BOX (row), table_new (d), FALSE, FALSE, 0);
  /* The export at the numbers' right, level with their last row. */
  if (button)
    {
      GtkWidget *column = dialog_box_new (GTK_ORIENTATION_VERTICAL, 0);

      gtk_box_pack_end (GTK_BOX (column), button, FALSE, FALSE, 0);
      gtk_box_pack_end (GTK_BOX (row), column, FALSE, FALSE, 0);
    }
  gtk_box_pack_start (GTK_BOX (vbox), row, FALSE, FALSE, 0);

  text = dialog_state_backend_text (d->state);
  backend = dialog_named_label ("backend", 0);
  gtk_label_set_text (GTK_LABEL (backend), text);
  gimp_label_set_attributes (GTK_LABEL (backend), PANGO_ATTR_STYLE,
                             PANGO_STYLE_ITALIC, -1);
  g_free (text);
  gtk_box_pack_start (GTK_BOX (vbox), backend, FALSE, FALSE, 0);
  return vbox;
}

void
dialog_stats_sync (Dialog *d)
{
  DialogState *st = d->state;
  gchar       *text;

  for (gint k = 0; k < DIALOG_MAX_COLUMNS; k++)
    {
      gboolean shown = k < st->n_columns;

      gtk_widget_set_visible (d->titles[k], shown);
      if (shown)
        {
          text = dialog_state_column_title (st, k);
          gtk_label_set_text (GTK_LABEL (d->titles[k]), text);
          g_free (text);
        }
      for (gint s = 0; s < DIALOG_NUM_STATS; s++)
        {
          gtk_widget_set_visible (d->values[k][s], shown);
          if (! shown)
            continue;
          text = dialog_state_stat_text (st, k, (DialogStat) s);
          gtk_label_set_text (GTK_LABEL (d->values[k][s]), text);
          g_free (text);
        }
    }
}
