/* resident.c — the GIMP 2.10 plug-in's resident process (resident.h). */
#include <string.h>
#include <unistd.h>

#include "resident.h"

/* Set while serving; the hooks are the host's. */
static const ResidentHooks *resident;
static gboolean             started, busy, trace;
/* The pixels the kept engine was made for (0: not known, any). */
static gsize made_for;

void
resident_install (void)
{
  gimp_install_procedure (core_proc_resident.name, core_proc_resident.blurb,
                          core_proc_resident.help, CORE_AUTHOR,
                          CORE_COPYRIGHT, CORE_DATE, NULL, NULL,
                          GIMP_EXTENSION, 0, 0, NULL, NULL);
}

gboolean
resident_is (const gchar *name)
{
  return ! strcmp (name, core_proc_resident.name);
}

void
resident_quit (void)
{
  if (resident)
    _exit (0);
}

/* Under AUTO an engine starts a GPU only for work that outlasts the
 * start (gh_options.expected_pixels): a kept engine made for fewer pixels
 * than this call counts is replaced, so the call decides as in a process
 * of its own, and a GPU once started stays. */
static void
engine_for (const GimpParam *param, gint nparams)
{
  gsize pixels;

  if (nparams >= 3 && param[2].type == GIMP_PDB_DRAWABLE
      && gimp_item_is_valid (param[2].data.d_drawable))
    pixels = (gsize) gimp_drawable_width (param[2].data.d_drawable)
             * (gsize) gimp_drawable_height (param[2].data.d_drawable);
  else if (nparams >= 2 && param[1].type == GIMP_PDB_STRING)
    pixels = 0; /* the batch: not known */
  else
    return;
  if (*resident->engine && made_for != 0
      && (pixels == 0 || pixels > made_for))
    {
      gh_engine_destroy (*resident->engine);
      *resident->engine = NULL;
    }
  if (! *resident->engine)
    made_for = pixels;
}

/* The temporary procedures' run. */
static void
resident_run (const gchar *name, gint nparams, const GimpParam *param,
              gint *nreturn_vals, GimpParam **return_vals)
{
  static GimpParam pass[1];

  if (nparams < 1 || param[0].data.d_int32 != GIMP_RUN_NONINTERACTIVE
      || busy)
    {
      if (trace)
        g_printerr ("gpu-histogram resident %d: %s passed on (%s)\n",
                    (gint) getpid (), name, busy ? "busy" : "run mode");
      pass[0].type = GIMP_PDB_STATUS;
      pass[0].data.d_status = GIMP_PDB_PASS_THROUGH;
      *nreturn_vals = 1;
      *return_vals = pass;
      return;
    }
  busy = TRUE;
  if (! started)
    {
      resident->start ();
      started = TRUE;
    }
  engine_for (param, nparams);
  resident->run (name, nparams, param, nreturn_vals, return_vals);
  if (trace)
    g_printerr ("gpu-histogram resident %d: %s served\n", (gint) getpid (),
                name);
  busy = FALSE;
}

void
resident_serve (const ResidentHooks *hooks, gint *nreturn_vals,
                GimpParam **return_vals)
{
  static GimpParam values[1];
  const gchar     *mode = g_getenv ("GPU_HISTOGRAM_RESIDENT");

  values[0].type = GIMP_PDB_STATUS;
  values[0].data.d_status = GIMP_PDB_SUCCESS;
  *nreturn_vals = 1;
  *return_vals = values;
  if (mode && ! strcmp (mode, "0"))
    {
      /* Off: GIMP goes on at the ack; returning ends the process. */
      gimp_extension_ack ();
      return;
    }
  trace = mode && ! strcmp (mode, "trace");
  resident = hooks;
  hooks->install_temporary (resident_run);
  gimp_extension_ack ();
  for (;;)
    gimp_extension_process (0);
}
