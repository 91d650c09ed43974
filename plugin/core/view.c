/* view.c — a region's luminance view: its histogram, and its pieces made
 * from the drawable's pixels and put back into them (view.h). */
#include "view.h"

#include <string.h>

#include "errors.h"

void
core_view_copy_channel (gh_histogram *dst, gh_channel to,
                        const gh_histogram *src, gh_channel from)
{
  gsize n = (gsize) src->bins;

  memcpy (dst->raw + to * n, src->raw + from * n, n * sizeof *src->raw);
  if (src->weight && dst->weight)
    memcpy (dst->weight + to * n, src->weight + from * n,
            n * sizeof *src->weight);
  dst->unit[to] = src->unit[from];
}

gboolean
core_region_view_histogram (const CoreRegion *region,
                            const gh_histogram **hist, gh_histogram *out,
                            GError **error)
{
  const gh_histogram *full = *hist;
  gh_error            err;

  if (region->view == CORE_VIEW_PIXELS)
    return TRUE;
  if (! core_error_from_engine (gh_histogram_reset (out, full->bins,
                                                    full->weight != NULL,
                                                    &err),
                                &err, error))
    return FALSE;
  core_view_copy_channel (out, GH_CHANNEL_VALUE, full,
                          GH_CHANNEL_LUMINANCE);
  if (region->info.has_alpha)
    core_view_copy_channel (out, GH_CHANNEL_ALPHA, full, GH_CHANNEL_ALPHA);
  out->channels = gh_layout_channel_mask (region->layout);
  *hist = out;
  return TRUE;
}

void
core_view_scratch_init (CoreViewScratch *s, const CoreRegion *region,
                        gsize pixels)
{
  memset (s, 0, sizeof *s);
  if (region->view == CORE_VIEW_PIXELS)
    return;
  s->read = g_new (gfloat, pixels * 4);
  s->y = g_new (gfloat, pixels);
  if (region->view == CORE_VIEW_MOVE)
    s->linear = g_new (gfloat, pixels * 4);
}

void
core_view_scratch_clear (CoreViewScratch *s)
{
  g_free (s->read);
  g_free (s->y);
  g_free (s->linear);
}

void
core_view_piece (const CoreRegion *region, GeglBuffer *buffer,
                 const GeglRectangle *rect, CoreViewScratch *s, guchar *piece,
                 gsize stride)
{
  /* GIMP's own target: the luminance is the same in every space. */
  const Babl *y = babl_format_with_space ("Y float", babl_space ("sRGB"));
  gint        in = babl_format_get_n_components (region->luminance_from);
  gint        out = region->info.has_alpha ? 2 : 1;

  gegl_buffer_get (buffer, rect, 1.0, region->luminance_from, s->read,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  babl_process (babl_fish (region->luminance_from, y), s->read, s->y,
                (glong) rect->width * rect->height);
  for (gint r = 0; r < rect->height; r++)
    for (gint x = 0; x < rect->width; x++)
      {
        gsize  i = (gsize) r * rect->width + x;
        gfloat a = in == 4 ? s->read[i * 4 + 3] : 1.0f;

        if (region->sample == GH_SAMPLE_U8)
          {
            guchar *p = piece + r * stride + x * out;

            p[0] = (guchar) gh_pixel_bin_f32 (GH_LAYOUT_GRAY, &s->y[i],
                                              GH_CHANNEL_VALUE, 256);
            if (out == 2)
              p[1] = (guchar) (CLAMP (a, 0.0f, 1.0f) * 255.0f + 0.5f);
          }
        else
          {
            gfloat *p = (gfloat *) (piece + r * stride) + x * out;

            p[0] = s->y[i];
            if (out == 2)
              p[1] = a;
          }
      }
}

void
core_view_paint (const CoreRegion *region, const GeglRectangle *rect,
                 const guchar *piece, gsize piece_stride, gpointer pixels)
{
  gint  out = region->info.has_alpha ? 2 : 1;
  gint  n = region->info.has_alpha ? 4 : 3;
  gsize count = (gsize) rect->width * rect->height;

  for (gsize i = 0; i < count; i++)
    {
      const guchar *p = piece + (i / rect->width) * piece_stride;
      gsize         x = i % rect->width;

      for (gint k = 0; k < 3; k++)
        if (region->sample == GH_SAMPLE_U8)
          ((guchar *) pixels)[i * n + k] = p[x * out];
        else
          ((gfloat *) pixels)[i * n + k] = ((const gfloat *) p)[x * out];
    }
}

void
core_view_move (const CoreRegion *region, const GeglRectangle *rect,
                CoreViewScratch *s, const guchar *piece, gsize piece_stride,
                gpointer pixels)
{
  const Babl *linear = core_region_space_format (region, FALSE, region->info.has_alpha,
                                     "", GH_SAMPLE_F32);
  gint        in = babl_format_get_n_components (linear);
  gint        out = region->info.has_alpha ? 2 : 1;
  gsize       count = (gsize) rect->width * rect->height;

  babl_process (babl_fish (region->luminance_from, linear), s->read,
                s->linear, (glong) count);
  for (gsize i = 0; i < count; i++)
    {
      const guchar *p = piece + (i / rect->width) * piece_stride;
      gsize         x = i % rect->width;
      gfloat       *c = s->linear + i * in;
      gdouble       rgb[3] = { c[0], c[1], c[2] };
      gdouble       target = region->sample == GH_SAMPLE_U8
                             ? p[x * out] / 255.0
                             : ((const gfloat *) p)[x * out];

      gh_luminance_shift (rgb, s->y[i], target, 1.0);
      /* Within the range, as the engine's moves leave a float layer. */
      for (gint k = 0; k < 3; k++)
        c[k] = (gfloat) CLAMP (rgb[k], 0.0, 1.0);
    }
  babl_process (babl_fish (linear, region->source), s->linear, pixels,
                (glong) count);
}

