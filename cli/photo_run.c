/* SPDX-License-Identifier: GPL-3.0-or-later */
/* photo_run.c — a folder of JPEGs through the GPU (photo_run.h). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "photo_run.h"

#include "count.h"
#include "image.h"
#include "operations.h"
#include "results.h"
#include "streams.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static int
is_jpeg_name (const char *path)
{
  const char *dot = path ? cli_extension (path) : NULL;

  return dot && (!strcasecmp (dot, ".jpg") || !strcasecmp (dot, ".jpeg"));
}

int
cli_photo_takes (const cli_options *o, const char **why)
{
  gh_request r;

  if (o->decoder == CLI_DECODER_CPU)
    return *why = "--decoder cpu", 0;
#ifndef GH_HAVE_NVJPEG
  (void) r;
  (void) is_jpeg_name;
  return *why = "this build has no nvJPEG", 0;
#else
  if (o->decoder == CLI_DECODER_AUTO && o->n_inputs < 2)
    return *why = "one file", 0;
  for (int i = 0; i < o->n_inputs; i++)
    if (!is_jpeg_name (o->inputs[i]))
      return *why = "an input is not a JPEG", 0;
  {
    int ops = 0;
    for (int k = GH_REQ_NONE + 1; k < GH_NUM_REQS; k++)
      {
        if (!cli_wants (o, (gh_operation) k))
          continue;
        if (!o->output[k])
          return *why = "thresholds without a result file", 0;
        if (!is_jpeg_name (o->output[k]))
          return *why = "the result is not a JPEG", 0;
        ops++;
      }
    if (ops > 1)
      return *why = "the GPU path runs one operation at a time", 0;
  }
  if (o->mask)
    return *why = "--mask", 0;
  if (o->luminance != GH_LUMINANCE_PERCEPTUAL)
    return *why = "--luminance linear", 0;
  if (o->auto_orient)
    return *why = "--auto-orient", 0;
  if (o->backend == GH_BACKEND_CPU)
    return *why = "--backend cpu", 0;
  /* Equalize and match of the luminance move colours by a rule of no
   * table: each channel's tables only (CLAHE takes both modes). */
  {
    static const gh_operation tabled[] = { GH_REQ_EQUALIZE, GH_REQ_MATCH };
    for (int k = 0; k < 2; k++)
      {
        cli_request (o, tabled[k], GH_LAYOUT_RGB, &r);
        if (o->output[tabled[k]] && r.mode != GH_EQUALIZE_CHANNELS)
          return *why = "--mode luminance", 0;
      }
  }
  return 1;
#endif
}

#ifndef GH_HAVE_NVJPEG
int
cli_photo_run (const cli_options *o, int (*fallback) (void *, int),
               void *arg, cli_progress *progress, int *rc)
{
  (void) o;
  (void) fallback;
  (void) arg;
  (void) progress;
  (void) rc;
  return -1;
}
#else

#include "gh_photo.h"
#include "whole.h"
#ifdef GH_HAVE_JPEG
#include "srgb_icc.h" /* cli_srgb_icc: babl's sRGB, as the CPU path writes */
#endif

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Files a batch.  READERS threads read batches ahead, from the start
 * (while the device starts: CUDA's context, nvJPEG's handles, buffers),
 * into a ring of SLOTS batches; LANES threads each take the next batch
 * read, run it on the device through a gh_photo of their own (one lane's
 * decoding overlaps the others' encoding) and hand it to a writer thread;
 * a slot is read again once its batch is printed.  WRITERS threads write
 * a batch's files. */
#define BATCH 32
#define LANES 2
#define SLOTS (2 * LANES)
#define READERS 2
#define WRITERS 4
/* A file larger than this goes through the CPU path. */
#define MAX_FILE ((size_t) 1 << 30)

typedef struct photo_run photo_run;

typedef struct {
  photo_run *run;
  int index;        /* the batch's number */
  int first, n;     /* inputs first .. first + n - 1 */
  unsigned char *data[BATCH];
  size_t cap[BATCH];
  gh_photo_item items[BATCH];
  uint8_t tables[BATCH][3][256];
  int keys[BATCH];       /* gh_photo_apply_encode's */
  char *path[BATCH];     /* the result's name; NULL: none to write */
  char *out[BATCH], *err[BATCH];
  size_t out_len[BATCH], err_len[BATCH];
  FILE *outf[BATCH], *errf[BATCH];
  int rc[BATCH];
  int ready;        /* the batch read into it; -1: none yet */
  int writing;      /* `writer` runs */
  pthread_t writer;
  double read_s, write_s;
} slot;

struct photo_run
{
  const cli_options *o;
  slot slots[SLOTS];
  cli_progress *progress;
  pthread_mutex_t lock;
  pthread_cond_t turn;
  int printed;   /* batches printed */
  int next;      /* the next batch a lane takes */
  int next_read; /* the next batch a reader takes */
  int stop;      /* the device did not start: readers stop */
  int go;        /* lanes: 0 wait, 1 go, -1 stop (as `stop`) */
  int batches;
  int gpu_dead; /* the GPU failed: every file on the CPU path */
  int rc;
  double read_s, write_s;
  gh_histogram reference; /* --match's, counted once */
  int (*fallback) (void *, int);
  void *arg;
};

/* The file's bytes into the slot's buffer k: its length, or 0 (the CPU
 * path then reads it again and says why).  Memory: the SLOTS slots hold
 * a batch's files and results each (about 4 x 32 x 8 MB for 12 MP
 * photos), the device a batch's decoded images a lane. */
static size_t
read_file (slot *s, int k, const char *path)
{
  struct stat st;
  size_t got = 0;
  int fd = open (path, O_RDONLY);

  if (fd < 0)
    return 0;
  if (fstat (fd, &st) || !S_ISREG (st.st_mode) || st.st_size <= 0
      || (size_t) st.st_size > MAX_FILE)
    goto out;
  if (s->cap[k] < (size_t) st.st_size)
    {
      unsigned char *b = realloc (s->data[k], (size_t) st.st_size);
      if (!b)
        goto out;
      s->data[k] = b;
      s->cap[k] = (size_t) st.st_size;
    }
  while (got < (size_t) st.st_size)
    {
      ssize_t r = read (fd, s->data[k] + got, (size_t) st.st_size - got);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        {
          got = 0;
          break;
        }
      got += (size_t) r;
    }
out:
  close (fd);
  return got;
}

static void
read_batch (slot *s)
{
  double t = cli_now ();

  for (int k = 0; k < s->n; k++)
    {
      size_t len = read_file (s, k, s->run->o->inputs[s->first + k]);
      s->items[k].jpeg = len ? s->data[k] : NULL;
      s->items[k].length = len;
    }
  s->read_s = cli_now () - t;
}

/* A reader: the next batch into its slot, once the batch SLOTS before it
 * is printed (and its writer done), until none is left. */
static void *
reader_main (void *arg)
{
  photo_run *run = arg;

  for (;;)
    {
      slot *s;
      int b;
      pthread_mutex_lock (&run->lock);
      b = run->next_read < run->batches && !run->stop ? run->next_read++ : -1;
      while (b >= 0 && !run->stop && run->printed < b - SLOTS + 1)
        pthread_cond_wait (&run->turn, &run->lock);
      if (run->stop)
        b = -1;
      pthread_mutex_unlock (&run->lock);
      if (b < 0)
        return NULL;
      s = &run->slots[b % SLOTS];
      if (s->writing)
        {
          pthread_join (s->writer, NULL);
          s->writing = 0;
        }
      s->index = b;
      s->first = b * BATCH;
      s->n = run->o->n_inputs - s->first < BATCH ? run->o->n_inputs - s->first
                                                 : BATCH;
      read_batch (s);
      pthread_mutex_lock (&run->lock);
      s->ready = b;
      pthread_cond_broadcast (&run->turn);
      pthread_mutex_unlock (&run->lock);
    }
}

/* The JPEG segment at d[i] (its 0xFF): its length with the marker, or 0
 * at the scan, a frame header or bad data. */
static size_t
segment (const unsigned char *d, size_t n, size_t i, unsigned *marker)
{
  size_t len;

  if (i + 4 > n || d[i] != 0xFF)
    return 0;
  *marker = d[i + 1];
  if (*marker < 0xE0 || *marker > 0xFE)
    return *marker == 0xDB || *marker == 0xC4 || *marker == 0xDD
               ? ((size_t) d[i + 2] << 8 | d[i + 3]) + 2
               : 0;
  len = ((size_t) d[i + 2] << 8 | d[i + 3]) + 2;
  return len >= 4 && i + len <= n ? len : 0;
}

static int
write_all (int fd, const unsigned char *p, size_t n)
{
  while (n > 0)
    {
      ssize_t w = write (fd, p, n);
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        return w < 0 ? errno : EIO;
      p += w;
      n -= (size_t) w;
    }
  return 0;
}

/* The result: nvJPEG's stream with the input's APPn segments the CPU
 * path carries (EXIF and XMP in APP1, an ICC profile in APP2, IPTC in
 * APP13) after its JFIF header, and babl's sRGB profile where the input
 * has none and the build has it; written whole.  0, or errno's value. */
static int
write_result (const gh_photo_item *it, const char *path)
{
  const unsigned char *in = it->jpeg, *enc = it->encoded;
  size_t p = 2, i = 2, len;
  unsigned m;
  int fd, errsv, icc = 0;
  char *temp;

  if (it->encoded_length < 4 || enc[0] != 0xFF || enc[1] != 0xD8)
    return EINVAL;
  if ((errsv = io_whole_temp (path, 0, NULL, &temp, &fd)))
    return errsv;
  errsv = write_all (fd, enc, 2);
  if ((len = segment (enc, it->encoded_length, p, &m)) && m == 0xE0)
    {
      errsv = errsv ? errsv : write_all (fd, enc + p, len);
      p += len;
    }
  while (!errsv && (len = segment (in, it->length, i, &m)))
    {
      int icc_here = m == 0xE2 && len > 16 && !memcmp (in + i + 4, "ICC_PROFILE", 12);
      if (m == 0xE1 || m == 0xED || icc_here)
        errsv = write_all (fd, in + i, len);
      icc |= icc_here;
      i += len;
    }
#ifdef GH_HAVE_JPEG
  if (!errsv && !icc)
    {
      size_t n = 14 + sizeof cli_srgb_icc + 2;
      unsigned char head[18] = { 0xFF, 0xE2, (unsigned char) (n >> 8),
                                 (unsigned char) n, 'I', 'C', 'C', '_',
                                 'P', 'R', 'O', 'F', 'I', 'L', 'E', 0, 1, 1 };
      errsv = write_all (fd, head, sizeof head);
      errsv = errsv ? errsv : write_all (fd, cli_srgb_icc, sizeof cli_srgb_icc);
    }
#endif
  errsv = errsv ? errsv : write_all (fd, enc + p, it->encoded_length - p);
  if (close (fd) && !errsv)
    errsv = errno;
  if (errsv)
    unlink (temp);
  else
    errsv = io_whole_commit (temp, path);
  free (temp);
  return errsv;
}

/* Part w of a batch's files (every WRITERS-th). */
typedef struct {
  slot *s;
  int w;
} write_part;

static void *
write_files (void *arg)
{
  write_part *part = arg;
  slot *s = part->s;

  for (int k = part->w; k < s->n; k += WRITERS)
    {
      int errsv;
      if (!s->path[k] || s->rc[k] || !s->items[k].ok)
        continue;
      if ((errsv = write_result (&s->items[k], s->path[k])))
        {
          fprintf (s->errf[k], "cannot write %s: %s\n", s->path[k],
                   strerror (errsv));
          s->rc[k] = 1;
        }
    }
  return NULL;
}

/* The batch's files written, then printed in turn. */
static void *
writer (void *arg)
{
  slot *s = arg;
  photo_run *run = s->run;
  double t = cli_now ();

  pthread_t part[WRITERS];
  write_part parts[WRITERS];
  int started = 0;

  for (int w = 0; w < WRITERS; w++)
    {
      parts[w].s = s;
      parts[w].w = w;
      if (w > 0 && !pthread_create (&part[w], NULL, write_files, &parts[w]))
        started = w;
      else if (w > 0)
        break;
    }
  /* The parts no thread took, here. */
  for (int w = started + 1; w < WRITERS; w++)
    write_files (&parts[w]);
  write_files (&parts[0]);
  for (int w = 1; w <= started; w++)
    pthread_join (part[w], NULL);
  s->write_s = cli_now () - t;
  for (int k = 0; k < s->n; k++)
    {
      fclose (s->outf[k]);
      fclose (s->errf[k]);
      s->outf[k] = s->errf[k] = NULL;
    }
  pthread_mutex_lock (&run->lock);
  while (run->printed != s->index)
    pthread_cond_wait (&run->turn, &run->lock);
  for (int k = 0; k < s->n; k++)
    {
      cli_progress_file (run->progress, s->rc[k] == 0, s->err[k],
                         s->err_len[k]);
      cli_progress_clear (run->progress);
      fwrite (s->out[k], 1, s->out_len[k], stdout);
      fflush (stdout);
      fwrite (s->err[k], 1, s->err_len[k], stderr);
      cli_progress_draw (run->progress);
      free (s->out[k]);
      free (s->err[k]);
      s->out[k] = s->err[k] = NULL;
      free (s->path[k]);
      s->path[k] = NULL;
      run->rc |= s->rc[k] != 0;
    }
  run->read_s += s->read_s;
  run->write_s += s->write_s;
  run->printed++;
  pthread_cond_broadcast (&run->turn);
  pthread_mutex_unlock (&run->lock);
  return NULL;
}

/* Item k's histogram in the engine's terms. */
static int
histogram_of (const gh_photo_item *it, gh_histogram *h)
{
  gh_error err;
  gh_layout layout = it->channels == 1 ? GH_LAYOUT_GRAY : GH_LAYOUT_RGB;

  if (gh_histogram_reset (h, 256, 0, &err) != GH_OK)
    return fprintf (cli_err (), "%s\n", err.message), -1;
  h->channels = gh_layout_channel_mask (layout);
  for (int c = 0; c < GH_NUM_CHANNELS; c++)
    if (h->channels & (1u << c))
      memcpy (h->raw + c * 256, it->counts + c * 256, 256 * sizeof *h->raw);
  return 0;
}

/* The operation asked for, or GH_REQ_NONE (statistics alone). */
static gh_operation
operation_of (const cli_options *o)
{
  for (int k = GH_REQ_NONE + 1; k < GH_NUM_REQS; k++)
    if (o->output[k])
      return (gh_operation) k;
  return GH_REQ_NONE;
}

/* The engine's op for item k as the device's tables, read off a probe of
 * every level: equalize's and match's map of each channel (*key -1; match
 * to `reference`), or binarize's and
 * posterize's one table of the level in channel *key, which every colour
 * sample takes (a gray probe pixel's level is its sample in every
 * channel, luminance too). */
static int
tables_of (const cli_options *o, gh_operation operation,
           const gh_photo_item *it, const gh_histogram *h,
           const gh_histogram *reference, uint8_t tables[3][256], int *key)
{
  gh_layout layout = it->channels == 1 ? GH_LAYOUT_GRAY : GH_LAYOUT_RGB;
  int ch = it->channels;
  gh_request r;
  gh_request_inputs in = { layout, GH_SAMPLE_U8, o->luminance, 256, h,
                           reference, NULL };
  gh_request_result res;
  gh_op op;
  gh_error err;
  uint8_t probe[256 * 3];
  gh_status st;

  cli_request (o, operation, layout, &r);
  if (gh_operation_param (operation, GH_PARAM_CHANNEL) >= 0
      && !(gh_layout_channel_mask (layout) & (1u << r.channel)))
    return fprintf (cli_err (), "this image has no %s channel\n",
                    gh_channel_name ((gh_channel) r.channel)),
           -1;
  cli_engine_lock ();
  st = gh_request_prepare (&r, &in, &op, &res, &err);
  cli_engine_unlock ();
  if (st != GH_OK)
    return fprintf (cli_err (), "%s\n", err.message), -1;
  if (res.n > 0)
    cli_print_thresholds (operation, &res);
  for (int v = 0; v < 256; v++)
    for (int c = 0; c < ch; c++)
      probe[v * ch + c] = (uint8_t) v;
  st = gh_op_apply (&op, probe, 256, 1, (size_t) 256 * ch, &err);
  gh_op_clear (&op);
  if (st != GH_OK)
    return fprintf (cli_err (), "%s\n", err.message), -1;
  memset (tables, 0, 3 * 256);
  for (int v = 0; v < 256; v++)
    for (int c = 0; c < ch; c++)
      tables[c][v] = probe[v * ch + c];
  *key = (operation == GH_REQ_BINARIZE || operation == GH_REQ_POSTERIZE)
             && ch == 3
           ? r.channel
           : -1;
  return 0;
}

/* Item k's prints start afresh (a file redone on the CPU). */
static int
open_streams (slot *s, int k)
{
  if (s->outf[k])
    fclose (s->outf[k]);
  if (s->errf[k])
    fclose (s->errf[k]);
  free (s->out[k]);
  free (s->err[k]);
  s->out[k] = s->err[k] = NULL;
  s->outf[k] = open_memstream (&s->out[k], &s->out_len[k]);
  s->errf[k] = open_memstream (&s->err[k], &s->err_len[k]);
  return s->outf[k] && s->errf[k] ? 0 : -1;
}

static int
is_dead (photo_run *run)
{
  int dead;

  pthread_mutex_lock (&run->lock);
  dead = run->gpu_dead;
  pthread_mutex_unlock (&run->lock);
  return dead;
}

/* The GPU failed: said once, and every file from now on the CPU path. */
static void
set_dead (photo_run *run, const char *why, const char *input)
{
  pthread_mutex_lock (&run->lock);
  if (!run->gpu_dead)
    fprintf (stderr, "the GPU failed (%s): the files from %s on are decoded "
             "on the CPU\n", why, input);
  run->gpu_dead = 1;
  pthread_mutex_unlock (&run->lock);
}

/* The GPU's part of a batch, and the CPU path for what it refuses. */
static void
run_batch (photo_run *run, gh_photo *p, slot *s)
{
  int (*fallback) (void *, int) = run->fallback;
  void *arg = run->arg;
  int dead = is_dead (run);
  gh_operation operation = operation_of (run->o);
  const cli_options *o = run->o;
  gh_error err;
  gh_status st;
  int to_write = 0;

  for (int k = 0; k < s->n; k++)
    {
      s->rc[k] = 0;
      s->path[k] = NULL;
      s->items[k].ok = 0;
      if (open_streams (s, k))
        s->rc[k] = 1; /* out of memory: said below */
    }
  if (!dead && gh_photo_decode_count (p, s->items, s->n, &err) != GH_OK)
    {
      set_dead (run, err.message, o->inputs[s->first]);
      dead = 1;
    }
  for (int k = 0; k < s->n; k++)
    {
      gh_photo_item *it = &s->items[k];
      const char *input = o->inputs[s->first + k];
      cli_options file;
      gh_histogram h;
      if (!s->outf[k] || !s->errf[k])
        {
          fprintf (stderr, "out of memory\n");
          it->ok = 0;
          continue;
        }
      cli_streams_set (s->outf[k], s->errf[k]);
      if (dead || !it->ok)
        {
          it->ok = 0;
          if (!dead && it->jpeg)
            fprintf (cli_err (), "%s: decoded on the CPU: %s\n", input,
                     it->why);
          s->rc[k] = fallback (arg, s->first + k);
          cli_streams_set (NULL, NULL);
          continue;
        }
      if (o->n_inputs > 1)
        fprintf (cli_out (), "file: %s\n", input);
      gh_histogram_init (&h);
      if (cli_for_input (o, input, &file) || histogram_of (it, &h))
        s->rc[k] = 1;
      else
        {
          fprintf (cli_out (), "backend: cuda: %s (nvJPEG, %s decoder)\n",
                   gh_photo_device_name (p),
                   it->hardware ? "hardware" : "GPU");
          cli_print_stats (&h, o->lo, o->hi);
          if (file.histogram && cli_write_csv (file.histogram, &h))
            s->rc[k] = 1;
          if (!s->rc[k] && operation != GH_REQ_NONE)
            {
              /* CLAHE's work is all on the device: no tables. */
              if ((operation != GH_REQ_CLAHE
                   && tables_of (o, operation, it, &h, &run->reference,
                                 s->tables[k], &s->keys[k]))
                  || !(s->path[k] = strdup (file.output[operation])))
                s->rc[k] = 1;
              else
                to_write = 1;
            }
        }
      if (s->rc[k])
        it->ok = 0;
      gh_histogram_clear (&h);
      cli_for_input_clear (&file);
      cli_streams_set (NULL, NULL);
    }
  if (!to_write)
    return;
  for (int k = 0; k < s->n; k++)
    if (!s->path[k])
      s->items[k].ok = 0; /* nothing to encode */
  if (operation == GH_REQ_CLAHE)
    {
      gh_request r;
      gh_clahe_params params;
      cli_request (o, GH_REQ_CLAHE, GH_LAYOUT_RGB, &r);
      gh_request_clahe_params (&r, &params);
      st = gh_photo_clahe (p, s->items, s->n, &params, &err);
      if (st == GH_OK)
        st = gh_photo_encode (p, s->items, s->n, o->quality ? o->quality : 90,
                              &err);
    }
  else
    st = gh_photo_apply_encode (p, s->items, s->n,
                                (const uint8_t (*)[3][256]) s->tables,
                                s->keys, o->quality ? o->quality : 90, &err);
  if (st == GH_OK)
    return;
  set_dead (run, err.message, o->inputs[s->first]);
  for (int k = 0; k < s->n; k++)
    if (s->items[k].ok)
      {
        s->items[k].ok = 0;
        free (s->path[k]);
        s->path[k] = NULL;
        if (open_streams (s, k))
          {
            s->rc[k] = 1;
            continue;
          }
        cli_streams_set (s->outf[k], s->errf[k]);
        s->rc[k] = fallback (arg, s->first + k);
        cli_streams_set (NULL, NULL);
      }
}

/* --match's reference histogram, counted once as the CPU path counts it
 * for each file (on the CPU: the counts are the same): 0, or -1 where it
 * cannot be read (the CPU path then says why, a file at a time). */
static int
count_reference (const cli_options *o, gh_histogram *ref)
{
  gh_options eo;
  gh_engine *e;
  gh_error err;
  char *said = NULL;
  size_t len = 0;
  FILE *quiet;
  double decode = 0;
  int rc = -1;

  gh_histogram_init (ref);
  if (!o->output[GH_REQ_MATCH])
    return 0;
  if (!(quiet = open_memstream (&said, &len)))
    return -1;
  gh_options_init (&eo);
  eo.backend = GH_BACKEND_CPU;
  eo.cpu_threads = o->threads;
  if (gh_engine_create (&eo, &e, &err) == GH_OK)
    {
      cli_streams_set (quiet, quiet);
      rc = cli_count_file (e, o->reference, o->luminance, ref, &decode);
      cli_streams_set (NULL, NULL);
      gh_engine_destroy (e);
    }
  fclose (quiet);
  free (said);
  if (rc)
    gh_histogram_clear (ref);
  return rc;
}

typedef struct {
  photo_run *run;
  gh_photo *p;
  int used;              /* it ran (its timings below) */
  gh_photo_timings t;    /* its gh_photo's, taken before it is freed */
  double free_s;         /* gh_photo_destroy's seconds */
} lane;

/* The lane's batches: the next batch read until none is left. */
static void
run_lane (lane *l)
{
  photo_run *run = l->run;

  for (;;)
    {
      slot *s;
      int b;
      pthread_mutex_lock (&run->lock);
      b = run->next < run->batches ? run->next++ : -1;
      s = &run->slots[(b < 0 ? 0 : b) % SLOTS];
      while (b >= 0 && s->ready != b)
        pthread_cond_wait (&run->turn, &run->lock);
      pthread_mutex_unlock (&run->lock);
      if (b < 0)
        return;
      run_batch (run, l->p, s);
      /* Set under the lock: the writer prints (and frees the slot for its
       * reader) only after. */
      pthread_mutex_lock (&run->lock);
      s->writing = !pthread_create (&s->writer, NULL, writer, s);
      pthread_mutex_unlock (&run->lock);
      if (!s->writing)
        writer (s);
    }
}

/* A lane.  One beyond the first starts its gh_photo here, beside the
 * first's start, then waits for the run to go (the first started) or
 * stop; where it cannot start, the others do every batch.  Its gh_photo
 * is freed once no batch is left, beside the others' last batches. */
static void *
lane_main (void *arg)
{
  lane *l = arg;
  photo_run *run = l->run;
  gh_error err;
  int go;

  if (!l->p && gh_photo_create (BATCH, &l->p, &err) != GH_OK)
    l->p = NULL;
  pthread_mutex_lock (&run->lock);
  while (!(go = run->go))
    pthread_cond_wait (&run->turn, &run->lock);
  pthread_mutex_unlock (&run->lock);
  if (!l->p)
    return NULL;
  if (go > 0)
    run_lane (l);
  {
    double t = cli_now ();
    l->used = go > 0;
    gh_photo_get_timings (l->p, &l->t);
    gh_photo_destroy (l->p);
    l->p = NULL;
    l->free_s = cli_now () - t;
  }
  return NULL;
}

/* The readers and lanes told to stop, or to go (go: -1 or 1). */
static void
set_go (photo_run *run, int go)
{
  pthread_mutex_lock (&run->lock);
  run->go = go;
  run->stop = go < 0;
  pthread_cond_broadcast (&run->turn);
  pthread_mutex_unlock (&run->lock);
}

/* Waits for the lanes beyond the first and for the readers. */
static void
join_workers (const pthread_t *threads, const int *started, int n_lanes,
              const pthread_t *readers, int n_readers)
{
  for (int l = 1; l < n_lanes; l++)
    if (started[l])
      pthread_join (threads[l], NULL);
  for (int r = 0; r < n_readers; r++)
    pthread_join (readers[r], NULL);
}

int
cli_photo_run (const cli_options *o, int (*fallback) (void *, int),
               void *arg, cli_progress *progress, int *rc)
{
  static photo_run run; /* large: off the stack */
  lane lanes[LANES];
  pthread_t threads[LANES], readers[READERS];
  int n_lanes, n_readers = 0, started[LANES] = { 0 }, used = 0;
  gh_error err;
  gh_photo_timings t;
  int batch = o->n_inputs < BATCH ? o->n_inputs : BATCH;
  double start = cli_now (), created, lane_start = 0, lane_free = 0;
  gh_histogram reference;

  if (count_reference (o, &reference))
    {
      if (o->decoder == CLI_DECODER_GPU)
        fprintf (stderr, "--decoder gpu: the reference cannot be read: "
                 "decoding on the CPU\n");
      return -1;
    }
  memset (&run, 0, sizeof run);
  memset (lanes, 0, sizeof lanes);
  memset (&t, 0, sizeof t);
  run.o = o;
  run.reference = reference;
  run.progress = progress;
  run.batches = (o->n_inputs + BATCH - 1) / BATCH;
  run.fallback = fallback;
  run.arg = arg;
  pthread_mutex_init (&run.lock, NULL);
  pthread_cond_init (&run.turn, NULL);
  for (int b = 0; b < SLOTS; b++)
    {
      run.slots[b].run = &run;
      run.slots[b].ready = -1;
    }
  /* The reads start first, and the lanes beyond the first: the device's
   * start (a second or so) overlaps them. */
  for (int r = 0; r < READERS && r < run.batches; r++)
    if (!pthread_create (&readers[n_readers], NULL, reader_main, &run))
      n_readers++;
  n_lanes = run.batches < LANES ? run.batches : LANES;
  for (int l = 0; l < n_lanes; l++)
    {
      lanes[l].run = &run;
      if (l > 0)
        started[l] = !pthread_create (&threads[l], NULL, lane_main, &lanes[l]);
    }
  /* The first lane's gh_photo: none (or no reader), the CPU path. */
  if (n_readers == 0 || gh_photo_create (batch, &lanes[0].p, &err) != GH_OK)
    {
      if (o->decoder == CLI_DECODER_GPU)
        fprintf (stderr, "--decoder gpu: %s: decoding on the CPU\n",
                 n_readers ? err.message : "no reader thread");
      set_go (&run, -1);
      join_workers (threads, started, n_lanes, readers, n_readers);
      for (int b = 0; b < SLOTS; b++)
        for (int k = 0; k < BATCH; k++)
          free (run.slots[b].data[k]);
      gh_histogram_clear (&run.reference);
      pthread_mutex_destroy (&run.lock);
      pthread_cond_destroy (&run.turn);
      return -1;
    }
  created = cli_now ();
  set_go (&run, 1);
  lane_main (&lanes[0]);
  join_workers (threads, started, n_lanes, readers, n_readers);
  for (int b = 0; b < SLOTS; b++)
    {
      slot *s = &run.slots[b];
      if (s->writing)
        pthread_join (s->writer, NULL);
      for (int k = 0; k < BATCH; k++)
        {
          free (s->data[k]);
          free (s->items[k].encoded);
        }
    }
  for (int l = 0; l < n_lanes; l++)
    {
      const gh_photo_timings *lt = &lanes[l].t;
      if (!lanes[l].used)
        continue;
      used++;
      t.decode += lt->decode;
      t.count += lt->count;
      t.apply += lt->apply;
      t.encode += lt->encode;
      t.images += lt->images;
      t.hardware += lt->hardware;
      lane_start = lt->start > lane_start ? lt->start : lane_start;
      lane_free = lanes[l].free_s > lane_free ? lanes[l].free_s : lane_free;
    }
  if (o->timings)
    fprintf (stderr,
             "timings: files %d, on the GPU %lu (%lu by the hardware "
             "decoder), %d lanes; read %.1f ms, decode %.1f ms, count %.1f "
             "ms, apply %.1f ms, encode %.1f ms, write %.1f ms (summed over "
             "the lanes' and writers' threads, overlapped), gpu ready after "
             "%.1f ms (the first lane's start: device %.1f ms, buffers and "
             "nvJPEG's handles %.1f ms, states %.1f ms; a lane's start %.1f "
             "ms at most, its end %.1f ms), main %.1f ms\n",
             o->n_inputs, t.images, t.hardware, used, run.read_s * 1e3,
             t.decode * 1e3, t.count * 1e3, t.apply * 1e3, t.encode * 1e3,
             run.write_s * 1e3, (created - start) * 1e3,
             lanes[0].t.start_context * 1e3, lanes[0].t.start_handles * 1e3,
             (lanes[0].t.start - lanes[0].t.start_context
              - lanes[0].t.start_handles) * 1e3,
             lane_start * 1e3, lane_free * 1e3, (cli_now () - start) * 1e3);
  gh_histogram_clear (&run.reference);
  pthread_mutex_destroy (&run.lock);
  pthread_cond_destroy (&run.turn);
  *rc = run.rc;
  return 0;
}
#endif
