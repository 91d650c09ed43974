/* operations.c — analyse, equalize, binarize, export one drawable. */
#include "operations.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "csv.h"
#include "errors.h"

const gchar *
operations_channel_name (gint channel)
{
  static const gchar *const names[GH_NUM_CHANNELS]
    = { "value", "red", "green", "blue", "alpha", "luminance" };

  return channel >= 0 && channel < GH_NUM_CHANNELS ? names[channel] : "?";
}

gboolean
operations_histogram (gh_engine *engine, gint32 drawable, gh_histogram *hist,
                      const PixelsProgress *progress, GError **error)
{
  PixelsRegion region;

  return pixels_region_init (drawable, &region, error)
         && pixels_histogram (engine, &region, hist, progress, error);
}

void
operations_stats (const gh_histogram *hist,
                  gdouble stats[OPERATIONS_NUM_STATS])
{
  memset (stats, 0, OPERATIONS_NUM_STATS * sizeof stats[0]);
  for (gint c = 0; c < GH_NUM_CHANNELS; c++)
    {
      gdouble *out = stats + c * OPERATIONS_STATS_PER_CHANNEL;
      gh_stats s;

      if (! (hist->channels & (1u << c))
          || gh_stats_compute (hist, (gh_channel) c, 0, OPERATIONS_BINS - 1,
                               &s) != GH_OK)
        continue;
      out[0] = s.count;
      out[1] = s.min;
      out[2] = s.max;
      out[3] = s.mean;
      out[4] = s.median;
      out[5] = s.std_dev;
      out[6] = s.otsu;
    }
}

void
operations_counts (const gh_histogram *hist,
                   gdouble counts[OPERATIONS_NUM_BINS])
{
  for (gint c = 0; c < GH_NUM_CHANNELS; c++)
    gh_histogram_counts (hist, (gh_channel) c, counts + c * OPERATIONS_BINS);
}

static void
set_drawable_error (GError **error, gint32 drawable, const gchar *why)
{
  gchar *name = gimp_item_get_name (drawable);

  g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_FAILED, "'%s' %s",
               name, why);
  g_free (name);
}

/* Whether the plug-in may rewrite this drawable's pixels; every refusal
 * comes before any pixel is touched. */
static gboolean
check_changeable (gint32 drawable, GError **error)
{
  const gchar *why = NULL;

  if (gimp_item_is_group (drawable))
    why = "is a layer group; pick one of its layers";
  else if (gimp_drawable_is_indexed (drawable))
    why = "is indexed: its colours come from a palette; convert the image "
          "to RGB or grayscale first (Image > Mode)";
  else if (gimp_item_get_lock_content (drawable))
    why = "has its pixels locked";
  else
    switch (gimp_image_get_precision (gimp_item_get_image (drawable)))
      {
      case GIMP_PRECISION_U8_LINEAR:
      case GIMP_PRECISION_U8_GAMMA:
        break;
      default:
        /* The engine applies 8-bit tables only; writing them back would
         * throw away the layer's extra precision. */
        why = "has more than 8 bits per sample, which this version can "
              "analyse but not change yet; convert to 8 bit "
              "(Image > Precision) to apply";
      }
  if (why)
    {
      set_drawable_error (error, drawable, why);
      return FALSE;
    }
  return TRUE;
}

static gboolean
changeable_region (gint32 drawable, PixelsRegion *region, GError **error)
{
  return check_changeable (drawable, error)
         && pixels_region_init (drawable, region, error);
}

/* The histogram to apply from: the caller's, or computed here over the
 * first half of the progress; the apply gets the rest. */
static gboolean
ensure_histogram (gh_engine *engine, const PixelsRegion *region,
                  const gh_histogram **hist, gh_histogram *own,
                  const PixelsProgress *progress,
                  PixelsProgress *apply_progress, GError **error)
{
  PixelsProgress half = { 0, 0 };

  if (progress)
    *apply_progress = *progress;
  if (*hist)
    return TRUE;
  if (progress)
    {
      half.start = progress->start;
      half.span = progress->span / 2;
      apply_progress->start = half.start + half.span;
      apply_progress->span = half.span;
    }
  if (! pixels_histogram (engine, region, own, progress ? &half : NULL,
                          error))
    return FALSE;
  *hist = own;
  return TRUE;
}

static gboolean
apply_tables_strip (gh_layout layout, guchar *pixels, gsize width,
                    gsize rows, gsize stride, gpointer data, GError **error)
{
  gh_error err;

  return errors_from_engine (gh_apply_tables (layout, pixels, width, rows,
                                              stride, data, &err),
                             &err, error);
}

/* Luminance-only equalization.  The colour model: a pixel's R'G'B' is its
 * luminance L (GIMP's weights on the stored perceptual values) plus a
 * chroma offset d = c - L.  Scaling c by L_new / L scales both, which keeps
 * the hue and the R':G':B' ratios (HSV saturation).  Where that would push
 * a sample past 255, the chroma is shrunk instead, c = L_new + s d with the
 * largest s that fits: luminance and hue stay, saturation drops, and at
 * L_new = 255 the pixel is white. */
static void
equalize_luminance_pixel (guchar *p, gh_layout layout, const guint16 *table)
{
  gdouble target = MIN (table[gh_pixel_level (layout, p,
                                              GH_CHANNEL_LUMINANCE)], 255);
  gdouble lum = GIMP_RGB_LUMINANCE (p[0], p[1], p[2]);
  gdouble c[3], top = 0;

  for (gint k = 0; k < 3; k++)
    {
      /* Black has no hue: it becomes the gray of the new luminance. */
      c[k] = lum > 0 ? p[k] * (target / lum) : target;
      top = MAX (top, c[k]);
    }
  if (top > 255)
    for (gint k = 0; k < 3; k++)
      c[k] = target + (255 - target) / (top - target) * (c[k] - target);
  for (gint k = 0; k < 3; k++)
    p[k] = (guchar) CLAMP (floor (c[k] + 0.5), 0, 255);
}

static gboolean
equalize_luminance_strip (gh_layout layout, guchar *pixels, gsize width,
                          gsize rows, gsize stride, gpointer data,
                          GError **error)
{
  (void) error;
  for (gsize y = 0; y < rows; y++)
    {
      guchar *p = pixels + y * stride;

      for (gsize x = 0; x < width; x++, p += (gsize) layout)
        equalize_luminance_pixel (p, layout, data);
    }
  return TRUE;
}

gboolean
operations_equalize (gh_engine *engine, gint32 drawable, gint mode,
                     const gh_histogram *hist, const PixelsProgress *progress,
                     GError **error)
{
  PixelsRegion   region;
  PixelsProgress apply_progress;
  gh_histogram   own;
  gdouble        counts[OPERATIONS_BINS];
  guint16        tables[3][OPERATIONS_BINS];
  gboolean       ok;

  if (mode != OPERATIONS_EQUALIZE_CHANNELS
      && mode != OPERATIONS_EQUALIZE_LUMINANCE)
    {
      g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_CALLING,
                   "equalize mode %d is not 0 (each channel) or 1 "
                   "(luminance)", mode);
      return FALSE;
    }
  gh_histogram_init (&own);
  ok = changeable_region (drawable, &region, error)
       && ensure_histogram (engine, &region, &hist, &own, progress,
                            &apply_progress, error);
  if (ok && (region.layout == GH_LAYOUT_RGB || region.layout == GH_LAYOUT_RGBA)
      && mode == OPERATIONS_EQUALIZE_LUMINANCE)
    {
      gh_histogram_counts (hist, GH_CHANNEL_LUMINANCE, counts);
      gh_equalize_table (counts, OPERATIONS_BINS, tables[0]);
      ok = pixels_apply (&region, equalize_luminance_strip, tables[0],
                         progress ? &apply_progress : NULL, error);
    }
  else if (ok)
    {
      /* On gray, luminance is the gray level: both modes are the same. */
      gboolean            rgb = region.layout == GH_LAYOUT_RGB
                                || region.layout == GH_LAYOUT_RGBA;
      const guint16 *const t[3] = { tables[0], tables[1], tables[2] };

      for (gint k = 0; k < (rgb ? 3 : 1); k++)
        {
          gh_histogram_counts (hist,
                               rgb ? (gh_channel) (GH_CHANNEL_RED + k)
                                   : GH_CHANNEL_VALUE,
                               counts);
          gh_equalize_table (counts, OPERATIONS_BINS, tables[k]);
        }
      ok = pixels_apply (&region, apply_tables_strip, (gpointer) t,
                         progress ? &apply_progress : NULL, error);
    }
  gh_histogram_clear (&own);
  return ok;
}

typedef struct
{
  gh_channel channel;
  gint       threshold;
} ThresholdData;

static gboolean
apply_threshold_strip (gh_layout layout, guchar *pixels, gsize width,
                       gsize rows, gsize stride, gpointer data,
                       GError **error)
{
  const ThresholdData *t = data;
  gh_error             err;

  return errors_from_engine (gh_apply_threshold (layout, pixels, width, rows,
                                                 stride, t->channel,
                                                 t->threshold, &err),
                             &err, error);
}

gboolean
operations_binarize (gh_engine *engine, gint32 drawable, gint channel,
                     gint threshold, const gh_histogram *hist, gint *used,
                     const PixelsProgress *progress, GError **error)
{
  static const guchar black[4] = { 0 };
  PixelsRegion        region;
  PixelsProgress      apply_progress = { 0, 0 };
  gh_histogram        own;
  ThresholdData       t = { (gh_channel) channel, threshold };
  gboolean            ok = TRUE;

  if (channel < 0 || channel >= GH_NUM_CHANNELS)
    {
      g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_CALLING,
                   "channel %d is not one of GIMP's histogram channels "
                   "(0 value, 1 red, 2 green, 3 blue, 4 alpha, "
                   "5 luminance)", channel);
      return FALSE;
    }
  if (threshold < -1 || threshold > 254)
    {
      g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_CALLING,
                   "threshold %d is not -1 (Otsu) or 0..254", threshold);
      return FALSE;
    }
  if (! changeable_region (drawable, &region, error))
    return FALSE;
  /* gh_pixel_level says -1 for a channel the layout lacks. */
  if (gh_pixel_level (region.layout, black, t.channel) < 0)
    {
      gchar *why = g_strdup_printf ("has no %s channel",
                                    operations_channel_name (channel));

      set_drawable_error (error, drawable, why);
      g_free (why);
      return FALSE;
    }
  gh_histogram_init (&own);
  if (threshold >= 0)
    {
      /* A fixed threshold needs no histogram: one pass only. */
      if (progress)
        apply_progress = *progress;
    }
  else if ((ok = ensure_histogram (engine, &region, &hist, &own, progress,
                                   &apply_progress, error)))
    {
      gdouble counts[OPERATIONS_BINS];

      gh_histogram_counts (hist, t.channel, counts);
      t.threshold = gh_otsu_threshold (counts, 0, OPERATIONS_BINS - 1);
    }
  if (ok)
    ok = pixels_apply (&region, apply_threshold_strip, &t,
                       progress ? &apply_progress : NULL, error);
  if (ok)
    *used = t.threshold;
  gh_histogram_clear (&own);
  return ok;
}

gboolean
operations_export (gh_engine *engine, gint32 drawable, const gchar *filename,
                   GError **error)
{
  static const gchar *const header = "bin,value,red,green,blue,alpha,luminance";
  gh_histogram              hist;
  FILE                     *file;
  gboolean                  ok;

  if (! filename || ! *filename)
    {
      g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_CALLING,
                   "no file name given for the CSV");
      return FALSE;
    }
  gh_histogram_init (&hist);
  ok = operations_histogram (engine, drawable, &hist, NULL, error);
  if (ok && ! (file = g_fopen (filename, "w")))
    {
      g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_FAILED,
                   "cannot write '%s': %s", filename, g_strerror (errno));
      ok = FALSE;
    }
  if (ok)
    {
      fprintf (file, "%s\n", header);
      for (gint b = 0; b < OPERATIONS_BINS; b++)
        {
          fprintf (file, "%d", b);
          for (gint c = 0; c < GH_NUM_CHANNELS; c++)
            {
              fputc (',', file);
              csv_write_number (file, gh_histogram_count (&hist,
                                                          (gh_channel) c, b));
            }
          fputc ('\n', file);
        }
      if (ferror (file) | fclose (file))
        {
          g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_FAILED,
                       "cannot write '%s': %s", filename, g_strerror (errno));
          ok = FALSE;
        }
    }
  gh_histogram_clear (&hist);
  return ok;
}
