/* procedures.h — the procedures' names and every text GIMP shows of them,
 * once for both hosts.
 *
 * Each host registers the same five procedures with these names, menu
 * labels, blurbs and help, and its arguments with these names and
 * descriptions (GIMP 2.10: GimpParamDef; GIMP 3: gimp_procedure_add_*).
 * Values (ranges, defaults) are here too, so both hosts check the same.
 *
 *   gimp_install_procedure (core_proc_analyse.name, core_proc_analyse.blurb,
 *                           core_proc_analyse.help, ...);
 */
#ifndef GH_CORE_PROCEDURES_H
#define GH_CORE_PROCEDURES_H

#include <glib.h>

#define CORE_PLUG_IN_BINARY "gpu-histogram"
#define CORE_MENU_PATH      "<Image>/Filters/Histogram (GPU)"
#define CORE_AUTHOR         "gpu-histogram contributors"
#define CORE_COPYRIGHT      "GPL-3.0-or-later"
#define CORE_DATE           "2026"

typedef struct
{
  const gchar *name;        /* PDB name                                  */
  const gchar *menu_label;  /* NULL: no menu entry (the batch)           */
  const gchar *blurb;
  const gchar *help;
  const gchar *image_types; /* "" for the batch, which takes no image    */
} CoreProcText;

typedef struct
{
  const gchar *name;  /* the argument's or return value's name           */
  const gchar *nick;  /* its label in a dialog (GIMP 3)                  */
  const gchar *blurb; /* its description                                 */
} CoreArgText;

extern const CoreProcText core_proc_analyse;  /* plug-in-gpu-histogram          */
extern const CoreProcText core_proc_equalize; /* plug-in-gpu-histogram-equalize */
extern const CoreProcText core_proc_binarize; /* plug-in-gpu-histogram-binarize */
extern const CoreProcText core_proc_export;   /* plug-in-gpu-histogram-export   */
extern const CoreProcText core_proc_batch;    /* plug-in-gpu-histogram-batch    */

/* Arguments. */
extern const CoreArgText core_arg_mode;       /* equalize: 0 channels, 1 luminance */
extern const CoreArgText core_arg_channel;    /* binarize: 0..5                    */
extern const CoreArgText core_arg_threshold;  /* binarize: -1 Otsu, 0..254         */
extern const CoreArgText core_arg_filename;   /* export: the CSV file              */
extern const CoreArgText core_arg_pattern;    /* batch                             */
extern const CoreArgText core_arg_operation;  /* batch: 0..3                       */
extern const CoreArgText core_arg_output_dir; /* batch                             */
extern const CoreArgText core_arg_stats_csv;  /* batch                             */
/* Return values. */
extern const CoreArgText core_ret_backend;    /* analyse                           */
extern const CoreArgText core_ret_stats;      /* analyse: GH_NUM_STATS doubles     */
extern const CoreArgText core_ret_histogram;  /* analyse: GH_NUM_LEVELS doubles    */
extern const CoreArgText core_ret_threshold;  /* binarize                          */

#define CORE_MODE_MIN       0
#define CORE_MODE_MAX       1
#define CORE_CHANNEL_MIN    0
#define CORE_CHANNEL_MAX    5
#define CORE_THRESHOLD_MIN  (-1)
#define CORE_THRESHOLD_MAX  254
#define CORE_OPERATION_MIN  0
#define CORE_OPERATION_MAX  3

#endif
