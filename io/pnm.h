/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pnm.h — reading and writing 8-bit netpbm images (P5, P6, P7 PAM) a strip
 * of rows at a time, so the CLI never holds a whole image (the benchmark
 * reads its photos with it too).
 *
 *   pnm_image im;  char err[200];
 *   if (pnm_open (path, &im, err, sizeof err)) ... err ...
 *   pnm_read_rows (&im, buf, rows);      -- depth * width bytes per row
 *   pnm_rewind (&im);                    -- back to the first row
 *   pnm_write_header (out, &im);         -- same type as the input
 *   pnm_close (&im);
 */
#ifndef PNM_H
#define PNM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
  FILE *file;
  int kind;          /* 5, 6 or 7 */
  size_t width, height;
  int depth;         /* samples per pixel: 1 to 4 */
  char tupltype[32]; /* P7 only */
  long data_start;
} pnm_image;

int pnm_open (const char *path, pnm_image *im, char *err, size_t errlen);
int pnm_read_rows (pnm_image *im, uint8_t *buf, size_t rows);
int pnm_rewind (pnm_image *im);
int pnm_write_header (FILE *out, const pnm_image *im);
void pnm_close (pnm_image *im);

#endif
