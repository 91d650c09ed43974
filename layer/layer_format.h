/* SPDX-License-Identifier: GPL-3.0-or-later */
/* layer_format.h — the one rule of how a host of the engine reads a GIMP
 * layer: the plug-in's core (plugin/core/region.c) and the GEGL module
 * (gegl/format.c) both call it, so a procedure and a live filter read a
 * layer alike.  GLib-free: babl and the engine's types only (the engine
 * itself knows no babl).
 *
 *   gh_layer_facts facts = { gray, alpha, u8, perceptual, bins_linear,
 *                            storage, host_luminance };
 *   gh_layer layer;
 *   gh_layer_choose (&facts, &layer);
 *   ... read and write the pixels as layer.source; gh_image from
 *       layer.layout, sample, bins, luminance;
 *   ... layer.luminance_from: the luminance is babl's (layer_view.h)
 *
 * The rule.  8-bit perceptual storage (and indexed) is read as bytes,
 * 256 bins; 8-bit linear storage as floats with 256 bins; every other
 * precision as floats with 1024 bins: as GIMP's own histogram bins them,
 * nothing rounded on the way.  The pixels are read in their own space and
 * tone curve (babl converts the sample type only): linear where the host
 * bins linear light (GIMP 3's linear precisions), else the storage's
 * curve, "~" (sRGB's) or "'" (the space's).  Linear-light layers' samples
 * are already linear, so their luminance is the weighted sum of the
 * samples as given (GH_LUMINANCE_PERCEPTUAL's arithmetic); others take
 * the host's rule.  GIMP 3 (GH_LUMINANCE_LINEAR) bins a colour layer's
 * luminance as babl's "Y float" of its pixels: in sRGB that is the
 * engine's rule, in any other space (Adobe RGB, P3, a PNG's gAMA and
 * cHRM...) it is the space's, which only babl knows: luminance_from. */
#ifndef GH_LAYER_FORMAT_H
#define GH_LAYER_FORMAT_H

#include <babl/babl.h>

#include "gpu_histogram.h"

/* What a host knows of a layer. */
typedef struct
{
  int          gray;        /* one colour component (else RGB)            */
  int          alpha;
  int          u8;          /* 8-bit storage (indexed too)                */
  int          perceptual;  /* read as perceptual bytes where 8-bit: its
                               storage is non-linear, or the host reads it
                               so (GIMP 2.10's masks)                     */
  int          bins_linear; /* the host bins its linear light (GIMP 3 on
                               linear precisions)                         */
  const Babl  *storage;     /* its storage format: space and tone curve  */
  gh_luminance host;        /* the host's luminance rule                  */
} gh_layer_facts;

/* How it is read. */
typedef struct
{
  const Babl  *space;
  const char  *trc;          /* babl's mark: "'", "~" or ""               */
  int          gray, alpha;
  gh_layout    layout;
  gh_sample    sample;
  int          bins;         /* 256 for 8-bit storage, 1024 otherwise     */
  gh_luminance luminance;
  const Babl  *source;       /* the pixels as read and written:
                                "R'G'B'(A)" or "Y'(A)" (trc), u8 or float,
                                in space                                   */
  const Babl  *luminance_from; /* NULL: the engine's luminance; else the
                                  pixels as babl's "Y float" of them is
                                  the luminance: "R'G'B'(A) float" (trc)
                                  in space                                 */
} gh_layer;

void gh_layer_choose (const gh_layer_facts *facts, gh_layer *layer);

/* Reads the layer as floats with `bins` bins (2..65536) where that is not
 * its own number: a reference histogram binned as the one it is compared
 * with.  Updates sample and source. */
void gh_layer_use_bins (gh_layer *layer, int bins);

/* A format in `layer`'s space: gray or colour, with alpha or not, of tone
 * curve `trc` (babl's mark), u8 or float. */
const Babl *gh_layer_format (const gh_layer *layer, int gray, int alpha,
                             const char *trc, gh_sample sample);

#endif
