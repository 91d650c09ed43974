/* SPDX-License-Identifier: GPL-3.0-or-later */
/* operations.c — one operation the options ask for (operations.h). */
#include "operations.h"

#include "count.h"
#include "results.h"
#include "streams.h"

#include <stdio.h>

void
cli_print_thresholds (gh_operation operation, const gh_request_result *res)
{
  int several = gh_operation_param (operation, GH_PARAM_CLASSES) >= 0;

  fprintf (cli_out (), "%s:", several ? "thresholds" : "threshold");
  for (int k = 0; k < res->n; k++)
    fprintf (cli_out (), "%s%d", k ? "," : " ", res->levels[k]);
  fprintf (cli_out (), "\n");
}

/* Whether `operation` over `im` reads it whole: CLAHE into a file. */
static int
whole (const cli_options *o, gh_operation operation, const cli_image *im)
{
  return (gh_operation_get (operation)->needs & GH_NEEDS_CLAHE_PASS)
         && o->output[operation]
         && im->row_bytes * im->height <= CLI_CLAHE_WHOLE_BYTES;
}

int
cli_reads_whole (const cli_options *o, const cli_image *im)
{
  for (int k = GH_REQ_NONE + 1; k < GH_NUM_REQS; k++)
    if (cli_wants (o, (gh_operation) k) && whole (o, (gh_operation) k, im))
      return 1;
  return 0;
}

/* Whether no operation after `operation` reads `im`. */
static int
last (const cli_options *o, gh_operation operation)
{
  for (int k = operation + 1; k < GH_NUM_REQS; k++)
    if (cli_wants (o, (gh_operation) k))
      return 0;
  return 1;
}

int
cli_run_operation (gh_engine *engine, const cli_options *o,
                   gh_operation operation, cli_image *im,
                   const gh_histogram *hist, double *decode)
{
  gh_layout layout = im->layout;
  gh_request r;
  gh_histogram ref;
  gh_clahe *clahe = NULL;
  gh_request_inputs in = { layout, im->sample, o->luminance, hist->bins,
                           hist, NULL, NULL };
  gh_request_result res;
  gh_op op;
  gh_error err;
  gh_status st;
  unsigned needs;
  int rc = -1;

  cli_request (o, operation, layout, &r);
  if (gh_operation_param (operation, GH_PARAM_CHANNEL) >= 0
      && !(gh_layout_channel_mask (layout) & (1u << r.channel)))
    return fprintf (cli_err (), "this image has no %s channel\n",
                    gh_channel_name ((gh_channel) r.channel)),
           -1;
  needs = gh_request_needs (&r);
  gh_histogram_init (&ref);
  if (needs & GH_NEEDS_REFERENCE)
    {
      if (cli_count_file (engine, o->reference, o->luminance, &ref, decode))
        goto out;
      in.reference = &ref;
    }
  if (needs & GH_NEEDS_CLAHE_PASS)
    {
      gh_clahe_params params;
      gh_request_clahe_params (&r, &params);
      if (whole (o, operation, im))
        {
          rc = cli_rewrite_clahe (engine, im, &params, o->luminance,
                                  o->output[operation], o->quality,
                                  o->auto_orient, last (o, operation),
                                  decode);
          goto out;
        }
      if (cli_clahe_pass (engine, &params, o->luminance, im, &clahe, decode))
        goto out;
      in.clahe = clahe;
    }
  if (!o->output[operation])
    {
      /* --multi-otsu alone: the thresholds, no file. */
      if (gh_request_thresholds (&r, hist, hist->bins, &res, &err) != GH_OK)
        goto fail;
      cli_print_thresholds (operation, &res);
      rc = 0;
      goto out;
    }
  cli_engine_lock ();
  st = gh_request_prepare (&r, &in, &op, &res, &err);
  cli_engine_unlock ();
  if (st != GH_OK)
    goto fail;
  if (res.n > 0)
    cli_print_thresholds (operation, &res);
  rc = cli_rewrite (im, o->output[operation], &op, o->quality,
                    o->auto_orient);
  gh_op_clear (&op);
  goto out;
fail:
  fprintf (cli_err (), "%s\n", err.message);
out:
  cli_engine_lock ();
  gh_clahe_destroy (clahe);
  cli_engine_unlock ();
  gh_histogram_clear (&ref);
  return rc;
}
