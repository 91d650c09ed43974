/* SPDX-License-Identifier: GPL-3.0-or-later */
/* layer_channel.c — the channel an operation reads (layer_channel.h). */
#include "layer_channel.h"

int
gh_layer_channel (gh_layout layout, int channel)
{
  if (channel == GH_CHANNEL_ALPHA
      || (gh_layout_channel_mask (layout) & (1u << channel)))
    return channel;
  return gh_default_binarize_channel (layout);
}
