/* operations.h — what the procedures do to one drawable: analyse,
 * equalize, binarize, export.
 *
 * Written once for the PDB procedures, the batch and the dialog (its
 * preview and OK).  Those that count pixels take the plug-in's one engine;
 * the apply operations take the drawable's histogram when the caller
 * already has it (else NULL: they compute it; operations_binarize_bin
 * needs it), change only the selection, and are one undo step.  On error the drawable is unchanged and `error` says why, with
 * GH_PLUGIN_ERROR_CALLING for a bad argument.
 *
 *   gh_histogram hist;  gh_histogram_init (&hist);
 *   operations_histogram (engine, drawable, &hist, NULL, &error);
 *   operations_stats (&hist, stats);
 *   operations_equalize (engine, drawable, OPERATIONS_EQUALIZE_CHANNELS,
 *                        &hist, NULL, &error);
 *   gh_histogram_clear (&hist);
 */
#ifndef GH_PLUGIN_OPERATIONS_H
#define GH_PLUGIN_OPERATIONS_H

#include <libgimp/gimp.h>

#include "gpu_histogram.h"
#include "pixels.h"

/* Per channel: count, min, max, mean, median, std-dev, otsu. */
#define OPERATIONS_STATS_PER_CHANNEL 7
#define OPERATIONS_NUM_STATS (GH_NUM_CHANNELS * OPERATIONS_STATS_PER_CHANNEL)
#define OPERATIONS_BINS 256
#define OPERATIONS_NUM_BINS (GH_NUM_CHANNELS * OPERATIONS_BINS)

typedef enum
{
  OPERATIONS_EQUALIZE_CHANNELS = 0, /* R, G, B (or gray) independently */
  OPERATIONS_EQUALIZE_LUMINANCE = 1 /* luminance only, hue kept        */
} OperationsEqualizeMode;

/* "value", "red", ... in GIMP's channel order. */
const gchar *operations_channel_name (gint channel);

/* The histogram of the drawable's part inside the selection. */
gboolean operations_histogram (gh_engine *engine, gint32 drawable,
                               gh_histogram *hist,
                               const PixelsProgress *progress,
                               GError **error);

/* Statistics in GIMP's channel order; all zeros for channels the
 * drawable lacks; min, max and median are -1 where the count is 0. */
void operations_stats (const gh_histogram *hist,
                       gdouble stats[OPERATIONS_NUM_STATS]);

/* The weighted counts of the 256 levels 0..255, channel-major.  A
 * histogram of more bins (1024 above 8 bits) adds each bin k to level
 * round (k * 255 / (bins - 1)). */
void operations_counts (const gh_histogram *hist,
                        gdouble counts[OPERATIONS_NUM_BINS]);

/* Whether equalize and binarize may rewrite this drawable's pixels (not
 * indexed, a group or locked); the dialog asks before offering them, the
 * operations before touching any pixel. */
gboolean operations_check_changeable (gint32 drawable, GError **error);

gboolean operations_equalize (gh_engine *engine, gint32 drawable, gint mode,
                              const gh_histogram *hist,
                              const PixelsProgress *progress,
                              GError **error);

/* threshold: -1 Otsu on the channel, or a level 0..254 (levels above it
 * turn white); the one used goes to *used, as a level (Otsu's last dark
 * bin's level, rounded down). */
gboolean operations_binarize (gh_engine *engine, gint32 drawable,
                              gint channel, gint threshold,
                              const gh_histogram *hist, gint *used,
                              const PixelsProgress *progress,
                              GError **error);

/* Binarizes at a bin of `hist`, the drawable's histogram: pixels whose
 * bin in the channel is above `bin` turn white.  What the dialog applies:
 * exactly the bin its marker shows, where a level 0..254 would be coarser
 * than a histogram of 1024 bins. */
gboolean operations_binarize_bin (gint32 drawable, gint channel, gint bin,
                                  const gh_histogram *hist,
                                  const PixelsProgress *progress,
                                  GError **error);

/* The histogram as CSV: bin,value,red,green,blue,alpha,luminance; one
 * row per level 0..255 (operations_counts). */
gboolean operations_write_csv (const gh_histogram *hist,
                               const gchar *filename, GError **error);

/* The drawable's histogram, computed, as operations_write_csv writes it. */
gboolean operations_export (gh_engine *engine, gint32 drawable,
                            const gchar *filename,
                            const PixelsProgress *progress, GError **error);

#endif
