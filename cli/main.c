/* gpu-histogram-cli — the engine from the command line, on netpbm files.
 *
 * Prints the backend and the statistics of every channel; optionally
 * writes the histogram as CSV, an equalized copy and a binarized copy.
 * Images stream through in strips, so memory stays bounded.  Run with
 * --help for the options.
 */
#include "gpu_histogram.h"
#include "pnm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STRIP_ROWS 256

static const char *const channel_names[GH_NUM_CHANNELS]
  = { "value", "red", "green", "blue", "alpha", "luminance" };

typedef struct {
  const char *input, *mask, *histogram, *equalize, *binarize;
  gh_backend backend;
  int lo, hi;
  int channel; /* -1: default */
  int threshold;
} cli_options;

static void
usage (FILE *out)
{
  fputs (
    "usage: gpu-histogram-cli [options] INPUT\n"
    "  INPUT             8-bit netpbm image: P5, P6 or P7 (GRAYSCALE,\n"
    "                    GRAYSCALE_ALPHA, RGB, RGB_ALPHA)\n"
    "  --backend B       auto (default), cpu or cuda\n"
    "  --mask FILE       P5 selection mask of the same size (0..255)\n"
    "  --range LO:HI     bins for the statistics (default 0:255)\n"
    "  --histogram FILE  write the histogram as CSV\n"
    "  --equalize FILE   write a copy with each colour channel equalized\n"
    "  --binarize FILE   write a copy binarized on --channel\n"
    "  --channel NAME    value, red, green, blue, alpha or luminance\n"
    "                    (default: luminance for colour, value for gray)\n"
    "  --threshold T     -1 (default): Otsu; or 0..254\n",
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
  o->hi = 255;
  o->channel = -1;
  o->threshold = -1;
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
          if (o->input)
            return fprintf (stderr, "more than one input given\n"), -1;
          o->input = a;
          continue;
        }
      if (!v)
        return fprintf (stderr, "%s needs a value\n", a), -1;
      i++;
      if (!strcmp (a, "--backend"))
        {
          if (!strcmp (v, "auto"))
            o->backend = GH_BACKEND_AUTO;
          else if (!strcmp (v, "cpu"))
            o->backend = GH_BACKEND_CPU;
          else if (!strcmp (v, "cuda"))
            o->backend = GH_BACKEND_CUDA;
          else
            return fprintf (stderr, "unknown backend '%s'\n", v), -1;
        }
      else if (!strcmp (a, "--mask"))
        o->mask = v;
      else if (!strcmp (a, "--histogram"))
        o->histogram = v;
      else if (!strcmp (a, "--equalize"))
        o->equalize = v;
      else if (!strcmp (a, "--binarize"))
        o->binarize = v;
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
          o->channel = -1;
          for (int c = 0; c < GH_NUM_CHANNELS; c++)
            if (!strcmp (v, channel_names[c]))
              o->channel = c;
          if (o->channel < 0)
            return fprintf (stderr, "unknown channel '%s'\n", v), -1;
        }
      else
        return fprintf (stderr, "unknown option %s\n", a), -1;
    }
  if (!o->input)
    return fprintf (stderr, "no input image given\n"), -1;
  return 0;
}

/* Streams the image (and mask) through the engine in strips. */
static int
compute_histogram (gh_engine *engine, pnm_image *im, pnm_image *mask,
                   gh_histogram *hist)
{
  size_t row = im->width * (size_t) im->depth;
  uint8_t *buf = malloc (row * STRIP_ROWS);
  uint8_t *mbuf = mask ? malloc (im->width * STRIP_ROWS) : NULL;
  gh_image desc = { (gh_layout) im->depth, GH_SAMPLE_U8, 256, mask != NULL };
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
      if (pnm_read_rows (im, buf, rows)
          || (mask && pnm_read_rows (mask, mbuf, rows)))
        {
          fprintf (stderr, "the image or mask file is truncated\n");
          goto out;
        }
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
              channel_names[c], s.count, s.pixels, s.percentile, s.min, s.max,
              s.mean, s.median, s.std_dev, s.otsu);
    }
}

static int
write_csv (const char *path, const gh_histogram *h)
{
  FILE *f = fopen (path, "w");
  if (!f)
    return fprintf (stderr, "cannot write %s\n", path), -1;
  fprintf (f, "bin,value,red,green,blue,alpha,luminance\n");
  for (int b = 0; b < h->bins; b++)
    {
      fprintf (f, "%d", b);
      for (int c = 0; c < GH_NUM_CHANNELS; c++)
        fprintf (f, ",%.17g", gh_histogram_count (h, (gh_channel) c, b));
      fprintf (f, "\n");
    }
  return fclose (f) ? -1 : 0;
}

/* Rewrites the image strip by strip through one of the apply functions. */
typedef gh_status (*strip_fn) (gh_layout, uint8_t *, size_t, size_t,
                               const void *, gh_error *);

static int
rewrite (pnm_image *im, const char *path, strip_fn fn, const void *arg)
{
  size_t row = im->width * (size_t) im->depth;
  uint8_t *buf = malloc (row * STRIP_ROWS);
  FILE *out = fopen (path, "wb");
  int rc = -1;

  if (!buf || !out || pnm_rewind (im) || pnm_write_header (out, im))
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
      if (fn ((gh_layout) im->depth, buf, im->width, rows, arg, &err)
          != GH_OK)
        {
          fprintf (stderr, "%s\n", err.message);
          goto done;
        }
      if (fwrite (buf, 1, row * rows, out) != row * rows)
        {
          fprintf (stderr, "cannot write %s\n", path);
          goto done;
        }
    }
  rc = 0;
done:
  if (out && fclose (out))
    rc = -1;
  free (buf);
  return rc;
}

static gh_status
equalize_strip (gh_layout layout, uint8_t *p, size_t w, size_t rows,
                const void *tables, gh_error *err)
{
  return gh_apply_tables (layout, p, w, rows, w * (size_t) layout,
                          (const uint16_t *const *) tables, err);
}

typedef struct {
  gh_channel channel;
  int threshold;
} threshold_arg;

static gh_status
binarize_strip (gh_layout layout, uint8_t *p, size_t w, size_t rows,
                const void *arg, gh_error *err)
{
  const threshold_arg *t = arg;
  return gh_apply_threshold (layout, p, w, rows, w * (size_t) layout,
                             t->channel, t->threshold, err);
}

int
main (int argc, char **argv)
{
  cli_options o;
  pnm_image im, mask;
  gh_options eo;
  gh_engine *engine = NULL;
  gh_histogram hist;
  gh_error err;
  char msg[256];
  int rc = 1;

  gh_histogram_init (&hist);
  if (parse_args (argc, argv, &o))
    {
      usage (stderr);
      return 2;
    }
  if (pnm_open (o.input, &im, msg, sizeof msg))
    {
      fprintf (stderr, "%s\n", msg);
      return 1;
    }
  if (o.mask)
    {
      if (pnm_open (o.mask, &mask, msg, sizeof msg))
        {
          fprintf (stderr, "%s\n", msg);
          pnm_close (&im);
          return 1;
        }
      if (mask.depth != 1 || mask.width != im.width
          || mask.height != im.height)
        {
          fprintf (stderr, "the mask must be a gray image of %zux%zu\n",
                   im.width, im.height);
          goto out;
        }
    }
  gh_options_init (&eo);
  eo.backend = o.backend;
  if (gh_engine_create (&eo, &engine, &err) != GH_OK)
    {
      fprintf (stderr, "%s\n", err.message);
      goto out;
    }
  if (compute_histogram (engine, &im, o.mask ? &mask : NULL, &hist))
    goto out;
  printf ("backend: %s\n", gh_engine_backend_name (engine));
  print_stats (&hist, o.lo, o.hi);
  if (o.histogram && write_csv (o.histogram, &hist))
    goto out;
  if (o.equalize)
    {
      static double counts[3][256];
      static uint16_t tables[3][256];
      const uint16_t *t[3] = { tables[0], tables[1], tables[2] };
      int colours = im.depth >= 3 ? 3 : 1;
      for (int k = 0; k < colours; k++)
        {
          gh_histogram_counts (&hist,
                               colours == 3 ? (gh_channel) (GH_CHANNEL_RED + k)
                                            : GH_CHANNEL_VALUE,
                               counts[k]);
          gh_equalize_table (counts[k], 256, tables[k]);
        }
      if (rewrite (&im, o.equalize, equalize_strip, t))
        goto out;
    }
  if (o.binarize)
    {
      threshold_arg t;
      t.channel = o.channel >= 0 ? (gh_channel) o.channel
                  : im.depth >= 3 ? GH_CHANNEL_LUMINANCE
                                  : GH_CHANNEL_VALUE;
      if (!(hist.channels & (1u << t.channel)))
        {
          fprintf (stderr, "this image has no %s channel\n",
                   channel_names[t.channel]);
          goto out;
        }
      t.threshold = o.threshold;
      if (t.threshold < 0)
        {
          double counts[256];
          gh_histogram_counts (&hist, t.channel, counts);
          t.threshold = gh_otsu_threshold (counts, 0, 255);
        }
      printf ("threshold: %d\n", t.threshold);
      if (rewrite (&im, o.binarize, binarize_strip, &t))
        goto out;
    }
  rc = 0;
out:
  gh_histogram_clear (&hist);
  gh_engine_destroy (engine);
  pnm_close (&im);
  if (o.mask)
    pnm_close (&mask);
  return rc;
}
