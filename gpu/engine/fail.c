/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fail.c — one-line error messages (fail.h). */
#include "fail.h"

#include <stdarg.h>
#include <stdio.h>

gh_status
gh_fail (gh_error *error, gh_status status, const char *fmt, ...)
{
  if (error)
    {
      va_list ap;
      va_start (ap, fmt);
      vsnprintf (error->message, sizeof error->message, fmt, ap);
      va_end (ap);
    }
  return status;
}
