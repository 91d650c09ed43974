/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_settings.c — what the histogram dialog remembers between runs
 * (dialog_settings.h). */
#include "dialog_settings.h"

void
dialog_settings_defaults (DialogSettings *settings)
{
  dialog_settings_for (settings, GH_REQ_NONE);
}

void
dialog_settings_for (DialogSettings *settings, DialogAction action)
{
  gh_request first;

  /* Every parameter at the action's own first value, or at the first
   * value of the first operation that takes it (gh_request_defaults). */
  gh_request_defaults (&first, action);
  for (gint p = 0; p < GH_NUM_PARAMS; p++)
    settings->params[p] = gh_request_get (&first, (gh_param) p);
  /* The plot's first view is the value, unless the action compares a
   * channel of its own (binarize's luminance). */
  if (gh_operation_param (action, GH_PARAM_CHANNEL) < 0)
    settings->params[GH_PARAM_CHANNEL] = GH_CHANNEL_VALUE;
  settings->scale = HISTOGRAM_VIEW_LINEAR;
  settings->action = action;
  settings->range_lo = 0;
  settings->range_hi = 255;
  settings->reference = -1;
  settings->live = FALSE;
}

void
dialog_settings_set_request (DialogSettings *settings,
                             const gh_request *request, gint32 reference)
{
  const gh_operation_spec *spec = gh_operation_get (request->operation);

  for (gint k = 0; spec && k < spec->n_params; k++)
    {
      settings->params[spec->params[k]]
        = gh_request_get (request, spec->params[k]);
      /* The procedure's Otsu is over all levels. */
      if (spec->params[k] == GH_PARAM_THRESHOLD)
        {
          settings->range_lo = 0;
          settings->range_hi = 255;
        }
    }
  if (request->operation == GH_REQ_MATCH)
    settings->reference = reference;
}

void
dialog_settings_fit (DialogSettings *s)
{
  if (s->scale != HISTOGRAM_VIEW_LOG)
    s->scale = HISTOGRAM_VIEW_LINEAR;
  if (! gh_operation_get (s->action))
    s->action = GH_REQ_NONE;
  /* A remembered value out of the vocabulary's range (NaN fails the check
   * too) is the first value of the first operation that takes it. */
  for (gint p = 0; p < GH_NUM_PARAMS; p++)
    {
      gh_error err;

      if (p != GH_PARAM_CHANNEL
          && gh_param_check ((gh_param) p, s->params[p], &err) != GH_OK)
        s->params[p] = gh_param_default (GH_REQ_NONE, (gh_param) p);
    }
  if (s->reference < 0)
    s->reference = -1;
  s->live = s->live != 0;
  if (! (s->range_lo >= 0 && s->range_hi <= 255 && s->range_lo <= s->range_hi))
    {
      s->range_lo = 0;
      s->range_hi = 255;
    }
}
