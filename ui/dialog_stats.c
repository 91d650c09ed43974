/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_stats.c — the histogram dialog's statistics table and backend
 * line (dialog_stats.h). */
#include "dialog_stats.h"

#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>

#include "dialog_toolkit.h"

/* A column's width: "123 456 789" pixels, a level "0.501466".  Every
 * column keeps it, blank where the channel shown has no third column, so
 * the RGB overlay widens nothing. */
#define VALUE_CHARS 10
#define BACKEND_CHARS 50

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
      dialog_label_fixed (d->titles[k], VALUE_CHARS);
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
          dialog_label_fixed (d->values[k][s], VALUE_CHARS);
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
  GtkWidget *backend;
  gchar     *text;

  gtk_box_pack_start (GTK_BOX (vbox), table_new (d), FALSE, FALSE, 0);

  text = dialog_state_backend_text (d->state);
  backend = dialog_named_label ("backend", 0);
  gtk_label_set_text (GTK_LABEL (backend), text);
  /* A long GPU name is cut, not the dialog widened: all of it in the
   * tooltip. */
  dialog_label_fixed (backend, BACKEND_CHARS);
  gimp_help_set_help_data (backend, text, NULL);
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

      text = shown ? dialog_state_column_title (st, k) : NULL;
      gtk_label_set_text (GTK_LABEL (d->titles[k]), text ? text : "");
      g_free (text);
      for (gint s = 0; s < DIALOG_NUM_STATS; s++)
        {
          text = shown ? dialog_state_stat_text (st, k, (DialogStat) s)
                       : NULL;
          gtk_label_set_text (GTK_LABEL (d->values[k][s]), text ? text : "");
          g_free (text);
        }
    }
}
