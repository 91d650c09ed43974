/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_hooks.h — what the histogram dialog shares with its hosts and
 * tests, knowing no GTK: the hooks through which a host does the dialog's
 * work, and the names the dialog shows in either toolkit.
 *
 * Each GIMP host fills DialogHooks with its own calls and hands it to
 * dialog_run (dialog_gtk.h; declared by dialog_gtk2.h for GIMP 2.10,
 * dialog_gtk3.h for GIMP 3), so the operations the procedures use do the
 * work and the arrows stay plugin -> ui -> engine:
 *
 *   DialogHooks hooks = { my_preview, my_export, my_picker, my_data };
 *   if (dialog_run (drawable, &st, refusal, &hooks, &choice)) ...
 *
 * dialog_content_new names its widgets, in both toolkits, for tests to
 * find them: "plot", "stat-<column>-<row>" (DialogStat rows),
 * "column-<column>", "backend", "range", "hover", "channel" (the channel
 * picker), "scale", "mode" (equalize's), "threshold" (the threshold
 * slider itself), "action-<DialogAction>" (the radio buttons),
 * "tiles-x", "tiles-y", "clip-limit", "clahe-mode" (CLAHE's), "reference"
 * (the host's picker), "match-mode", "classes" (posterize's),
 * "action-pages" (the chosen action's controls, a page per action),
 * "live" (Keep as live filter, where the host offers it).
 */
#ifndef GH_UI_DIALOG_HOOKS_H
#define GH_UI_DIALOG_HOOKS_H

#include <glib.h>

#include "dialog_state.h"

/* The window's title, its role for window managers, and GIMP's help id. */
/* No "(GPU)": the backend line says what counted. */
#define DIALOG_TITLE        "Histogram"
#define DIALOG_ROLE         "gpu-histogram"
#define DIALOG_HELP_ID      "plug-in-gpu-histogram"
/* The plot's smallest size in the dialog, in logical pixels. */
#define DIALOG_PLOT_WIDTH   420
#define DIALOG_PLOT_HEIGHT  200
/* The preview's width in the dialog: the whole photo, scaled to fit. */
#define DIALOG_PREVIEW_WIDTH 300
/* The Export CSV file chooser's title and first file name. */
#define DIALOG_CSV_TITLE    "Export Histogram as CSV"
#define DIALOG_CSV_DEFAULT  "histogram.csv"

typedef struct
{
  /* The pixels of the drawable's rectangle (x, y, width, height) with
   * `choice` applied, shown at out_width x out_height (the preview's
   * size: scaled where that is not the rectangle's), 8-bit in the
   * drawable's type (what gimp_preview_draw_buffer takes), rows
   * *rowstride bytes apart; g_free them.  NULL with no error: nothing to
   * apply (the preview shows the original); NULL with an error: it
   * failed, and the dialog says why. */
  guchar *(*preview) (const DialogChoice *choice, gint x, gint y,
                      gint width, gint height, gint out_width,
                      gint out_height, gint *rowstride, gpointer data,
                      GError **error);
  /* Writes the histogram as CSV. */
  gboolean (*export_csv) (const gchar *filename, gpointer data,
                          GError **error);
  /* Match's reference picker: a new GimpIntComboBox whose values are item
   * IDs, as libgimpui's gimp_drawable_combo_box_new makes in either GIMP
   * (any drawable of any open image), showing `reference` where that is
   * one of them; a GtkWidget * (this header knows no GTK).  The preview
   * and OK get the ID chosen as DialogChoice.reference.  NULL hook: the
   * dialog offers no Match. */
  gpointer (*reference_picker) (gint32 reference, gpointer data);
  gpointer data;
  /* Whether OK can leave `choice` as a live filter (GIMP 3 with the GEGL
   * module: plugin/gimp3/filter.h); the "Keep as live filter" check box
   * can be used only then.  NULL hook: the dialog has no such check box
   * (GIMP 2.10). */
  gboolean (*live_offered) (const DialogChoice *choice, gpointer data);
} DialogHooks;

#endif
