/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_toolkit.h — private to ui/: what GTK 2 and GTK 3 do differently
 * in the histogram dialog, defined by each glue (dialog_gtk2.c or
 * dialog_gtk3.c) and called by the shared parts (dialog_widgets.h): the
 * threshold's GimpScaleEntry, painting on "expose-event" or "draw",
 * GtkTable or GtkGrid, a tabless GtkNotebook or a GtkStack for the
 * actions' pages (added with gtk_container_add in either), GTK 3's
 * margins where GTK 2 pads with labels, where a label wraps.  The glue
 * calls back dialog_plot_draw.
 */
#ifndef GH_UI_DIALOG_TOOLKIT_H
#define GH_UI_DIALOG_TOOLKIT_H

#include "dialog_widgets.h"

/* ---- the shared parts', for the glues ---- */

/* Draws the plot into `cr`, in the plot widget's logical pixels: what the
 * glue's paint handler calls (dialog_plot.c). */
void dialog_plot_draw (Dialog *d, cairo_t *cr);

/* ---- each glue's own ---- */

/* Connects the plot's paint signal ("expose-event" in GTK 2, "draw" in
 * GTK 3) to a handler drawing with dialog_plot_draw. */
void dialog_plot_connect (Dialog *d);

/* A table of `rows` by `columns` cells (GtkTable or GtkGrid) with these
 * spacings, and a widget put in the cell at `column`, `row`. */
GtkWidget *dialog_grid_new (guint rows, guint columns, guint column_spacing,
                            guint row_spacing);
void dialog_grid_attach (GtkWidget *grid, GtkWidget *child, guint column,
                         guint row);

/* The binarize threshold's slider and entry, as dialog_controls.c
 * describes them from the vocabulary (gh_request.h). */
typedef struct
{
  const gchar *label; /* with its mnemonic: "_Threshold:"               */
  const gchar *name;  /* the slider's, for tests: "threshold"           */
  const gchar *tip;
  gint         width; /* the slider's, in pixels                        */
  gdouble      value, lower, upper, step, page;
  guint        digits;
} DialogSlider;

/* Makes d->threshold as `slider` says; returns what goes in binarize's
 * page. */
GtkWidget *dialog_threshold_new (Dialog *d, const DialogSlider *slider);

/* Whether the threshold control (its label, slider and entry) can be
 * used. */
void dialog_threshold_set_sensitive (Dialog *d, gboolean sensitive);

/* An action's own controls (a row), set in under its radio button: what
 * goes in the actions' column. */
GtkWidget *dialog_indented (GtkWidget *row);

/* Pages of which one is shown at a time, as large as the largest (GTK 2:
 * a GtkNotebook without tabs or border; GTK 3: a GtkStack): the actions'
 * own controls.  A page not shown is unmapped, so its mnemonics do
 * nothing, as an insensitive control's do. */
GtkWidget *dialog_pages_new (void);
void dialog_pages_show (GtkWidget *pages, gint page);

/* A wrapping label (dialog_wrapped_label's) made to wrap at about
 * `chars` characters of its font rather than widen the dialog. */
void dialog_label_wrap_at (GtkWidget *label, gint chars);

#endif
