/* errors.c — the plug-in's GError domain. */
#include "errors.h"

G_DEFINE_QUARK (gpu-histogram-plugin-error-quark, gh_plugin_error)

GimpPDBStatusType
errors_pdb_status (const GError *error)
{
  if (g_error_matches (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_CALLING))
    return GIMP_PDB_CALLING_ERROR;
  return GIMP_PDB_EXECUTION_ERROR;
}

gboolean
errors_from_engine (gh_status status, const gh_error *engine_error,
                    GError **error)
{
  if (status == GH_OK)
    return TRUE;
  /* An engine error at this point is never the caller's fault: the
   * plug-in checked the arguments before handing pixels over. */
  g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_FAILED,
               "histogram engine: %s", engine_error->message);
  return FALSE;
}
