/* csv.h — writing CSV fields the same way in every locale.
 *
 * GIMP plug-ins run in the user's locale, where printf may write "0,5";
 * these always write "0.5" and quote text only when it needs it (RFC 4180):
 *
 *   csv_write_text (f, filename);  fputc (',', f);
 *   csv_write_number (f, mean);    fputc ('\n', f);
 */
#ifndef GH_PLUGIN_CSV_H
#define GH_PLUGIN_CSV_H

#include <stdio.h>

#include <glib.h>

/* The shortest of %.15g and %.17g that reads back as the same double. */
void csv_write_number (FILE *file, gdouble value);

/* Quoted, with quotes doubled, when it holds a comma, quote or newline. */
void csv_write_text (FILE *file, const gchar *text);

#endif
