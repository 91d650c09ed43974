/* SPDX-License-Identifier: GPL-3.0-or-later */
/* count.h — the CLI's passes that read an image (image.h) through the
 * engine a strip at a time, so memory stays bounded: its histogram (under a mask),
 * a reference file's, and CLAHE's tile histograms.  Each says what went
 * wrong on stderr and returns -1; the time spent reading the files is
 * added to *decode (--timings).
 *
 *   cli_count (engine, &im, NULL, GH_LUMINANCE_PERCEPTUAL, &hist, &decode);
 */
#ifndef CLI_COUNT_H
#define CLI_COUNT_H

#include "gpu_histogram.h"
#include "image.h"

/* The rows read, applied and written at a time. */
#define CLI_STRIP_ROWS 256

/* Seconds on a monotonic clock. */
double cli_now (void);

/* An engine is used by one thread at a time, and main.c may run several
 * files at once: every engine call of the work on a file holds this lock
 * (cli_count and cli_clahe_pass take it themselves), the apply of a CLAHE
 * op too, as it runs on the engine's threads. */
void cli_engine_lock (void);
void cli_engine_unlock (void);

/* The histogram of `im` (read from where it stands: just opened) where
 * `mask` (NULL: everywhere; an 8-bit gray image of im's size) is
 * nonzero. */
int cli_count (gh_engine *engine, cli_image *im, cli_image *mask,
               gh_luminance luminance, gh_histogram *hist, double *decode);

/* The histogram of the image file at `path`. */
int cli_count_file (gh_engine *engine, const char *path,
                    gh_luminance luminance, gh_histogram *hist,
                    double *decode);

/* `im` read again from its first row into a gh_clahe of `params`
 * (*clahe: destroy it with gh_clahe_destroy). */
int cli_clahe_pass (gh_engine *engine, const gh_clahe_params *params,
                    gh_luminance luminance, cli_image *im, gh_clahe **clahe,
                    double *decode);

#endif
