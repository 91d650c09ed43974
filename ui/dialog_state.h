/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_state.h — the histogram dialog's model, without any toolkit.
 *
 * Everything the dialog shows and decides, kept apart from GTK so that the
 * dialog's widgets (dialog_widgets.c, built for GTK 2 and for GTK 3) and
 * the tests share it: the remembered settings, the selected range of
 * bins, the pointer's bin and drag, the statistics of the chosen channel
 * over that range (computed by the engine, gh_stats_compute), the
 * threshold a binarize would use, which controls can be used, the
 * message line, and what OK applies (equalize, binarize, CLAHE,
 * histogram matching, or a posterize at the multi-level Otsu thresholds
 * the plot marks).  The widgets only lay themselves out, feed their
 * events in here and show what comes back; what they show in words is
 * dialog_texts.h's.
 *
 *   DialogState st;
 *   dialog_state_init (&st, &hist, "cpu: 2 threads", 0.012, &settings);
 *   dialog_state_set_param (&st, GH_PARAM_CHANNEL, GH_CHANNEL_RED);
 *   dialog_state_set_range (&st, 10, 200);
 *   dialog_state_press (&st, bin, FALSE);  -- the pointer, as bins
 *   HistogramView view;  dialog_state_view (&st, &view);   -- to draw
 *   DialogChoice choice;  dialog_state_choice (&st, &choice); -- for OK
 *   dialog_state_clear (&st);
 *
 * The histogram must outlive the state; the settings are copied in and
 * read back from st.settings.
 */
#ifndef GH_UI_DIALOG_STATE_H
#define GH_UI_DIALOG_STATE_H

#include <glib.h>

#include "dialog_settings.h"

/* What OK applies: the vocabulary's request, binarize's Otsu and
 * posterize over a part of the range at the bins of the state's histogram
 * that the markers show (request.n_bins; over the whole range the
 * operation finds them itself, the same), match's reference as an item ID
 * (-1: none), and whether to leave it as a live filter (GIMP 3, where the
 * host can: settings.live).  too_few_levels: posterize with fewer levels
 * than classes in use in the range (dialog_choice_refusal).
 * request.operation GH_REQ_NONE: nothing. */
typedef struct
{
  gh_request request;
  gint32     reference;
  gboolean   live;
  gboolean   too_few_levels;
} DialogChoice;

/* The columns of the statistics table: one channel, or red, green and
 * blue for the overlay. */
#define DIALOG_MAX_COLUMNS 3

typedef struct
{
  const gh_histogram *hist;
  gdouble            *counts[GH_NUM_CHANNELS]; /* hist->bins each */
  gchar              *backend;
  gdouble             seconds;
  DialogSettings      settings;
  gint                lo, hi;   /* the selected bins */
  gint                hover;    /* -1: the pointer is not on the plot */
  gint                n_columns;
  gh_channel          columns[DIALOG_MAX_COLUMNS];
  gh_stats            stats[DIALOG_MAX_COLUMNS];
  gh_stats            binarize_stats; /* the binarize channel, same range */
  gint                n_posterize;    /* posterizing: the multi-level Otsu */
  gint                posterize_bins[DIALOG_MAX_THRESHOLDS]; /* thresholds
                                         of the binarize channel over the
                                         range; 0: fewer levels in use */
  gboolean            can_apply; /* FALSE: the layer cannot be changed, OK
                                    applies nothing (set it after init) */
  gint                drag_from; /* the bin a drag started on; -1: none */
  gchar              *message;   /* the message line; NULL: none */
  gboolean            message_from_preview; /* it is the preview's error */
} DialogState;

/* `seconds`: how long computing the histogram took.  Settings that do not
 * fit the histogram (a channel the layer lacks, a value out of range) are
 * replaced by the nearest sensible ones. */
void dialog_state_init (DialogState *state, const gh_histogram *hist,
                        const gchar *backend, gdouble seconds,
                        const DialogSettings *settings);
void dialog_state_clear (DialogState *state);

/* Whether the layer has this channel choice (RGB: red, green and blue). */
gboolean dialog_state_has_channel (const DialogState *state, gint channel);

void dialog_state_set_scale (DialogState *state, HistogramViewScale scale);
void dialog_state_set_action (DialogState *state, DialogAction action);
/* A parameter of the vocabulary (gh_request.h): clamped to its range
 * (integers whole, NaN ignored); the channel shown (GH_PARAM_CHANNEL: a
 * gh_channel or DIALOG_CHANNEL_RGB) only where the layer has it, and the
 * statistics follow it; threshold -1: back to Otsu. */
void dialog_state_set_param (DialogState *state, gh_param param,
                             gdouble value);
/* The channel shown: a gh_channel or DIALOG_CHANNEL_RGB. */
gint dialog_state_channel (const DialogState *state);
/* An item ID, as the host's reference picker gives it; -1: none. */
void dialog_state_set_reference (DialogState *state, gint32 reference);
void dialog_state_set_live (DialogState *state, gboolean live);
/* Bins in either order, clamped; the statistics follow, and the
 * settings keep the range as levels. */
void dialog_state_set_range (DialogState *state, gint from, gint to);
void dialog_state_reset_range (DialogState *state);
void dialog_state_set_hover (DialogState *state, gint bin);

/* The pointer on the plot, as bins (histogram_view_bin_at), as in GIMP's
 * histogram: a press picks one level (a double click: all levels), a drag
 * from there a range; the statistics follow.  Motion and release return
 * TRUE when they moved the range: a drag is on.  The preview should wait
 * for the release, so that a drag stays smooth; posterize's thresholds
 * (and their markers) wait for it too. */
void dialog_state_press (DialogState *state, gint bin, gboolean double_click);
/* Also moves the hover. */
gboolean dialog_state_motion (DialogState *state, gint bin);
gboolean dialog_state_release (DialogState *state, gint bin);
/* The pointer left the plot: no hover, unless a drag goes on. */
void dialog_state_leave (DialogState *state);

/* The channel a binarize (and a posterize) compares: the chosen one;
 * luminance under the RGB overlay (value on gray layers, where it is the
 * same level). */
gh_channel dialog_state_binarize_channel (const DialogState *state);
/* The threshold a binarize uses now, as a level 0..254 (what the slider
 * and the binarize procedure show): the fixed one, or Otsu of the
 * binarize channel over the selected range, rounded down. */
gint dialog_state_threshold (const DialogState *state);
/* The largest threshold the procedure accepts (254). */
gint dialog_state_max_threshold (const DialogState *state);

/* Whether these controls can be used now: the equalize mode (RGB layers
 * equalizing), the threshold slider (binarizing) and Use Otsu (binarizing
 * at a fixed threshold); none when the layer cannot be changed. */
gboolean dialog_state_mode_sensitive (const DialogState *state);
gboolean dialog_state_threshold_sensitive (const DialogState *state);
gboolean dialog_state_otsu_sensitive (const DialogState *state);
/* Whether the controls under `action`'s radio button can be used now:
 * that action is chosen and the layer can be changed (the mode, besides,
 * only on RGB layers: dialog_state_mode_sensitive). */
gboolean dialog_state_action_sensitive (const DialogState *state,
                                        DialogAction action);

/* Whether `action`'s control of `param` can be used now: the action's
 * (the mode's, besides, only on RGB layers). */
gboolean dialog_state_param_sensitive (const DialogState *state,
                                       DialogAction action, gh_param param);

/* Posterize's multi-level Otsu thresholds of the binarize channel over
 * the selected range, as levels 0..254 (rounded down, as the multi-Otsu
 * procedure returns them), ascending; how many (0 when fewer levels than
 * classes are in use, or not posterizing). */
gint dialog_state_posterize_levels (const DialogState *state,
                                    gint levels[DIALOG_MAX_THRESHOLDS]);
void dialog_state_choice (const DialogState *state, DialogChoice *choice);
/* Why OK cannot apply the choice (g_free it): a posterize that found no
 * thresholds, "fewer levels of luminance are in use ..."; NULL: it can. */
gchar *dialog_choice_refusal (const DialogChoice *choice);

/* A bin as a level on the 0..255 scale, as the statistics give them;
 * whether the selected range is every level. */
gdouble dialog_state_level (const DialogState *state, gint bin);
gboolean dialog_state_full_range (const DialogState *state);

/* The drawing's data: the chosen channel(s), scale, range, hover, and the
 * markers (the binarize threshold when binarizing, the classes - 1
 * multi-level Otsu thresholds when posterizing, else each column's Otsu
 * threshold).  Points into the state. */
void dialog_state_view (const DialogState *state, HistogramView *view);

/* The message line under the actions: what the last export said, or why
 * the preview failed; NULL: none.  A preview that works again clears its
 * own failure's message, not what an export said. */
const gchar *dialog_state_message (const DialogState *state);
void dialog_state_preview_done (DialogState *state, const GError *error);
void dialog_state_export_done (DialogState *state, const gchar *filename,
                               const GError *error);

#endif
