/* errors.h — the plug-in's GError domain.
 *
 * Every module reports failures as a GError in GH_PLUGIN_ERROR; the code
 * says which PDB status the procedure returns, so the decision is made once,
 * where the problem is found:
 *
 *   g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_CALLING,
 *                "threshold %d is out of range", t);
 *   ...
 *   status = errors_pdb_status (error);
 */
#ifndef GH_PLUGIN_ERRORS_H
#define GH_PLUGIN_ERRORS_H

#include <libgimp/gimp.h>

#include "gpu_histogram.h"

#define GH_PLUGIN_ERROR (gh_plugin_error_quark ())

typedef enum
{
  GH_PLUGIN_ERROR_CALLING, /* a bad argument: GIMP_PDB_CALLING_ERROR    */
  GH_PLUGIN_ERROR_FAILED   /* it could not be done: GIMP_PDB_EXECUTION_ERROR */
} GhPluginError;

GQuark gh_plugin_error_quark (void);

/* The PDB status for an error set by this plug-in (EXECUTION_ERROR for
 * any other domain). */
GimpPDBStatusType errors_pdb_status (const GError *error);

/* Turns an engine status into a GError; TRUE when it was GH_OK. */
gboolean errors_from_engine (gh_status status, const gh_error *engine_error,
                             GError **error);

#endif
