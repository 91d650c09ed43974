/* call.h — the start and end of a host's procedure call, alike in both
 * GIMPs.
 *
 * A call on a drawable asks GIMP once for the part inside the selection
 * (gimp_drawable_mask_intersect, the host's), hands that to the core and
 * starts from it: the engine sized for that work and, where the work is
 * long enough to be seen, the progress bar.  At its end the call forgets
 * what it asked and tells a GPU that was there and not used, once.
 *
 *   CoreDrawableFacts facts = { drawable, image, FALSE, 0, 0, 0, 0 };
 *   facts.intersects = gimp_drawable_mask_intersect (...);
 *   if (core_call_start (&host, &engine, &facts, "Equalizing (GPU)",
 *                        &progress, &error))
 *     core_equalize (&host, engine, drawable, mode, NULL, progress, &error);
 *   ...
 *   core_call_end (engine, interactive ? gimp_message : NULL);
 */
#ifndef GH_CORE_CALL_H
#define GH_CORE_CALL_H

#include "host.h"
#include "region.h"

/* Hands `facts` to the core (core_drawable_facts_give), makes sure of the
 * engine for the pixels inside the selection (core_engine_ensure), and
 * sets *progress: the whole bar, restarted with `text`
 * (host->progress_text), where that work shows one (core_progress_shown);
 * else NULL, and GIMP is asked nothing.  The bar comes first: a failed
 * engine still leaves *progress set. */
gboolean core_call_start (const CoreHost *host, gh_engine **engine,
                          const CoreDrawableFacts *facts, const gchar *text,
                          const CoreProgress **progress, GError **error);

/* The end of every call: what the run asked GIMP for the core is
 * forgotten (the next call is another's: the resident serves many), and a
 * GPU that was there and not used is told once (core_engine_fallback_note)
 * with `tell` (GIMP's message, in interactive use), or on stderr where
 * `tell` is NULL (scripts). */
void core_call_end (const gh_engine *engine,
                    gboolean (*tell) (const gchar *message));

#endif
