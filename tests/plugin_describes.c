/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plugin_describes.c — a call describes its drawable once (each
 * description is a round trip to GIMP).
 *
 * The plug-in's core (plugin/core/) and the dialog flow (plugin/flow/) on
 * a host made of GEGL buffers in memory (fake_host.h) that counts, per
 * drawable, how often it is described (CoreHost.describe: in GIMP a few
 * round trips and a new buffer).  Each procedure's call without a dialog
 * (analyse, every action's arguments applied, export, a batch's file) and
 * a repeat of the last settings (the flow without a display) describe the
 * call's drawable once.  The dialog's call (the histogram, the refusal
 * check, the preview's format, the preview of every action, CLAHE's at two
 * parameter sets) describes it once, and OK once more: OK must see a
 * selection changed while the dialog was open, which is checked too (only
 * the new selection's pixels change).  A batch tells the progress bar
 * each file's place and path ("Histogram batch 2/3: DIR/1.png"), its bar
 * moving only forward and ending full.  The preview's scratch layers and
 * match's reference are other drawables, not counted against the call's.
 *
 * Ends with "N passed, N failed".
 */
#include <string.h>

#include <glib/gstdio.h>
#include <gegl.h>

#include "core/batch.h"
#include "core/call.h"
#include "core/operations.h"
#include "fake_host.h"
#include "flow.h"
#include "test_util.h"

#define WIDTH  96
#define HEIGHT 64

/* A layer of the fake host (fake_host.h), RGB 8-bit: a gradient with
 * texture, so that every operation changes some pixels. */
static Fake *
fake_gradient (gint width, gint height)
{
  Fake   *f = fake_new (width, height, FALSE, FALSE, FALSE, NULL);
  guchar *px = g_malloc ((gsize) width * height * 3);

  for (gint i = 0; i < width * height; i++)
    for (gint c = 0; c < 3; c++)
      px[i * 3 + c] = (guchar) (40 + (i % width) + (i / width) / 2
                                + 13 * c + (i * 7 + c) % 11);
  gegl_buffer_set (f->buffer, NULL, 0, babl_format ("R'G'B' u8"), px,
                   GEGL_AUTO_ROWSTRIDE);
  g_free (px);
  return f;
}

/* Selects `box` of the drawable's image (all or nothing). */
static void
fake_select (Fake *f, const GeglRectangle *box)
{
  const GeglRectangle *e = gegl_buffer_get_extent (f->buffer);

  g_clear_object (&f->selection);
  f->selection = gegl_buffer_new (e, babl_format ("Y u8"));
  gegl_buffer_clear (f->selection, e);
  gegl_buffer_set_color_from_pixel (f->selection, box,
                                    (const guchar[]) { 255 },
                                    babl_format ("Y u8"));
  f->box = *box;
}

/* A file is an image of one layer, itself. */
static gpointer
file_load (const gchar *path, gpointer *drawable, GError **error)
{
  (void) path;
  (void) error;
  *drawable = fake_gradient (WIDTH, HEIGHT);
  return *drawable;
}

static gboolean
file_save (gpointer image, gpointer drawable, const gchar *path,
           GError **error)
{
  (void) image;
  (void) drawable;
  (void) path;
  (void) error;
  return TRUE;
}

/* Describes counted (fake_describe); a batch's files counted as they
 * close (fake_image_close). */
static const CoreHost host = {
  .luminance = GH_LUMINANCE_PERCEPTUAL,
  .describe = fake_describe,
  FAKE_HOST_CALLBACKS,
  .file_load = file_load,
  .file_save = file_save,
};

/* Match's reference, item ID 1. */
static Fake *reference;

/* What the fake dialog does before OK: previews every action (CLAHE at
 * two clip limits, match on the reference), then, where `moved` is set,
 * the user selects it in the image. */
static const GeglRectangle *moved;
static gint previews_failed;

static void
preview_once (const DialogHooks *hooks, const DialogState *state)
{
  DialogChoice choice;
  GError      *error = NULL;
  gint         rowstride;
  guchar      *pixels;

  dialog_state_choice (state, &choice);
  pixels = hooks->preview (&choice, 8, 4, 40, 30, 40, 30, &rowstride,
                           hooks->data, &error);
  if (! pixels)
    {
      printf ("preview of %d: %s\n", choice.request.operation,
              error ? error->message : "nothing");
      previews_failed++;
    }
  g_free (pixels);
  g_clear_error (&error);
}

static gboolean
run_dialog (gpointer drawable, DialogState *state, const gchar *refusal,
            const DialogHooks *hooks, DialogChoice *choice)
{
  static const DialogAction actions[] = {
    DIALOG_ACTION_EQUALIZE, DIALOG_ACTION_BINARIZE, DIALOG_ACTION_CLAHE,
    DIALOG_ACTION_MATCH, DIALOG_ACTION_POSTERIZE
  };
  DialogAction chosen = state->settings.action;

  (void) refusal;
  dialog_state_set_reference (state, 1);
  for (gsize k = 0; k < G_N_ELEMENTS (actions); k++)
    {
      dialog_state_set_action (state, actions[k]);
      preview_once (hooks, state);
    }
  dialog_state_set_action (state, DIALOG_ACTION_CLAHE);
  dialog_state_set_param (state, GH_PARAM_CLIP_LIMIT, 3.5);
  preview_once (hooks, state);
  dialog_state_set_action (state, chosen);
  if (moved)
    fake_select (drawable, moved);
  dialog_state_choice (state, choice);
  return TRUE;
}

static gboolean
ui_available (void)
{
  return TRUE;
}

static gpointer
reference_of (gint32 id)
{
  return id == 1 ? reference : NULL;
}

/* The last run chose the reference. */
static void
settings_load (gpointer store, DialogAction action, DialogSettings *s)
{
  (void) store;
  (void) action;
  s->reference = 1;
}

static void
settings_save (gpointer store, DialogAction action, const DialogState *s)
{
  (void) store;
  (void) action;
  (void) s;
}

static gboolean
message (const gchar *text)
{
  (void) text;
  return TRUE;
}

static const FlowHost flow_host = {
  .core = &host,
  .ui_available = ui_available,
  .run_dialog = run_dialog,
  .reference = reference_of,
  .settings_load = settings_load,
  .settings_save = settings_save,
  .message = message,
};

/* The flow's call on a new drawable; its describes. */
static gint
flow_describes (gh_engine **engine, DialogAction action,
                gboolean interactive, Fake **kept)
{
  Fake        *f = fake_gradient (WIDTH, HEIGHT);
  CoreTarget   target = fake_run_target (f);
  gh_histogram hist;
  FlowResult   result;
  GError      *error = NULL;
  gboolean     ok;
  gint         n;

  gh_histogram_init (&hist);
  ok = flow_run (&flow_host, engine, &target, action, interactive, NULL,
                 &hist, &result, &error);
  CHECK (ok && ! result.cancelled, "flow of %d (%s): %s", action,
         interactive ? "dialog" : "repeat", error ? error->message : "");
  CHECK (result.changed == (action != DIALOG_ACTION_NONE),
         "flow of %d: changed %d", action, result.changed);
  g_clear_error (&error);
  gh_histogram_clear (&hist);
  n = f->describes;
  if (kept)
    *kept = f;
  else
    fake_free (f);
  return n;
}

/* An action's procedure without its dialog, its arguments' defaults
 * given (match's reference); its describes. */
static gint
action_describes (gh_engine **engine, gh_operation op)
{
  const CoreAction *action = core_action_get (op);
  Fake             *f = fake_gradient (WIDTH, HEIGHT);
  CoreTarget        target = fake_run_target (f);
  CoreRequest       req;
  gh_request_result result;
  gdouble           values[CORE_ACTION_MAX_ARGS], min, max;
  GError           *error = NULL;
  gint              n;

  for (gint k = 0; k < action->n_args; k++)
    core_arg_range (op, &action->args[k], &min, &max, &values[k]);
  CHECK (core_call_action (&host, engine, &target, op, values, reference,
                           &req, &result, &error),
         "action %d: %s", op, error ? error->message : "");
  g_clear_error (&error);
  n = f->describes;
  fake_free (f);
  return n;
}

static void
check_calls (gh_engine **engine, const gchar *dir)
{
  Fake         *f = fake_gradient (WIDTH, HEIGHT);
  CoreTarget    target = fake_run_target (f);
  gh_histogram  hist;
  const CoreProgress *progress;
  gdouble       seconds;
  gchar        *csv = g_build_filename (dir, "h.csv", NULL);
  GError       *error = NULL;
  gint          ref_before;

  gh_histogram_init (&hist);
  CHECK (core_call_histogram (&host, engine, &target, &hist, &seconds,
                              &error),
         "analyse: %s", error ? error->message : "");
  CHECK (f->describes == 1, "analyse: %d describes, 1 expected",
         f->describes);
  gh_histogram_clear (&hist);
  f->describes = 0;
  CHECK (core_call_start (&host, engine, &target, "export", &progress,
                          &error)
         && core_export (&host, *engine, &target, csv, progress, &error),
         "export: %s", error ? error->message : "");
  CHECK (f->describes == 1, "export: %d describes, 1 expected",
         f->describes);
  g_clear_error (&error);
  fake_free (f);
  g_free (csv);

  for (gint op = GH_REQ_NONE + 1; core_action_get (op); op++)
    {
      gint n;

      ref_before = reference->describes;
      n = action_describes (engine, op);
      CHECK (n == 1, "%s without a dialog: %d describes, 1 expected",
             core_action_get (op)->proc->name, n);
      CHECK (reference->describes - ref_before
             == (op == GH_REQ_MATCH ? 1 : 0),
             "%s: the reference described %d times",
             core_action_get (op)->proc->name,
             reference->describes - ref_before);
    }
}

static void
check_batch (gh_engine **engine, const gchar *dir)
{
  static const gint operations[] = {
    CORE_BATCH_STATISTICS, CORE_BATCH_EQUALIZE_CHANNELS, CORE_BATCH_CLAHE
  };
  gchar  *in = g_build_filename (dir, "in", NULL);
  gchar  *out = g_build_filename (dir, "out", NULL);
  gchar  *pattern = g_build_filename (in, "*.png", NULL);
  gchar  *stats = g_build_filename (dir, "stats.csv", NULL);

  g_mkdir (in, 0700);
  g_mkdir (out, 0700);
  for (gint k = 0; k < 3; k++)
    {
      gchar *name = g_strdup_printf ("%s/%d.png", in, k);

      g_file_set_contents (name, "", 0, NULL);
      g_free (name);
    }
  for (gsize k = 0; k < G_N_ELEMENTS (operations); k++)
    {
      guint   done = 0, failed = 0;
      gchar  *failures = NULL;
      GError *error = NULL;

      fake_closed_describes = fake_closed_images = 0;
      fake_progress_texts = g_ptr_array_new_with_free_func (g_free);
      fake_progress_monotone = TRUE;
      fake_progress_last = 0.0;
      CHECK (core_batch_run (&host, engine, pattern, operations[k], out,
                             stats, &done, &failed, &failures, &error)
             && done == 3 && failed == 0,
             "batch %d: %u done, %u failed: %s %s", operations[k], done,
             failed, error ? error->message : "", failures ? failures : "");
      CHECK (fake_closed_images == 3
             && fake_closed_describes == fake_closed_images,
             "batch %d: %d describes of %d files, 1 each expected",
             operations[k], fake_closed_describes, fake_closed_images);
      CHECK (fake_progress_texts->len >= 3, "batch %d: %u progress texts, a file each "
             "expected", operations[k], fake_progress_texts->len);
      for (gint f = 0; f < 3 && (guint) f < fake_progress_texts->len; f++)
        {
          /* A file's text: its place, then its path. */
          gchar      *place = g_strdup_printf ("Histogram batch %d/3: ", f + 1);
          gchar      *name = g_strdup_printf ("/%d.png", f);
          gboolean    found = FALSE;
          for (guint i = 0; i < fake_progress_texts->len; i++)
            {
              const gchar *text = g_ptr_array_index (fake_progress_texts, i);
              found |= g_str_has_prefix (text, place) && g_str_has_suffix (text, name);
            }
          CHECK (found, "batch %d: the progress bar says '%s...%s'", operations[k],
                 place, name);
          g_free (place);
          g_free (name);
        }
      CHECK (fake_progress_monotone && fake_progress_last == 1.0,
             "batch %d: the progress bar moves forward and ends full (last %g)",
             operations[k], fake_progress_last);
      g_clear_pointer (&fake_progress_texts, g_ptr_array_unref);
      g_free (failures);
      g_clear_error (&error);
    }
  g_free (in);
  g_free (out);
  g_free (pattern);
  g_free (stats);
}

static void
check_flows (gh_engine **engine)
{
  static const DialogAction actions[] = {
    DIALOG_ACTION_NONE, DIALOG_ACTION_EQUALIZE, DIALOG_ACTION_BINARIZE,
    DIALOG_ACTION_CLAHE, DIALOG_ACTION_MATCH
  };

  for (gsize k = 0; k < G_N_ELEMENTS (actions); k++)
    {
      gint repeat = flow_describes (engine, actions[k], FALSE, NULL);
      gint dialog = flow_describes (engine, actions[k], TRUE, NULL);
      /* Analyse's OK applies nothing: nothing to describe again. */
      gint at_ok = actions[k] == DIALOG_ACTION_NONE ? 0 : 1;

      CHECK (repeat == 1, "repeat of %d: %d describes, 1 expected",
             actions[k], repeat);
      CHECK (dialog == 1 + at_ok, "dialog of %d: %d describes, %d expected "
             "(1 for the dialog, %d at OK)", actions[k], dialog, 1 + at_ok,
             at_ok);
    }
  CHECK (previews_failed == 0, "%d previews failed", previews_failed);
}

/* OK applies to the selection as it is at OK, not as the dialog opened
 * on: only the new box's pixels change. */
static void
check_ok_sees_selection (gh_engine **engine)
{
  static const GeglRectangle box = { 10, 8, 30, 20 };
  Fake         *f;
  Fake         *original = fake_gradient (WIDTH, HEIGHT);
  guchar       *was = g_malloc (WIDTH * HEIGHT * 3);
  guchar       *now = g_malloc (WIDTH * HEIGHT * 3);
  gint          outside = 0, inside = 0;

  moved = &box;
  flow_describes (engine, DIALOG_ACTION_EQUALIZE, TRUE, &f);
  moved = NULL;
  gegl_buffer_get (original->buffer, NULL, 1.0, babl_format ("R'G'B' u8"),
                   was, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  gegl_buffer_get (f->buffer, NULL, 1.0, babl_format ("R'G'B' u8"), now,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  for (gint y = 0; y < HEIGHT; y++)
    for (gint x = 0; x < WIDTH; x++)
      {
        gboolean in = gegl_rectangle_contains (&box,
                                               GEGL_RECTANGLE (x, y, 1, 1));
        gsize    i = ((gsize) y * WIDTH + x) * 3;

        if (memcmp (was + i, now + i, 3) != 0)
          *(in ? &inside : &outside) += 1;
      }
  CHECK (outside == 0 && inside > 0, "OK after the selection moved: %d "
         "pixels changed outside it, %d inside", outside, inside);
  g_free (was);
  g_free (now);
  fake_free (original);
  fake_free (f);
}

static void
remove_tree (const gchar *path)
{
  GDir        *dir = g_dir_open (path, 0, NULL);
  const gchar *name;

  while (dir && (name = g_dir_read_name (dir)))
    {
      gchar *child = g_build_filename (path, name, NULL);

      remove_tree (child);
      g_free (child);
    }
  if (dir)
    g_dir_close (dir);
  g_remove (path);
}

int
main (void)
{
  gh_engine *engine = NULL;
  gchar     *dir = g_dir_make_tmp ("plugin_describes-XXXXXX", NULL);
  GError    *error = NULL;

  gegl_init (NULL, NULL);
  if (! core_engine_ensure (&engine, 0, &error))
    {
      printf ("no engine: %s\n", error->message);
      return 1;
    }
  reference = fake_gradient (WIDTH / 2, HEIGHT / 2);
  check_calls (&engine, dir);
  check_batch (&engine, dir);
  check_flows (&engine);
  check_ok_sees_selection (&engine);
  fake_free (reference);
  gh_engine_destroy (engine);
  remove_tree (dir);
  g_free (dir);
  gegl_exit ();
  return test_summary ();
}
