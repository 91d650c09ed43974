/* SPDX-License-Identifier: GPL-3.0-or-later */
/* photo_run.h — a folder of JPEG photos through the GPU (gpu/photo/
 * gh_photo.h, where the build has nvJPEG): in batches of 32 files, read
 * ahead by reader threads from the start (while the device starts), two
 * lanes (threads, started at once) each running a batch on the device
 * (decoded, counted, equalized and encoded there) and handing it to writer
 * threads, so one lane's decoding overlaps the other's encoding and the
 * files' reads and writes overlap the device (equalize or match of each channel,
 * binarize, CLAHE or posterize: one operation a run); the statistics,
 * --histogram and the files are those of the CPU path's run but for the
 * codecs (doc/cli.md: nvJPEG's decoder and encoder are not libjpeg's).  A file the GPU path refuses
 * (CMYK, 12-bit, damaged, a GPU failure) goes through the CPU path
 * (`fallback`), with one line saying why.
 *
 *   if (cli_photo_takes (o, &why)) ... cli_photo_run (o, fb, arg, &progress, &rc)
 */
#ifndef CLI_PHOTO_RUN_H
#define CLI_PHOTO_RUN_H

#include "options.h"
#include "progress.h"

/* Whether this run is the GPU path's (--decoder, every input and output a
 * JPEG, statistics and at most one of --equalize and --match of each
 * channel, --binarize, --clahe and --posterize, the build): 1, or 0 with
 * *why saying why not. */
int cli_photo_takes (const cli_options *o, const char **why);

/* Runs every input: 0 with *rc the run's exit status, or -1 when the GPU
 * path could not start (said where --decoder gpu asked for it): nothing
 * was done, the caller runs the CPU path.  fallback (arg, i) runs input i
 * through the CPU path, printing on the streams set: 0, 1 when it failed
 * (said), 2 when there is no engine. */
int cli_photo_run (const cli_options *o, int (*fallback) (void *, int),
                   void *arg, cli_progress *progress, int *rc);

#endif
