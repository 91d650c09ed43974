/* SPDX-License-Identifier: GPL-3.0-or-later */
/* errors.c — the plug-in's GError domain, shared by the core and hosts. */
#include "errors.h"

G_DEFINE_QUARK (gpu-histogram-core-error-quark, core_error)

gboolean
core_error_is_calling (const GError *error)
{
  return g_error_matches (error, CORE_ERROR, CORE_ERROR_CALLING);
}

gboolean
core_error_from_engine (gh_status status, const gh_error *engine_error,
                        GError **error)
{
  if (status == GH_OK)
    return TRUE;
  /* An engine error at this point is never the caller's fault: the core
   * checked the arguments before handing pixels over. */
  g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED, "histogram engine: %s",
               engine_error->message);
  return FALSE;
}
