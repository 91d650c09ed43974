/* SPDX-License-Identifier: GPL-3.0-or-later */
/* results.h — what the CLI writes: the statistics on stdout, the histogram
 * as CSV and an image rewritten through an operation (image.h), the files
 * written whole (io/whole.h).  Each says what went wrong on stderr and returns -1.
 *
 *   cli_print_stats (&hist, 0, 255);
 *   cli_write_csv ("h.csv", &hist);
 *   cli_rewrite (&im, "eq.jpg", &op, quality, upright);
 *   cli_rewrite_clahe (engine, &im, &params, luminance, "c.png", 0, upright,
 *                      &decode);
 */
#ifndef CLI_RESULTS_H
#define CLI_RESULTS_H

#include "gpu_histogram.h"
#include "image.h"

/* One CSV line per channel the histogram has, over the levels lo..hi
 * (0..255: bins lo..hi of 256, their nearest of more). */
void cli_print_stats (const gh_histogram *hist, int lo, int hi);

/* The histogram as the GIMP plug-ins export it. */
int cli_write_csv (const char *path, const gh_histogram *hist);

/* `im` read again from its first row and written to `path` through `op`,
 * each strip at its place (CLAHE's mapping depends on it); `quality` as
 * cli_output_open's.  `upright` (--auto-orient): the result turned
 * upright by the input's EXIF orientation, and the tag 1; an orientation
 * other than 1 holds the image whole in memory (its decoded size, and a
 * strip), the pixels being written in another order than read. */
int cli_rewrite (cli_image *im, const char *path, const gh_op *op,
                 int quality, int upright);

/* CLAHE of `params` over `im` read again from its first row, whole into
 * memory, through gh_clahe_image (one read, and on a GPU one crossing
 * each way), written to `path`; the same bytes as cli_clahe_pass and
 * cli_rewrite give.  For images of at most CLI_CLAHE_WHOLE_BYTES: larger
 * ones take those strips, so memory stays bounded.  `last`: no pass reads
 * `im` after this one, so pixels it holds whole (cli_image_read_whole)
 * are equalized where they lie, not copied. */
#define CLI_CLAHE_WHOLE_BYTES ((size_t) 256 << 20)
int cli_rewrite_clahe (gh_engine *engine, cli_image *im,
                       const gh_clahe_params *params, gh_luminance luminance,
                       const char *path, int quality, int upright,
                       int last, double *decode);

#endif
