/* SPDX-License-Identifier: GPL-3.0-or-later */
/* streams.c — this thread's output and message streams (streams.h). */
#include "streams.h"

static _Thread_local FILE *out_stream, *err_stream;

FILE *
cli_out (void)
{
  return out_stream ? out_stream : stdout;
}

FILE *
cli_err (void)
{
  return err_stream ? err_stream : stderr;
}

void
cli_streams_set (FILE *out, FILE *err)
{
  out_stream = out;
  err_stream = err;
}
