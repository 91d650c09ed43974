/* call.c — the start and end of a host's procedure call (call.h). */
#include "call.h"

#include "operations.h"

gboolean
core_call_start (const CoreHost *host, gh_engine **engine,
                 const CoreDrawableFacts *facts, const gchar *text,
                 const CoreProgress **progress, GError **error)
{
  static const CoreProgress whole = { 0.0, 1.0 };
  /* None is still one: 0 would tell the engine nothing. */
  gsize pixels = facts->intersects
                   ? MAX ((gsize) facts->width * facts->height, 1) : 1;

  core_drawable_facts_give (facts);
  *progress = NULL;
  if (core_progress_shown (pixels))
    {
      host->progress_text (text);
      *progress = &whole;
    }
  return core_engine_ensure (engine, pixels, error);
}

void
core_call_end (const gh_engine *engine,
               gboolean (*tell) (const gchar *message))
{
  gchar *note = core_engine_fallback_note (engine);

  core_drawable_facts_give (NULL);
  if (note && tell)
    tell (note);
  else if (note)
    g_printerr ("gpu-histogram: %s\n", note);
  g_free (note);
}
