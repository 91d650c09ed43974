/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog_controls.c — each action's own controls (dialog_controls.h). */
#include "dialog_controls.h"

#include <math.h>
#include <string.h>

#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>

#include "dialog_toolkit.h"
#include "dialog_texts.h"
#include "gh_request.h"

#define REFERENCE_CHARS 24

/* Where a parameter's control keeps its gh_param. */
#define PARAM_KEY "gh-param"

/* A parameter's spin button or picker: a spin button's value waits for
 * what is typed to be complete ("value-changed"), so the preview does. */
static void
param_changed (GtkWidget *control, Dialog *d)
{
  gh_param param = (gh_param) GPOINTER_TO_INT (
                     g_object_get_data (G_OBJECT (control), PARAM_KEY));
  gint     value;

  if (d->updating)
    return;
  if (GIMP_IS_INT_COMBO_BOX (control))
    {
      if (gimp_int_combo_box_get_active (GIMP_INT_COMBO_BOX (control),
                                         &value))
        dialog_state_set_param (d->state, param, value);
    }
  else if (gh_param_get (param)->is_integer)
    dialog_state_set_param (d->state, param,
                            gtk_spin_button_get_value_as_int (
                              GTK_SPIN_BUTTON (control)));
  else
    dialog_state_set_param (d->state, param,
                            gtk_spin_button_get_value (
                              GTK_SPIN_BUTTON (control)));
  dialog_changed (d);
}

static void
reference_changed (GtkWidget *combo, Dialog *d)
{
  gint id;

  if (d->updating)
    return;
  dialog_state_set_reference (d->state,
                              gimp_int_combo_box_get_active (
                                GIMP_INT_COMBO_BOX (combo), &id) ? id : -1);
  dialog_changed (d);
}

/* Either toolkit's threshold control (dialog_threshold_new's): its
 * "value" is the level. */
static void
threshold_changed (GObject *threshold, Dialog *d)
{
  gdouble value;

  g_object_get (threshold, "value", &value, NULL);
  /* Moving the slider off the Otsu value makes the threshold fixed. */
  if (d->updating || (gint) value == dialog_state_threshold (d->state))
    return;
  dialog_state_set_param (d->state, GH_PARAM_THRESHOLD, (gint) value);
  dialog_changed (d);
}

static void
otsu_clicked (GtkWidget *button, Dialog *d)
{
  (void) button;
  dialog_state_set_param (d->state, GH_PARAM_THRESHOLD, -1);
  dialog_changed (d);
}

/* As many decimals as `step` has: a clip limit's 0.1 shows "2.0". */
static guint
step_digits (gdouble step)
{
  guint digits = 0;

  while (digits < 6 && fabs (step - round (step)) > 1e-9)
    {
      step *= 10;
      digits++;
    }
  return digits;
}

/* A control's text: `param`'s label in the vocabulary, its mnemonic on
 * the first `key` ("Cl_ip limit:"). */
static gchar *
param_label (gh_param param, gchar key)
{
  const gchar *label = gh_param_get (param)->label;
  const gchar *at = strchr (label, key);

  g_return_val_if_fail (at != NULL, g_strdup (label));
  return g_strdup_printf ("%.*s_%s:", (gint) (at - label), label, at);
}

/* `action`'s control of `param`, named `name`: a picker of its named
 * values (gh_param_values: mode's), else a spin button over its range,
 * by its step; its tooltip `tip`, or the vocabulary's blurb. */
static GtkWidget *
param_control_new (Dialog *d, DialogAction action, gh_param param,
                   const gchar *name, const gchar *tip)
{
  const gh_param_spec  *spec = gh_param_get (param);
  gint                  n;
  const gh_param_value *values = gh_param_values (param, &n);
  gdouble               value = d->state->settings.params[param];
  GtkWidget            *control;

  if (values)
    {
      const gchar **labels = g_new (const gchar *, n);

      for (gint i = 0; i < n; i++)
        labels[i] = values[i].label;
      control = dialog_int_combo (labels, n, (gint) value, name,
                                  G_CALLBACK (param_changed), d);
      g_free (labels);
    }
  else
    {
      control = gtk_spin_button_new_with_range (spec->min, spec->max,
                                                spec->step);
      gtk_spin_button_set_digits (GTK_SPIN_BUTTON (control),
                                  step_digits (spec->step));
      /* Room for "256" or "40.0", not an entry's default width. */
      gtk_entry_set_width_chars (GTK_ENTRY (control), 4);
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (control), value);
      gtk_widget_set_name (control, name);
      g_signal_connect (control, "value-changed", G_CALLBACK (param_changed),
                        d);
    }
  g_object_set_data (G_OBJECT (control), PARAM_KEY, GINT_TO_POINTER (param));
  gimp_help_set_help_data (control, tip ? tip : spec->blurb, NULL);
  d->params[action][param] = control;
  return control;
}

/* Binarize's threshold: a level of the vocabulary's range; its -1,
 * Otsu's, is the Use Otsu button. */
static GtkWidget *
threshold_new (Dialog *d)
{
  const gh_param_spec *spec = gh_param_get (GH_PARAM_THRESHOLD);
  gchar               *label = param_label (GH_PARAM_THRESHOLD, 'T');
  DialogSlider         slider = {
    label, "threshold", "Levels above it turn white", 140,
    dialog_state_threshold (d->state), MAX (spec->min, 0), spec->max,
    spec->step, 10 * spec->step, step_digits (spec->step)
  };
  GtkWidget           *row = dialog_threshold_new (d, &slider);

  g_free (label);
  g_signal_connect (d->threshold, "value-changed",
                    G_CALLBACK (threshold_changed), d);
  return row;
}

/* CLAHE's tile grid: columns by rows. */
static GtkWidget *
tiles_new (Dialog *d)
{
  const gchar *tip = "The tile grid: columns by rows; each tile is "
                     "equalized by its own histogram, blended with its "
                     "neighbours'";
  GtkWidget   *row = dialog_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  gtk_box_pack_start (GTK_BOX (row),
                      param_control_new (d, DIALOG_ACTION_CLAHE,
                                         GH_PARAM_TILES_X, "tiles-x", tip),
                      FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (row), gtk_label_new ("\xc3\x97"), FALSE,
                      FALSE, 0);
  gtk_box_pack_start (GTK_BOX (row),
                      param_control_new (d, DIALOG_ACTION_CLAHE,
                                         GH_PARAM_TILES_Y, "tiles-y", tip),
                      FALSE, FALSE, 0);
  return row;
}

/* A row of a page's table: the label `text`, whose mnemonic reaches
 * `target`, and `shown` (`target` or a row holding it) at its own width. */
static void
page_row (GtkWidget *table, guint row, const gchar *text, GtkWidget *target,
          GtkWidget *shown)
{
  GtkWidget *label = gtk_label_new_with_mnemonic (text);
  GtkWidget *box = dialog_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  dialog_label_xalign (label, 0);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), target);
  gtk_box_pack_start (GTK_BOX (box), shown ? shown : target, FALSE, FALSE,
                      0);
  dialog_grid_attach (table, label, 0, row);
  dialog_grid_attach (table, box, 1, row);
}

/* A row of a page's table for `param`'s own control, named as the
 * vocabulary names it (param_label). */
static void
param_row (GtkWidget *table, guint row, gh_param param, gchar key,
           GtkWidget *target)
{
  gchar *text = param_label (param, key);

  page_row (table, row, text, target, NULL);
  g_free (text);
}

/* The keys the controls outside the pages take at all times: Keep as
 * live filter, C_hannel, _Scale and E_xport CSV. */
#define OUTSIDE_KEYS "khsx"

/* The mnemonic of a row of a page laid out by the vocabulary: the first
 * letter of `label` that no radio button (dialog_action_label), no
 * control outside the pages and no row above it takes; `taken` holds
 * those, lower case. */
static gchar
row_key (const gchar *label, GString *taken)
{
  for (const gchar *c = label; *c; c++)
    if (g_ascii_isalpha (*c) && ! strchr (taken->str, g_ascii_tolower (*c)))
      {
        g_string_append_c (taken, g_ascii_tolower (*c));
        return *c;
      }
  return label[0];
}

/* The table of labels and controls of an action that has one: a row for
 * each of its parameters, named as the vocabulary names it; CLAHE's grid
 * on one row, match's reference first. */
static GtkWidget *
settings_table (Dialog *d, DialogAction action)
{
  const gh_operation_spec *spec = gh_operation_get (action);
  GtkWidget               *table = dialog_grid_new (3, 2, 6, 6);
  GtkWidget               *tiles;
  GString                 *taken;

  switch (action)
    {
    case DIALOG_ACTION_CLAHE:
      tiles = tiles_new (d);
      page_row (table, 0, "_Grid:", d->params[action][GH_PARAM_TILES_X],
                tiles);
      param_row (table, 1, GH_PARAM_CLIP_LIMIT, 'i',
                 param_control_new (d, action, GH_PARAM_CLIP_LIMIT,
                                    "clip-limit",
                                    "OpenCV's clipLimit: how far a tile's "
                                    "contrast may rise (0: no limit)"));
      param_row (table, 2, GH_PARAM_MODE, 'M',
                 param_control_new (d, action, GH_PARAM_MODE, "clahe-mode",
                                    NULL));
      break;
    case DIALOG_ACTION_MATCH:
      if (d->reference)
        {
          gimp_help_set_help_data (d->reference, "The layer or channel "
                                   "whose histogram to match, in any open "
                                   "image", NULL);
          page_row (table, 0, "Re_ference:", d->reference, NULL);
          param_row (table, 1, GH_PARAM_MODE, 'd',
                     param_control_new (d, action, GH_PARAM_MODE,
                                        "match-mode", NULL));
        }
      break;
    case DIALOG_ACTION_POSTERIZE:
      page_row (table, 0, "_Number of classes:",
                param_control_new (d, action, GH_PARAM_CLASSES, "classes",
                                   "How many classes multi-level Otsu "
                                   "splits the levels into (the plot marks "
                                   "its thresholds); class i becomes level "
                                   "i \xc3\x97 255 / (classes - 1)"),
                NULL);
      break;
    default:
      /* Equalize's mode, and any operation's parameters, a row each with
       * a letter of its label as mnemonic (row_key). */
      taken = g_string_new (OUTSIDE_KEYS);
      for (gint a = 0; a < DIALOG_NUM_ACTIONS; a++)
        {
          const gchar *key = strchr (dialog_action_label (a), '_');
          if (key)
            g_string_append_c (taken, g_ascii_tolower (key[1]));
        }
      for (gint k = 0; spec && k < spec->n_params; k++)
        {
          gh_param param = spec->params[k];

          param_row (table, k, param,
                     row_key (gh_param_get (param)->label, taken),
                     param_control_new (d, action, param,
                                        gh_param_get (param)->name, NULL));
        }
      g_string_free (taken, TRUE);
      break;
    }
  return dialog_indented (table);
}

GtkWidget *
dialog_controls_page_new (Dialog *d, DialogAction action,
                          const gchar *refusal)
{
  GtkWidget *page = dialog_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *text;

  switch (action)
    {
    case DIALOG_ACTION_NONE:
      text = dialog_wrapped_label (refusal ? refusal
                                   : "OK leaves the layer as it is.");
      gtk_box_pack_start (GTK_BOX (page), dialog_indented (text), FALSE,
                          FALSE, 0);
      break;
    case DIALOG_ACTION_BINARIZE:
      /* The threshold's label, slider and entry are a row of their own. */
      gtk_box_pack_start (GTK_BOX (page), threshold_new (d), FALSE,
                          FALSE, 0);
      d->otsu = gtk_button_new_with_mnemonic ("_Use Otsu");
      g_signal_connect (d->otsu, "clicked", G_CALLBACK (otsu_clicked), d);
      gtk_box_pack_start (GTK_BOX (page), dialog_indented (d->otsu), FALSE,
                          FALSE, 0);
      break;
    default:
      gtk_box_pack_start (GTK_BOX (page), settings_table (d, action), FALSE,
                          FALSE, 0);
      break;
    }
  return page;
}

/* The picker lists "image-N/layer" for every layer of every open image:
 * its names are cut in the middle at a fixed width, so a long one (or a
 * second image) does not widen the dialog, even while Match's page is
 * hidden (the pages are as large as the largest). */
static void
reference_fixed (GtkWidget *combo)
{
  PangoFontMetrics *metrics
    = pango_context_get_metrics (gtk_widget_get_pango_context (combo), NULL,
                                 NULL);
  gint              width
    = PANGO_PIXELS (REFERENCE_CHARS
                    * pango_font_metrics_get_approximate_char_width (
                        metrics));
  GList            *cells = gtk_cell_layout_get_cells (GTK_CELL_LAYOUT (combo));

  for (GList *c = cells; c; c = c->next)
    if (GTK_IS_CELL_RENDERER_TEXT (c->data))
      {
        g_object_set (c->data, "ellipsize", PANGO_ELLIPSIZE_MIDDLE, NULL);
        gtk_cell_renderer_set_fixed_size (c->data, width, -1);
      }
  g_list_free (cells);
  pango_font_metrics_unref (metrics);
#if ! GTK_CHECK_VERSION (3, 0, 0)
  /* GTK 2 measured the rows as they came, at their whole width: the
   * picker's own size, the arrow's room beside the text. */
  gtk_widget_set_size_request (combo, width + 40, -1);
#endif
}

void
dialog_controls_reference_new (Dialog *d)
{
  gint id;

  if (! d->hooks || ! d->hooks->reference_picker)
    return;
  d->reference = d->hooks->reference_picker (d->state->settings.reference,
                                             d->hooks->data);
  if (! d->reference)
    return;
  gtk_widget_set_name (d->reference, "reference");
  reference_fixed (d->reference);
  dialog_state_set_reference (d->state,
                              gimp_int_combo_box_get_active (
                                GIMP_INT_COMBO_BOX (d->reference), &id)
                                ? id : -1);
  g_signal_connect (d->reference, "changed", G_CALLBACK (reference_changed),
                    d);
}

void
dialog_controls_sync (Dialog *d)
{
  DialogState *st = d->state;

  g_object_set (d->threshold, "value", (gdouble) dialog_state_threshold (st),
                NULL);
  dialog_threshold_set_sensitive (d, dialog_state_threshold_sensitive (st));
  gtk_widget_set_sensitive (d->otsu, dialog_state_otsu_sensitive (st));
  /* One setting of each parameter, shown under each action that takes
   * it. */
  for (gint a = 0; a < DIALOG_NUM_ACTIONS; a++)
    for (gint p = 0; p < GH_NUM_PARAMS; p++)
      {
        GtkWidget *control = d->params[a][p];

        if (! control)
          continue;
        if (GIMP_IS_INT_COMBO_BOX (control))
          gimp_int_combo_box_set_active (GIMP_INT_COMBO_BOX (control),
                                         (gint) st->settings.params[p]);
        else
          gtk_spin_button_set_value (GTK_SPIN_BUTTON (control),
                                     st->settings.params[p]);
        gtk_widget_set_sensitive (control, dialog_state_param_sensitive (
                                             st, (DialogAction) a,
                                             (gh_param) p));
      }
  if (d->reference)
    gtk_widget_set_sensitive (d->reference, dialog_state_action_sensitive (
                                              st, DIALOG_ACTION_MATCH));
}
