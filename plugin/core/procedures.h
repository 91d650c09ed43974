/* SPDX-License-Identifier: GPL-3.0-or-later */
/* procedures.h — the procedures' names and every text GIMP shows of them,
 * once for both hosts.
 *
 * Each host registers the same eight procedures with these names, menu
 * labels, blurbs and help, and its arguments with these names and
 * descriptions (GIMP 2.10: GimpParamDef; GIMP 3: gimp_procedure_add_*).
 * The operations' menu labels are the vocabulary's names (GH_LABEL_*), and
 * a vocabulary parameter's name, description and values are the
 * vocabulary's (gh_request.h): core_param_blurb.
 *
 *   gimp_install_procedure (core_proc_analyse.name, core_proc_analyse.blurb,
 *                           core_proc_analyse.help, ...);
 */
#ifndef GH_CORE_PROCEDURES_H
#define GH_CORE_PROCEDURES_H

#include <glib.h>

#include "gh_request.h"
#include "gh_version.h"

#define CORE_PLUG_IN_BINARY "gpu-histogram"
/* The plug-in's menu: its entries' path, and where it hangs with its
 * label and mnemonic (GIMP 2.10: gimp_plugin_menu_branch_register; GIMP
 * 3 reads the mnemonic from the path itself: CORE_MENU_PARENT "/"
 * CORE_MENU_LABEL).  GIMP's Enhance shares the letter: H selects one,
 * then the other. */
#define CORE_MENU_PATH      "<Image>/Filters/Histogram (GPU)"
#define CORE_MENU_PARENT    "<Image>/Filters"
#define CORE_MENU_LABEL     "_Histogram (GPU)"
#define CORE_AUTHOR         "gpu-histogram contributors"
#define CORE_COPYRIGHT      "GPL-3.0-or-later"
/* GIMP keeps no version of a procedure: its date string carries it. */
#define CORE_DATE           "2026, version " GH_VERSION

typedef struct
{
  const gchar *name;        /* PDB name                                  */
  const gchar *menu_label;  /* NULL: no menu entry (the batch)           */
  const gchar *blurb;
  const gchar *help;
  const gchar *image_types; /* "" for the batch, which takes no image    */
  const gchar *progress;    /* the progress bar's text while it works;
                               NULL: none of its own                     */
} CoreProcText;

typedef struct
{
  const gchar *name;  /* the argument's or return value's name           */
  const gchar *nick;  /* its label in a dialog (GIMP 3)                  */
  const gchar *blurb; /* its description; NULL for a vocabulary
                         parameter (core_param_blurb)                   */
} CoreArgText;

extern const CoreProcText core_proc_analyse;  /* plug-in-gpu-histogram          */
extern const CoreProcText core_proc_equalize; /* plug-in-gpu-histogram-equalize */
extern const CoreProcText core_proc_binarize; /* plug-in-gpu-histogram-binarize */
extern const CoreProcText core_proc_export;   /* plug-in-gpu-histogram-export   */
extern const CoreProcText core_proc_batch;    /* plug-in-gpu-histogram-batch    */
/* Beyond GIMP: what it has no tool for. */
extern const CoreProcText core_proc_stretch;    /* plug-in-gpu-histogram-stretch     */
extern const CoreProcText core_proc_clahe;      /* plug-in-gpu-histogram-clahe       */
extern const CoreProcText core_proc_match;      /* plug-in-gpu-histogram-match       */
extern const CoreProcText core_proc_multi_otsu; /* plug-in-gpu-histogram-multi-otsu  */
/* The resident process that serves scripts' calls (resident.h of each host). */
extern const CoreProcText core_proc_resident;   /* extension-gpu-histogram           */

/* Arguments.  The vocabulary's parameters (mode ... classes): their
 * names and nicks; their descriptions are core_param_blurb's. */
extern const CoreArgText core_arg_mode;       /* equalize, CLAHE, match            */
extern const CoreArgText core_arg_channel;    /* binarize, multi-Otsu              */
extern const CoreArgText core_arg_threshold;  /* binarize                          */
extern const CoreArgText core_arg_filename;   /* export: the CSV file              */
extern const CoreArgText core_arg_pattern;    /* batch                             */
extern const CoreArgText core_arg_operation;  /* batch: a CoreBatchOperation       */
extern const CoreArgText core_arg_output_dir; /* batch                             */
extern const CoreArgText core_arg_stats_csv;  /* batch                             */
extern const CoreArgText core_arg_clip_limit; /* clahe                             */
extern const CoreArgText core_arg_tiles_x;    /* clahe                             */
extern const CoreArgText core_arg_tiles_y;    /* clahe                             */
extern const CoreArgText core_arg_classes;    /* multi-otsu                        */
extern const CoreArgText core_arg_low;        /* stretch                           */
extern const CoreArgText core_arg_high;       /* stretch                           */
extern const CoreArgText core_arg_reference;  /* match: the reference drawable     */
extern const CoreArgText core_arg_apply;      /* multi-otsu: 0 compute, 1 posterize */
/* Return values. */
extern const CoreArgText core_ret_backend;    /* analyse                           */
extern const CoreArgText core_ret_stats;      /* analyse: GH_NUM_STATS doubles     */
extern const CoreArgText core_ret_histogram;  /* analyse: GH_NUM_LEVELS doubles    */
extern const CoreArgText core_ret_threshold;  /* binarize                          */
extern const CoreArgText core_ret_num_thresholds; /* multi-otsu (GIMP 2.10 only)   */
extern const CoreArgText core_ret_thresholds; /* multi-otsu: classes - 1 levels    */

/* A vocabulary parameter's description as the procedures give it: the
 * vocabulary's words, then what a script passes: "... (0 Each channel,
 * 1 Luminance (hue kept))", "... (-1 Otsu (automatic), or 0..254)",
 * "... (1..256)".  Lives as long as the process. */
const gchar *core_param_blurb (gh_param param);
/* `param`'s named values as "0 Value, 1 Red, ...", then `more` (the next
 * number's label; NULL: none).  Lives as long as the process. */
const gchar *core_param_values (gh_param param, const gchar *more);

#endif
