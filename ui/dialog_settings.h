/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_settings.h — what the histogram dialog remembers between runs:
 * its settings, a first run's for each procedure's dialog (from the
 * vocabulary, gh_request.h), a procedure's arguments written into them,
 * and remembered ones fitted back into range.
 *
 *   DialogSettings s;
 *   dialog_settings_for (&s, DIALOG_ACTION_BINARIZE);
 *   ... the host overwrites them with what it remembered ...
 *   dialog_settings_fit (&s);
 *   dialog_settings_set_request (&s, &request, reference_id);
 */
#ifndef GH_UI_DIALOG_SETTINGS_H
#define GH_UI_DIALOG_SETTINGS_H

#include <glib.h>

#include "gh_request.h"
#include "histogram_view.h"

/* The channel choice past GIMP's six: red, green and blue overlaid. */
#define DIALOG_CHANNEL_RGB GH_NUM_CHANNELS
#define DIALOG_NUM_CHANNEL_CHOICES (GH_NUM_CHANNELS + 1)

/* The dialog's actions are the vocabulary's operations (gh_request.h),
 * numbered as the remembered "action" setting has always been. */
typedef gh_operation DialogAction;
#define DIALOG_ACTION_NONE      GH_REQ_NONE /* analyse only: OK changes nothing */
#define DIALOG_ACTION_EQUALIZE  GH_REQ_EQUALIZE
#define DIALOG_ACTION_BINARIZE  GH_REQ_BINARIZE
#define DIALOG_ACTION_CLAHE     GH_REQ_CLAHE
#define DIALOG_ACTION_MATCH     GH_REQ_MATCH
#define DIALOG_ACTION_POSTERIZE GH_REQ_POSTERIZE
#define DIALOG_NUM_ACTIONS      GH_NUM_REQS

/* Posterize's thresholds at the most (binarize is one). */
#define DIALOG_MAX_THRESHOLDS     (GH_MULTI_OTSU_MAX_CLASSES - 1)

/* What is remembered between runs (gimp_set_data stores it as it is).
 * The operations' parameters are one array indexed by gh_param, in the
 * vocabulary's ranges; params[GH_PARAM_CHANNEL] is the channel shown,
 * which binarize and posterize compare (the RGB overlay's: luminance,
 * dialog_state_binarize_channel). */
typedef struct
{
  gdouble params[GH_NUM_PARAMS]; /* mode: equalize's, CLAHE's and match's;
                                    channel: a gh_channel or
                                    DIALOG_CHANNEL_RGB; threshold: -1 Otsu,
                                    0..254 a fixed one; ...             */
  gint32 scale;     /* HistogramViewScale                                */
  gint32 action;    /* DialogAction                                      */
  gdouble range_lo; /* the selected levels on the 0..255 scale: the      */
  gdouble range_hi; /* statistics' and Otsu's range, whatever the bins   */
  gint32 reference; /* match: the reference drawable's item ID (GIMP's
                       IDs are integers in both hosts); -1: none yet     */
  gint32 live;      /* GIMP 3: OK leaves the result as a live filter (the
                       GEGL module's) where the host offers it (DialogHooks
                       live_offered); 0 or 1                             */
} DialogSettings;

/* Settings for a first run: value, linear, analyse only, all levels, no
 * reference, merged (not live), and each parameter at the vocabulary's
 * default (gh_request_defaults: each channel, Otsu, CLAHE's grid ...).
 * dialog_settings_for: those of the dialog of the procedure whose action
 * is `action`, on it, with its own defaults (binarize on luminance,
 * CLAHE's luminance mode). */
void dialog_settings_defaults (DialogSettings *settings);
void dialog_settings_for (DialogSettings *settings, DialogAction action);
/* A request's parameters written into the settings (a procedure's
 * arguments remembered as its dialog's), its reference as `reference`;
 * a binarize's Otsu over all levels. */
void dialog_settings_set_request (DialogSettings *settings,
                                  const gh_request *request,
                                  gint32 reference);

/* Remembered settings out of range (another version's, or edited) back
 * to a first run's, the range of levels to all levels where it is not
 * one; the channel is left to the state, which knows the layer's. */
void dialog_settings_fit (DialogSettings *settings);

#endif
