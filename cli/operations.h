/* SPDX-License-Identifier: GPL-3.0-or-later */
/* operations.h — one operation the CLI's options ask for: its gh_request
 * (options.h), what it needs counted (a reference, a CLAHE pass: count.h),
 * its preparation through the vocabulary (gh_request_prepare), its
 * thresholds printed (binarize, posterize) and the image rewritten through
 * it (results.h).
 *
 *   if (cli_reads_whole (&o, &im)) cli_image_read_whole (&im);
 *   ... count `hist`
 *   for (int k = GH_REQ_NONE + 1; k < GH_NUM_REQS; k++)
 *     if (cli_wants (&o, k))
 *       cli_run_operation (engine, &o, k, &im, &hist, &decode);
 */
#ifndef CLI_OPERATIONS_H
#define CLI_OPERATIONS_H

#include "options.h"
#include "image.h"

/* On stdout: "threshold: T" (binarize) or "thresholds: T1,T2,..."
 * (posterize), as levels; the GPU photo path prints them alike. */
void cli_print_thresholds (gh_operation operation,
                           const gh_request_result *res);
/* Whether an operation `options` asks of `im` reads it whole (CLAHE
 * written to a file, of CLI_CLAHE_WHOLE_BYTES at most): then the image
 * read whole once, before its count, is not read from its file again. */
int cli_reads_whole (const cli_options *options, const cli_image *im);
/* `im` is open and `hist` its histogram; 0, or -1 (said on stderr). */
int cli_run_operation (gh_engine *engine, const cli_options *options,
                       gh_operation operation, cli_image *im,
                       const gh_histogram *hist, double *decode);

#endif
