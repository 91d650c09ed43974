/* SPDX-License-Identifier: GPL-3.0-or-later */
/* photo_stages.c — each stage of the CLI's GPU photo path (cli/photo_run.c)
 * measured alone, on the same files, so that a whole run's rate can be
 * held against its slowest stage's (bench/photo_folder_gpu.py):
 *
 *   read         every file into memory, by 2 threads (the run's readers)
 *   decode       gh_photo_decode_count's decoding, batch after batch
 *   count+apply  its counts, the tables made on the host (equalize) and
 *                applied, or CLAHE on the device
 *   encode       gh_photo_encode
 *   write        every result to OUT, by 4 threads (the run's writers),
 *                whole as the run writes it (io/whole.h)
 *
 * one after another, nothing overlapped: one gh_photo, batches of 32 (the
 * run's).  Prints a line a stage (seconds, photos/s) and the slowest.
 *
 *   photo-stages equalize|clahe OUT FILE.jpg...
 */
#define _POSIX_C_SOURCE 200809L
#include "gh_photo.h"
#include "gpu_histogram.h"
#include "whole.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BATCH 32
#define READERS 2
#define WRITERS 4

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

typedef struct {
  gh_photo_item *items;
  char **paths;
  const char *out;
  int n, part, parts, failed;
} job;

static void *
read_part (void *arg)
{
  job *j = arg;

  for (int k = j->part; k < j->n; k += j->parts)
    {
      FILE *f = fopen (j->paths[k], "rb");
      long len = -1;
      unsigned char *d = NULL;
      if (f && !fseek (f, 0, SEEK_END) && (len = ftell (f)) > 0
          && !fseek (f, 0, SEEK_SET) && (d = malloc ((size_t) len))
          && fread (d, 1, (size_t) len, f) == (size_t) len)
        {
          j->items[k].jpeg = d;
          j->items[k].length = (size_t) len;
        }
      else
        {
          free (d);
          j->failed = 1;
        }
      if (f)
        fclose (f);
    }
  return NULL;
}

static void *
write_part (void *arg)
{
  job *j = arg;
  char name[4096];

  for (int k = j->part; k < j->n; k += j->parts)
    {
      const char *base = strrchr (j->paths[k], '/');
      FILE *f;
      char *temp;
      int fd, ok;
      if (!j->items[k].ok)
        continue;
      snprintf (name, sizeof name, "%s/%s", j->out, base ? base + 1 : j->paths[k]);
      /* Whole, as the run writes a result (io/whole.h: a temporary
       * name, flushed to the disk, renamed, the folder flushed). */
      if (io_whole_temp (name, 0, NULL, &temp, &fd))
        {
          j->failed = 1;
          continue;
        }
      f = fdopen (fd, "wb");
      ok = f && fwrite (j->items[k].encoded, 1, j->items[k].encoded_length, f)
                  == j->items[k].encoded_length;
      if (f ? fclose (f) : close (fd))
        ok = 0;
      if (!ok)
        unlink (temp);
      if (!ok || io_whole_commit (temp, name))
        j->failed = 1;
      free (temp);
    }
  return NULL;
}

/* `fn` over the files by `parts` threads: seconds, or -1. */
static double
threads (void *(*fn) (void *), job *base, int parts)
{
  pthread_t t[WRITERS];
  job jobs[WRITERS];
  double t0 = now ();
  int failed = 0;

  for (int w = 0; w < parts; w++)
    {
      jobs[w] = *base;
      jobs[w].part = w;
      jobs[w].parts = parts;
      if (pthread_create (&t[w], NULL, fn, &jobs[w]))
        return -1;
    }
  for (int w = 0; w < parts; w++)
    {
      pthread_join (t[w], NULL);
      failed |= jobs[w].failed;
    }
  return failed ? -1 : now () - t0;
}

static void
stage (const char *name, double s, int n)
{
  printf ("stage alone: %s %.3f s, %.1f photos/s\n", name, s, n / s);
}

int
main (int argc, char **argv)
{
  static const gh_clahe_params clahe = { 2.0, 8, 8, GH_EQUALIZE_LUMINANCE };
  gh_photo_timings t;
  gh_photo_item *items;
  uint8_t (*tables)[3][256];
  job j;
  gh_photo *p;
  gh_error err;
  double read_s, apply_s = 0, write_s, slowest;
  const char *slow = "read";
  int n = argc - 3, is_clahe;

  if (n < 1 || (strcmp (argv[1], "equalize") && strcmp (argv[1], "clahe")))
    return fprintf (stderr, "usage: photo-stages equalize|clahe OUT FILE.jpg...\n"), 2;
  is_clahe = !strcmp (argv[1], "clahe");
  items = calloc ((size_t) n, sizeof *items);
  tables = calloc (BATCH, sizeof *tables);
  if (!items || !tables)
    return fprintf (stderr, "out of memory\n"), 1;
  j = (job) { items, argv + 3, argv[2], n, 0, 1, 0 };
  if ((read_s = threads (read_part, &j, READERS)) < 0)
    return fprintf (stderr, "cannot read the files\n"), 1;
  if (gh_photo_create (BATCH, &p, &err) != GH_OK)
    return fprintf (stderr, "%s\n", err.message), 77;
  /* The results' buffers made and touched before the clock, twice each
   * file's size (grown in the encode if short), as the run's ring of
   * slots reuses its own: the encode stage is the encoder's, not the
   * first touch of a thousand fresh buffers. */
  for (int k = 0; k < n; k++)
    if ((items[k].encoded = malloc (2 * items[k].length)))
      {
        memset (items[k].encoded, 0, 2 * items[k].length);
        items[k].encoded_size = 2 * items[k].length;
      }
  for (int b = 0; b < n; b += BATCH)
    {
      int m = n - b < BATCH ? n - b : BATCH;
      gh_photo_item *it = items + b;
      double t0;
      gh_status st = gh_photo_decode_count (p, it, m, &err);
      t0 = now ();
      for (int k = 0; k < m && st == GH_OK && !is_clahe; k++)
        {
          gh_histogram h = { 0 };
          gh_op op;
          if (!it[k].ok)
            continue;
          gh_histogram_init (&h);
          st = gh_histogram_reset (&h, 256, 0, &err);
          h.channels = gh_layout_channel_mask (it[k].channels == 1 ? GH_LAYOUT_GRAY
                                                                    : GH_LAYOUT_RGB);
          for (int c = 0; c < GH_NUM_CHANNELS * 256 && st == GH_OK; c++)
            h.raw[c] = it[k].counts[c];
          if (st == GH_OK
              && (st = gh_op_equalize (&op, &h, it[k].channels == 1 ? GH_LAYOUT_GRAY
                                                                     : GH_LAYOUT_RGB,
                                       GH_SAMPLE_U8, GH_LUMINANCE_PERCEPTUAL,
                                       GH_EQUALIZE_CHANNELS, &err)) == GH_OK)
            {
              for (int c = 0; c < 3; c++)
                for (int v = 0; v < 256; v++)
                  tables[k][c][v] = (uint8_t) op.tables[it[k].channels == 1 ? 0 : c][v];
              gh_op_clear (&op);
            }
          gh_histogram_clear (&h);
        }
      apply_s += now () - t0; /* the host's part of count+apply */
      if (st == GH_OK)
        st = is_clahe ? gh_photo_clahe (p, it, m, &clahe, &err)
                      : gh_photo_apply_encode (p, it, m,
                                               (const uint8_t (*)[3][256]) tables,
                                               NULL, 90, &err);
      if (st == GH_OK && is_clahe)
        st = gh_photo_encode (p, it, m, 90, &err);
      if (st != GH_OK)
        return fprintf (stderr, "batch %d: %s\n", b / BATCH, err.message), 1;
    }
  gh_photo_get_timings (p, &t);
  if ((write_s = threads (write_part, &j, WRITERS)) < 0)
    return fprintf (stderr, "cannot write the results\n"), 1;
  printf ("%s, %d files (%lu on the GPU, %lu by the hardware decoder), one "
          "gh_photo, batches of %d, the stages one after another:\n",
          argv[1], n, t.images, t.hardware, BATCH);
  stage ("read", read_s, n);
  stage ("decode", t.decode, n);
  stage ("count+apply", t.count + t.apply + apply_s, n);
  stage ("encode", t.encode, n);
  stage ("write", write_s, n);
  slowest = read_s;
  if (t.decode > slowest)
    slowest = t.decode, slow = "decode";
  if (t.count + t.apply + apply_s > slowest)
    slowest = t.count + t.apply + apply_s, slow = "count+apply";
  if (t.encode > slowest)
    slowest = t.encode, slow = "encode";
  if (write_s > slowest)
    slowest = write_s, slow = "write";
  printf ("slowest alone: %s, %.1f photos/s\n", slow, n / slowest);
  gh_photo_destroy (p);
  for (int k = 0; k < n; k++)
    {
      free ((void *) items[k].jpeg);
      free (items[k].encoded);
    }
  free (items);
  free (tables);
  return 0;
}
