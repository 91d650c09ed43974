/* results.h — what the CLI writes: the statistics on stdout, the histogram
 * as CSV and an image rewritten through an operation (image.h), the files
 * written whole (io/whole.h).  Each says what went wrong on stderr and returns -1.
 *
 *   cli_print_stats (&hist, 0, 255);
 *   cli_write_csv ("h.csv", &hist);
 *   cli_rewrite (&im, "eq.jpg", &op, quality);
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
 * cli_output_open's. */
int cli_rewrite (cli_image *im, const char *path, const gh_op *op,
                 int quality);

#endif
