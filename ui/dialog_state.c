/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_state.c — the histogram dialog's model, without any toolkit. */
#include "dialog_state.h"

#include <math.h>
#include <string.h>

#define RGB_BITS ((1u << GH_CHANNEL_RED) | (1u << GH_CHANNEL_GREEN) \
                  | (1u << GH_CHANNEL_BLUE))

/* A control's value, clamped to the vocabulary's range. */
static gdouble
clamp_param (gh_param param, gdouble value)
{
  const gh_param_spec *spec = gh_param_get (param);

  return CLAMP (value, spec->min, spec->max);
}

const gchar *
dialog_channel_label (gint channel)
{
  static const gchar *const labels[DIALOG_NUM_CHANNEL_CHOICES]
    = { "Value", "Red", "Green", "Blue", "Alpha", "Luminance", "RGB" };

  return channel >= 0 && channel < DIALOG_NUM_CHANNEL_CHOICES
           ? labels[channel] : "?";
}

gboolean
dialog_state_has_channel (const DialogState *state, gint channel)
{
  if (channel == DIALOG_CHANNEL_RGB)
    return (state->hist->channels & RGB_BITS) == RGB_BITS;
  return channel >= 0 && channel < GH_NUM_CHANNELS
         && (state->hist->channels & (1u << channel));
}

gh_channel
dialog_state_binarize_channel (const DialogState *state)
{
  if (state->settings.channel != DIALOG_CHANNEL_RGB)
    return (gh_channel) state->settings.channel;
  return dialog_state_has_channel (state, GH_CHANNEL_LUMINANCE)
           ? GH_CHANNEL_LUMINANCE : GH_CHANNEL_VALUE;
}

gint
dialog_state_max_threshold (const DialogState *state)
{
  (void) state;
  return (gint) gh_param_get (GH_PARAM_THRESHOLD)->max;
}

/* A bin as a level on the 0..255 scale, as the statistics give them. */
static gdouble
level (const DialogState *state, gint bin)
{
  return bin * 255.0 / (state->hist->bins - 1);
}

/* The nearest bin to a level; the same bin for a level its own bin gave. */
static gint
bin_at_level (const DialogState *state, gdouble at)
{
  return (gint) floor (at * (state->hist->bins - 1) / 255.0 + 0.5);
}

gint
dialog_state_threshold (const DialogState *state)
{
  if (state->settings.threshold >= 0)
    return state->settings.threshold;
  /* As the binarize procedure reports it: the last dark bin's level,
   * rounded down. */
  return gh_threshold_level (state->binarize_stats.otsu_bin,
                             state->hist->bins);
}

/* The last dark bin: Otsu's own, or the bins at or below a fixed level,
 * as the binarize procedure counts them. */
static gint
threshold_bin (const DialogState *state)
{
  if (state->settings.threshold >= 0)
    return gh_threshold_bin (state->settings.threshold, state->hist->bins);
  return state->binarize_stats.otsu_bin;
}

/* Posterize's thresholds: multi-level Otsu of the binarize channel over
 * the selected range (the levels outside it count as empty), as
 * binarize's Otsu is over that range.  Computed only while posterizing,
 * and not during a drag: 5 classes take about 0.2 s (an exhaustive search,
 * as scikit-image's), the release computes them. */
static void
update_posterize (DialogState *state)
{
  gint     bins = state->hist->bins;
  gdouble *counts;
  gh_error err;

  state->n_posterize = 0;
  if (state->settings.action != DIALOG_ACTION_POSTERIZE)
    return;
  counts = g_new0 (gdouble, bins);
  memcpy (counts + state->lo,
          state->counts[dialog_state_binarize_channel (state)] + state->lo,
          (gsize) (state->hi - state->lo + 1) * sizeof counts[0]);
  if (gh_multi_otsu (counts, bins, state->settings.classes,
                     state->posterize_bins, &err) == GH_OK)
    state->n_posterize = state->settings.classes - 1;
  g_free (counts);
}

/* The statistics follow every change of channel or range. */
static void
update (DialogState *state)
{
  if (state->settings.channel == DIALOG_CHANNEL_RGB)
    {
      state->n_columns = 3;
      for (gint k = 0; k < 3; k++)
        state->columns[k] = (gh_channel) (GH_CHANNEL_RED + k);
    }
  else
    {
      state->n_columns = 1;
      state->columns[0] = (gh_channel) state->settings.channel;
    }
  for (gint k = 0; k < state->n_columns; k++)
    gh_stats_compute (state->hist, state->columns[k], state->lo, state->hi,
                      &state->stats[k]);
  gh_stats_compute (state->hist, dialog_state_binarize_channel (state),
                    state->lo, state->hi, &state->binarize_stats);
  if (state->drag_from < 0)
    update_posterize (state);
}

void
dialog_state_init (DialogState *state, const gh_histogram *hist,
                   const gchar *backend, gdouble seconds,
                   const DialogSettings *settings)
{
  DialogSettings *s = &state->settings;

  state->hist = hist;
  for (gint c = 0; c < GH_NUM_CHANNELS; c++)
    {
      state->counts[c] = g_new (gdouble, hist->bins);
      gh_histogram_counts (hist, (gh_channel) c, state->counts[c]);
    }
  state->backend = g_strdup (backend);
  state->seconds = seconds;
  state->hover = -1;
  state->can_apply = TRUE;
  state->drag_from = -1;
  state->message = NULL;
  state->message_from_preview = FALSE;

  *s = *settings;
  /* Remembered from another layer: keep what still makes sense here. */
  if (! dialog_state_has_channel (state, s->channel))
    s->channel = GH_CHANNEL_VALUE;
  dialog_settings_fit (s);
  /* The levels, from a histogram of any number of bins, as the nearest
   * bins of this one. */
  dialog_state_set_range (state, bin_at_level (state, s->range_lo),
                          bin_at_level (state, s->range_hi));
}

void
dialog_state_clear (DialogState *state)
{
  for (gint c = 0; c < GH_NUM_CHANNELS; c++)
    g_clear_pointer (&state->counts[c], g_free);
  g_clear_pointer (&state->backend, g_free);
  g_clear_pointer (&state->message, g_free);
}

void
dialog_state_set_channel (DialogState *state, gint channel)
{
  if (! dialog_state_has_channel (state, channel))
    return;
  state->settings.channel = channel;
  update (state);
}

void
dialog_state_set_scale (DialogState *state, HistogramViewScale scale)
{
  state->settings.scale = scale;
}

void
dialog_state_set_action (DialogState *state, DialogAction action)
{
  if (! gh_operation_get (action))
    return;
  state->settings.action = action;
  update_posterize (state);
}

void
dialog_state_set_mode (DialogState *state, gint mode)
{
  state->settings.mode = mode == 1 ? 1 : 0;
}

void
dialog_state_set_threshold (DialogState *state, gint threshold)
{
  state->settings.threshold = clamp_param (GH_PARAM_THRESHOLD, threshold);
}

void
dialog_state_set_clip_limit (DialogState *state, gdouble clip_limit)
{
  if (clip_limit == clip_limit) /* not NaN */
    state->settings.clip_limit = clamp_param (GH_PARAM_CLIP_LIMIT,
                                              clip_limit);
}

void
dialog_state_set_tiles (DialogState *state, gint tiles_x, gint tiles_y)
{
  state->settings.tiles_x = clamp_param (GH_PARAM_TILES_X, tiles_x);
  state->settings.tiles_y = clamp_param (GH_PARAM_TILES_Y, tiles_y);
}

void
dialog_state_set_reference (DialogState *state, gint32 reference)
{
  state->settings.reference = reference >= 0 ? reference : -1;
}

void
dialog_state_set_classes (DialogState *state, gint classes)
{
  state->settings.classes = clamp_param (GH_PARAM_CLASSES, classes);
  update_posterize (state);
}

void
dialog_state_set_live (DialogState *state, gboolean live)
{
  state->settings.live = live != FALSE;
}

void
dialog_state_set_range (DialogState *state, gint from, gint to)
{
  gint last = state->hist->bins - 1;

  state->lo = CLAMP (MIN (from, to), 0, last);
  state->hi = CLAMP (MAX (from, to), 0, last);
  state->settings.range_lo = level (state, state->lo);
  state->settings.range_hi = level (state, state->hi);
  update (state);
}

void
dialog_state_reset_range (DialogState *state)
{
  dialog_state_set_range (state, 0, state->hist->bins - 1);
}

void
dialog_state_set_hover (DialogState *state, gint bin)
{
  state->hover = bin >= 0 && bin < state->hist->bins ? bin : -1;
}

void
dialog_state_press (DialogState *state, gint bin, gboolean double_click)
{
  if (double_click)
    {
      state->drag_from = -1;
      dialog_state_reset_range (state);
    }
  else
    {
      state->drag_from = bin;
      dialog_state_set_range (state, bin, bin);
    }
}

gboolean
dialog_state_motion (DialogState *state, gint bin)
{
  dialog_state_set_hover (state, bin);
  if (state->drag_from < 0)
    return FALSE;
  dialog_state_set_range (state, state->drag_from, bin);
  return TRUE;
}

gboolean
dialog_state_release (DialogState *state, gint bin)
{
  gint from = state->drag_from;

  if (from < 0)
    return FALSE;
  state->drag_from = -1;
  dialog_state_set_range (state, from, bin);
  return TRUE;
}

void
dialog_state_leave (DialogState *state)
{
  /* A drag goes on outside the plot (the pointer is grabbed): its level
   * stays shown. */
  if (state->drag_from < 0)
    dialog_state_set_hover (state, -1);
}

gboolean
dialog_state_action_sensitive (const DialogState *state, DialogAction action)
{
  return state->can_apply && state->settings.action == (gint32) action;
}

gboolean
dialog_state_mode_sensitive (const DialogState *state)
{
  const gh_operation_spec *spec = gh_operation_get (state->settings.action);
  gboolean                 has_mode = FALSE;

  for (gint k = 0; spec && k < spec->n_params; k++)
    has_mode = has_mode || spec->params[k] == GH_PARAM_MODE;
  /* The actions that take a mode; luminance only means something where
   * there is colour. */
  return has_mode && state->can_apply
         && dialog_state_has_channel (state, DIALOG_CHANNEL_RGB);
}

gboolean
dialog_state_threshold_sensitive (const DialogState *state)
{
  return dialog_state_action_sensitive (state, DIALOG_ACTION_BINARIZE);
}

gint
dialog_state_posterize_levels (const DialogState *state,
                               gint levels[DIALOG_MAX_THRESHOLDS])
{
  for (gint i = 0; i < state->n_posterize; i++)
    levels[i] = gh_threshold_level (state->posterize_bins[i],
                                    state->hist->bins);
  return state->n_posterize;
}

gboolean
dialog_state_otsu_sensitive (const DialogState *state)
{
  return dialog_state_threshold_sensitive (state)
         && state->settings.threshold >= 0;
}

const gchar *
dialog_state_message (const DialogState *state)
{
  return state->message;
}

static void
set_message (DialogState *state, gchar *text, gboolean from_preview)
{
  g_free (state->message);
  state->message = text;
  state->message_from_preview = from_preview;
}

void
dialog_state_preview_done (DialogState *state, const GError *error)
{
  if (error)
    set_message (state, g_strdup (error->message), TRUE);
  else if (state->message_from_preview)
    set_message (state, NULL, FALSE);
}

void
dialog_state_export_done (DialogState *state, const gchar *filename,
                          const GError *error)
{
  /* A success replaces an earlier failure's message. */
  set_message (state, error ? g_strdup (error->message)
                            : g_strdup_printf ("Histogram written to %s",
                                               filename),
               FALSE);
}

static gboolean
full_range (const DialogState *state)
{
  return state->lo == 0 && state->hi == state->hist->bins - 1;
}

void
dialog_state_choice (const DialogState *state, DialogChoice *choice)
{
  const DialogSettings *s = &state->settings;
  gh_request           *r = &choice->request;

  gh_request_defaults (r, state->can_apply ? (DialogAction) s->action
                                           : DIALOG_ACTION_NONE);
  r->mode = (gh_equalize_mode) s->mode;
  r->channel = dialog_state_binarize_channel (state);
  r->threshold = s->threshold;
  r->clip_limit = s->clip_limit;
  r->tiles_x = s->tiles_x;
  r->tiles_y = s->tiles_y;
  r->classes = s->classes;
  /* The markers' bins themselves: a whole level would lose up to 3 of
   * 1024 bins on the way to the operation and back.  Binarize's marker is
   * a level the user set, or Otsu's: over the whole range the operation
   * finds that bin itself, and a request without bins is one a live
   * filter can hold (the host's live_offered); Otsu over a part of the
   * range only the bin says.  Posterize's multi-level Otsu likewise. */
  if (r->operation == DIALOG_ACTION_POSTERIZE && ! full_range (state))
    {
      r->n_bins = state->n_posterize;
      memcpy (r->bins, state->posterize_bins,
              (gsize) r->n_bins * sizeof r->bins[0]);
    }
  else if (r->operation == DIALOG_ACTION_BINARIZE
           && s->threshold < 0 && ! full_range (state))
    {
      r->n_bins = 1;
      r->bins[0] = threshold_bin (state);
    }
  choice->reference = s->reference;
  choice->live = s->live;
  choice->too_few_levels = r->operation == DIALOG_ACTION_POSTERIZE
                           && state->n_posterize == 0;
}

gchar *
dialog_choice_refusal (const DialogChoice *choice)
{
  const gh_request *r = &choice->request;

  if (! choice->too_few_levels)
    return NULL;
  return g_strdup_printf ("fewer levels of %s are in use in the selected "
                          "range than there are classes; pick fewer "
                          "classes or more levels",
                          gh_channel_name ((gh_channel) r->channel));
}

void
dialog_state_view (const DialogState *state, HistogramView *view)
{
  histogram_view_init (view, state->hist->bins);
  for (gint c = 0; c < GH_NUM_CHANNELS; c++)
    view->counts[c] = state->counts[c];
  for (gint k = 0; k < state->n_columns; k++)
    view->shown |= 1u << state->columns[k];
  view->scale = (HistogramViewScale) state->settings.scale;
  view->lo = state->lo;
  view->hi = state->hi;
  view->hover = state->hover;

  if (state->settings.action == DIALOG_ACTION_BINARIZE && state->can_apply)
    {
      gchar label[32];

      g_snprintf (label, sizeof label, "%s %d",
                  state->settings.threshold < 0 ? "Otsu" : "threshold",
                  dialog_state_threshold (state));
      histogram_view_add_marker (view, threshold_bin (state),
                                 dialog_state_binarize_channel (state),
                                 label);
    }
  else if (state->settings.action == DIALOG_ACTION_POSTERIZE
           && state->can_apply)
    {
      gint levels[DIALOG_MAX_THRESHOLDS];
      gint n = dialog_state_posterize_levels (state, levels);

      for (gint i = 0; i < n; i++)
        {
          gchar label[32];

          g_snprintf (label, sizeof label, "Otsu %d", levels[i]);
          histogram_view_add_marker (view, state->posterize_bins[i],
                                     dialog_state_binarize_channel (state),
                                     label);
        }
    }
  else
    for (gint k = 0; k < state->n_columns; k++)
      if (state->stats[k].count > 0)
        {
          gchar label[32];

          g_snprintf (label, sizeof label, "Otsu %g", state->stats[k].otsu);
          histogram_view_add_marker (view, state->stats[k].otsu_bin,
                                     state->columns[k], label);
        }
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
  static const gchar *const labels[DIALOG_NUM_ACTIONS] = {
    [DIALOG_ACTION_NONE] = "_Analyze only (no change)",
    [DIALOG_ACTION_EQUALIZE] = "_Equalize",
    [DIALOG_ACTION_BINARIZE] = "_Binarize",
    [DIALOG_ACTION_CLAHE] = "C_LAHE (local contrast)",
    [DIALOG_ACTION_MATCH] = "Match to _reference",
    [DIALOG_ACTION_POSTERIZE] = "Posteri_ze",
  };

  return labels[gh_operation_get (action) ? action : DIALOG_ACTION_NONE];
}

const gchar *
dialog_mode_label (gint mode)
{
  return mode == 1 ? "Luminance only" : "Each channel";
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
  if (full_range (state))
    return g_strdup ("All levels (drag on the plot to pick a range)");
  return g_strdup_printf ("Levels %g\xe2\x80\x93%g (double-click for all)",
                          level (state, state->lo), level (state, state->hi));
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
      text = g_strdup_printf ("Level %g: %s pixels", level (state,
                                                            state->hover),
                              count);
      g_free (count);
      return text;
    }
  text = g_strdup_printf ("Level %g:", level (state, state->hover));
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
