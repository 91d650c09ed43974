/* SPDX-License-Identifier: GPL-3.0-or-later */
/* histogram_view.c — a histogram drawn with cairo, and the pointer's bin. */
#include "histogram_view.h"

#include <math.h>
#include <string.h>

#define MARGIN       6.0
#define STRIP        8.0   /* the level shading under the plot */
#define TICKS        13.0  /* the level numbers under the strip */
#define FONT_SIZE    10.0
#define OUTSIDE      0.35  /* opacity of bars outside the selected range */
#define LABEL_SIZE   11.0  /* the markers' labels */
#define LABEL_SHADE  0.55  /* their text: the line's colour darkened, at
                              least 4.5 : 1 against white for every
                              channel's colour */

static const gdouble accent[3] = { 0.95, 0.45, 0.0 };

void
histogram_view_init (HistogramView *view, gint bins)
{
  memset (view, 0, sizeof *view);
  view->bins = bins;
  view->scale = HISTOGRAM_VIEW_LINEAR;
  view->lo = 0;
  view->hi = bins - 1;
  view->hover = -1;
}

void
histogram_view_add_marker (HistogramView *view, gint bin, gh_channel channel,
                           const gchar *label)
{
  HistogramViewMarker *m;

  if (view->n_markers >= HISTOGRAM_VIEW_MAX_MARKERS)
    return;
  m = &view->markers[view->n_markers++];
  m->bin = bin;
  m->channel = channel;
  g_strlcpy (m->label, label ? label : "", sizeof m->label);
}

void
histogram_view_channel_rgb (gh_channel channel, gdouble rgb[3])
{
  static const gdouble colours[GH_NUM_CHANNELS][3] = {
    { 0.25, 0.25, 0.25 }, /* value */
    { 0.85, 0.15, 0.15 }, /* red */
    { 0.10, 0.65, 0.10 }, /* green */
    { 0.15, 0.25, 0.90 }, /* blue */
    { 0.25, 0.25, 0.25 }, /* alpha */
    { 0.25, 0.25, 0.25 }, /* luminance */
  };

  memcpy (rgb, colours[channel < GH_NUM_CHANNELS ? channel : 0],
          3 * sizeof rgb[0]);
}

void
histogram_view_plot_area (gint width, gint height, cairo_rectangle_t *plot)
{
  plot->x = MARGIN;
  plot->y = MARGIN;
  plot->width = MAX (width - 2 * MARGIN, 1.0);
  plot->height = MAX (height - 2 * MARGIN - STRIP - TICKS, 1.0);
}

void
histogram_view_bin_extent (const HistogramView *view, gint width,
                           gint height, gint bin, gdouble *x0, gdouble *x1)
{
  cairo_rectangle_t plot;

  histogram_view_plot_area (width, height, &plot);
  *x0 = plot.x + plot.width * bin / view->bins;
  *x1 = plot.x + plot.width * (bin + 1) / view->bins;
}

gint
histogram_view_bin_at (const HistogramView *view, gint width, gint height,
                       gdouble x)
{
  cairo_rectangle_t plot;

  histogram_view_plot_area (width, height, &plot);
  return CLAMP ((gint) floor ((x - plot.x) * view->bins / plot.width), 0,
                view->bins - 1);
}

static gboolean
single_channel (const HistogramView *view)
{
  return (view->shown & (view->shown - 1)) == 0;
}

static gdouble
bar_scale (const HistogramView *view, gdouble count, gdouble max)
{
  if (max <= 0 || count <= 0)
    return 0;
  return view->scale == HISTOGRAM_VIEW_LOG ? log1p (count) / log1p (max)
                                           : count / max;
}

static void
draw_bars (const HistogramView *view, cairo_t *cr, gint width, gint height,
           const cairo_rectangle_t *plot)
{
  gdouble max = 0;
  gboolean overlay = ! single_channel (view);

  for (gint c = 0; c < GH_NUM_CHANNELS; c++)
    if ((view->shown & (1u << c)) && view->counts[c])
      for (gint b = 0; b < view->bins; b++)
        max = MAX (max, view->counts[c][b]);

  /* In the overlay each channel multiplies a light tint of its colour
   * onto the others: one channel alone keeps its colour, two or three
   * together darken towards black, as GIMP's RGB histogram shows them. */
  if (overlay)
    cairo_set_operator (cr, CAIRO_OPERATOR_MULTIPLY);
  for (gint c = 0; c < GH_NUM_CHANNELS; c++)
    {
      gdouble rgb[3];

      if (! (view->shown & (1u << c)) || ! view->counts[c])
        continue;
      histogram_view_channel_rgb ((gh_channel) c, rgb);
      if (overlay)
        for (gint k = 0; k < 3; k++)
          rgb[k] = 0.35 + 0.65 * rgb[k];
      for (gint b = 0; b < view->bins; b++)
        {
          gdouble h = plot->height * bar_scale (view, view->counts[c][b], max);
          gdouble x0, x1;

          if (h <= 0)
            continue;
          histogram_view_bin_extent (view, width, height, b, &x0, &x1);
          cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2],
                                 b < view->lo || b > view->hi ? OUTSIDE : 1);
          cairo_rectangle (cr, x0, plot->y + plot->height - h, x1 - x0, h);
          cairo_fill (cr);
        }
    }
  cairo_set_operator (cr, CAIRO_OPERATOR_OVER);
}

/* Black to the channel's colour (white for the gray channels), and the
 * levels 0, 64, 128, 192, 255 under it. */
static void
draw_strip (const HistogramView *view, cairo_t *cr,
            const cairo_rectangle_t *plot)
{
  cairo_pattern_t *ramp;
  gdouble          end[3] = { 1, 1, 1 };
  gdouble          y = plot->y + plot->height + 2;
  static const gint levels[] = { 0, 64, 128, 192, 255 };

  gint             only = single_channel (view)
                          ? g_bit_nth_lsf (view->shown, -1) : -1;

  if (only >= GH_CHANNEL_RED && only <= GH_CHANNEL_BLUE)
    histogram_view_channel_rgb ((gh_channel) only, end);
  ramp = cairo_pattern_create_linear (plot->x, 0, plot->x + plot->width, 0);
  cairo_pattern_add_color_stop_rgb (ramp, 0, 0, 0, 0);
  cairo_pattern_add_color_stop_rgb (ramp, 1, end[0], end[1], end[2]);
  cairo_set_source (cr, ramp);
  cairo_rectangle (cr, plot->x, y, plot->width, STRIP - 2);
  cairo_fill (cr);
  cairo_pattern_destroy (ramp);

  cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
  cairo_set_font_size (cr, FONT_SIZE);
  for (guint i = 0; i < G_N_ELEMENTS (levels); i++)
    {
      gchar                text[8];
      cairo_text_extents_t ext;
      gdouble              x = plot->x + plot->width * levels[i] / 255.0;

      g_snprintf (text, sizeof text, "%d", levels[i]);
      cairo_text_extents (cr, text, &ext);
      x = CLAMP (x - ext.width / 2, plot->x,
                 plot->x + plot->width - ext.x_advance);
      cairo_move_to (cr, x, y + STRIP + FONT_SIZE);
      cairo_show_text (cr, text);
    }
}

static void
draw_markers (const HistogramView *view, cairo_t *cr, gint width,
              gint height, const cairo_rectangle_t *plot)
{
  for (gint i = 0; i < view->n_markers; i++)
    {
      const HistogramViewMarker *m = &view->markers[i];
      gdouble                    rgb[3], x0, x, tx, ty;
      cairo_text_extents_t       ext;

      if (single_channel (view))
        memcpy (rgb, accent, sizeof rgb);
      else
        histogram_view_channel_rgb (m->channel, rgb);
      histogram_view_bin_extent (view, width, height, m->bin, &x0, &x);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_set_line_width (cr, 2);
      cairo_move_to (cr, x, plot->y);
      cairo_line_to (cr, x, plot->y + plot->height);
      cairo_stroke (cr);

      /* The label beside the line, on whichever side it fits; several
       * markers stack their labels.  Bold, in a darker shade of the
       * line's colour on an opaque white box edged in that colour: the
       * line's orange or green on white is too faint to read as text. */
      cairo_save (cr);
      cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                              CAIRO_FONT_WEIGHT_BOLD);
      cairo_set_font_size (cr, LABEL_SIZE);
      cairo_text_extents (cr, m->label, &ext);
      tx = x + 5 + ext.x_advance <= plot->x + plot->width
             ? x + 5 : x - 5 - ext.x_advance;
      ty = plot->y + LABEL_SIZE + 3 + i * (LABEL_SIZE + 4);
      cairo_rectangle (cr, tx - 2.5, ty - LABEL_SIZE - 0.5,
                       ext.x_advance + 5, LABEL_SIZE + 4);
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_fill_preserve (cr);
      cairo_set_line_width (cr, 1);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_stroke (cr);
      cairo_set_source_rgb (cr, LABEL_SHADE * rgb[0], LABEL_SHADE * rgb[1],
                            LABEL_SHADE * rgb[2]);
      cairo_move_to (cr, tx, ty);
      cairo_show_text (cr, m->label);
      cairo_restore (cr);
    }
}

void
histogram_view_draw (const HistogramView *view, cairo_t *cr, gint width,
                     gint height)
{
  cairo_rectangle_t plot;

  histogram_view_plot_area (width, height, &plot);
  cairo_save (cr);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                          CAIRO_FONT_WEIGHT_NORMAL);

  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  if (view->lo > 0 || view->hi < view->bins - 1)
    {
      gdouble x0, x1, unused;

      histogram_view_bin_extent (view, width, height, view->lo, &x0, &unused);
      histogram_view_bin_extent (view, width, height, view->hi, &unused, &x1);
      cairo_set_source_rgb (cr, 0.86, 0.91, 1.0);
      cairo_rectangle (cr, x0, plot.y, x1 - x0, plot.height);
      cairo_fill (cr);
    }

  draw_bars (view, cr, width, height, &plot);

  if (view->hover >= 0 && view->hover < view->bins)
    {
      gdouble x0, x1;

      histogram_view_bin_extent (view, width, height, view->hover, &x0, &x1);
      cairo_set_source_rgba (cr, 0, 0, 0, 0.5);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, floor ((x0 + x1) / 2) + 0.5, plot.y);
      cairo_line_to (cr, floor ((x0 + x1) / 2) + 0.5, plot.y + plot.height);
      cairo_stroke (cr);
    }

  draw_markers (view, cr, width, height, &plot);

  cairo_set_source_rgb (cr, 0.6, 0.6, 0.6);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, plot.x - 0.5, plot.y - 0.5, plot.width + 1,
                   plot.height + 1);
  cairo_stroke (cr);

  draw_strip (view, cr, &plot);
  cairo_restore (cr);
}
