/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_csv.c — gpu/report/ on histograms of any counts: raw sums in the
 * engine's units, or float weights, of 2..65536 bins, any channels.  The
 * statistics over any range (refused out of the bins, else in it: Otsu's
 * bin inside, min <= median <= max where there is a count) and the CSV
 * files: the histogram's rows, the statistics rows and an error row with
 * names of any bytes, read back, every field as it was written: each
 * number exactly the value (gh_histogram_levels, gh_stats_table), the
 * names unquoted to themselves. */
#include <math.h>

#include "fuzz_util.h"
#include "gpu_histogram.h"

#define FIELD_MAX 160

/* The next field of a CSV line at *p (RFC 4180) into `out` (names are at
 * most 64 bytes, numbers shorter); *p moves past its comma or to the
 * line's end (its newline consumed). */
static void
field (const char **p, char out[FIELD_MAX])
{
  const char *s = *p;
  size_t n = 0;

  if (*s == '"')
    {
      for (s++;; s++)
        {
          FUZZ_CHECK (*s && n + 1 < FIELD_MAX);
          if (*s == '"' && s[1] == '"')
            out[n++] = *s++;
          else if (*s == '"')
            break;
          else
            out[n++] = *s;
        }
      s++;
    }
  else
    while (*s && *s != ',' && *s != '\n')
      {
        FUZZ_CHECK (n + 1 < FIELD_MAX);
        out[n++] = *s++;
      }
  out[n] = 0;
  FUZZ_CHECK (*s == ',' || *s == '\n');
  *p = s + 1;
}

/* A number field: exactly `want` (NaN for NaN). */
static void
number_field (const char **p, double want)
{
  char f[FIELD_MAX], *end;
  double v;

  field (p, f);
  v = strtod (f, &end);
  FUZZ_CHECK (*f && !*end && (v == want || (isnan (v) && isnan (want))));
}

static void
text_field (const char **p, const char *want)
{
  char f[FIELD_MAX];

  field (p, f);
  FUZZ_CHECK (!strcmp (f, want));
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  fuzz_input in = { data, size };
  unsigned form = fuzz_byte (&in);
  int weights = form & 1;
  /* Up to GIMP's 1024 mostly, the engine's 65536 in one of eight (a
   * hundred times slower under ASan). */
  int bins = !weights ? 256
             : (form & 0x0e) == 0x0e ? 2 + (int) (fuzz_u16 (&in) % 65535)
                                     : 2 + (int) (fuzz_u16 (&in) % 1023);
  double *levels = malloc (GH_NUM_LEVELS * sizeof *levels);
  double stats[GH_NUM_STATS];
  char *name = fuzz_text (&in, 64), *backend = fuzz_text (&in, 64);
  char *csv = NULL;
  size_t len = 0;
  const char *p;
  FILE *out;
  gh_histogram h;
  gh_error err;

  FUZZ_CHECK (levels);
  gh_histogram_init (&h);
  FUZZ_CHECK (gh_histogram_reset (&h, bins, weights, &err) == GH_OK);
  h.channels = fuzz_byte (&in) & ((1u << GH_NUM_CHANNELS) - 1);
  for (int c = 0; c < GH_NUM_CHANNELS; c++)
    {
      static const uint64_t units[3] = { 1, 255, 65025 };
      h.unit[c] = units[fuzz_byte (&in) % 3];
    }
  /* Sparse: (position, value) pairs, so large histograms are reached. */
  while (in.size >= 4)
    {
      size_t k = (size_t) fuzz_u16 (&in) * GH_NUM_CHANNELS + fuzz_byte (&in);
      uint64_t v = fuzz_u64 (&in);
      k %= (size_t) GH_NUM_CHANNELS * (size_t) bins;
      if (weights)
        memcpy (&h.weight[k], &v, sizeof v);
      else
        h.raw[k] = v;
    }

  for (int c = 0; c < GH_NUM_CHANNELS; c++)
    {
      gh_stats s;
      int lo = (int) (form >> 2) - 8, hi = bins - 1 - (int) (form >> 4);
      gh_status st = gh_stats_compute (&h, (gh_channel) c, lo, hi, &s);

      FUZZ_CHECK ((st == GH_OK) == (lo >= 0 && lo <= hi && hi < bins));
      if (st != GH_OK)
        continue;
      FUZZ_CHECK (s.otsu_bin >= lo && s.otsu_bin <= hi);
      if (s.count > 0.0 && isfinite (s.count))
        FUZZ_CHECK (s.min >= 0.0 && s.min <= s.median && s.median <= s.max
                    && s.max <= 255.0);
    }

  gh_histogram_levels (&h, levels);
  gh_stats_table (&h, stats);
  out = open_memstream (&csv, &len);
  FUZZ_CHECK (out);
  FUZZ_CHECK (gh_csv_write_histogram (out, &h) == 0);
  FUZZ_CHECK (gh_csv_write_stats_rows (out, name, &h, backend) == 0);
  FUZZ_CHECK (gh_csv_write_error_row (out, name, backend) == 0);
  fclose (out);

  p = csv;
  FUZZ_CHECK (!strncmp (p, "bin,value,red,green,blue,alpha,luminance\n", 41));
  p += 41;
  for (int b = 0; b < GH_LEVELS; b++)
    {
      number_field (&p, b);
      for (int c = 0; c < GH_NUM_CHANNELS; c++)
        number_field (&p, levels[c * GH_LEVELS + b]);
    }
  for (int c = 0; c < GH_NUM_CHANNELS; c++)
    {
      if (!(h.channels & (1u << c)))
        continue;
      text_field (&p, name);
      text_field (&p, gh_channel_name ((gh_channel) c));
      for (int k = 0; k < GH_STATS_PER_CHANNEL; k++)
        number_field (&p, stats[c * GH_STATS_PER_CHANNEL + k]);
      text_field (&p, backend);
    }
  text_field (&p, name);
  text_field (&p, "error");
  for (int k = 0; k < 7; k++)
    text_field (&p, "");
  text_field (&p, backend);
  FUZZ_CHECK (p == csv + len);

  free (csv);
  free (name);
  free (backend);
  free (levels);
  gh_histogram_clear (&h);
  return 0;
}
