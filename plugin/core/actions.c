/* SPDX-License-Identifier: GPL-3.0-or-later */
/* actions.c — the plug-in's one table of operations and its one dispatch
 * (actions.h). */
#include "actions.h"

#include "beyond.h"
#include "errors.h"
#include "operations.h"

static gboolean
equalize (const CoreHost *host, gh_engine *engine, const CoreTarget *target,
          const CoreRequest *req, const gh_histogram *hist,
          const CoreProgress *progress, gh_request_result *result,
          GError **error)
{
  (void) result;
  return core_equalize (host, engine, target, req->request.mode, hist,
                        progress, error);
}

/* At the bin the dialog's marker shows, else at the threshold or Otsu's. */
static gboolean
binarize (const CoreHost *host, gh_engine *engine, const CoreTarget *target,
          const CoreRequest *req, const gh_histogram *hist,
          const CoreProgress *progress, gh_request_result *result,
          GError **error)
{
  const gh_request *r = &req->request;

  result->n = 1;
  if (r->n_bins > 0)
    {
      result->bins[0] = r->bins[0];
      result->levels[0] = gh_threshold_level (r->bins[0], hist->bins);
      return core_binarize_bin (host, target, r->channel, r->bins[0], hist,
                                progress, error);
    }
  return core_binarize (host, engine, target, r->channel, r->threshold,
                        hist, &result->levels[0], progress, error);
}

static gboolean
clahe (const CoreHost *host, gh_engine *engine, const CoreTarget *target,
       const CoreRequest *req, const gh_histogram *hist,
       const CoreProgress *progress, gh_request_result *result,
       GError **error)
{
  const gh_request *r = &req->request;

  (void) hist;
  (void) result;
  return core_clahe (host, engine, target, r->clip_limit, r->tiles_x,
                     r->tiles_y, r->mode, progress, error);
}

static gboolean
match (const CoreHost *host, gh_engine *engine, const CoreTarget *target,
       const CoreRequest *req, const gh_histogram *hist,
       const CoreProgress *progress, gh_request_result *result,
       GError **error)
{
  (void) result;
  if (! req->reference)
    {
      g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                   "%s: no drawable given", core_arg_reference.name);
      return FALSE;
    }
  return core_match (host, engine, target, req->reference,
                     req->request.mode, hist, progress, error);
}

/* At the bins the dialog's markers show, else multi-level Otsu's. */
static gboolean
posterize (const CoreHost *host, gh_engine *engine, const CoreTarget *target,
           const CoreRequest *req, const gh_histogram *hist,
           const CoreProgress *progress, gh_request_result *result,
           GError **error)
{
  const gh_request *r = &req->request;

  if (r->n_bins > 0)
    {
      result->n = r->n_bins;
      for (gint k = 0; k < r->n_bins; k++)
        {
          result->bins[k] = r->bins[k];
          result->levels[k] = gh_threshold_level (r->bins[k], hist->bins);
        }
      return core_posterize_bins (host, target, r->channel, r->n_bins,
                                  r->bins, hist, progress, error);
    }
  return core_multi_otsu (host, engine, target, r->channel, r->classes,
                          req->apply, hist, result->levels, &result->n,
                          progress, error);
}

static const CoreAction actions[GH_NUM_REQS] = {
  [GH_REQ_EQUALIZE] = { &core_proc_equalize, TRUE, 1,
                        { { CORE_ARG_PARAM, GH_PARAM_MODE,
                            &core_arg_mode } },
                        CORE_RETURN_NONE, equalize },
  [GH_REQ_BINARIZE] = { &core_proc_binarize, TRUE, 2,
                        { { CORE_ARG_PARAM, GH_PARAM_CHANNEL,
                            &core_arg_channel },
                          { CORE_ARG_PARAM, GH_PARAM_THRESHOLD,
                            &core_arg_threshold } },
                        CORE_RETURN_THRESHOLD, binarize },
  [GH_REQ_CLAHE] = { &core_proc_clahe, TRUE, 4,
                     { { CORE_ARG_PARAM, GH_PARAM_CLIP_LIMIT,
                         &core_arg_clip_limit },
                       { CORE_ARG_PARAM, GH_PARAM_TILES_X,
                         &core_arg_tiles_x },
                       { CORE_ARG_PARAM, GH_PARAM_TILES_Y,
                         &core_arg_tiles_y },
                       { CORE_ARG_PARAM, GH_PARAM_MODE,
                         &core_arg_mode } },
                     CORE_RETURN_NONE, clahe },
  [GH_REQ_MATCH] = { &core_proc_match, TRUE, 2,
                     { { CORE_ARG_REFERENCE, 0, &core_arg_reference },
                       { CORE_ARG_PARAM, GH_PARAM_MODE,
                         &core_arg_mode } },
                     CORE_RETURN_NONE, match },
  [GH_REQ_POSTERIZE] = { &core_proc_multi_otsu, FALSE, 3,
                         { { CORE_ARG_PARAM, GH_PARAM_CHANNEL,
                             &core_arg_channel },
                           { CORE_ARG_PARAM, GH_PARAM_CLASSES,
                             &core_arg_classes },
                           { CORE_ARG_APPLY, 0, &core_arg_apply } },
                         CORE_RETURN_THRESHOLDS, posterize },
};

const CoreAction *
core_action_get (gh_operation operation)
{
  if ((guint) operation >= GH_NUM_REQS || ! actions[operation].apply)
    return NULL;
  return &actions[operation];
}

gh_operation
core_action_lookup (const gchar *proc_name)
{
  for (gint o = 0; o < GH_NUM_REQS; o++)
    if (actions[o].proc && ! g_strcmp0 (actions[o].proc->name, proc_name))
      return (gh_operation) o;
  return GH_REQ_NONE;
}

void
core_request_defaults (CoreRequest *req, gh_operation operation)
{
  gh_request_defaults (&req->request, operation);
  req->reference = NULL;
  req->apply = TRUE;
}

void
core_request_set_arg (CoreRequest *req, const CoreArg *arg, gdouble value,
                      gpointer reference)
{
  if (arg->kind == CORE_ARG_PARAM)
    gh_request_set (&req->request, arg->param, value);
  else if (arg->kind == CORE_ARG_APPLY)
    /* Kept as given, so that core_action_apply can refuse it. */
    req->apply = value >= G_MAXINT ? G_MAXINT : (gint) value;
  else
    req->reference = reference;
}

gdouble
core_request_get_arg (const CoreRequest *req, const CoreArg *arg)
{
  if (arg->kind == CORE_ARG_PARAM)
    return gh_request_get (&req->request, arg->param);
  return arg->kind == CORE_ARG_APPLY ? req->apply : 0;
}

void
core_arg_range (gh_operation operation, const CoreArg *arg, gdouble *min,
                gdouble *max, gdouble *value)
{
  const gh_param_spec *spec = gh_param_get (arg->param);

  /* The menu entry's first multi-Otsu posterizes: something to see. */
  *min = 0;
  *max = 1;
  *value = 1;
  if (arg->kind == CORE_ARG_PARAM)
    {
      *min = spec->min;
      *max = spec->max;
      *value = gh_param_default (operation, arg->param);
    }
}

const gchar *
core_arg_blurb (const CoreArg *arg)
{
  return arg->kind == CORE_ARG_PARAM ? core_param_blurb (arg->param)
                                     : arg->text->blurb;
}

gboolean
core_request_check (const gh_request *request, GError **error)
{
  gh_error err;

  if (gh_request_check (request, &err) == GH_OK)
    return TRUE;
  g_set_error_literal (error, CORE_ERROR, CORE_ERROR_CALLING, err.message);
  return FALSE;
}

gboolean
core_action_apply (const CoreHost *host, gh_engine *engine,
                   const CoreTarget *target, const CoreRequest *req,
                   const gh_histogram *hist, const CoreProgress *progress,
                   gh_request_result *result, GError **error)
{
  const CoreAction *action = core_action_get (req->request.operation);
  gh_request_result own = { 0 };

  if (req->request.operation == GH_REQ_NONE)
    return TRUE;
  if (! core_request_check (&req->request, error))
    return FALSE;
  if (req->apply != FALSE && req->apply != TRUE)
    {
      g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                   "%s: %d is not 0 (compute only) or 1 (posterize)",
                   core_arg_apply.name, req->apply);
      return FALSE;
    }
  if (req->request.n_bins > 0 && ! hist)
    {
      g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                   "%s: threshold bins given without their histogram",
                   action->proc->name);
      return FALSE;
    }
  return action->apply (host, engine, target, req, hist, progress,
                        result ? result : &own, error);
}
