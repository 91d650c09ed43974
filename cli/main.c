/* gpu-histogram-cli — the engine from the command line, on netpbm files.
 *
 * Prints the backend and the statistics of every channel; optionally
 * writes the histogram as CSV, an equalized copy and a binarized copy,
 * and goes beyond GIMP: CLAHE, histogram matching to a reference image,
 * multi-level Otsu thresholds and a posterized copy by them.
 * A third host of the engine beside the GIMP 2.10 and GIMP 3 plug-ins: the
 * names, the CSV bytes and what equalize and binarize do come from the
 * engine's shared API, so all three agree.  Images stream through in
 * strips, so memory stays bounded; output files are written under a
 * temporary name in their folder and renamed when complete.  Run with
 * --help for the options.
 */
#define _POSIX_C_SOURCE 200809L
#include "gpu_histogram.h"
#include "pnm.h"
#include "whole.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STRIP_ROWS 256

/* Where the time goes (--timings): reading and decoding the files, and
 * writing results; the engine keeps its own (gh_engine_timings). */
static struct {
  double decode, encode;
} timers;

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

typedef struct {
  const char **inputs;
  int n_inputs;
  int timings;
  const char *mask, *histogram, *equalize, *binarize;
  const char *clahe, *match, *reference, *posterize;
  gh_clahe_params clahe_params;
  int classes; /* --multi-otsu; 0: not asked */
  gh_backend backend;
  gh_luminance luminance;
  gh_equalize_mode equalize_mode;
  int lo, hi;
  int channel; /* -1: default */
  int threshold;
  int smem_cap_kb; /* --smem-cap; 0: the device's own limit */
} cli_options;

static void
usage (FILE *out)
{
  fputs (
    "usage: gpu-histogram-cli [options] INPUT...\n"
    "  INPUT             8-bit netpbm image: P5, P6 or P7 (GRAYSCALE,\n"
    "                    GRAYSCALE_ALPHA, RGB, RGB_ALPHA); several inputs\n"
    "                    are counted in turn by one engine, each printed\n"
    "                    after a 'file: NAME' line (statistics only)\n"
    "  --timings         print where the time went on stderr\n"
    "  --backend B       auto (default), cpu or cuda\n"
    "  --smem-cap KB     testing: the shared memory a GPU block may use,\n"
    "                    below the device's limit (64: Turing, 99: RTX 30/\n"
    "                    40/50, 163: A100), so one GPU runs the kernels\n"
    "                    smaller ones launch (0, default: the device's)\n"
    "  --luminance RULE  perceptual (default: GIMP 2.10's, Y' of the stored\n"
    "                    R'G'B') or linear (GIMP 3's, Y of linear light)\n"
    "  --mask FILE       P5 selection mask of the same size (0..255)\n"
    "  --range LO:HI     bins for the statistics (default 0:255)\n"
    "  --histogram FILE  write the histogram as CSV, as the GIMP plug-ins\n"
    "                    export it (bin,value,red,green,blue,alpha,luminance)\n"
    "  --equalize FILE   write an equalized copy (--equalize-mode)\n"
    "  --equalize-mode M channels (default): each colour channel, as OpenCV's\n"
    "                    equalizeHist; luminance: the luminance only, hue\n"
    "                    kept (gray images: the same as channels)\n"
    "  --binarize FILE   write a copy binarized on --channel\n"
    "  --channel NAME    value, red, green, blue, alpha or luminance\n"
    "                    (default: luminance for colour, value for gray)\n"
    "  --threshold T     -1 (default): Otsu; or 0..254 (levels above turn\n"
    "                    white)\n"
    "  --clahe FILE      write a CLAHE copy (OpenCV's createCLAHE(...).apply\n"
    "                    per channel, or the luminance: --equalize-mode)\n"
    "  --clahe-params C,TX,TY  clip limit (0: none) and tile grid (1..256\n"
    "                    each; default 2,8,8)\n"
    "  --match FILE      write a copy whose histogram matches --reference's\n"
    "                    (scikit-image's match_histograms, rounded to the\n"
    "                    nearest level; --equalize-mode)\n"
    "  --reference REF   the netpbm image --match matches\n"
    "  --multi-otsu K    print the K - 1 multi-level Otsu thresholds of\n"
    "                    --channel (K classes, 2..5; scikit-image's\n"
    "                    threshold_multiotsu)\n"
    "  --posterize FILE  write a copy with each class of --channel painted\n"
    "                    with its level (K of --multi-otsu, default 3)\n"
    "Output files appear only when complete (written under a temporary\n"
    "name in the same folder, then renamed).\n",
    out);
}

static int
parse_int (const char *s, int lo, int hi, int *out)
{
  char *end;
  long v;
  errno = 0;
  v = strtol (s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi)
    return -1;
  *out = (int) v;
  return 0;
}

static int
parse_args (int argc, char **argv, cli_options *o)
{
  memset (o, 0, sizeof *o);
  /* argv outlives the options: the inputs point into it. */
  o->inputs = calloc ((size_t) argc, sizeof *o->inputs);
  if (!o->inputs)
    return fprintf (stderr, "out of memory\n"), -1;
  o->luminance = GH_LUMINANCE_PERCEPTUAL;
  o->equalize_mode = GH_EQUALIZE_CHANNELS;
  o->hi = 255;
  o->channel = -1;
  o->threshold = -1;
  o->clahe_params.clip_limit = 2.0;
  o->clahe_params.tiles_x = o->clahe_params.tiles_y = 8;
  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i];
      const char *v = i + 1 < argc ? argv[i + 1] : NULL;
      if (!strcmp (a, "--help"))
        {
          usage (stdout);
          exit (0);
        }
      if (a[0] != '-' || a[1] != '-')
        {
          o->inputs[o->n_inputs++] = a;
          continue;
        }
      if (!strcmp (a, "--timings"))
        {
          o->timings = 1;
          continue;
        }
      if (!v)
        return fprintf (stderr, "%s needs a value\n", a), -1;
      i++;
      if (!strcmp (a, "--backend"))
        {
          if (gh_backend_parse (v, &o->backend))
            return fprintf (stderr, "unknown backend '%s'\n", v), -1;
        }
      else if (!strcmp (a, "--luminance"))
        {
          if (!strcmp (v, "perceptual"))
            o->luminance = GH_LUMINANCE_PERCEPTUAL;
          else if (!strcmp (v, "linear"))
            o->luminance = GH_LUMINANCE_LINEAR;
          else
            return fprintf (stderr,
                            "--luminance takes perceptual or linear\n"),
                   -1;
        }
      else if (!strcmp (a, "--equalize-mode"))
        {
          if (!strcmp (v, "channels"))
            o->equalize_mode = GH_EQUALIZE_CHANNELS;
          else if (!strcmp (v, "luminance"))
            o->equalize_mode = GH_EQUALIZE_LUMINANCE;
          else
            return fprintf (stderr,
                            "--equalize-mode takes channels or luminance\n"),
                   -1;
        }
      else if (!strcmp (a, "--mask"))
        o->mask = v;
      else if (!strcmp (a, "--histogram"))
        o->histogram = v;
      else if (!strcmp (a, "--equalize"))
        o->equalize = v;
      else if (!strcmp (a, "--binarize"))
        o->binarize = v;
      else if (!strcmp (a, "--clahe"))
        o->clahe = v;
      else if (!strcmp (a, "--match"))
        o->match = v;
      else if (!strcmp (a, "--reference"))
        o->reference = v;
      else if (!strcmp (a, "--posterize"))
        o->posterize = v;
      else if (!strcmp (a, "--multi-otsu"))
        {
          if (parse_int (v, 2, GH_MULTI_OTSU_MAX_CLASSES, &o->classes))
            return fprintf (stderr, "--multi-otsu takes 2..%d classes\n",
                            GH_MULTI_OTSU_MAX_CLASSES),
                   -1;
        }
      else if (!strcmp (a, "--clahe-params"))
        {
          gh_clahe_params *c = &o->clahe_params;
          char tail;
          if (sscanf (v, "%lf,%d,%d%c", &c->clip_limit, &c->tiles_x,
                      &c->tiles_y, &tail) != 3
              || !(c->clip_limit >= 0) || c->clip_limit > 1e9
              || c->tiles_x < 1 || c->tiles_x > GH_CLAHE_MAX_TILES
              || c->tiles_y < 1 || c->tiles_y > GH_CLAHE_MAX_TILES)
            return fprintf (stderr,
                            "--clahe-params takes CLIP,TX,TY: a clip limit "
                            ">= 0 and tiles 1..%d\n",
                            GH_CLAHE_MAX_TILES),
                   -1;
        }
      else if (!strcmp (a, "--smem-cap"))
        {
          if (parse_int (v, 0, 1 << 20, &o->smem_cap_kb))
            return fprintf (stderr, "--smem-cap takes kilobytes, 0 or more\n"),
                   -1;
        }
      else if (!strcmp (a, "--threshold"))
        {
          if (parse_int (v, -1, 254, &o->threshold))
            return fprintf (stderr, "--threshold takes -1 or 0..254\n"), -1;
        }
      else if (!strcmp (a, "--range"))
        {
          char lo[16], hi[16];
          if (sscanf (v, "%15[0-9]:%15[0-9]", lo, hi) != 2
              || parse_int (lo, 0, 255, &o->lo)
              || parse_int (hi, 0, 255, &o->hi) || o->lo > o->hi)
            return fprintf (stderr, "--range takes LO:HI in 0..255\n"), -1;
        }
      else if (!strcmp (a, "--channel"))
        {
          if ((o->channel = gh_channel_parse (v)) < 0)
            return fprintf (stderr, "unknown channel '%s'\n", v), -1;
        }
      else
        return fprintf (stderr, "unknown option %s\n", a), -1;
    }
  if (o->n_inputs == 0)
    return fprintf (stderr, "no input image given\n"), -1;
  if (o->n_inputs > 1
      && (o->mask || o->histogram || o->equalize || o->binarize || o->clahe
          || o->match || o->posterize || o->classes))
    return fprintf (stderr, "--mask, --multi-otsu and the output files take "
                            "one input\n"),
           -1;
  if (!o->match != !o->reference)
    return fprintf (stderr, "--match and --reference go together\n"), -1;
  if (o->posterize && !o->classes)
    o->classes = 3;
  return 0;
}

/* Streams the image (and mask) through the engine in strips. */
static int
compute_histogram (gh_engine *engine, pnm_image *im, pnm_image *mask,
                   gh_luminance luminance, gh_histogram *hist)
{
  size_t row = im->width * (size_t) im->depth;
  uint8_t *buf = malloc (row * STRIP_ROWS);
  uint8_t *mbuf = mask ? malloc (im->width * STRIP_ROWS) : NULL;
  gh_image desc = { (gh_layout) im->depth, GH_SAMPLE_U8, 256, mask != NULL,
                    luminance };
  gh_error err;
  int rc = -1;

  if (!buf || (mask && !mbuf))
    {
      fprintf (stderr, "out of memory\n");
      goto out;
    }
  if (gh_engine_begin (engine, &desc, &err) != GH_OK)
    {
      fprintf (stderr, "%s\n", err.message);
      goto out;
    }
  for (size_t y = 0; y < im->height; y += STRIP_ROWS)
    {
      size_t rows = im->height - y < STRIP_ROWS ? im->height - y : STRIP_ROWS;
      gh_piece piece = { buf, im->width, rows, row, mbuf, im->width };
      double t = now ();
      if (pnm_read_rows (im, buf, rows)
          || (mask && pnm_read_rows (mask, mbuf, rows)))
        {
          fprintf (stderr, "the image or mask file is truncated\n");
          goto out;
        }
      timers.decode += now () - t;
      if (gh_engine_feed (engine, &piece, &err) != GH_OK)
        {
          fprintf (stderr, "%s\n", err.message);
          goto out;
        }
    }
  if (gh_engine_finish (engine, hist, &err) != GH_OK)
    {
      fprintf (stderr, "%s\n", err.message);
      goto out;
    }
  rc = 0;
out:
  free (buf);
  free (mbuf);
  return rc;
}

static void
print_stats (const gh_histogram *h, int lo, int hi)
{
  printf ("channel,count,pixels,percentile,min,max,mean,median,std_dev,otsu\n");
  for (int c = 0; c < GH_NUM_CHANNELS; c++)
    {
      gh_stats s;
      if (!(h->channels & (1u << c))
          || gh_stats_compute (h, (gh_channel) c, lo, hi, &s) != GH_OK)
        continue;
      printf ("%s,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g\n",
              gh_channel_name ((gh_channel) c), s.count, s.pixels, s.percentile, s.min, s.max,
              s.mean, s.median, s.std_dev, s.otsu);
    }
}

/* Opens `path` to be written whole (io/whole.h); 0 or -1 (said). */
static int
output_open (io_whole_file *out, const char *path)
{
  int errsv = io_whole_open (out, path);

  if (errsv)
    fprintf (stderr, "cannot write %s: %s\n", path, strerror (errsv));
  return errsv ? -1 : 0;
}

/* Puts the file in place when `ok`, else removes it; 0 when in place. */
static int
output_finish (io_whole_file *out, int ok)
{
  int errsv = io_whole_close (out, ok);

  if (ok && errsv)
    fprintf (stderr, "cannot write %s: %s\n", out->path, strerror (errsv));
  return errsv ? -1 : 0;
}

static int
write_csv (const char *path, const gh_histogram *h)
{
  io_whole_file out;

  if (output_open (&out, path))
    return -1;
  return output_finish (&out, gh_csv_write_histogram (out.file, h) == 0);
}

/* Rewrites the image strip by strip through an operation, each strip at
 * its place (CLAHE's mapping depends on it). */
static int
rewrite (pnm_image *im, const char *path, const gh_op *op)
{
  size_t row = im->width * (size_t) im->depth;
  uint8_t *buf = malloc (row * STRIP_ROWS);
  io_whole_file out;
  int ok = 0;

  if (!buf)
    return fprintf (stderr, "out of memory\n"), -1;
  if (output_open (&out, path))
    {
      free (buf);
      return -1;
    }
  if (pnm_rewind (im) || pnm_write_header (out.file, im))
    {
      fprintf (stderr, "cannot write %s\n", path);
      goto done;
    }
  for (size_t y = 0; y < im->height; y += STRIP_ROWS)
    {
      size_t rows = im->height - y < STRIP_ROWS ? im->height - y : STRIP_ROWS;
      gh_error err;
      if (pnm_read_rows (im, buf, rows))
        {
          fprintf (stderr, "the image file is truncated\n");
          goto done;
        }
      if (gh_op_apply_rect (op, buf, 0, y, im->width, rows, row, &err)
          != GH_OK)
        {
          fprintf (stderr, "%s\n", err.message);
          goto done;
        }
      if (fwrite (buf, 1, row * rows, out.file) != row * rows)
        {
          fprintf (stderr, "cannot write %s\n", path);
          goto done;
        }
    }
  ok = 1;
done:
  free (buf);
  return output_finish (&out, ok);
}

/* Writes `path` through `op`, then clears it. */
static int
apply_op (pnm_image *im, const char *path, gh_op *op)
{
  int rc = rewrite (im, path, op);
  gh_op_clear (op);
  return rc;
}

/* CLAHE's tile histograms: the image streamed once more, in strips. */
static int
prepare_clahe (gh_engine *engine, const gh_clahe_params *params,
               gh_luminance luminance, pnm_image *im, gh_op *op)
{
  size_t row = im->width * (size_t) im->depth;
  uint8_t *buf = malloc (row * STRIP_ROWS);
  gh_clahe *c = NULL;
  gh_error err;
  int rc = -1;

  if (!buf)
    return fprintf (stderr, "out of memory\n"), -1;
  if (pnm_rewind (im))
    {
      fprintf (stderr, "cannot read the image again\n");
      goto out;
    }
  if (gh_clahe_begin (engine, params, (gh_layout) im->depth,
                      GH_SAMPLE_U8, luminance, 256, im->width,
                      im->height, &c, &err)
      != GH_OK)
    goto fail;
  for (size_t y = 0; y < im->height; y += STRIP_ROWS)
    {
      size_t rows = im->height - y < STRIP_ROWS ? im->height - y : STRIP_ROWS;
      if (pnm_read_rows (im, buf, rows))
        {
          fprintf (stderr, "the image file is truncated\n");
          goto out;
        }
      if (gh_clahe_feed (c, buf, y, rows, row, &err) != GH_OK)
        goto fail;
    }
  if (gh_op_clahe (op, c, &err) == GH_OK)
    {
      rc = 0;
      goto out;
    }
fail:
  fprintf (stderr, "%s\n", err.message);
out:
  gh_clahe_destroy (c);
  free (buf);
  return rc;
}

/* The histogram of the --reference image, counted by the same engine. */
static int
reference_histogram (gh_engine *engine, const cli_options *o,
                     gh_histogram *hist)
{
  pnm_image ref;
  char msg[256];
  int rc;

  if (pnm_open (o->reference, &ref, msg, sizeof msg))
    return fprintf (stderr, "%s\n", msg), -1;
  rc = compute_histogram (engine, &ref, NULL, o->luminance, hist);
  pnm_close (&ref);
  return rc;
}

/* Counts one file and prints (and writes) what the options ask for.
 * `im` is open; 0 on success. */
static int
process_file (gh_engine *engine, const cli_options *o, pnm_image *im)
{
  pnm_image mask;
  gh_histogram hist;
  gh_error err;
  gh_layout layout = (gh_layout) im->depth;
  char msg[256];
  int rc = 1;
  double t;

  gh_histogram_init (&hist);
  if (o->mask)
    {
      if (pnm_open (o->mask, &mask, msg, sizeof msg))
        {
          fprintf (stderr, "%s\n", msg);
          return 1;
        }
      if (mask.depth != 1 || mask.width != im->width
          || mask.height != im->height)
        {
          fprintf (stderr, "the mask must be a gray image of %zux%zu\n",
                   im->width, im->height);
          goto out;
        }
    }
  if (compute_histogram (engine, im, o->mask ? &mask : NULL, o->luminance,
                         &hist))
    goto out;
  t = now ();
  printf ("backend: %s\n", gh_engine_backend_name (engine));
  print_stats (&hist, o->lo, o->hi);
  if (o->histogram && write_csv (o->histogram, &hist))
    goto out;
  if (o->equalize)
    {
      gh_op op;
      if (gh_op_equalize (&op, &hist, layout, GH_SAMPLE_U8, o->luminance,
                          o->equalize_mode, &err)
          != GH_OK)
        {
          fprintf (stderr, "%s\n", err.message);
          goto out;
        }
      if (apply_op (im, o->equalize, &op))
        goto out;
    }
  if (o->binarize)
    {
      gh_channel channel = o->channel >= 0
                             ? (gh_channel) o->channel
                             : gh_default_binarize_channel (layout);
      gh_op op;
      int bin;
      if (!(gh_layout_channel_mask (layout) & (1u << channel)))
        {
          fprintf (stderr, "this image has no %s channel\n",
                   gh_channel_name (channel));
          goto out;
        }
      if (o->threshold >= 0)
        bin = gh_threshold_bin (o->threshold, hist.bins);
      else
        {
          double counts[256];
          gh_histogram_counts (&hist, channel, counts);
          bin = gh_otsu_threshold (counts, 0, hist.bins - 1);
        }
      printf ("threshold: %d\n", o->threshold >= 0
                                   ? o->threshold
                                   : gh_threshold_level (bin, hist.bins));
      if (gh_op_binarize (&op, layout, GH_SAMPLE_U8, o->luminance, hist.bins,
                          channel, bin, &err)
          != GH_OK)
        {
          fprintf (stderr, "%s\n", err.message);
          goto out;
        }
      if (apply_op (im, o->binarize, &op))
        goto out;
    }
  if (o->clahe)
    {
      gh_op op;
      gh_clahe_params p = o->clahe_params;
      p.mode = o->equalize_mode;
      if (prepare_clahe (engine, &p, o->luminance, im, &op)
          || apply_op (im, o->clahe, &op))
        goto out;
    }
  if (o->match)
    {
      gh_op op;
      gh_histogram ref;
      gh_status st;
      gh_histogram_init (&ref);
      if (reference_histogram (engine, o, &ref))
        {
          gh_histogram_clear (&ref);
          goto out;
        }
      st = gh_op_match (&op, &hist, &ref, layout, GH_SAMPLE_U8, o->luminance,
                        o->equalize_mode, &err);
      gh_histogram_clear (&ref);
      if (st != GH_OK)
        {
          fprintf (stderr, "%s\n", err.message);
          goto out;
        }
      if (apply_op (im, o->match, &op))
        goto out;
    }
  if (o->classes)
    {
      gh_channel channel = o->channel >= 0
                             ? (gh_channel) o->channel
                             : gh_default_binarize_channel (layout);
      double counts[256];
      int thresholds[GH_MULTI_OTSU_MAX_CLASSES - 1];
      if (!(gh_layout_channel_mask (layout) & (1u << channel)))
        {
          fprintf (stderr, "this image has no %s channel\n",
                   gh_channel_name (channel));
          goto out;
        }
      gh_histogram_counts (&hist, channel, counts);
      if (gh_multi_otsu (counts, hist.bins, o->classes, thresholds, &err)
          != GH_OK)
        {
          fprintf (stderr, "%s\n", err.message);
          goto out;
        }
      printf ("thresholds:");
      for (int i = 0; i < o->classes - 1; i++)
        printf ("%s%d", i ? "," : " ", thresholds[i]);
      printf ("\n");
      if (o->posterize)
        {
          gh_op op;
          if (gh_op_posterize (&op, layout, GH_SAMPLE_U8, o->luminance,
                               hist.bins, channel, o->classes - 1,
                               thresholds, &err)
              != GH_OK)
            {
              fprintf (stderr, "%s\n", err.message);
              goto out;
            }
          if (apply_op (im, o->posterize, &op))
            goto out;
        }
    }
  timers.encode += now () - t;
  rc = 0;
out:
  gh_histogram_clear (&hist);
  if (o->mask)
    pnm_close (&mask);
  return rc;
}

/* --timings: one line on stderr, milliseconds. */
static void
print_timings (const gh_engine *engine, int files, double create,
               double start)
{
  gh_timings t;
  gh_engine_timings (engine, &t);
  fprintf (stderr,
           "timings: files %d, decode %.1f ms, count %.1f ms (cpu %.1f ms "
           "for %llu px, gpu %.1f ms for %llu px: staging, transfer and "
           "kernels overlapped), gpu ready after %.1f ms, encode %.1f ms, "
           "engine create %.1f ms, main %.1f ms\n",
           files, timers.decode * 1e3, (t.cpu_count + t.gpu_count) * 1e3,
           t.cpu_count * 1e3, (unsigned long long) t.cpu_pixels,
           t.gpu_count * 1e3, (unsigned long long) t.gpu_pixels,
           t.gpu_ready * 1e3, timers.encode * 1e3, create * 1e3,
           (now () - start) * 1e3);
}

/* The work expected: the pixels of every input, from their headers, so
 * AUTO starts no GPU that the CPU would beat (a GPU started for nothing
 * is joined at exit: one large file and many small ones cost 0.4 s more
 * on the GPU machine when the first file's size stood for all).  A file
 * that cannot be opened counts nothing here and is reported in turn. */
static size_t
expected_pixels (const cli_options *o, const pnm_image *first, int at)
{
  size_t total = first->width * first->height;
  char msg[256];

  for (int i = at + 1; i < o->n_inputs; i++)
    {
      pnm_image im;
      if (!pnm_open (o->inputs[i], &im, msg, sizeof msg))
        {
          total += im.width * im.height;
          pnm_close (&im);
        }
    }
  return total;
}

int
main (int argc, char **argv)
{
  cli_options o;
  pnm_image im;
  gh_options eo;
  gh_engine *engine = NULL;
  gh_error err;
  char msg[256];
  int rc = 0;
  double start = now (), create = 0;

  if (parse_args (argc, argv, &o))
    {
      usage (stderr);
      return 2;
    }
  for (int i = 0; i < o.n_inputs; i++)
    {
      double t = now ();
      if (pnm_open (o.inputs[i], &im, msg, sizeof msg))
        {
          fprintf (stderr, "%s\n", msg);
          rc = 1;
          continue;
        }
      if (!engine)
        {
          gh_options_init (&eo);
          eo.backend = o.backend;
          eo.smem_cap = (size_t) o.smem_cap_kb * 1024;
          eo.expected_pixels = expected_pixels (&o, &im, i);
        }
      timers.decode += now () - t;
      if (!engine)
        {
          t = now ();
          if (gh_engine_create (&eo, &engine, &err) != GH_OK)
            {
              fprintf (stderr, "%s\n", err.message);
              pnm_close (&im);
              free (o.inputs);
              return 1;
            }
          create = now () - t;
        }
      if (o.n_inputs > 1)
        printf ("file: %s\n", o.inputs[i]);
      if (process_file (engine, &o, &im))
        rc = 1;
      pnm_close (&im);
    }
  if (engine && o.timings)
    print_timings (engine, o.n_inputs, create, start);
  gh_engine_destroy (engine);
  free (o.inputs);
  return rc;
}
