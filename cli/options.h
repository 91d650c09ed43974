/* SPDX-License-Identifier: GPL-3.0-or-later */
/* options.h — the CLI's command line: parsed into cli_options, the
 * operations' parameters taken (names, ranges, defaults, parsing) from the
 * engine's vocabulary (gh_request.h), and each operation asked for turned
 * into its gh_request.
 *
 *   cli_options o;
 *   int rc = cli_parse_args (argc, argv, &o);  -- 2: usage error (said)
 *   ... gh_request r;  cli_request (&o, GH_REQ_CLAHE, layout, &r);
 *   for each input: cli_options f;  cli_for_input (&o, input, &f);
 *                   ... f's file names ...  cli_for_input_clear (&f);
 *   cli_options_clear (&o);
 */
#ifndef CLI_OPTIONS_H
#define CLI_OPTIONS_H

#include "gh_request.h"

typedef struct {
  const char **inputs; /* into argv */
  int n_inputs;
  int timings;
  int quiet;       /* --quiet: no progress line, no summary */
  const char *mask, *histogram, *reference;
  /* --equalize FILE, --binarize FILE, ...: by operation; NULL not asked */
  const char *output[GH_NUM_REQS];
  /* --multi-otsu: print posterize's thresholds even with no file */
  int thresholds;
  double param[GH_NUM_PARAMS]; /* the parameters given ...          */
  unsigned given;              /* ... bit 1 << gh_param             */
  gh_backend backend;
  gh_luminance luminance;
  int lo, hi;      /* --range */
  int smem_cap_kb; /* --smem-cap; 0: the device's own limit */
  int quality;     /* --quality (JPEG, WebP); 0: GEGL's default */
  int auto_orient; /* --auto-orient: files written turned upright */
  int threads;     /* --threads: the engine's, and the files in flight at
                      most; 0: one per core */
  int decoder;     /* --decoder: CLI_DECODER_* */
  unsigned named;  /* cli_for_input: the file names it made, bit 1 << k
                      for output[k], 1 for histogram */
} cli_options;

/* --decoder: who decodes and encodes JPEG folders (photo_run.h). */
enum { CLI_DECODER_AUTO = 0, CLI_DECODER_CPU, CLI_DECODER_GPU };

/* 0: run; -1: done (--help, --list-params, --version printed), exit 0;
 * 2: a usage error, said on stderr with the usage. */
int cli_parse_args (int argc, char **argv, cli_options *options);
void cli_options_clear (cli_options *options);

/* The options for one input: options' with "%n" in each output file
 * name (and --histogram's) replaced by the input's name less its folder
 * and extension ("photos/a.jpg": "a").  0, or -1 (out of memory, said);
 * clear `file` either way. */
int cli_for_input (const cli_options *options, const char *input,
                   cli_options *file);
void cli_for_input_clear (cli_options *file);

/* Whether `operation` is to run: its file asked for (or, posterize, its
 * thresholds). */
int cli_wants (const cli_options *options, gh_operation operation);

/* `operation` at the vocabulary's defaults with the parameters given; a
 * channel not given that the image's `layout` lacks (luminance of a gray
 * image) becomes the layout's own (gh_layer_channel). */
void cli_request (const cli_options *options, gh_operation operation,
                  gh_layout layout, gh_request *request);

#endif
