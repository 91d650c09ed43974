/* SPDX-License-Identifier: GPL-3.0-or-later */
/* actions.c — the plug-in's one table of operations (actions.h). */
#include "actions.h"

#include "errors.h"

static const CoreAction actions[GH_NUM_REQS] = {
  [GH_REQ_EQUALIZE] = { &core_proc_equalize, 1,
                        { { CORE_ARG_PARAM, GH_PARAM_MODE,
                            &core_arg_mode } },
                        CORE_RETURN_NONE },
  [GH_REQ_BINARIZE] = { &core_proc_binarize, 2,
                        { { CORE_ARG_PARAM, GH_PARAM_CHANNEL,
                            &core_arg_channel },
                          { CORE_ARG_PARAM, GH_PARAM_THRESHOLD,
                            &core_arg_threshold } },
                        CORE_RETURN_THRESHOLD },
  [GH_REQ_CLAHE] = { &core_proc_clahe, 4,
                     { { CORE_ARG_PARAM, GH_PARAM_CLIP_LIMIT,
                         &core_arg_clip_limit },
                       { CORE_ARG_PARAM, GH_PARAM_TILES_X,
                         &core_arg_tiles_x },
                       { CORE_ARG_PARAM, GH_PARAM_TILES_Y,
                         &core_arg_tiles_y },
                       { CORE_ARG_PARAM, GH_PARAM_MODE,
                         &core_arg_mode } },
                     CORE_RETURN_NONE },
  [GH_REQ_MATCH] = { &core_proc_match, 2,
                     { { CORE_ARG_REFERENCE, 0, &core_arg_reference },
                       { CORE_ARG_PARAM, GH_PARAM_MODE,
                         &core_arg_mode } },
                     CORE_RETURN_NONE },
  [GH_REQ_POSTERIZE] = { &core_proc_multi_otsu, 3,
                         { { CORE_ARG_PARAM, GH_PARAM_CHANNEL,
                             &core_arg_channel },
                           { CORE_ARG_PARAM, GH_PARAM_CLASSES,
                             &core_arg_classes },
                           { CORE_ARG_APPLY, 0, &core_arg_apply } },
                         CORE_RETURN_THRESHOLDS },
  [GH_REQ_STRETCH] = { &core_proc_stretch, 3,
                       { { CORE_ARG_PARAM, GH_PARAM_LOW, &core_arg_low },
                         { CORE_ARG_PARAM, GH_PARAM_HIGH, &core_arg_high },
                         { CORE_ARG_PARAM, GH_PARAM_MODE,
                           &core_arg_mode } },
                       CORE_RETURN_NONE },
};

const CoreAction *
core_action_get (gh_operation operation)
{
  if ((guint) operation >= GH_NUM_REQS || ! actions[operation].proc)
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
    /* Kept as given, so that core_apply_request can refuse it. */
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
