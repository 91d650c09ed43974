/* SPDX-License-Identifier: GPL-3.0-or-later */
/* resident.c — the GIMP 2.10 plug-in's resident process (resident.h). */
#include <string.h>
#include <unistd.h>

#include "resident.h"

/* Set while serving; the hooks are the host's. */
static const ResidentHooks *resident;
static gboolean             started, busy, trace;

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

/* After a call, an engine with a GPU, or starting one, stays for the
 * next calls; one on the CPU for good (no GPU, a GPU that failed, or one
 * not worth starting for this call's pixels: gh_options.expected_pixels)
 * goes, so the next call decides as in a process of its own. */
static void
keep_engine_with_gpu (void)
{
  if (*resident->engine && gh_engine_fallback_reason (*resident->engine))
    {
      gh_engine_destroy (*resident->engine);
      *resident->engine = NULL;
    }
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
  resident->run (name, nparams, param, nreturn_vals, return_vals);
  keep_engine_with_gpu ();
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
  /* GIMP's start-up waits for the ack only: the procedures follow (a call
   * before they are in goes to the plug-in, as without the resident). */
  gimp_extension_ack ();
  hooks->install_temporary (resident_run);
  for (;;)
    gimp_extension_process (0);
}
