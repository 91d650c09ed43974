/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_export.c — the histogram dialog's CSV export and message line
 * (dialog_export.h), and the export's file chooser (dialog_gtk.h). */
#include "dialog_export.h"

#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>

#include "dialog_toolkit.h"

gchar *
dialog_csv_file_choose (GtkWindow *parent, const gchar *filename)
{
  GtkWidget     *chooser
    = gtk_file_chooser_dialog_new (DIALOG_CSV_TITLE, parent,
                                   GTK_FILE_CHOOSER_ACTION_SAVE,
                                   "_Cancel", GTK_RESPONSE_CANCEL,
                                   "_Save", GTK_RESPONSE_ACCEPT, NULL);
  GtkFileFilter *csv = gtk_file_filter_new ();
  gchar         *file = NULL;

  gtk_file_filter_set_name (csv, "CSV files (*.csv)");
  gtk_file_filter_add_pattern (csv, "*.csv");
  gtk_file_filter_add_pattern (csv, "*.CSV");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), csv);
  gtk_file_chooser_set_do_overwrite_confirmation (GTK_FILE_CHOOSER (chooser),
                                                  TRUE);
  if (filename && *filename)
    gtk_file_chooser_set_filename (GTK_FILE_CHOOSER (chooser), filename);
  else
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser),
                                       DIALOG_CSV_DEFAULT);
  if (! parent)
    gimp_window_set_transient (GTK_WINDOW (chooser));
  if (gtk_dialog_run (GTK_DIALOG (chooser)) == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (chooser));
  gtk_widget_destroy (chooser);
  return file;
}

void
dialog_message_show (Dialog *d)
{
  const gchar *text = dialog_state_message (d->state);

  gtk_label_set_text (GTK_LABEL (d->message), text);
  gtk_widget_set_visible (d->message, text != NULL);
}

static void
export_clicked (GtkWidget *button, Dialog *d)
{
  gchar  *file = dialog_csv_file_choose (
                   GTK_WINDOW (gtk_widget_get_toplevel (button)), NULL);
  GError *error = NULL;

  if (! file)
    return;
  d->hooks->export_csv (file, d->hooks->data, &error);
  dialog_state_export_done (d->state, file, error);
  dialog_message_show (d);
  g_clear_error (&error);
  g_free (file);
}

GtkWidget *
dialog_export_new (Dialog *d)
{
  GtkWidget *button;

  if (! d->hooks || ! d->hooks->export_csv)
    return NULL;
  button = gtk_button_new_with_mnemonic ("E_xport CSV...");
  g_signal_connect (button, "clicked", G_CALLBACK (export_clicked), d);
  return button;
}

/* A long file name wraps. */
GtkWidget *
dialog_message_new (Dialog *d)
{
  d->message = dialog_wrapped_label (NULL);
  return d->message;
}
