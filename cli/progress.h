/* SPDX-License-Identifier: GPL-3.0-or-later */
/* progress.h — a run over several inputs as the user sees it on stderr:
 * one progress line (files done of all, files a second, time left), drawn
 * only where stderr is a terminal, and one summary line at the end (how
 * many done, how many refused and the first reasons).  Neither with one
 * input or --quiet.  Not thread-safe: the caller serialises the calls.
 *
 *   cli_progress p;  cli_progress_init (&p, n_inputs, quiet);
 *   a file ended:    cli_progress_file (&p, ok, what it said on stderr);
 *   before printing: cli_progress_clear (&p);   after: cli_progress_draw (&p);
 *   at the end:      cli_progress_finish (&p);   -- prints the summary
 */
#ifndef CLI_PROGRESS_H
#define CLI_PROGRESS_H

#include <stddef.h>

#define CLI_PROGRESS_REASONS 3 /* refusals named in the summary */

typedef struct {
  int total, done, refused;
  int summary;   /* print the summary */
  int line;      /* draw the progress line (stderr is a terminal) */
  int shown;     /* a progress line is on the screen now */
  double start, drawn;
  char *reasons[CLI_PROGRESS_REASONS]; /* the first refusals' first lines */
} cli_progress;

void cli_progress_init (cli_progress *p, int total, int quiet);
/* One input ended: `ok`, or refused with `said` (`len` bytes of what it
 * printed on stderr; NULL: nothing kept). */
void cli_progress_file (cli_progress *p, int ok, const char *said, size_t len);
/* Takes the progress line off the screen, so other lines print clean. */
void cli_progress_clear (cli_progress *p);
/* Draws the progress line: at most ten times a second, and at the end. */
void cli_progress_draw (cli_progress *p);
/* The summary; frees what `p` holds. */
void cli_progress_finish (cli_progress *p);

#endif
