/* choice.c — the dialog flow's part that no GIMP version changes. */
#include "choice.h"

#include "beyond.h"
#include "errors.h"
#include "operations.h"

struct _CorePreview
{
  const CoreHost     *host;
  gh_engine          *engine;
  gpointer            drawable;
  const gh_histogram *hist;
  /* CLAHE's operation over `region`, the drawable's changeable region,
   * for the parameters of `clahe_for`; clahe_ready FALSE: none yet;
   * has_clahe FALSE: the region is empty (the selection misses the
   * drawable), nothing changes. */
  gboolean            clahe_ready;
  gboolean            has_clahe;
  DialogChoice        clahe_for;
  CoreRegion          region;
  gh_op               clahe;
};

void
core_choice_defaults (DialogAction action, DialogSettings *defaults)
{
  dialog_settings_defaults (defaults);
  /* dialog_state_init makes it value on gray layers: the same level. */
  if (action == DIALOG_ACTION_BINARIZE)
    defaults->channel = GH_CHANNEL_LUMINANCE;
}

gboolean
core_posterize_bins (const CoreHost *host, gpointer drawable, gint channel,
                     gint n, const gint *bins, const gh_histogram *hist,
                     const CoreProgress *progress, GError **error)
{
  CoreRegion region;
  gh_op      op;
  gh_error   err;
  gboolean   ok;

  if (! core_channel_region (host, drawable, channel, TRUE, &region, error))
    return FALSE;
  ok = n > 0 && hist->bins == region.bins;
  if (n <= 0)
    {
      gchar *name = core_region_name (&region);

      g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED,
                   "'%s': fewer levels of %s are in use in the selected "
                   "range than there are classes; pick fewer classes or "
                   "more levels", name,
                   gh_channel_name ((gh_channel) channel));
      g_free (name);
    }
  else if (! ok)
    g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                 "thresholds of a %d-bin histogram are not thresholds for "
                 "the drawable's %d bins", hist->bins, region.bins);
  ok = ok && core_error_from_engine (gh_op_posterize (&op, region.layout,
                                                      region.sample,
                                                      core_region_luminance (&region),
                                                      region.bins,
                                                      (gh_channel)
                                                      core_region_view_channel (
                                                        &region, channel),
                                                      n, bins, &err),
                                     &err, error);
  if (ok)
    {
      ok = core_region_apply (&region, &op, progress, error);
      gh_op_clear (&op);
    }
  core_region_clear (&region);
  return ok;
}

gboolean
core_apply_choice (const CoreHost *host, gh_engine *engine, gpointer drawable,
                   const DialogChoice *choice, gpointer reference,
                   const gh_histogram *hist, gboolean show_progress,
                   GError **error)
{
  const CoreProgress  whole = { 0, 1 };
  const CoreProgress *progress = show_progress ? &whole : NULL;

  switch (choice->action)
    {
    case DIALOG_ACTION_EQUALIZE:
      if (show_progress)
        host->progress_text ("Equalizing (GPU)");
      return core_equalize (host, engine, drawable, choice->mode, hist,
                            progress, error);
    case DIALOG_ACTION_BINARIZE:
      if (show_progress)
        host->progress_text ("Binarizing (GPU)");
      return core_binarize_bin (host, drawable, choice->channel,
                                choice->threshold_bin, hist, progress, error);
    case DIALOG_ACTION_CLAHE:
      if (show_progress)
        host->progress_text ("CLAHE (GPU)");
      return core_clahe (host, engine, drawable, choice->clip_limit,
                         choice->tiles_x, choice->tiles_y, choice->mode,
                         progress, error);
    case DIALOG_ACTION_MATCH:
      if (! reference)
        {
          g_set_error (error, CORE_ERROR, CORE_ERROR_CALLING,
                       "Match: the reference (ID %d) is no drawable of an "
                       "open image; choose another", choice->reference);
          return FALSE;
        }
      if (show_progress)
        host->progress_text ("Matching histograms (GPU)");
      return core_match (host, engine, drawable, reference, choice->mode, hist,
                         progress, error);
    case DIALOG_ACTION_POSTERIZE:
      if (show_progress)
        host->progress_text ("Posterizing (GPU)");
      return core_posterize_bins (host, drawable, choice->channel,
                                  choice->n_thresholds,
                                  choice->threshold_bins, hist, progress,
                                  error);
    default:
      return TRUE;
    }
}

gchar *
core_statistics_text (const gh_histogram *hist, const gchar *backend)
{
  gdouble  stats[GH_NUM_STATS];
  GString *text = g_string_new (NULL);

  gh_stats_table (hist, stats);
  g_string_append_printf (text, "Histogram (%s)\nchannel: count, min, max, "
                          "mean, median, std-dev, otsu", backend);
  for (gint c = 0; c < GH_NUM_CHANNELS; c++)
    {
      const gdouble *s = stats + c * GH_STATS_PER_CHANNEL;

      if (hist->channels & (1u << c))
        g_string_append_printf (text, "\n%s: %.1f, %g, %g, %.3f, %g, %.3f, "
                                "%g", gh_channel_name ((gh_channel) c), s[0],
                                s[1], s[2], s[3], s[4], s[5], s[6]);
    }
  return g_string_free (text, FALSE);
}

gchar *
core_choice_without_dialog (const DialogState *state, const gchar *backend,
                            DialogChoice *choice)
{
  dialog_state_choice (state, choice);
  if (choice->action != DIALOG_ACTION_NONE)
    return NULL;
  return core_statistics_text (state->hist, backend);
}

const Babl *
core_preview_format (const CoreHost *host, gpointer drawable)
{
  CoreRegion  region;
  const Babl *format;

  if (! core_region_init (host, drawable, &region, NULL))
    return NULL;
  /* In the drawable's own space, as GIMP's sub-thumbnails, which the
   * preview shows where the selection is not, are. */
  format = babl_format_with_space (region.info.is_gray
                                   ? (region.info.has_alpha ? "Y'A u8"
                                                            : "Y' u8")
                                   : (region.info.has_alpha ? "R'G'B'A u8"
                                                            : "R'G'B' u8"),
                                   region.space);
  core_region_clear (&region);
  return format;
}

CorePreview *
core_preview_new (const CoreHost *host, gh_engine *engine, gpointer drawable,
                  const gh_histogram *hist)
{
  CorePreview *preview = g_new0 (CorePreview, 1);

  preview->host = host;
  preview->engine = engine;
  preview->drawable = drawable;
  preview->hist = hist;
  return preview;
}

static void
clahe_clear (CorePreview *preview)
{
  if (! preview->clahe_ready)
    return;
  if (preview->has_clahe)
    gh_op_clear (&preview->clahe);
  core_region_clear (&preview->region);
  preview->clahe_ready = FALSE;
}

void
core_preview_free (CorePreview *preview)
{
  if (! preview)
    return;
  clahe_clear (preview);
  g_free (preview);
}

/* CLAHE's operation for the choice's parameters, over the whole region:
 * kept while they stay (a preview moved or redrawn needs no new pass). */
static gboolean
clahe_ready (CorePreview *preview, const DialogChoice *choice, GError **error)
{
  const DialogChoice *was = &preview->clahe_for;

  if (preview->clahe_ready && was->clip_limit == choice->clip_limit
      && was->tiles_x == choice->tiles_x && was->tiles_y == choice->tiles_y
      && was->mode == choice->mode)
    return TRUE;
  clahe_clear (preview);
  if (! core_changeable_region (preview->host, preview->drawable,
                                &preview->region, error))
    return FALSE;
  preview->has_clahe = preview->region.info.height > 0;
  if (preview->has_clahe
      && ! core_clahe_prepare (preview->engine, &preview->region,
                               choice->clip_limit, choice->tiles_x,
                               choice->tiles_y,
                               core_region_view_mode (&preview->region,
                                                      choice->mode),
                               &preview->clahe, NULL, error))
    {
      core_region_clear (&preview->region);
      return FALSE;
    }
  preview->clahe_for = *choice;
  preview->clahe_ready = TRUE;
  return TRUE;
}

/* The part of the preview's rectangle (x, y, ...) inside the region, read
 * from the drawable, mapped by CLAHE at its place in the region and
 * written into the scratch layer at its place in the rectangle. */
static gboolean
clahe_rect (CorePreview *preview, gpointer layer, gint x, gint y, gint width,
            gint height, GError **error)
{
  const CoreDrawableInfo *r = &preview->region.info;
  gint                    x0 = MAX (x, r->x), y0 = MAX (y, r->y);
  gint                    x1 = MIN (x + width, r->x + r->width);
  gint                    y1 = MIN (y + height, r->y + r->height);
  GeglBuffer             *buffer;
  gboolean                ok;

  if (x0 >= x1 || y0 >= y1 || ! preview->has_clahe)
    return TRUE;
  buffer = preview->host->buffer (layer);
  ok = core_region_apply_to (&preview->region, &preview->clahe,
                             GEGL_RECTANGLE (x0, y0, x1 - x0, y1 - y0),
                             buffer, x0 - x, y0 - y, error);
  /* Unreferencing sends the tiles to GIMP before they are read. */
  g_object_unref (buffer);
  return ok;
}

guchar *
core_preview_pixels (CorePreview *preview, const DialogChoice *choice,
                     gpointer reference, gint x, gint y, gint width,
                     gint height, gint *rowstride, GError **error)
{
  const CoreHost *host = preview->host;
  const Babl     *format = core_preview_format (host, preview->drawable);
  gpointer        image, layer;
  GeglBuffer     *buffer, *copy;
  guchar         *pixels = NULL;
  gboolean        ok;

  if (choice->action == DIALOG_ACTION_NONE || ! format)
    return NULL;
  if (choice->action == DIALOG_ACTION_CLAHE
      && ! clahe_ready (preview, choice, error))
    return NULL;
  image = host->scratch_layer (preview->drawable, width, height, &layer);
  buffer = host->buffer (preview->drawable);
  copy = host->buffer (layer);
  gegl_buffer_copy (buffer, GEGL_RECTANGLE (x, y, width, height),
                    GEGL_ABYSS_NONE, copy,
                    GEGL_RECTANGLE (0, 0, width, height));
  g_object_unref (buffer);
  /* Unreferencing sends the copied tiles to GIMP before the operation
   * reads them. */
  g_object_unref (copy);
  if (choice->action == DIALOG_ACTION_CLAHE)
    ok = clahe_rect (preview, layer, x, y, width, height, error);
  else
    ok = core_apply_choice (host, preview->engine, layer, choice, reference,
                            preview->hist, FALSE, error);
  if (ok)
    {
      *rowstride = width * babl_format_get_bytes_per_pixel (format);
      pixels = g_malloc ((gsize) *rowstride * height);
      buffer = host->buffer (layer);
      gegl_buffer_get (buffer, GEGL_RECTANGLE (0, 0, width, height), 1.0,
                       format, pixels, *rowstride, GEGL_ABYSS_NONE);
      g_object_unref (buffer);
    }
  host->image_close (image);
  return pixels;
}
