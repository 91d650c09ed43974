/* SPDX-License-Identifier: GPL-3.0-or-later */
/* histogram_view.h — a histogram drawn with cairo, and the pointer's bin.
 *
 * Pure cairo: no GTK, no GIMP, so the GTK 2 dialog, a GTK 3 / GIMP 3 port
 * and the tests (into an image surface, no display) share it.  The caller
 * fills a HistogramView from its data and draws it into any cairo_t at any
 * size; the same size turns pointer positions back into bins:
 *
 *   HistogramView view;
 *   histogram_view_init (&view, bins);
 *   view.counts[GH_CHANNEL_VALUE] = counts;      -- bins values, not copied
 *   view.shown = 1u << GH_CHANNEL_VALUE;         -- or red|green|blue
 *   histogram_view_add_marker (&view, otsu_bin, GH_CHANNEL_VALUE, "Otsu 97");
 *   histogram_view_draw (&view, cr, width, height);
 *   gint bin = histogram_view_bin_at (&view, width, height, pointer_x);
 *
 * Layout: a plot (bars on white) above a strip shading the levels from
 * black to the channel's colour.  Bin b's bar spans
 * histogram_view_bin_extent; its height is count / max of the plot's
 * height (linear) or log (1 + count) / log (1 + max) (logarithmic), max
 * over the channels shown.  A threshold marker t is a line on the border
 * between bin t (the dark class) and bin t + 1; several (the multi-level
 * Otsu thresholds) stack their labels from the top.
 */
#ifndef GH_UI_HISTOGRAM_VIEW_H
#define GH_UI_HISTOGRAM_VIEW_H

#include <cairo.h>
#include <glib.h>

#include "gpu_histogram.h"

typedef enum
{
  HISTOGRAM_VIEW_LINEAR = 0,
  HISTOGRAM_VIEW_LOG = 1
} HistogramViewScale;

/* The RGB overlay's three Otsu markers, or posterize's thresholds: up to
 * GH_MULTI_OTSU_MAX_CLASSES - 1. */
#define HISTOGRAM_VIEW_MAX_MARKERS 4

typedef struct
{
  gint       bin;       /* the last bin of the dark class */
  gh_channel channel;   /* its colour */
  gchar      label[32]; /* written at the top of the line */
} HistogramViewMarker;

typedef struct
{
  gint                bins;
  const gdouble      *counts[GH_NUM_CHANNELS]; /* bins values each */
  guint               shown;   /* 1 << channel: one channel, or the
                                  red | green | blue overlay */
  HistogramViewScale  scale;
  gint                lo, hi;  /* the selected bins; all: nothing marked */
  gint                hover;   /* the bin under the pointer; -1: none */
  gint                n_markers;
  HistogramViewMarker markers[HISTOGRAM_VIEW_MAX_MARKERS];
} HistogramView;

/* Nothing shown, linear, every bin selected, no hover, no marker. */
void histogram_view_init (HistogramView *view, gint bins);

/* Adds a threshold marker (ignored past HISTOGRAM_VIEW_MAX_MARKERS). */
void histogram_view_add_marker (HistogramView *view, gint bin,
                                gh_channel channel, const gchar *label);

void histogram_view_draw (const HistogramView *view, cairo_t *cr,
                          gint width, gint height);

/* Where the bars stand in a view of this size. */
void histogram_view_plot_area (gint width, gint height,
                               cairo_rectangle_t *plot);

/* The left and right x of bin's bar. */
void histogram_view_bin_extent (const HistogramView *view, gint width,
                                gint height, gint bin, gdouble *x0,
                                gdouble *x1);

/* The bin under x (clamped to the first and last). */
gint histogram_view_bin_at (const HistogramView *view, gint width,
                            gint height, gdouble x);

/* The colour a channel is drawn in (value, alpha and luminance: dark
 * gray). */
void histogram_view_channel_rgb (gh_channel channel, gdouble rgb[3]);

#endif
