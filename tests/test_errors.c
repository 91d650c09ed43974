/* test_errors.c — bad input gets an error with a message, and nothing is
 * written outside the caller's outputs (the output stays as it was). */
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static gh_engine *engine;
static uint8_t pixels[64 * 4 * 4], mask[64 * 4];

static gh_status
feed (gh_image image, gh_piece piece, gh_error *err)
{
  gh_status st = gh_engine_begin (engine, &image, err);
  return st != GH_OK ? st : gh_engine_feed (engine, &piece, err);
}

#define EXPECT_ERROR(call, what)                                             \
  do                                                                         \
    {                                                                        \
      gh_error err_;                                                         \
      err_.message[0] = 0;                                                   \
      gh_status st_ = (call);                                                \
      CHECK (st_ != GH_OK && err_.message[0], "%s: status %d, '%s'", what,   \
             (int) st_, err_.message);                                       \
    }                                                                        \
  while (0)

int
main (void)
{
  gh_options o;
  gh_error err;
  gh_image rgba = { GH_LAYOUT_RGBA, GH_SAMPLE_U8, 256, 0,
                    GH_LUMINANCE_PERCEPTUAL };
  gh_image masked = { GH_LAYOUT_RGB, GH_SAMPLE_U8, 256, 1,
                      GH_LUMINANCE_PERCEPTUAL };
  gh_piece good = { pixels, 4, 4, 16, NULL, 0 };
  gh_histogram h;

  gh_options_init (&o);
  o.backend = GH_BACKEND_CPU;
  if (gh_engine_create (&o, &engine, &err) != GH_OK)
    return printf ("cannot create an engine: %s\n", err.message), 1;

  /* The image description. */
  {
    gh_image bad = rgba;
    bad.layout = (gh_layout) 0;
    EXPECT_ERROR (gh_engine_begin (engine, &bad, &err_), "0 channels");
    bad.layout = (gh_layout) 5;
    EXPECT_ERROR (gh_engine_begin (engine, &bad, &err_), "5 channels");
    bad = rgba;
    bad.sample = (gh_sample) 7;
    EXPECT_ERROR (gh_engine_begin (engine, &bad, &err_), "sample type");
    bad = rgba;
    bad.bins = 1024;
    EXPECT_ERROR (gh_engine_begin (engine, &bad, &err_), "1024 bins on u8");
    bad.sample = GH_SAMPLE_F32;
    bad.bins = 1;
    EXPECT_ERROR (gh_engine_begin (engine, &bad, &err_), "1 bin");
    bad.bins = 65537;
    EXPECT_ERROR (gh_engine_begin (engine, &bad, &err_), "65537 bins");
    EXPECT_ERROR (gh_engine_begin (engine, NULL, &err_), "NULL image");
    EXPECT_ERROR (gh_engine_begin (NULL, &rgba, &err_), "NULL engine");
  }

  /* Calls out of order. */
  {
    gh_engine *fresh;
    gh_histogram_init (&h);
    gh_engine_create (&o, &fresh, &err);
    EXPECT_ERROR (gh_engine_feed (fresh, &good, &err_), "feed before begin");
    EXPECT_ERROR (gh_engine_finish (fresh, &h, &err_), "finish before begin");
    CHECK (h.raw == NULL, "output untouched");
    gh_engine_destroy (fresh);
  }

  /* Pieces. */
  {
    gh_piece p = good;
    p.pixels = NULL;
    EXPECT_ERROR (feed (rgba, p, &err_), "NULL pixels");
    p = good, p.width = 0;
    EXPECT_ERROR (feed (rgba, p, &err_), "zero width");
    p = good, p.height = 0;
    EXPECT_ERROR (feed (rgba, p, &err_), "zero height");
    p = good, p.stride = 15;
    EXPECT_ERROR (feed (rgba, p, &err_), "stride shorter than a row");
    p = good, p.width = SIZE_MAX / 2, p.stride = SIZE_MAX;
    EXPECT_ERROR (feed (rgba, p, &err_), "width overflowing a row");
    p = good, p.width = (size_t) 1 << 30, p.height = (size_t) 1 << 30,
    p.stride = (size_t) 1 << 36;
    EXPECT_ERROR (feed (rgba, p, &err_), "rows overflowing memory");
    gh_engine_begin (engine, &rgba, &err);
    EXPECT_ERROR (gh_engine_feed (engine, NULL, &err_), "NULL piece");
    p = good, p.stride = 12;
    EXPECT_ERROR (feed (masked, p, &err_), "mask missing");
    p.mask = mask, p.mask_stride = 3;
    EXPECT_ERROR (feed (masked, p, &err_), "mask stride short");
    {
      gh_image f32 = { GH_LAYOUT_GRAY, GH_SAMPLE_F32, 1024, 1,
                        GH_LUMINANCE_PERCEPTUAL };
      gh_piece q = { pixels, 4, 4, 16, mask, 8 };
      EXPECT_ERROR (feed (f32, q, &err_), "float mask stride of 2 floats");
      q.stride = 12;
      q.mask_stride = 16;
      EXPECT_ERROR (feed (f32, q, &err_), "float stride of 3 floats");
    }
  }

  /* After errors the engine still works. */
  {
    gh_piece p = good;
    memset (pixels, 9, sizeof pixels);
    gh_histogram_init (&h);
    CHECK (gh_engine_begin (engine, &rgba, &err) == GH_OK, "begin");
    CHECK (gh_engine_feed (engine, &p, &err) == GH_OK, "feed");
    CHECK (gh_engine_finish (engine, &h, &err) == GH_OK, "finish");
    /* Alpha 9 everywhere: 16 pixels of alpha 9, weighing 16 * 9/255. */
    CHECK (gh_histogram_count (&h, GH_CHANNEL_ALPHA, 9) == 16.0
             && gh_histogram_count (&h, GH_CHANNEL_RED, 9) == 16.0 * 9 / 255,
           "16 pixels counted");
    gh_histogram_clear (&h);
  }

  /* Applying. */
  {
    uint16_t t[256] = { 0 };
    const uint16_t *tables[3] = { t, t, NULL };
    EXPECT_ERROR (gh_apply_tables (GH_LAYOUT_RGB, pixels, 4, 4, 12, tables,
                                   &err_),
                  "missing table");
    EXPECT_ERROR (gh_apply_threshold (GH_LAYOUT_GRAY, pixels, 4, 4, 4,
                                      GH_CHANNEL_LUMINANCE, 10, &err_),
                  "luminance of gray");
    EXPECT_ERROR (gh_apply_threshold (GH_LAYOUT_GRAY, pixels, 4, 4, 3,
                                      GH_CHANNEL_VALUE, 10, &err_),
                  "short stride");
    EXPECT_ERROR (gh_apply_threshold (GH_LAYOUT_RGB, NULL, 4, 4, 12,
                                      GH_CHANNEL_VALUE, 10, &err_),
                  "NULL pixels");
  }

  /* Host memory from a CPU engine is ordinary and usable. */
  {
    uint8_t *m = gh_engine_alloc_host (engine, 1000);
    CHECK (m != NULL, "alloc_host");
    if (m)
      memset (m, 1, 1000);
    gh_engine_free_host (engine, m);
    gh_engine_free_host (engine, NULL);
  }

  /* The backend variable. */
  {
    gh_engine *e = NULL;
    setenv ("GPU_HISTOGRAM_BACKEND", "gpu-please", 1);
    EXPECT_ERROR (gh_engine_create (NULL, &e, &err_), "bad backend variable");
    CHECK (e == NULL, "no engine made");
    setenv ("GPU_HISTOGRAM_BACKEND", "cpu", 1);
    CHECK (gh_engine_create (NULL, &e, &err) == GH_OK
             && !strncmp (gh_engine_backend_name (e), "cpu: ", 5),
           "cpu forced by the variable: %s", gh_engine_backend_name (e));
    gh_engine_destroy (e);
    unsetenv ("GPU_HISTOGRAM_BACKEND");
  }

  gh_engine_destroy (engine);
  return test_summary ();
}
