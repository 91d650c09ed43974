/* dialog_widgets.c — the histogram dialog's widgets and handlers, the
 * same source compiled against GTK 2 and GTK 3 (dialog_widgets.h). */
#include "dialog_widgets.h"

#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>

/* Everything but the plot's pixels follows the state from here. */
static void
sync_widgets (Dialog *d)
{
  DialogState *st = d->state;
  DialogChoice choice;
  gchar       *text;

  d->updating = TRUE;
  for (gint k = 0; k < DIALOG_MAX_COLUMNS; k++)
    {
      gboolean shown = k < st->n_columns;

      gtk_widget_set_visible (d->titles[k], shown);
      if (shown)
        {
          text = dialog_state_column_title (st, k);
          gtk_label_set_text (GTK_LABEL (d->titles[k]), text);
          g_free (text);
        }
      for (gint s = 0; s < DIALOG_NUM_STATS; s++)
        {
          gtk_widget_set_visible (d->values[k][s], shown);
          if (! shown)
            continue;
          text = dialog_state_stat_text (st, k, (DialogStat) s);
          gtk_label_set_text (GTK_LABEL (d->values[k][s]), text);
          g_free (text);
        }
    }
  text = dialog_state_range_text (st);
  gtk_label_set_text (GTK_LABEL (d->range), text);
  g_free (text);
  text = dialog_state_binarize_label (st);
  gtk_button_set_label (GTK_BUTTON (d->action[DIALOG_ACTION_BINARIZE]), text);
  g_free (text);
  text = dialog_state_posterize_label (st);
  gtk_button_set_label (GTK_BUTTON (d->action[DIALOG_ACTION_POSTERIZE]),
                        text);
  g_free (text);

  dialog_threshold_show (d, dialog_state_threshold (st),
                         dialog_state_threshold_sensitive (st));
  gtk_widget_set_sensitive (d->otsu, dialog_state_otsu_sensitive (st));
  /* One mode setting, shown under each action that takes it. */
  for (gint a = 0; a < DIALOG_NUM_ACTIONS; a++)
    if (d->modes[a])
      {
        gimp_int_combo_box_set_active (GIMP_INT_COMBO_BOX (d->modes[a]),
                                       st->settings.mode);
        gtk_widget_set_sensitive (d->modes[a],
                                  dialog_state_mode_sensitive (st)
                                  && st->settings.action == a);
      }
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (d->tiles_x),
                             st->settings.tiles_x);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (d->tiles_y),
                             st->settings.tiles_y);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (d->clip_limit),
                             st->settings.clip_limit);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (d->classes),
                             st->settings.classes);
  gtk_widget_set_sensitive (d->tiles_x, dialog_state_action_sensitive (
                                          st, DIALOG_ACTION_CLAHE));
  gtk_widget_set_sensitive (d->tiles_y, dialog_state_action_sensitive (
                                          st, DIALOG_ACTION_CLAHE));
  gtk_widget_set_sensitive (d->clip_limit, dialog_state_action_sensitive (
                                             st, DIALOG_ACTION_CLAHE));
  if (d->reference)
    gtk_widget_set_sensitive (d->reference, dialog_state_action_sensitive (
                                              st, DIALOG_ACTION_MATCH));
  gtk_widget_set_sensitive (d->classes, dialog_state_action_sensitive (
                                          st, DIALOG_ACTION_POSTERIZE));
  dialog_state_choice (st, &choice);
  dialog_pages_show (d->pages, choice.request.operation);
  d->updating = FALSE;
  gtk_widget_queue_draw (d->plot);
}

/* The choice changed: the numbers, the plot and the preview follow. */
static void
changed (Dialog *d)
{
  sync_widgets (d);
  if (d->preview)
    gimp_preview_invalidate (GIMP_PREVIEW (d->preview));
}

void
dialog_plot_draw (Dialog *d, cairo_t *cr)
{
  GtkAllocation alloc;
  HistogramView view;

  gtk_widget_get_allocation (d->plot, &alloc);
  dialog_state_view (d->state, &view);
  histogram_view_draw (&view, cr, alloc.width, alloc.height);
}

static gint
plot_bin (Dialog *d, gdouble x)
{
  GtkAllocation alloc;
  HistogramView view;

  gtk_widget_get_allocation (d->plot, &alloc);
  dialog_state_view (d->state, &view);
  return histogram_view_bin_at (&view, alloc.width, alloc.height, x);
}

static void
show_hover (Dialog *d)
{
  gchar *text = dialog_state_hover_text (d->state);

  gtk_label_set_text (GTK_LABEL (d->hover), text);
  g_free (text);
  gtk_widget_queue_draw (d->plot);
}

static gboolean
plot_press (GtkWidget *widget, GdkEventButton *event, Dialog *d)
{
  (void) widget;
  if (event->button != 1)
    return FALSE;
  dialog_state_press (d->state, plot_bin (d, event->x),
                      event->type == GDK_2BUTTON_PRESS);
  changed (d);
  return TRUE;
}

static gboolean
plot_motion (GtkWidget *widget, GdkEventMotion *event, Dialog *d)
{
  (void) widget;
  /* The preview waits for the release. */
  if (dialog_state_motion (d->state, plot_bin (d, event->x)))
    sync_widgets (d);
  show_hover (d);
  return TRUE;
}

static gboolean
plot_release (GtkWidget *widget, GdkEventButton *event, Dialog *d)
{
  (void) widget;
  if (event->button != 1
      || ! dialog_state_release (d->state, plot_bin (d, event->x)))
    return FALSE;
  changed (d);
  return TRUE;
}

static gboolean
plot_leave (GtkWidget *widget, GdkEventCrossing *event, Dialog *d)
{
  (void) widget;
  (void) event;
  dialog_state_leave (d->state);
  show_hover (d);
  return FALSE;
}

static void
channel_changed (GtkWidget *combo, Dialog *d)
{
  gint channel;

  if (gimp_int_combo_box_get_active (GIMP_INT_COMBO_BOX (combo), &channel))
    dialog_state_set_channel (d->state, channel);
  changed (d);
}

static void
scale_changed (GtkWidget *combo, Dialog *d)
{
  gint scale;

  if (gimp_int_combo_box_get_active (GIMP_INT_COMBO_BOX (combo), &scale))
    dialog_state_set_scale (d->state, (HistogramViewScale) scale);
  gtk_widget_queue_draw (d->plot);
}

static void
mode_changed (GtkWidget *combo, Dialog *d)
{
  gint mode;

  if (d->updating)
    return;
  if (gimp_int_combo_box_get_active (GIMP_INT_COMBO_BOX (combo), &mode))
    dialog_state_set_mode (d->state, mode);
  changed (d);
}

/* CLAHE's grid and clip limit, posterize's classes: the preview waits
 * for a value typed to be complete (GtkSpinButton's "value-changed"). */
static void
spin_changed (GtkWidget *spin, Dialog *d)
{
  DialogState *st = d->state;

  (void) spin;
  if (d->updating)
    return;
  dialog_state_set_tiles (st,
                          gtk_spin_button_get_value_as_int (
                            GTK_SPIN_BUTTON (d->tiles_x)),
                          gtk_spin_button_get_value_as_int (
                            GTK_SPIN_BUTTON (d->tiles_y)));
  dialog_state_set_clip_limit (st, gtk_spin_button_get_value (
                                     GTK_SPIN_BUTTON (d->clip_limit)));
  dialog_state_set_classes (st, gtk_spin_button_get_value_as_int (
                                  GTK_SPIN_BUTTON (d->classes)));
  changed (d);
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
  changed (d);
}

static void
action_toggled (GtkWidget *radio, Dialog *d)
{
  if (! gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (radio)))
    return;
  dialog_state_set_action (d->state, GPOINTER_TO_INT (
                             g_object_get_data (G_OBJECT (radio), "action")));
  changed (d);
}

void
dialog_threshold_moved (Dialog *d, gint value)
{
  /* Moving the slider off the Otsu value makes the threshold fixed. */
  if (d->updating || value == dialog_state_threshold (d->state))
    return;
  dialog_state_set_threshold (d->state, value);
  changed (d);
}

static void
otsu_clicked (GtkWidget *button, Dialog *d)
{
  (void) button;
  dialog_state_set_threshold (d->state, -1);
  changed (d);
}

static void
show_message (Dialog *d)
{
  const gchar *text = dialog_state_message (d->state);

  gtk_label_set_text (GTK_LABEL (d->message), text);
  gtk_widget_set_visible (d->message, text != NULL);
}

gchar *
dialog_csv_file_choose (GtkWindow *parent, const gchar *filename)
{
  GtkWidget     *chooser
    = gtk_file_chooser_dialog_new (DIALOG_CSV_TITLE, parent,
                                   GTK_FILE_CHOOSER_ACTION_SAVE,
                                   "_Cancel", GTK_RESPONSE_CANCEL,
                                   "_Save", GTK_RESPONSE_ACCEPT, NULL);
  GtkFileFilter *csv = gtk_file_filter_new ();
  gchar         *file = NULL;

  gtk_file_filter_set_name (csv, "CSV files (*.csv)");
  gtk_file_filter_add_pattern (csv, "*.csv");
  gtk_file_filter_add_pattern (csv, "*.CSV");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), csv);
  gtk_file_chooser_set_do_overwrite_confirmation (GTK_FILE_CHOOSER (chooser),
                                                  TRUE);
  if (filename && *filename)
    gtk_file_chooser_set_filename (GTK_FILE_CHOOSER (chooser), filename);
  else
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser),
                                       DIALOG_CSV_DEFAULT);
  if (! parent)
    gimp_window_set_transient (GTK_WINDOW (chooser));
  if (gtk_dialog_run (GTK_DIALOG (chooser)) == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (chooser));
  gtk_widget_destroy (chooser);
  return file;
}

static void
export_clicked (GtkWidget *button, Dialog *d)
{
  gchar  *file = dialog_csv_file_choose (
                   GTK_WINDOW (gtk_widget_get_toplevel (button)), NULL);
  GError *error = NULL;

  if (! file)
    return;
  d->hooks->export_csv (file, d->hooks->data, &error);
  dialog_state_export_done (d->state, file, error);
  show_message (d);
  g_clear_error (&error);
  g_free (file);
}

static void
preview_invalidated (GimpPreview *preview, Dialog *d)
{
  DialogChoice choice;
  GError      *error = NULL;
  gint         x, y, width, height, rowstride;
  guchar      *pixels;

  dialog_state_choice (d->state, &choice);
  gimp_preview_get_position (preview, &x, &y);
  gimp_preview_get_size (preview, &width, &height);
  pixels = d->hooks->preview (&choice, x, y, width, height, &rowstride,
                              d->hooks->data, &error);
  if (pixels)
    gimp_preview_draw_buffer (preview, pixels, rowstride);
  dialog_state_preview_done (d->state, error);
  show_message (d);
  g_clear_error (&error);
  g_free (pixels);
}

static GtkWidget *
int_combo (const gchar *const *labels, gint n, gint active,
           const gchar *name, GCallback callback, Dialog *d)
{
  GtkWidget *combo = g_object_new (GIMP_TYPE_INT_COMBO_BOX, NULL);

  for (gint i = 0; i < n; i++)
    if (labels[i])
      gimp_int_combo_box_append (GIMP_INT_COMBO_BOX (combo),
                                 GIMP_INT_STORE_VALUE, i,
                                 GIMP_INT_STORE_LABEL, labels[i], -1);
  gimp_int_combo_box_set_active (GIMP_INT_COMBO_BOX (combo), active);
  gtk_widget_set_name (combo, name);
  g_signal_connect (combo, "changed", callback, d);
  return combo;
}

/* A row or a column of widgets, `spacing` apart. */
static GtkWidget *
box_new (GtkOrientation orientation, gint spacing)
{
#if GTK_CHECK_VERSION (3, 0, 0)
  return gtk_box_new (orientation, spacing);
#else
  return orientation == GTK_ORIENTATION_HORIZONTAL
           ? gtk_hbox_new (FALSE, spacing) : gtk_vbox_new (FALSE, spacing);
#endif
}

/* The label's text at the left (0) or the right (1) of its space. */
static void
label_xalign (GtkWidget *label, gfloat xalign)
{
#if GTK_CHECK_VERSION (3, 0, 0)
  gtk_label_set_xalign (GTK_LABEL (label), xalign);
#else
  gtk_misc_set_alignment (GTK_MISC (label), xalign, 0.5);
#endif
}

static GtkWidget *
separator_new (void)
{
#if GTK_CHECK_VERSION (3, 0, 0)
  return gtk_separator_new (GTK_ORIENTATION_HORIZONTAL);
#else
  return gtk_hseparator_new ();
#endif
}

GtkWidget *
dialog_labelled (const gchar *text, GtkWidget *widget)
{
  GtkWidget *box = box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new_with_mnemonic (text);

  gtk_label_set_mnemonic_widget (GTK_LABEL (label), widget);
  gtk_box_pack_start (GTK_BOX (box), label, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), widget, FALSE, FALSE, 0);
  return box;
}

static GtkWidget *
named_label (const gchar *name, gfloat xalign)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_widget_set_name (label, name);
  label_xalign (label, xalign);
  return label;
}

/* The plot with its channel and scale pickers and the pointer's level. */
static GtkWidget *
plot_part (Dialog *d)
{
  const gchar *channels[DIALOG_NUM_CHANNEL_CHOICES];
  const gchar *scales[] = { dialog_scale_label (HISTOGRAM_VIEW_LINEAR),
                            dialog_scale_label (HISTOGRAM_VIEW_LOG) };
  GtkWidget   *vbox = box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget   *row = box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget   *frame = gtk_frame_new (NULL);

  for (gint c = 0; c < DIALOG_NUM_CHANNEL_CHOICES; c++)
    channels[c] = dialog_state_has_channel (d->state, c)
                    ? dialog_channel_label (c) : NULL;
  gtk_box_pack_start (GTK_BOX (row),
                      dialog_labelled ("C_hannel:",
                                       int_combo (channels,
                                                  DIALOG_NUM_CHANNEL_CHOICES,
                                                  d->state->settings.channel,
                                                  "channel",
                                                  G_CALLBACK (channel_changed),
                                                  d)),
                      FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (row),
                      dialog_labelled ("_Scale:",
                                       int_combo (scales,
                                                  G_N_ELEMENTS (scales),
                                                  d->state->settings.scale,
                                                  "scale",
                                                  G_CALLBACK (scale_changed),
                                                  d)),
                      FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (vbox), row, FALSE, FALSE, 0);

  d->plot = gtk_drawing_area_new ();
  gtk_widget_set_name (d->plot, "plot");
  gtk_widget_set_size_request (d->plot, DIALOG_PLOT_WIDTH,
                               DIALOG_PLOT_HEIGHT);
  gtk_widget_add_events (d->plot, GDK_POINTER_MOTION_MASK
                                  | GDK_BUTTON_PRESS_MASK
                                  | GDK_BUTTON_RELEASE_MASK
                                  | GDK_LEAVE_NOTIFY_MASK);
  dialog_plot_connect (d);
  g_signal_connect (d->plot, "button-press-event", G_CALLBACK (plot_press), d);
  g_signal_connect (d->plot, "motion-notify-event", G_CALLBACK (plot_motion),
                    d);
  g_signal_connect (d->plot, "button-release-event",
                    G_CALLBACK (plot_release), d);
  g_signal_connect (d->plot, "leave-notify-event", G_CALLBACK (plot_leave),
                    d);
  gtk_frame_set_shadow_type (GTK_FRAME (frame), GTK_SHADOW_IN);
  gtk_container_add (GTK_CONTAINER (frame), d->plot);
  gtk_box_pack_start (GTK_BOX (vbox), frame, TRUE, TRUE, 0);

  row = box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  d->range = named_label ("range", 0);
  d->hover = named_label ("hover", 1);
  gtk_box_pack_start (GTK_BOX (row), d->range, TRUE, TRUE, 0);
  gtk_box_pack_start (GTK_BOX (row), d->hover, TRUE, TRUE, 0);
  gtk_box_pack_start (GTK_BOX (vbox), row, FALSE, FALSE, 0);
  return vbox;
}

/* The statistics: one row per number, one column per channel shown;
 * beside them the CSV export, under them the backend that counted. */
static GtkWidget *
stats_part (Dialog *d)
{
  GtkWidget *grid = dialog_grid_new (DIALOG_NUM_STATS + 1,
                                     DIALOG_MAX_COLUMNS + 1, 18, 2);
  GtkWidget *vbox = box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *backend, *row;
  gchar     *text;

  for (gint k = 0; k < DIALOG_MAX_COLUMNS; k++)
    {
      gchar name[32];

      g_snprintf (name, sizeof name, "column-%d", k);
      d->titles[k] = named_label (name, 1);
      dialog_grid_attach (grid, d->titles[k], k + 1, 0);
    }
  for (gint s = 0; s < DIALOG_NUM_STATS; s++)
    {
      const gchar *tip = dialog_stat_tip ((DialogStat) s);
      GtkWidget   *label = gtk_label_new (dialog_stat_label ((DialogStat) s));

      label_xalign (label, 0);
      gimp_help_set_help_data (label, tip, NULL);
      dialog_grid_attach (grid, label, 0, s + 1);
      for (gint k = 0; k < DIALOG_MAX_COLUMNS; k++)
        {
          gchar name[32];

          g_snprintf (name, sizeof name, "stat-%d-%d", k, s);
          d->values[k][s] = named_label (name, 1);
          gimp_help_set_help_data (d->values[k][s], tip, NULL);
          dialog_grid_attach (grid, d->values[k][s], k + 1, s + 1);
        }
    }
  /* The export at the numbers' right, level with their last row. */
  row = box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_box_pack_start (GTK_BOX (row), grid, FALSE, FALSE, 0);
  if (d->hooks && d->hooks->export_csv)
    {
      GtkWidget *button = gtk_button_new_with_mnemonic ("E_xport CSV...");
      GtkWidget *column = box_new (GTK_ORIENTATION_VERTICAL, 0);

      g_signal_connect (button, "clicked", G_CALLBACK (export_clicked), d);
      gtk_box_pack_end (GTK_BOX (column), button, FALSE, FALSE, 0);
      gtk_box_pack_end (GTK_BOX (row), column, FALSE, FALSE, 0);
    }
  gtk_box_pack_start (GTK_BOX (vbox), row, FALSE, FALSE, 0);

  text = dialog_state_backend_text (d->state);
  backend = named_label ("backend", 0);
  gtk_label_set_text (GTK_LABEL (backend), text);
  gimp_label_set_attributes (GTK_LABEL (backend), PANGO_ATTR_STYLE,
                             PANGO_STYLE_ITALIC, -1);
  g_free (text);
  gtk_box_pack_start (GTK_BOX (vbox), backend, FALSE, FALSE, 0);
  return vbox;
}

static GtkWidget *
spin_new (gdouble min, gdouble max, gdouble step, guint digits,
          const gchar *name, const gchar *tip, Dialog *d)
{
  GtkWidget *spin = gtk_spin_button_new_with_range (min, max, step);

  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), digits);
  /* Room for "256" or "40.0", not an entry's default width. */
  gtk_entry_set_width_chars (GTK_ENTRY (spin), 4);
  gtk_widget_set_name (spin, name);
  gimp_help_set_help_data (spin, tip, NULL);
  g_signal_connect (spin, "value-changed", G_CALLBACK (spin_changed), d);
  return spin;
}

/* The mode picker of an action's page. */
static GtkWidget *
mode_new (Dialog *d, DialogAction action, const gchar *name)
{
  const gchar *modes[] = { dialog_mode_label (0), dialog_mode_label (1) };

  d->modes[action] = int_combo (modes, G_N_ELEMENTS (modes),
                                d->state->settings.mode, name,
                                G_CALLBACK (mode_changed), d);
  return d->modes[action];
}

/* CLAHE's tile grid: columns by rows. */
static GtkWidget *
tiles_new (Dialog *d)
{
  const gchar *tip = "The tile grid: columns by rows; each tile is "
                     "equalized by its own histogram, blended with its "
                     "neighbours'";
  GtkWidget   *row = box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  d->tiles_x = spin_new (1, GH_CLAHE_MAX_TILES, 1, 0, "tiles-x", tip, d);
  d->tiles_y = spin_new (1, GH_CLAHE_MAX_TILES, 1, 0, "tiles-y", tip, d);
  gtk_box_pack_start (GTK_BOX (row), d->tiles_x, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (row), gtk_label_new ("\xc3\x97"), FALSE,
                      FALSE, 0);
  gtk_box_pack_start (GTK_BOX (row), d->tiles_y, FALSE, FALSE, 0);
  return row;
}

/* A row of a page's table: the label `text`, whose mnemonic reaches
 * `target`, and `shown` (`target` or a row holding it) at its own width. */
static void
page_row (GtkWidget *table, guint row, const gchar *text, GtkWidget *target,
          GtkWidget *shown)
{
  GtkWidget *label = gtk_label_new_with_mnemonic (text);
  GtkWidget *box = box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  label_xalign (label, 0);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), target);
  gtk_box_pack_start (GTK_BOX (box), shown ? shown : target, FALSE, FALSE,
                      0);
  dialog_grid_attach (table, label, 0, row);
  dialog_grid_attach (table, box, 1, row);
}

/* The table of labels and controls of an action that has one. */
static GtkWidget *
settings_table (Dialog *d, DialogAction action)
{
  GtkWidget *table = dialog_grid_new (3, 2, 6, 6);
  GtkWidget *tiles;

  switch (action)
    {
    case DIALOG_ACTION_EQUALIZE:
      page_row (table, 0, "_Mode:", mode_new (d, action, "mode"), NULL);
      break;
    case DIALOG_ACTION_CLAHE:
      tiles = tiles_new (d);
      page_row (table, 0, "_Grid:", d->tiles_x, tiles);
      d->clip_limit = spin_new (gh_param_get (GH_PARAM_CLIP_LIMIT)->min,
                                gh_param_get (GH_PARAM_CLIP_LIMIT)->max,
                                gh_param_get (GH_PARAM_CLIP_LIMIT)->step, 1,
                                "clip-limit", "OpenCV's clipLimit: how far "
                                "a tile's contrast may rise (0: no limit)",
                                d);
      page_row (table, 1, "Cl_ip limit:", d->clip_limit, NULL);
      page_row (table, 2, "_Mode:", mode_new (d, action, "clahe-mode"),
                NULL);
      break;
    case DIALOG_ACTION_MATCH:
      if (d->reference)
        {
          gimp_help_set_help_data (d->reference, "The layer or channel "
                                   "whose histogram to match, in any open "
                                   "image", NULL);
          page_row (table, 0, "Re_ference:", d->reference, NULL);
          page_row (table, 1, "Mo_de:", mode_new (d, action, "match-mode"),
                    NULL);
        }
      break;
    case DIALOG_ACTION_POSTERIZE:
      d->classes = spin_new (gh_param_get (GH_PARAM_CLASSES)->min,
                             gh_param_get (GH_PARAM_CLASSES)->max,
                             1, 0, "classes",
                             "How many classes multi-level Otsu splits "
                             "the levels into (the plot marks its "
                             "thresholds); class i becomes level "
                             "i \xc3\x97 255 / (classes - 1)", d);
      page_row (table, 0, "_Number of classes:", d->classes, NULL);
      break;
    default:
      break;
    }
  return dialog_indented (table);
}

/* An action's own controls, a page shown under the radio buttons while
 * OK applies that action; analysing only, what OK does, and why when the
 * layer cannot be changed (`refusal`). */
static GtkWidget *
action_page (Dialog *d, DialogAction action, const gchar *refusal)
{
  GtkWidget *page = box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *text;

  switch (action)
    {
    case DIALOG_ACTION_NONE:
      text = dialog_wrapped_label (refusal ? refusal
                                   : "OK leaves the layer as it is.");
      label_xalign (text, 0);
      gtk_box_pack_start (GTK_BOX (page), dialog_indented (text), FALSE,
                          FALSE, 0);
      break;
    case DIALOG_ACTION_BINARIZE:
      /* The threshold's label, slider and entry are a row of their own. */
      gtk_box_pack_start (GTK_BOX (page), dialog_threshold_new (d), FALSE,
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

/* The host's reference picker, set to the remembered reference (or the
 * picker's own first choice, which then becomes the state's). */
static void
reference_new (Dialog *d)
{
  gint id;

  if (! d->hooks || ! d->hooks->reference_picker)
    return;
  d->reference = d->hooks->reference_picker (d->state->settings.reference,
                                             d->hooks->data);
  if (! d->reference)
    return;
  gtk_widget_set_name (d->reference, "reference");
  dialog_state_set_reference (d->state,
                              gimp_int_combo_box_get_active (
                                GIMP_INT_COMBO_BOX (d->reference), &id)
                                ? id : -1);
  g_signal_connect (d->reference, "changed", G_CALLBACK (reference_changed),
                    d);
}

/* What OK applies: one radio button per action, and under them the
 * chosen action's own controls (one page shown at a time keeps the
 * dialog low enough for a 768-pixel screen). */
static GtkWidget *
actions_part (Dialog *d, const gchar *refusal)
{
  GtkWidget *frame = gimp_frame_new ("On OK");
  GtkWidget *vbox = box_new (GTK_ORIENTATION_VERTICAL, 6);
  GSList    *group = NULL;

  gtk_container_add (GTK_CONTAINER (frame), vbox);
  reference_new (d);
  d->pages = dialog_pages_new ();
  gtk_widget_set_name (d->pages, "action-pages");
  for (gint a = 0; a < DIALOG_NUM_ACTIONS; a++)
    {
      gchar name[32];

      d->action[a] = gtk_radio_button_new_with_mnemonic (
                       group, dialog_action_label ((DialogAction) a));
      group = gtk_radio_button_get_group (GTK_RADIO_BUTTON (d->action[a]));
      g_object_set_data (G_OBJECT (d->action[a]), "action",
                         GINT_TO_POINTER (a));
      g_snprintf (name, sizeof name, "action-%d", a);
      gtk_widget_set_name (d->action[a], name);
      /* Match needs a picker to choose its reference with. */
      gtk_widget_set_sensitive (d->action[a],
                                a == DIALOG_ACTION_NONE
                                || (! refusal
                                    && (a != DIALOG_ACTION_MATCH
                                        || d->reference)));
      gtk_box_pack_start (GTK_BOX (vbox), d->action[a], FALSE, FALSE, 0);
      dialog_pages_add (d->pages, action_page (d, (DialogAction) a,
                                               refusal));
    }
  gtk_box_pack_start (GTK_BOX (vbox), separator_new (), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (vbox), d->pages, FALSE, FALSE, 0);
  /* A remembered Match without a picker here analyses only. */
  if (! d->reference && d->state->settings.action == DIALOG_ACTION_MATCH)
    dialog_state_set_action (d->state, DIALOG_ACTION_NONE);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (
                                  d->action[d->state->settings.action]),
                                TRUE);
  for (gint a = 0; a < DIALOG_NUM_ACTIONS; a++)
    g_signal_connect (d->action[a], "toggled", G_CALLBACK (action_toggled),
                      d);
  return frame;
}

GtkWidget *
dialog_content_new (DialogState *state, const gchar *refusal,
                    const DialogHooks *hooks, GtkWidget *preview)
{
  Dialog    *d = g_new0 (Dialog, 1);
  GtkWidget *hbox = box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *left = box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *right = box_new (GTK_ORIENTATION_VERTICAL, 12);

  d->state = state;
  d->hooks = hooks;
  d->preview = preview;
  state->can_apply = ! refusal;
  /* Freed with the widgets. */
  g_object_set_data_full (G_OBJECT (hbox), "gh-dialog", d, g_free);

  gtk_container_set_border_width (GTK_CONTAINER (hbox), 12);
  gtk_box_pack_start (GTK_BOX (hbox), left, TRUE, TRUE, 0);
  gtk_box_pack_start (GTK_BOX (hbox), right, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (left), plot_part (d), TRUE, TRUE, 0);
  gtk_box_pack_start (GTK_BOX (left), stats_part (d), FALSE, FALSE, 0);
  /* What the export and the preview did, under the numbers (the plot
   * gives it room); a long file name wraps. */
  d->message = dialog_wrapped_label (NULL);
  label_xalign (d->message, 0);
  gtk_box_pack_start (GTK_BOX (left), d->message, FALSE, FALSE, 0);
  if (preview)
    {
      gtk_box_pack_start (GTK_BOX (right), preview, TRUE, TRUE, 0);
      g_signal_connect (preview, "invalidated",
                        G_CALLBACK (preview_invalidated), d);
    }
  gtk_box_pack_start (GTK_BOX (right), actions_part (d, refusal), FALSE,
                      FALSE, 0);

  gtk_widget_show_all (hbox);
  gtk_widget_hide (d->message);
  sync_widgets (d);
  return hbox;
}

GtkWidget *
dialog_window_new (GtkWidget *preview, DialogState *state,
                   const gchar *refusal, const DialogHooks *hooks)
{
  GtkWidget   *dialog, *content;
  Dialog      *d;
  DialogChoice now;

  dialog = gimp_dialog_new (DIALOG_TITLE, DIALOG_ROLE, NULL, 0,
                            gimp_standard_help_func, DIALOG_HELP_ID,
                            "_Cancel", GTK_RESPONSE_CANCEL,
                            "_OK", GTK_RESPONSE_OK, NULL);
  /* GTK 3 deprecates its own; libgimpwidgets 3.0 has the same call. */
#if GTK_CHECK_VERSION (3, 0, 0)
  gimp_dialog_set_alternative_button_order (GTK_DIALOG (dialog),
                                            GTK_RESPONSE_OK,
                                            GTK_RESPONSE_CANCEL, -1);
#else
  gtk_dialog_set_alternative_button_order (GTK_DIALOG (dialog),
                                           GTK_RESPONSE_OK,
                                           GTK_RESPONSE_CANCEL, -1);
#endif
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_OK);

  content = dialog_content_new (state, refusal, hooks, preview);
  gtk_box_pack_start (GTK_BOX (gtk_dialog_get_content_area (
                                 GTK_DIALOG (dialog))),
                      content, TRUE, TRUE, 0);
  /* The focus on the chosen action, where Return means OK (on the
   * channel picker, the first widget, it would open the list). */
  d = g_object_get_data (G_OBJECT (content), "gh-dialog");
  dialog_state_choice (state, &now);
  gtk_widget_grab_focus (d->action[now.request.operation]);
  return dialog;
}

gboolean
dialog_window_run (GtkWidget *preview, DialogState *state,
                   const gchar *refusal, const DialogHooks *hooks,
                   DialogChoice *choice)
{
  GtkWidget *dialog = dialog_window_new (preview, state, refusal, hooks);
  gboolean   ok;

  gimp_window_set_transient (GTK_WINDOW (dialog));
  gtk_widget_show (dialog);
  ok = gimp_dialog_run (GIMP_DIALOG (dialog)) == GTK_RESPONSE_OK;
  if (ok)
    dialog_state_choice (state, choice);
  gtk_widget_destroy (dialog);
  return ok;
}
