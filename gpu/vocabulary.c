/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vocabulary.c — the words every host speaks, under everything that uses
 * them: the operations' parameters, named values and operations
 * (gh_request.h) with their lookups, defaults, fields and checks, and the
 * channel and backend names with which channels a layout has
 * (gpu_histogram.h, "Shared by every host").  It calls nothing above the
 * primitives (fail.h, layout.h); the dispatch that calls the operations
 * is ops/request.c, over it. */
#include "gh_request.h"

#include "fail.h"
#include "layout.h"

#include <limits.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A clip limit of 256 or more clips nothing (OpenCV clips a tile's bins at
 * clip-limit x pixels / 256, and no bin holds more than all). */
static const gh_param_spec params[GH_NUM_PARAMS] = {
  [GH_PARAM_MODE] = { GH_NAME_MODE, "Mode",
                      "Each colour channel on its own, or the luminance "
                      "only (hue kept)",
                      1, 0, 1, 1, NULL },
  [GH_PARAM_CHANNEL] = { GH_NAME_CHANNEL, "Channel",
                         "The channel whose histogram decides", 1, 0,
                         GH_NUM_CHANNELS - 1, 1, NULL },
  [GH_PARAM_THRESHOLD] = { GH_NAME_THRESHOLD, "Threshold",
                           "Otsu's threshold of the channel (automatic), "
                           "or a level: levels above it turn white",
                           1, -1, 254, 1, "Otsu (automatic)" },
  [GH_PARAM_CLIP_LIMIT] = { GH_NAME_CLIP_LIMIT, "Clip limit",
                            "OpenCV's clipLimit: a tile's bins are clipped "
                            "at this many times their mean; 0 clips nothing",
                            0, 0, 256, 0.1, NULL },
  [GH_PARAM_TILES_X] = { GH_NAME_TILES_X, "Tiles across",
                         "Columns of the tile grid", 1, 1,
                         GH_CLAHE_MAX_TILES, 1, NULL },
  [GH_PARAM_TILES_Y] = { GH_NAME_TILES_Y, "Tiles down",
                         "Rows of the tile grid", 1, 1, GH_CLAHE_MAX_TILES, 1,
                         NULL },
  /* Binarize is two classes. */
  [GH_PARAM_CLASSES] = { GH_NAME_CLASSES, "Classes",
                         "The number of classes multi-level Otsu splits "
                         "the channel into",
                         1, 3, GH_MULTI_OTSU_MAX_CLASSES, 1, NULL },
  [GH_PARAM_LOW] = { GH_NAME_LOW, "Low percentile",
                     "The share of the pixels, in percent, darker than the "
                     "level that becomes black",
                     0, 0, 50, 0.1, NULL },
  [GH_PARAM_HIGH] = { GH_NAME_HIGH, "High percentile",
                      "The share of the pixels, in percent, at or below the "
                      "level that becomes white",
                      0, 50, 100, 0.1, NULL },
};

/* The names of mode's and channel's values, every host's.  The channels'
 * are gh_channel_name's too (GIMP's order); "channels", the CLI's first
 * word for each channel, stays an alias. */
static const gh_param_value mode_values[] = {
  { GH_EQUALIZE_CHANNELS, "each-channel", "Each channel", "channels" },
  { GH_EQUALIZE_LUMINANCE, "luminance", "Luminance (hue kept)", NULL },
};
static const gh_param_value channel_values[GH_NUM_CHANNELS] = {
  { GH_CHANNEL_VALUE, "value", "Value", NULL },
  { GH_CHANNEL_RED, "red", "Red", NULL },
  { GH_CHANNEL_GREEN, "green", "Green", NULL },
  { GH_CHANNEL_BLUE, "blue", "Blue", NULL },
  { GH_CHANNEL_ALPHA, "alpha", "Alpha", NULL },
  { GH_CHANNEL_LUMINANCE, "luminance", "Luminance", NULL },
};

static const gh_operation_spec operations[GH_NUM_REQS] = {
  [GH_REQ_NONE] = { "analyse", "Analyse only",
                    "The statistics only: nothing is applied", 0, 0, { 0 },
                    { 0 } },
  [GH_REQ_EQUALIZE] = { "equalize", GH_LABEL_EQUALIZE,
                        "Spreads the levels over the whole range as "
                        "OpenCV's equalizeHist: each colour channel, or the "
                        "luminance with hue kept",
                        GH_NEEDS_HISTOGRAM, 1, { GH_PARAM_MODE },
                        { GH_EQUALIZE_CHANNELS } },
  /* Otsu on luminance: the first binarize of every host. */
  [GH_REQ_BINARIZE] = { "binarize", GH_LABEL_BINARIZE,
                        "Black and white at Otsu's threshold of a channel "
                        "(or a level you give): levels above it turn white",
                        GH_NEEDS_HISTOGRAM, 2,
                        { GH_PARAM_CHANNEL, GH_PARAM_THRESHOLD },
                        { GH_CHANNEL_LUMINANCE, -1 } },
  /* OpenCV's createCLAHE defaults; luminance first: colours keep hue. */
  [GH_REQ_CLAHE] = { "clahe", GH_LABEL_CLAHE,
                     "Contrast-limited adaptive histogram equalization, as "
                     "OpenCV's CLAHE: each tile equalized, its histogram "
                     "clipped, blended between tiles",
                     GH_NEEDS_CLAHE_PASS, 4,
                     { GH_PARAM_CLIP_LIMIT, GH_PARAM_TILES_X,
                       GH_PARAM_TILES_Y, GH_PARAM_MODE },
                     { 2.0, 8, 8, GH_EQUALIZE_LUMINANCE } },
  /* Each channel first: scikit-image's match_histograms. */
  [GH_REQ_MATCH] = { "match", GH_LABEL_MATCH,
                     "Matches the histogram to a reference image's, as "
                     "scikit-image's match_histograms: each colour "
                     "channel, or the luminance with hue kept",
                     GH_NEEDS_HISTOGRAM | GH_NEEDS_REFERENCE, 1,
                     { GH_PARAM_MODE }, { GH_EQUALIZE_CHANNELS } },
  [GH_REQ_POSTERIZE] = { "posterize", GH_LABEL_POSTERIZE,
                         "Posterizes into classes at multi-level Otsu "
                         "thresholds of a channel, as scikit-image's "
                         "threshold_multiotsu",
                         GH_NEEDS_HISTOGRAM, 2,
                         { GH_PARAM_CHANNEL, GH_PARAM_CLASSES },
                         { GH_CHANNEL_LUMINANCE, 3 } },
  /* Each channel first, as GIMP's Stretch Contrast. */
  [GH_REQ_STRETCH] = { "stretch", GH_LABEL_STRETCH,
                       "Stretches the levels between two percentiles of "
                       "the histogram over the whole range, the shares "
                       "beyond them clipped: each colour channel, or the "
                       "luminance with hue kept",
                       GH_NEEDS_HISTOGRAM, 3,
                       { GH_PARAM_LOW, GH_PARAM_HIGH, GH_PARAM_MODE },
                       { 1, 99, GH_EQUALIZE_CHANNELS } },
};

const gh_param_spec *
gh_param_get (gh_param param)
{
  return (unsigned) param < GH_NUM_PARAMS ? &params[param] : NULL;
}

const gh_operation_spec *
gh_operation_get (gh_operation operation)
{
  return (unsigned) operation < GH_NUM_REQS ? &operations[operation] : NULL;
}

const gh_param_value *
gh_param_values (gh_param param, int *n)
{
  switch (param)
    {
    case GH_PARAM_MODE:
      *n = (int) (sizeof mode_values / sizeof *mode_values);
      return mode_values;
    case GH_PARAM_CHANNEL:
      *n = GH_NUM_CHANNELS;
      return channel_values;
    default:
      *n = 0;
      return NULL;
    }
}

/* The value `text` names among `param`'s named values, or -1. */
static int
value_named (gh_param param, const char *text)
{
  int n;
  const gh_param_value *v = gh_param_values (param, &n);

  for (int k = 0; k < n; k++)
    if (!strcmp (text, v[k].nick) || (v[k].alias && !strcmp (text, v[k].alias)))
      return v[k].value;
  return -1;
}

int
gh_param_lookup (const char *name)
{
  for (int p = 0; name && p < GH_NUM_PARAMS; p++)
    if (!strcmp (name, params[p].name))
      return p;
  return -1;
}

int
gh_operation_lookup (const char *name)
{
  for (int o = 0; name && o < GH_NUM_REQS; o++)
    if (!strcmp (name, operations[o].name))
      return o;
  return -1;
}

/* The index of `param` among the operation's, or -1. */
static int
param_index (const gh_operation_spec *spec, gh_param param)
{
  for (int k = 0; k < spec->n_params; k++)
    if (spec->params[k] == param)
      return k;
  return -1;
}

int
gh_operation_param (gh_operation operation, gh_param param)
{
  const gh_operation_spec *spec = gh_operation_get (operation);

  return spec ? param_index (spec, param) : -1;
}

int
gh_request_on_luminance (const gh_request *request)
{
  if (gh_operation_param (request->operation, GH_PARAM_CHANNEL) >= 0
      && request->channel == GH_CHANNEL_LUMINANCE)
    return GH_PARAM_CHANNEL;
  if (gh_operation_param (request->operation, GH_PARAM_MODE) >= 0
      && request->mode == GH_EQUALIZE_LUMINANCE)
    return GH_PARAM_MODE;
  return -1;
}

unsigned
gh_request_channels (const gh_request *request, gh_layout layout)
{
  const gh_operation_spec *spec = gh_operation_get (request->operation);
  unsigned all = gh_layout_channel_mask (layout);
  int rgb = (all & (1u << GH_CHANNEL_RED)) != 0;

  /* A channel's operation reads its channel; one with a mode that maps
   * the histogram, the colours or the luminance. */
  if (gh_operation_param (request->operation, GH_PARAM_CHANNEL) >= 0)
    /* An unchecked request's channel out of range: every channel. */
    return request->channel >= 0 && request->channel < GH_NUM_CHANNELS
             ? 1u << request->channel
             : all;
  if (!spec || !(spec->needs & GH_NEEDS_HISTOGRAM)
      || gh_operation_param (request->operation, GH_PARAM_MODE) < 0)
    return all;
  if (!rgb)
    return 1u << GH_CHANNEL_VALUE;
  if (request->mode == GH_EQUALIZE_LUMINANCE)
    return 1u << GH_CHANNEL_LUMINANCE;
  return 1u << GH_CHANNEL_RED | 1u << GH_CHANNEL_GREEN
         | 1u << GH_CHANNEL_BLUE;
}

double
gh_param_default (gh_operation operation, gh_param param)
{
  const gh_operation_spec *own = gh_operation_get (operation);
  int k = own ? param_index (own, param) : -1;

  if (k >= 0)
    return own->defaults[k];
  for (int o = 0; o < GH_NUM_REQS; o++)
    if ((k = param_index (&operations[o], param)) >= 0)
      return operations[o].defaults[k];
  return 0;
}

void
gh_request_defaults (gh_request *request, gh_operation operation)
{
  memset (request, 0, sizeof *request);
  request->operation = operation;
  for (int p = 0; p < GH_NUM_PARAMS; p++)
    gh_request_set (request, (gh_param) p,
                    gh_param_default (operation, (gh_param) p));
}

double
gh_request_get (const gh_request *r, gh_param param)
{
  switch (param)
    {
    case GH_PARAM_MODE: return r->mode;
    case GH_PARAM_CHANNEL: return r->channel;
    case GH_PARAM_THRESHOLD: return r->threshold;
    case GH_PARAM_CLIP_LIMIT: return r->clip_limit;
    case GH_PARAM_TILES_X: return r->tiles_x;
    case GH_PARAM_TILES_Y: return r->tiles_y;
    case GH_PARAM_CLASSES: return r->classes;
    case GH_PARAM_LOW: return r->low_percentile;
    case GH_PARAM_HIGH: return r->high_percentile;
    default: return 0;
    }
}

void
gh_request_set (gh_request *r, gh_param param, double value)
{
  /* Out-of-range values are kept as they come (clamped to int where the
   * field is one) so that gh_request_check can name them. */
  int i = value >= INT_MAX ? INT_MAX : value <= -INT_MAX ? -INT_MAX
                                                         : (int) value;
  switch (param)
    {
    case GH_PARAM_MODE: r->mode = (gh_equalize_mode) i; break;
    case GH_PARAM_CHANNEL: r->channel = i; break;
    case GH_PARAM_THRESHOLD: r->threshold = i; break;
    case GH_PARAM_CLIP_LIMIT: r->clip_limit = value; break;
    case GH_PARAM_TILES_X: r->tiles_x = i; break;
    case GH_PARAM_TILES_Y: r->tiles_y = i; break;
    case GH_PARAM_CLASSES: r->classes = i; break;
    case GH_PARAM_LOW: r->low_percentile = value; break;
    case GH_PARAM_HIGH: r->high_percentile = value; break;
    default: break;
    }
}

gh_status
gh_param_check (gh_param param, double value, gh_error *error)
{
  const gh_param_spec *s = gh_param_get (param);

  if (!s)
    return gh_fail (error, GH_ERR_INVALID, "unknown parameter %d",
                    (int) param);
  if (!(value >= s->min && value <= s->max)
      || (s->is_integer && value != floor (value)))
    return gh_fail (error, GH_ERR_INVALID, "%s: %g is out of range %g..%g%s",
                    s->name, value, s->min, s->max,
                    s->is_integer ? " (whole numbers)" : "");
  return GH_OK;
}

/* The message for a `text` that is no value of `param`: "mode: 'x' is
 * not a mode (each-channel, luminance, 0..1)". */
static gh_status
not_a_value (const gh_param_spec *s, gh_param param, const char *text,
             gh_error *error)
{
  int n;
  const gh_param_value *names = gh_param_values (param, &n);
  char words[128] = "";

  if (!n)
    return gh_fail (error, GH_ERR_INVALID, "%s: '%s' is not a number",
                    s->name, text);
  for (int k = 0; k < n; k++)
    snprintf (words + strlen (words), sizeof words - strlen (words), "%s, ",
              names[k].nick);
  return gh_fail (error, GH_ERR_INVALID, "%s: '%s' is not a %s (%s%g..%g)",
                  s->name, text, s->name, words, s->min, s->max);
}

gh_status
gh_param_parse (gh_param param, const char *text, double *value,
                gh_error *error)
{
  const gh_param_spec *s = gh_param_get (param);
  char *end = NULL;
  int named;
  double v;

  if (!s || !text)
    return gh_fail (error, GH_ERR_INVALID, "nothing to parse");
  if ((named = value_named (param, text)) >= 0)
    v = named;
  else
    {
      v = strtod (text, &end);
      if (end == text || *end || !isfinite (v))
        return not_a_value (s, param, text, error);
    }
  if (gh_param_check (param, v, error) != GH_OK)
    return GH_ERR_INVALID;
  *value = v;
  return GH_OK;
}

gh_status
gh_request_check (const gh_request *r, gh_error *error)
{
  const gh_operation_spec *spec = r ? gh_operation_get (r->operation) : NULL;

  if (!spec)
    return gh_fail (error, GH_ERR_INVALID, "unknown operation %d",
                    r ? (int) r->operation : -1);
  for (int k = 0; k < spec->n_params; k++)
    if (gh_param_check (spec->params[k],
                        gh_request_get (r, spec->params[k]), error)
        != GH_OK)
      return GH_ERR_INVALID;
  if (r->n_bins < 0 || r->n_bins > GH_MULTI_OTSU_MAX_CLASSES - 1)
    return gh_fail (error, GH_ERR_INVALID, "%d threshold bins: 0..%d",
                    r->n_bins, GH_MULTI_OTSU_MAX_CLASSES - 1);
  return GH_OK;
}

void
gh_request_clahe_params (const gh_request *r, gh_clahe_params *params)
{
  memset (params, 0, sizeof *params);
  params->clip_limit = r->clip_limit;
  params->tiles_x = r->tiles_x;
  params->tiles_y = r->tiles_y;
  params->mode = r->mode;
}

/* The channels' names are channel_values' nicks: one spelling that every
 * host prints, parses and writes into its CSV files. */
const char *
gh_channel_name (gh_channel channel)
{
  int n;
  const gh_param_value *v = gh_param_values (GH_PARAM_CHANNEL, &n);

  return (unsigned) channel < (unsigned) n ? v[channel].nick : NULL;
}

int
gh_channel_parse (const char *name)
{
  int n;
  const gh_param_value *v = gh_param_values (GH_PARAM_CHANNEL, &n);

  for (int c = 0; name && c < n; c++)
    if (!strcmp (name, v[c].nick))
      return c;
  return -1;
}

int
gh_backend_parse (const char *name, gh_backend *backend)
{
  static const char *const names[] = { "auto", "cpu", "cuda" };
  static const gh_backend values[]
    = { GH_BACKEND_AUTO, GH_BACKEND_CPU, GH_BACKEND_CUDA };

  for (size_t k = 0; name && k < sizeof names / sizeof names[0]; k++)
    if (!strcmp (name, names[k]))
      {
        if (backend)
          *backend = values[k];
        return 0;
      }
  return -1;
}

unsigned
gh_layout_channel_mask (gh_layout layout)
{
  if (layout < GH_LAYOUT_GRAY || layout > GH_LAYOUT_RGBA)
    return 0;
  return gh_layout_channels (layout);
}

gh_channel
gh_default_binarize_channel (gh_layout layout)
{
  /* Gray images have no luminance channel: their value is it. */
  return gh_layout_is_rgb (layout) ? GH_CHANNEL_LUMINANCE : GH_CHANNEL_VALUE;
}
