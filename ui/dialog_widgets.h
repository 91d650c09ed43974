/* dialog_widgets.h — private to ui/: the histogram dialog's widgets and
 * their handlers, one source for both toolkits.
 *
 * dialog_widgets.c is compiled twice, into the GTK 2 library beside
 * dialog_gtk2.c and into the GTK 3 one beside dialog_gtk3.c.  It holds all
 * the dialog does: the Dialog below, the pointer, drag, range, channel
 * and action handlers, the refresh from dialog_state, the export and the
 * preview, and the layout both toolkits share (dialog_content_new,
 * dialog_window_new): the plot, its numbers and the export at the left;
 * the preview, the actions' radio buttons and, under them, the chosen
 * action's own controls at the right, one page at a time, so the window
 * fits a 1366 x 768 screen.  What GTK 2 and GTK 3 do differently (the
 * threshold's GimpScaleEntry, painting on "expose-event" or "draw",
 * GtkTable or GtkGrid, a tabless GtkNotebook or a GtkStack for the pages,
 * GTK 3's margins where GTK 2 pads with labels, where a label wraps) each
 * glue file defines under the names in the second half of this header;
 * dialog_widgets.c calls them.
 */
#ifndef GH_UI_DIALOG_WIDGETS_H
#define GH_UI_DIALOG_WIDGETS_H

#include <gtk/gtk.h>

#include "dialog_gtk.h"

/* One dialog's widgets, freed with its content (dialog_content_new). */
typedef struct
{
  DialogState       *state;
  const DialogHooks *hooks;
  GtkWidget         *plot;
  GtkWidget         *hover, *range, *message;
  GtkWidget         *titles[DIALOG_MAX_COLUMNS];
  GtkWidget         *values[DIALOG_MAX_COLUMNS][DIALOG_NUM_STATS];
  GtkWidget         *action[DIALOG_NUM_ACTIONS]; /* radios, by DialogAction */
  GtkWidget         *modes[DIALOG_NUM_ACTIONS];  /* the mode pickers of
                                       equalize, CLAHE and match (one
                                       setting); NULL for the others */
#if GTK_CHECK_VERSION (3, 0, 0)
  GtkWidget         *threshold;      /* a GimpScaleEntry */
#else
  GtkObject         *threshold;      /* GimpScaleEntry's adjustment */
#endif
  GtkWidget         *otsu;
  GtkWidget         *tiles_x, *tiles_y, *clip_limit; /* CLAHE's */
  GtkWidget         *reference;      /* the host's picker; NULL: none */
  GtkWidget         *classes;        /* posterize's */
  GtkWidget         *pages;          /* the actions' own controls, one
                                       page per DialogAction, the chosen
                                       one's shown */
  GtkWidget         *preview;
  gboolean           updating;       /* the dialog moves its own widgets */
} Dialog;

/* ---- dialog_widgets.c, for the glues ---- */

/* Draws the plot into `cr`, in the plot widget's logical pixels: what the
 * glue's paint handler calls. */
void dialog_plot_draw (Dialog *d, cairo_t *cr);

/* The threshold control moved to `value`: what the glue's "value-changed"
 * handler calls. */
void dialog_threshold_moved (Dialog *d, gint value);

/* `widget` after a mnemonic label `text` that activates it, in a row. */
GtkWidget *dialog_labelled (const gchar *text, GtkWidget *widget);

/* Shows the dialog (dialog_window_new's) until the user closes it:
 * dialog_run's work once the glue has made the preview (dialog_gtk.h says
 * what it returns). */
gboolean dialog_window_run (GtkWidget *preview, DialogState *state,
                            const gchar *refusal, const DialogHooks *hooks,
                            DialogChoice *choice);

/* ---- each glue's own, dialog_gtk2.c or dialog_gtk3.c ---- */

/* Connects the plot's paint signal ("expose-event" in GTK 2, "draw" in
 * GTK 3) to a handler drawing with dialog_plot_draw. */
void dialog_plot_connect (Dialog *d);

/* A table of `rows` by `columns` cells (GtkTable or GtkGrid) with these
 * spacings, and a widget put in the cell at `column`, `row`. */
GtkWidget *dialog_grid_new (guint rows, guint columns, guint column_spacing,
                            guint row_spacing);
void dialog_grid_attach (GtkWidget *grid, GtkWidget *child, guint column,
                         guint row);

/* Makes d->threshold, the binarize threshold's slider and entry, from the
 * state's threshold and range, its slider named "threshold", its changes
 * handed to dialog_threshold_moved; returns what goes in the actions'
 * column, under the Binarize radio. */
GtkWidget *dialog_threshold_new (Dialog *d);

/* Sets the threshold control to `value` and its sensitivity. */
void dialog_threshold_show (Dialog *d, gint value, gboolean sensitive);

/* An action's own controls (a row), set in under its radio button: what
 * goes in the actions' column. */
GtkWidget *dialog_indented (GtkWidget *row);

/* Pages of which one is shown at a time, as large as the largest (GTK 2:
 * a GtkNotebook without tabs or border; GTK 3: a GtkStack): the actions'
 * own controls.  A page not shown is unmapped, so its mnemonics do
 * nothing, as an insensitive control's do. */
GtkWidget *dialog_pages_new (void);
void dialog_pages_add (GtkWidget *pages, GtkWidget *page);
void dialog_pages_show (GtkWidget *pages, gint page);

/* A label whose text wraps at about 40 characters rather than widening
 * the dialog (GTK 3: left-aligned). */
GtkWidget *dialog_wrapped_label (const gchar *text);

#endif
