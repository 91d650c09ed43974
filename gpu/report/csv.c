/* SPDX-License-Identifier: GPL-3.0-or-later */
/* csv.c — the CSV files every host writes (gpu_histogram.h): the same
 * bytes in every locale, so that a GIMP plug-in running in the user's
 * language writes "0.5" where printf would write "0,5".
 *
 * A number is formatted and read back by the C library in the current
 * locale, whatever it is, and only then is the locale's decimal point
 * replaced by '.': no locale is switched, so other threads are left alone. */
#include "csv.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>

/* printf's %.<digits>g of `value` with a '.' decimal point; returns
 * whether that reads back as exactly `value`. */
static int
format_number (char *buf, size_t size, int digits, double value)
{
  const char *point = localeconv ()->decimal_point;
  size_t n = point ? strlen (point) : 0;
  int exact;
  char *at;

  snprintf (buf, size, "%.*g", digits, value);
  exact = strtod (buf, NULL) == value;
  if (n && strcmp (point, ".") && (at = strstr (buf, point)))
    {
      *at = '.';
      memmove (at + 1, at + n, strlen (at + n) + 1);
    }
  return exact;
}

int
gh_csv_write_number (FILE *file, double value)
{
  char buf[64];

  if (!format_number (buf, sizeof buf, 15, value))
    format_number (buf, sizeof buf, 17, value);
  return fputs (buf, file) < 0 ? -1 : 0;
}

int
gh_csv_write_text (FILE *file, const char *text)
{
  if (!text)
    text = "";
  if (!strpbrk (text, ",\"\r\n"))
    return fputs (text, file) < 0 ? -1 : 0;
  fputc ('"', file);
  for (const char *c = text; *c; c++)
    {
      if (*c == '"')
        fputc ('"', file);
      fputc (*c, file);
    }
  fputc ('"', file);
  return ferror (file) ? -1 : 0;
}

int
gh_csv_write_histogram (FILE *file, const gh_histogram *h)
{
  double *levels = malloc (GH_NUM_LEVELS * sizeof *levels);

  if (!levels)
    return -1;
  gh_histogram_levels (h, levels);
  fputs ("bin,value,red,green,blue,alpha,luminance\n", file);
  for (int b = 0; b < GH_LEVELS; b++)
    {
      fprintf (file, "%d", b);
      for (int c = 0; c < GH_NUM_CHANNELS; c++)
        {
          fputc (',', file);
          gh_csv_write_number (file, levels[c * GH_LEVELS + b]);
        }
      fputc ('\n', file);
    }
  free (levels);
  return ferror (file) ? -1 : 0;
}

int
gh_csv_write_stats_rows (FILE *file, const char *name, const gh_histogram *h,
                         const char *backend)
{
  double stats[GH_NUM_STATS];

  gh_stats_table (h, stats);
  for (int c = 0; c < GH_NUM_CHANNELS; c++)
    {
      if (!(h->channels & (1u << c)))
        continue;
      gh_csv_write_text (file, name);
      fprintf (file, ",%s", gh_channel_name ((gh_channel) c));
      for (int k = 0; k < GH_STATS_PER_CHANNEL; k++)
        {
          fputc (',', file);
          gh_csv_write_number (file, stats[c * GH_STATS_PER_CHANNEL + k]);
        }
      fputc (',', file);
      gh_csv_write_text (file, backend);
      fputc ('\n', file);
    }
  return ferror (file) ? -1 : 0;
}

int
gh_csv_write_error_row (FILE *file, const char *name, const char *message)
{
  gh_csv_write_text (file, name);
  fputs (",error,,,,,,,,", file);
  gh_csv_write_text (file, message);
  fputc ('\n', file);
  return ferror (file) ? -1 : 0;
}
