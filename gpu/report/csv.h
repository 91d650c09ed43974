/* SPDX-License-Identifier: GPL-3.0-or-later */
/* csv.h — the two CSV fields every row of csv.c is made of, internal to
 * the engine (the rows themselves are public: gpu_histogram.h).
 *
 *   gh_csv_write_text (file, name);     -- quoted when it must be
 *   gh_csv_write_number (file, 0.5);    -- "0.5", in every locale
 *
 * Each returns 0, or -1 when the stream reports an error. */
#ifndef GH_CSV_H
#define GH_CSV_H

#include "gpu_histogram.h"

int gh_csv_write_number (FILE *file, double value);
int gh_csv_write_text (FILE *file, const char *text);

#endif
