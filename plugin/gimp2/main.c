/* SPDX-License-Identifier: GPL-3.0-or-later */
/* main.c — gpu-histogram for GIMP 2.10: the plug-in's entry points and the
 * runs of its procedures (the despeckle.c flow: query, run, process).
 *
 * What the procedures are and do is the core's (plugin/core/: their texts,
 * the operations' table actions.h, the pixel work) and the dialog flow's
 * (plugin/flow/, over flow_host.h); register.h installs them, and this
 * file marshals GIMP 2.10's arguments into them and their results back;
 * export_batch.h runs the export and the batch.  One process per call, except scripts' RUN-NONINTERACTIVE calls,
 * which the resident process serves with the same code (resident.h); a
 * process creates one engine, at the first procedure that needs it, so a
 * batch pays the GPU start-up once.  Settings are kept with gimp_set_data
 * after every successful run, so RUN-WITH-LAST-VALS repeats them: the
 * dialog's (DialogSettings) for the procedures with a dialog, whose
 * NONINTERACTIVE runs remember their arguments there too; the export's
 * file and the batch's arguments.  Without a display, an interactive run
 * repeats the last settings.
 */
#include <string.h>

#include <libgimp/gimp.h>

#include "call.h"
#include "errors.h"
#include "export_batch.h"
#include "flow_host.h"
#include "host.h"
#include "register.h"
#include "resident.h"
#include "settings.h"

static void query (void);
static void run (const gchar *name, gint nparams, const GimpParam *param,
                 gint *nreturn_vals, GimpParam **return_vals);

const GimpPlugInInfo PLUG_IN_INFO = { NULL, resident_quit, query, run };

static gh_engine *engine;

MAIN ()

static void
query (void)
{
  gimp2_register (NULL);
  resident_install ();
}

static gboolean
run_analyse (GimpRunMode run_mode, gint nparams, const GimpParam *param,
             GimpParam *values, gint *nreturn_vals, gboolean *changed,
             GError **error)
{
  /* Returned values must outlive run(): libgimp sends them afterwards. */
  static gdouble    stats[GH_NUM_STATS];
  static gdouble    counts[GH_NUM_LEVELS];
  static gchar      backend[256];
  CoreTarget target;
  FlowResult        result;
  gh_histogram      hist;
  gdouble           seconds;
  gboolean          ok;

  if (! gimp2_target (run_mode, nparams, N_IMAGE_PARAMS, param, &target,
                    error))
    return FALSE;
  gh_histogram_init (&hist);
  ok = run_mode == GIMP_RUN_NONINTERACTIVE
         ? core_call_histogram (&gimp2_host, &engine, &target, &hist,
                                &seconds, error)
         : flow_run (&gimp2_flow_host, &engine, &target, DIALOG_ACTION_NONE,
                     run_mode == GIMP_RUN_INTERACTIVE,
                     (gpointer) core_proc_analyse.name, &hist, &result,
                     error);
  if (ok)
    {
      *changed = run_mode != GIMP_RUN_NONINTERACTIVE && result.changed;
      gh_stats_table (&hist, stats);
      gh_histogram_levels (&hist, counts);
      g_strlcpy (backend, gh_engine_backend_name (engine), sizeof backend);
      values[1].type = GIMP_PDB_STRING;
      values[1].data.d_string = backend;
      values[2].type = GIMP_PDB_INT32;
      values[2].data.d_int32 = GH_NUM_STATS;
      values[3].type = GIMP_PDB_FLOATARRAY;
      values[3].data.d_floatarray = stats;
      values[4].type = GIMP_PDB_INT32;
      values[4].data.d_int32 = GH_NUM_LEVELS;
      values[5].type = GIMP_PDB_FLOATARRAY;
      values[5].data.d_floatarray = counts;
      *nreturn_vals = 6;
    }
  gh_histogram_clear (&hist);
  return ok;
}

/* An action's procedure (actions.h) run NONINTERACTIVE: the arguments
 * given, applied and remembered as the dialog's settings. */
static gboolean
apply_arguments (gh_operation op, const GimpParam *param,
                 const CoreTarget *target, CoreRequest *req,
                 gh_request_result *result, GError **error)
{
  const CoreAction *action = core_action_get (op);
  const gchar      *proc = action->proc->name;
  DialogSettings    s;
  gdouble           values[CORE_ACTION_MAX_ARGS];
  gint32            reference = -1;

  for (gint k = 0; k < action->n_args; k++)
    {
      const GimpParam *p = &param[N_IMAGE_PARAMS + k];

      values[k] = p->type == GIMP_PDB_FLOAT ? p->data.d_float
                                            : p->data.d_int32;
      if (action->args[k].kind == CORE_ARG_REFERENCE)
        reference = p->data.d_drawable;
    }
  if (! core_call_action (&gimp2_host, &engine, target, op, values,
                          GIMP2_HANDLE (reference), req, result, error))
    return FALSE;
  dialog_settings_for (&s, op);
  gimp2_settings_load ((gpointer) proc, op, &s);
  s.action = op;
  dialog_settings_set_request (&s, &req->request, reference);
  gimp_set_data (proc, &s, sizeof s);
  return TRUE;
}

/* The procedures of the operations' table: the dialog's flow, or a
 * script's arguments applied; binarize returns its threshold, multi-Otsu
 * its thresholds (a script's run). */
static gboolean
run_action (gh_operation op, GimpRunMode run_mode, gint nparams,
            const GimpParam *param, GimpParam *values, gint *nreturn_vals,
            gboolean *changed, GError **error)
{
  /* Returned values must outlive run(): libgimp sends them afterwards. */
  static gint32       thresholds[GH_MULTI_OTSU_MAX_CLASSES - 1];
  const CoreAction   *action = core_action_get (op);
  CoreTarget   target;
  CoreRequest         req;
  gh_request_result   result = { 0 };
  FlowResult          flow;
  gh_histogram        hist;
  gboolean            ok;

  if (! gimp2_target (run_mode, nparams, N_IMAGE_PARAMS + action->n_args,
                    param, &target, error))
    return FALSE;
  if (run_mode == GIMP_RUN_NONINTERACTIVE)
    {
      ok = apply_arguments (op, param, &target, &req, &result, error);
      *changed = ok && req.apply;
    }
  else
    {
      gh_histogram_init (&hist);
      ok = flow_run (&gimp2_flow_host, &engine, &target, op,
                     run_mode == GIMP_RUN_INTERACTIVE,
                     (gpointer) action->proc->name, &hist, &flow, error);
      gh_histogram_clear (&hist);
      *changed = ok && flow.changed;
      result.n = flow.used >= 0;
      result.levels[0] = flow.used;
    }
  if (! ok)
    return FALSE;
  if (action->returns == CORE_RETURN_THRESHOLD)
    {
      values[1].type = GIMP_PDB_INT32;
      values[1].data.d_int32 = result.n ? result.levels[0] : -1;
      *nreturn_vals = 2;
    }
  else if (action->returns == CORE_RETURN_THRESHOLDS)
    {
      for (gint k = 0; k < result.n; k++)
        thresholds[k] = result.levels[k];
      values[1].type = GIMP_PDB_INT32;
      values[1].data.d_int32 = result.n;
      values[2].type = GIMP_PDB_INT32ARRAY;
      values[2].data.d_int32array = thresholds;
      *nreturn_vals = 3;
    }
  return TRUE;
}

/* GEGL for the plug-in's buffers, once per process. */
static void
start_gegl (void)
{
  /* The plug-in uses GEGL's buffers, never its operations: without a
   * module folder gegl_init loads none, which was 56 % of a small call's
   * time (BENCHMARKS.md, 2026-11-23).  A plug-in process only. */
  g_setenv ("GEGL_PATH", "/nonexistent/gpu-histogram/no-gegl-modules", TRUE);
  /* GEGL's tile cache here would be GIMP's (tile-cache-size: half the
   * memory by default) and keep every tile read or written, the whole
   * image and its shadow: pixels stream in strips, so a small cache bounds
   * the process (tests/plugin_memory.py).  gegl_init reads it after
   * libgimp has set GIMP's. */
  g_setenv ("GEGL_CACHE_SIZE", "64", TRUE);
  gegl_init (NULL, NULL);
}

/* One call of a procedure, in this process or the resident one. */
static void
run_call (const gchar *name, gint nparams, const GimpParam *param,
          gint *nreturn_vals, GimpParam **return_vals)
{
  static GimpParam values[6];
  static gchar     message[1024];
  GimpRunMode      run_mode = nparams > 0 ? param[0].data.d_int32
                                          : GIMP_RUN_NONINTERACTIVE;
  gh_operation     op = core_action_lookup (name);
  GError          *error = NULL;
  gboolean         changed = FALSE;
  gboolean         ok;

  *nreturn_vals = 1;
  *return_vals = values;
  values[0].type = GIMP_PDB_STATUS;

  if (op != GH_REQ_NONE)
    ok = run_action (op, run_mode, nparams, param, values, nreturn_vals,
                     &changed, &error);
  else if (! strcmp (name, core_proc_analyse.name))
    ok = run_analyse (run_mode, nparams, param, values, nreturn_vals,
                      &changed, &error);
  else if (! strcmp (name, core_proc_export.name))
    ok = gimp2_run_export (run_mode, nparams, param, &engine, &error);
  else if (! strcmp (name, core_proc_batch.name))
    ok = gimp2_run_batch (run_mode, nparams, param, &engine, &error);
  else
    {
      g_set_error (&error, CORE_ERROR, CORE_ERROR_CALLING,
                   "unknown procedure %s", name);
      ok = FALSE;
    }

  if (changed && run_mode != GIMP_RUN_NONINTERACTIVE)
    gimp_displays_flush ();
  values[0].data.d_status = ok ? GIMP_PDB_SUCCESS : gimp2_pdb_status (error);
  if (error && core_action_get (op)
      && core_action_get (op)->returns == CORE_RETURN_THRESHOLDS)
    {
      /* Its return values are an INT32 and the INT32ARRAY of that length:
       * GIMP 2.10 pads a shorter reply to them and sends the array with
       * the length read from value 1, which a STRING there makes garbage
       * (the caller crashes).  So its message is GIMP's message; the
       * status says calling or execution error. */
      gimp_message (error->message);
      g_error_free (error);
    }
  else if (error)
    {
      /* GIMP shows a second STRING value of a failed call as its error
       * message (and Script-Fu prints it). */
      g_strlcpy (message, error->message, sizeof message);
      values[1].type = GIMP_PDB_STRING;
      values[1].data.d_string = message;
      *nreturn_vals = 2;
      g_error_free (error);
    }
  core_call_end (engine, run_mode == GIMP_RUN_INTERACTIVE ? gimp_message
                                                          : NULL);
}

static void
run (const gchar *name, gint nparams, const GimpParam *param,
     gint *nreturn_vals, GimpParam **return_vals)
{
  const ResidentHooks hooks = { gimp2_register, start_gegl, run_call,
                                &engine };

  if (resident_is (name))
    {
      resident_serve (&hooks, nreturn_vals, return_vals);
      return;
    }
  start_gegl ();
  run_call (name, nparams, param, nreturn_vals, return_vals);
  gh_engine_destroy (engine);
  engine = NULL;
}
