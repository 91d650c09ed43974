/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_photo_gpu.c — the GPU photo path (gpu/photo/gh_photo.h) against
 * the engine on the CPU, on the same decoded pixels: every histogram
 * count equal, equalize's tables and posterize's (binarize's) keyed
 * table applied on the device equal to gh_op_apply on the host byte for
 * byte, CLAHE on the device (each channel, the luminance, gray; tiles
 * that divide the image and tiles that pad it) equal to gh_clahe_image
 * on the host byte for byte, every result a JPEG that decodes
 * again to its size, and files nvJPEG refuses refused with a reason, not
 * a failure.  Exit 77 (skipped) where no GPU can be used.
 *
 *   test_photo_gpu [--dump DIR] FILE.jpg...
 *     --dump: each decoded image as DIR/NAME.dec.pnm and its equalized
 *     pixels as DIR/NAME.eq.pnm (tests/photo_gpu.py compares them with
 *     libjpeg's decoding).
 */
#include "gh_photo.h"
#include "gpu_histogram.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                       \
  do                                                                           \
    {                                                                          \
      if (!(cond))                                                             \
        {                                                                      \
          failures++;                                                          \
          printf ("FAIL %s:%d: ", __FILE__, __LINE__);                         \
          printf (__VA_ARGS__);                                                \
          printf ("\n");                                                       \
        }                                                                      \
    }                                                                          \
  while (0)

static unsigned char *
slurp (const char *path, size_t *len)
{
  FILE *f = fopen (path, "rb");
  unsigned char *d = NULL;
  long n;

  if (!f)
    return NULL;
  if (!fseek (f, 0, SEEK_END) && (n = ftell (f)) > 0 && !fseek (f, 0, SEEK_SET)
      && (d = malloc ((size_t) n)) && fread (d, 1, (size_t) n, f) != (size_t) n)
    {
      free (d);
      d = NULL;
    }
  else if (d)
    *len = (size_t) n;
  fclose (f);
  return d;
}

static void
dump (const char *dir, const char *path, const char *what,
      const gh_photo_item *it, const unsigned char *px)
{
  const char *base = strrchr (path, '/');
  char name[4096];
  FILE *f;

  snprintf (name, sizeof name, "%s/%s.%s.pnm", dir, base ? base + 1 : path,
            what);
  if (!(f = fopen (name, "wb")))
    return;
  fprintf (f, "P%d\n%d %d\n255\n", it->channels == 1 ? 5 : 6, it->width,
           it->height);
  fwrite (px, 1, (size_t) it->width * it->height * it->channels, f);
  fclose (f);
}

/* The engine's histogram of `px` on the CPU. */
static int
cpu_histogram (gh_engine *e, const gh_photo_item *it, const unsigned char *px,
               gh_histogram *h)
{
  gh_image img = { it->channels == 1 ? GH_LAYOUT_GRAY : GH_LAYOUT_RGB,
                   GH_SAMPLE_U8, 256, 0, GH_LUMINANCE_PERCEPTUAL, 0 };
  gh_piece piece = { px, (size_t) it->width, (size_t) it->height,
                     (size_t) it->width * it->channels, NULL, 0 };
  gh_error err;

  if (gh_engine_begin (e, &img, &err) || gh_engine_feed (e, &piece, &err)
      || gh_engine_finish (e, h, &err))
    {
      printf ("engine: %s\n", err.message);
      return -1;
    }
  return 0;
}

/* CLAHE of `params` on the device against gh_clahe_image on the host
 * (engine e, the CPU), from the same pixels, decoded again first; then
 * encoded. */
static void
check_clahe (gh_photo *p, gh_engine *e, gh_photo_item *items, int n,
             char **names, const gh_clahe_params *params)
{
  unsigned char *cpu[GH_PHOTO_MAX_BATCH] = { NULL };
  gh_error err;
  gh_status st = gh_photo_decode_count (p, items, n, &err);

  CHECK (st == GH_OK, "decode for CLAHE: %s", err.message);
  for (int k = 0; k < n && st == GH_OK; k++)
    {
      gh_photo_item *it = &items[k];
      size_t stride = (size_t) it->width * it->channels;
      if (!it->ok || !(cpu[k] = malloc (stride * it->height)))
        continue;
      CHECK (gh_photo_download (p, k, it, cpu[k], &err) == GH_OK,
             "download: %s", err.message);
      CHECK (gh_clahe_image (e, params, it->channels == 1 ? GH_LAYOUT_GRAY
                                                          : GH_LAYOUT_RGB,
                             GH_SAMPLE_U8, GH_LUMINANCE_PERCEPTUAL, 256,
                             cpu[k], (size_t) it->width, (size_t) it->height,
                             stride, &err) == GH_OK,
             "CLAHE on the host: %s", err.message);
    }
  if (st == GH_OK)
    {
      st = gh_photo_clahe (p, items, n, params, &err);
      CHECK (st == GH_OK, "CLAHE on the device: %s", err.message);
    }
  for (int k = 0; k < n && st == GH_OK; k++)
    {
      gh_photo_item *it = &items[k];
      size_t bytes = (size_t) it->width * it->height * it->channels, diff = 0;
      unsigned char *px;
      if (!it->ok || !cpu[k] || !(px = malloc (bytes)))
        continue;
      CHECK (gh_photo_download (p, k, it, px, &err) == GH_OK, "download: %s",
             err.message);
      for (size_t i = 0; i < bytes; i++)
        diff += px[i] != cpu[k][i];
      CHECK (diff == 0, "%s: %zu samples of CLAHE (clip %g, %d x %d tiles, "
             "%s) on the GPU differ from the CPU's", names[k], diff,
             params->clip_limit, params->tiles_x, params->tiles_y,
             params->mode == GH_EQUALIZE_LUMINANCE ? "luminance" : "channels");
      free (px);
    }
  if (st == GH_OK)
    {
      st = gh_photo_encode (p, items, n, 90, &err);
      CHECK (st == GH_OK, "encode after CLAHE: %s", err.message);
    }
  for (int k = 0; k < n && st == GH_OK; k++)
    CHECK (!items[k].ok
             || (items[k].encoded_length > 4 && items[k].encoded[0] == 0xFF
                 && items[k].encoded[1] == 0xD8),
           "%s: CLAHE's result is not a JPEG", names[k]);
  for (int k = 0; k < n; k++)
    free (cpu[k]);
}

int
main (int argc, char **argv)
{
  const char *dir = NULL;
  int first = 1, n;
  gh_photo *p;
  gh_engine *e;
  gh_options eo;
  gh_error err;
  gh_status st;
  gh_photo_item *items;
  uint8_t (*tables)[3][256];
  unsigned char **cpu_eq;

  if (argc > 2 && !strcmp (argv[1], "--dump"))
    dir = argv[2], first = 3;
  n = argc - first;
  if (n < 1 || n > GH_PHOTO_MAX_BATCH)
    return fprintf (stderr, "usage: test_photo_gpu [--dump DIR] FILE.jpg... "
                            "(1..%d)\n", GH_PHOTO_MAX_BATCH), 2;
  if ((st = gh_photo_create (n, &p, &err)) != GH_OK)
    {
      printf ("SKIP: %s\n", err.message);
      return st == GH_ERR_UNSUPPORTED ? 77 : 1;
    }
  printf ("device: %s, %s decoder\n", gh_photo_device_name (p),
          gh_photo_decoder_name (p));
  gh_options_init (&eo);
  eo.backend = GH_BACKEND_CPU;
  if (gh_engine_create (&eo, &e, &err))
    return printf ("engine: %s\n", err.message), 1;
  items = calloc ((size_t) n, sizeof *items);
  tables = calloc ((size_t) n, sizeof *tables);
  cpu_eq = calloc ((size_t) n, sizeof *cpu_eq);
  if (!items || !tables || !cpu_eq)
    return printf ("out of memory\n"), 1;
  for (int k = 0; k < n; k++)
    if (!(items[k].jpeg = slurp (argv[first + k], &items[k].length)))
      return printf ("cannot read %s\n", argv[first + k]), 1;

  st = gh_photo_decode_count (p, items, n, &err);
  CHECK (st == GH_OK, "decode: %s", err.message);
  for (int k = 0; k < n && st == GH_OK; k++)
    {
      gh_photo_item *it = &items[k];
      size_t bytes = (size_t) it->width * it->height * it->channels;
      unsigned char *px;
      gh_histogram h;
      gh_op op;
      int mismatched = 0;

      if (!it->ok)
        {
          printf ("%s: refused: %s\n", argv[first + k], it->why);
          CHECK (it->why[0], "%s: refused without a reason", argv[first + k]);
          continue;
        }
      printf ("%s: %dx%d, %d channels, %s decoder\n", argv[first + k],
              it->width, it->height, it->channels,
              it->hardware ? "hardware" : "GPU");
      px = malloc (bytes);
      CHECK (px && gh_photo_download (p, k, it, px, &err) == GH_OK,
             "download: %s", err.message);
      if (!px)
        return 1;
      if (dir)
        dump (dir, argv[first + k], "dec", it, px);
      gh_histogram_init (&h);
      if (cpu_histogram (e, it, px, &h) == 0)
        {
          for (int c = 0; c < GH_NUM_CHANNELS; c++)
            for (int b = 0; b < 256; b++)
              {
                uint64_t want = (h.channels & (1u << c))
                                  ? h.raw[c * 256 + b] : 0;
                mismatched += it->counts[c * 256 + b] != want;
              }
          CHECK (!mismatched, "%s: %d bins differ from the CPU's",
                 argv[first + k], mismatched);
        }
      else
        failures++;
      /* The host's equalize of the same pixels, and its tables. */
      st = gh_op_equalize (&op, &h, it->channels == 1 ? GH_LAYOUT_GRAY
                                                      : GH_LAYOUT_RGB,
                           GH_SAMPLE_U8, GH_LUMINANCE_PERCEPTUAL,
                           GH_EQUALIZE_CHANNELS, &err);
      CHECK (st == GH_OK, "equalize: %s", err.message);
      for (int c = 0; c < 3; c++)
        for (int v = 0; v < 256; v++)
          tables[k][c][v] = (uint8_t) op.tables[it->channels == 1 ? 0 : c][v];
      st = gh_op_apply (&op, px, (size_t) it->width, (size_t) it->height,
                        (size_t) it->width * it->channels, &err);
      CHECK (st == GH_OK, "apply: %s", err.message);
      gh_op_clear (&op);
      gh_histogram_clear (&h);
      cpu_eq[k] = px;
      st = GH_OK;
    }
  st = gh_photo_apply_encode (p, items, n, (const uint8_t (*)[3][256]) tables,
                              NULL, 90, &err);
  CHECK (st == GH_OK, "apply and encode: %s", err.message);
  for (int k = 0; k < n && st == GH_OK; k++)
    {
      gh_photo_item *it = &items[k], again;
      size_t bytes = (size_t) it->width * it->height * it->channels, diff = 0;
      unsigned char *px;
      if (!it->ok)
        continue;
      px = malloc (bytes);
      CHECK (px && gh_photo_download (p, k, it, px, &err) == GH_OK,
             "download: %s", err.message);
      if (!px)
        return 1;
      for (size_t i = 0; i < bytes; i++)
        diff += px[i] != cpu_eq[k][i];
      CHECK (diff == 0, "%s: %zu samples equalized on the GPU differ from "
             "the CPU's", argv[first + k], diff);
      if (dir)
        dump (dir, argv[first + k], "eq", it, px);
      CHECK (it->encoded_length > 4 && it->encoded[0] == 0xFF
               && it->encoded[1] == 0xD8
               && it->encoded[it->encoded_length - 2] == 0xFF
               && it->encoded[it->encoded_length - 1] == 0xD9,
             "%s: the result is not a JPEG", argv[first + k]);
      /* The result decodes again to the image's size. */
      memset (&again, 0, sizeof again);
      again.jpeg = it->encoded;
      again.length = it->encoded_length;
      CHECK (gh_photo_decode_count (p, &again, 1, &err) == GH_OK && again.ok
               && again.width == it->width && again.height == it->height
               && again.channels == it->channels,
             "%s: its result does not decode again (%s)", argv[first + k],
             again.why);
      free (px);
      free (cpu_eq[k]);
    }
  /* Binarize and posterize: decoded again, every colour sample through
   * one table of the pixel's level in a channel (value, a colour,
   * luminance, by file), on the device against gh_op_apply on the host. */
  st = gh_photo_decode_count (p, items, n, &err);
  CHECK (st == GH_OK, "decode again: %s", err.message);
  {
    int keys[GH_PHOTO_MAX_BATCH];
    static const gh_channel chans[] = { GH_CHANNEL_LUMINANCE, GH_CHANNEL_VALUE,
                                        GH_CHANNEL_RED, GH_CHANNEL_BLUE };
    for (int k = 0; k < n && st == GH_OK; k++)
      {
        gh_photo_item *it = &items[k];
        gh_layout layout = it->channels == 1 ? GH_LAYOUT_GRAY : GH_LAYOUT_RGB;
        gh_channel ch = it->channels == 1 ? GH_CHANNEL_VALUE : chans[k % 4];
        int thresholds[2] = { 60 + k % 7, 150 + k % 11 };
        size_t bytes = (size_t) it->width * it->height * it->channels;
        gh_op op;
        cpu_eq[k] = NULL;
        keys[k] = -1;
        if (!it->ok)
          continue;
        cpu_eq[k] = malloc (bytes);
        CHECK (cpu_eq[k] && gh_photo_download (p, k, it, cpu_eq[k], &err) == GH_OK,
               "download: %s", err.message);
        if (!cpu_eq[k])
          return 1;
        st = gh_op_posterize (&op, layout, GH_SAMPLE_U8, GH_LUMINANCE_PERCEPTUAL,
                              256, ch, 1 + k % 2, thresholds, &err);
        CHECK (st == GH_OK, "posterize: %s", err.message);
        st = gh_op_apply (&op, cpu_eq[k], (size_t) it->width, (size_t) it->height,
                          (size_t) it->width * it->channels, &err);
        CHECK (st == GH_OK, "apply: %s", err.message);
        gh_op_clear (&op);
        /* The table: what a gray pixel of each level becomes. */
        for (int v = 0; v < 256; v++)
          {
            uint8_t g[3] = { (uint8_t) v, (uint8_t) v, (uint8_t) v };
            st = gh_op_posterize (&op, layout, GH_SAMPLE_U8, GH_LUMINANCE_PERCEPTUAL,
                                  256, ch, 1 + k % 2, thresholds, &err);
            if (st == GH_OK)
              st = gh_op_apply (&op, g, 1, 1, 3, &err);
            gh_op_clear (&op);
            tables[k][0][v] = g[0];
          }
        keys[k] = it->channels == 3 ? (int) ch : -1;
      }
    if (st == GH_OK)
      {
        st = gh_photo_apply_encode (p, items, n, (const uint8_t (*)[3][256]) tables,
                                    keys, 90, &err);
        CHECK (st == GH_OK, "posterize on the device: %s", err.message);
      }
    for (int k = 0; k < n && st == GH_OK; k++)
      {
        gh_photo_item *it = &items[k];
        size_t bytes = (size_t) it->width * it->height * it->channels, diff = 0;
        unsigned char *px;
        if (!it->ok || !cpu_eq[k])
          continue;
        if (!(px = malloc (bytes)))
          return 1;
        CHECK (gh_photo_download (p, k, it, px, &err) == GH_OK, "download: %s",
               err.message);
        for (size_t i = 0; i < bytes; i++)
          diff += px[i] != cpu_eq[k][i];
        CHECK (diff == 0, "%s: %zu samples posterized on the GPU (channel %d) "
               "differ from the CPU's", argv[first + k], diff, keys[k]);
        free (px);
      }
    for (int k = 0; k < n; k++)
      free (cpu_eq[k]);
  }
  /* CLAHE: OpenCV's defaults of the luminance; each channel on 7 x 5 tiles
   * (the images padded); each channel on 64 x 48 tiles a few pixels
   * high. */
  {
    static const gh_clahe_params clahe[] = {
      { 2.0, 8, 8, GH_EQUALIZE_LUMINANCE },
      { 3.0, 7, 5, GH_EQUALIZE_CHANNELS },
      { 1.5, 64, 48, GH_EQUALIZE_CHANNELS },
    };
    for (int c = 0; c < 3; c++)
      check_clahe (p, e, items, n, argv + first, &clahe[c]);
  }
  for (int k = 0; k < n; k++)
    {
      free ((void *) items[k].jpeg);
      free (items[k].encoded);
    }
  free (items);
  free (tables);
  free (cpu_eq);
  gh_photo_destroy (p);
  gh_engine_destroy (e);
  printf ("%s: %d failures\n", failures ? "FAILED" : "passed", failures);
  return failures ? 1 : 0;
}
