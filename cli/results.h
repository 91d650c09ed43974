/* results.h — what the CLI writes: the statistics on stdout, the histogram
 * as CSV and an image rewritten through an operation, the files written
 * whole (io/whole.h).  Each says what went wrong on stderr and returns -1.
 *
 *   cli_print_stats (&hist, 0, 255);
 *   cli_write_csv ("h.csv", &hist);
 *   cli_rewrite (&im, "eq.pam", &op);
 */
#ifndef CLI_RESULTS_H
#define CLI_RESULTS_H

#include "gpu_histogram.h"
#include "pnm.h"

/* One CSV line per channel the histogram has, over bins lo..hi. */
void cli_print_stats (const gh_histogram *hist, int lo, int hi);

/* The histogram as the GIMP plug-ins export it. */
int cli_write_csv (const char *path, const gh_histogram *hist);

/* `im` read again from its first row and written to `path` through `op`,
 * each strip at its place (CLAHE's mapping depends on it). */
int cli_rewrite (pnm_image *im, const char *path, const gh_op *op);

#endif
