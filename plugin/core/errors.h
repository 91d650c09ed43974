/* SPDX-License-Identifier: GPL-3.0-or-later */
/* errors.h — the plug-in's GError domain, shared by the core and hosts.
 *
 * Every module reports failures as a GError in CORE_ERROR; the code says
 * which PDB status a procedure returns (each host maps it to its own
 * GimpPDBStatusType), so the decision is made once, where the problem is
 * found:
 *
 *   g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
 *                "threshold %d is out of range", t);
 */
#ifndef GH_CORE_ERRORS_H
#define GH_CORE_ERRORS_H

#include <glib.h>

#include "gpu_histogram.h"

#define CORE_ERROR (core_error_quark ())

typedef enum
{
  CORE_ERROR_CALLING, /* a bad argument: GIMP_PDB_CALLING_ERROR        */
  CORE_ERROR_FAILED   /* it could not be done: GIMP_PDB_EXECUTION_ERROR */
} CoreError;

GQuark core_error_quark (void);

/* Whether a GError is a calling error (else an execution error). */
gboolean core_error_is_calling (const GError *error);

/* Turns an engine status into a GError; TRUE when it was GH_OK. */
gboolean core_error_from_engine (gh_status status,
                                 const gh_error *engine_error,
                                 GError **error);

#endif
