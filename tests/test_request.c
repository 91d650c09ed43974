/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_request.c — the operations' vocabulary (gh_request.h): every
 * default inside its range, every range's edges accepted and the values
 * past them refused with the parameter named, names and parsing, and a
 * prepared request applying the same bytes as the gh_op_* call it stands
 * for, on random pictures, also from a histogram of only the channels it
 * reads (gh_request_channels). */
#include "gh_request.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void
check_ranges (void)
{
  gh_error err;
  double v;

  for (int o = 0; o < GH_NUM_REQS; o++)
    {
      const gh_operation_spec *spec = gh_operation_get ((gh_operation) o);
      gh_request r;

      CHECK (spec && gh_operation_lookup (spec->name) == o, "op %d name", o);
      gh_request_defaults (&r, (gh_operation) o);
      CHECK (gh_request_check (&r, &err) == GH_OK, "%s defaults: %s",
             spec->name, err.message);
      CHECK (gh_request_needs (&r) == spec->needs, "%s needs", spec->name);
    }
  CHECK (gh_param_default (GH_REQ_CLAHE, GH_PARAM_MODE)
           == GH_EQUALIZE_LUMINANCE
           && gh_param_default (GH_REQ_EQUALIZE, GH_PARAM_MODE)
                == GH_EQUALIZE_CHANNELS
           && gh_param_default (GH_REQ_NONE, GH_PARAM_CLASSES) == 3,
         "per-operation defaults");
  for (int p = 0; p < GH_NUM_PARAMS; p++)
    {
      const gh_param_spec *s = gh_param_get ((gh_param) p);
      double past = s->is_integer ? 1 : 0.5;

      CHECK (gh_param_lookup (s->name) == p, "param %s", s->name);
      CHECK (gh_param_check ((gh_param) p, s->min, &err) == GH_OK
               && gh_param_check ((gh_param) p, s->max, &err) == GH_OK,
             "%s edges", s->name);
      CHECK (gh_param_check ((gh_param) p, s->min - past, &err) != GH_OK
               && !strncmp (err.message, s->name, strlen (s->name)),
             "%s below: %s", s->name, err.message);
      CHECK (gh_param_check ((gh_param) p, s->max + past, &err) != GH_OK
               && strstr (err.message, "out of range"),
             "%s above: %s", s->name, err.message);
      CHECK (gh_param_check ((gh_param) p, NAN, &err) != GH_OK, "%s NaN",
             s->name);
      if (s->is_integer)
        CHECK (gh_param_check ((gh_param) p, s->min + 0.5, &err) != GH_OK,
               "%s whole", s->name);
    }
  /* No drift between the hosts: one range for every host. */
  CHECK (gh_param_get (GH_PARAM_CLIP_LIMIT)->max == 256
           && gh_param_get (GH_PARAM_CLASSES)->min == 3
           && gh_param_get (GH_PARAM_CLASSES)->max
                == GH_MULTI_OTSU_MAX_CLASSES
           && gh_param_get (GH_PARAM_THRESHOLD)->max == 254
           && gh_param_get (GH_PARAM_TILES_X)->max == GH_CLAHE_MAX_TILES,
         "the ranges");
  CHECK (gh_param_parse (GH_PARAM_CHANNEL, "luminance", &v, &err) == GH_OK
           && v == GH_CHANNEL_LUMINANCE, "parse channel name");
  CHECK (gh_param_parse (GH_PARAM_MODE, "luminance", &v, &err) == GH_OK
           && v == GH_EQUALIZE_LUMINANCE, "parse mode name");
  /* One table of the values' names ("each-channel"), which the
   * engine's channel names and the GEGL enums read; "channels" stays an
   * alias. */
  {
    int nm, nc, nt;
    const gh_param_value *m = gh_param_values (GH_PARAM_MODE, &nm);
    const gh_param_value *c = gh_param_values (GH_PARAM_CHANNEL, &nc);

    CHECK (nm == 2 && m[0].value == GH_EQUALIZE_CHANNELS
             && !strcmp (m[0].nick, "each-channel")
             && m[1].value == GH_EQUALIZE_LUMINANCE
             && !strcmp (m[1].nick, "luminance") && m[0].label && m[1].label,
           "mode's names");
    CHECK (nc == GH_NUM_CHANNELS, "a name for each channel");
    for (int k = 0; k < nc; k++)
      CHECK (c[k].value == k
               && !strcmp (c[k].nick, gh_channel_name ((gh_channel) k))
               && gh_channel_parse (c[k].nick) == k && c[k].label
               && gh_param_parse (GH_PARAM_CHANNEL, c[k].nick, &v, &err)
                    == GH_OK && v == k,
             "channel %d's name", k);
    CHECK (gh_param_values (GH_PARAM_CLASSES, &nt) == NULL && nt == 0,
           "a number has no names");
  }
  CHECK (gh_param_parse (GH_PARAM_MODE, "each-channel", &v, &err) == GH_OK
           && v == GH_EQUALIZE_CHANNELS, "parse each-channel");
  CHECK (gh_param_parse (GH_PARAM_MODE, "channels", &v, &err) == GH_OK
           && v == GH_EQUALIZE_CHANNELS, "parse the alias channels");
  CHECK (gh_param_parse (GH_PARAM_MODE, "hue", &v, &err) != GH_OK
           && strstr (err.message, "each-channel"),
         "a wrong mode names the right ones: %s", err.message);
  CHECK (gh_param_parse (GH_PARAM_CLIP_LIMIT, "2.5", &v, &err) == GH_OK
           && v == 2.5, "parse double");
  CHECK (gh_param_parse (GH_PARAM_CLIP_LIMIT, "1e9", &v, &err) != GH_OK,
         "parse out of range");
  CHECK (gh_param_parse (GH_PARAM_TILES_X, "8x", &v, &err) != GH_OK
           && strstr (err.message, "tiles-x"), "parse junk: %s",
         err.message);
  CHECK (gh_param_parse (GH_PARAM_CLASSES, "2", &v, &err) != GH_OK,
         "two classes is binarize");
  {
    gh_request r;
    gh_clahe_params c;
    gh_request_defaults (&r, GH_REQ_CLAHE);
    gh_request_set (&r, GH_PARAM_TILES_Y, 5);
    gh_request_clahe_params (&r, &c);
    CHECK (c.clip_limit == 2.0 && c.tiles_x == 8 && c.tiles_y == 5
             && c.mode == GH_EQUALIZE_LUMINANCE,
           "a CLAHE request's gh_clahe_params");
  }
  CHECK (gh_operation_param (GH_REQ_CLAHE, GH_PARAM_TILES_Y) == 2
           && gh_operation_param (GH_REQ_EQUALIZE, GH_PARAM_CHANNEL) == -1
           && gh_operation_param (GH_NUM_REQS, GH_PARAM_MODE) == -1,
         "gh_operation_param");
}

/* The picture's bytes after `op`. */
static uint8_t *
applied (const test_picture *p, const gh_op *op)
{
  uint8_t *copy = malloc (p->height * p->stride);
  gh_error err;

  memcpy (copy, p->pixels, p->height * p->stride);
  if (gh_op_apply (op, copy, p->width, p->height, p->stride, &err) != GH_OK)
    CHECK (0, "apply: %s", err.message);
  return copy;
}

static void
check_same (const test_picture *p, const gh_op *a, const gh_op *b,
            const char *what)
{
  uint8_t *x = applied (p, a), *y = applied (p, b);

  CHECK (!memcmp (x, y, p->height * p->stride), "%s: bytes differ", what);
  free (x);
  free (y);
}

/* A request prepared from a histogram of only the channels it reads
 * (gh_request_channels) applies the same bytes as `full`, prepared from
 * every channel's. */
static void
check_channels_suffice (gh_engine *e, const test_picture *p,
                        const gh_request *r, const gh_request_inputs *in,
                        const gh_op *full, const char *what)
{
  test_picture some = *p;
  gh_request_inputs part = *in;
  gh_histogram h;
  gh_error err;
  gh_op op;

  some.image.channels = gh_request_channels (r, p->image.layout);
  gh_histogram_init (&h);
  part.histogram = &h;
  CHECK (test_engine_run (e, &some, &h, &err) == GH_OK
           && h.channels == (some.image.channels
                             & gh_layout_channel_mask (p->image.layout)),
         "%s: count of channels 0x%x: %s", what, some.image.channels,
         err.message);
  CHECK (gh_request_prepare (r, &part, &op, NULL, &err) == GH_OK,
         "%s from its channels: %s", what, err.message);
  check_same (p, &op, full, what);
  gh_op_clear (&op);
  gh_histogram_clear (&h);
}

/* What each operation reads of a colour and a gray histogram. */
static void
check_channel_sets (void)
{
  const unsigned rgb = 1u << GH_CHANNEL_RED | 1u << GH_CHANNEL_GREEN
                       | 1u << GH_CHANNEL_BLUE;
  gh_request r;

  gh_request_defaults (&r, GH_REQ_EQUALIZE);
  CHECK (gh_request_channels (&r, GH_LAYOUT_RGBA) == rgb
           && gh_request_channels (&r, GH_LAYOUT_GRAYA)
                == 1u << GH_CHANNEL_VALUE,
         "equalize each channel reads R, G, B (gray: the value)");
  r.mode = GH_EQUALIZE_LUMINANCE;
  CHECK (gh_request_channels (&r, GH_LAYOUT_RGB) == 1u << GH_CHANNEL_LUMINANCE
           && gh_request_channels (&r, GH_LAYOUT_GRAY)
                == 1u << GH_CHANNEL_VALUE,
         "equalize luminance reads the luminance (gray: the value)");
  gh_request_defaults (&r, GH_REQ_BINARIZE);
  r.channel = GH_CHANNEL_ALPHA;
  CHECK (gh_request_channels (&r, GH_LAYOUT_RGBA) == 1u << GH_CHANNEL_ALPHA,
         "binarize reads its channel");
  gh_request_defaults (&r, GH_REQ_NONE);
  CHECK (gh_request_channels (&r, GH_LAYOUT_RGBA)
           == gh_layout_channel_mask (GH_LAYOUT_RGBA),
         "analyse reads every channel");
  gh_request_defaults (&r, GH_REQ_CLAHE);
  CHECK (gh_request_channels (&r, GH_LAYOUT_GRAYA)
           == gh_layout_channel_mask (GH_LAYOUT_GRAYA),
         "CLAHE (no histogram): every channel");
}

static void
check_prepare (gh_engine *e)
{
  for (int round = 0; round < 40; round++)
    {
      test_picture p, q;
      gh_histogram h, hq;
      gh_error err;
      gh_op a, b;
      gh_request r;
      gh_request_result res;
      double counts[256];
      int expect[4];

      test_picture_random (&p, 300);
      test_picture_random (&q, 200);
      if (!p.width || !p.height)
        {
          test_picture_free (&p);
          test_picture_free (&q);
          continue;
        }
      gh_histogram_init (&h);
      gh_histogram_init (&hq);
      if (test_engine_run (e, &p, &h, &err) != GH_OK
          || test_engine_run (e, &q, &hq, &err) != GH_OK)
        {
          CHECK (0, "count: %s", err.message);
          continue;
        }
      gh_request_inputs in = { p.image.layout, GH_SAMPLE_U8,
                               GH_LUMINANCE_PERCEPTUAL, 256, &h, &hq, NULL };

      for (int mode = 0; mode < 2; mode++)
        {
          gh_request_defaults (&r, GH_REQ_EQUALIZE);
          r.mode = (gh_equalize_mode) mode;
          CHECK (gh_request_prepare (&r, &in, &a, NULL, &err) == GH_OK,
                 "equalize: %s", err.message);
          gh_op_equalize (&b, &h, in.layout, in.sample, in.luminance,
                          (gh_equalize_mode) mode, &err);
          check_same (&p, &a, &b, "equalize");
          check_channels_suffice (e, &p, &r, &in, &b, "equalize");
          gh_op_clear (&a);
          gh_op_clear (&b);
          /* An empty reference is refused alike. */
          r.operation = GH_REQ_MATCH;
          gh_status got = gh_request_prepare (&r, &in, &a, NULL, &err);
          gh_status want = gh_op_match (&b, &h, &hq, in.layout, in.sample,
                                        in.luminance, (gh_equalize_mode) mode,
                                        &err);
          CHECK (got == want, "match status %d vs %d", got, want);
          if (got == GH_OK && want == GH_OK)
            {
              check_same (&p, &a, &b, "match");
              check_channels_suffice (e, &p, &r, &in, &b, "match");
            }
          gh_op_clear (&a);
          gh_op_clear (&b);
        }

      gh_request_defaults (&r, GH_REQ_BINARIZE);
      r.channel = gh_default_binarize_channel (in.layout);
      gh_histogram_counts (&h, (gh_channel) r.channel, counts);
      CHECK (gh_request_prepare (&r, &in, &a, &res, &err) == GH_OK
               && res.n == 1
               && res.bins[0] == gh_otsu_threshold (counts, 0, 255)
               && res.levels[0] == res.bins[0],
             "binarize Otsu: %s", err.message);
      gh_op_binarize (&b, in.layout, in.sample, in.luminance, 256,
                      (gh_channel) r.channel, res.bins[0], &err);
      check_same (&p, &a, &b, "binarize");
      check_channels_suffice (e, &p, &r, &in, &b, "binarize");
      gh_op_clear (&a);
      gh_op_clear (&b);
      r.threshold = (int) test_below (255);
      CHECK (gh_request_thresholds (&r, NULL, 256, &res, &err) == GH_OK
               && res.bins[0] == r.threshold, "fixed threshold");

      gh_request_defaults (&r, GH_REQ_POSTERIZE);
      r.channel = gh_default_binarize_channel (in.layout);
      r.classes = 3 + (int) test_below (3);
      gh_status want = gh_multi_otsu (counts, 256, r.classes, expect, &err);
      gh_status got = gh_request_prepare (&r, &in, &a, &res, &err);
      CHECK (got == want, "posterize status %d vs %d", got, want);
      if (got == GH_OK)
        {
          CHECK (res.n == r.classes - 1
                   && !memcmp (res.bins, expect, sizeof (int) * res.n),
                 "posterize thresholds");
          gh_op_posterize (&b, in.layout, in.sample, in.luminance, 256,
                           (gh_channel) r.channel, res.n, expect, &err);
          check_same (&p, &a, &b, "posterize");
          check_channels_suffice (e, &p, &r, &in, &b, "posterize");
          gh_op_clear (&a);
          gh_op_clear (&b);
        }
      /* The dialog's bins win over Otsu. */
      r.n_bins = 2;
      r.bins[0] = 10;
      r.bins[1] = 200;
      CHECK (gh_request_thresholds (&r, &h, 256, &res, &err) == GH_OK
               && res.n == 2 && res.bins[1] == 200, "given bins");

      gh_request_defaults (&r, GH_REQ_CLAHE);
      CHECK (gh_request_prepare (&r, &in, &a, NULL, &err) != GH_OK
               && strstr (err.message, "missing"),
             "CLAHE without its pass: %s", err.message);
      r.operation = GH_REQ_NONE;
      CHECK (gh_request_prepare (&r, &in, &a, NULL, &err) != GH_OK,
             "analyse prepares nothing");
      gh_histogram_clear (&h);
      gh_histogram_clear (&hq);
      test_picture_free (&p);
      test_picture_free (&q);
    }
}

int
main (void)
{
  gh_options o;
  gh_engine *e;
  gh_error err;

  test_seed (25);
  check_ranges ();
  check_channel_sets ();
  gh_options_init (&o);
  o.backend = GH_BACKEND_CPU;
  o.quiet = 1;
  if (gh_engine_create (&o, &e, &err) != GH_OK)
    return printf ("engine: %s\n", err.message), 1;
  check_prepare (e);
  gh_engine_destroy (e);
  return test_summary ();
}
