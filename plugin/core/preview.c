/* SPDX-License-Identifier: GPL-3.0-or-later */
/* preview.c — the dialog's preview of an operation on one drawable
 * (preview.h). */
#include "preview.h"

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

CorePreview *
core_preview_new (const CoreHost *host, gh_engine *engine,
                  const CoreTarget *target, const gh_histogram *hist)
{
  CorePreview *preview = g_new0 (CorePreview, 1);

  preview->host = host;
  preview->format = core_preview_format (host, target);
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
  g_free (preview);
}

/* CLAHE's operation for the request's parameters, over the whole region:
 * kept while they stay (a preview moved or redrawn needs no new pass). */
static gboolean
clahe_ready (CorePreview *preview, const gh_request *r, GError **error)
{
  const gh_request *was = &preview->clahe_for;
  gh_request        view;

  if (preview->clahe_ready && was->clip_limit == r->clip_limit
      && was->tiles_x == r->tiles_x && was->tiles_y == r->tiles_y
      && was->mode == r->mode)
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
core_preview_pixels (CorePreview *preview, const CoreRequest *req, gint x,
                     gint y, gint width, gint height, gint *rowstride,
                     GError **error)
{
  const CoreHost *host = preview->host;
  const Babl     *format = preview->format;
  /* CLAHE maps a pixel by the tiles around it: prepared over the whole
   * region, applied at the rectangle's place. */
  gboolean        whole = gh_request_needs (&req->request)
                          & GH_NEEDS_CLAHE_PASS;
  gpointer        image, layer;
  GeglBuffer     *buffer, *copy;
  guchar         *pixels = NULL;
  gboolean        ok;

  if (req->request.operation == GH_REQ_NONE || ! format)
    return NULL;
  if (whole && ! clahe_ready (preview, &req->request, error))
    return NULL;
  image = host->scratch_layer (preview->target.drawable, width, height,
                               &layer);
  buffer = host->buffer (preview->target.drawable);
  copy = host->buffer (layer);
  gegl_buffer_copy (buffer, GEGL_RECTANGLE (x, y, width, height),
                    GEGL_ABYSS_NONE, copy,
                    GEGL_RECTANGLE (0, 0, width, height));
  g_object_unref (buffer);
  /* Unreferencing sends the copied tiles to GIMP before the operation
   * reads them. */
  g_object_unref (copy);
  if (whole)
    ok = clahe_rect (preview, layer, x, y, width, height, error);
  else
    {
      CoreTarget target = core_target (layer);

      ok = core_apply_request (host, preview->engine, &target, req,
                               preview->hist, NULL, NULL, error);
    }
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
