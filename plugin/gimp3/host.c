/* SPDX-License-Identifier: GPL-3.0-or-later */
/* host.c — the plug-in core's host for GIMP 3 (libgimp 3.0). */
#include "host.h"

#include <string.h>

#include "core/errors.h"
#include "filter.h"

/* What the core needs of the drawable, in as few round trips as libgimp
 * allows: the image and the part inside the selection as the run asked
 * them (the target's facts), and the buffer (libgimp asks GIMP for
 * its format, with the image's colour space, and its size), which tells
 * the layout, the precision and whether GIMP 3 bins linear-light values,
 * so the pixels are asked for once.  GIMP 3's histogram reads a drawable
 * in the drawable's own TRC (app/core/gimphistogram.c), which is linear
 * for the *_LINEAR precisions and for channels and layer masks ("Y u8",
 * ...).  Classed by the format, a channel of an 8-bit non-linear image is
 * 8-bit linear where the image is not; both read it as linear floats with
 * 256 bins. */
static gboolean
describe (const CoreTarget *target, CoreDrawableInfo *info)
{
  GimpDrawable *drawable = target->drawable;
  CoreTarget    facts = *target;
  GimpImage    *image;
  const Babl   *format;

  /* A drawable of a closed image stays a valid GObject in the plug-in;
   * gimp_item_is_valid asks GIMP whether it still exists. */
  if (! facts.asked && GIMP_IS_DRAWABLE (drawable)
      && gimp_item_is_valid (GIMP_ITEM (drawable)))
    {
      facts.image = gimp_item_get_image (GIMP_ITEM (drawable));
      facts.intersects = facts.image
                         && gimp_drawable_mask_intersect (drawable, &facts.x,
                                                          &facts.y,
                                                          &facts.width,
                                                          &facts.height);
    }
  image = facts.image;
  if (! image)
    return FALSE;
  format = core_drawable_info_fill (info, gimp_drawable_get_buffer (drawable),
                                    &facts);
  info->bins_linear = core_format_is_linear (format);
  info->has_selection = ! gimp_selection_is_empty (image);
  if (info->has_selection)
    gimp_drawable_get_offsets (drawable, &info->offset_x, &info->offset_y);
  return TRUE;
}

/* A drawable that does not exist is named by its ID ("(none)" where it is
 * not even a drawable: GIMP 3 passes NULL for a missing argument). */
static void
item_facts (gpointer data, gboolean exists, gchar **name, gboolean *is_group,
            gboolean *locked)
{
  GimpItem *item = GIMP_IS_DRAWABLE (data) ? GIMP_ITEM (data) : NULL;

  if (name)
    *name = exists ? gimp_item_get_name (item)
            : item ? g_strdup_printf ("%d", gimp_item_get_id (item))
                   : g_strdup ("(none)");
  if (is_group)
    *is_group = exists && gimp_item_is_group (item);
  /* GIMP 3's "lock pixels" is the item's content lock. */
  if (locked)
    *locked = exists && gimp_item_get_lock_content (item);
}

static GeglBuffer *
buffer (gpointer drawable)
{
  return gimp_drawable_get_buffer (drawable);
}

static GeglBuffer *
shadow_buffer (gpointer drawable)
{
  return gimp_drawable_get_shadow_buffer (drawable);
}

static GeglBuffer *
selection_buffer (gpointer drawable)
{
  GimpImage *image = gimp_item_get_image (GIMP_ITEM (drawable));

  return gimp_drawable_get_buffer (
    GIMP_DRAWABLE (gimp_image_get_selection (image)));
}

static const Babl *
format (gpointer drawable)
{
  return gimp_drawable_get_format (drawable);
}

static void
merge_shadow (gpointer drawable, gint x, gint y, gint width, gint height)
{
  /* TRUE: pushed on the undo stack, inside the procedure's undo group. */
  gimp_drawable_merge_shadow (drawable, TRUE);
  gimp_drawable_update (drawable, x, y, width, height);
}

static gint
tile_height (void)
{
  return (gint) gimp_tile_height ();
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

/* Why the last PDB call failed, as GIMP said it. */
static void
set_pdb_error (GError **error)
{
  const gchar *why = gimp_pdb_get_last_error (gimp_get_pdb ());

  g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED, "%s",
               why && *why ? why : "GIMP gave no reason");
}

static gpointer
file_load (const gchar *path, gpointer *drawable, GError **error)
{
  GFile         *file = g_file_new_for_path (path);
  GimpImage     *image = gimp_file_load (GIMP_RUN_NONINTERACTIVE, file);
  GimpDrawable **selected;

  g_object_unref (file);
  *drawable = NULL;
  if (! image)
    {
      set_pdb_error (error);
      return NULL;
    }
  /* A file loads with its top layer selected: GIMP 2.10's active layer. */
  selected = gimp_image_get_selected_drawables (image);
  *drawable = selected[0];
  g_free (selected);
  return image;
}

/* The export procedure of `path`'s format by GIMP's naming
 * (file-<extension>-export), where it takes include-color-profile; else
 * NULL. */
static GimpProcedure *
profile_exporter (const gchar *path)
{
  static const gchar *const aliases[][2] = {
    { "jpg", "jpeg" }, { "jpe", "jpeg" }, { "tif", "tiff" },
  };
  const gchar   *dot = strrchr (path, '.');
  gchar         *ext, *name;
  GimpProcedure *procedure;

  if (! dot || strchr (dot, G_DIR_SEPARATOR))
    return NULL;
  ext = g_ascii_strdown (dot + 1, -1);
  for (guint i = 0; i < G_N_ELEMENTS (aliases); i++)
    if (! strcmp (ext, aliases[i][0]))
      {
        g_free (ext);
        ext = g_strdup (aliases[i][1]);
      }
  name = g_strdup_printf ("file-%s-export", ext);
  procedure = gimp_is_canonical_identifier (name)
              ? gimp_pdb_lookup_procedure (gimp_get_pdb (), name) : NULL;
  g_free (name);
  g_free (ext);
  if (procedure
      && ! gimp_procedure_find_argument (procedure, "include-color-profile"))
    return NULL;
  return procedure;
}

/* `drawable` is not needed: GIMP 3 exports the image, and formats that
 * hold one layer get what the export procedure makes of it (the visible
 * layers merged), with the file's default export options (NULL).  But the
 * colour profile and the metadata are kept: gimp-file-save would run the
 * export with the defaults it registered, which in GIMP 3.0.4 and 3.2.6
 * leave the profile out (a PNG is then tagged sRGB whatever its pixels
 * mean) and the EXIF, XMP, IPTC, comment and thumbnail too, where GIMP
 * 2.10's scripted export and GIMP 3's own Export keep them.  So a format
 * whose export procedure takes include-color-profile is exported by it
 * with that on, and each metadata argument it takes as the preferences
 * set it (Export's defaults); others through gimp-file-save. */
/* The export arguments of the metadata, and the preferences (Edit >
 * Preferences > Image Import & Export) that Export starts them from. */
static const struct
{
  const gchar *name;
  gboolean (*preference) (void);
} metadata_arguments[] = {
  { "include-exif", gimp_export_exif },
  { "include-xmp", gimp_export_xmp },
  { "include-iptc", gimp_export_iptc },
  { "include-comment", gimp_export_comment },
  { "include-thumbnail", gimp_export_thumbnail },
};

static gboolean
file_save (gpointer image, gpointer drawable G_GNUC_UNUSED, const gchar *path,
           GError **error)
{
  GFile         *file = g_file_new_for_path (path);
  GimpProcedure *exporter = profile_exporter (path);
  gboolean       ok;

  if (exporter)
    {
      GimpProcedureConfig *config = gimp_procedure_create_config (exporter);
      GimpValueArray      *result;

      g_object_set (config, "run-mode", GIMP_RUN_NONINTERACTIVE,
                    "image", image, "file", file,
                    "include-color-profile", TRUE, NULL);
      for (guint i = 0; i < G_N_ELEMENTS (metadata_arguments); i++)
        if (gimp_procedure_find_argument (exporter,
                                          metadata_arguments[i].name))
          g_object_set (config, metadata_arguments[i].name,
                        metadata_arguments[i].preference (), NULL);
      result = gimp_procedure_run_config (exporter, config);
      ok = GIMP_VALUES_GET_ENUM (result, 0) == GIMP_PDB_SUCCESS;
      gimp_value_array_unref (result);
      g_object_unref (config);
    }
  else
    ok = gimp_file_save (GIMP_RUN_NONINTERACTIVE, image, file, NULL);
  g_object_unref (file);
  if (! ok)
    set_pdb_error (error);
  return ok;
}

static void
image_close (gpointer image)
{
  gimp_image_delete (image);
}

/* The source image's colour profile comes along, so the layer's pixels
 * mean what the drawable's do. */
static gpointer
scratch_layer (gpointer drawable, gint width, gint height, gpointer *layer)
{
  GimpImage        *source = gimp_item_get_image (GIMP_ITEM (drawable));
  GimpImage        *image = gimp_image_new_with_precision (
    width, height, gimp_drawable_is_gray (drawable) ? GIMP_GRAY : GIMP_RGB,
    gimp_image_get_precision (source));
  GimpColorProfile *profile = gimp_image_get_color_profile (source);
  GimpLayer        *l;

  gimp_image_undo_disable (image);
  if (profile)
    {
      gimp_image_set_color_profile (image, profile);
      g_object_unref (profile);
    }
  l = gimp_layer_new (image, "preview", width, height,
                      gimp_drawable_type (drawable), 100,
                      GIMP_LAYER_MODE_NORMAL);
  gimp_image_insert_layer (image, l, NULL, 0);
  *layer = l;
  return image;
}

/* GIMP's "gimp:threshold" filter, merged at once: what
 * gimp_drawable_threshold did (the same operation over the selection, one
 * undo step), which GIMP 3.2 deprecates for it; GIMP 3.0 has the same
 * calls. */
static gboolean
threshold (gpointer drawable, gint channel, gdouble low, gdouble high,
           GError **error)
{
  GimpDrawableFilter *filter = gimp_drawable_filter_new (drawable,
                                                         "gimp:threshold",
                                                         NULL);

  if (! filter)
    {
      set_pdb_error (error);
      return FALSE;
    }
  g_object_set (gimp_drawable_filter_get_config (filter),
                "channel", (GimpHistogramChannel) channel,
                "low", low, "high", high, NULL);
  gimp_drawable_filter_set_blend_mode (filter, GIMP_LAYER_MODE_REPLACE);
  gimp_drawable_filter_set_opacity (filter, 1.0);
  /* It returns nothing: the merge's own PDB call tells how it went. */
  gimp_drawable_merge_filter (drawable, filter);
  if (gimp_pdb_get_last_status (gimp_get_pdb ()) == GIMP_PDB_SUCCESS)
    return TRUE;
  set_pdb_error (error);
  return FALSE;
}

/* Merged (a batch's file is no place for a live filter), by the rule the
 * procedures use. */
static gboolean
apply_inside (const CoreTarget *target, const gh_request *request,
              gboolean *applied, GError **error)
{
  CoreRequest req = { *request, NULL, TRUE };

  return gimp3_filter_apply_flow (target, &req, FALSE, applied, error);
}

const CoreHost *
gimp3_host (void)
{
  static const CoreHost host = {
    /* GIMP 3 bins the luminance of linear light (app/core/gimphistogram.c
     * at 3.0.4: babl_fish (format, "Y float")), whatever the layer's
     * precision. */
    .luminance = GH_LUMINANCE_LINEAR,
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
    .apply_inside = apply_inside,
  };

  return &host;
}
