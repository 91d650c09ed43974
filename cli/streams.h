/* SPDX-License-Identifier: GPL-3.0-or-later */
/* streams.h — where the CLI's output and messages go: stdout and stderr,
 * or, while a file is processed on a worker thread (main.c's several
 * files at once), that file's own buffers, which main.c then writes out
 * in input order.  Every print of the per-file work goes through these.
 *
 *   fprintf (cli_out (), ...);  fprintf (cli_err (), ...);
 *   cli_streams_set (out, err);   -- this thread's; NULL, NULL: the
 *                                    process's stdout and stderr again
 */
#ifndef CLI_STREAMS_H
#define CLI_STREAMS_H

#include <stdio.h>

FILE *cli_out (void);
FILE *cli_err (void);
void cli_streams_set (FILE *out, FILE *err);

#endif
