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
 *   CorePreview *preview = core_preview_new (host, engine, drawable, &hist);
 *   ... the dialog's preview hook: core_preview_pixels (preview, ...) ...
 *   core_preview_free (preview);
 *   dialog_state_choice (&state, &choice);
 *   core_apply_choice (host, engine, drawable, &choice, reference, &hist,
 *                      TRUE, &error);
 *
 * Match's reference comes in the choice as an item ID; the host turns it
 * into its own drawable handle (`reference`, NULL when the ID names no
 * drawable) before calling here.
 */
#ifndef GH_CORE_CHOICE_H
#define GH_CORE_CHOICE_H

#include "dialog_state.h"
#include "region.h"

/* A first run's settings for the dialog of the procedure whose action is
 * `action` (DIALOG_ACTION_NONE: analyse): binarize starts on luminance,
 * as the procedure's Otsu on luminance. */
void core_choice_defaults (DialogAction action, DialogSettings *defaults);

/* Applies the dialog's choice to the drawable (one undo step) with the
 * histogram the dialog showed; DIALOG_ACTION_NONE changes nothing.
 * `reference`: match's reference drawable (the host's handle of
 * choice->reference), else unused.  `show_progress`: under the host's
 * progress bar, with its text (OK); the preview runs without, at every
 * change of the choice. */
gboolean core_apply_choice (const CoreHost *host, gh_engine *engine,
                            gpointer drawable, const DialogChoice *choice,
                            gpointer reference, const gh_histogram *hist,
                            gboolean show_progress, GError **error);

/* Posterizes the drawable at `n` ascending bins of `hist`, its histogram
 * (the dialog's multi-level Otsu thresholds over its range, exactly the
 * bins its markers show), by `channel`: what the dialog applies, as
 * core_binarize_bin for one threshold.  n 0: the dialog found fewer
 * levels in use than classes, said as an error. */
gboolean core_posterize_bins (const CoreHost *host, gpointer drawable,
                              gint channel, gint n, const gint *bins,
                              const gh_histogram *hist,
                              const CoreProgress *progress, GError **error);

/* The statistics of every channel the histogram has, as one message
 * (g_free it): what an analyse run shows without a dialog. */
gchar *core_statistics_text (const gh_histogram *hist, const gchar *backend);

/* A run without the dialog (no display, or repeated): the choice the
 * state's settings make, and when that applies nothing the statistics
 * message to show instead (g_free it); NULL otherwise. */
gchar *core_choice_without_dialog (const DialogState *state,
                                   const gchar *backend,
                                   DialogChoice *choice);

/* The 8-bit format of the drawable's type in its own colour space, what
 * GIMP's drawable previews draw: "Y'(A) u8" or "R'G'B'(A) u8"; NULL when
 * it does not exist. */
const Babl *core_preview_format (const CoreHost *host, gpointer drawable);

/* The dialog's preview of its choices on one drawable, with the
 * histogram the dialog shows; what it keeps between two previews: the
 * CLAHE operation prepared over the whole region for the parameters last
 * previewed (CLAHE maps a pixel by the tiles around it, so a preview
 * rectangle cannot be equalized on its own).  All must outlive it. */
typedef struct _CorePreview CorePreview;

CorePreview *core_preview_new (const CoreHost *host, gh_engine *engine,
                               gpointer drawable, const gh_histogram *hist);
void core_preview_free (CorePreview *preview);

/* The preview of `choice` on the drawable's rectangle (x, y, width,
 * height), read back in core_preview_format, rows *rowstride bytes apart
 * (g_free them).  The rectangle is copied into a scratch layer of the
 * same type and precision (host->scratch_layer) and the choice applied
 * there by the same code as OK with the dialog's histogram; CLAHE's
 * prepared operation is applied to the part inside the region at its
 * place in the region.  So the preview is what OK does, pixel for pixel.
 * NULL with no error: nothing to apply. */
guchar *core_preview_pixels (CorePreview *preview, const DialogChoice *choice,
                             gpointer reference, gint x, gint y, gint width,
                             gint height, gint *rowstride, GError **error);

#endif
