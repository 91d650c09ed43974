/* SPDX-License-Identifier: GPL-3.0-or-later */
/* layer_view.c — a layer's luminance view (layer_view.h). */
#include "layer_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLAMP01(v) ((v) < 0 ? 0 : (v) > 1 ? 1 : (v))

gh_layer_view_kind
gh_layer_view_of (const gh_layer *layer, gh_request *req)
{
  if (! layer->luminance_from)
    return GH_LAYER_VIEW_NONE;
  switch (gh_request_on_luminance (req))
    {
    case GH_PARAM_CHANNEL:
      req->channel = GH_CHANNEL_VALUE;
      return GH_LAYER_VIEW_PAINT;
    case GH_PARAM_MODE:
      req->mode = GH_EQUALIZE_CHANNELS;
      return GH_LAYER_VIEW_MOVE;
    default:
      return GH_LAYER_VIEW_NONE;
    }
}

gh_status
gh_layer_view_init (gh_layer_view *v, const gh_layer *layer,
                    gh_layer_view_kind kind, size_t pixels, gh_error *error)
{
  memset (v, 0, sizeof *v);
  v->layer = layer;
  v->kind = kind;
  v->layout = layer->alpha ? GH_LAYOUT_GRAYA : GH_LAYOUT_GRAY;
  v->format = gh_layer_format (layer, 1, layer->alpha, "", layer->sample);
  v->read = malloc (pixels * 4 * sizeof *v->read);
  v->y = malloc (pixels * sizeof *v->y);
  if (kind == GH_LAYER_VIEW_MOVE)
    v->linear = malloc (pixels * 4 * sizeof *v->linear);
  if (v->read && v->y && (kind != GH_LAYER_VIEW_MOVE || v->linear))
    return GH_OK;
  gh_layer_view_clear (v);
  snprintf (error->message, sizeof error->message,
            "out of memory for the luminance of %zu pixels", pixels);
  return GH_ERR_NOMEM;
}

void
gh_layer_view_clear (gh_layer_view *v)
{
  free (v->read);
  free (v->y);
  free (v->linear);
  v->read = v->y = v->linear = NULL;
}

void
gh_layer_view_piece (gh_layer_view *v, int width, int height,
                     unsigned char *piece, size_t stride)
{
  const gh_layer *l = v->layer;
  /* GIMP's own target: the luminance is the same in every space. */
  const Babl     *y = babl_format_with_space ("Y float", babl_space ("sRGB"));
  int             in = babl_format_get_n_components (l->luminance_from);
  int             out = l->alpha ? 2 : 1;

  babl_process (babl_fish (l->luminance_from, y), v->read, v->y,
                (long) width * height);
  for (int r = 0; r < height; r++)
    for (int x = 0; x < width; x++)
      {
        size_t i = (size_t) r * width + x;
        float  a = in == 4 ? v->read[i * 4 + 3] : 1.0f;

        if (l->sample == GH_SAMPLE_U8)
          {
            unsigned char *p = piece + r * stride + x * out;

            p[0] = (unsigned char) gh_pixel_bin_f32 (GH_LAYOUT_GRAY, &v->y[i],
                                                     GH_CHANNEL_VALUE, 256);
            if (out == 2)
              p[1] = (unsigned char) (CLAMP01 (a) * 255.0f + 0.5f);
          }
        else
          {
            float *p = (float *) (piece + r * stride) + x * out;

            p[0] = v->y[i];
            if (out == 2)
              p[1] = a;
          }
      }
}

void
gh_layer_view_paint (const gh_layer_view *v, int width, int height,
                     const unsigned char *piece, size_t piece_stride,
                     void *pixels)
{
  const gh_layer *l = v->layer;
  int             out = l->alpha ? 2 : 1;
  int             n = l->alpha ? 4 : 3;
  size_t          count = (size_t) width * height;

  for (size_t i = 0; i < count; i++)
    {
      const unsigned char *p = piece + (i / width) * piece_stride;
      size_t               x = i % width;

      for (int k = 0; k < 3; k++)
        if (l->sample == GH_SAMPLE_U8)
          ((unsigned char *) pixels)[i * n + k] = p[x * out];
        else
          ((float *) pixels)[i * n + k] = ((const float *) p)[x * out];
    }
}

void
gh_layer_view_move (gh_layer_view *v, int width, int height,
                    const unsigned char *piece, size_t piece_stride,
                    void *pixels)
{
  const gh_layer *l = v->layer;
  const Babl     *linear = gh_layer_format (l, 0, l->alpha, "",
                                            GH_SAMPLE_F32);
  int             in = babl_format_get_n_components (linear);
  int             out = l->alpha ? 2 : 1;
  size_t          count = (size_t) width * height;

  babl_process (babl_fish (l->luminance_from, linear), v->read, v->linear,
                (long) count);
  for (size_t i = 0; i < count; i++)
    {
      const unsigned char *p = piece + (i / width) * piece_stride;
      size_t               x = i % width;
      float               *c = v->linear + i * in;
      double               rgb[3] = { c[0], c[1], c[2] };
      double               target = l->sample == GH_SAMPLE_U8
                                    ? p[x * out] / 255.0
                                    : ((const float *) p)[x * out];

      gh_luminance_shift (rgb, v->y[i], target, 1.0);
      /* Within the range, as the engine's moves leave a float layer. */
      for (int k = 0; k < 3; k++)
        c[k] = (float) CLAMP01 (rgb[k]);
    }
  babl_process (babl_fish (linear, l->source), v->linear, pixels,
                (long) count);
}

void
gh_layer_view_copy_channel (gh_histogram *dst, gh_channel to,
                            const gh_histogram *src, gh_channel from)
{
  size_t n = (size_t) src->bins;

  memcpy (dst->raw + to * n, src->raw + from * n, n * sizeof *src->raw);
  if (src->weight && dst->weight)
    memcpy (dst->weight + to * n, src->weight + from * n,
            n * sizeof *src->weight);
  dst->unit[to] = src->unit[from];
}

unsigned
gh_layer_view_pixel_channels (unsigned channels)
{
  const unsigned all = (1u << GH_NUM_CHANNELS) - 1;

  return (channels ? channels : all) & ~(1u << GH_CHANNEL_LUMINANCE);
}

gh_status
gh_layer_view_take_luminance (gh_histogram *hist, unsigned pixel_channels,
                              const gh_histogram *view, gh_error *error)
{
  if (!pixel_channels)
    {
      gh_status status = gh_histogram_reset (hist, view->bins,
                                             view->weight != NULL, error);
      if (status != GH_OK)
        return status;
    }
  gh_layer_view_copy_channel (hist, GH_CHANNEL_LUMINANCE, view,
                              GH_CHANNEL_VALUE);
  hist->channels |= 1u << GH_CHANNEL_LUMINANCE;
  return GH_OK;
}
