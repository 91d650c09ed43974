/* SPDX-License-Identifier: GPL-3.0-or-later */
/* operation.h — the module's GEGL operations: one GeglOperationFilter
 * class per operation of the vocabulary (gh_request.h), its properties
 * made from that operation's parameters (names, labels, blurbs, ranges,
 * steps, defaults), mode and channel as GEGL enums (which GIMP 3 hands to
 * scripts as choices of the values' nicks).
 *
 *   static const GhGeglOpInfo info = { GH_REQ_EQUALIZE,
 *     "gpu-histogram:equalize", "Equalize (GPU histogram)",
 *     "Equalize (live)...", "..." };
 *   gh_gegl_operation_register (module, "GhGeglEqualize", &info);
 *
 * Each operation counts the whole input once per change of it (GEGL's
 * invalidation of its input) and keeps the count (gegl/render.h): a
 * render after a parameter's change maps only the part of the result
 * GEGL asks for, at the level it asks for.  It never aborts: where the
 * engine refuses, the input passes through and one warning says why. */
#ifndef GH_GEGL_OPERATION_H
#define GH_GEGL_OPERATION_H

#include <gegl-plugin.h>

#include "gh_request.h"

typedef struct
{
  gh_operation operation;
  const char  *name;        /* "gpu-histogram:equalize"              */
  const char  *title;       /* GEGL's title key                     */
  const char  *menu_label;  /* gimp:menu-label                      */
  const char  *description;
} GhGeglOpInfo;

/* Registers the enums (once) and the operation's class in `module`;
 * `info` must outlive the module. */
GType gh_gegl_operation_register (GTypeModule *module, const char *type_name,
                                  const GhGeglOpInfo *info);

/* What gegl/match.c's composer shares with the filters.  The enums of
 * the module (once; before any class installs its properties): */
void gh_gegl_enums_register (GTypeModule *module);
/* On a class whose set_property and get_property are already set: the
 * operation's properties, GEGL's keys (name, menu path, ...), one
 * unthreaded process call at a time, an infinite input plane passed
 * through. */
void gh_gegl_operation_class_common (GeglOperationClass *operation_class,
                                     const GhGeglOpInfo *info);
/* A property (installed as above) of the request, for set_property and
 * get_property. */
void gh_gegl_property_set (gh_request *request, GObject *object, guint prop,
                           const GValue *value, GParamSpec *pspec);
void gh_gegl_property_get (const gh_request *request, GObject *object,
                           guint prop, GValue *value, GParamSpec *pspec);
/* The bounding box of what is connected to `pad`; `roi` where nothing,
 * or an infinite plane, is. */
GeglRectangle gh_gegl_whole_source (GeglOperation *operation, const char *pad,
                                    const GeglRectangle *roi);

#endif
