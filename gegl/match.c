/* SPDX-License-Identifier: GPL-3.0-or-later */
/* match.c — gpu-histogram:match, the composer class (see match.h). */
#include "match.h"

#include "format.h"
#include "render.h"

typedef struct
{
  GeglOperationComposer parent;
  gh_request            request;
  gh_layer              layer;   /* prepare's choice: how the input is read */
  gh_layer              aux;     /* and the reference */
  gboolean              warned;  /* one warning per operation instance */
} GhGeglMatch;

typedef struct
{
  GeglOperationComposerClass parent;
  const GhGeglOpInfo        *info;
} GhGeglMatchClass;

static void
set_property (GObject *object, guint prop, const GValue *value,
              GParamSpec *pspec)
{
  gh_gegl_property_set (&((GhGeglMatch *) object)->request, object, prop,
                        value, pspec);
}

static void
get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  gh_gegl_property_get (&((GhGeglMatch *) object)->request, object, prop,
                        value, pspec);
}

/* Each pad in its own format by the input's rule; the reference counted
 * in the input's bins, as the procedure bins it. */
static void
prepare (GeglOperation *operation)
{
  GhGeglMatch *self = (GhGeglMatch *) operation;
  const Babl  *input = gegl_operation_get_source_format (operation, "input");

  gh_gegl_layer (input, &self->layer);
  gh_gegl_layer (gegl_operation_get_source_format (operation, "aux"),
                 &self->aux);
  gh_layer_use_bins (&self->aux, self->layer.bins);
  gegl_operation_set_format (operation, "input", self->layer.source);
  gegl_operation_set_format (operation, "aux", self->aux.source);
  gegl_operation_set_format (operation, "output",
                             gh_gegl_output_format (input, &self->layer));
}

/* The input's extent: a larger reference does not grow the result. */
static GeglRectangle
get_bounding_box (GeglOperation *operation)
{
  const GeglRectangle *in = gegl_operation_source_get_bounding_box (operation,
                                                                    "input");

  return in ? *in : (GeglRectangle) { 0, 0, 0, 0 };
}

/* Both histograms are of the whole of each pad. */
static GeglRectangle
get_required_for_output (GeglOperation *operation, const gchar *pad,
                         const GeglRectangle *roi)
{
  return gh_gegl_whole_source (operation, pad, roi);
}

/* The whole result cached, as gegl:stretch-contrast's: GIMP merges match,
 * never keeps it live, so one render counts both pads. */
static GeglRectangle
get_cached_region (GeglOperation *operation, const GeglRectangle *roi)
{
  return gh_gegl_whole_source (operation, "input", roi);
}

/* Any change on either pad changes every level's mapping. */
static GeglRectangle
get_invalidated_by_change (GeglOperation *operation, const gchar *pad,
                           const GeglRectangle *roi)
{
  (void) pad;
  return gh_gegl_whole_source (operation, "input", roi);
}

static gboolean
composer_process (GeglOperation *operation, GeglBuffer *input,
                  GeglBuffer *aux, GeglBuffer *output,
                  const GeglRectangle *result, gint level)
{
  GhGeglMatch  *self = (GhGeglMatch *) operation;
  GeglRectangle whole = gh_gegl_whole_source (operation, "input", result);
  GeglRectangle ref = gh_gegl_whole_source (operation, "aux", result);
  gh_histogram  hist;
  gint          threads = 1;
  gh_error      err = { 0 };
  gboolean      ok = FALSE;

  (void) level;
  /* Only a reference: no image to write. */
  if (! input)
    return TRUE;
  g_object_get (gegl_config (), "threads", &threads, NULL);
  gh_histogram_init (&hist);
  if (! aux)
    g_snprintf (err.message, sizeof err.message,
                "no reference image on its aux input");
  else if (! gh_gegl_histogram (&self->aux, threads, aux, &ref, &hist, &err))
    {
      gchar *why = g_strdup (err.message);

      g_snprintf (err.message, sizeof err.message, "the reference: %s", why);
      g_free (why);
    }
  else
    ok = gh_gegl_render_reference (&self->request, &self->layer, threads,
                                   input, &whole, &hist, output, result,
                                   &err);
  gh_histogram_clear (&hist);
  if (ok)
    return TRUE;
  if (! self->warned)
    g_warning ("%s: %s; the input is passed through",
               ((GhGeglMatchClass *) G_OBJECT_GET_CLASS (self))->info->name,
               err.message);
  self->warned = TRUE;
  gegl_buffer_copy (input, result, GEGL_ABYSS_NONE, output, result);
  return TRUE;
}

static void
class_init (gpointer klass, gpointer class_data)
{
  const GhGeglOpInfo         *info = class_data;
  GObjectClass               *object_class = G_OBJECT_CLASS (klass);
  GeglOperationClass         *operation_class = GEGL_OPERATION_CLASS (klass);
  GeglOperationComposerClass *composer_class = klass;

  ((GhGeglMatchClass *) klass)->info = info;
  object_class->set_property = set_property;
  object_class->get_property = get_property;
  gh_gegl_operation_class_common (operation_class, info);
  operation_class->prepare = prepare;
  operation_class->get_bounding_box = get_bounding_box;
  operation_class->get_required_for_output = get_required_for_output;
  operation_class->get_invalidated_by_change = get_invalidated_by_change;
  operation_class->get_cached_region = get_cached_region;
  composer_class->process = composer_process;
  /* GIMP's generated dialog labels its drawable chooser so. */
  composer_class->aux_label = "Reference";
  composer_class->aux_description = "The image whose histogram the input's "
                                    "is matched to";
}

static void
instance_init (GTypeInstance *instance, gpointer klass)
{
  gh_request_defaults (&((GhGeglMatch *) instance)->request,
                       ((GhGeglMatchClass *) klass)->info->operation);
}

GType
gh_gegl_match_register (GTypeModule *module, const char *type_name,
                        const GhGeglOpInfo *info)
{
  const GTypeInfo type_info = {
    sizeof (GhGeglMatchClass), NULL, NULL, class_init, NULL, info,
    sizeof (GhGeglMatch), 0, instance_init, NULL
  };

  gh_gegl_enums_register (module);
  return g_type_module_register_type (module, GEGL_TYPE_OPERATION_COMPOSER,
                                      type_name, &type_info, 0);
}
