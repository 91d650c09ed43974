/* SPDX-License-Identifier: GPL-3.0-or-later */
/* operation.c — the operations' class (see operation.h). */
#include "operation.h"

#include <pthread.h>

#include "format.h"
#include "render.h"

typedef struct
{
  GeglOperationFilter parent;
  gh_request          request;
  gh_layer            layer;   /* prepare's choice: how the input is read */
  gint                warned;  /* atomic: one warning per operation
                                  instance                              */
  GhGeglKeep         *keep;    /* its counts, until the input changes */
} GhGeglOp;

/* What GEGL's threads read of an instance (its keep, request and layer)
 * is written and read under this lock: the threads are handed their work
 * through GLib, which ThreadSanitizer does not see. */
static pthread_mutex_t fields = PTHREAD_MUTEX_INITIALIZER;

/* The instance's fields, as a render or a question reads them. */
static GhGeglKeep *
fields_get (GhGeglOp *self, gh_request *request, gh_layer *layer)
{
  GhGeglKeep *keep;

  pthread_mutex_lock (&fields);
  keep = self->keep;
  *request = self->request;
  *layer = self->layer;
  pthread_mutex_unlock (&fields);
  return keep;
}

typedef struct
{
  GeglOperationFilterClass parent;
  const GhGeglOpInfo      *info;
} GhGeglOpClass;

#define GH_GEGL_OP_GET_INFO(self) \
  (((GhGeglOpClass *) G_OBJECT_GET_CLASS (self))->info)

/* Property ids: gh_param + 1 (0 is reserved by GObject). */
#define PROP_OF(param) ((guint) (param) + 1)
#define PARAM_OF(prop) ((gh_param) ((prop) - 1))

static GType mode_type, channel_type;

/* The enums' values: the vocabulary's names (gh_param_values). */
static GType
register_enum (GTypeModule *module, const char *name, gh_param param)
{
  int                   n;
  const gh_param_value *v = gh_param_values (param, &n);
  /* GObject keeps the table for the type's life: the module's. */
  GEnumValue           *values = g_new0 (GEnumValue, n + 1);

  for (int k = 0; k < n; k++)
    values[k] = (GEnumValue) { v[k].value, v[k].label, v[k].nick };
  return g_type_module_register_enum (module, name, values);
}

void
gh_gegl_enums_register (GTypeModule *module)
{
  if (mode_type)
    return;
  mode_type = register_enum (module, "GhGeglMode", GH_PARAM_MODE);
  channel_type = register_enum (module, "GhGeglChannel", GH_PARAM_CHANNEL);
}

/* The GParamSpec of `param` with `operation`'s default. */
static GParamSpec *
param_spec (gh_operation operation, gh_param param)
{
  const gh_param_spec *s = gh_param_get (param);
  double               def = gh_param_default (operation, param);
  GParamFlags          flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT
                               | G_PARAM_STATIC_STRINGS;
  GParamSpec          *spec;

  /* GEGL's enum spec, not GLib's: the module's enum types exist only in
   * the processes that load the module, and GIMP 3 hands a GEGL enum to
   * plug-ins (scripts) as a choice of the values' nicks, where a GLib enum
   * of an unknown type empties the filter's whole config there. */
  if (param == GH_PARAM_MODE || param == GH_PARAM_CHANNEL)
    return gegl_param_spec_enum (s->name, s->label, s->blurb,
                                 param == GH_PARAM_MODE ? mode_type
                                                        : channel_type,
                                 (gint) def, flags);
  if (s->is_integer)
    {
      /* GIMP's slider shows the number: the label says what its minimum
       * means (threshold's -1).  Interned: the spec keeps it static. */
      gchar       *text = s->min_label
                            ? g_strdup_printf ("%s, %g %s", s->label, s->min,
                                               s->min_label)
                            : g_strdup (s->label);
      const gchar *label = g_intern_string (text);

      g_free (text);
      spec = gegl_param_spec_int (s->name, label, s->blurb, (gint) s->min,
                                  (gint) s->max, (gint) def, (gint) s->min,
                                  (gint) s->max, 1.0, flags);
      GEGL_PARAM_SPEC_INT (spec)->ui_step_small = (gint) s->step;
      GEGL_PARAM_SPEC_INT (spec)->ui_step_big = (gint) s->step * 10;
      return spec;
    }
  spec = gegl_param_spec_double (s->name, s->label, s->blurb, s->min, s->max,
                                 def, s->min, s->max, 1.0, flags);
  gegl_param_spec_double_set_steps (GEGL_PARAM_SPEC_DOUBLE (spec), s->step,
                                    s->step * 10);
  return spec;
}

void
gh_gegl_property_set (gh_request *request, GObject *object, guint prop,
                      const GValue *value, GParamSpec *pspec)
{
  if (G_VALUE_HOLDS_ENUM (value))
    gh_request_set (request, PARAM_OF (prop), g_value_get_enum (value));
  else if (G_VALUE_HOLDS_INT (value))
    gh_request_set (request, PARAM_OF (prop), g_value_get_int (value));
  else if (G_VALUE_HOLDS_DOUBLE (value))
    gh_request_set (request, PARAM_OF (prop), g_value_get_double (value));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
}

void
gh_gegl_property_get (const gh_request *request, GObject *object, guint prop,
                      GValue *value, GParamSpec *pspec)
{
  double v = gh_request_get (request, PARAM_OF (prop));

  if (G_VALUE_HOLDS_ENUM (value))
    g_value_set_enum (value, (gint) v);
  else if (G_VALUE_HOLDS_INT (value))
    g_value_set_int (value, (gint) v);
  else if (G_VALUE_HOLDS_DOUBLE (value))
    g_value_set_double (value, v);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop, pspec);
}

static void
set_property (GObject *object, guint prop, const GValue *value,
              GParamSpec *pspec)
{
  pthread_mutex_lock (&fields);
  gh_gegl_property_set (&((GhGeglOp *) object)->request, object, prop, value,
                        pspec);
  pthread_mutex_unlock (&fields);
}

static void
get_property (GObject *object, guint prop, GValue *value, GParamSpec *pspec)
{
  gh_gegl_property_get (&((GhGeglOp *) object)->request, object, prop, value,
                        pspec);
}

static void
prepare (GeglOperation *operation)
{
  GhGeglOp   *self = (GhGeglOp *) operation;
  const Babl *input = gegl_operation_get_source_format (operation, "input");

  pthread_mutex_lock (&fields);
  gh_gegl_layer (input, &self->layer);
  pthread_mutex_unlock (&fields);
  gegl_operation_set_format (operation, "input", self->layer.source);
  gegl_operation_set_format (operation, "output",
                             gh_gegl_output_format (input, &self->layer));
}

GeglRectangle
gh_gegl_whole_source (GeglOperation *operation, const char *pad,
                      const GeglRectangle *roi)
{
  const GeglRectangle *in = gegl_operation_source_get_bounding_box (operation,
                                                                    pad);

  return in && ! gegl_rectangle_is_infinite_plane (in) ? *in : *roi;
}

/* The whole input; an infinite plane has no histogram (process passes
 * it through). */
static GeglRectangle
whole_input (GeglOperation *operation, const GeglRectangle *roi)
{
  return gh_gegl_whole_source (operation, "input", roi);
}

/* The whole input where the next render counts it, else only the
 * result's pixels: a render after a parameter's change reads no more
 * than a point filter's. */
static GeglRectangle
get_required_for_output (GeglOperation *operation, const gchar *pad,
                         const GeglRectangle *roi)
{
  GeglRectangle whole = whole_input (operation, roi);
  gh_request    request;
  gh_layer      layer;
  GhGeglKeep   *keep = fields_get ((GhGeglOp *) operation, &request, &layer);

  (void) pad;
  return gh_gegl_keep_needs_input (keep, &request, &layer, &whole)
           ? whole : *roi;
}

/* GEGL's word that the input changed (its pixels, extent or connection):
 * the count goes, and every pixel's mapping may change with it. */
static GeglRectangle
get_invalidated_by_change (GeglOperation *operation, const gchar *pad,
                           const GeglRectangle *roi)
{
  GeglRectangle whole = whole_input (operation, roi), all;
  gh_request    request;
  gh_layer      layer;

  (void) pad;
  gh_gegl_keep_input_changed (fields_get ((GhGeglOp *) operation, &request,
                                          &layer));
  gegl_rectangle_bounding_box (&all, &whole, roi);
  return all;
}

static gboolean
filter_process (GeglOperation *operation, GeglBuffer *input,
                GeglBuffer *output, const GeglRectangle *result, gint level)
{
  GhGeglOp     *self = (GhGeglOp *) operation;
  GeglRectangle whole = whole_input (operation, result);
  gint          threads = 1;
  gh_request    request;
  gh_layer      layer;
  GhGeglKeep   *keep = fields_get (self, &request, &layer);
  gh_error      err;

  g_object_get (gegl_config (), "threads", &threads, NULL);
  if (gh_gegl_keep_render (keep, &request, &layer, threads, input, &whole,
                           output, result, level, &err))
    return TRUE;
  if (g_atomic_int_compare_and_exchange (&self->warned, FALSE, TRUE))
    g_warning ("%s: %s; the input is passed through",
               GH_GEGL_OP_GET_INFO (self)->name, err.message);
  gegl_buffer_copy (input, result, GEGL_ABYSS_NONE, output, result);
  return TRUE;
}

/* An infinite plane passes through, as in gegl:stretch-contrast. */
static gboolean
operation_process (GeglOperation *operation, GeglOperationContext *context,
                   const gchar *output_prop, const GeglRectangle *result,
                   gint level)
{
  GeglOperationClass  *parent = g_type_class_peek_parent (
                                  G_OBJECT_GET_CLASS (operation));
  const GeglRectangle *in = gegl_operation_source_get_bounding_box (operation,
                                                                    "input");

  if (in && gegl_rectangle_is_infinite_plane (in))
    {
      gpointer input = gegl_operation_context_get_object (context, "input");

      gegl_operation_context_take_object (context, "output",
                                          g_object_ref (G_OBJECT (input)));
      return TRUE;
    }
  return parent->process (operation, context, output_prop, result, level);
}

void
gh_gegl_operation_class_common (GeglOperationClass *operation_class,
                                const GhGeglOpInfo *info)
{
  const gh_operation_spec *spec = gh_operation_get (info->operation);

  for (int k = 0; k < spec->n_params; k++)
    g_object_class_install_property (G_OBJECT_CLASS (operation_class),
                                     PROP_OF (spec->params[k]),
                                     param_spec (info->operation,
                                                 spec->params[k]));
  operation_class->process = operation_process;
  /* One process call at a time (match counts both inputs whole in
   * each); the filters, which keep their counts, say otherwise. */
  operation_class->threaded = FALSE;
  /* No gimp:menu-path: GIMP 3's menu reaches the operations through the
   * plug-in's entries (their dialogs' Keep as live filter), one entry for
   * each; GIMP still lists them in the GEGL tool and its action search. */
  gegl_operation_class_set_keys (operation_class,
                                 "name", info->name,
                                 "title", spec->label,
                                 "categories", "color",
                                 "description", info->description,
                                 NULL);
}

static void
finalize (GObject *object)
{
  GObjectClass *parent = g_type_class_peek_parent (
                           G_OBJECT_GET_CLASS (object));

  gh_gegl_keep_free (((GhGeglOp *) object)->keep);
  parent->finalize (object);
}

static void
class_init (gpointer klass, gpointer class_data)
{
  const GhGeglOpInfo       *info = class_data;
  GObjectClass             *object_class = G_OBJECT_CLASS (klass);
  GeglOperationClass       *operation_class = GEGL_OPERATION_CLASS (klass);
  GeglOperationFilterClass *filter_class = GEGL_OPERATION_FILTER_CLASS (klass);

  ((GhGeglOpClass *) klass)->info = info;
  object_class->set_property = set_property;
  object_class->get_property = get_property;
  gh_gegl_operation_class_common (operation_class, info);
  object_class->finalize = finalize;
  operation_class->prepare = prepare;
  operation_class->get_required_for_output = get_required_for_output;
  operation_class->get_invalidated_by_change = get_invalidated_by_change;
  /* GEGL's threads each render a part of a result at once (GIMP asks
   * for its canvas's tiles one by one, 128 x 128 pixels, on one thread):
   * the keep counts one at a time, on the engine's threads, and maps in
   * every one. */
  operation_class->threaded = TRUE;
  filter_class->process = filter_process;
}

static void
instance_init (GTypeInstance *instance, gpointer klass)
{
  pthread_mutex_lock (&fields);
  gh_request_defaults (&((GhGeglOp *) instance)->request,
                       ((GhGeglOpClass *) klass)->info->operation);
  ((GhGeglOp *) instance)->keep = gh_gegl_keep_new ();
  pthread_mutex_unlock (&fields);
}

GType
gh_gegl_operation_register (GTypeModule *module, const char *type_name,
                            const GhGeglOpInfo *info)
{
  const GTypeInfo type_info = {
    sizeof (GhGeglOpClass), NULL, NULL, class_init, NULL, info,
    sizeof (GhGeglOp), 0, instance_init, NULL
  };

  gh_gegl_enums_register (module);
  return g_type_module_register_type (module, GEGL_TYPE_OPERATION_FILTER,
                                      type_name, &type_info, 0);
}
