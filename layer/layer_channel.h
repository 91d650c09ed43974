/* SPDX-License-Identifier: GPL-3.0-or-later */
/* layer_channel.h — the one rule of which channel an operation reads of an
 * image that lacks the one asked for, for every host: the CLI's files, the
 * plug-in's drawables, the GEGL module's buffers.  Free of GLib and babl,
 * so the CLI built without either links it too.
 *
 *   if (! caller_gave_channel)
 *     request.channel = gh_layer_channel (layout, request.channel);
 */
#ifndef GH_LAYER_CHANNEL_H
#define GH_LAYER_CHANNEL_H

#include "gpu_histogram.h"

/* `channel` (a gh_channel) where `layout` has it, and alpha (refused by
 * the caller where there is none: a default is never alpha); else the
 * layout's default channel (gh_default_binarize_channel): a gray image's
 * luminance is its value.  Hosts apply it where the channel is not the
 * caller's own (a default, remembered settings, a filter's property
 * left as it was), and refuse a channel a caller gave that is lacking. */
int gh_layer_channel (gh_layout layout, int channel);

#endif
