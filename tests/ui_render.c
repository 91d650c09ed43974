/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ui_render.c — the histogram dialog drawn from a known histogram.
 *
 * Built against either glue, with the same checks: GTK 2 (dialog_gtk2,
 * GIMP 2.10) or GTK 3 (dialog_gtk3, GIMP 3), chosen by the GTK it is
 * compiled with.
 *
 * Without a display: histogram_view into a cairo image surface (written to
 * ui_render_view.png), checked pixel by pixel: bar heights where the
 * counts say (linear and logarithmic), empty bins empty, the Otsu marker on
 * the engine's Otsu level with its label dark on white, the selected range, the RGB overlay's colours,
 * the pointer's bin.  The dialog's model: gray and gray+alpha layers offer
 * only their channels; on 1024 bins (layers above 8 bits) the binarize
 * threshold OK applies is the marker's bin, Otsu over a selected range
 * included, and the remembered range comes back; the rules both glues
 * leave to it: clicks and drags as bins, which controls can be used, the
 * message line.  With a display (run under xvfb-run): the dialog's
 * content in an offscreen window (ui_render_dialog.png): its plot, given
 * the test's size, equals the view drawn directly at the display's scale
 * factor (run it with GDK_SCALE=2 too for HiDPI under GTK 3) and is
 * written as ui_render_plot.png; every number shown equals the engine's
 * gh_stats_compute, also after a drag on the plot and a change of channel,
 * the channel picker lists only the layer's channels, and the threshold
 * slider starts at Otsu's level.  The words: counts grouped by three
 * digits, the backend line saying what counted, the title promising no
 * GPU.  The whole window (dialog_window_new, with a stand-in for GIMP's
 * preview, shown on the display as ui_render_window.png) fits a 1366 x 768
 * laptop screen with its panels: at most 1000 x 700 requested and shown,
 * whichever action is chosen, with the longest refusal too, and keeps one
 * width whatever the action, the RGB overlay or a long reference name; in
 * logical pixels, which GDK_SCALE=2 doubles on
 * the display (a HiDPI laptop's 2732 x 1536 is 1366 x 768 logical).  And
 * every mnemonic reaches its control: Alt+B, Alt+L, Alt+R, Alt+Z... choose
 * their action, which shows its own controls, which their keys then reach.
 *
 *   ui_render [REFERENCE.png]
 *
 * REFERENCE: the other toolkit's ui_render_plot.png, which this run's plot
 * must equal (the two glues draw the same pixels).
 * Ends with "N passed, N failed"; without a display the GTK checks cannot
 * run and it exits 77 (skipped) unless a check failed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gdk/gdkkeysyms.h>
#include <gtk/gtk.h>
#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>

#if GTK_CHECK_VERSION (3, 0, 0)
#include "dialog_gtk3.h"
#else
#include "dialog_gtk2.h"
#endif
#include "dialog_state.h"
#include "dialog_texts.h"
#include "histogram_view.h"
#include "test_util.h"

#define W 600
#define H 260
#define BINS 256

/* Two humps in value, red in 0..127 only, green in 64..191, blue in
 * 128..255, alpha all opaque, luminance one hump. */
static void
make_histogram (gh_histogram *h)
{
  gh_error err;

  gh_histogram_init (h);
  gh_histogram_reset (h, BINS, 0, &err);
  h->channels = (1u << GH_NUM_CHANNELS) - 1;
  for (int b = 0; b < BINS; b++)
    {
      uint64_t *raw = h->raw;
      double    hump1 = 900 * exp (-(b - 60) * (b - 60) / 300.0);
      double    hump2 = 500 * exp (-(b - 190) * (b - 190) / 500.0);

      raw[GH_CHANNEL_VALUE * BINS + b] = b % 16 == 7 ? 0
                                         : (uint64_t) (hump1 + hump2);
      raw[GH_CHANNEL_RED * BINS + b] = b < 128 ? 100 + b : 0;
      raw[GH_CHANNEL_GREEN * BINS + b] = b >= 64 && b < 192 ? 150 : 0;
      raw[GH_CHANNEL_BLUE * BINS + b] = b >= 128 ? 400 - b : 0;
      raw[GH_CHANNEL_LUMINANCE * BINS + b]
        = (uint64_t) (700 * exp (-(b - 120) * (b - 120) / 900.0));
    }
  h->raw[GH_CHANNEL_ALPHA * BINS + 255] = 50000;
}

static void
pixel (cairo_surface_t *s, int x, int y, double rgb[3])
{
  const unsigned char *data = cairo_image_surface_get_data (s);
  uint32_t             p;

  memcpy (&p, data + (size_t) y * cairo_image_surface_get_stride (s)
                + (size_t) x * 4, 4);
  rgb[0] = ((p >> 16) & 255) / 255.0;
  rgb[1] = ((p >> 8) & 255) / 255.0;
  rgb[2] = (p & 255) / 255.0;
}

/* Within 8 of 255 in each of red, green and blue (what antialiasing and
 * two cairo versions may differ by). */
static int
same_colour (const double a[3], const double b[3])
{
  for (int k = 0; k < 3; k++)
    if (fabs (a[k] - b[k]) * 255 > 8.5)
      return 0;
  return 1;
}

static int
is_white (const double c[3])
{
  return c[0] > 0.97 && c[1] > 0.97 && c[2] > 0.97;
}

static int
is_orange (const double c[3])
{
  return c[0] > 0.8 && c[1] > 0.3 && c[1] < 0.6 && c[2] < 0.15;
}

static cairo_surface_t *
render (const HistogramView *view, const char *png)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, W, H);
  cairo_t         *cr = cairo_create (s);

  histogram_view_draw (view, cr, W, H);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  if (png)
    cairo_surface_write_to_png (s, png);
  return s;
}

/* Each bin's bar top where the counts put it: the pixel two rows inside
 * the bar is the bar's colour, two rows above it the background; empty
 * bins leave the plot's bottom white. */
static void
check_bars (const gh_histogram *h, HistogramViewScale scale)
{
  double            counts[BINS], max = 0;
  HistogramView     view;
  cairo_rectangle_t plot;
  cairo_surface_t  *s;
  int               good = 0, checked = 0;

  gh_histogram_counts (h, GH_CHANNEL_VALUE, counts);
  for (int b = 0; b < BINS; b++)
    max = fmax (max, counts[b]);
  histogram_view_init (&view, BINS);
  view.counts[GH_CHANNEL_VALUE] = counts;
  view.shown = 1u << GH_CHANNEL_VALUE;
  view.scale = scale;
  histogram_view_plot_area (W, H, &plot);
  s = render (&view, scale == HISTOGRAM_VIEW_LOG ? "ui_render_log.png"
                                                  : "ui_render_linear.png");
  for (int b = 0; b < BINS; b++)
    {
      double x0, x1, c[3], frac, top, bottom = plot.y + plot.height;
      int    x;

      histogram_view_bin_extent (&view, W, H, b, &x0, &x1);
      x = (int) floor ((x0 + x1) / 2);
      if (counts[b] == 0)
        {
          pixel (s, x, (int) bottom - 2, c);
          checked++;
          good += is_white (c);
          continue;
        }
      frac = scale == HISTOGRAM_VIEW_LOG ? log1p (counts[b]) / log1p (max)
                                         : counts[b] / max;
      top = bottom - plot.height * frac;
      if (bottom - top < 5 || top - plot.y < 5)
        continue; /* too short or too tall to see both sides */
      checked++;
      pixel (s, x, (int) top + 2, c);
      if (is_white (c) || c[0] > 0.5)
        continue;
      pixel (s, x, (int) top - 3, c);
      good += is_white (c);
    }
  CHECK (checked > 200 && good == checked,
         "%s bars: %d of %d bins where the counts say",
         scale == HISTOGRAM_VIEW_LOG ? "log" : "linear", good, checked);
  cairo_surface_destroy (s);
}

/* The marker: orange columns only at the border after the Otsu bin, which
 * is the engine's gh_otsu_threshold of the channel. */
static void
check_marker (const gh_histogram *h)
{
  DialogSettings    settings;
  DialogState       st;
  HistogramView     view;
  cairo_rectangle_t plot;
  cairo_surface_t  *s;
  double            counts[BINS], x0, x1;
  int               otsu, hits = 0, stray = 0;

  gh_histogram_counts (h, GH_CHANNEL_VALUE, counts);
  otsu = gh_otsu_threshold (counts, 0, BINS - 1);
  dialog_settings_defaults (&settings);
  dialog_state_init (&st, h, "cpu: test", 0.012, &settings);
  dialog_state_view (&st, &view);
  CHECK (view.n_markers == 1 && view.markers[0].bin == otsu,
         "marker bin %d, engine's Otsu %d",
         view.n_markers ? view.markers[0].bin : -1, otsu);
  s = render (&view, "ui_render_view.png");
  histogram_view_plot_area (W, H, &plot);
  histogram_view_bin_extent (&view, W, H, otsu, &x0, &x1);
  for (int y = (int) (plot.y + 40); y < plot.y + plot.height; y += 7)
    for (int x = (int) plot.x; x < plot.x + plot.width; x++)
      {
        double c[3];

        pixel (s, x, y, c);
        if (! is_orange (c))
          continue;
        if (fabs (x + 0.5 - x1) <= 1.5)
          hits++;
        else
          stray++;
      }
  CHECK (hits > 10 && stray == 0,
         "marker at x %.1f (Otsu %d): %d pixels on it, %d elsewhere", x1,
         otsu, hits, stray);
  /* Its label, right of the line at the plot's top (inside its box's
   * edge), is legible on any theme: dark text (luminance under a fifth of white's, 4.5 : 1 and
   * more against white) on the plot's own white, none of it the line's
   * orange. */
  hits = stray = 0;
  for (int y = (int) plot.y + 5; y < plot.y + 16; y++)
    for (int x = (int) x1 + 6; x < x1 + 40; x++)
      {
        double c[3];

        pixel (s, x, y, c);
        hits += 0.2126 * c[0] * c[0] + 0.7152 * c[1] * c[1]
                  + 0.0722 * c[2] * c[2] < 0.2;
        stray += is_orange (c);
      }
  CHECK (hits >= 30 && stray == 0, "the marker's label is dark text on "
         "white (%d dark pixels, %d orange)", hits, stray);
  cairo_surface_destroy (s);

  /* Binarizing with a fixed threshold moves the marker there. */
  dialog_state_set_action (&st, DIALOG_ACTION_BINARIZE);
  dialog_state_set_param (&st, GH_PARAM_THRESHOLD, 200);
  dialog_state_view (&st, &view);
  CHECK (view.n_markers == 1 && view.markers[0].bin == 200,
         "binarize marker at the slider's 200");
  dialog_state_clear (&st);
}

/* A selected range: the backdrop of an empty bin inside is tinted, bars
 * outside are lighter than bars inside. */
static void
check_range (const gh_histogram *h)
{
  double            counts[BINS], x0, x1, in[3], out[3], empty[3];
  HistogramView     view;
  cairo_rectangle_t plot;
  cairo_surface_t  *s;
  int               y;

  gh_histogram_counts (h, GH_CHANNEL_VALUE, counts);
  histogram_view_init (&view, BINS);
  view.counts[GH_CHANNEL_VALUE] = counts;
  view.shown = 1u << GH_CHANNEL_VALUE;
  view.lo = 40;
  view.hi = 80;
  s = render (&view, "ui_render_range.png");
  histogram_view_plot_area (W, H, &plot);
  y = (int) (plot.y + plot.height - 3);
  histogram_view_bin_extent (&view, W, H, 60, &x0, &x1);
  pixel (s, (int) ((x0 + x1) / 2), y, in);
  histogram_view_bin_extent (&view, W, H, 30, &x0, &x1);
  pixel (s, (int) ((x0 + x1) / 2), y, out);
  histogram_view_bin_extent (&view, W, H, 71, &x0, &x1); /* 71 % 16 == 7 */
  pixel (s, (int) ((x0 + x1) / 2), y, empty);
  CHECK (in[0] < 0.4 && out[0] > 0.6 && out[0] < 0.95,
         "range: bar inside %.2f, outside %.2f", in[0], out[0]);
  CHECK (empty[2] > 0.95 && empty[0] < 0.92,
         "range: empty bin's backdrop tinted (%.2f %.2f %.2f)", empty[0],
         empty[1], empty[2]);
  for (int b = 0; b < BINS; b++)
    {
      histogram_view_bin_extent (&view, W, H, b, &x0, &x1);
      if (histogram_view_bin_at (&view, W, H, (x0 + x1) / 2) != b)
        {
          CHECK (0, "bin_at of bin %d's centre", b);
          break;
        }
    }
  CHECK (histogram_view_bin_at (&view, W, H, -50) == 0
         && histogram_view_bin_at (&view, W, H, W + 50) == BINS - 1,
         "bin_at clamps outside the plot");
  cairo_surface_destroy (s);
}

/* The RGB overlay: red alone is red, red with green darker than either. */
static void
check_overlay (const gh_histogram *h)
{
  DialogSettings    settings;
  DialogState       st;
  HistogramView     view;
  cairo_rectangle_t plot;
  cairo_surface_t  *s;
  double            x0, x1, red[3], both[3], blue[3];
  int               y;

  dialog_settings_defaults (&settings);
  settings.params[GH_PARAM_CHANNEL] = DIALOG_CHANNEL_RGB;
  dialog_state_init (&st, h, "cpu: test", 0.012, &settings);
  dialog_state_view (&st, &view);
  CHECK (view.shown == 0xe && view.n_markers == 3,
         "overlay shows red, green, blue with three Otsu markers");
  view.n_markers = 0;
  s = render (&view, "ui_render_rgb.png");
  histogram_view_plot_area (W, H, &plot);
  y = (int) (plot.y + plot.height - 3);
  histogram_view_bin_extent (&view, W, H, 20, &x0, &x1);
  pixel (s, (int) ((x0 + x1) / 2), y, red);
  histogram_view_bin_extent (&view, W, H, 100, &x0, &x1);
  pixel (s, (int) ((x0 + x1) / 2), y, both);
  histogram_view_bin_extent (&view, W, H, 220, &x0, &x1);
  pixel (s, (int) ((x0 + x1) / 2), y, blue);
  CHECK (red[0] > red[1] + 0.3 && red[0] > red[2] + 0.3,
         "red alone is red (%.2f %.2f %.2f)", red[0], red[1], red[2]);
  CHECK (blue[2] > blue[0] + 0.3 && blue[2] > blue[1] + 0.3,
         "blue alone is blue");
  CHECK (both[0] < red[0] - 0.3 && both[1] < 0.6,
         "red over green is darker (%.2f %.2f %.2f)", both[0], both[1],
         both[2]);
  cairo_surface_destroy (s);
  dialog_state_clear (&st);
}

/* A gray histogram (value, with alpha or not) of `bins` bins: two humps
 * in value, double weights as layers above 8 bits give. */
static void
make_gray_histogram (gh_histogram *h, int bins, int alpha)
{
  gh_error err;

  gh_histogram_init (h);
  gh_histogram_reset (h, bins, 1, &err);
  h->channels = 1u << GH_CHANNEL_VALUE;
  if (alpha)
    h->channels |= 1u << GH_CHANNEL_ALPHA;
  for (int b = 0; b < bins; b++)
    {
      double x = b * 255.0 / (bins - 1);

      h->weight[GH_CHANNEL_VALUE * bins + b]
        = 900 * exp (-(x - 70) * (x - 70) / 400.0)
          + 600 * exp (-(x - 180) * (x - 180) / 700.0) + 1;
    }
  if (alpha)
    h->weight[GH_CHANNEL_ALPHA * bins + bins - 1] = 5000;
}

/* Gray layers: value (and alpha) only; a remembered RGB overlay or
 * luminance becomes value, which binarize then compares. */
static void
check_gray_channels (void)
{
  for (int alpha = 0; alpha <= 1; alpha++)
    {
      DialogSettings settings;
      DialogState    st;
      gh_histogram   h;
      int            wrong = 0;

      make_gray_histogram (&h, BINS, alpha);
      dialog_settings_defaults (&settings);
      settings.params[GH_PARAM_CHANNEL] = DIALOG_CHANNEL_RGB;
      dialog_state_init (&st, &h, "cpu: test", 0.001, &settings);
      for (int c = 0; c < DIALOG_NUM_CHANNEL_CHOICES; c++)
        wrong += dialog_state_has_channel (&st, c)
                 != (c == GH_CHANNEL_VALUE
                     || (alpha && c == GH_CHANNEL_ALPHA));
      CHECK (wrong == 0, "gray%s offers value%s only (%d wrong)",
             alpha ? "+alpha" : "", alpha ? " and alpha" : "", wrong);
      CHECK (st.settings.params[GH_PARAM_CHANNEL] == GH_CHANNEL_VALUE
             && dialog_state_binarize_channel (&st) == GH_CHANNEL_VALUE,
             "gray%s: a remembered RGB overlay shows and binarizes value",
             alpha ? "+alpha" : "");
      dialog_state_set_param (&st, GH_PARAM_CHANNEL, GH_CHANNEL_LUMINANCE);
      CHECK (st.settings.params[GH_PARAM_CHANNEL] == GH_CHANNEL_VALUE,
             "gray%s: luminance cannot be picked", alpha ? "+alpha" : "");
      dialog_state_clear (&st);
      gh_histogram_clear (&h);
    }
}

/* 1024 bins: the threshold OK applies is the marker's bin, whether Otsu
 * over a range or a fixed level; the slider shows Otsu's level; the range
 * is remembered as levels and comes back as the same bins. */
static void
check_1024_bins (void)
{
  enum { BINS_HI = 1024, LO = 101, HI = 903 };
  DialogSettings settings;
  DialogState    st, again;
  DialogChoice   choice;
  HistogramView  view;
  gh_histogram   h, h256;
  double         counts[BINS_HI];
  int            otsu, level;

  make_gray_histogram (&h, BINS_HI, 0);
  gh_histogram_counts (&h, GH_CHANNEL_VALUE, counts);
  otsu = gh_otsu_threshold (counts, LO, HI);
  level = otsu * 255 / (BINS_HI - 1);
  /* What a whole level loses: the test would prove nothing otherwise. */
  CHECK (level * (BINS_HI - 1) / 255 != otsu,
         "Otsu bin %d is not level %d's bin %d", otsu, level,
         level * (BINS_HI - 1) / 255);

  dialog_settings_defaults (&settings);
  settings.action = DIALOG_ACTION_BINARIZE;
  dialog_state_init (&st, &h, "cpu: test", 0.001, &settings);
  CHECK (dialog_state_threshold (&st)
           == gh_otsu_threshold (counts, 0, BINS_HI - 1) * 255 / (BINS_HI - 1),
         "the threshold starts at Otsu's level over all bins");
  dialog_state_set_range (&st, LO, HI);
  dialog_state_view (&st, &view);
  dialog_state_choice (&st, &choice);
  CHECK (view.n_markers == 1 && view.markers[0].bin == otsu
         && choice.request.operation == DIALOG_ACTION_BINARIZE
         && choice.request.bins[0] == otsu,
         "1024 bins, Otsu over %d..%d: marker bin %d, OK's bin %d, engine's "
         "%d", LO, HI, view.n_markers ? view.markers[0].bin : -1,
         choice.request.bins[0], otsu);
  CHECK (dialog_state_threshold (&st) == level,
         "the slider shows Otsu's level %d (%d)", level,
         dialog_state_threshold (&st));

  /* The range is remembered: the same bins here, the nearest on 256. */
  dialog_state_init (&again, &h, "cpu: test", 0.001, &st.settings);
  dialog_state_choice (&again, &choice);
  CHECK (again.lo == LO && again.hi == HI && choice.request.bins[0] == otsu,
         "remembered range %d..%d comes back as %d..%d, threshold bin %d",
         LO, HI, again.lo, again.hi, choice.request.bins[0]);
  dialog_state_clear (&again);
  make_gray_histogram (&h256, BINS, 0);
  dialog_state_init (&again, &h256, "cpu: test", 0.001, &st.settings);
  CHECK (again.lo == (int) lround (LO * 255.0 / 1023)
         && again.hi == (int) lround (HI * 255.0 / 1023),
         "the range on 256 bins: %d..%d", again.lo, again.hi);
  dialog_state_clear (&again);
  gh_histogram_clear (&h256);

  /* A fixed level: the marker at the bins above it, and OK asks for the
   * level, which the procedure takes to the same bin (no bins given: a
   * live filter can hold it). */
  dialog_state_set_param (&st, GH_PARAM_THRESHOLD, 200);
  dialog_state_view (&st, &view);
  dialog_state_choice (&st, &choice);
  CHECK (view.markers[0].bin == 200 * (BINS_HI - 1) / 255
         && choice.request.n_bins == 0 && choice.request.threshold == 200
         && gh_threshold_bin (200, BINS_HI) == view.markers[0].bin,
         "threshold 200 on 1024 bins: marker %d, OK's level %d (%d bins)",
         view.markers[0].bin, choice.request.threshold,
         choice.request.n_bins);
  dialog_state_clear (&st);
  gh_histogram_clear (&h);
}

/* What both glues hand to the model: the pointer as bins, which controls
 * can be used, and the message line. */
static void
check_glue_rules (const gh_histogram *h)
{
  DialogSettings settings;
  DialogState    st;
  GError        *broke = g_error_new_literal (G_FILE_ERROR, 0, "it broke");

  dialog_settings_defaults (&settings);
  dialog_state_init (&st, h, "cpu: test", 0.001, &settings);
  dialog_state_press (&st, 50, FALSE);
  CHECK (st.lo == 50 && st.hi == 50, "a click picks one level");
  CHECK (dialog_state_motion (&st, 30) && st.lo == 30 && st.hi == 50
         && st.hover == 30, "a drag selects a range, the hover follows");
  dialog_state_leave (&st);
  CHECK (st.hover == 30, "leaving the plot mid-drag keeps its level shown");
  CHECK (dialog_state_release (&st, 20) && st.lo == 20 && st.hi == 50
         && ! dialog_state_motion (&st, 90) && st.hi == 50
         && ! dialog_state_release (&st, 90),
         "the release ends the drag: %d..%d", st.lo, st.hi);
  dialog_state_leave (&st);
  CHECK (st.hover == -1, "leaving the plot clears the hover");
  dialog_state_press (&st, 7, TRUE);
  CHECK (st.lo == 0 && st.hi == BINS - 1 && ! dialog_state_motion (&st, 9),
         "a double click selects all levels, and drags nothing");

  CHECK (! dialog_state_mode_sensitive (&st)
         && ! dialog_state_threshold_sensitive (&st)
         && ! dialog_state_otsu_sensitive (&st),
         "analysing only: no action's controls");
  dialog_state_set_action (&st, DIALOG_ACTION_EQUALIZE);
  CHECK (dialog_state_mode_sensitive (&st)
         && ! dialog_state_threshold_sensitive (&st),
         "equalizing an RGB layer: the mode");
  dialog_state_set_action (&st, DIALOG_ACTION_BINARIZE);
  CHECK (dialog_state_threshold_sensitive (&st)
         && ! dialog_state_otsu_sensitive (&st)
         && ! dialog_state_mode_sensitive (&st),
         "binarizing with Otsu: the slider, not Use Otsu");
  dialog_state_set_param (&st, GH_PARAM_THRESHOLD, 100);
  CHECK (dialog_state_otsu_sensitive (&st), "a fixed threshold: Use Otsu");
  st.can_apply = FALSE;
  CHECK (! dialog_state_threshold_sensitive (&st)
         && ! dialog_state_otsu_sensitive (&st),
         "a layer that cannot change: no controls");

  CHECK (dialog_state_message (&st) == NULL, "no message at first");
  dialog_state_preview_done (&st, broke);
  CHECK (! g_strcmp0 (dialog_state_message (&st), "it broke"),
         "a failed preview says why");
  dialog_state_preview_done (&st, NULL);
  CHECK (dialog_state_message (&st) == NULL,
         "a working preview clears its own failure");
  dialog_state_export_done (&st, "h.csv", NULL);
  dialog_state_preview_done (&st, NULL);
  CHECK (! g_strcmp0 (dialog_state_message (&st),
                      "Histogram written to h.csv"),
         "a working preview keeps the export's message");
  dialog_state_preview_done (&st, broke);
  dialog_state_export_done (&st, "h.csv", broke);
  CHECK (! g_strcmp0 (dialog_state_message (&st), "it broke")
         && ! st.message_from_preview, "a failed export says why");
  dialog_state_clear (&st);
  g_error_free (broke);
}

/* CLAHE's, match's and posterize's settings: a first run's, clamped when
 * set, replaced when remembered out of range, and carried to OK. */
static void
check_new_settings (const gh_histogram *h)
{
  DialogSettings settings;
  DialogState    st;
  DialogChoice   choice;

  dialog_settings_defaults (&settings);
  CHECK (settings.params[GH_PARAM_CLIP_LIMIT] == 2.0
         && settings.params[GH_PARAM_TILES_X] == 8
         && settings.params[GH_PARAM_TILES_Y] == 8 && settings.reference == -1
         && settings.params[GH_PARAM_CLASSES] == 3,
         "a first run: CLAHE 2.0 on 8 x 8 tiles, no reference, 3 classes");
  settings.action = 99;
  settings.params[GH_PARAM_CLIP_LIMIT] = NAN;
  settings.params[GH_PARAM_TILES_X] = 0;
  settings.params[GH_PARAM_TILES_Y] = GH_CLAHE_MAX_TILES + 1;
  settings.reference = -7;
  settings.params[GH_PARAM_CLASSES] = 9;
  dialog_state_init (&st, h, "cpu: test", 0.001, &settings);
  CHECK (st.settings.action == DIALOG_ACTION_NONE
         && st.settings.params[GH_PARAM_CLIP_LIMIT] == 2.0
         && st.settings.params[GH_PARAM_TILES_X] == 8
         && st.settings.params[GH_PARAM_TILES_Y] == 8
         && st.settings.reference == -1
         && st.settings.params[GH_PARAM_CLASSES] == 3,
         "remembered settings out of range become a first run's");

  dialog_state_set_param (&st, GH_PARAM_CLIP_LIMIT, 1000);
  dialog_state_set_param (&st, GH_PARAM_TILES_X, -3);
  dialog_state_set_param (&st, GH_PARAM_TILES_Y, 1000);
  dialog_state_set_param (&st, GH_PARAM_CLASSES, 2);
  CHECK (st.settings.params[GH_PARAM_CLIP_LIMIT]
           == gh_param_get (GH_PARAM_CLIP_LIMIT)->max
         && st.settings.params[GH_PARAM_TILES_X] == 1
         && st.settings.params[GH_PARAM_TILES_Y] == GH_CLAHE_MAX_TILES
         && st.settings.params[GH_PARAM_CLASSES]
              == gh_param_get (GH_PARAM_CLASSES)->min,
         "set values are clamped: clip %g, tiles %g x %g, classes %g",
         st.settings.params[GH_PARAM_CLIP_LIMIT],
         st.settings.params[GH_PARAM_TILES_X],
         st.settings.params[GH_PARAM_TILES_Y],
         st.settings.params[GH_PARAM_CLASSES]);
  dialog_state_set_param (&st, GH_PARAM_CLIP_LIMIT, 3.5);
  dialog_state_set_param (&st, GH_PARAM_TILES_X, 4);
  dialog_state_set_param (&st, GH_PARAM_TILES_Y, 6);
  dialog_state_set_reference (&st, 42);
  dialog_state_set_param (&st, GH_PARAM_CLASSES, 5);
  dialog_state_set_param (&st, GH_PARAM_MODE, 1);

  dialog_state_set_action (&st, DIALOG_ACTION_CLAHE);
  dialog_state_choice (&st, &choice);
  CHECK (choice.request.operation == DIALOG_ACTION_CLAHE && choice.request.clip_limit == 3.5
         && choice.request.tiles_x == 4 && choice.request.tiles_y == 6 && choice.request.mode == 1,
         "OK's CLAHE: clip limit 3.5 on 4 x 6 tiles, luminance");
  CHECK (dialog_state_mode_sensitive (&st)
         && dialog_state_action_sensitive (&st, DIALOG_ACTION_CLAHE)
         && ! dialog_state_action_sensitive (&st, DIALOG_ACTION_MATCH)
         && ! dialog_state_threshold_sensitive (&st),
         "CLAHE on an RGB layer: its grid, clip limit and mode only");
  dialog_state_set_action (&st, DIALOG_ACTION_MATCH);
  dialog_state_choice (&st, &choice);
  CHECK (choice.request.operation == DIALOG_ACTION_MATCH && choice.reference == 42
         && choice.request.mode == 1 && dialog_state_mode_sensitive (&st),
         "OK's match: reference 42, luminance; the mode can be used");
  dialog_state_set_reference (&st, -5);
  CHECK (st.settings.reference == -1, "no reference is -1");
  dialog_state_set_action (&st, (DialogAction) 77);
  CHECK (st.settings.action == DIALOG_ACTION_MATCH,
         "an action that is none is refused");
  dialog_state_set_action (&st, DIALOG_ACTION_POSTERIZE);
  CHECK (! dialog_state_mode_sensitive (&st)
         && dialog_state_action_sensitive (&st, DIALOG_ACTION_POSTERIZE),
         "posterizing: the classes, not the mode");
  st.can_apply = FALSE;
  dialog_state_choice (&st, &choice);
  CHECK (! dialog_state_action_sensitive (&st, DIALOG_ACTION_POSTERIZE)
         && choice.request.operation == DIALOG_ACTION_NONE,
         "a layer that cannot change: no controls, OK applies nothing");

  /* Remembered, they come back. */
  st.can_apply = TRUE;
  dialog_state_set_reference (&st, 42);
  {
    DialogState again;

    dialog_state_init (&again, h, "cpu: test", 0.001, &st.settings);
    CHECK (again.settings.action == DIALOG_ACTION_POSTERIZE
           && again.settings.params[GH_PARAM_CLIP_LIMIT] == 3.5
           && again.settings.params[GH_PARAM_TILES_X] == 4
           && again.settings.params[GH_PARAM_TILES_Y] == 6
           && again.settings.reference == 42
           && again.settings.params[GH_PARAM_CLASSES] == 5,
           "the new settings are remembered");
    dialog_state_clear (&again);
  }
  dialog_state_clear (&st);
}

/* The engine's multi-level Otsu of `channel` over bins lo..hi (the rest
 * counted as empty); how many thresholds (0: it refused). */
static int
engine_multi_otsu (const gh_histogram *h, gh_channel channel, int lo, int hi,
                   int classes, int *thresholds)
{
  double  *counts = g_new0 (double, h->bins);
  gh_error err;
  int      n;

  for (int b = lo; b <= hi; b++)
    counts[b] = gh_histogram_count (h, channel, b);
  n = gh_multi_otsu (counts, h->bins, classes, thresholds, &err) == GH_OK
        ? classes - 1 : 0;
  g_free (counts);
  return n;
}

/* Marker-coloured columns of the rendered view in the plot's lower part:
 * how many lie within 1.5 pixels of one of the n borders after bins[],
 * how many elsewhere. */
static void
marker_columns (cairo_surface_t *s, const HistogramView *view,
                const int *bins, int n, int (*is_marker) (const double *),
                int *hits, int *stray)
{
  cairo_rectangle_t plot;

  *hits = *stray = 0;
  histogram_view_plot_area (W, H, &plot);
  for (int y = (int) (plot.y + 70); y < plot.y + plot.height; y += 7)
    for (int x = (int) plot.x; x < plot.x + plot.width; x++)
      {
        double c[3];
        int    on = 0;

        pixel (s, x, y, c);
        if (! is_marker (c))
          continue;
        for (int i = 0; i < n; i++)
          {
            double x0, x1;

            histogram_view_bin_extent (view, W, H, bins[i], &x0, &x1);
            on |= fabs (x + 0.5 - x1) <= 1.5;
          }
        if (on)
          (*hits)++;
        else
          (*stray)++;
      }
}

/* Posterize: the markers are the engine's multi-level Otsu thresholds of
 * the channel over the selected range, one line each where the plot says
 * and no other; OK posterizes at exactly those bins; too few levels for
 * the classes: no marker, nothing to posterize. */
static void
check_posterize (const gh_histogram *h)
{
  DialogSettings settings;
  DialogState    st;
  DialogChoice   choice;
  HistogramView  view;

  dialog_settings_defaults (&settings);
  settings.action = DIALOG_ACTION_POSTERIZE;
  dialog_state_init (&st, h, "cpu: test", 0.001, &settings);
  for (int classes = gh_param_get (GH_PARAM_CLASSES)->min; classes <= GH_MULTI_OTSU_MAX_CLASSES;
       classes++)
    for (int ranged = 0; ranged <= 1; ranged++)
      {
        int              want[DIALOG_MAX_THRESHOLDS], levels[DIALOG_MAX_THRESHOLDS];
        int              given[DIALOG_MAX_THRESHOLDS] = { 0 };
        gh_request_result found;
        gh_error         err;
        int              lo = ranged ? 30 : 0, hi = ranged ? 220 : BINS - 1;
        int              n, same = 1, hits, stray;
        cairo_surface_t *s;
        char             png[64];

        dialog_state_set_param (&st, GH_PARAM_CLASSES, classes);
        dialog_state_set_range (&st, lo, hi);
        n = engine_multi_otsu (h, GH_CHANNEL_VALUE, lo, hi, classes, want);
        dialog_state_view (&st, &view);
        dialog_state_choice (&st, &choice);
        /* Over the whole range OK gives no bins: the operation finds the
         * same itself (and a live filter can hold it). */
        if (! ranged
            && gh_request_thresholds (&choice.request, h, BINS, &found, &err)
                 == GH_OK)
          for (int i = 0; i < found.n; i++)
            given[i] = found.bins[i];
        else
          memcpy (given, choice.request.bins, sizeof given);
        CHECK (n == classes - 1 && view.n_markers == n
               && choice.request.n_bins == (ranged ? n : 0)
               && ! choice.too_few_levels
               && choice.request.classes == classes
               && choice.request.channel == GH_CHANNEL_VALUE,
               "%d classes over %d..%d: %d markers, OK's %d thresholds, "
               "the engine's %d", classes, lo, hi, view.n_markers,
               choice.request.n_bins, n);
        if (n != classes - 1 || view.n_markers != n)
          continue;
        dialog_state_posterize_levels (&st, levels);
        for (int i = 0; i < n; i++)
          same &= view.markers[i].bin == want[i]
                  && given[i] == want[i]
                  && levels[i] == gh_threshold_level (want[i], BINS)
                  && (i == 0 || want[i] > want[i - 1]);
        CHECK (same, "%d classes over %d..%d: markers and OK at the engine's "
               "ascending thresholds (%d, %d, ...)", classes, lo, hi, want[0],
               want[1]);
        g_snprintf (png, sizeof png, "ui_render_posterize_%d%s.png", classes,
                    ranged ? "_range" : "");
        s = render (&view, png);
        marker_columns (s, &view, want, n, is_orange, &hits, &stray);
        CHECK (hits >= 10 * n && stray == 0,
               "%d classes: %d marker pixels on the %d thresholds' lines, %d "
               "elsewhere", classes, hits, n, stray);
        cairo_surface_destroy (s);
      }

  /* A drag keeps the thresholds until its release, which computes them
   * over the range dragged. */
  {
    int want[DIALOG_MAX_THRESHOLDS], before[DIALOG_MAX_THRESHOLDS];
    int n;

    dialog_state_set_param (&st, GH_PARAM_CLASSES, 3);
    dialog_state_reset_range (&st);
    memcpy (before, st.posterize_bins, sizeof before);
    dialog_state_press (&st, 40, FALSE);
    dialog_state_motion (&st, 200);
    CHECK (st.n_posterize == 2 && ! memcmp (before, st.posterize_bins,
                                            2 * sizeof before[0]),
           "mid-drag, posterize's thresholds stay");
    dialog_state_release (&st, 210);
    n = engine_multi_otsu (h, GH_CHANNEL_VALUE, 40, 210, 3, want);
    CHECK (n == 2 && st.n_posterize == 2 && st.posterize_bins[0] == want[0]
           && st.posterize_bins[1] == want[1],
           "the release: the thresholds over 40..210 (%d, %d; engine %d, %d)",
           st.posterize_bins[0], st.posterize_bins[1], want[0], want[1]);
  }

  /* Three levels in use cannot make four classes. */
  dialog_state_set_param (&st, GH_PARAM_CLASSES, 4);
  dialog_state_set_range (&st, 60, 62);
  dialog_state_view (&st, &view);
  dialog_state_choice (&st, &choice);
  CHECK (view.n_markers == 0 && choice.request.n_bins == 0
         && choice.too_few_levels
         && choice.request.operation == DIALOG_ACTION_POSTERIZE,
         "4 classes of 3 levels: no marker, no thresholds to posterize at");

  /* The RGB overlay posterizes (and marks) luminance, as binarize. */
  dialog_state_reset_range (&st);
  dialog_state_set_param (&st, GH_PARAM_CLASSES, 3);
  dialog_state_set_param (&st, GH_PARAM_CHANNEL, DIALOG_CHANNEL_RGB);
  {
    int   want[DIALOG_MAX_THRESHOLDS];
    int   n = engine_multi_otsu (h, GH_CHANNEL_LUMINANCE, 0, BINS - 1, 3,
                                 want);
    char *label = dialog_state_posterize_label (&st);

    dialog_state_view (&st, &view);
    dialog_state_choice (&st, &choice);
    CHECK (n == 2 && view.n_markers == 2 && view.markers[0].bin == want[0]
           && view.markers[1].bin == want[1]
           && view.markers[0].channel == GH_CHANNEL_LUMINANCE
           && choice.request.channel == GH_CHANNEL_LUMINANCE
           && ! strcmp (label, "Posteri_ze on luminance"),
           "RGB overlay: posterize on luminance, its thresholds marked "
           "('%s')", label);
    g_free (label);
  }
  /* Other actions: the Otsu markers as before. */
  dialog_state_set_param (&st, GH_PARAM_CHANNEL, GH_CHANNEL_VALUE);
  dialog_state_set_action (&st, DIALOG_ACTION_CLAHE);
  dialog_state_view (&st, &view);
  CHECK (view.n_markers == 1 && view.markers[0].bin == st.stats[0].otsu_bin,
         "CLAHE shows the Otsu marker");
  dialog_state_clear (&st);
}

/* ---- the GTK dialog, with a display ---- */

static GtkWidget *
find (GtkWidget *root, const char *name)
{
  GList     *children, *l;
  GtkWidget *found = NULL;

  if (! g_strcmp0 (gtk_widget_get_name (root), name))
    return root;
  if (! GTK_IS_CONTAINER (root))
    return NULL;
  children = gtk_container_get_children (GTK_CONTAINER (root));
  for (l = children; l && ! found; l = l->next)
    found = find (l->data, name);
  g_list_free (children);
  return found;
}

/* Everything the widgets queued in the last `ms` milliseconds is done,
 * redrawing included: GTK 3 paints on its frame clock's next tick, not at
 * once. */
static void
settle_for (int ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    {
      while (gtk_events_pending ())
        gtk_main_iteration ();
      g_usleep (5 * 1000);
    }
}

static void
settle (void)
{
  settle_for (250);
}

static double
shown_number (GtkWidget *content, int column, DialogStat stat)
{
  char       name[32];
  GtkWidget *label;

  gchar    **groups;
  gchar     *digits;
  double     value;

  g_snprintf (name, sizeof name, "stat-%d-%d", column, stat);
  label = find (content, name);
  if (! label)
    return NAN;
  /* Counts come in groups of three digits (dialog_count_text). */
  groups = g_strsplit (gtk_label_get_text (GTK_LABEL (label)),
                       "\xe2\x80\xaf", -1);
  digits = g_strjoinv ("", groups);
  value = g_strtod (digits, NULL);
  g_strfreev (groups);
  g_free (digits);
  return value;
}

/* Every number in one column equals the engine's, to its printed
 * precision. */
static void
check_numbers (GtkWidget *content, const gh_histogram *h, int column,
               gh_channel channel, int lo, int hi, const char *what)
{
  gh_stats s;
  double   want[DIALOG_NUM_STATS], tol[DIALOG_NUM_STATS]
    = { 0.5, 0, 0, 0.005, 0, 0.005, 0, 0.05 };
  int      bad = 0;

  gh_stats_compute (h, channel, lo, hi, &s);
  want[DIALOG_STAT_COUNT] = s.count;
  want[DIALOG_STAT_MIN] = s.min;
  want[DIALOG_STAT_MAX] = s.max;
  want[DIALOG_STAT_MEAN] = s.mean;
  want[DIALOG_STAT_MEDIAN] = s.median;
  want[DIALOG_STAT_STD_DEV] = s.std_dev;
  want[DIALOG_STAT_OTSU] = s.otsu;
  want[DIALOG_STAT_PERCENTILE] = 100 * s.percentile;
  for (int k = 0; k < DIALOG_NUM_STATS; k++)
    {
      double got = shown_number (content, column, (DialogStat) k);

      if (! (fabs (got - want[k]) <= tol[k] + 1e-9))
        {
          printf ("  %s: %s shows %g, engine %g\n", what,
                  dialog_stat_label ((DialogStat) k), got, want[k]);
          bad++;
        }
    }
  CHECK (bad == 0, "%s: the numbers shown are the engine's", what);
}

static void
press (GtkWidget *plot, GdkEventType type, double x)
{
  GdkEvent *e = gdk_event_new (type);

#if GTK_CHECK_VERSION (3, 0, 0)
  /* GTK 3 asks every pointer event for its device. */
  gdk_event_set_device (e, gdk_seat_get_pointer (gdk_display_get_default_seat (
                             gtk_widget_get_display (plot))));
#endif

  if (type == GDK_MOTION_NOTIFY)
    {
      e->motion.window = g_object_ref (gtk_widget_get_window (plot));
      e->motion.x = x;
      e->motion.y = 20;
    }
  else
    {
      e->button.window = g_object_ref (gtk_widget_get_window (plot));
      e->button.button = 1;
      e->button.x = x;
      e->button.y = 20;
    }
  gtk_widget_event (plot, e);
  gdk_event_free (e);
}

/* A drag on the plot from level `from` to level `to`; returns where it
 * passed half-way, in the plot's pixels. */
static double
drag (GtkWidget *plot, const DialogState *st, int from, int to)
{
  GtkAllocation a;
  HistogramView view;
  double        x0, x1, unused;

  gtk_widget_get_allocation (plot, &a);
  dialog_state_view (st, &view);
  histogram_view_bin_extent (&view, a.width, a.height, from, &x0, &unused);
  histogram_view_bin_extent (&view, a.width, a.height, to, &unused, &x1);
  press (plot, GDK_BUTTON_PRESS, x0 + 0.5);
  press (plot, GDK_MOTION_NOTIFY, (x0 + x1) / 2);
  press (plot, GDK_BUTTON_RELEASE, x1 - 0.5);
  settle ();
  return (x0 + x1) / 2;
}

/* The plot's pixels as the window shows them, at the display's scale
 * factor (device pixels). */
static cairo_surface_t *
plot_shot (GtkWidget *window, GtkWidget *plot, int scale)
{
  GtkAllocation    a;
  int              x, y;
  cairo_surface_t *s;
  cairo_t         *cr;

  gtk_widget_get_allocation (plot, &a);
  gtk_widget_translate_coordinates (plot, window, 0, 0, &x, &y);
  s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, a.width * scale,
                                  a.height * scale);
  cairo_surface_set_device_scale (s, scale, scale);
  cr = cairo_create (s);
#if GTK_CHECK_VERSION (3, 0, 0)
  cairo_set_source_surface (cr, gtk_offscreen_window_get_surface (
                                  GTK_OFFSCREEN_WINDOW (window)), -x, -y);
#else
  gdk_cairo_set_source_pixmap (cr, gtk_offscreen_window_get_pixmap (
                                     GTK_OFFSCREEN_WINDOW (window)), -x, -y);
#endif
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  return s;
}

/* How many of the pixels of a and b (of the same size) are alike. */
static int
alike_pixels (cairo_surface_t *a, cairo_surface_t *b)
{
  int same = 0;

  for (int y = 0; y < cairo_image_surface_get_height (a); y++)
    for (int x = 0; x < cairo_image_surface_get_width (a); x++)
      {
        double p[3], q[3];

        pixel (a, x, y, p);
        pixel (b, x, y, q);
        same += same_colour (p, q);
      }
  return same;
}

/* The plot equals the view drawn directly at the display's scale factor,
 * and the other toolkit's plot when one is given. */
static void
check_plot (GtkWidget *window, GtkWidget *plot, const DialogState *st,
            const char *reference)
{
  GtkAllocation    a;
  HistogramView    view;
  cairo_surface_t *shot, *want;
  cairo_t         *cr;
  int              scale = 1, total;

#if GTK_CHECK_VERSION (3, 0, 0)
  scale = gtk_widget_get_scale_factor (plot);
#endif
  gtk_widget_get_allocation (plot, &a);
  CHECK (a.width == W && a.height == H, "the plot is %dx%d (asked %dx%d), "
         "scale factor %d", a.width, a.height, W, H, scale);
  shot = plot_shot (window, plot, scale);
  cairo_surface_write_to_png (shot, "ui_render_plot.png");
  want = cairo_image_surface_create (CAIRO_FORMAT_RGB24, a.width * scale,
                                     a.height * scale);
  cairo_surface_set_device_scale (want, scale, scale);
  cr = cairo_create (want);
  dialog_state_view (st, &view);
  histogram_view_draw (&view, cr, a.width, a.height);
  cairo_destroy (cr);
  cairo_surface_flush (want);
  total = a.width * a.height * scale * scale;
  {
    int same = alike_pixels (shot, want);

    CHECK (same >= 0.97 * total, "the dialog's plot is the view drawn at "
           "scale %d: %d of %d pixels", scale, same, total);
  }
  cairo_surface_destroy (want);

  if (reference)
    {
      cairo_surface_t *other = cairo_image_surface_create_from_png (reference);
      int              same;

      if (cairo_surface_status (other) != CAIRO_STATUS_SUCCESS
          || cairo_image_surface_get_width (other)
             != cairo_image_surface_get_width (shot)
          || cairo_image_surface_get_height (other)
             != cairo_image_surface_get_height (shot))
        CHECK (0, "reference plot %s: unreadable or not %dx%d", reference,
               cairo_image_surface_get_width (shot),
               cairo_image_surface_get_height (shot));
      else
        {
          same = alike_pixels (shot, other);
          CHECK (same >= 0.97 * total, "the plot equals the other toolkit's "
                 "(%s): %d of %d pixels", reference, same, total);
        }
      cairo_surface_destroy (other);
    }
  else
    printf ("  (no reference plot given: the other toolkit's is not "
            "compared)\n");
  cairo_surface_destroy (shot);
}

static void
check_dialog (const gh_histogram *h, const char *reference)
{
  DialogSettings settings;
  DialogState    st;
  GtkWidget     *window = gtk_offscreen_window_new ();
  GtkWidget     *content, *plot;
  GdkPixbuf     *shot;
  GtkAllocation  a;
  HistogramView  view;
  double         middle;

  dialog_settings_defaults (&settings);
  dialog_state_init (&st, h, "cpu: test", 0.012, &settings);
  content = dialog_content_new (&st, NULL, NULL, NULL);
  /* The test's size, larger than the plot's own: taller and wider than
   * the rest of the dialog needs, it is what the plot gets in either
   * toolkit, so both draw the same pixels. */
  plot = find (content, "plot");
  gtk_widget_set_size_request (plot, W, H);
  gtk_container_add (GTK_CONTAINER (window), content);
  gtk_widget_show_all (window);
  settle ();
  shot = gtk_offscreen_window_get_pixbuf (GTK_OFFSCREEN_WINDOW (window));
  CHECK (shot != NULL, "the dialog renders");
  if (! shot)
    return;
  gdk_pixbuf_save (shot, "ui_render_dialog.png", "png", NULL, NULL);
  g_object_unref (shot);
  check_plot (window, plot, &st, reference);
  gtk_widget_get_allocation (plot, &a);

  check_numbers (content, h, 0, GH_CHANNEL_VALUE, 0, BINS - 1,
                 "value, all levels");
  CHECK (! g_strcmp0 (gtk_label_get_text (GTK_LABEL (find (content,
                                                           "backend"))),
                      "Counted on the CPU, test, in 12.0 ms"),
         "the backend and time are shown");

  /* A drag from level 40 to level 150 selects that range. */
  middle = drag (plot, &st, 40, 150);
  CHECK (st.lo == 40 && st.hi == 150, "drag selected %d..%d", st.lo, st.hi);
  check_numbers (content, h, 0, GH_CHANNEL_VALUE, 40, 150,
                 "value, levels 40..150");
  {
    int   bin;

    dialog_state_view (&st, &view);
    bin = histogram_view_bin_at (&view, a.width, a.height, middle);
    char *count = dialog_count_text (gh_histogram_count (h, GH_CHANNEL_VALUE,
                                                          bin));
    char *want = g_strdup_printf ("Level %d: %s pixels", bin, count);
    const char *got = gtk_label_get_text (GTK_LABEL (find (content,
                                                           "hover")));

    CHECK (! strcmp (got, want), "hover text '%s', want '%s'", got, want);
    g_free (count);
    g_free (want);
  }

  /* The RGB overlay: three columns, each the engine's. */
  gimp_int_combo_box_set_active (GIMP_INT_COMBO_BOX (find (content,
                                                           "channel")),
                                 DIALOG_CHANNEL_RGB);
  settle ();
  for (int k = 0; k < 3; k++)
    {
      char what[64];

      g_snprintf (what, sizeof what, "column %d of RGB, levels 40..150", k);
      check_numbers (content, h, k, (gh_channel) (GH_CHANNEL_RED + k), 40,
                     150, what);
    }
  CHECK (gtk_widget_get_visible (find (content, "stat-2-0")),
         "the blue column is shown");
  shot = gtk_offscreen_window_get_pixbuf (GTK_OFFSCREEN_WINDOW (window));
  gdk_pixbuf_save (shot, "ui_render_dialog_rgb.png", "png", NULL, NULL);
  g_object_unref (shot);

  gtk_widget_destroy (window);
  dialog_state_clear (&st);
}

/* The channel choices a picker lists, in order; how many. */
static int
combo_values (GtkWidget *combo, int *values, int max)
{
  GtkTreeModel *model = gtk_combo_box_get_model (GTK_COMBO_BOX (combo));
  GtkTreeIter   iter;
  int           n = 0;
  gboolean      more = gtk_tree_model_get_iter_first (model, &iter);

  for (; more; more = gtk_tree_model_iter_next (model, &iter), n++)
    if (n < max)
      gtk_tree_model_get (model, &iter, GIMP_INT_STORE_VALUE, &values[n], -1);
  return n;
}

/* The dialog opened to binarize: its slider stands at Otsu's level, its
 * channel picker lists the layer's channels only. */
static void
check_dialog_opening (const gh_histogram *rgb)
{
  static const int want_rgb[] = { 0, 1, 2, 3, 4, 5, DIALOG_CHANNEL_RGB };
  static const int want_graya[] = { GH_CHANNEL_VALUE, GH_CHANNEL_ALPHA };
  struct
  {
    const char         *what;
    const gh_histogram *h;
    const int          *want;
    int                 n_want;
  } cases[3];
  gh_histogram graya, gray1024;

  make_gray_histogram (&graya, BINS, 1);
  make_gray_histogram (&gray1024, 1024, 0);
  cases[0].what = "RGBA";
  cases[0].h = rgb;
  cases[0].want = want_rgb;
  cases[0].n_want = G_N_ELEMENTS (want_rgb);
  cases[1].what = "gray+alpha";
  cases[1].h = &graya;
  cases[1].want = want_graya;
  cases[1].n_want = G_N_ELEMENTS (want_graya);
  cases[2].what = "gray, 1024 bins";
  cases[2].h = &gray1024;
  cases[2].want = want_graya;
  cases[2].n_want = 1;
  for (int k = 0; k < 3; k++)
    {
      DialogSettings settings;
      DialogState    st;
      GtkWidget     *window = gtk_offscreen_window_new ();
      GtkWidget     *content;
      double        *counts = g_new (double, cases[k].h->bins);
      int            values[DIALOG_NUM_CHANNEL_CHOICES], n, otsu, bins;
      double         slider;

      dialog_settings_defaults (&settings);
      settings.action = DIALOG_ACTION_BINARIZE;
      dialog_state_init (&st, cases[k].h, "cpu: test", 0.001, &settings);
      content = dialog_content_new (&st, NULL, NULL, NULL);
      gtk_container_add (GTK_CONTAINER (window), content);
      gtk_widget_show_all (window);
      settle ();

      n = combo_values (find (content, "channel"), values,
                        DIALOG_NUM_CHANNEL_CHOICES);
      CHECK (n == cases[k].n_want
             && ! memcmp (values, cases[k].want, n * sizeof values[0]),
             "%s: the channel picker lists %d choices, want %d", cases[k].what,
             n, cases[k].n_want);

      bins = cases[k].h->bins;
      gh_histogram_counts (cases[k].h, GH_CHANNEL_VALUE, counts);
      otsu = gh_otsu_threshold (counts, 0, bins - 1) * 255 / (bins - 1);
      slider = gtk_range_get_value (GTK_RANGE (find (content, "threshold")));
      CHECK (slider == otsu, "%s: the threshold slider starts at Otsu's "
             "level %d (%g)", cases[k].what, otsu, slider);
      gtk_widget_destroy (window);
      dialog_state_clear (&st);
      g_free (counts);
    }
  gh_histogram_clear (&graya);
  gh_histogram_clear (&gray1024);
}

/* A host's reference picker without GIMP: two drawables, IDs 11 and 22,
 * the first chosen unless the reference is one of them. */
static gpointer
fake_picker (gint32 reference, gpointer data)
{
  /* As libgimpui's picker names a layer: its image's file, its own. */
  GtkWidget *combo = gimp_int_combo_box_new ("Photo-1/Background", 11,
                                             "Photo-2/Sky", 22,
                                             "IMG_20260412_183055_holiday_"
                                             "panorama_stitched-3/Background "
                                             "copy #2", 33, NULL);

  (void) data;
  if (! gimp_int_combo_box_set_active (GIMP_INT_COMBO_BOX (combo),
                                       reference))
    gimp_int_combo_box_set_active (GIMP_INT_COMBO_BOX (combo), 11);
  return combo;
}

/* GIMP 3's live filters without GIMP: offered where the choice is applied
 * without the markers' bins (equalize, CLAHE, match here). */
static gboolean
fake_live_offered (const DialogChoice *choice, gpointer data)
{
  (void) data;
  return choice->request.operation != DIALOG_ACTION_NONE
         && choice->request.n_bins == 0;
}

static int
sensitive (GtkWidget *content, const char *name)
{
  GtkWidget *w = find (content, name);

  return w && gtk_widget_is_sensitive (w);
}

/* The new actions' controls: each usable only under its chosen action,
 * each change reaching the state (and so the preview and OK); the
 * reference picker is the host's, and without one there is no Match. */
static void
check_dialog_actions (const gh_histogram *h)
{
  DialogSettings    settings;
  DialogState       st;
  DialogHooks       hooks = { NULL, NULL, fake_picker, NULL, NULL };
  GtkWidget        *window = gtk_offscreen_window_new ();
  GtkWidget        *content;
  HistogramView     view;
  GdkPixbuf        *shot;

  /* No picker: Match cannot be chosen, and a remembered one analyses. */
  dialog_settings_defaults (&settings);
  settings.action = DIALOG_ACTION_MATCH;
  dialog_state_init (&st, h, "cpu: test", 0.001, &settings);
  content = dialog_content_new (&st, NULL, NULL, NULL);
  gtk_container_add (GTK_CONTAINER (window), content);
  gtk_widget_show_all (window);
  settle ();
  CHECK (find (content, "reference") == NULL
         && ! sensitive (content, "action-4")
         && st.settings.action == DIALOG_ACTION_NONE,
         "no reference picker: Match greyed out, a remembered Match "
         "analyses only");
  gtk_widget_destroy (window);
  dialog_state_clear (&st);

  window = gtk_offscreen_window_new ();
  settings.action = DIALOG_ACTION_CLAHE;
  settings.reference = 22;
  dialog_state_init (&st, h, "cpu: test", 0.001, &settings);
  content = dialog_content_new (&st, NULL, &hooks, NULL);
  gtk_container_add (GTK_CONTAINER (window), content);
  gtk_widget_show_all (window);
  settle ();
  {
    gint id = -1;

    gimp_int_combo_box_get_active (GIMP_INT_COMBO_BOX (find (content,
                                                             "reference")),
                                   &id);
    CHECK (id == 22 && st.settings.reference == 22,
           "the picker starts at the remembered reference (%d)", id);
  }
  CHECK (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (find (content,
                                                                "action-3")))
         && sensitive (content, "tiles-x") && sensitive (content, "tiles-y")
         && sensitive (content, "clip-limit")
         && sensitive (content, "clahe-mode") && ! sensitive (content, "mode")
         && ! sensitive (content, "match-mode")
         && ! sensitive (content, "reference")
         && ! sensitive (content, "classes")
         && ! sensitive (content, "threshold"),
         "CLAHE chosen: its grid, clip limit and mode only");
  CHECK (find (content, "live") == NULL,
         "no live filters offered (GIMP 2.10): no Keep as live filter");
  CHECK (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (
           find (content, "tiles-x"))) == 8
         && gtk_spin_button_get_value (GTK_SPIN_BUTTON (
              find (content, "clip-limit"))) == 2.0,
         "the grid and clip limit show the settings");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (find (content, "tiles-x")), 3);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (find (content, "tiles-y")), 5);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (find (content, "clip-limit")),
                             4.5);
  gimp_int_combo_box_set_active (GIMP_INT_COMBO_BOX (find (content,
                                                           "clahe-mode")), 1);
  settle ();
  CHECK (st.settings.params[GH_PARAM_TILES_X] == 3
         && st.settings.params[GH_PARAM_TILES_Y] == 5
         && st.settings.params[GH_PARAM_CLIP_LIMIT] == 4.5
         && st.settings.params[GH_PARAM_MODE] == 1,
         "grid 3 x 5, clip limit 4.5, luminance reach the state (%g x %g, "
         "%g, %g)", st.settings.params[GH_PARAM_TILES_X],
         st.settings.params[GH_PARAM_TILES_Y],
         st.settings.params[GH_PARAM_CLIP_LIMIT],
         st.settings.params[GH_PARAM_MODE]);
  {
    gint mode = -1;

    gimp_int_combo_box_get_active (GIMP_INT_COMBO_BOX (find (content,
                                                             "mode")),
                                   &mode);
    CHECK (mode == 1, "one mode: equalize's picker shows it too");
  }

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (find (content,
                                                         "action-4")),
                                TRUE);
  settle ();
  CHECK (st.settings.action == DIALOG_ACTION_MATCH
         && sensitive (content, "reference")
         && sensitive (content, "match-mode")
         && ! sensitive (content, "clahe-mode")
         && ! sensitive (content, "tiles-x"),
         "Match chosen: the picker and its mode only");
  gimp_int_combo_box_set_active (GIMP_INT_COMBO_BOX (find (content,
                                                           "reference")), 11);
  settle ();
  CHECK (st.settings.reference == 11, "the reference chosen reaches the "
         "state (%d)", st.settings.reference);

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (find (content,
                                                         "action-5")),
                                TRUE);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (find (content, "classes")), 4);
  settle ();
  dialog_state_view (&st, &view);
  CHECK (st.settings.action == DIALOG_ACTION_POSTERIZE
         && sensitive (content, "classes")
         && st.settings.params[GH_PARAM_CLASSES] == 4
         && view.n_markers == 3,
         "Posterize with 4 classes: the plot marks 3 thresholds (%d)",
         view.n_markers);
  CHECK (! strcmp (gtk_button_get_label (GTK_BUTTON (find (content,
                                                           "action-5"))),
                   "Posteri_ze on value"),
         "the posterize button names its channel");
  shot = gtk_offscreen_window_get_pixbuf (GTK_OFFSCREEN_WINDOW (window));
  gdk_pixbuf_save (shot, "ui_render_dialog_posterize.png", "png", NULL,
                   NULL);
  g_object_unref (shot);
  gtk_widget_destroy (window);
  dialog_state_clear (&st);

  /* Live filters offered (GIMP 3): the check box shows the remembered
   * setting, reaches the state and OK's choice, and can be used only
   * where the host offers the choice live (binarize's Otsu and posterize
   * over the whole range: no bins; over a part, the bins of
   * check_gray_channels). */
  window = gtk_offscreen_window_new ();
  hooks.live_offered = fake_live_offered;
  settings.action = DIALOG_ACTION_CLAHE;
  settings.live = TRUE;
  dialog_state_init (&st, h, "cpu: test", 0.001, &settings);
  content = dialog_content_new (&st, NULL, &hooks, NULL);
  gtk_container_add (GTK_CONTAINER (window), content);
  gtk_widget_show_all (window);
  settle ();
  CHECK (find (content, "live") && sensitive (content, "live")
         && gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (
              find (content, "live"))),
         "CLAHE with live filters offered: Keep as live filter, checked as "
         "remembered");
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (find (content, "live")),
                                FALSE);
  settle ();
  {
    DialogChoice choice;

    dialog_state_choice (&st, &choice);
    CHECK (! st.settings.live && ! choice.live,
           "unchecked: the state and OK's choice merge");
  }
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (find (content,
                                                         "action-2")),
                                TRUE);
  settle ();
  CHECK (sensitive (content, "live"),
         "Binarize, Otsu over the whole range: offered live");
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (find (content,
                                                         "action-5")),
                                TRUE);
  settle ();
  CHECK (sensitive (content, "live"),
         "Posterize over the whole range: offered live");
  drag (find (content, "plot"), &st, 40, 150);
  CHECK (! sensitive (content, "live"),
         "Posterize over a part of the range: at its markers' bins, merged");
  gtk_widget_destroy (window);
  dialog_state_clear (&st);
}

/* ---- the whole window: it fits a laptop's screen, keys reach it all ---- */

/* A 1366 x 768 screen less the desktop's and GIMP's panels and the title
 * bar: what the dialog may take, in logical pixels. */
#define FIT_WIDTH  1000
#define FIT_HEIGHT 700

/* The host's GimpDrawablePreview needs GIMP running: a stand-in of the same
 * GimpScrolledPreview, on a photo's bounds, its area sized as
 * GimpDrawablePreview sizes it (the "size" style property at most), drawn
 * grey. */
typedef struct
{
  GimpScrolledPreview parent_instance;
} StandInPreview;

typedef struct
{
  GimpScrolledPreviewClass parent_class;
} StandInPreviewClass;

G_DEFINE_TYPE (StandInPreview, stand_in_preview, GIMP_TYPE_SCROLLED_PREVIEW)

static void
stand_in_preview_draw (GimpPreview *preview)
{
  gint width, height;

  gimp_preview_get_size (preview, &width, &height);
  gimp_preview_area_fill (GIMP_PREVIEW_AREA (gimp_preview_get_area (preview)),
                          0, 0, width, height, 128, 128, 128);
}

static void
stand_in_preview_class_init (StandInPreviewClass *klass)
{
  GIMP_PREVIEW_CLASS (klass)->draw = stand_in_preview_draw;
}

static void
stand_in_preview_init (StandInPreview *preview)
{
  (void) preview;
}

static GtkWidget *
stand_in_preview_new (gint width, gint height)
{
  GtkWidget *preview = g_object_new (stand_in_preview_get_type (), NULL);
  gint       size;

  gimp_preview_set_bounds (GIMP_PREVIEW (preview), 0, 0, width, height);
  gtk_widget_style_get (preview, "size", &size, NULL);
  gtk_widget_set_size_request (gimp_preview_get_area (GIMP_PREVIEW (preview)),
                               MIN (width, size), MIN (height, size));
  return preview;
}

/* The hooks' preview and export, which the sizes need present (the preview
 * is drawn, the Export button shown) but no work from: nothing to apply,
 * nothing written. */
static guchar *
unchanged_preview (const DialogChoice *choice, gint x, gint y, gint width,
                   gint height, gint out_width, gint out_height,
                   gint *rowstride, gpointer data, GError **error)
{
  (void) choice;
  (void) x;
  (void) y;
  (void) width;
  (void) height;
  (void) out_width;
  (void) out_height;
  (void) rowstride;
  (void) data;
  (void) error;
  return NULL;
}

static gboolean
refused_export (const gchar *filename, gpointer data, GError **error)
{
  (void) data;
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_PERM, "not here: %s",
               filename);
  return FALSE;
}

/* The window's requested (GTK 3: natural) size and its size as shown, in
 * logical pixels. */
static void
window_sizes (GtkWidget *window, int *req_w, int *req_h, int *w, int *h)
{
  GtkRequisition req;

#if GTK_CHECK_VERSION (3, 0, 0)
  gtk_widget_get_preferred_size (window, NULL, &req);
#else
  gtk_widget_size_request (window, &req);
#endif
  *req_w = req.width;
  *req_h = req.height;
  *w = gdk_window_get_width (gtk_widget_get_window (window));
  *h = gdk_window_get_height (gtk_widget_get_window (window));
}

static void
window_shot (GtkWidget *window, const char *png)
{
  GdkWindow *gdk = gtk_widget_get_window (window);
  GdkPixbuf *shot;

#if GTK_CHECK_VERSION (3, 0, 0)
  shot = gdk_pixbuf_get_from_window (gdk, 0, 0, gdk_window_get_width (gdk),
                                     gdk_window_get_height (gdk));
#else
  shot = gdk_pixbuf_get_from_drawable (NULL, gdk, NULL, 0, 0, 0, 0,
                                       gdk_window_get_width (gdk),
                                       gdk_window_get_height (gdk));
#endif
  if (shot)
    {
      gdk_pixbuf_save (shot, png, "png", NULL, NULL);
      g_object_unref (shot);
    }
}

/* The labels with a mnemonic under `root`, and the widgets they reach. */
static void
mnemonic_labels (GtkWidget *root, GPtrArray *labels)
{
  if (GTK_IS_LABEL (root)
      && gtk_label_get_mnemonic_keyval (GTK_LABEL (root)) != GDK_KEY_VoidSymbol
      && gtk_label_get_mnemonic_widget (GTK_LABEL (root)))
    g_ptr_array_add (labels, root);
  if (GTK_IS_CONTAINER (root))
    {
      GList *children = gtk_container_get_children (GTK_CONTAINER (root));

      for (GList *l = children; l; l = l->next)
        mnemonic_labels (l->data, labels);
      g_list_free (children);
    }
}

static int
inside (GtkWidget *widget, GtkWidget *ancestor)
{
  return widget && (widget == ancestor
                    || gtk_widget_is_ancestor (widget, ancestor));
}

/* Alt+key as a user presses it, pressed again while another target of
 * the same key took it (mnemonics cycle), three times at most: `label`'s
 * target must get the focus or, a radio button, be chosen, a check button
 * toggled.  A button's is not pressed (OK, Help or Export would act): it
 * reaches a button that is shown. */
static int
press_mnemonic (GtkWidget *window, GtkWidget *label)
{
  GtkWidget *target = gtk_label_get_mnemonic_widget (GTK_LABEL (label));
  guint      key = gtk_label_get_mnemonic_keyval (GTK_LABEL (label));
  int        toggle = GTK_IS_TOGGLE_BUTTON (target), was = 0;

  if (GTK_IS_BUTTON (target) && ! toggle)
    return gtk_widget_get_mapped (label) && gtk_widget_get_mapped (target);
  if (toggle)
    was = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (target));
  for (int k = 0; k < 3; k++)
    {
      gtk_window_mnemonic_activate (GTK_WINDOW (window), key,
                                    gtk_window_get_mnemonic_modifier (
                                      GTK_WINDOW (window)));
      /* A button pressed by its key is released 250 ms later. */
      settle_for (toggle ? 400 : 50);
      if (toggle ? gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (target))
                     != was
                   || (GTK_IS_RADIO_BUTTON (target) && was)
                 : inside (gtk_window_get_focus (GTK_WINDOW (window)), target))
        return 1;
    }
  return 0;
}

/* Alt+key on `label`, which must reach its control; says which did not. */
static int
reaches (GtkWidget *window, GtkWidget *label, const char *when)
{
  if (press_mnemonic (window, label))
    return 1;
  printf ("  %sAlt+%s (%s) does not reach its control\n", when,
          gdk_keyval_name (gtk_label_get_mnemonic_keyval (GTK_LABEL (label))),
          gtk_label_get_label (GTK_LABEL (label)));
  return 0;
}

/* The window's labels with a mnemonic, afresh (a radio button's label
 * naming its channel is replaced when the channel changes). */
static GPtrArray *
window_mnemonics (GtkWidget *window)
{
  GPtrArray *labels = g_ptr_array_new ();

  mnemonic_labels (window, labels);
  return labels;
}

/* Every mnemonic reaches its control: an action's radio button chooses
 * it (Alt+B binarize, Alt+L CLAHE, Alt+R match, Alt+Z posterize...), and
 * then each of that action's own controls (its page, which the choice
 * shows) by its own; the controls outside the pages at any time. */
static void
check_mnemonics (GtkWidget *window, const DialogState *st)
{
  GtkWidget *pages = find (window, "action-pages");
  GPtrArray *labels;
  int        reached = 0, missed = 0;

  for (int a = 0; a < DIALOG_NUM_ACTIONS; a++)
    {
      char       name[32], when[32];
      GtkWidget *radio;

      g_snprintf (name, sizeof name, "action-%d", a);
      radio = find (window, name);
      labels = window_mnemonics (window);
      for (guint k = 0; k < labels->len; k++)
        if (inside (labels->pdata[k], radio))
          {
            guint key = gtk_label_get_mnemonic_keyval (labels->pdata[k]);

            /* The label may be replaced by the choice: the last use. */
            CHECK (press_mnemonic (window, labels->pdata[k])
                   && st->settings.action == a,
                   "Alt+%s chooses action %d (now %d)", gdk_keyval_name (key),
                   a, st->settings.action);
            break;
          }
      g_ptr_array_free (labels, TRUE);
      labels = window_mnemonics (window);
      g_snprintf (when, sizeof when, "action %d: ", a);
      for (guint k = 0; k < labels->len; k++)
        if (inside (labels->pdata[k], pages)
            && gtk_widget_get_mapped (labels->pdata[k]))
          {
            if (reaches (window, labels->pdata[k], when))
              reached++;
            else
              missed++;
          }
      g_ptr_array_free (labels, TRUE);
    }
  /* Keep as live filter can be used where the choice can be left live:
   * equalize's, not posterize's at its markers (the last chosen). */
  if (find (window, "live"))
    {
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (find (window,
                                                             "action-1")),
                                    TRUE);
      settle ();
    }
  labels = window_mnemonics (window);
  for (guint k = 0; k < labels->len; k++)
    {
      GtkWidget *label = labels->pdata[k];

      if (inside (label, pages)
          || GTK_IS_RADIO_BUTTON (gtk_label_get_mnemonic_widget (
                                    GTK_LABEL (label))))
        continue;
      if (reaches (window, label, ""))
        reached++;
      else
        missed++;
    }
  g_ptr_array_free (labels, TRUE);
  CHECK (missed == 0 && reached >= 10, "every mnemonic reaches its control, "
         "an action's own once it is chosen (%d reached, %d not)", reached,
         missed);
}

/* The window's size now, requested and shown, folded into the largest. */
static void
measure (GtkWidget *window, int *w_max, int *h_max, int *w, int *h)
{
  int req_w, req_h;

  settle ();
  window_sizes (window, &req_w, &req_h, w, h);
  *w_max = MAX (*w_max, MAX (*w, req_w));
  *h_max = MAX (*h_max, MAX (*h, req_h));
}

/* The whole window (the stand-in preview, Help, Cancel and OK) fits a
 * 1366 x 768 screen, requested and shown, whichever action is chosen
 * (its height stays), with a long GPU name, three columns of numbers
 * (RGB) and, the second time, the longest refusal; in logical pixels,
 * which at GDK_SCALE=2 the display doubles.  Keys reach every control. */
static void
check_window_fits (const gh_histogram *h)
{
  static const char *refusals[] = {
    NULL,
    "Layer 'Background copy #12' is indexed: its colours come from a "
    "palette; convert the image to RGB or grayscale first (Image > Mode)"
  };
  /* GIMP 3's dialog has Keep as live filter: it must fit too. */
  DialogHooks hooks = { unchanged_preview, refused_export, fake_picker,
                        NULL,
#if GTK_CHECK_VERSION (3, 0, 0)
                        fake_live_offered
#else
                        NULL
#endif
                      };

#if GTK_CHECK_VERSION (3, 0, 0)
  /* libgimpwidgets 3.2's preview converts colours with babl, which a
   * plug-in's gimp_main starts. */
  babl_init ();
#endif
  for (guint r = 0; r < G_N_ELEMENTS (refusals); r++)
    {
      const char    *what = refusals[r] ? "the refusing dialog" : "the dialog";
      DialogSettings settings;
      DialogState    st;
      GtkWidget     *window;
      int            w, h0 = 0, h1, w_max = 0, h_max = 0, scale = 1;
      int            same = 1, w0 = 0, same_w = 1;

      dialog_settings_defaults (&settings);
      dialog_state_init (&st, h, "cuda: NVIDIA GeForce RTX 4070 Laptop GPU",
                         0.0012, &settings);
      window = dialog_window_new (stand_in_preview_new (4000, 3000), &st,
                                  refusals[r], &hooks);
      gtk_widget_show (window);
#if GTK_CHECK_VERSION (3, 0, 0)
      scale = gtk_widget_get_scale_factor (window);
#endif
      for (int a = 0; a < DIALOG_NUM_ACTIONS; a++)
        {
          char name[32];

          g_snprintf (name, sizeof name, "action-%d", a);
          gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (find (window,
                                                                 name)),
                                        TRUE);
          measure (window, &w_max, &h_max, &w, &h1);
          if (a == 0)
            {
              h0 = h1;
              w0 = w;
            }
          same = same && h1 == h0;
          same_w = same_w && w == w0;
          if (a == DIALOG_ACTION_BINARIZE)
            window_shot (window, refusals[r] ? "ui_render_window_refusing.png"
                                             : "ui_render_window.png");
        }
      CHECK (same, "%s: choosing another action keeps its height", what);
      CHECK (same_w, "%s: choosing another action keeps its width (%d)",
             what, w0);
      if (! refusals[r])
        {
          check_mnemonics (window, &st);
          /* The longest reference name, chosen. */
          if (find (window, "reference"))
            gimp_int_combo_box_set_active (GIMP_INT_COMBO_BOX (
                                             find (window, "reference")),
                                           33);
          measure (window, &w_max, &h_max, &w, &h1);
          CHECK (w == w0, "%s: a long reference's name keeps the width "
                 "(%d, was %d)", what, w, w0);
          /* Last: the overlay is slow to draw on Xvfb. */
          gimp_int_combo_box_set_active (GIMP_INT_COMBO_BOX (
                                           find (window, "channel")),
                                         DIALOG_CHANNEL_RGB);
          measure (window, &w_max, &h_max, &w, &h1);
          CHECK (w == w0, "%s: the RGB overlay keeps the width (%d, was "
                 "%d)", what, w, w0);
        }
      printf ("  %s: at most %dx%d logical pixels, requested or shown "
              "(%dx%d on the display at scale %d)\n", what, w_max, h_max,
              w_max * scale, h_max * scale, scale);
      CHECK (w_max <= FIT_WIDTH && h_max <= FIT_HEIGHT, "%s fits %dx%d "
             "logical pixels (%dx%d)", what, FIT_WIDTH, FIT_HEIGHT, w_max,
             h_max);
      gtk_widget_destroy (window);
      dialog_state_clear (&st);
    }
}

/* The dialog's words: counts in groups of three digits, the backend
 * line saying what counted, the share's label saying what it is. */
static void
check_words (const gh_histogram *h)
{
  static const struct
  {
    double      count;
    const char *text;
  } counts[] = {
    { 0, "0" }, { 999, "999" }, { 1000, "1\xe2\x80\xaf" "000" },
    { 12000000, "12\xe2\x80\xaf" "000\xe2\x80\xaf" "000" },
    { 1234.5, "1\xe2\x80\xaf" "234.50" },
    { 100000.25, "100\xe2\x80\xaf" "000.25" },
  };
  static const struct
  {
    const char *backend, *text;
  } backends[] = {
    { "cpu: 2 threads", "Counted on the CPU, 2 threads, in 12.0 ms" },
    { "cuda: NVIDIA H100", "Counted on the GPU: NVIDIA H100, in 12.0 ms" },
    { "cpu: 16 threads + cuda: NVIDIA H100",
      "Counted on the CPU, 16 threads and the GPU: NVIDIA H100, in 12.0 ms" },
  };
  DialogSettings settings;

  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      char *got = dialog_count_text (counts[i].count);

      CHECK (! strcmp (got, counts[i].text), "%.2f is written '%s' (got "
             "'%s')", counts[i].count, counts[i].text, got);
      g_free (got);
    }
  dialog_settings_defaults (&settings);
  for (guint i = 0; i < G_N_ELEMENTS (backends); i++)
    {
      DialogState st;
      char       *got;

      dialog_state_init (&st, h, backends[i].backend, 0.012, &settings);
      got = dialog_state_backend_text (&st);
      CHECK (! strcmp (got, backends[i].text), "'%s' is told '%s' (got "
             "'%s')", backends[i].backend, backends[i].text, got);
      g_free (got);
      dialog_state_clear (&st);
    }
  CHECK (strstr (dialog_stat_label (DIALOG_STAT_PERCENTILE), "range")
         && strstr (dialog_stat_tip (DIALOG_STAT_PERCENTILE), "Percentile")
         && strstr (dialog_stat_tip (DIALOG_STAT_PERCENTILE), "share"),
         "the share of pixels in the range says what it is ('%s': %s)",
         dialog_stat_label (DIALOG_STAT_PERCENTILE),
         dialog_stat_tip (DIALOG_STAT_PERCENTILE));
  CHECK (! strstr (DIALOG_TITLE, "GPU"), "the title promises no GPU (%s)",
         DIALOG_TITLE);
}

int
main (int argc, char **argv)
{
  gh_histogram h;

  make_histogram (&h);
  check_bars (&h, HISTOGRAM_VIEW_LINEAR);
  check_bars (&h, HISTOGRAM_VIEW_LOG);
  check_marker (&h);
  check_range (&h);
  check_overlay (&h);
  check_gray_channels ();
  check_1024_bins ();
  check_glue_rules (&h);
  check_new_settings (&h);
  check_posterize (&h);
  check_words (&h);
  if (! gtk_init_check (&argc, &argv))
    {
      int status = test_summary ();

      printf ("no display: the GTK dialog's checks cannot run "
              "(run under xvfb-run): skipped\n");
      gh_histogram_clear (&h);
      return status ? status : 77;
    }
  check_dialog (&h, argc > 1 ? argv[1] : NULL);
  check_dialog_opening (&h);
  check_dialog_actions (&h);
  check_window_fits (&h);
  gh_histogram_clear (&h);
  return test_summary ();
}
