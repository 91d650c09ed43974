/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_texts.h — the texts the histogram dialog shows, kept apart from
 * its model (dialog_state.h): the controls' fixed labels and tips, and
 * the state's numbers, range, pointer and backend in words.  The names of
 * parameters' values (channels, modes) are the vocabulary's
 * (gh_param_values).
 *
 *   gchar *mean = dialog_state_stat_text (&st, 0, DIALOG_STAT_MEAN);
 *   gtk_label_set_text (label, mean);  g_free (mean);
 */
#ifndef GH_UI_DIALOG_TEXTS_H
#define GH_UI_DIALOG_TEXTS_H

#include "dialog_state.h"

/* The rows of the statistics table. */
typedef enum
{
  DIALOG_STAT_COUNT = 0,
  DIALOG_STAT_MIN,
  DIALOG_STAT_MAX,
  DIALOG_STAT_MEAN,
  DIALOG_STAT_MEDIAN,
  DIALOG_STAT_STD_DEV,
  DIALOG_STAT_OTSU,
  DIALOG_STAT_PERCENTILE,
  DIALOG_NUM_STATS
} DialogStat;

/* "Value", "Red", ..., "RGB". */
const gchar *dialog_channel_label (gint channel);

/* The controls' fixed texts, mnemonics included. */
const gchar *dialog_stat_label (DialogStat stat);
const gchar *dialog_stat_tip (DialogStat stat);
const gchar *dialog_scale_label (HistogramViewScale scale);
const gchar *dialog_action_label (DialogAction action);

/* Texts for the dialog; each is newly allocated (g_free). */
gchar *dialog_state_column_title (const DialogState *state, gint column);
gchar *dialog_state_stat_text (const DialogState *state, gint column,
                               DialogStat stat);
/* "Levels 10-200 of 0-255" or "All levels (drag on the plot to ...)". */
gchar *dialog_state_range_text (const DialogState *state);
/* A count of pixels, its digits grouped by three ("12 000 000", a
 * narrow no-break space between groups; "1 234.50" where alpha or a
 * feathered selection weighs pixels). */
gchar *dialog_count_text (gdouble count);
/* "Level 97: 1 234 pixels" for the hovered bin; "" without hover. */
gchar *dialog_state_hover_text (const DialogState *state);
/* What counted the histogram, in words: "Counted on the CPU, 2 threads,
 * in 12.3 ms", "Counted on the GPU: <device>, in 4.2 ms". */
gchar *dialog_state_backend_text (const DialogState *state);
/* "_Binarize on red": the binarize channel's name, with a mnemonic. */
gchar *dialog_state_binarize_label (const DialogState *state);
/* "Posteri_ze on red", the same channel's ("_P" is the preview's
 * toggle). */
gchar *dialog_state_posterize_label (const DialogState *state);

#endif
