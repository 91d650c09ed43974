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
          || gh_stats_compute (hist, (gh_channel) c, 0, hist->bins - 1,
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
  gdouble *bins = g_new (gdouble, hist->bins);
  gint     last = hist->bins - 1;

  memset (counts, 0, OPERATIONS_NUM_BINS * sizeof counts[0]);
  for (gint c = 0; c < GH_NUM_CHANNELS; c++)
    {
      gh_histogram_counts (hist, (gh_channel) c, bins);
      /* Bin k's level k * 255 / last, rounded half up in integers; with
       * 256 bins each bin is its own level. */
      for (gint k = 0; k <= last; k++)
        counts[c * OPERATIONS_BINS
               + (2 * k * (OPERATIONS_BINS - 1) + last) / (2 * last)]
          += bins[k];
    }
  g_free (bins);
}

static void
set_drawable_error (GError **error, gint32 drawable, const gchar *why)
{
  gchar *name = gimp_item_get_name (drawable);

  g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_FAILED, "'%s' %s",
               name, why);
  g_free (name);
}

gboolean
operations_check_changeable (gint32 drawable, GError **error)
{
  const gchar *why = NULL;

  if (gimp_item_is_group (drawable))
    why = "is a layer group; pick one of its layers";
  else if (gimp_drawable_is_indexed (drawable))
    why = "is indexed: its colours come from a palette; convert the image "
          "to RGB or grayscale first (Image > Mode)";
  else if (gimp_item_get_lock_content (drawable))
    why = "has its pixels locked";
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
  return operations_check_changeable (drawable, error)
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
  if (*hist && (*hist)->bins != region->bins)
    {
      g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_CALLING,
                   "the histogram given has %d bins, the drawable's has %d",
                   (*hist)->bins, region->bins);
      return FALSE;
    }
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

/* What equalize maps colour sample k (gray: 0) through: OpenCV's 8-bit
 * table on U8 regions; on F32 regions the continuous curve, which keeps
 * distinct levels distinct at any precision. */
typedef struct
{
  guint16           tables[3][OPERATIONS_BINS];
  gh_equalize_curve curves[3];
} Equalizer;

static gboolean
equalizer_set (Equalizer *eq, gint k, const PixelsRegion *region,
               const gh_histogram *hist, gh_channel channel, GError **error)
{
  gdouble  *counts = g_new (gdouble, hist->bins);
  gh_status status = GH_OK;

  gh_histogram_counts (hist, channel, counts);
  if (region->sample == GH_SAMPLE_U8)
    gh_equalize_table (counts, OPERATIONS_BINS, eq->tables[k]);
  else
    status = gh_equalize_curve_init (&eq->curves[k], counts, hist->bins);
  g_free (counts);
  if (status != GH_OK)
    g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_FAILED,
                 "no memory for an equalization curve of %d bins",
                 hist->bins);
  return status == GH_OK;
}

static gboolean
equalize_channels_strip (const PixelsRegion *region, gpointer pixels,
                         gsize width, gsize rows, gsize stride, gpointer data,
                         GError **error)
{
  const Equalizer *eq = data;
  gh_error         err;
  gh_status        status;

  if (region->sample == GH_SAMPLE_U8)
    {
      const guint16 *const t[3] = { eq->tables[0], eq->tables[1],
                                    eq->tables[2] };

      status = gh_apply_tables (region->layout, pixels, width, rows, stride,
                                t, &err);
    }
  else
    {
      const gh_equalize_curve *const c[3] = { &eq->curves[0], &eq->curves[1],
                                              &eq->curves[2] };

      status = gh_apply_curves_f32 (region->layout, pixels, width, rows,
                                    stride, c, &err);
    }
  return errors_from_engine (status, &err, error);
}

/* Luminance-only equalization.  The colour model: a pixel's R'G'B' (c,
 * white at `white`) is its luminance L (GIMP's weights on the stored
 * perceptual values) plus a chroma offset d = c - L.  Scaling c by
 * target / L scales both, which keeps the hue and the R':G':B' ratios
 * (HSV saturation).  Where that would push a sample past white, the chroma
 * is shrunk instead, c = target + s d with the largest s that fits:
 * luminance and hue stay, saturation drops, and at target = white the
 * pixel is white.  One model for both sample types. */
static void
luminance_shift (gdouble c[3], gdouble target, gdouble white)
{
  gdouble lum = GIMP_RGB_LUMINANCE (c[0], c[1], c[2]);
  gdouble top = 0;

  for (gint k = 0; k < 3; k++)
    {
      /* Black has no hue: it becomes the gray of the new luminance. */
      c[k] = lum > 0 ? c[k] * (target / lum) : target;
      top = MAX (top, c[k]);
    }
  if (top > white)
    for (gint k = 0; k < 3; k++)
      c[k] = target + (white - target) / (top - target) * (c[k] - target);
}

static void
equalize_luminance_u8 (guchar *p, gh_layout layout, const guint16 *table)
{
  gdouble c[3] = { p[0], p[1], p[2] };

  luminance_shift (c, MIN (table[gh_pixel_level (layout, p,
                                                 GH_CHANNEL_LUMINANCE)],
                           255),
                   255);
  for (gint k = 0; k < 3; k++)
    p[k] = (guchar) CLAMP (floor (c[k] + 0.5), 0, 255);
}

static void
equalize_luminance_f32 (gfloat *p, const gh_equalize_curve *curve)
{
  gdouble c[3] = { p[0], p[1], p[2] };

  luminance_shift (c, gh_equalize_curve_map (curve, GIMP_RGB_LUMINANCE (
                                               p[0], p[1], p[2])),
                   1.0);
  /* Float layers may hold samples outside 0..1 (negative chroma, say);
   * the equalized result lies within the range. */
  for (gint k = 0; k < 3; k++)
    p[k] = (gfloat) CLAMP (c[k], 0.0, 1.0);
}

static gboolean
equalize_luminance_strip (const PixelsRegion *region, gpointer pixels,
                          gsize width, gsize rows, gsize stride,
                          gpointer data, GError **error)
{
  const Equalizer *eq = data;
  gsize            bpp = babl_format_get_bytes_per_pixel (region->format);

  (void) error;
  for (gsize y = 0; y < rows; y++)
    {
      guchar *p = (guchar *) pixels + y * stride;

      for (gsize x = 0; x < width; x++, p += bpp)
        if (region->sample == GH_SAMPLE_U8)
          equalize_luminance_u8 (p, region->layout, eq->tables[0]);
        else
          equalize_luminance_f32 ((gfloat *) p, &eq->curves[0]);
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
  Equalizer      eq;
  gboolean       ok, rgb;

  if (mode != OPERATIONS_EQUALIZE_CHANNELS
      && mode != OPERATIONS_EQUALIZE_LUMINANCE)
    {
      g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_CALLING,
                   "equalize mode %d is not 0 (each channel) or 1 "
                   "(luminance)", mode);
      return FALSE;
    }
  memset (&eq, 0, sizeof eq);
  gh_histogram_init (&own);
  ok = changeable_region (drawable, &region, error)
       && ensure_histogram (engine, &region, &hist, &own, progress,
                            &apply_progress, error);
  rgb = ok && (region.layout == GH_LAYOUT_RGB
               || region.layout == GH_LAYOUT_RGBA);
  if (rgb && mode == OPERATIONS_EQUALIZE_LUMINANCE)
    ok = equalizer_set (&eq, 0, &region, hist, GH_CHANNEL_LUMINANCE, error)
         && pixels_apply (&region, equalize_luminance_strip, &eq,
                          progress ? &apply_progress : NULL, error);
  else if (ok)
    {
      /* On gray, luminance is the gray level: both modes are the same. */
      for (gint k = 0; ok && k < (rgb ? 3 : 1); k++)
        ok = equalizer_set (&eq, k, &region, hist,
                            rgb ? (gh_channel) (GH_CHANNEL_RED + k)
                                : GH_CHANNEL_VALUE,
                            error);
      ok = ok && pixels_apply (&region, equalize_channels_strip, &eq,
                               progress ? &apply_progress : NULL, error);
    }
  for (gint k = 0; k < 3; k++)
    gh_equalize_curve_clear (&eq.curves[k]);
  gh_histogram_clear (&own);
  return ok;
}

typedef struct
{
  gh_channel channel;
  gint       threshold; /* in the region's bins: bins above it are white */
} ThresholdData;

static gboolean
apply_threshold_strip (const PixelsRegion *region, gpointer pixels,
                       gsize width, gsize rows, gsize stride, gpointer data,
                       GError **error)
{
  const ThresholdData *t = data;
  gh_error             err;

  return errors_from_engine (
    region->sample == GH_SAMPLE_U8
      ? gh_apply_threshold (region->layout, pixels, width, rows, stride,
                            t->channel, t->threshold, &err)
      : gh_apply_threshold_f32 (region->layout, pixels, width, rows, stride,
                                t->channel, t->threshold, region->bins,
                                &err),
    &err, error);
}

/* The region a binarize on `channel` rewrites, once the channel is one
 * of GIMP's and the drawable has it and may be changed. */
static gboolean
binarize_region (gint32 drawable, gint channel, PixelsRegion *region,
                 GError **error)
{
  static const guchar black[4] = { 0 };

  if (channel < 0 || channel >= GH_NUM_CHANNELS)
    {
      g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_CALLING,
                   "channel %d is not one of GIMP's histogram channels "
                   "(0 value, 1 red, 2 green, 3 blue, 4 alpha, "
                   "5 luminance)", channel);
      return FALSE;
    }
  if (! changeable_region (drawable, region, error))
    return FALSE;
  /* gh_pixel_level says -1 for a channel the layout lacks. */
  if (gh_pixel_level (region->layout, black, (gh_channel) channel) < 0)
    {
      gchar *why = g_strdup_printf ("has no %s channel",
                                    operations_channel_name (channel));

      set_drawable_error (error, drawable, why);
      g_free (why);
      return FALSE;
    }
  return TRUE;
}

gboolean
operations_binarize (gh_engine *engine, gint32 drawable, gint channel,
                     gint threshold, const gh_histogram *hist, gint *used,
                     const PixelsProgress *progress, GError **error)
{
  PixelsRegion   region;
  PixelsProgress apply_progress = { 0, 0 };
  gh_histogram   own;
  ThresholdData  t = { (gh_channel) channel, threshold };
  gboolean       ok = TRUE;

  if (threshold < -1 || threshold > 254)
    {
      g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_CALLING,
                   "threshold %d is not -1 (Otsu) or 0..254", threshold);
      return FALSE;
    }
  if (! binarize_region (drawable, channel, &region, error))
    return FALSE;
  gh_histogram_init (&own);
  if (threshold >= 0)
    {
      /* A fixed threshold needs no histogram: one pass only. */
      t.threshold = gh_threshold_bin (threshold, region.bins);
      if (progress)
        apply_progress = *progress;
    }
  else if ((ok = ensure_histogram (engine, &region, &hist, &own, progress,
                                   &apply_progress, error)))
    {
      gdouble *counts = g_new (gdouble, hist->bins);

      gh_histogram_counts (hist, t.channel, counts);
      t.threshold = gh_otsu_threshold (counts, 0, hist->bins - 1);
      g_free (counts);
    }
  if (ok)
    ok = pixels_apply (&region, apply_threshold_strip, &t,
                       progress ? &apply_progress : NULL, error);
  if (ok)
    *used = threshold >= 0 ? threshold
                           : gh_threshold_level (t.threshold, region.bins);
  gh_histogram_clear (&own);
  return ok;
}

gboolean
operations_binarize_bin (gint32 drawable, gint channel, gint bin,
                         const gh_histogram *hist,
                         const PixelsProgress *progress, GError **error)
{
  PixelsRegion  region;
  ThresholdData t = { (gh_channel) channel, bin };

  if (! binarize_region (drawable, channel, &region, error))
    return FALSE;
  if (hist->bins != region.bins || bin < 0 || bin >= hist->bins)
    {
      g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_CALLING,
                   "bin %d of a %d-bin histogram is not a threshold for "
                   "the drawable's %d bins", bin, hist->bins, region.bins);
      return FALSE;
    }
  return pixels_apply (&region, apply_threshold_strip, &t, progress, error);
}

static gboolean
check_csv_name (const gchar *filename, GError **error)
{
  if (filename && *filename)
    return TRUE;
  g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_CALLING,
               "no file name given for the CSV");
  return FALSE;
}

gboolean
operations_write_csv (const gh_histogram *hist, const gchar *filename,
                      GError **error)
{
  static const gchar *const header = "bin,value,red,green,blue,alpha,luminance";
  gdouble                   counts[OPERATIONS_NUM_BINS];
  FILE                     *file;

  if (! check_csv_name (filename, error))
    return FALSE;
  if (! (file = g_fopen (filename, "w")))
    {
      g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_FAILED,
                   "cannot write '%s': %s", filename, g_strerror (errno));
      return FALSE;
    }
  operations_counts (hist, counts);
  fprintf (file, "%s\n", header);
  for (gint b = 0; b < OPERATIONS_BINS; b++)
    {
      fprintf (file, "%d", b);
      for (gint c = 0; c < GH_NUM_CHANNELS; c++)
        {
          fputc (',', file);
          csv_write_number (file, counts[c * OPERATIONS_BINS + b]);
        }
      fputc ('\n', file);
    }
  if (ferror (file) | fclose (file))
    {
      g_set_error (error, GH_PLUGIN_ERROR, GH_PLUGIN_ERROR_FAILED,
                   "cannot write '%s': %s", filename, g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

gboolean
operations_export (gh_engine *engine, gint32 drawable, const gchar *filename,
                   const PixelsProgress *progress, GError **error)
{
  gh_histogram hist;
  gboolean     ok;

  gh_histogram_init (&hist);
  /* A missing name is refused before the pixels are read. */
  ok = check_csv_name (filename, error)
       && operations_histogram (engine, drawable, &hist, progress, error)
       && operations_write_csv (&hist, filename, error);
  gh_histogram_clear (&hist);
  return ok;
}
