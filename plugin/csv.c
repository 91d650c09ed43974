/* csv.c — writing CSV fields the same way in every locale. */
#include "csv.h"

#include <string.h>

void
csv_write_number (FILE *file, gdouble value)
{
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (buf, sizeof buf, "%.15g", value);
  if (g_ascii_strtod (buf, NULL) != value)
    g_ascii_formatd (buf, sizeof buf, "%.17g", value);
  fputs (buf, file);
}

void
csv_write_text (FILE *file, const gchar *text)
{
  if (! strpbrk (text, ",\"\r\n"))
    {
      fputs (text, file);
      return;
    }
  fputc ('"', file);
  for (const gchar *c = text; *c; c++)
    {
      if (*c == '"')
        fputc ('"', file);
      fputc (*c, file);
    }
  fputc ('"', file);
}
