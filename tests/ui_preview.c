/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ui_preview.c — the dialog's preview is what OK does, pixel for pixel.
 *
 * The plug-in's core (plugin/core/preview.c, actions.c) and the dialog
 * flow's choice (plugin/flow/) on a host made of GEGL buffers in memory
 * (fake_host.h), no GIMP: for every dialog action (equalize, binarize, CLAHE,
 * match, posterize) on RGB, gray and float layers, with and without a
 * rectangular selection, core_preview_pixels of rectangles anywhere on the
 * layer (inside, across and outside the selection's box), as GIMP's
 * drawable preview shows them (the layer's own pixels where the selection
 * is not), must equal the same rectangle of the layer after
 * core_apply_request of the dialog's choice, byte for byte.  Zoomed out,
 * the whole layer (or the selection's box) scaled down shows its pixels
 * scaled with the choice applied (within 2 levels of the test's own box
 * average; CLAHE's: OK's result scaled).
 * CLAHE is the case that matters: its preview is not CLAHE of the
 * rectangle but the whole region's tile mappings applied at the
 * rectangle's place, and a change of its parameters must not reuse the
 * last ones'.  Also: posterize with fewer levels in use than classes and
 * match without a reference fail with a message, changing nothing.
 * Layers in another colour space than sRGB (an image's profile), under
 * GIMP 3's luminance rule: the luminance modes and channel go through the
 * region's luminance view (babl's luminance in the layer's space), and
 * the preview comes in the layer's own space, as GIMP's previews draw it.
 *
 * Ends with "N passed, N failed".
 */
#include <stdio.h>
#include <string.h>

#include <gegl.h>

#include "core/apply.h"
#include "core/operations.h"
#include "core/preview.h"
#include "dialog_texts.h"
#include "fake_host.h"
#include "flow.h"
#include "test_util.h"

/* Not the GIMP hosts' describe (fake_describe): the facts from the
 * layer's kind and its selection's box, no buffer handed over (the core
 * asks buffer ()); not counted. */
static gboolean
describe (const CoreTarget *target, CoreDrawableInfo *info)
{
  Fake                *f = target->drawable;
  const GeglRectangle *e = gegl_buffer_get_extent (f->buffer);

  info->exists = TRUE;
  info->is_gray = f->gray;
  info->has_alpha = f->alpha;
  /* Float layers are read as floats with 1024 bins, as above 8 bits. */
  info->precision = f->is_float ? CORE_PRECISION_OTHER
                                : CORE_PRECISION_U8_PERCEPTUAL;
  info->has_selection = f->selection != NULL;
  if (f->selection)
    {
      info->x = f->box.x;
      info->y = f->box.y;
      info->width = f->box.width;
      info->height = f->box.height;
    }
  else
    {
      info->width = e->width;
      info->height = e->height;
    }
  return TRUE;
}

/* No files: the batch's calls are not the dialog's.  GIMP 2.10's
 * luminance rule; host3 (made in main) GIMP 3's. */
static const CoreHost host = {
  .luminance = GH_LUMINANCE_PERCEPTUAL,
  .describe = describe,
  FAKE_HOST_CALLBACKS,
};
static CoreHost host3;

/* A photo-like layer: a gradient with texture, a different one per seed,
 * half-transparent in a corner where there is alpha. */
static Fake *
photo (gint width, gint height, gboolean gray, gboolean alpha,
       gboolean is_float, const Babl *space, guint seed)
{
  Fake   *f = fake_new (width, height, gray, alpha, is_float, space);
  gint    n = (gray ? 1 : 3) + (alpha ? 1 : 0);
  gfloat *px = g_new (gfloat, (gsize) width * height * n);
  GRand  *rand = g_rand_new_with_seed (seed);

  for (gint y = 0; y < height; y++)
    for (gint x = 0; x < width; x++)
      {
        gfloat *p = px + ((gsize) y * width + x) * n;

        for (gint c = 0; c < (gray ? 1 : 3); c++)
          p[c] = CLAMP ((0.15 + 0.5 * x / width + 0.25 * y / height
                         + 0.1 * c * ((seed & 1) ? 1 : -1))
                        * (0.8 + 0.2 * g_rand_double (rand)), 0.0, 1.0);
        if (alpha)
          p[n - 1] = x < width / 4 && y < height / 4 ? 0.5 : 1.0;
      }
  /* Quantized as the layer stores it. */
  gegl_buffer_set (f->buffer, NULL, 0,
                   babl_format_with_space (gray ? (alpha ? "Y'A float"
                                                         : "Y' float")
                                                : (alpha ? "R'G'B'A float"
                                                         : "R'G'B' float"),
                                           space),
                   px, GEGL_AUTO_ROWSTRIDE);
  g_free (px);
  g_rand_free (rand);
  return f;
}

static Fake *
fake_copy (const Fake *f)
{
  Fake *c = g_new0 (Fake, 1);

  *c = *f;
  c->buffer = gegl_buffer_dup (f->buffer);
  c->shadow = NULL;
  c->selection = f->selection ? g_object_ref (f->selection) : NULL;
  return c;
}

static void
select_box (Fake *f, const GeglRectangle *box)
{
  const GeglRectangle *e = gegl_buffer_get_extent (f->buffer);
  guchar              *mask = g_malloc0 ((gsize) e->width * e->height);

  for (gint y = box->y; y < box->y + box->height; y++)
    memset (mask + (gsize) y * e->width + box->x, 255, box->width);
  f->selection = gegl_buffer_new (e, babl_format ("Y u8"));
  gegl_buffer_set (f->selection, NULL, 0, babl_format ("Y u8"), mask,
                   GEGL_AUTO_ROWSTRIDE);
  f->box = *box;
  g_free (mask);
}

/* What GIMP's drawable preview shows of the pixels drawn into it: the
 * layer's own where the selection is not (gimp_preview_area_mask; here all
 * or nothing, outside or inside the box). */
static void
shown_by_selection (const Fake *layer, const GeglRectangle *r,
                    const Babl *fmt, guchar *drawn)
{
  gsize   bpp = babl_format_get_bytes_per_pixel (fmt);
  guchar *own = g_malloc ((gsize) r->width * r->height * bpp);

  gegl_buffer_get (layer->buffer, r, 1.0, fmt, own, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_NONE);
  for (gint y = 0; y < r->height; y++)
    for (gint x = 0; x < r->width; x++)
      if (! gegl_rectangle_contains (&layer->box,
                                     GEGL_RECTANGLE (r->x + x, r->y + y, 1,
                                                     1)))
        memcpy (drawn + ((gsize) y * r->width + x) * bpp,
                own + ((gsize) y * r->width + x) * bpp, bpp);
  g_free (own);
}

/* `r` of `src` scaled down by k (each pixel the mean of its k x k box,
 * colours weighted by alpha), as a new layer of the same kind: what a
 * scaled preview shows, computed here on its own. */
static Fake *
box_average (const Fake *src, const GeglRectangle *r, gint k)
{
  const Babl *fmt = babl_format_with_space (src->gray
                                              ? (src->alpha ? "Y'A float"
                                                            : "Y' float")
                                              : (src->alpha ? "R'G'B'A float"
                                                            : "R'G'B' float"),
                                            src->space);
  gint        n = babl_format_get_n_components (fmt), colours;
  gint        w = r->width / k, h = r->height / k;
  gfloat     *in = g_new (gfloat, (gsize) r->width * r->height * n);
  gfloat     *out = g_new0 (gfloat, (gsize) w * h * n);
  Fake       *small = fake_new (w, h, src->gray, src->alpha, src->is_float,
                                src->space);

  colours = n - (src->alpha ? 1 : 0);
  gegl_buffer_get (src->buffer, r, 1.0, fmt, in, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_NONE);
  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++)
      {
        gdouble sum[4] = { 0 }, weight = 0, alpha = 0;
        gfloat *o = out + ((gsize) y * w + x) * n;

        for (gint j = 0; j < k; j++)
          for (gint i = 0; i < k; i++)
            {
              const gfloat *p = in + ((gsize) (y * k + j) * r->width
                                      + x * k + i) * n;
              gdouble       a = src->alpha ? p[n - 1] : 1;

              for (gint c = 0; c < colours; c++)
                sum[c] += a * p[c];
              weight += a;
              alpha += a;
            }
        for (gint c = 0; c < colours; c++)
          o[c] = weight > 0 ? sum[c] / weight : 0;
        if (src->alpha)
          o[n - 1] = alpha / (k * k);
      }
  gegl_buffer_set (small->buffer, NULL, 0, fmt, out, GEGL_AUTO_ROWSTRIDE);
  g_free (in);
  g_free (out);
  return small;
}

/* The preview zoomed out: the whole layer (or the selection's box, as
 * GIMP's zoom preview shows it at first) scaled down by k shows the
 * layer's pixels scaled, the operation applied to them: a point
 * operation to the scaled pixels, CLAHE (mapped at each pixel's place)
 * before scaling, OK's result scaled.  Within 2 levels of the same,
 * computed here (the sums' order may round a level either way). */
static void
check_scaled (const CoreHost *h, gh_engine *engine, Fake *layer, Fake *ok,
              const CoreRequest *req, const gh_histogram *hist,
              CorePreview *preview, const Babl *fmt, const char *what)
{
  gboolean      clahe = req->request.operation == GH_REQ_CLAHE;
  GeglRectangle r = layer->selection ? layer->box
                                     : *GEGL_RECTANGLE (0, 0, 156, 111);
  gint          k = layer->selection ? 2 : 3;
  Fake         *small = box_average (clahe ? ok : layer, &r, k);
  gint          w = r.width / k, height = r.height / k, rowstride = 0;
  gsize         size = (gsize) w * height
                       * babl_format_get_bytes_per_pixel (fmt);
  guchar       *want = g_malloc (size), *got;
  GError       *error = NULL;
  gsize         close = 0;
  gdouble       off = 0;
  gboolean      made = TRUE;

  if (! clahe)
    {
      CoreTarget target = core_target (small);

      made = core_apply_request (h, engine, &target, req, hist, NULL, NULL,
                                 &error);
    }
  gegl_buffer_get (small->buffer, NULL, 1.0, fmt, want, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_NONE);
  got = made ? core_preview_pixels (preview, req, r.x, r.y, r.width,
                                    r.height, w, height, &rowstride, &error)
             : NULL;
  for (gsize i = 0; got && i < size; i++)
    {
      gint d = ABS ((gint) got[i] - (gint) want[i]);

      close += d <= 2;
      off += d;
    }
  CHECK (got && (gsize) rowstride * height == size && close >= size * 0.98
         && off / size < 1,
         "%s: the %dx%d box at (%d, %d) scaled to %dx%d is previewed as its "
         "pixels scaled (%zu of %zu samples within 2 levels, %.2f off on "
         "average)%s%s", what, r.width, r.height, r.x, r.y, w, height, close,
         size, off / size, error ? ": " : "", error ? error->message : "");
  g_clear_error (&error);
  g_free (got);
  g_free (want);
  fake_free (small);
}

/* The preview of every rectangle, as the preview widget shows it, equals
 * OK's result there. */
static void
check_rects (const CoreHost *h, gh_engine *engine, Fake *layer,
             Fake *reference, const DialogChoice *choice,
             const gh_histogram *hist, CorePreview *preview, const char *what)
{
  static const GeglRectangle rects[] = {
    { 0, 0, 40, 30 }, { 57, 41, 50, 50 }, { 100, 70, 57, 43 },
    { 10, 60, 147, 9 }, { 0, 0, 157, 113 },
  };
  Fake       *ok = fake_copy (layer);
  CoreTarget  target = core_target (layer);
  const Babl *fmt = core_preview_format (h, &target);
  gsize       bpp = babl_format_get_bytes_per_pixel (fmt);
  GError     *error = NULL;
  CoreRequest req;
  gboolean    applied;

  core_request_defaults (&req, choice->request.operation);
  req.request = choice->request;
  req.reference = reference;
  target = core_target (ok);
  applied = core_apply_request (h, engine, &target, &req, hist, NULL, NULL,
                                &error);
  CHECK (applied, "%s: OK applies (%s)", what,
         error ? error->message : "");
  g_clear_error (&error);
  for (guint k = 0; applied && k < G_N_ELEMENTS (rects); k++)
    {
      const GeglRectangle *r = &rects[k];
      gint                 rowstride = 0;
      guchar              *got, *want;
      gsize                size;

      got = core_preview_pixels (preview, &req, r->x, r->y,
                                 r->width, r->height, r->width, r->height,
                                 &rowstride, &error);
      size = (gsize) r->width * r->height * bpp;
      want = g_malloc (size);
      gegl_buffer_get (ok->buffer, r, 1.0, fmt, want, GEGL_AUTO_ROWSTRIDE,
                       GEGL_ABYSS_NONE);
      if (got && layer->selection)
        shown_by_selection (layer, r, fmt, got);
      CHECK (got && (gsize) rowstride * r->height == size
             && ! memcmp (got, want, size),
             "%s: the preview of %dx%d at (%d, %d) is OK's result there%s%s",
             what, r->width, r->height, r->x, r->y, error ? ": " : "",
             error ? error->message : "");
      g_clear_error (&error);
      g_free (got);
      g_free (want);
    }
  if (applied)
    check_scaled (h, engine, layer, ok, &req, hist, preview, fmt, what);
  fake_free (ok);
}

/* Every action on one kind of layer, with the dialog's own choices; on a
 * colour layer in another space than sRGB (GIMP 3's rule: `h` host3),
 * each in both modes and on the luminance channel too. */
static void
check_layer (const CoreHost *h, gh_engine *engine, gboolean gray,
             gboolean alpha, gboolean is_float, gboolean selected,
             const Babl *space)
{
  static const DialogAction actions[] = {
    DIALOG_ACTION_EQUALIZE, DIALOG_ACTION_BINARIZE, DIALOG_ACTION_CLAHE,
    DIALOG_ACTION_MATCH, DIALOG_ACTION_POSTERIZE,
  };
  Fake          *layer = photo (157, 113, gray, alpha, is_float, space, 1);
  CoreTarget     target;
  Fake          *reference = photo (90, 70, FALSE, FALSE, FALSE, space, 2);
  gboolean       both = space && ! gray;
  gh_histogram   hist;
  GError        *error = NULL;
  DialogSettings settings;
  DialogState    st;
  CorePreview   *preview;
  char           kind[80];

  g_snprintf (kind, sizeof kind, "%s%s%s%s%s", gray ? "gray" : "RGB",
              alpha ? "A" : "", is_float ? " float" : " u8",
              space ? " in " : "", space ? babl_get_name (space) : "");
  if (selected)
    {
      g_strlcat (kind, " in a selection", sizeof kind);
      select_box (layer, GEGL_RECTANGLE (30, 20, 90, 70));
    }
  target = core_target (layer);
  CHECK (babl_format_get_space (core_preview_format (h, &target))
         == babl_format_get_space (fake_format (layer)),
         "%s: the preview is in the layer's own space", kind);
  gh_histogram_init (&hist);
  if (! core_histogram (h, engine, &target, NULL, &hist, NULL, &error))
    {
      CHECK (0, "%s: histogram (%s)", kind, error->message);
      g_clear_error (&error);
      return;
    }
  preview = core_preview_new (h, engine, &target, &hist);
  dialog_settings_defaults (&settings);
  dialog_state_init (&st, &hist, "cpu: test", 0, &settings);
  for (guint a = 0; a < G_N_ELEMENTS (actions) * (both ? 2 : 1); a++)
    {
      DialogAction action = actions[a % G_N_ELEMENTS (actions)];
      gboolean     second = a >= G_N_ELEMENTS (actions);
      DialogChoice choice;
      char         what[160];

      dialog_state_set_action (&st, action);
      dialog_state_set_param (&st, GH_PARAM_MODE,
                              both ? (gint) second : (gint) (a % 2));
      if (both)
        dialog_state_set_param (&st, GH_PARAM_CHANNEL,
                                second ? GH_CHANNEL_LUMINANCE
                                       : GH_CHANNEL_VALUE);
      dialog_state_choice (&st, &choice);
      g_snprintf (what, sizeof what, "%s, %s%s", kind,
                  dialog_action_label (action),
                  both && second ? " (luminance)" : "");
      check_rects (h, engine, layer, reference, &choice, &hist, preview,
                   what);
      if (action == DIALOG_ACTION_CLAHE)
        {
          /* New parameters: a new preparation, not the last one's. */
          dialog_state_set_param (&st, GH_PARAM_TILES_X, 3);
          dialog_state_set_param (&st, GH_PARAM_TILES_Y, 5);
          dialog_state_set_param (&st, GH_PARAM_CLIP_LIMIT, 0);
          dialog_state_choice (&st, &choice);
          g_strlcat (what, " 3 x 5, no clipping", sizeof what);
          check_rects (h, engine, layer, reference, &choice, &hist, preview,
                       what);
          dialog_state_set_param (&st, GH_PARAM_TILES_X, 8);
          dialog_state_set_param (&st, GH_PARAM_TILES_Y, 8);
          dialog_state_set_param (&st, GH_PARAM_CLIP_LIMIT, 2.0);
        }
    }
  dialog_state_clear (&st);
  core_preview_free (preview);
  gh_histogram_clear (&hist);
  fake_free (layer);
  fake_free (reference);
}

/* What cannot be applied says why (the flow's choice, before anything is
 * applied) and changes nothing. */
static void
check_refusals (gh_engine *engine)
{
  const FlowHost flow = { .core = &host };
  CoreRequest    req;
  Fake          *layer = photo (64, 48, TRUE, FALSE, FALSE, NULL, 3);
  CoreTarget     target;
  Fake          *before = fake_copy (layer);
  gh_histogram   hist;
  GError        *error = NULL;
  DialogSettings settings;
  DialogState    st;
  DialogChoice   choice;
  guchar         a[64 * 48], b[64 * 48];

  gh_histogram_init (&hist);
  target = core_target (layer);
  core_histogram (&host, engine, &target, NULL, &hist, NULL, NULL);
  dialog_settings_defaults (&settings);
  settings.action = DIALOG_ACTION_POSTERIZE;
  settings.params[GH_PARAM_CLASSES] = 5;
  dialog_state_init (&st, &hist, "cpu: test", 0, &settings);
  dialog_state_set_range (&st, 100, 102);
  dialog_state_choice (&st, &choice);
  CHECK (choice.request.n_bins == 0
         && ! flow_choice_request (&flow, layer, &choice, &req, &error)
         && error && strstr (error->message, "fewer levels"),
         "posterize in 5 classes of 3 levels is refused, saying why (%s)",
         error ? error->message : "no error");
  g_clear_error (&error);
  dialog_state_set_action (&st, DIALOG_ACTION_MATCH);
  dialog_state_choice (&st, &choice);
  CHECK (! flow_choice_request (&flow, layer, &choice, &req, &error)
         && error && strstr (error->message, "reference"),
         "match without a reference is refused, saying why (%s)",
         error ? error->message : "no error");
  g_clear_error (&error);
  gegl_buffer_get (layer->buffer, NULL, 1.0, babl_format ("Y' u8"), a,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  gegl_buffer_get (before->buffer, NULL, 1.0, babl_format ("Y' u8"), b,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  CHECK (! memcmp (a, b, sizeof a), "refused: the layer is unchanged");
  dialog_state_clear (&st);
  gh_histogram_clear (&hist);
  fake_free (layer);
  fake_free (before);
}

int
main (void)
{
  gh_engine *engine = NULL;
  GError    *error = NULL;

  /* Buffers only: no GEGL operation modules to load. */
  g_setenv ("GEGL_PATH", "/nonexistent/gpu-histogram/no-gegl-modules", TRUE);
  gegl_init (NULL, NULL);
  if (! core_engine_ensure (&engine, 0, &error))
    {
      printf ("no engine: %s\n", error->message);
      return 1;
    }
  host3 = host;
  host3.luminance = GH_LUMINANCE_LINEAR;
  for (int selected = 0; selected <= 1; selected++)
    {
      check_layer (&host, engine, FALSE, FALSE, FALSE, selected, NULL);
      check_layer (&host, engine, TRUE, FALSE, FALSE, selected, NULL);
    }
  check_layer (&host, engine, FALSE, TRUE, FALSE, FALSE, NULL);
  check_layer (&host, engine, TRUE, TRUE, TRUE, TRUE, NULL);
  check_layer (&host, engine, FALSE, FALSE, TRUE, FALSE, NULL);
  /* Profiled: Adobe RGB (babl's "Adobish"), ProPhoto above 8 bits. */
  check_layer (&host3, engine, FALSE, FALSE, FALSE, TRUE,
               babl_space ("Adobish"));
  check_layer (&host3, engine, FALSE, TRUE, FALSE, FALSE,
               babl_space ("Adobish"));
  check_layer (&host3, engine, FALSE, TRUE, TRUE, TRUE,
               babl_space ("ProPhoto"));
  check_refusals (engine);
  gh_engine_destroy (engine);
  gegl_exit ();
  return test_summary ();
}
