/* SPDX-License-Identifier: GPL-3.0-or-later */
/* host.c — the core's CoreHost for GIMP 2.10. */
#include "host.h"

#include <string.h>

#include "errors.h"

/* What the core needs of the drawable, in as few round trips as GIMP
 * 2.10 allows: the image and the part inside the selection as the run
 * asked them (the target's facts), and the buffer (libgimp asks GIMP
 * for its format and size), which tells the layout and precision, so the
 * pixels are asked for once. */
static gboolean
describe (const CoreTarget *target, CoreDrawableInfo *info)
{
  gint32     id = GPOINTER_TO_INT (target->drawable);
  CoreTarget facts = *target;
  gint32     image;

  memset (info, 0, sizeof *info);
  if (! facts.asked)
    {
      facts.image = GIMP2_HANDLE (gimp_item_get_image (id));
      if (GPOINTER_TO_INT (facts.image) != -1)
        facts.intersects = gimp_drawable_mask_intersect (id, &facts.x,
                                                         &facts.y,
                                                         &facts.width,
                                                         &facts.height);
    }
  image = GPOINTER_TO_INT (facts.image);
  if (image == -1)
    return FALSE;
  core_drawable_info_fill (info, gimp_drawable_get_buffer (id), &facts);
  /* Linear 8-bit gray is also the storage of every layer mask (GIMP
   * 2.10's gimp_babl_mask_format): the image's precision says how the
   * core reads it. */
  if (info->precision == CORE_PRECISION_U8_LINEAR && info->is_gray
      && gimp_image_get_precision (image) == GIMP_PRECISION_U8_GAMMA)
    info->precision = CORE_PRECISION_U8_PERCEPTUAL;
  info->has_selection = ! gimp_selection_is_empty (image);
  if (info->has_selection)
    gimp_drawable_offsets (id, &info->offset_x, &info->offset_y);
  return TRUE;
}

/* A drawable that does not exist is named by its ID. */
static void
item_facts (gpointer drawable, gboolean exists, gchar **name,
            gboolean *is_group, gboolean *locked)
{
  gint32 id = GPOINTER_TO_INT (drawable);

  if (name)
    *name = exists ? gimp_item_get_name (id) : g_strdup_printf ("%d", id);
  if (is_group)
    *is_group = exists && gimp_item_is_group (id);
  if (locked)
    *locked = exists && gimp_item_get_lock_content (id);
}

static GeglBuffer *
buffer (gpointer drawable)
{
  return gimp_drawable_get_buffer (GPOINTER_TO_INT (drawable));
}

static GeglBuffer *
shadow_buffer (gpointer drawable)
{
  return gimp_drawable_get_shadow_buffer (GPOINTER_TO_INT (drawable));
}

static GeglBuffer *
selection_buffer (gpointer drawable)
{
  gint32 image = gimp_item_get_image (GPOINTER_TO_INT (drawable));

  return gimp_drawable_get_buffer (gimp_image_get_selection (image));
}

static const Babl *
format (gpointer drawable)
{
  return gimp_drawable_get_format (GPOINTER_TO_INT (drawable));
}

static void
merge_shadow (gpointer drawable, gint x, gint y, gint width, gint height)
{
  gint32 id = GPOINTER_TO_INT (drawable);

  gimp_drawable_merge_shadow (id, TRUE);
  gimp_drawable_update (id, x, y, width, height);
}

static gint
tile_height (void)
{
  return gimp_tile_height ();
}

static void
progress_text (const gchar *text)
{
  gimp_progress_init (text);
}

static void
progress_update (gdouble fraction)
{
  gimp_progress_update (fraction);
}

static gpointer
file_load (const gchar *path, gpointer *drawable, GError **error)
{
  gint32 image = gimp_file_load (GIMP_RUN_NONINTERACTIVE, path, path);
  gint32 active;

  if (image == -1)
    {
      g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED, "%s",
                   gimp_get_pdb_error ());
      return NULL;
    }
  /* Only the batch loads files, and nobody can undo inside a batch:
   * keeping undo steps would only cost memory. */
  gimp_image_undo_disable (image);
  active = gimp_image_get_active_drawable (image);
  *drawable = active == -1 ? NULL : GIMP2_HANDLE (active);
  return GIMP2_HANDLE (image);
}

static gboolean
file_save (gpointer image, gpointer drawable, const gchar *path,
           GError **error)
{
  gchar   *base = g_path_get_basename (path);
  gboolean ok = gimp_file_save (GIMP_RUN_NONINTERACTIVE,
                                GPOINTER_TO_INT (image),
                                GPOINTER_TO_INT (drawable), path, base);

  g_free (base);
  if (! ok)
    g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED, "%s",
                 gimp_get_pdb_error ());
  return ok;
}

static void
image_close (gpointer image)
{
  gimp_image_delete (GPOINTER_TO_INT (image));
}

static gpointer
scratch_layer (gpointer drawable, gint width, gint height, gpointer *layer)
{
  gint32 id = GPOINTER_TO_INT (drawable);
  gint32 image = gimp_image_new_with_precision (
    width, height, gimp_drawable_is_gray (id) ? GIMP_GRAY : GIMP_RGB,
    gimp_image_get_precision (gimp_item_get_image (id)));
  gint32 l;

  gimp_image_undo_disable (image);
  l = gimp_layer_new (image, "preview", width, height,
                      gimp_drawable_type (id), 100, GIMP_LAYER_MODE_NORMAL);
  gimp_image_insert_layer (image, l, -1, 0);
  *layer = GIMP2_HANDLE (l);
  return GIMP2_HANDLE (image);
}

static gboolean
threshold (gpointer drawable, gint channel, gdouble low, gdouble high,
           GError **error)
{
  if (gimp_drawable_threshold (GPOINTER_TO_INT (drawable),
                               (GimpHistogramChannel) channel, low, high))
    return TRUE;
  g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED, "%s",
               gimp_get_pdb_error ());
  return FALSE;
}

const CoreHost gimp2_host = {
  /* GIMP 2.10 bins the stored perceptual values' Y'. */
  .luminance = GH_LUMINANCE_PERCEPTUAL,
  .describe = describe,
  .item_facts = item_facts,
  .buffer = buffer,
  .shadow_buffer = shadow_buffer,
  .selection_buffer = selection_buffer,
  .format = format,
  .merge_shadow = merge_shadow,
  .tile_height = tile_height,
  .progress_text = progress_text,
  .progress_update = progress_update,
  .file_load = file_load,
  .file_save = file_save,
  .image_close = image_close,
  .scratch_layer = scratch_layer,
  .threshold = threshold,
};

GimpPDBStatusType
gimp2_pdb_status (const GError *error)
{
  return core_error_is_calling (error) ? GIMP_PDB_CALLING_ERROR
                                       : GIMP_PDB_EXECUTION_ERROR;
}
