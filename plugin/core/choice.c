/* choice.c — the dialog flow's part that no GIMP version changes. */
#include "choice.h"

#include "operations.h"

void
core_choice_defaults (DialogAction action, DialogSettings *defaults)
{
  dialog_settings_defaults (defaults);
  /* dialog_state_init makes it value on gray layers: the same level. */
  if (action == DIALOG_ACTION_BINARIZE)
    defaults->channel = GH_CHANNEL_LUMINANCE;
}

gboolean
core_apply_choice (const CoreHost *host, gh_engine *engine, gpointer drawable,
                   const DialogChoice *choice, const gh_histogram *hist,
                   gboolean show_progress, GError **error)
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
  CoreDrawableInfo info = { 0 };
  const Babl      *format = NULL;

  if (host->describe (drawable, &info) && info.exists)
    {
      if (info.is_gray)
        format = babl_format (info.has_alpha ? "Y'A u8" : "Y' u8");
      else
        format = babl_format (info.has_alpha ? "R'G'B'A u8" : "R'G'B' u8");
    }
  core_drawable_info_clear (&info);
  return format;
}

guchar *
core_preview_pixels (const CoreHost *host, gh_engine *engine,
                     gpointer drawable, const DialogChoice *choice,
                     const gh_histogram *hist, gint x, gint y, gint width,
                     gint height, gint *rowstride, GError **error)
{
  const Babl *format = core_preview_format (host, drawable);
  gpointer    image, layer;
  GeglBuffer *buffer, *copy;
  guchar     *pixels = NULL;

  if (choice->action == DIALOG_ACTION_NONE || ! format)
    return NULL;
  image = host->scratch_layer (drawable, width, height, &layer);
  buffer = host->buffer (drawable);
  copy = host->buffer (layer);
  gegl_buffer_copy (buffer, GEGL_RECTANGLE (x, y, width, height),
                    GEGL_ABYSS_NONE, copy,
                    GEGL_RECTANGLE (0, 0, width, height));
  g_object_unref (buffer);
  /* Unreferencing sends the copied tiles to GIMP before the operation
   * reads them. */
  g_object_unref (copy);
  if (core_apply_choice (host, engine, layer, choice, hist, FALSE, error))
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
