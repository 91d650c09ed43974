/* SPDX-License-Identifier: GPL-3.0-or-later */
/* resident.c — the GIMP 3 plug-in's resident process (resident.h). */
#include <string.h>
#include <unistd.h>

#include "resident.h"

/* Set while serving. */
static gh_engine **engine;
static gboolean    busy, trace;

gboolean
resident_is (const gchar *name)
{
  return ! g_strcmp0 (name, core_proc_resident.name);
}

gboolean
resident_serving (void)
{
  return engine != NULL;
}

void
resident_quit (GimpPlugIn *plug_in G_GNUC_UNUSED)
{
  if (engine)
    _exit (0);
}

/* GIMP runs the next procedure of the name: the plug-in's.  libgimp's
 * gimp_procedure_new_return_values refuses this status, so it is made
 * here. */
static GimpValueArray *
pass_through (GimpProcedure *procedure, const gchar *why)
{
  GimpValueArray *values = gimp_value_array_new (1);
  GValue          status = G_VALUE_INIT;

  if (trace)
    g_printerr ("gpu-histogram resident %d: %s passed on (%s)\n",
                (gint) getpid (), gimp_procedure_get_name (procedure), why);
  g_value_init (&status, GIMP_TYPE_PDB_STATUS_TYPE);
  g_value_set_enum (&status, GIMP_PDB_PASS_THROUGH);
  gimp_value_array_append (values, &status);
  g_value_unset (&status);
  return values;
}

/* The end of a served call.  An engine with a GPU, or starting one,
 * stays for the next calls; one on the CPU for good (no GPU, a GPU that
 * failed, or one not worth starting for this call's pixels:
 * gh_options.expected_pixels) goes, so the next call decides as in a
 * process of its own. */
static void
served (GimpProcedure *procedure)
{
  if (*engine && gh_engine_fallback_reason (*engine))
    {
      gh_engine_destroy (*engine);
      *engine = NULL;
    }
  busy = FALSE;
  if (trace)
    g_printerr ("gpu-histogram resident %d: %s served\n", (gint) getpid (),
                gimp_procedure_get_name (procedure));
}

typedef struct
{
  GimpRunImageFunc run;
  gpointer         data;
} ImageRun;

static GimpValueArray *
run_image (GimpProcedure *procedure, GimpRunMode run_mode, GimpImage *image,
           GimpDrawable **drawables, GimpProcedureConfig *config,
           gpointer data)
{
  const ImageRun *r = data;
  GimpValueArray *values;

  if (run_mode != GIMP_RUN_NONINTERACTIVE || busy)
    return pass_through (procedure, busy ? "busy" : "run mode");
  busy = TRUE;
  values = r->run (procedure, run_mode, image, drawables, config, r->data);
  served (procedure);
  return values;
}

GimpProcedure *
resident_image_procedure_new (GimpPlugIn *plug_in, const gchar *name,
                              GimpRunImageFunc run, gpointer run_data)
{
  ImageRun *r = g_new (ImageRun, 1);

  r->run = run;
  r->data = run_data;
  return gimp_image_procedure_new (plug_in, name,
                                   GIMP_PDB_PROC_TYPE_TEMPORARY, run_image,
                                   r, g_free);
}

typedef struct
{
  GimpRunFunc run;
} PlainRun;

static GimpValueArray *
run_plain (GimpProcedure *procedure, GimpProcedureConfig *config,
           gpointer data)
{
  const PlainRun *r = data;
  GimpValueArray *values;
  GimpRunMode     run_mode;

  g_object_get (config, "run-mode", &run_mode, NULL);
  if (run_mode != GIMP_RUN_NONINTERACTIVE || busy)
    return pass_through (procedure, busy ? "busy" : "run mode");
  busy = TRUE;
  values = r->run (procedure, config, NULL);
  served (procedure);
  return values;
}

GimpProcedure *
resident_plain_procedure_new (GimpPlugIn *plug_in, const gchar *name,
                              GimpRunFunc run)
{
  PlainRun *r = g_new (PlainRun, 1);

  r->run = run;
  return gimp_procedure_new (plug_in, name, GIMP_PDB_PROC_TYPE_TEMPORARY,
                             run_plain, r, g_free);
}

typedef struct
{
  ResidentProcedureNew procedure_new;
  gh_engine          **engine;
} Serve;

static GimpValueArray *
serve (GimpProcedure *procedure, GimpProcedureConfig *config G_GNUC_UNUSED,
       gpointer data)
{
  const Serve *s = data;
  GimpPlugIn  *plug_in = gimp_procedure_get_plug_in (procedure);
  const gchar *mode = g_getenv ("GPU_HISTOGRAM_RESIDENT");
  GList       *names, *l;

  if (mode && ! strcmp (mode, "0"))
    {
      /* Off: GIMP goes on when ready; returning ends the process. */
      gimp_procedure_persistent_ready (procedure);
      return gimp_procedure_new_return_values (procedure, GIMP_PDB_SUCCESS,
                                               NULL);
    }
  trace = mode && ! strcmp (mode, "trace");
  engine = s->engine;
  /* GIMP's start-up waits for this only: the procedures follow (a call
   * before they are in goes to the plug-in, as without the resident). */
  gimp_procedure_persistent_ready (procedure);
  names = GIMP_PLUG_IN_GET_CLASS (plug_in)->query_procedures (plug_in);
  for (l = names; l; l = l->next)
    if (! resident_is (l->data))
      {
        GimpProcedure *temporary = s->procedure_new (plug_in, l->data, TRUE);

        gimp_plug_in_add_temp_procedure (plug_in, temporary);
        g_object_unref (temporary);
      }
  g_list_free_full (names, g_free);
  for (;;)
    gimp_plug_in_persistent_process (plug_in, 0);
}

GimpProcedure *
resident_procedure_new (GimpPlugIn          *plug_in,
                        ResidentProcedureNew procedure_new,
                        gh_engine          **kept)
{
  Serve         *s = g_new (Serve, 1);
  GimpProcedure *procedure;

  s->procedure_new = procedure_new;
  s->engine = kept;
  procedure = gimp_procedure_new (plug_in, core_proc_resident.name,
                                  GIMP_PDB_PROC_TYPE_PERSISTENT, serve, s,
                                  g_free);
  gimp_procedure_set_documentation (procedure, core_proc_resident.blurb,
                                    core_proc_resident.help,
                                    core_proc_resident.name);
  gimp_procedure_set_attribution (procedure, CORE_AUTHOR, CORE_COPYRIGHT,
                                  CORE_DATE);
  return procedure;
}
