/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_cli_args.c — the CLI's option table (cli/options.c) on any
 * command line: the input's NUL-separated words are argv.  A command line
 * taken (0) has its inputs, ranges and parameters in range, each input's
 * file names expanded ("%n") to their length, and each operation's
 * request passes the vocabulary's check on every layout. */
#include "fuzz_util.h"
#include "options.h"

#define MAX_ARGS 64

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc;
  (void) argv;
  /* The usage text on every refusal and --help's: not the fuzzer's log
   * (sanitizer reports write to the descriptors, not these streams). */
  stdout = fopen ("/dev/null", "w");
  stderr = fopen ("/dev/null", "w");
  return stdout && stderr ? 0 : -1;
}

/* The length of `name` with each "%n" made `len` bytes, as cli_for_input
 * does. */
static size_t
expanded_length (const char *name, size_t len)
{
  size_t n = strlen (name);
  for (const char *p = strstr (name, "%n"); p; p = strstr (p + 2, "%n"))
    n += len - 2;
  return n;
}

static void
check_names (const cli_options *o, const char *input)
{
  const char *slash = strrchr (input, '/');
  const char *stem = slash ? slash + 1 : input;
  const char *dot = strrchr (stem, '.');
  size_t len = dot && dot != stem ? (size_t) (dot - stem) : strlen (stem);
  cli_options f;

  FUZZ_CHECK (cli_for_input (o, input, &f) == 0);
  for (int k = GH_REQ_NONE + 1; k < GH_NUM_REQS; k++)
    if (o->output[k])
      FUZZ_CHECK (strlen (f.output[k]) == expanded_length (o->output[k], len)
                  && !!(f.named & (1u << k)) == !!strstr (o->output[k], "%n"));
  if (o->histogram)
    FUZZ_CHECK (strlen (f.histogram) == expanded_length (o->histogram, len));
  cli_for_input_clear (&f);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *copy = malloc (size + 1), *argv[MAX_ARGS + 2];
  int argc = 1, rc;
  cli_options o;

  FUZZ_CHECK (copy);
  memcpy (copy, data, size);
  copy[size] = 0;
  argv[0] = "gpu-histogram-cli";
  for (size_t at = 0; at < size && argc <= MAX_ARGS; at += strlen (copy + at) + 1)
    argv[argc++] = copy + at;
  argv[argc] = NULL;

  rc = cli_parse_args (argc, argv, &o);
  FUZZ_CHECK (rc == 0 || rc == -1 || rc == 2);
  if (rc == 0)
    {
      FUZZ_CHECK (o.n_inputs >= 1 && o.n_inputs < argc);
      FUZZ_CHECK (o.lo >= 0 && o.lo <= o.hi && o.hi <= 255);
      FUZZ_CHECK (o.threads >= 0 && o.threads <= 256);
      FUZZ_CHECK (o.quality >= 0 && o.quality <= 100);
      FUZZ_CHECK (!o.reference == !o.output[GH_REQ_MATCH]);
      for (int p = 0; p < GH_NUM_PARAMS; p++)
        if (o.given & (1u << p))
          FUZZ_CHECK (gh_param_check ((gh_param) p, o.param[p], NULL)
                      == GH_OK);
      for (int k = 0; k < o.n_inputs; k++)
        {
          FUZZ_CHECK (o.inputs[k] >= copy && o.inputs[k] <= copy + size
                      && strncmp (o.inputs[k], "--", 2));
          check_names (&o, o.inputs[k]);
        }
      for (int op = GH_REQ_NONE + 1; op < GH_NUM_REQS; op++)
        for (int layout = GH_LAYOUT_GRAY; layout <= GH_LAYOUT_RGBA; layout++)
          {
            gh_request r;
            gh_error err;
            cli_request (&o, (gh_operation) op, (gh_layout) layout, &r);
            if (gh_request_check (&r, &err) != GH_OK)
              {
                dprintf (2, "%s\n", err.message);
                abort ();
              }
          }
    }
  cli_options_clear (&o);
  free (copy);
  return 0;
}
