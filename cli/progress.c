/* SPDX-License-Identifier: GPL-3.0-or-later */
/* progress.c — a run's progress line and summary on stderr (progress.h). */
#include "progress.h"
#include "count.h" /* cli_now */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void
cli_progress_init (cli_progress *p, int total, int quiet)
{
  memset (p, 0, sizeof *p);
  p->total = total;
  p->summary = total > 1 && !quiet;
  p->line = p->summary && isatty (STDERR_FILENO);
  p->start = cli_now ();
}

void
cli_progress_file (cli_progress *p, int ok, const char *said, size_t len)
{
  p->done++;
  if (ok)
    return;
  if (p->refused < CLI_PROGRESS_REASONS)
    {
      const char *nl = said ? memchr (said, '\n', len) : NULL;
      size_t n = said ? (nl ? (size_t) (nl - said) : len) : 0;
      char *r = malloc (n + 1);
      if (r)
        {
          if (n)
            memcpy (r, said, n);
          r[n] = '\0';
        }
      p->reasons[p->refused] = r;
    }
  p->refused++;
}

void
cli_progress_clear (cli_progress *p)
{
  if (!p->shown)
    return;
  fputs ("\r\033[K", stderr);
  fflush (stderr);
  p->shown = 0;
}

/* `s` seconds as m:ss, or h:mm:ss from an hour on. */
static void
clock_text (char *out, size_t size, double s)
{
  long t = (long) (s + 0.5);
  if (t >= 3600)
    snprintf (out, size, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  else
    snprintf (out, size, "%ld:%02ld", t / 60, t % 60);
}

void
cli_progress_draw (cli_progress *p)
{
  double now = cli_now (), elapsed = now - p->start;
  char left[32] = "?";

  if (!p->line || (now - p->drawn < 0.1 && p->done < p->total))
    return;
  if (p->done > 0)
    clock_text (left, sizeof left, (p->total - p->done) * elapsed / p->done);
  fprintf (stderr, "\r\033[K%d/%d files, %.1f files/s, %s left", p->done,
           p->total, elapsed > 0 ? p->done / elapsed : 0.0, left);
  if (p->refused)
    fprintf (stderr, ", %d refused", p->refused);
  fflush (stderr);
  p->shown = 1;
  p->drawn = now;
}

void
cli_progress_finish (cli_progress *p)
{
  double elapsed = cli_now () - p->start;
  char took[32];

  cli_progress_clear (p);
  if (p->summary)
    {
      clock_text (took, sizeof took, elapsed);
      fprintf (stderr, "summary: %d of %d files done in %s (%.1f files/s)",
               p->done - p->refused, p->total, took,
               elapsed > 0 ? p->done / elapsed : 0.0);
      if (p->refused)
        {
          fprintf (stderr, ", %d refused", p->refused);
          for (int k = 0; k < p->refused && k < CLI_PROGRESS_REASONS; k++)
            fprintf (stderr, "%s%s", k ? "; " : ": ",
                     p->reasons[k] && *p->reasons[k] ? p->reasons[k]
                                                     : "(no message)");
          if (p->refused > CLI_PROGRESS_REASONS)
            fprintf (stderr, "; and %d more", p->refused - CLI_PROGRESS_REASONS);
        }
      if (p->done < p->total)
        fprintf (stderr, ", %d not started", p->total - p->done);
      fputc ('\n', stderr);
    }
  for (int k = 0; k < CLI_PROGRESS_REASONS; k++)
    free (p->reasons[k]);
}
