/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_request.c — the operations' vocabulary (gh_request.h) on any
 * input: each parameter's text through gh_param_parse (a value parsed is
 * in its range, and parses again from its own digits), a request of any
 * operation, parameters and given bins checked, its thresholds and its
 * operation prepared over a histogram of any counts (CLAHE over the
 * pixels), and the operation applied to a strip of any samples with rows
 * apart by more than their width: nothing is written between them. */
#include <math.h>

#include "fuzz_util.h"
#include "gh_request.h"

static gh_engine *engine;

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  gh_options o;
  gh_error err;

  (void) argc;
  (void) argv;
  gh_options_init (&o);
  o.backend = GH_BACKEND_CPU;
  o.cpu_threads = 2;
  o.quiet = 1;
  if (gh_engine_create (&o, &engine, &err) != GH_OK)
    {
      fprintf (stderr, "%s\n", err.message);
      abort ();
    }
  return 0;
}

/* One parameter's text; its value set in `r` where it parses. */
static void
parse_param (fuzz_input *in, gh_param p, gh_request *r)
{
  const gh_param_spec *s = gh_param_get (p);
  char *text = fuzz_text (in, 40), again[64];
  double v = -12345.0, w;
  gh_error err = { "" };

  if (gh_param_parse (p, text, &v, &err) == GH_OK)
    {
      FUZZ_CHECK (v >= s->min && v <= s->max);
      FUZZ_CHECK (!s->is_integer || v == floor (v));
      snprintf (again, sizeof again, "%.17g", v);
      FUZZ_CHECK (gh_param_parse (p, again, &w, &err) == GH_OK && w == v);
      gh_request_set (r, p, v);
      FUZZ_CHECK (gh_request_get (r, p) == v);
    }
  else
    FUZZ_CHECK (err.message[0] && v == -12345.0);
  free (text);
}

static size_t
sample_size (gh_sample sample)
{
  return sample == GH_SAMPLE_F32 ? sizeof (float) : 1;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  fuzz_input in = { data, size };
  gh_request r;
  gh_request_result res;
  gh_histogram hist;
  gh_error err;
  gh_op op;
  gh_clahe *clahe = NULL;
  unsigned op_byte = fuzz_byte (&in), given = fuzz_byte (&in);
  gh_operation operation = (gh_operation) (op_byte % (GH_NUM_REQS + 1));
  gh_layout layout = (gh_layout) (1 + fuzz_byte (&in) % 4);
  gh_luminance luminance = (gh_luminance) (fuzz_byte (&in) & 1);
  unsigned bins_byte = fuzz_byte (&in);
  int bins = bins_byte ? 2 + (int) (fuzz_u16 (&in) % 1023) : 256;
  gh_sample sample = bins == 256 && !(bins_byte & 1) ? GH_SAMPLE_U8
                                                      : GH_SAMPLE_F32;
  size_t width = 1 + fuzz_byte (&in) % 24, height = 1 + fuzz_byte (&in) % 24;
  size_t pixel = (size_t) layout * sample_size (sample);
  size_t stride = width * pixel + fuzz_byte (&in) % 7;
  size_t image = stride * height;
  uint8_t *pixels, *before;

  gh_request_defaults (&r, operation < GH_NUM_REQS ? operation : GH_REQ_NONE);
  r.operation = operation;
  for (int p = 0; p < GH_NUM_PARAMS; p++)
    if (given & (1u << p))
      parse_param (&in, (gh_param) p, &r);
  r.n_bins = (int) (fuzz_byte (&in) % GH_MULTI_OTSU_MAX_CLASSES + (given >> 7));
  for (int k = 0; k < GH_MULTI_OTSU_MAX_CLASSES - 1; k++)
    r.bins[k] = (int16_t) fuzz_u16 (&in);
  (void) gh_request_channels (&r, layout);
  (void) gh_request_on_luminance (&r);

  /* A histogram of any counts: raw sums in one of the units the engine
   * keeps (1, 255, 65025), or float weights. */
  gh_histogram_init (&hist);
  FUZZ_CHECK (gh_histogram_reset (&hist, bins, sample == GH_SAMPLE_F32, &err)
              == GH_OK);
  hist.channels = gh_layout_channel_mask (layout);
  for (int c = 0; c < GH_NUM_CHANNELS; c++)
    {
      static const uint64_t units[3] = { 1, 255, 65025 };
      hist.unit[c] = units[fuzz_byte (&in) % 3];
    }
  for (int k = 0; k < GH_NUM_CHANNELS * bins && in.size; k++)
    {
      uint64_t v = fuzz_u64 (&in);
      if (hist.weight)
        memcpy (&hist.weight[k], &v, sizeof v);
      else
        hist.raw[k] = v;
    }

  pixels = malloc (image);
  before = malloc (image);
  FUZZ_CHECK (pixels && before);
  for (size_t k = 0; k < image; k++)
    pixels[k] = (uint8_t) fuzz_byte (&in);

  if (gh_request_check (&r, &err) == GH_OK)
    {
      gh_request_inputs inputs = { layout, sample, luminance, bins, &hist,
                                   &hist, NULL };
      if (operation == GH_REQ_BINARIZE || operation == GH_REQ_POSTERIZE)
        {
          if (gh_request_thresholds (&r, &hist, bins, &res, &err) == GH_OK
              && r.n_bins == 0 && r.threshold < 0)
            for (int k = 0; k < res.n; k++)
              FUZZ_CHECK (res.bins[k] >= 0 && res.bins[k] < bins
                          && (k == 0 || res.bins[k] > res.bins[k - 1]));
        }
      if (gh_request_needs (&r) & GH_NEEDS_CLAHE_PASS)
        {
          gh_clahe_params params;
          gh_request_clahe_params (&r, &params);
          if (gh_clahe_begin (engine, &params, layout, sample, luminance,
                              bins, width, height, &clahe, &err)
                  == GH_OK
              && gh_clahe_feed (clahe, pixels, 0, height, stride, &err)
                     == GH_OK)
            inputs.clahe = clahe;
        }
      if (gh_request_prepare (&r, &inputs, &op, &res, &err) == GH_OK)
        {
          memcpy (before, pixels, image);
          if (gh_op_apply_rect (&op, pixels, 0, 0, width, height, stride,
                                &err)
              == GH_OK)
            for (size_t y = 0; y < height; y++)
              FUZZ_CHECK (!memcmp (pixels + y * stride + width * pixel,
                                   before + y * stride + width * pixel,
                                   stride - width * pixel));
          gh_op_clear (&op);
        }
      else
        FUZZ_CHECK (err.message[0]);
      gh_clahe_destroy (clahe);
    }
  else
    FUZZ_CHECK (err.message[0]);
  free (pixels);
  free (before);
  gh_histogram_clear (&hist);
  return 0;
}
