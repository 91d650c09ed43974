/* SPDX-License-Identifier: GPL-3.0-or-later */
/* actions.h — the plug-in's one table of operations.
 *
 * For each operation of the vocabulary (gpu/gh_request.h): the procedure
 * that runs it, that procedure's arguments after the image and drawable
 * (each a vocabulary parameter, match's reference or multi-Otsu's apply;
 * their names, ranges and defaults are the vocabulary's) and what it
 * returns.  Nothing here applies an operation: every request goes through
 * core_apply_request (apply.h).  Both hosts register the procedures'
 * arguments by looping over `args`.  Adding an operation: its row here.
 *
 *   CoreRequest req;
 *   core_request_defaults (&req, GH_REQ_CLAHE);
 *   for (gint k = 0; k < action->n_args; k++)
 *     core_request_set_arg (&req, &action->args[k], value_k, NULL);
 *   gh_request_result res;
 *   core_apply_request (host, engine, &target, &req, NULL, progress, &res,
 *                       &error);
 */
#ifndef GH_CORE_ACTIONS_H
#define GH_CORE_ACTIONS_H

#include "gh_request.h"
#include "procedures.h"
#include "region.h"

/* What a procedure argument is. */
typedef enum
{
  CORE_ARG_PARAM = 0, /* a vocabulary parameter (int or double)          */
  CORE_ARG_REFERENCE, /* match's reference drawable                      */
  CORE_ARG_APPLY      /* multi-Otsu's 0: thresholds only, 1: posterize   */
} CoreArgKind;

typedef struct
{
  CoreArgKind        kind;
  gh_param           param; /* CORE_ARG_PARAM's                          */
  const CoreArgText *text;  /* its name (the vocabulary's), nick, blurb  */
} CoreArg;

#define CORE_ACTION_MAX_ARGS (GH_REQ_MAX_PARAMS + 1)

/* One operation applied to one drawable: the vocabulary's request, match's
 * reference (the host's handle; NULL: none) and whether to change pixels
 * (multi-Otsu's apply 0 computes its thresholds only). */
typedef struct
{
  gh_request request;
  gpointer   reference;
  gboolean   apply;
} CoreRequest;

/* What the procedure returns besides its status. */
typedef enum
{
  CORE_RETURN_NONE = 0,
  CORE_RETURN_THRESHOLD, /* binarize: the level used (-1: none)          */
  CORE_RETURN_THRESHOLDS /* multi-Otsu: the levels                      */
} CoreReturn;

typedef struct
{
  const CoreProcText *proc;   /* its procedure; its progress text; its
                                 runs other than NONINTERACTIVE are the
                                 dialog's, on this operation
                                 (plugin/flow)                          */
  gint                n_args; /* after the image and drawable           */
  CoreArg             args[CORE_ACTION_MAX_ARGS];
  CoreReturn          returns;
} CoreAction;

/* NULL for GH_REQ_NONE and values out of range. */
const CoreAction *core_action_get (gh_operation operation);
/* The operation whose procedure is `proc_name`; GH_REQ_NONE: none. */
gh_operation core_action_lookup (const gchar *proc_name);

/* The vocabulary's defaults of `operation`, no reference, applied. */
void core_request_defaults (CoreRequest *req, gh_operation operation);
/* One argument's value into `req`: a parameter's number, apply's 0 or 1,
 * or the reference's handle (`reference`; value unused). */
void core_request_set_arg (CoreRequest *req, const CoreArg *arg,
                           gdouble value, gpointer reference);
/* One argument's value in `req` (the reference's: 0). */
gdouble core_request_get_arg (const CoreRequest *req, const CoreArg *arg);
/* An argument's range and default for `operation`'s procedure. */
void core_arg_range (gh_operation operation, const CoreArg *arg,
                     gdouble *min, gdouble *max, gdouble *value);
/* An argument's description as the procedure shows it: its text's, or
 * a vocabulary parameter's (core_param_blurb); lives as long as the
 * process. */
const gchar *core_arg_blurb (const CoreArg *arg);
/* The vocabulary's check (gh_request_check) as a calling error. */
gboolean core_request_check (const gh_request *request, GError **error);

#endif
