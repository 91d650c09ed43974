/* SPDX-License-Identifier: GPL-3.0-or-later */
/* options.c — the CLI's command line (options.h).  The options of the
 * operations' parameters and files are the vocabulary's names ("--" +
 * gh_param / gh_operation name); what is written here is the wiring of
 * the others, the aliases kept from before the vocabulary, and the text. */
#include "options.h"

#include "gh_version.h"
#include "layer_channel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_head[] =
  "Usage: gpu-histogram-cli [options] INPUT...\n"
  "  INPUT             an image: 8-bit netpbm (P5, P6 or P7: GRAYSCALE,\n"
  "                    GRAYSCALE_ALPHA, RGB, RGB_ALPHA) and, in a build\n"
  "                    with GEGL, PNG, JPEG, TIFF or WebP (.png, .jpg,\n"
  "                    .jpeg, .tif, .tiff, .webp; 8 or 16 bits, alpha);\n"
  "                    several inputs are run by one engine, as many at\n"
  "                    once as --threads, each printed after a 'file:\n"
  "                    NAME' line, in the order given\n"
  "  --timings         print where the time went on stderr\n"
  "  --quiet           with several inputs, no progress line (shown on\n"
  "                    stderr when it is a terminal) and no summary at\n"
  "                    the end\n"
  "  --backend B       auto (default), cpu or cuda\n"
  "  --decoder D       JPEG inputs written as JPEG: auto (default), cpu\n"
  "                    or gpu.  gpu: decoded, counted, mapped and\n"
  "                    encoded on the GPU through nvJPEG, in batches\n"
  "                    (statistics, and one of equalize of each channel,\n"
  "                    binarize, posterize); cpu: libjpeg's\n"
  "                    bytes; auto: gpu for several JPEG inputs where\n"
  "                    the build has nvJPEG and a GPU is there\n"
  "  --threads N       the CPU threads counting, and the files decoded\n"
  "                    and encoded at once (default 0: one per core)\n"
  "  --smem-cap KB     testing: the shared memory a GPU block may use,\n"
  "                    below the device's limit (64: Turing, 99: RTX 30/\n"
  "                    40/50, 163: A100), so one GPU runs the kernels\n"
  "                    smaller ones launch (0, default: the device's)\n"
  "  --luminance RULE  perceptual (default: GIMP 2.10's, Y' of the stored\n"
  "                    R'G'B') or linear (GIMP 3's, Y of linear light)\n"
  "  --mask FILE       P5 selection mask of the same size (0..255)\n"
  "  --range LO:HI     bins for the statistics (default 0:255)\n"
  "  --quality Q       JPEG and WebP files written: 1..100 (default\n"
  "                    GEGL's, 90)\n"
  "  --auto-orient     write each image upright, turned by its EXIF\n"
  "                    orientation (as ImageMagick's -auto-orient), and\n"
  "                    the tag 1; without, the pixels stay as stored and\n"
  "                    the tag is kept.  An image not upright is held\n"
  "                    whole in memory while written (width x height x\n"
  "                    channels bytes, 4 a channel above 8 bits), once\n"
  "                    more beside the decoded input\n"
  "  --histogram FILE  write the histogram as CSV, as the GIMP plug-ins\n"
  "                    export it (bin,value,red,green,blue,alpha,luminance)\n"
  "  --list-params     print the parameters' names, kinds, ranges,\n"
  "                    operations and value names as CSV, and exit\n"
  "  --help            print this help and exit\n"
  "  --version         print the version and exit\n"
  "Operations, each writing a copy of the image (--mode, --channel, ...\n"
  "below) in the format of FILE's extension (netpbm for .pgm, .ppm, .pnm,\n"
  ".pam or none), at the input's bit depth, alpha and colour profile;\n"
  "with several inputs FILE holds %n, each input's name less its folder\n"
  "and extension (--equalize out/%n.jpg photos/*.jpg):\n";

static const char usage_params[] =
  "Parameters (the plug-in's; each goes to every operation that takes it;\n"
  "--mode and --channel take their values' names too):\n";

static const char usage_tail[] =
  "  --equalize-mode M  the same as --mode M\n"
  "  --clahe-params C,TX,TY  the same as --clip-limit C --tiles-x TX\n"
  "                    --tiles-y TY\n"
  "  --multi-otsu K    the same as --classes K, and print posterize's\n"
  "                    thresholds (with no --posterize too)\n"
  "A --channel not given that a gray image lacks (luminance) is its value.\n"
  "Printed on stdout: 'generator: gpu-histogram-cli VERSION', then for\n"
  "each input (after a 'file: NAME' line when several are given) a\n"
  "'backend: ...' line and the statistics of each channel as CSV\n"
  "(channel,count,pixels,percentile,min,max,mean,median,std_dev,otsu).\n"
  "Output files appear only when complete (written under a temporary\n"
  "name in the same folder, then renamed).\n"
#ifdef GH_HAVE_GEXIV2
  "Metadata: the EXIF, XMP and IPTC of a PNG, JPEG, TIFF or WebP input\n"
  "are kept in the PNG, JPEG, TIFF and WebP files written from it\n"
  "(gexiv2; WebP holds no IPTC; the EXIF thumbnail is left out);\n"
  "netpbm files hold none.\n";
#else
  "Metadata: this build keeps none (built without gexiv2): files\n"
  "written have no EXIF, XMP or IPTC, and --auto-orient finds no\n"
  "orientation.\n";
#endif

/* `text` in lines of at most 52 characters, all but the first indented
 * to the option texts' column. */
static void
wrap (FILE *out, const char *text)
{
  while (strlen (text) > 52)
    {
      int cut = 52;
      while (cut > 0 && text[cut] != ' ')
        cut--;
      if (cut == 0)
        break;
      fprintf (out, "%.*s\n%20s", cut, text, "");
      text += cut + 1;
    }
  fprintf (out, "%s\n", text);
}

/* The parameters' lines: the blurb, the range and each operation's
 * default, all the vocabulary's. */
/* The names of `param`'s values `sep` apart, after `prefix`; nothing for a
 * number. */
static void
print_values (gh_param param, FILE *out, const char *prefix, const char *sep)
{
  int n;
  const gh_param_value *v = gh_param_values (param, &n);

  if (n)
    fputs (prefix, out);
  for (int k = 0; k < n; k++)
    fprintf (out, "%s%s", k ? sep : "", v[k].nick);
}

static void
usage (FILE *out)
{
  fputs (usage_head, out);
  for (int o = GH_REQ_NONE + 1; o < GH_NUM_REQS; o++)
    {
      const gh_operation_spec *s = gh_operation_get ((gh_operation) o);
      /* What cli_print_thresholds prints for it. */
      const char *prints
        = gh_operation_param ((gh_operation) o, GH_PARAM_CLASSES) >= 0
            ? " (prints 'thresholds: T1,T2,...')"
          : gh_operation_param ((gh_operation) o, GH_PARAM_THRESHOLD) >= 0
            ? " (prints 'threshold: T')"
            : "";
      char head[32], text[512];

      snprintf (head, sizeof head, "--%s FILE", s->name);
      snprintf (text, sizeof text, "%s%s", s->blurb, prints);
      fprintf (out, "  %-17s ", head);
      wrap (out, text);
      if (s->needs & GH_NEEDS_REFERENCE)
        fprintf (out, "  %-17s the reference image of --%s\n",
                 "--reference REF", s->name);
    }
  fputs (usage_params, out);
  for (int p = 0; p < GH_NUM_PARAMS; p++)
    {
      const gh_param_spec *s = gh_param_get ((gh_param) p);
      char head[32];
      const char *sep = "; default";

      snprintf (head, sizeof head, "--%s %s", s->name,
                s->is_integer ? "N" : "X");
      fprintf (out, "  %-17s ", head);
      wrap (out, s->blurb);
      fprintf (out, "%20s%g..%g", "", s->min, s->max);
      print_values ((gh_param) p, out, " or ", ", ");
      for (int o = GH_REQ_NONE + 1; o < GH_NUM_REQS; o++)
        if (gh_operation_param ((gh_operation) o, (gh_param) p) >= 0)
          {
            fprintf (out, "%s %s %g", sep, gh_operation_get (o)->name,
                     gh_param_default ((gh_operation) o, (gh_param) p));
            sep = ",";
          }
      fputs ("\n", out);
    }
  fputs (usage_tail, out);
}

/* --list-params: what tests/cli_ranges.py drives the ranges from. */
static void
list_params (void)
{
  printf ("param,integer,min,max,step,operations,values\n");
  for (int p = 0; p < GH_NUM_PARAMS; p++)
    {
      const gh_param_spec *s = gh_param_get ((gh_param) p);
      const char *sep = "";

      printf ("%s,%d,%.17g,%.17g,%.17g,", s->name, s->is_integer, s->min,
              s->max, s->step);
      for (int o = GH_REQ_NONE + 1; o < GH_NUM_REQS; o++)
        if (gh_operation_param ((gh_operation) o, (gh_param) p) >= 0)
          {
            printf ("%s%s", sep, gh_operation_get (o)->name);
            sep = " ";
          }
      printf (",");
      print_values ((gh_param) p, stdout, "", " ");
      printf ("\n");
    }
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

/* One parameter's value, parsed and checked by the vocabulary. */
static int
set_param (cli_options *o, gh_param param, const char *text)
{
  gh_error err;

  if (gh_param_parse (param, text, &o->param[param], &err) != GH_OK)
    return fprintf (stderr, "%s\n", err.message), -1;
  o->given |= 1u << param;
  return 0;
}

/* --clahe-params C,TX,TY: three parameters, each checked as its own. */
static int
set_clahe_params (cli_options *o, const char *v)
{
  static const gh_param order[3] = { GH_PARAM_CLIP_LIMIT, GH_PARAM_TILES_X,
                                     GH_PARAM_TILES_Y };
  char buf[96], *field = buf;

  if (strlen (v) >= sizeof buf)
    return fprintf (stderr, "--clahe-params takes CLIP,TX,TY\n"), -1;
  strcpy (buf, v);
  for (int k = 0; k < 3; k++)
    {
      char *comma = strchr (field, ',');
      if ((k < 2) != (comma != NULL))
        return fprintf (stderr, "--clahe-params takes CLIP,TX,TY\n"), -1;
      if (comma)
        *comma = '\0';
      if (set_param (o, order[k], field))
        return -1;
      if (comma) /* the last field has none */
        field = comma + 1;
    }
  return 0;
}

/* The options that take a value; 0 or -1 (said). */
static int
parse_option (cli_options *o, const char *a, const char *v)
{
  int k;

  if ((k = gh_param_lookup (a + 2)) >= 0)
    return set_param (o, (gh_param) k, v);
  if ((k = gh_operation_lookup (a + 2)) > GH_REQ_NONE)
    return o->output[k] = v, 0;
  if (!strcmp (a, "--equalize-mode"))
    return set_param (o, GH_PARAM_MODE, v);
  if (!strcmp (a, "--clahe-params"))
    return set_clahe_params (o, v);
  if (!strcmp (a, "--multi-otsu"))
    return o->thresholds = 1, set_param (o, GH_PARAM_CLASSES, v);
  if (!strcmp (a, "--mask"))
    return o->mask = v, 0;
  if (!strcmp (a, "--histogram"))
    return o->histogram = v, 0;
  if (!strcmp (a, "--reference"))
    return o->reference = v, 0;
  if (!strcmp (a, "--backend"))
    return gh_backend_parse (v, &o->backend)
             ? fprintf (stderr, "unknown backend '%s'\n", v), -1 : 0;
  if (!strcmp (a, "--decoder"))
    {
      if (!strcmp (v, "auto"))
        o->decoder = CLI_DECODER_AUTO;
      else if (!strcmp (v, "cpu"))
        o->decoder = CLI_DECODER_CPU;
      else if (!strcmp (v, "gpu"))
        o->decoder = CLI_DECODER_GPU;
      else
        return fprintf (stderr, "--decoder takes auto, cpu or gpu\n"), -1;
      return 0;
    }
  if (!strcmp (a, "--luminance"))
    {
      if (!strcmp (v, "perceptual"))
        o->luminance = GH_LUMINANCE_PERCEPTUAL;
      else if (!strcmp (v, "linear"))
        o->luminance = GH_LUMINANCE_LINEAR;
      else
        return fprintf (stderr, "--luminance takes perceptual or linear\n"),
               -1;
      return 0;
    }
  if (!strcmp (a, "--smem-cap"))
    return parse_int (v, 0, 1 << 20, &o->smem_cap_kb)
             ? fprintf (stderr, "--smem-cap takes kilobytes, 0 or more\n"), -1
             : 0;
  if (!strcmp (a, "--threads"))
    return parse_int (v, 0, 256, &o->threads)
             ? fprintf (stderr, "--threads takes 0..256\n"), -1 : 0;
  if (!strcmp (a, "--quality"))
    return parse_int (v, 1, 100, &o->quality)
             ? fprintf (stderr, "--quality takes 1..100\n"), -1 : 0;
  if (!strcmp (a, "--range"))
    {
      char lo[16], hi[16];
      if (sscanf (v, "%15[0-9]:%15[0-9]", lo, hi) != 2
          || parse_int (lo, 0, 255, &o->lo) || parse_int (hi, 0, 255, &o->hi)
          || o->lo > o->hi)
        return fprintf (stderr, "--range takes LO:HI in 0..255\n"), -1;
      return 0;
    }
  return fprintf (stderr, "unknown option %s\n", a), -1;
}

/* Whether several inputs would write to the one file `name`. */
static int
shared_name (const cli_options *o, const char *name)
{
  return o->n_inputs > 1 && name && !strstr (name, "%n");
}

/* What the options ask for together; 0 or -1 (said). */
static int
check_together (const cli_options *o)
{
  int shared = shared_name (o, o->histogram);

  for (int k = GH_REQ_NONE + 1; k < GH_NUM_REQS; k++)
    shared |= shared_name (o, o->output[k]);
  if (o->n_inputs == 0)
    return fprintf (stderr, "no input image given\n"), -1;
  if (o->n_inputs > 1 && o->mask)
    return fprintf (stderr, "--mask takes one input\n"), -1;
  if (shared)
    return fprintf (stderr, "with several inputs, each output file name "
                            "holds %%n (the input's name)\n"),
           -1;
  if (!o->output[GH_REQ_MATCH] != !o->reference)
    return fprintf (stderr, "--match and --reference go together\n"), -1;
  return 0;
}

int
cli_parse_args (int argc, char **argv, cli_options *o)
{
  memset (o, 0, sizeof *o);
  o->inputs = calloc ((size_t) argc, sizeof *o->inputs);
  if (!o->inputs)
    return fprintf (stderr, "out of memory\n"), 2;
  o->luminance = GH_LUMINANCE_PERCEPTUAL;
  o->hi = 255;
  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i];
      if (!strcmp (a, "--help"))
        return usage (stdout), -1;
      if (!strcmp (a, "--list-params"))
        return list_params (), -1;
      if (!strcmp (a, "--version"))
        return printf ("gpu-histogram-cli %s\n", GH_VERSION), -1;
      if (a[0] != '-' || a[1] != '-')
        o->inputs[o->n_inputs++] = a;
      else if (!strcmp (a, "--timings"))
        o->timings = 1;
      else if (!strcmp (a, "--quiet"))
        o->quiet = 1;
      else if (!strcmp (a, "--auto-orient"))
        o->auto_orient = 1;
      else if (i + 1 == argc)
        {
          fprintf (stderr, "%s needs a value\n", a);
          goto fail;
        }
      else if (parse_option (o, a, argv[++i]))
        goto fail;
    }
  if (!check_together (o))
    return 0;
fail:
  usage (stderr);
  return 2;
}

void
cli_options_clear (cli_options *o)
{
  free (o->inputs);
  o->inputs = NULL;
}

/* `name` with each "%n" replaced by `stem` (`len` bytes), or NULL. */
static char *
expand (const char *name, const char *stem, size_t len)
{
  size_t n = 0;
  char *out, *w;

  for (const char *p = strstr (name, "%n"); p; p = strstr (p + 2, "%n"))
    n++;
  if (!(out = w = malloc (strlen (name) + n * len + 1)))
    return NULL;
  for (const char *p; (p = strstr (name, "%n")); name = p + 2)
    {
      memcpy (w, name, (size_t) (p - name));
      w += p - name;
      memcpy (w, stem, len);
      w += len;
    }
  strcpy (w, name);
  return out;
}

int
cli_for_input (const cli_options *o, const char *input, cli_options *f)
{
  const char *slash = strrchr (input, '/');
  const char *stem = slash ? slash + 1 : input;
  const char *dot = strrchr (stem, '.');
  size_t len = dot && dot != stem ? (size_t) (dot - stem) : strlen (stem);
  const char **names[GH_NUM_REQS];

  *f = *o;
  f->named = 0;
  names[0] = &f->histogram; /* output[GH_REQ_NONE] is never set */
  for (int k = GH_REQ_NONE + 1; k < GH_NUM_REQS; k++)
    names[k] = &f->output[k];
  for (int k = 0; k < GH_NUM_REQS; k++)
    if (*names[k] && strstr (*names[k], "%n"))
      {
        char *name = expand (*names[k], stem, len);
        if (!name)
          return fprintf (stderr, "out of memory\n"), -1;
        *names[k] = name;
        f->named |= 1u << k;
      }
  return 0;
}

void
cli_for_input_clear (cli_options *f)
{
  for (int k = GH_REQ_NONE + 1; k < GH_NUM_REQS; k++)
    if (f->named & (1u << k))
      free ((char *) f->output[k]);
  if (f->named & 1u)
    free ((char *) f->histogram);
  f->named = 0;
}

int
cli_wants (const cli_options *o, gh_operation operation)
{
  return o->output[operation]
         || (operation == GH_REQ_POSTERIZE && o->thresholds);
}

void
cli_request (const cli_options *o, gh_operation operation, gh_layout layout,
             gh_request *r)
{
  gh_request_defaults (r, operation);
  for (int p = 0; p < GH_NUM_PARAMS; p++)
    if (o->given & (1u << p))
      gh_request_set (r, (gh_param) p, o->param[p]);
  if (!(o->given & (1u << GH_PARAM_CHANNEL)))
    r->channel = gh_layer_channel (layout, r->channel);
}
