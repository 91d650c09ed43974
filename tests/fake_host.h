/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fake_host.h — a CoreHost of GEGL buffers in memory, no GIMP.
 *
 * For the tests that run the plug-in's core (plugin/core/) and the dialog
 * flow (plugin/flow/) without GIMP (ui_preview, plugin_describes): a
 * drawable is a Fake, its pixels a GEGL buffer in the layer's own format
 * (fake_format), and the CoreHost callbacks below do on it what the GIMP
 * hosts do on a layer.  Each drawable is its own image (image_close frees
 * it); a scratch layer is a new empty Fake of the drawable's kind; the
 * selection is all or nothing inside `box`; a tile is FAKE_TILE_HEIGHT
 * rows.
 *
 * A test makes its own table, naming its luminance rule and its describe
 * (fake_describe, or its own), and what else it needs (files):
 *
 *   static const CoreHost host = {
 *     .luminance = GH_LUMINANCE_PERCEPTUAL,
 *     .describe = fake_describe,
 *     FAKE_HOST_CALLBACKS,
 *   };
 *   Fake      *f = fake_new (96, 64, FALSE, FALSE, FALSE, NULL);
 *   CoreTarget target = fake_run_target (f);
 *
 *   core_histogram (&host, engine, &target, NULL, &hist, NULL, &error);
 *   ... f->describes ...
 *   fake_free (f);
 *
 * Counting: fake_describe counts each drawable's describes in
 * `describes`; image_close adds a closed drawable's to
 * fake_closed_describes and counts it in fake_closed_images (a test that
 * does not count ignores both).
 */
#ifndef GH_TESTS_FAKE_HOST_H
#define GH_TESTS_FAKE_HOST_H

#include <gegl.h>

#include "core/host.h"

#define FAKE_TILE_HEIGHT 64

/* A drawable: its pixels, the shadow the operations write, its own
 * image's selection (NULL: none; else 255 inside `box`, which is the
 * whole layer until a test selects) and how often fake_describe
 * described it. */
typedef struct
{
  GeglBuffer   *buffer;
  GeglBuffer   *shadow;
  GeglBuffer   *selection;
  GeglRectangle box;
  gboolean      gray, alpha, is_float;
  const Babl   *space; /* NULL: sRGB */
  gint          describes;
} Fake;

/* The describes of drawables closed since a test set them to 0 (a
 * batch's files), and how many were closed. */
extern gint fake_closed_describes;
extern gint fake_closed_images;

/* What the progress bar was told since a test cleared them: each
 * progress_text's text in order (a test that does not look leaves them
 * NULL: nothing kept), and whether every progress_update's fraction was
 * in 0..1 and no smaller than the one before, and the last. */
extern GPtrArray *fake_progress_texts;
extern gboolean   fake_progress_monotone;
extern gdouble    fake_progress_last;

/* The layer's storage format: 8-bit perceptual or float, RGB or gray,
 * with or without alpha, in `space`. */
const Babl *fake_format (const Fake *f);

/* A new layer of that kind, its pixels all 0, nothing selected. */
Fake       *fake_new    (gint width, gint height, gboolean gray,
                         gboolean alpha, gboolean is_float,
                         const Babl *space);
void        fake_free   (Fake *f);

/* What a host's run asks GIMP once (gimp_drawable_mask_intersect): the
 * target of `f` with its facts, the part inside `box`. */
CoreTarget  fake_run_target (Fake *f);

/* As the GIMP hosts' describe: the run's facts where it asked them, else
 * asked here; the buffer handed over; counted in `describes`. */
gboolean    fake_describe (const CoreTarget *target, CoreDrawableInfo *info);

/* The CoreHost callbacks besides luminance, describe and files. */
void        fake_item_facts       (gpointer drawable, gboolean exists,
                                   gchar **name, gboolean *is_group,
                                   gboolean *locked);
GeglBuffer *fake_buffer           (gpointer drawable);
GeglBuffer *fake_shadow_buffer    (gpointer drawable);
GeglBuffer *fake_selection_buffer (gpointer drawable);
const Babl *fake_drawable_format  (gpointer drawable);
void        fake_merge_shadow     (gpointer drawable, gint x, gint y,
                                   gint width, gint height);
gint        fake_tile_height      (void);
void        fake_progress_text    (const gchar *text);
void        fake_progress_update  (gdouble fraction);
void        fake_image_close      (gpointer image);
gpointer    fake_scratch_layer    (gpointer drawable, gint width,
                                   gint height, gpointer *layer);

/* Those callbacks, for a CoreHost's initializer. */
#define FAKE_HOST_CALLBACKS                         \
  .item_facts = fake_item_facts,                    \
  .buffer = fake_buffer,                            \
  .shadow_buffer = fake_shadow_buffer,              \
  .selection_buffer = fake_selection_buffer,        \
  .format = fake_drawable_format,                   \
  .merge_shadow = fake_merge_shadow,                \
  .tile_height = fake_tile_height,                  \
  .progress_text = fake_progress_text,              \
  .progress_update = fake_progress_update,          \
  .image_close = fake_image_close,                  \
  .scratch_layer = fake_scratch_layer

#endif
