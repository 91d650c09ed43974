/* choice.h — the dialog flow's part that no GIMP version changes.
 *
 * Both hosts run the same dialog flow (ui/dialog_state.h's model under
 * their own toolkit): the settings a procedure's dialog starts from, what
 * OK (and the preview) applies, and the statistics message an analyse
 * shows where there is no dialog, and the format the preview draws in.
 *
 *   DialogSettings defaults;
 *   core_choice_defaults (DIALOG_ACTION_BINARIZE, &defaults);
 *   ... the last settings, else defaults; dialog_state_init; the dialog ...
 *   dialog_state_choice (&state, &choice);
 *   core_apply_choice (host, engine, drawable, &choice, &hist, TRUE, &error);
 */
#ifndef GH_CORE_CHOICE_H
#define GH_CORE_CHOICE_H

#include "dialog_state.h"
#include "host.h"

/* A first run's settings for the dialog of the procedure whose action is
 * `action` (DIALOG_ACTION_NONE: analyse): binarize starts on luminance,
 * as the procedure's Otsu on luminance. */
void core_choice_defaults (DialogAction action, DialogSettings *defaults);

/* Applies the dialog's choice to the drawable (one undo step) with the
 * histogram the dialog showed; DIALOG_ACTION_NONE changes nothing.
 * `show_progress`: under the host's progress bar, with its text (OK);
 * the preview runs without, at every change of the choice. */
gboolean core_apply_choice (const CoreHost *host, gh_engine *engine,
                            gpointer drawable, const DialogChoice *choice,
                            const gh_histogram *hist, gboolean show_progress,
                            GError **error);

/* The statistics of every channel the histogram has, as one message
 * (g_free it): what an analyse run shows without a dialog. */
gchar *core_statistics_text (const gh_histogram *hist, const gchar *backend);

/* A run without the dialog (no display, or repeated): the choice the
 * state's settings make, and when that applies nothing the statistics
 * message to show instead (g_free it); NULL otherwise. */
gchar *core_choice_without_dialog (const DialogState *state,
                                   const gchar *backend,
                                   DialogChoice *choice);

/* The 8-bit format of the drawable's type, what GIMP's drawable previews
 * draw: "Y'(A) u8" or "R'G'B'(A) u8"; NULL when it does not exist. */
const Babl *core_preview_format (const CoreHost *host, gpointer drawable);

/* The dialog's preview of `choice` on the drawable's rectangle (x, y,
 * width, height): the rectangle copied into a scratch layer of the same
 * type and precision (host->scratch_layer), the choice applied there by
 * the same code as OK with the histogram the dialog shows, and read back
 * in core_preview_format, rows *rowstride bytes apart (g_free them).  So
 * the preview is what OK does, pixel for pixel.  NULL with no error:
 * nothing to apply. */
guchar *core_preview_pixels (const CoreHost *host, gh_engine *engine,
                             gpointer drawable, const DialogChoice *choice,
                             const gh_histogram *hist, gint x, gint y,
                             gint width, gint height, gint *rowstride,
                             GError **error);

#endif
