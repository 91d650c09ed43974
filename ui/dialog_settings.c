/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_settings.c — what the histogram dialog remembers between runs
 * (dialog_settings.h). */
#include "dialog_settings.h"

void
dialog_settings_defaults (DialogSettings *settings)
{
  dialog_settings_for (settings, GH_REQ_NONE);
}

/* The field of the settings that keeps a parameter. */
static void
settings_set (DialogSettings *s, gh_param param, gdouble value)
{
  switch (param)
    {
    case GH_PARAM_MODE: s->mode = (gint32) value; break;
    case GH_PARAM_CHANNEL: s->channel = (gint32) value; break;
    case GH_PARAM_THRESHOLD: s->threshold = (gint32) value; break;
    case GH_PARAM_CLIP_LIMIT: s->clip_limit = value; break;
    case GH_PARAM_TILES_X: s->tiles_x = (gint32) value; break;
    case GH_PARAM_TILES_Y: s->tiles_y = (gint32) value; break;
    case GH_PARAM_CLASSES: s->classes = (gint32) value; break;
    default: break;
    }
}

void
dialog_settings_for (DialogSettings *settings, DialogAction action)
{
  const gh_operation_spec *own = gh_operation_get (action);
  gh_request               first;

  /* The dialog's own first view: value, each channel; then CLAHE's and
   * posterize's first values, then the action's own. */
  gh_request_defaults (&first, action);
  settings->channel = GH_CHANNEL_VALUE;
  settings->scale = HISTOGRAM_VIEW_LINEAR;
  settings->action = action;
  settings->mode = GH_EQUALIZE_CHANNELS;
  settings->threshold = first.threshold;
  settings->range_lo = 0;
  settings->range_hi = 255;
  settings->clip_limit = first.clip_limit;
  settings->tiles_x = first.tiles_x;
  settings->tiles_y = first.tiles_y;
  settings->reference = -1;
  settings->classes = first.classes;
  settings->live = FALSE;
  for (gint k = 0; own && k < own->n_params; k++)
    settings_set (settings, own->params[k], own->defaults[k]);
}

void
dialog_settings_set_request (DialogSettings *settings,
                             const gh_request *request, gint32 reference)
{
  const gh_operation_spec *spec = gh_operation_get (request->operation);

  for (gint k = 0; spec && k < spec->n_params; k++)
    {
      settings_set (settings, spec->params[k],
                    gh_request_get (request, spec->params[k]));
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

/* A remembered value of `param`: itself where it is in the vocabulary's
 * range, else `operation`'s default. */
static gdouble
fit (gh_operation operation, gh_param param, gdouble value)
{
  gh_error err;

  return gh_param_check (param, value, &err) == GH_OK
           ? value : gh_param_default (operation, param);
}

void
dialog_settings_fit (DialogSettings *s)
{
  if (s->scale != HISTOGRAM_VIEW_LOG)
    s->scale = HISTOGRAM_VIEW_LINEAR;
  if (! gh_operation_get (s->action))
    s->action = GH_REQ_NONE;
  if (s->mode != GH_EQUALIZE_LUMINANCE)
    s->mode = GH_EQUALIZE_CHANNELS;
  /* NaN fails the checks too. */
  s->threshold = fit (GH_REQ_BINARIZE, GH_PARAM_THRESHOLD, s->threshold);
  s->clip_limit = fit (GH_REQ_CLAHE, GH_PARAM_CLIP_LIMIT, s->clip_limit);
  s->tiles_x = fit (GH_REQ_CLAHE, GH_PARAM_TILES_X, s->tiles_x);
  s->tiles_y = fit (GH_REQ_CLAHE, GH_PARAM_TILES_Y, s->tiles_y);
  if (s->reference < 0)
    s->reference = -1;
  s->classes = fit (GH_REQ_POSTERIZE, GH_PARAM_CLASSES, s->classes);
  s->live = s->live != 0;
  if (! (s->range_lo >= 0 && s->range_hi <= 255 && s->range_lo <= s->range_hi))
    {
      s->range_lo = 0;
      s->range_hi = 255;
    }
}
