/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fake_host.c — a CoreHost of GEGL buffers in memory (fake_host.h). */
#include <string.h>

#include "fake_host.h"

gint fake_closed_describes;
GPtrArray *fake_progress_texts;
gboolean   fake_progress_monotone = TRUE;
gdouble    fake_progress_last;
gint fake_closed_images;

const Babl *
fake_format (const Fake *f)
{
  static const char *const names[2][2][2] = {
    { { "R'G'B' u8", "R'G'B'A u8" }, { "Y' u8", "Y'A u8" } },
    { { "R'G'B' float", "R'G'B'A float" }, { "Y' float", "Y'A float" } },
  };

  return babl_format_with_space (names[f->is_float][f->gray][f->alpha],
                                 f->space);
}

Fake *
fake_new (gint width, gint height, gboolean gray, gboolean alpha,
          gboolean is_float, const Babl *space)
{
  Fake *f = g_new0 (Fake, 1);

  f->gray = gray;
  f->alpha = alpha;
  f->is_float = is_float;
  f->space = space;
  f->buffer = gegl_buffer_new (GEGL_RECTANGLE (0, 0, width, height),
                               fake_format (f));
  f->box = *gegl_buffer_get_extent (f->buffer);
  return f;
}

void
fake_free (Fake *f)
{
  g_clear_object (&f->buffer);
  g_clear_object (&f->shadow);
  g_clear_object (&f->selection);
  g_free (f);
}

CoreTarget
fake_run_target (Fake *f)
{
  CoreTarget target = core_target (f);

  target.asked = TRUE;
  target.intersects = TRUE;
  target.x = f->box.x;
  target.y = f->box.y;
  target.width = f->box.width;
  target.height = f->box.height;
  return target;
}

gboolean
fake_describe (const CoreTarget *target, CoreDrawableInfo *info)
{
  Fake      *f = target->drawable;
  CoreTarget facts = target->asked ? *target : fake_run_target (f);

  memset (info, 0, sizeof *info);
  f->describes++;
  core_drawable_info_fill (info, g_object_ref (f->buffer), &facts);
  info->has_selection = f->selection != NULL;
  return TRUE;
}

void
fake_item_facts (gpointer drawable, gboolean exists, gchar **name,
                 gboolean *is_group, gboolean *locked)
{
  (void) drawable;
  (void) exists;
  if (name)
    *name = g_strdup ("fake");
  if (is_group)
    *is_group = FALSE;
  if (locked)
    *locked = FALSE;
}

GeglBuffer *
fake_buffer (gpointer drawable)
{
  return g_object_ref (((Fake *) drawable)->buffer);
}

GeglBuffer *
fake_shadow_buffer (gpointer drawable)
{
  Fake *f = drawable;

  if (! f->shadow)
    f->shadow = gegl_buffer_new (gegl_buffer_get_extent (f->buffer),
                                 fake_format (f));
  return g_object_ref (f->shadow);
}

GeglBuffer *
fake_selection_buffer (gpointer drawable)
{
  return g_object_ref (((Fake *) drawable)->selection);
}

const Babl *
fake_drawable_format (gpointer drawable)
{
  return fake_format (drawable);
}

/* The selection is all or nothing inside its box: the merge copies. */
void
fake_merge_shadow (gpointer drawable, gint x, gint y, gint width,
                   gint height)
{
  Fake *f = drawable;

  gegl_buffer_copy (f->shadow, GEGL_RECTANGLE (x, y, width, height),
                    GEGL_ABYSS_NONE, f->buffer,
                    GEGL_RECTANGLE (x, y, width, height));
}

gint
fake_tile_height (void)
{
  return FAKE_TILE_HEIGHT;
}

void
fake_progress_text (const gchar *text)
{
  if (fake_progress_texts)
    g_ptr_array_add (fake_progress_texts, g_strdup (text));
}

void
fake_progress_update (gdouble fraction)
{
  if (fraction < fake_progress_last || fraction < 0.0 || fraction > 1.0)
    fake_progress_monotone = FALSE;
  fake_progress_last = fraction;
}

void
fake_image_close (gpointer image)
{
  fake_closed_describes += ((Fake *) image)->describes;
  fake_closed_images++;
  fake_free (image);
}

/* The scratch image is its one layer, of the drawable's kind. */
gpointer
fake_scratch_layer (gpointer drawable, gint width, gint height,
                    gpointer *layer)
{
  Fake *f = drawable;

  *layer = fake_new (width, height, f->gray, f->alpha, f->is_float,
                     f->space);
  return *layer;
}
