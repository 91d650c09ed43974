/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_gegl_render.c — what a decoder or GIMP hands the GEGL module: a
 * GeglBuffer of any size and origin, of any pixels, in a format GIMP
 * stores layers in (gray, RGB or indexed, with or without alpha; u8,
 * u16, u32, half, float or double; linear, perceptual or non-linear tone
 * curve; sRGB or another space).  The module's reading of it
 * (gh_gegl_layer: the layer rule of layer/), then an operation of any
 * parameters rendered over any part of it in strips (gegl/render.c,
 * with match's reference histogram taken by gh_gegl_histogram), on 1 to
 * 4 threads.  Refused renders say why; a render done keeps alpha. */
#include <gegl.h>
#include <math.h>

#include "fuzz_util.h"
#include "render.h"

static const Babl *palettes[2]; /* without and with alpha */

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc;
  (void) argv;
  /* No operation modules: the render uses buffers only. */
  g_setenv ("GEGL_PATH", "", TRUE);
  gegl_init (NULL, NULL);
  babl_new_palette ("gh-fuzz", &palettes[0], &palettes[1]);
  return 0;
}

/* The format of the next bytes: one of those GIMP's layers have. */
static const Babl *
pick_format (fuzz_input *in)
{
  static const char *const models[] = { "Y", "Y'", "Y~", "YA", "Y'A", "Y~A",
                                        "RGB", "R'G'B'", "R~G~B~", "RGBA",
                                        "R'G'B'A", "R~G~B~A" };
  static const char *const types[] = { "u8", "u16", "u32", "half", "float",
                                       "double" };
  static const char *const spaces[] = { "sRGB", "Adobish", "ProPhoto",
                                        "Apple", "ACEScg", "Rec2020" };
  unsigned m = fuzz_byte (in) % (G_N_ELEMENTS (models) + 2);
  unsigned t = fuzz_byte (in) % G_N_ELEMENTS (types);
  const Babl *space = babl_space (spaces[fuzz_byte (in) % G_N_ELEMENTS (spaces)]);
  char name[32];

  if (m >= G_N_ELEMENTS (models))
    {
      /* Indexed: a palette of the next bytes' colours. */
      guint8 colours[16 * 4];
      const Babl *p = palettes[m - G_N_ELEMENTS (models)];
      for (size_t k = 0; k < sizeof colours; k++)
        colours[k] = (guint8) fuzz_byte (in);
      babl_palette_set_palette (p, babl_format ("R'G'B'A u8"), colours, 16);
      return p;
    }
  g_snprintf (name, sizeof name, "%s %s", models[m], types[t]);
  return babl_format_with_space (name, space ? space : babl_space ("sRGB"));
}

/* A request for the next bytes' operation (all five, and analyse, which
 * applies nothing), each parameter anywhere in its range, the channel
 * any. */
static void
pick_request (fuzz_input *in, gh_request *r)
{
  gh_operation operation = (gh_operation) (fuzz_byte (in) % GH_NUM_REQS);

  gh_request_defaults (r, operation);
  for (int p = 0; p < GH_NUM_PARAMS; p++)
    {
      const gh_param_spec *s = gh_param_get ((gh_param) p);
      unsigned b = fuzz_byte (in);
      double v = s->min + (s->max - s->min) * (b / 255.0);
      if (b == 0)
        continue; /* the default */
      gh_request_set (r, (gh_param) p, s->is_integer ? floor (v) : v);
    }
  /* Posterize's classes kept low: its search grows fast with them. */
  if (r->classes > 4)
    r->classes = 4;
}

/* Alpha of `rect` read as `format` from both buffers: the same bytes. */
static void
check_alpha (GeglBuffer *input, GeglBuffer *output, const GeglRectangle *rect,
             const Babl *format)
{
  int n = babl_format_get_n_components (format);
  int bpp = babl_format_get_bytes_per_pixel (format), size = bpp / n;
  size_t pixels = (size_t) rect->width * rect->height;
  guchar *a = g_malloc (pixels * bpp), *b = g_malloc (pixels * bpp);

  gegl_buffer_get (input, rect, 1.0, format, a, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_NONE);
  gegl_buffer_get (output, rect, 1.0, format, b, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_NONE);
  for (size_t k = 0; k < pixels; k++)
    FUZZ_CHECK (!memcmp (a + k * bpp + (n - 1) * size,
                         b + k * bpp + (n - 1) * size, size));
  g_free (a);
  g_free (b);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  fuzz_input in = { data, size };
  const Babl *format = pick_format (&in);
  int bpp = babl_format_get_bytes_per_pixel (format);
  GeglRectangle whole, result;
  gh_request request;
  gh_layer layer;
  gh_histogram reference;
  gh_error err;
  GeglBuffer *input, *output;
  int threads = 1 + (int) (fuzz_byte (&in) % 4);
  gboolean ok;
  unsigned wide, tall;
  guchar *pixels;
  size_t n;

  whole.x = (int) fuzz_byte (&in) - 128;
  whole.y = (int) fuzz_byte (&in) - 128;
  /* Up to 64 x 32 mostly (fast); in one input of eight up to 2048 x 249,
   * past one strip of 4 MiB where its pixels are 16 bytes (seconds). */
  wide = fuzz_u16 (&in);
  tall = fuzz_byte (&in);
  whole.width = 1 + (int) (wide % ((tall & 0xe0) == 0xe0 ? 2048 : 64));
  whole.height = 1 + (int) ((tall & 0xe0) == 0xe0 ? (tall & 0x1f) * 8
                                                   : tall % 32);
  result.x = whole.x + (int) (fuzz_u16 (&in) % whole.width);
  result.y = whole.y + (int) (fuzz_byte (&in) % whole.height);
  result.width = 1 + (int) (fuzz_u16 (&in) % (whole.x + whole.width - result.x));
  result.height = 1 + (int) (fuzz_byte (&in) % (whole.y + whole.height - result.y));
  pick_request (&in, &request);

  gh_gegl_layer (format, &layer);
  FUZZ_CHECK (layer.source && babl_format_get_n_components (layer.source)
                                == (int) layer.layout);
  FUZZ_CHECK (babl_format_get_bytes_per_pixel (layer.source)
              == (int) layer.layout * (layer.sample == GH_SAMPLE_U8 ? 1 : 4));
  FUZZ_CHECK (layer.bins == 256 || layer.bins == 1024);

  /* The pixels: the rest of the input over and over. */
  n = (size_t) whole.width * whole.height * bpp;
  pixels = g_malloc0 (n);
  for (size_t k = 0; in.size && k < n; k++)
    pixels[k] = in.data[k % in.size];
  input = gegl_buffer_new (&whole, format);
  gegl_buffer_set (input, &whole, 0, format, pixels, GEGL_AUTO_ROWSTRIDE);
  g_free (pixels);
  output = gegl_buffer_new (&result, gh_gegl_output_format (format, &layer));

  gh_histogram_init (&reference);
  if (gh_request_needs (&request) & GH_NEEDS_REFERENCE)
    FUZZ_CHECK (gh_gegl_histogram (&layer, threads, input, &whole, &reference,
                                   &err));
  ok = gh_gegl_render_reference (&request, &layer, threads, input, &whole,
                                 &reference, output, &result, &err);
  if (!ok)
    FUZZ_CHECK (err.message[0]);
  else if (layer.alpha)
    check_alpha (input, output, &result, layer.source);
  gh_histogram_clear (&reference);
  g_object_unref (input);
  g_object_unref (output);
  return 0;
}
