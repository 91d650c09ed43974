/* SPDX-License-Identifier: GPL-3.0-or-later */
/* names.c — channel and backend names, and which channels a layout has
 * (gpu_histogram.h, "Shared by every host"): the one spelling every host
 * prints, parses and writes into its CSV files.  The channels' names are
 * the vocabulary's (gh_param_values of GH_PARAM_CHANNEL). */
#include "gh_request.h"
#include "layout.h"

#include <string.h>

const char *
gh_channel_name (gh_channel channel)
{
  int n;
  const gh_param_value *v = gh_param_values (GH_PARAM_CHANNEL, &n);

  return (unsigned) channel < (unsigned) n ? v[channel].nick : NULL;
}

int
gh_channel_parse (const char *name)
{
  int n;
  const gh_param_value *v = gh_param_values (GH_PARAM_CHANNEL, &n);

  for (int c = 0; name && c < n; c++)
    if (!strcmp (name, v[c].nick))
      return c;
  return -1;
}

int
gh_backend_parse (const char *name, gh_backend *backend)
{
  static const char *const names[] = { "auto", "cpu", "cuda" };
  static const gh_backend values[]
    = { GH_BACKEND_AUTO, GH_BACKEND_CPU, GH_BACKEND_CUDA };

  for (size_t k = 0; name && k < sizeof names / sizeof names[0]; k++)
    if (!strcmp (name, names[k]))
      {
        if (backend)
          *backend = values[k];
        return 0;
      }
  return -1;
}

unsigned
gh_layout_channel_mask (gh_layout layout)
{
  if (layout < GH_LAYOUT_GRAY || layout > GH_LAYOUT_RGBA)
    return 0;
  return gh_layout_channels (layout);
}

gh_channel
gh_default_binarize_channel (gh_layout layout)
{
  /* Gray images have no luminance channel: their value is it. */
  return gh_layout_is_rgb (layout) ? GH_CHANNEL_LUMINANCE : GH_CHANNEL_VALUE;
}
