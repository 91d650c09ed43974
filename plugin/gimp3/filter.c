/* SPDX-License-Identifier: GPL-3.0-or-later */
/* filter.c — the GIMP 3 procedures through the GEGL module (filter.h). */
#include "filter.h"

#include "core/errors.h"
#include "gegl/names.h"

const CoreArgText gimp3_arg_live = {
  "live", "Keep as live filter",
  "Leave the operation on the layer as a live filter (GIMP 3, where the "
  "GEGL module is installed), editable and re-rendered when the layer "
  "changes; FALSE: merged at once"
};

gboolean
gimp3_filter_has_live (gh_operation op)
{
  return gh_gegl_operation_name (op) != NULL
         && ! gh_gegl_operation_has_aux (op);
}

gboolean
gimp3_filter_offered (const DialogChoice *choice,
                      gpointer data G_GNUC_UNUSED)
{
  gh_operation op = choice->request.operation;

  return gimp3_filter_has_live (op) && choice->request.n_bins == 0
         && gegl_has_operation (gh_gegl_operation_name (op));
}

gboolean
gimp3_filter_apply_flow (const CoreTarget *target, const CoreRequest *req,
                         gboolean live, gboolean *applied, GError **error)
{
  /* The dialog's and a batch file's targets have no facts (core_target):
   * the image asked. */
  CoreTarget        own = *target;
  gh_request_result result;
  Gimp3FilterStatus status;

  own.image = gimp_item_get_image (GIMP_ITEM (target->drawable));
  /* Match's check box is insensitive (gimp3_filter_offered), not unset:
   * a live choice remembered from another operation merges it. */
  status = gimp3_filter_apply (&own, req,
                               live && gimp3_filter_has_live (
                                         req->request.operation),
                               &result, error);
  *applied = status == GIMP3_FILTER_APPLIED;
  return status != GIMP3_FILTER_FAILED;
}

/* Whether the image's colour space is sRGB (its own or linear). */
static gboolean
image_is_srgb (GimpImage *image)
{
  GimpColorProfile *profile = gimp_image_get_color_profile (image);
  GimpColorProfile *own, *linear;
  gboolean          srgb;

  if (! profile)
    return TRUE;
  own = gimp_color_profile_new_rgb_srgb ();
  linear = gimp_color_profile_new_rgb_srgb_linear ();
  srgb = gimp_color_profile_is_equal (profile, own)
         || gimp_color_profile_is_equal (profile, linear);
  g_object_unref (own);
  g_object_unref (linear);
  g_object_unref (profile);
  return srgb;
}

/* Whether GIMP gives match's filter on its aux pad the reference the
 * pixel path counts.  GIMP gives the whole drawable, whatever its type
 * (a channel, an indexed or 16-bit layer: each equal,
 * tests/plugin_live.py), where the procedure counts its own image's
 * selection; where its luminance is counted (a luminance mode, a gray
 * layer's match), outside sRGB it is babl's, as below; and the procedure
 * refuses a reference with no pixels, where the module would pass the
 * layer through: GIMP's own histogram of the alpha (in GIMP's process,
 * asked last) says whether any pixel counts. */
static gboolean
reference_gives_the_same (GimpDrawable *reference, gboolean luminance)
{
  GimpImage *image;
  gdouble    alpha = 1, unused;

  if (! reference)
    return FALSE;
  image = gimp_item_get_image (GIMP_ITEM (reference));
  if (! gimp_selection_is_empty (image)
      || (luminance && ! image_is_srgb (image)))
    return FALSE;
  if (gimp_drawable_has_alpha (reference)
      && ! gimp_drawable_histogram (reference, GIMP_HISTOGRAM_ALPHA, 0, 1,
                                    &alpha, &unused, &unused, &unused,
                                    &unused, &unused))
    return FALSE;
  return alpha > 0;
}

/* Whether the module gives the pixel path's result (and return values)
 * on this request and drawable; else the pixel path applies, for these
 * reasons: */
static gboolean
module_gives_the_same (const CoreTarget *target, const CoreRequest *req,
                       gboolean live)
{
  const gh_request *r = &req->request;
  GimpDrawable     *drawable = target->drawable;
  GimpImage        *image = target->image;
  gboolean          gray, luminance;

  /* Multi-Otsu's compute-only run and the dialog's thresholds at the
   * bins its markers show are the plug-in's own.  Merged, binarize's Otsu
   * level and multi-Otsu's thresholds are the procedures' return values,
   * which the plug-in counts: its path already leaves binarize's pixel
   * pass to GIMP (operations.h).  Live, they follow the layer. */
  if (req->apply != TRUE || r->n_bins > 0
      || (! live && r->operation == GH_REQ_BINARIZE && r->threshold < 0)
      || (! live && r->operation == GH_REQ_POSTERIZE))
    return FALSE;
  /* Layer masks, channels, groups, indexed and locked layers: the pixel
   * path's rules (it refuses what it cannot change, saying why). */
  if (! GIMP_IS_LAYER (drawable) || gimp_item_is_group (GIMP_ITEM (drawable))
      || gimp_drawable_is_indexed (drawable)
      || gimp_item_get_lock_content (GIMP_ITEM (drawable)))
    return FALSE;
  /* GIMP crops a filter's input to the selection's bounds: the module
   * counts the bounding box unweighted where the procedure weighs each
   * pixel by the selection (doc/live-filters.md). */
  if (! gimp_selection_is_empty (image))
    return FALSE;
  /* The channels a drawable lacks: the procedure refuses them, the
   * module reads a gray layer's level or passes the input through. */
  gray = gimp_drawable_is_gray (drawable);
  if ((r->operation == GH_REQ_BINARIZE || r->operation == GH_REQ_POSTERIZE)
      && ((gray && r->channel != GH_CHANNEL_VALUE
           && r->channel != GH_CHANNEL_ALPHA)
          || (r->channel == GH_CHANNEL_ALPHA
              && ! gimp_drawable_has_alpha (drawable))))
    return FALSE;
  /* Luminance in a space other than sRGB: the module takes the space's,
   * as the procedure does, but through babl in GIMP's process, whose
   * conversions differ from the plug-in's by a level on a pixel now and
   * then (doc/live-filters.md); the procedure keeps its own path there. */
  luminance = gh_request_on_luminance (r) >= 0;
  if (! gray && luminance && ! image_is_srgb (image))
    return FALSE;
  return ! gh_gegl_operation_has_aux (r->operation)
         || reference_gives_the_same (req->reference, gray || luminance);
}

/* The module's filter of `name` on the drawable, or NULL where GIMP has
 * no such operation: asked with the plug-in's PDB error handler, so that
 * GIMP shows no error for a module that is simply not installed.  Its
 * name in the layer's filter list is the operation's, as the menu says
 * it. */
static GimpDrawableFilter *
filter_new (GimpDrawable *drawable, gh_operation op)
{
  GimpPlugIn            *plug_in = gimp_get_plug_in ();
  GimpPDBErrorHandler    handler = gimp_plug_in_get_pdb_error_handler (plug_in);
  GimpDrawableFilter    *filter;

  gimp_plug_in_set_pdb_error_handler (plug_in, GIMP_PDB_ERROR_HANDLER_PLUGIN);
  filter = gimp_drawable_filter_new (drawable, gh_gegl_operation_name (op),
                                     gh_operation_get (op)->label);
  gimp_plug_in_set_pdb_error_handler (plug_in, handler);
  return filter;
}

/* The request's parameters into the filter's config, by the vocabulary's
 * names (the module's properties are made from them): mode and channel
 * by their values' nicks, GIMP's choice for a GEGL enum; FALSE where the
 * module's properties are not those (another version of it). */
static gboolean
set_config (GimpDrawableFilter *filter, const gh_request *r)
{
  GObject                 *config = G_OBJECT (
    gimp_drawable_filter_get_config (filter));
  const gh_operation_spec *op = gh_operation_get (r->operation);

  for (gint k = 0; k < op->n_params; k++)
    {
      const gh_param_spec *p = gh_param_get (op->params[k]);
      GParamSpec          *spec = g_object_class_find_property (
        G_OBJECT_GET_CLASS (config), p->name);
      gdouble              x = gh_request_get (r, op->params[k]);
      GValue               value = G_VALUE_INIT;
      gint                 n;

      if (! spec)
        return FALSE;
      g_value_init (&value, spec->value_type);
      /* The request is checked (gimp3_filter_apply): x is one of the
       * values, which are numbered from 0. */
      if (GIMP_IS_PARAM_SPEC_CHOICE (spec))
        g_value_set_string (&value,
                            gh_param_values (op->params[k], &n)[(gint) x].nick);
      else if (G_IS_PARAM_SPEC_INT (spec))
        g_value_set_int (&value, (gint) x);
      else if (G_IS_PARAM_SPEC_DOUBLE (spec))
        g_value_set_double (&value, x);
      else
        {
          g_value_unset (&value);
          return FALSE;
        }
      g_object_set_property (config, p->name, &value);
      g_value_unset (&value);
    }
  return TRUE;
}

/* Whether the drawable's filter list holds `filter`: libgimp's append
 * returns nothing, and GIMP refusing it is only a line on stderr. */
static gboolean
listed (GimpDrawable *drawable, GimpDrawableFilter *filter)
{
  GimpDrawableFilter **filters = gimp_drawable_get_filters (drawable);
  gint                 id = gimp_drawable_filter_get_id (filter);
  gboolean             found = FALSE;

  for (gint k = 0; filters && filters[k]; k++)
    found = found || gimp_drawable_filter_get_id (filters[k]) == id;
  g_free (filters);
  return found;
}

Gimp3FilterStatus
gimp3_filter_apply (const CoreTarget *target, const CoreRequest *req,
                    gboolean live, gh_request_result *result, GError **error)
{
  const gchar        *name = gh_gegl_operation_name (req->request.operation);
  GimpDrawable       *drawable = target->drawable;
  GimpDrawableFilter *filter;
  const gchar        *why;
  gchar              *item;

  if (! core_request_check (&req->request, error))
    return GIMP3_FILTER_FAILED;
  /* The plug-in's GEGL looks in GIMP's module folders: asked first, it
   * costs no round trip to GIMP, and without the module the call pays
   * none. */
  if (! name || ! gegl_has_operation (name)
      || ! module_gives_the_same (target, req, live))
    return GIMP3_FILTER_NOT_HERE;
  filter = filter_new (drawable, req->request.operation);
  if (! filter)
    return GIMP3_FILTER_NOT_HERE;
  if (! set_config (filter, &req->request))
    {
      gimp_drawable_filter_delete (filter);
      return GIMP3_FILTER_NOT_HERE;
    }
  if (gh_gegl_operation_has_aux (req->request.operation))
    gimp_drawable_filter_set_aux_input (filter, "aux",
                                        GIMP_DRAWABLE (req->reference));
  gimp_drawable_filter_set_blend_mode (filter, GIMP_LAYER_MODE_REPLACE);
  gimp_drawable_filter_set_opacity (filter, 1.0);
  gimp_drawable_filter_update (filter);
  if (live)
    gimp_drawable_append_filter (drawable, filter);
  else
    gimp_drawable_merge_filter (drawable, filter);
  if (live ? listed (drawable, filter)
           : gimp_pdb_get_last_status (gimp_get_pdb ()) == GIMP_PDB_SUCCESS)
    {
      result->n = req->request.operation == GH_REQ_BINARIZE;
      result->levels[0] = req->request.threshold;
      return GIMP3_FILTER_APPLIED;
    }
  why = gimp_pdb_get_last_error (gimp_get_pdb ());
  item = gimp_item_get_name (GIMP_ITEM (drawable));
  g_set_error (error, CORE_ERROR, CORE_ERROR_FAILED,
               "GIMP did not %s the filter %s on '%s': %s",
               live ? "keep" : "merge", name, item,
               why && *why ? why : "GIMP gave no reason");
  g_free (item);
  if (gimp_drawable_filter_is_valid (filter))
    gimp_drawable_filter_delete (filter);
  return GIMP3_FILTER_FAILED;
}
