/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gh_request.h — the operations' one vocabulary: which operations there
 * are, each one's parameters (name, range, default), one check that names
 * the wrong field, what each needs before it can be prepared, and its
 * preparation into a gh_op.
 *
 * Every host speaks it: the CLI's options, the plug-in's procedure
 * arguments and remembered settings, the batch, the dialog and the GEGL
 * operations take their names, ranges and defaults from here, and no
 * other file holds a default, a range or a switch over operations.
 * Adding an operation: its engine function, a row in vocabulary.c's
 * tables, a case in gh_request_prepare (ops/request.c;
 * doc/adding-an-operation.md).  vocabulary.c holds the tables, lookups,
 * fields and checks and calls no operation; ops/request.c holds the
 * needs, thresholds and preparation, which call the operations.
 *
 *   gh_request r;
 *   gh_request_defaults (&r, GH_REQ_CLAHE);
 *   gh_request_set (&r, GH_PARAM_CLIP_LIMIT, 3.0);
 *   if (gh_request_check (&r, &err) != GH_OK) ... err.message names it
 *   if (gh_request_needs (&r) & GH_NEEDS_CLAHE_PASS) ... gh_clahe_begin
 *   gh_request_inputs in = { layout, sample, luminance, 256, &hist,
 *                            NULL, clahe };
 *   gh_request_result res;
 *   gh_request_prepare (&r, &in, &op, &res, &err);
 *   ... gh_op_apply_rect on every strip; gh_op_clear (&op);
 */
#ifndef GH_REQUEST_H
#define GH_REQUEST_H

#include "gpu_histogram.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The operations, numbered as the dialog's actions and the remembered
 * "action" setting have always been. */
typedef enum {
  GH_REQ_NONE = 0,   /* analyse only: nothing applied                  */
  GH_REQ_EQUALIZE,   /* gh_op_equalize                                 */
  GH_REQ_BINARIZE,   /* gh_op_binarize at Otsu's or a fixed threshold  */
  GH_REQ_CLAHE,      /* gh_clahe_* then gh_op_clahe                    */
  GH_REQ_MATCH,      /* gh_op_match to a reference histogram           */
  GH_REQ_POSTERIZE,  /* gh_op_posterize at multi-level Otsu thresholds */
  GH_REQ_STRETCH,    /* gh_op_equalize of the levels between two
                        percentiles: a contrast stretch              */
  GH_NUM_REQS
} gh_operation;

/* The parameters' names, which are the procedure arguments', the CLI
 * options' and the GEGL properties': macros, so that hosts' C tables of
 * arguments can name them without spelling them again. */
#define GH_NAME_MODE       "mode"
#define GH_NAME_CHANNEL    "channel"
#define GH_NAME_THRESHOLD  "threshold"
#define GH_NAME_CLIP_LIMIT "clip-limit"
#define GH_NAME_TILES_X    "tiles-x"
#define GH_NAME_TILES_Y    "tiles-y"
#define GH_NAME_CLASSES    "classes"
#define GH_NAME_LOW        "low-percentile"
#define GH_NAME_HIGH       "high-percentile"

/* The parameters, over all operations. */
typedef enum {
  GH_PARAM_MODE = 0,   /* "mode": gh_equalize_mode                     */
  GH_PARAM_CHANNEL,    /* "channel": a gh_channel                      */
  GH_PARAM_THRESHOLD,  /* "threshold": -1 Otsu, else a level           */
  GH_PARAM_CLIP_LIMIT, /* "clip-limit": OpenCV's clipLimit, 0 none     */
  GH_PARAM_TILES_X,    /* "tiles-x"                                    */
  GH_PARAM_TILES_Y,    /* "tiles-y"                                    */
  GH_PARAM_CLASSES,    /* "classes": multi-level Otsu's                */
  GH_PARAM_LOW,        /* "low-percentile": stretch's black point      */
  GH_PARAM_HIGH,       /* "high-percentile": stretch's white point     */
  GH_NUM_PARAMS
} gh_param;

typedef struct {
  const char *name;  /* "clip-limit"                                   */
  const char *label; /* "Clip limit": a control's text, no mnemonic    */
  const char *blurb; /* one line for a tooltip or --help, in words: no
                        number stands for a value                      */
  int is_integer;    /* 0: a double                                    */
  double min, max;   /* inclusive                                      */
  double step;       /* a control's step                               */
  const char *min_label; /* what `min` means where it is no amount
                            (threshold's -1: "Otsu (automatic)"), or
                            NULL                                       */
} gh_param_spec;

/* A named value of an enum-like parameter (mode, channel): the CLI's
 * word, the GEGL enum's nick and label, what messages print. */
typedef struct {
  int value;
  const char *nick;  /* "each-channel"                                  */
  const char *label; /* "Each channel"                                  */
  const char *alias; /* another word parsed as it ("channels", the CLI's
                        first), or NULL                                 */
} gh_param_value;

/* What an operation needs before gh_request_prepare. */
enum {
  GH_NEEDS_HISTOGRAM = 1u << 0,  /* the image's histogram              */
  GH_NEEDS_REFERENCE = 1u << 1,  /* a reference image's histogram      */
  GH_NEEDS_CLAHE_PASS = 1u << 2  /* the image fed through a gh_clahe   */
};

#define GH_REQ_MAX_PARAMS 4

/* The operations' names as people read them, one each for every
 * frontend: the plug-in's menu entries (with a mnemonic and "..."), the
 * GEGL module's titles, the documents.  Macros, so that C tables can
 * build their texts from them. */
#define GH_LABEL_EQUALIZE  "Equalize Histogram"
#define GH_LABEL_BINARIZE  "Binarize (Otsu)"
#define GH_LABEL_CLAHE     "CLAHE (Local Contrast)"
#define GH_LABEL_MATCH     "Match Histogram"
#define GH_LABEL_POSTERIZE "Posterize (Multi-level Otsu)"
#define GH_LABEL_STRETCH   "Stretch Contrast (Percentiles)"

typedef struct {
  const char *name;   /* "equalize", "binarize", "clahe", "match",
                         "posterize"; "analyse" for GH_REQ_NONE       */
  const char *label;  /* GH_LABEL_*: "Equalize Histogram"              */
  const char *blurb;  /* what it does, in a sentence: the CLI's --help,
                         the GEGL operation's description              */
  unsigned needs;     /* GH_NEEDS_*                                    */
  int n_params;       /* its parameters, in the procedures' order      */
  gh_param params[GH_REQ_MAX_PARAMS];
  double defaults[GH_REQ_MAX_PARAMS]; /* each one's first-run value    */
} gh_operation_spec;

/* NULL for values out of range. */
const gh_param_spec *gh_param_get (gh_param param);
const gh_operation_spec *gh_operation_get (gh_operation operation);
/* By name; -1 when none is called so. */
int gh_param_lookup (const char *name);
int gh_operation_lookup (const char *name);
/* The named values of `param` (their number in *n; the values are 0 ..
 * *n - 1 in order), or NULL (*n 0) for a number: mode's "each-channel"
 * and "luminance", channel's gh_channel names. */
const gh_param_value *gh_param_values (gh_param param, int *n);
/* The place of `param` among `operation`'s parameters (its default is
 * that of `defaults`), or -1 when the operation does not take it. */
int gh_operation_param (gh_operation operation, gh_param param);
/* The default of `param` for `operation` (mode: channels for equalize
 * and match, luminance for CLAHE); a parameter the operation does not
 * take gets the first operation's that does. */
double gh_param_default (gh_operation operation, gh_param param);

/* One operation with all its parameters.  Fields an operation does not
 * take are ignored by it. */
typedef struct {
  gh_operation operation;
  gh_equalize_mode mode;
  int channel;             /* gh_channel                               */
  int threshold;           /* -1: Otsu                                 */
  double clip_limit;
  int tiles_x, tiles_y;
  int classes;
  double low_percentile, high_percentile;
  /* Binarize and posterize at these bins of the histogram given, in
   * place of threshold / Otsu / multi-level Otsu: the dialog applies
   * exactly the bins its markers show.  0: not given. */
  int n_bins;
  int bins[GH_MULTI_OTSU_MAX_CLASSES - 1];
} gh_request;

/* Every parameter at `operation`'s defaults (gh_param_default), no bins. */
void gh_request_defaults (gh_request *request, gh_operation operation);
/* A parameter by its enum: the hosts loop over an operation's params. */
double gh_request_get (const gh_request *request, gh_param param);
void gh_request_set (gh_request *request, gh_param param, double value);

/* Checks the operation and each parameter it takes against its range
 * (integers whole); the message names the parameter as the vocabulary
 * does: "clip-limit: 300 is out of range 0..256". */
gh_status gh_request_check (const gh_request *request, gh_error *error);
/* Checks one value of `param`; `error` as gh_request_check's. */
gh_status gh_param_check (gh_param param, double value, gh_error *error);
/* Parses `text` as a value of `param` (a number, or a nick or alias of
 * gh_param_values: for "channel" a gh_channel name, for "mode"
 * "each-channel" (or "channels") / "luminance") and checks it. */
gh_status gh_param_parse (gh_param param, const char *text, double *value,
                          gh_error *error);

/* GH_NEEDS_* of the request's operation. */
unsigned gh_request_needs (const gh_request *request);
/* The parameter through which `request` works on the luminance: its
 * channel (GH_PARAM_CHANNEL, the luminance's result painted into the
 * colour) or its mode (GH_PARAM_MODE, each colour moved to the result);
 * -1 when it works on the channels. */
int gh_request_on_luminance (const gh_request *request);

/* The channels of the image's histogram (bit mask of 1 << gh_channel)
 * that `request` reads on `layout`, for gh_image.channels: equalize and
 * match R, G and B, or the luminance (gray layouts: the value);
 * binarize and posterize their channel; every channel the layout has
 * for analyse, and for what reads no histogram (CLAHE). */
unsigned gh_request_channels (const gh_request *request, gh_layout layout);

/* The gh_clahe_params of a CLAHE request (clip limit, tiles, mode): what
 * gh_clahe_begin takes for its GH_NEEDS_CLAHE_PASS. */
void gh_request_clahe_params (const gh_request *request,
                              gh_clahe_params *params);

/* What gh_request_prepare works from: the image's pixel format, and what
 * the operation needs (NULL where it needs nothing). */
typedef struct {
  gh_layout layout;
  gh_sample sample;
  gh_luminance luminance;
  int bins;                      /* the image's histogram bins (256 U8) */
  const gh_histogram *histogram; /* GH_NEEDS_HISTOGRAM                 */
  const gh_histogram *reference; /* GH_NEEDS_REFERENCE                 */
  const gh_clahe *clahe;         /* GH_NEEDS_CLAHE_PASS                */
} gh_request_inputs;

/* What the preparation decided: binarize's threshold and posterize's
 * thresholds, as bins of the histogram and as levels (0..254, rounded
 * down, as the procedures return them). */
typedef struct {
  int n;
  int bins[GH_MULTI_OTSU_MAX_CLASSES - 1];
  int levels[GH_MULTI_OTSU_MAX_CLASSES - 1];
} gh_request_result;

/* Checks the request and prepares its gh_op (GH_REQ_NONE: an error).
 * Binarize: Otsu over the histogram's channel when threshold is -1;
 * posterize: multi-level Otsu of `classes`.  `result` may be NULL. */
gh_status gh_request_prepare (const gh_request *request,
                              const gh_request_inputs *inputs, gh_op *op,
                              gh_request_result *result, gh_error *error);

/* The thresholds only (binarize, posterize), without preparing a gh_op:
 * what a host reports, or applies through a pixel path of its own.
 * `histogram` (of `bins` bins) may be NULL for a fixed threshold or given
 * bins. */
gh_status gh_request_thresholds (const gh_request *request,
                                 const gh_histogram *histogram, int bins,
                                 gh_request_result *result,
                                 gh_error *error);

#ifdef __cplusplus
}
#endif

#endif
