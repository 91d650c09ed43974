/* SPDX-License-Identifier: GPL-3.0-or-later */
/* preview.c — the dialog's preview of an operation on one drawable
 * (preview.h). */
#include "preview.h"

#include <string.h>

#include "apply.h"
#include "operations.h"

struct _CorePreview
{
  const CoreHost     *host;
  gh_engine          *engine;
  CoreTarget          target;
  const gh_histogram *hist;
  const Babl         *format; /* core_preview_format's, asked once */
  /* CLAHE's operation over `region`, the drawable's changeable region,
   * for the parameters of `clahe_for`; clahe_ready FALSE: none yet;
   * has_clahe FALSE: the region is empty (the selection misses the
   * drawable), nothing changes. */
  gboolean            clahe_ready;
  gboolean            has_clahe;
  gh_request          clahe_for;
  CoreRegion          region;
  gh_op               clahe;
  /* The drawable's pixels last shown scaled (`scaled_rect` of the
   * drawable at `scaled_width` x `scaled_height`, as floats of `scaled_as`
   * format): the point operations' previews apply to a copy of them, so
   * a new choice reads nothing from GIMP again; NULL: none. */
  gfloat             *scaled;
  GeglRectangle       scaled_rect;
  gint                scaled_width, scaled_height;
  const Babl         *scaled_as;
};

const Babl *
core_preview_format (const CoreHost *host, const CoreTarget *target)
{
  CoreRegion  region;
  const Babl *format;

  if (! core_region_init (host, target, &region, NULL))
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

/* The drawable's pixels as floats in its own space and tone curve: what
 * a scaled preview averages. */
static const Babl *
scaled_format (const CoreHost *host, const CoreTarget *target)
{
  CoreRegion  region;
  const Babl *format;

  if (! core_region_init (host, target, &region, NULL))
    return NULL;
  format = gh_layer_format (&region.layer, region.layer.gray,
                            region.layer.alpha, region.layer.trc,
                            GH_SAMPLE_F32);
  core_region_clear (&region);
  return format;
}

CorePreview *
core_preview_new (const CoreHost *host, gh_engine *engine,
                  const CoreTarget *target, const gh_histogram *hist)
{
  CorePreview *preview = g_new0 (CorePreview, 1);

  preview->host = host;
  preview->format = core_preview_format (host, target);
  preview->scaled_as = scaled_format (host, target);
  preview->engine = engine;
  preview->target = *target;
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
  g_free (preview->scaled);
  g_free (preview);
}

/* Whether two requests of an operation agree on each of its parameters. */
static gboolean
same_params (const gh_request *a, const gh_request *b)
{
  const gh_operation_spec *spec = gh_operation_get (a->operation);

  if (a->operation != b->operation)
    return FALSE;
  for (gint k = 0; spec && k < spec->n_params; k++)
    if (gh_request_get (a, spec->params[k])
        != gh_request_get (b, spec->params[k]))
      return FALSE;
  return TRUE;
}

/* CLAHE's operation for the request's parameters, over the whole region:
 * kept while they stay (a preview moved or redrawn needs no new pass). */
static gboolean
clahe_ready (CorePreview *preview, const gh_request *r, GError **error)
{
  const gh_request *was = &preview->clahe_for;
  gh_request        view;

  if (preview->clahe_ready && same_params (was, r))
    return TRUE;
  clahe_clear (preview);
  if (! core_request_check (r, error))
    return FALSE;
  if (! core_changeable_region (preview->host, &preview->target,
                                &preview->region, error))
    return FALSE;
  preview->has_clahe = preview->region.info.height > 0;
  view = *r;
  core_region_view (&preview->region, &view);
  if (preview->has_clahe
      && ! core_clahe_prepare (preview->engine, &preview->region, &view,
                               &preview->clahe, NULL, error))
    {
      core_region_clear (&preview->region);
      return FALSE;
    }
  preview->clahe_for = *r;
  preview->clahe_ready = TRUE;
  return TRUE;
}

/* The part of the rectangle (x, y, ...) inside the region, read from the
 * drawable, mapped by CLAHE at its place in the region and written into
 * `dest` at its place in the rectangle. */
static gboolean
clahe_rect (CorePreview *preview, GeglBuffer *dest, gint x, gint y,
            gint width, gint height, GError **error)
{
  const CoreDrawableInfo *r = &preview->region.info;
  gint                    x0 = MAX (x, r->x), y0 = MAX (y, r->y);
  gint                    x1 = MIN (x + width, r->x + r->width);
  gint                    y1 = MIN (y + height, r->y + r->height);

  if (x0 >= x1 || y0 >= y1 || ! preview->has_clahe)
    return TRUE;
  return core_region_apply_to (&preview->region, &preview->clahe,
                               GEGL_RECTANGLE (x0, y0, x1 - x0, y1 - y0),
                               dest, x0 - x, y0 - y, error);
}

/* Adds the rows of `strip` (width x rows pixels of n floats, alpha last
 * where `alpha`) into `sums` (out_width pixels of n + 1 doubles: the
 * colour weighted by alpha, alpha, and the number of pixels): each output
 * column takes its box of input columns (at least one, so a preview
 * zoomed past 1:1 repeats pixels). */
static void
strip_add (const gfloat *strip, gint width, gint rows, gint n,
           gboolean alpha, gint out_width, gdouble *sums)
{
  gint colours = n - (alpha ? 1 : 0);

  for (gint i = 0; i < out_width; i++)
    {
      gint     a = (gint) ((gint64) i * width / out_width);
      gint     b = MAX ((gint) ((gint64) (i + 1) * width / out_width), a + 1);
      gdouble *s = sums + (gsize) i * (n + 1);

      for (gint r = 0; r < rows; r++)
        for (gint x = a; x < b; x++)
          {
            const gfloat *p = strip + ((gsize) r * width + x) * n;
            /* Transparent pixels' colours count for nothing, as GIMP
             * scales premultiplied. */
            gdouble       w = alpha ? p[n - 1] : 1.0;

            for (gint c = 0; c < colours; c++)
              s[c] += w * p[c];
            if (alpha)
              s[n - 1] += w;
            s[n] += 1;
          }
    }
}

/* One output row from its sums: the colour weighted by alpha, the mean
 * alpha. */
static void
row_average (const gdouble *sums, gint n, gboolean alpha, gint out_width,
             gfloat *out)
{
  gint colours = n - (alpha ? 1 : 0);

  for (gint i = 0; i < out_width; i++)
    {
      const gdouble *s = sums + (gsize) i * (n + 1);
      gdouble        weight = alpha ? s[n - 1] : s[n];
      gfloat        *o = out + (gsize) i * n;

      for (gint c = 0; c < colours; c++)
        o[c] = weight > 0 ? s[c] / weight : 0;
      if (alpha)
        o[n - 1] = s[n - 1] / s[n];
    }
}

/* The drawable's rectangle (x, y, width, height) scaled to out_width x
 * out_height (either way), as floats of `as` (g_free them): each output
 * row's box of rows is read from GIMP, scaled and dropped, so memory
 * stays a few rows of the rectangle whatever its size.  With `clahe` each
 * box is first mapped by CLAHE at its place in the region: the preview is
 * then OK's result scaled. */
static gfloat *
read_scaled (CorePreview *preview, gint x, gint y, gint width, gint height,
             gint out_width, gint out_height, const Babl *as,
             gboolean clahe, GError **error)
{
  gint        n = babl_format_get_n_components (as);
  gboolean    alpha = babl_format_has_alpha (as);
  gint        most = height / out_height + 1;
  GeglBuffer *buffer = preview->host->buffer (preview->target.drawable);
  gfloat     *out = g_new (gfloat, (gsize) out_width * out_height * n);
  gfloat     *strip = g_new (gfloat, (gsize) width * most * n);
  gdouble    *sums = g_new (gdouble, (gsize) out_width * (n + 1));
  gboolean    ok = TRUE;
  /* Where CLAHE maps every pixel (clahe_rect's part): none without it. */
  GeglRectangle region = { 0, 0, 0, 0 };

  if (clahe && preview->has_clahe)
    region = *GEGL_RECTANGLE (preview->region.info.x, preview->region.info.y,
                              preview->region.info.width,
                              preview->region.info.height);

  for (gint j = 0; ok && j < out_height; j++)
    {
      gint        a = y + (gint) ((gint64) j * height / out_height);
      gint        rows = MAX (y + (gint) ((gint64) (j + 1) * height
                                          / out_height) - a, 1);
      GeglBuffer *from = buffer;
      gint        fx = x, fy = a;

      if (clahe)
        {
          /* The box's rows as OK writes them, from (0, 0): the drawable's
           * own pixels where they lie outside the region (the CLAHE pass
           * writes the rest). */
          from = gegl_buffer_new (GEGL_RECTANGLE (0, 0, width, rows),
                                  gegl_buffer_get_format (buffer));
          if (! gegl_rectangle_contains (&region,
                                         GEGL_RECTANGLE (x, a, width, rows)))
            gegl_buffer_copy (buffer, GEGL_RECTANGLE (x, a, width, rows),
                              GEGL_ABYSS_NONE, from, NULL);
          ok = clahe_rect (preview, from, x, a, width, rows, error);
          fx = fy = 0;
        }
      if (ok)
        {
          memset (sums, 0, sizeof *sums * out_width * (n + 1));
          gegl_buffer_get (from, GEGL_RECTANGLE (fx, fy, width, rows), 1.0,
                           as, strip, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
          strip_add (strip, width, rows, n, alpha, out_width, sums);
          row_average (sums, n, alpha, out_width,
                       out + (gsize) j * out_width * n);
        }
      if (from != buffer)
        g_object_unref (from);
    }
  g_object_unref (buffer);
  g_free (strip);
  g_free (sums);
  if (! ok)
    g_clear_pointer (&out, g_free);
  return out;
}

/* The drawable's pixels scaled, for a point operation's preview: those
 * of the last call where it showed the same rectangle at the same size,
 * else read anew. */
static const gfloat *
scaled_original (CorePreview *preview, gint x, gint y, gint width,
                 gint height, gint out_width, gint out_height, GError **error)
{
  GeglRectangle rect = { x, y, width, height };

  if (preview->scaled && gegl_rectangle_equal (&rect, &preview->scaled_rect)
      && out_width == preview->scaled_width
      && out_height == preview->scaled_height)
    return preview->scaled;
  g_free (preview->scaled);
  preview->scaled = read_scaled (preview, x, y, width, height, out_width,
                                 out_height, preview->scaled_as, FALSE,
                                 error);
  preview->scaled_rect = rect;
  preview->scaled_width = out_width;
  preview->scaled_height = out_height;
  return preview->scaled;
}

guchar *
core_preview_pixels (CorePreview *preview, const CoreRequest *req, gint x,
                     gint y, gint width, gint height, gint out_width,
                     gint out_height, gint *rowstride, GError **error)
{
  const CoreHost *host = preview->host;
  const Babl     *format = preview->format;
  /* CLAHE maps a pixel by the tiles around it: prepared over the whole
   * region, applied at the rectangle's place. */
  gboolean        whole = gh_request_needs (&req->request)
                          & GH_NEEDS_CLAHE_PASS;
  gboolean        scaled = out_width != width || out_height != height;
  gpointer        image, layer;
  GeglBuffer     *buffer, *copy;
  const gfloat   *original = NULL;
  gfloat         *mapped = NULL;
  guchar         *pixels = NULL;
  gboolean        ok;

  if (req->request.operation == GH_REQ_NONE || ! format
      || (scaled && ! preview->scaled_as))
    return NULL;
  if (whole && ! clahe_ready (preview, &req->request, error))
    return NULL;
  if (scaled)
    {
      if (whole)
        original = mapped = read_scaled (preview, x, y, width, height,
                                         out_width, out_height,
                                         preview->scaled_as, TRUE, error);
      else
        original = scaled_original (preview, x, y, width, height, out_width,
                                    out_height, error);
      if (! original)
        return NULL;
    }
  image = host->scratch_layer (preview->target.drawable, out_width,
                               out_height, &layer);
  copy = host->buffer (layer);
  if (scaled)
    {
      gegl_buffer_set (copy, GEGL_RECTANGLE (0, 0, out_width, out_height), 0,
                       preview->scaled_as, original, GEGL_AUTO_ROWSTRIDE);
      ok = TRUE;
    }
  else
    {
      buffer = host->buffer (preview->target.drawable);
      gegl_buffer_copy (buffer, GEGL_RECTANGLE (x, y, width, height),
                        GEGL_ABYSS_NONE, copy,
                        GEGL_RECTANGLE (0, 0, width, height));
      g_object_unref (buffer);
      ok = ! whole || clahe_rect (preview, copy, x, y, width, height, error);
    }
  g_free (mapped);
  /* Unreferencing sends the tiles to GIMP before the operation reads
   * them. */
  g_object_unref (copy);
  if (ok && ! whole)
    {
      CoreTarget target = core_target (layer);

      ok = core_apply_request (host, preview->engine, &target, req,
                               preview->hist, NULL, NULL, error);
    }
  if (ok)
    {
      *rowstride = out_width * babl_format_get_bytes_per_pixel (format);
      pixels = g_malloc ((gsize) *rowstride * out_height);
      buffer = host->buffer (layer);
      gegl_buffer_get (buffer, GEGL_RECTANGLE (0, 0, out_width, out_height),
                       1.0, format, pixels, *rowstride, GEGL_ABYSS_NONE);
      g_object_unref (buffer);
    }
  host->image_close (image);
  return pixels;
}
