/* SPDX-License-Identifier: GPL-3.0-or-later */
/* main.c — gpu-histogram for GIMP 3: the GimpPlugIn, and the runs of the
 * analyse and the operations' procedures.
 *
 * The procedures are those of the GIMP 2.10 plug-in, with the same names
 * and texts, in GIMP 3's form (register.h).  What they are and do is the
 * core's (plugin/core/: their texts, the operations' table actions.h, the
 * pixel work) and the dialog flow's (plugin/flow/, over flow_host.h);
 * this file marshals libgimp 3's configs into them and their results
 * back; export_batch.h runs the export and the batch.
 *
 * Run modes.  NONINTERACTIVE applies the arguments.  The procedures with a
 * dialog (analyse and the actions with one) otherwise run the dialog flow
 * (flow.h): the histogram dialog (ui/dialog_gtk3) in an interactive run
 * with a display; RUN-WITH-LAST-VALS (Filters > Repeat) and interactive
 * runs without a display (gimp-console) apply the remembered settings.
 * Settings live in each procedure's config, the dialog's extra ones as aux
 * arguments, and libgimp remembers them after every successful
 * interactive run (GIMP 3's rule: a NONINTERACTIVE run changes nothing
 * remembered).  Export asks for its file with the dialog's CSV file
 * chooser.  Multi-Otsu has no dialog of its own (the histogram dialog
 * offers posterize as an action): every run mode applies its config.
 *
 * One process per call, as in every GIMP, except scripts'
 * RUN-NONINTERACTIVE calls, which the resident process serves with the
 * same run functions (resident.h): the engine is created at the first
 * procedure that needs it, so a batch pays the GPU start-up once.
 */
#include <libgimp/gimp.h>

#include "call.h"
#include "core/call.h"
#include "filter.h"
#include "flow_host.h"
#include "host.h"
#include "register.h"
#include "resident.h"

#define GPU_HISTOGRAM_TYPE (gpu_histogram_get_type ())
G_DECLARE_FINAL_TYPE (GpuHistogram, gpu_histogram, GPU, HISTOGRAM, GimpPlugIn)

struct _GpuHistogram
{
  GimpPlugIn parent_instance;
};

G_DEFINE_TYPE (GpuHistogram, gpu_histogram, GIMP_TYPE_PLUG_IN)

GIMP_MAIN (GPU_HISTOGRAM_TYPE)

static GList *
query_procedures (GimpPlugIn *plug_in G_GNUC_UNUSED)
{
  return gimp3_procedure_names ();
}

/* The plug-in ships no translations: without this, GIMP 3 looks for a
 * catalog and prints "Localization disabled" for every procedure. */
static gboolean
gpu_histogram_set_i18n (GimpPlugIn   *plug_in G_GNUC_UNUSED,
                        const gchar  *name G_GNUC_UNUSED,
                        gchar       **gettext_domain G_GNUC_UNUSED,
                        gchar       **catalog_dir G_GNUC_UNUSED)
{
  return FALSE;
}


GimpValueArray *
gimp3_run_analyse (GimpProcedure *procedure, GimpRunMode run_mode,
                   GimpImage *image, GimpDrawable **drawables,
                   GimpProcedureConfig *config, gpointer data G_GNUC_UNUSED)
{
  const FlowHost    *host = gimp3_flow_host ();
  CoreTarget  target;
  GimpValueArray    *values = NULL;
  FlowResult         result;
  gh_histogram       hist;
  gdouble            stats[GH_NUM_STATS];
  gdouble            levels[GH_NUM_LEVELS];
  gdouble            seconds;
  gboolean           ok;
  GError            *error = NULL;

  gegl_init (NULL, NULL);
  gh_histogram_init (&hist);
  ok = gimp3_target (image, drawables, &target, &error)
       && (run_mode == GIMP_RUN_NONINTERACTIVE
             ? core_call_histogram (host->core, &gimp3_engine, &target, &hist,
                                    &seconds, &error)
             : flow_run (host, &gimp3_engine, &target, DIALOG_ACTION_NONE,
                         run_mode == GIMP_RUN_INTERACTIVE, config, &hist,
                         &result, &error)
                 && ! result.cancelled);
  if (ok)
    {
      gh_stats_table (&hist, stats);
      gh_histogram_levels (&hist, levels);
      values = gimp_procedure_new_return_values (procedure, GIMP_PDB_SUCCESS,
                                                 NULL);
      GIMP_VALUES_SET_STRING (values, 1, gh_engine_backend_name (gimp3_engine));
      GIMP_VALUES_SET_DOUBLE_ARRAY (values, 2, stats, GH_NUM_STATS);
      GIMP_VALUES_SET_DOUBLE_ARRAY (values, 3, levels, GH_NUM_LEVELS);
    }
  gh_histogram_clear (&hist);
  gimp3_call_end (run_mode);
  return ok ? values : gimp3_failure (procedure, error);
}

/* An action's procedure (actions.h) run NONINTERACTIVE: its config's
 * arguments applied as one undo step, through the GEGL module's filter
 * where GIMP has it (filter.h; merged, or live with the `live` argument),
 * else through the plug-in's pixels. */
static gboolean
apply_config (gh_operation op, const CoreTarget *target,
              GimpProcedureConfig *config, gh_request_result *result,
              GError **error)
{
  const CoreAction *action = core_action_get (op);
  CoreRequest       req;
  GimpDrawable     *reference = NULL;
  gdouble           values[CORE_ACTION_MAX_ARGS];
  gboolean          live = FALSE;
  Gimp3FilterStatus status;
  gboolean          ok;

  for (gint k = 0; k < action->n_args; k++)
    {
      const CoreArg *a = &action->args[k];
      gint           i = 0;

      values[k] = 0;
      if (a->kind == CORE_ARG_REFERENCE)
        g_object_get (config, a->text->name, &reference, NULL);
      else if (a->kind == CORE_ARG_PARAM
               && ! gh_param_get (a->param)->is_integer)
        g_object_get (config, a->text->name, &values[k], NULL);
      else
        g_object_get (config, a->text->name, &i, NULL);
      values[k] += i;
    }
  if (gimp3_filter_has_live (op))
    g_object_get (config, gimp3_arg_live.name, &live, NULL);
  gimp_image_undo_group_start (target->image);
  core_call_request (op, values, reference, &req);
  status = gimp3_filter_apply (target, &req, live, result, error);
  ok = status == GIMP3_FILTER_APPLIED
       || (status == GIMP3_FILTER_NOT_HERE
           && core_call_action (gimp3_host (), &gimp3_engine, target, op,
                                values, reference, &req, result, error));
  gimp_image_undo_group_end (target->image);
  g_clear_object (&reference);
  return ok;
}

/* The procedures of the operations' table, given their row's operation
 * (gimp3_procedure_new): the dialog flow, or a script's config applied;
 * binarize returns its threshold, multi-Otsu its thresholds (a script's
 * run). */
GimpValueArray *
gimp3_run_action (GimpProcedure *procedure, GimpRunMode run_mode,
                  GimpImage *image, GimpDrawable **drawables,
                  GimpProcedureConfig *config, gpointer data)
{
  gh_operation       op = GPOINTER_TO_INT (data);
  const CoreAction  *action = core_action_get (op);
  const FlowHost    *host = gimp3_flow_host ();
  CoreTarget  target;
  gh_request_result  result = { 0 };
  FlowResult         flow = { FALSE, FALSE, -1 };
  GimpValueArray    *values;
  gint32             thresholds[GH_MULTI_OTSU_MAX_CLASSES - 1];
  gh_histogram       hist;
  gboolean           ok;
  GError            *error = NULL;

  gegl_init (NULL, NULL);
  gh_histogram_init (&hist);
  ok = gimp3_target (image, drawables, &target, &error);
  if (ok && run_mode != GIMP_RUN_NONINTERACTIVE)
    {
      ok = flow_run (host, &gimp3_engine, &target, op,
                     run_mode == GIMP_RUN_INTERACTIVE, config, &hist, &flow,
                     &error)
           && ! flow.cancelled;
      result.levels[0] = flow.used;
    }
  else if (ok)
    ok = apply_config (op, &target, config, &result, &error);
  gh_histogram_clear (&hist);
  gimp3_call_end (run_mode);
  if (! ok)
    return gimp3_failure (procedure, error);
  values = gimp_procedure_new_return_values (procedure, GIMP_PDB_SUCCESS,
                                             NULL);
  if (action->returns == CORE_RETURN_THRESHOLD)
    GIMP_VALUES_SET_INT (values, 1, result.levels[0]);
  else if (action->returns == CORE_RETURN_THRESHOLDS)
    {
      for (gint k = 0; k < result.n; k++)
        thresholds[k] = result.levels[k];
      /* A live multi-Otsu has none: they follow the layer. */
      GIMP_VALUES_SET_INT32_ARRAY (values, 1, result.n ? thresholds : NULL,
                                   result.n);
    }
  return values;
}

static GimpProcedure *
gpu_histogram_create_procedure (GimpPlugIn *plug_in, const gchar *name)
{
  if (resident_is (name))
    return resident_procedure_new (plug_in, gimp3_procedure_new,
                                   &gimp3_engine);
  return gimp3_procedure_new (plug_in, name, FALSE);
}

static void
gpu_histogram_class_init (GpuHistogramClass *klass)
{
  GimpPlugInClass *plug_in_class = GIMP_PLUG_IN_CLASS (klass);

  plug_in_class->query_procedures = query_procedures;
  plug_in_class->create_procedure = gpu_histogram_create_procedure;
  plug_in_class->set_i18n = gpu_histogram_set_i18n;
  plug_in_class->quit = resident_quit;
}

static void
gpu_histogram_init (GpuHistogram *plug_in G_GNUC_UNUSED)
{
  /* babl 0.1.114 (GIMP 3.0) times its lookup tables in every new process
   * at the first conversion that could use one (a 256 MiB table filled
   * and benchmarked: 0.2 to 1 s measured), and a plug-in is a new
   * process at every call: that is often longer than the histogram
   * takes.  BABL_LUT=0 skips it.  GIMP creates this object before
   * libgimp's _gimp_config starts babl, so setting it here is in time; a
   * value the user set is kept. */
  g_setenv ("BABL_LUT", "0", FALSE);
  /* GEGL's tile cache here would be GIMP's (tile-cache-size: half the
   * memory by default) and keep every tile read or written, the whole
   * image and its shadow: pixels stream in strips, so a small cache bounds
   * the process (tests/plugin_memory.py).  gegl_init reads it after
   * libgimp has set GIMP's. */
  g_setenv ("GEGL_CACHE_SIZE", "64", TRUE);
}
