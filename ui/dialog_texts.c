/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_texts.c — the texts the histogram dialog shows (dialog_texts.h). */
#include "dialog_texts.h"

#include <math.h>
#include <string.h>

const gchar *
dialog_channel_label (gint channel)
{
  gint                  n;
  const gh_param_value *values = gh_param_values (GH_PARAM_CHANNEL, &n);

  /* The vocabulary's channels, then the overlay of red, green and blue. */
  if (channel == DIALOG_CHANNEL_RGB)
    return "RGB";
  return channel >= 0 && channel < n ? values[channel].label : "?";
}

const gchar *
dialog_stat_label (DialogStat stat)
{
  static const gchar *const labels[DIALOG_NUM_STATS]
    = { "Count", "Min", "Max", "Mean", "Median", "Std dev",
        "Otsu threshold", "Share in range" };

  return stat < DIALOG_NUM_STATS ? labels[stat] : "?";
}

const gchar *
dialog_stat_tip (DialogStat stat)
{
  static const gchar *const tips[DIALOG_NUM_STATS] = {
    "Pixels in the selected levels (weighted by alpha and the selection)",
    "The darkest level in use",
    "The brightest level in use",
    "The average level",
    "Half of the pixels are at or below this level",
    "How widely the levels spread around the mean",
    "The level that best splits the pixels into a dark and a bright class "
    "(Otsu's method); levels above it are bright",
    "GIMP's Percentile: the share of all pixels that lie in the "
    "selected levels (100 % with every level selected)",
  };

  return stat < DIALOG_NUM_STATS ? tips[stat] : "?";
}

const gchar *
dialog_scale_label (HistogramViewScale scale)
{
  return scale == HISTOGRAM_VIEW_LOG ? "Logarithmic" : "Linear";
}

const gchar *
dialog_action_label (DialogAction action)
{
  /* With their mnemonics; binarize's and posterize's own labels name
   * their channel: dialog_state_binarize_label, _posterize_label. */
  static const gchar *const labels[] = {
    [DIALOG_ACTION_NONE] = "_Analyze only (no change)",
    [DIALOG_ACTION_EQUALIZE] = "_Equalize",
    [DIALOG_ACTION_BINARIZE] = "_Binarize",
    [DIALOG_ACTION_CLAHE] = "C_LAHE (local contrast)",
    [DIALOG_ACTION_MATCH] = "Match to _reference",
    [DIALOG_ACTION_POSTERIZE] = "Posteri_ze",
    [GH_REQ_STRETCH] = "S_tretch contrast",
  };

  /* An operation without a label of its own here: the vocabulary's. */
  if ((guint) action < G_N_ELEMENTS (labels))
    return labels[action];
  return gh_operation_get (action) ? gh_operation_get (action)->label
                                   : labels[DIALOG_ACTION_NONE];
}

gchar *
dialog_state_column_title (const DialogState *state, gint column)
{
  return g_strdup (dialog_channel_label (state->columns[column]));
}

gchar *
dialog_count_text (gdouble count)
{
  /* Alpha and feathered selections weight pixels: fractional counts. */
  gchar   *digits = g_strdup_printf (count == floor (count) ? "%.0f" : "%.2f",
                                     count);
  /* The integer part: up to the decimal point, whichever the locale's. */
  gint     n = (gint) strspn (digits, "0123456789");
  GString *text = g_string_new (NULL);

  /* Groups of three, apart by a narrow no-break space (U+202F), as SI
   * writes numbers: the same in every locale, never a decimal point. */
  for (gint i = 0; i < n; i++)
    {
      if (i > 0 && (n - i) % 3 == 0)
        g_string_append (text, "\xe2\x80\xaf");
      g_string_append_c (text, digits[i]);
    }
  g_string_append (text, digits + n);
  g_free (digits);
  return g_string_free (text, FALSE);
}

gchar *
dialog_state_stat_text (const DialogState *state, gint column,
                        DialogStat stat)
{
  const gh_stats *s = &state->stats[column];

  if (stat != DIALOG_STAT_COUNT && stat != DIALOG_STAT_PERCENTILE
      && s->count <= 0)
    return g_strdup ("\xe2\x80\x93"); /* an en dash: no pixels, no level */
  switch (stat)
    {
    case DIALOG_STAT_COUNT:      return dialog_count_text (s->count);
    case DIALOG_STAT_MIN:        return g_strdup_printf ("%g", s->min);
    case DIALOG_STAT_MAX:        return g_strdup_printf ("%g", s->max);
    case DIALOG_STAT_MEAN:       return g_strdup_printf ("%.2f", s->mean);
    case DIALOG_STAT_MEDIAN:     return g_strdup_printf ("%g", s->median);
    case DIALOG_STAT_STD_DEV:    return g_strdup_printf ("%.2f", s->std_dev);
    case DIALOG_STAT_OTSU:       return g_strdup_printf ("%g", s->otsu);
    case DIALOG_STAT_PERCENTILE: return g_strdup_printf ("%.1f %%",
                                                         100 * s->percentile);
    default:                     return g_strdup ("?");
    }
}

gchar *
dialog_state_range_text (const DialogState *state)
{
  if (dialog_state_full_range (state))
    return g_strdup ("All levels (drag on the plot to pick a range)");
  return g_strdup_printf ("Levels %g\xe2\x80\x93%g (double-click for all)",
                          dialog_state_level (state, state->lo), dialog_state_level (state, state->hi));
}

gchar *
dialog_state_hover_text (const DialogState *state)
{
  gchar *count, *text;
  gint   c;

  if (state->hover < 0)
    return g_strdup ("");
  if (state->n_columns == 1)
    {
      count = dialog_count_text (
                state->counts[state->columns[0]][state->hover]);
      text = g_strdup_printf ("Level %g: %s pixels", dialog_state_level (
                                                         state, state->hover),
                              count);
      g_free (count);
      return text;
    }
  text = g_strdup_printf ("Level %g:", dialog_state_level (state, state->hover));
  for (gint k = 0; k < state->n_columns; k++)
    {
      gchar *more;

      c = state->columns[k];
      count = dialog_count_text (state->counts[c][state->hover]);
      more = g_strdup_printf ("%s %s %s", text, dialog_channel_label (c),
                              count);
      g_free (count);
      g_free (text);
      text = more;
    }
  return text;
}

gchar *
dialog_state_backend_text (const DialogState *state)
{
  /* The engine's name of what counted (gh_engine_backend_name: "cpu: 2
   * threads", "cuda: <device>", both joined by " + "), in words. */
  gchar  **parts = g_strsplit (state->backend, " + ", -1);
  GString *text = g_string_new ("Counted on ");

  for (gint i = 0; parts[i]; i++)
    {
      if (i > 0)
        g_string_append (text, " and ");
      if (g_str_has_prefix (parts[i], "cpu: "))
        g_string_append_printf (text, "the CPU, %s", parts[i] + 5);
      else if (g_str_has_prefix (parts[i], "cuda: "))
        g_string_append_printf (text, "the GPU: %s", parts[i] + 6);
      else
        g_string_append (text, parts[i]);
    }
  g_strfreev (parts);
  if (state->seconds < 1)
    g_string_append_printf (text, ", in %.1f ms", state->seconds * 1000);
  else
    g_string_append_printf (text, ", in %.2f s", state->seconds);
  return g_string_free (text, FALSE);
}

/* "<verb> on <channel>", the channel they compare. */
static gchar *
on_channel_label (const DialogState *state, const gchar *verb)
{
  gchar *name = g_ascii_strdown (dialog_channel_label (
                                   dialog_state_binarize_channel (state)), -1);
  gchar *text = g_strdup_printf ("%s on %s", verb, name);

  g_free (name);
  return text;
}

gchar *
dialog_state_binarize_label (const DialogState *state)
{
  return on_channel_label (state, "_Binarize");
}

gchar *
dialog_state_posterize_label (const DialogState *state)
{
  return on_channel_label (state, "Posteri_ze");
}
