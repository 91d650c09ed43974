/* SPDX-License-Identifier: GPL-3.0-or-later */
/* flow_host.c — the dialog flow's host (flow.h) in libgimp 2.10's calls
 * (flow_host.h). */
#include "flow_host.h"

#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>

#include "dialog_gtk2.h"
#include "host.h"
#include "procedures.h"
#include "settings.h"

/* Whether a dialog can be shown.  gimp-console has no display.  The
 * display is GIMP's, as gimp_ui_init picks it. */
static gboolean
ui_available (void)
{
  gchar       *argv_data[] = { (gchar *) CORE_PLUG_IN_BINARY, NULL };
  gchar      **argv = argv_data;
  gint         argc = 1;
  const gchar *name = gimp_display_name ();

  if (name && *name)
    g_setenv ("DISPLAY", name, TRUE);
  return gtk_init_check (&argc, &argv);
}

static gboolean
run_dialog (gpointer drawable, DialogState *state, const gchar *refusal,
            const DialogHooks *hooks, DialogChoice *choice)
{
  gimp_ui_init (CORE_PLUG_IN_BINARY, TRUE);
  return dialog_run (GPOINTER_TO_INT (drawable), state, refusal, hooks,
                     choice);
}

/* Match's reference: NULL when the ID is no drawable (any more). */
static gpointer
reference (gint32 id)
{
  return gimp_item_is_valid (id) && gimp_item_is_drawable (id)
           ? GIMP2_HANDLE (id) : NULL;
}

/* libgimpui's picker: every drawable of every open image, by item ID. */
static gpointer
reference_picker (gint32 id, gpointer data G_GNUC_UNUSED)
{
  GtkWidget *combo = gimp_drawable_combo_box_new (NULL, NULL);

  if (id >= 0 && reference (id))
    gimp_int_combo_box_set_active (GIMP_INT_COMBO_BOX (combo), id);
  return combo;
}

/* `store`: the procedure's name. */
void
gimp2_settings_load (gpointer store, DialogAction action G_GNUC_UNUSED,
               DialogSettings *settings)
{
  DialogSettings last;

  if (gimp2_settings_last (store, &last, sizeof last, NULL))
    *settings = last;
}

void
gimp2_settings_save (gpointer store, DialogAction action G_GNUC_UNUSED,
               const DialogState *state)
{
  gimp_set_data (store, &state->settings, sizeof state->settings);
}

/* The dialog's Export CSV is remembered as the export procedure's file. */
static gboolean
export_done (const gchar *filename, GError **error)
{
  ExportSettings s;

  if (! gimp2_settings_copy (s.filename, filename, "file name", error))
    return FALSE;
  gimp_set_data (core_proc_export.name, &s, sizeof s);
  return TRUE;
}

const FlowHost gimp2_flow_host = {
  &gimp2_host, ui_available, run_dialog, reference_picker, reference,
  gimp2_settings_load, gimp2_settings_save, export_done, gimp_message, NULL,
  /* GIMP 2.10 has no live filters. */
  NULL, NULL,
};

