/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fail.h — the engine's one way to report an error, internal to the
 * engine: every check that refuses an argument says why in one line.
 *
 *   return gh_fail (error, GH_ERR_INVALID, "%d bins", bins);
 *
 * error may be NULL (the caller wants only the code). */
#ifndef GH_FAIL_H
#define GH_FAIL_H

#include "gpu_histogram.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Formats a one-line message into error (NULL-safe) and returns status. */
gh_status gh_fail (gh_error *error, gh_status status, const char *fmt, ...)
#ifdef __GNUC__
  __attribute__ ((format (printf, 3, 4)))
#endif
  ;

#ifdef __cplusplus
}
#endif

#endif
