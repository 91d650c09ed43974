/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_errors.c — bad input gets an error with a message, and nothing is
 * written outside the caller's outputs: after every error path the output
 * is checked to be as it was.
 *
 *   engine: a bad begin or feed in the middle of an image adds nothing
 *           (the image, finished, equals the good pieces alone); a failed
 *           finish leaves the caller's histogram bit for bit as it was;
 *   apply:  every refused apply (8-bit, float, gh_op) leaves the pixels,
 *           padding included, byte for byte as they were;
 *   CSV:    every writer reports a failing stream (-1) and leaves the
 *           histogram it wrote from unchanged.  (The files the hosts write
 *           are kept whole by a temporary name and a rename: test_random,
 *           plugin_files.py.) */
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include "apply.h"
#include "csv.h"
#include "reference.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static gh_engine *engine;
static uint8_t pixels[64 * 4 * 4], mask[64 * 4];
static float fpixels[64 * 4 * 4], fmask[64 * 4];

/* A call that must fail with a message.  `err` is the caller's gh_error,
 * the one the call writes: its message is emptied first, so an old
 * message cannot pass for a new one. */
#define EXPECT_ERROR(err, call, what)                                        \
  do                                                                         \
    {                                                                        \
      (err).message[0] = 0;                                                  \
      gh_status st_ = (call);                                                \
      CHECK (st_ != GH_OK && (err).message[0], "%s: status %d, '%s'", what,  \
             (int) st_, (err).message);                                      \
    }                                                                        \
  while (0)

/* A copy of a histogram, to compare with after a failing call. */
static void
copy_histogram (const gh_histogram *from, gh_histogram *to)
{
  gh_error err;
  gh_histogram_reset (to, from->bins, from->weight != NULL, &err);
  to->channels = from->channels;
  memcpy (to->unit, from->unit, sizeof to->unit);
  memcpy (to->raw, from->raw,
          (size_t) GH_NUM_CHANNELS * from->bins * sizeof *from->raw);
  if (from->weight)
    memcpy (to->weight, from->weight,
            (size_t) GH_NUM_CHANNELS * from->bins * sizeof *from->weight);
}

/* An image that meets an error in the middle: begin, a good piece, the
 * failing call, the good piece again, finish.  The result must equal the
 * reference of the good piece counted twice: the error added nothing and
 * left the image going. */
typedef enum { BAD_FEED, BAD_BEGIN } bad_kind;

static void
check_error_midway (gh_image image, gh_piece good, bad_kind kind,
                    const gh_image *bad_image, const gh_piece *bad_piece,
                    const char *what)
{
  gh_histogram got, want;
  gh_error err;

  gh_histogram_init (&got);
  gh_histogram_init (&want);
  gh_reference_begin (&image, &want);
  gh_reference_add (&image, &good, &want);
  gh_reference_add (&image, &good, &want);
  CHECK (gh_engine_begin (engine, &image, &err) == GH_OK
           && gh_engine_feed (engine, &good, &err) == GH_OK,
         "%s: the good start: %s", what, err.message);
  if (kind == BAD_FEED)
    EXPECT_ERROR (err, gh_engine_feed (engine, bad_piece, &err), what);
  else
    EXPECT_ERROR (err, gh_engine_begin (engine, bad_image, &err), what);
  CHECK (gh_engine_feed (engine, &good, &err) == GH_OK
           && gh_engine_finish (engine, &got, &err) == GH_OK,
         "%s: the image goes on: %s", what, err.message);
  CHECK (test_same_histogram (&got, &want),
         "%s: the error added nothing to the image", what);
  gh_histogram_clear (&got);
  gh_histogram_clear (&want);
}

static void
check_bad_feed (gh_image image, gh_piece good, gh_piece bad, const char *what)
{
  check_error_midway (image, good, BAD_FEED, NULL, &bad, what);
}

static void
check_bad_begin (gh_image image, gh_piece good, const gh_image *bad,
                 const char *what)
{
  check_error_midway (image, good, BAD_BEGIN, bad, NULL, what);
}

/* The pixels as they were, to compare with after a refused apply. */
static uint8_t pixels_before[sizeof pixels];
static float fpixels_before[sizeof fpixels / sizeof *fpixels];

static void
remember_pixels (void)
{
  for (size_t i = 0; i < sizeof pixels; i++)
    pixels[i] = (uint8_t) (i * 37 + 11);
  for (size_t i = 0; i < sizeof fpixels / sizeof *fpixels; i++)
    fpixels[i] = (float) ((i * 37 + 11) % 1000) / 999.0f;
  memcpy (pixels_before, pixels, sizeof pixels);
  memcpy (fpixels_before, fpixels, sizeof fpixels);
}

static void
check_pixels_kept (const char *what)
{
  CHECK (!memcmp (pixels, pixels_before, sizeof pixels)
           && !memcmp (fpixels, fpixels_before, sizeof fpixels),
         "%s: the pixels are as they were", what);
}

/* A stream every write to fails at once (no buffer to hide it in). */
static FILE *
failing_stream (void)
{
  FILE *f = fopen ("/dev/full", "w");
  if (f)
    setvbuf (f, NULL, _IONBF, 0);
  return f;
}

int
main (void)
{
  gh_options o;
  gh_error err;
  gh_image rgba = { GH_LAYOUT_RGBA, GH_SAMPLE_U8, 256, 0,
                    GH_LUMINANCE_PERCEPTUAL, 0 };
  gh_image masked = { GH_LAYOUT_RGB, GH_SAMPLE_U8, 256, 1,
                      GH_LUMINANCE_PERCEPTUAL, 0 };
  gh_image f32 = { GH_LAYOUT_GRAY, GH_SAMPLE_F32, 1024, 1,
                   GH_LUMINANCE_PERCEPTUAL, 0 };
  gh_piece good = { pixels, 4, 4, 16, NULL, 0 };
  gh_piece good_masked = { pixels, 4, 4, 12, mask, 4 };
  gh_piece good_f32 = { fpixels, 4, 4, 16, fmask, 16 };
  gh_histogram h;

  gh_options_init (&o);
  o.backend = GH_BACKEND_CPU;
  if (gh_engine_create (&o, &engine, &err) != GH_OK)
    return printf ("cannot create an engine: %s\n", err.message), 1;
  for (size_t i = 0; i < sizeof pixels; i++)
    pixels[i] = (uint8_t) (i * 7 + 3);
  for (size_t i = 0; i < sizeof mask; i++)
    mask[i] = (uint8_t) (i * 13);
  for (size_t i = 0; i < sizeof fpixels / sizeof *fpixels; i++)
    fpixels[i] = (float) (i % 17) / 16.0f;
  for (size_t i = 0; i < sizeof fmask / sizeof *fmask; i++)
    fmask[i] = (float) (i % 5) / 4.0f;

  /* The image description: each refused in the middle of an image. */
  {
    gh_image bad = rgba;
    bad.layout = (gh_layout) 0;
    check_bad_begin (rgba, good, &bad, "0 channels");
    bad.layout = (gh_layout) 5;
    check_bad_begin (rgba, good, &bad, "5 channels");
    bad = rgba;
    bad.sample = (gh_sample) 7;
    check_bad_begin (rgba, good, &bad, "sample type");
    bad = rgba;
    bad.bins = 1024;
    check_bad_begin (rgba, good, &bad, "1024 bins on u8");
    bad.sample = GH_SAMPLE_F32;
    bad.bins = 1;
    check_bad_begin (rgba, good, &bad, "1 bin");
    bad.bins = 65537;
    check_bad_begin (rgba, good, &bad, "65537 bins");
    bad = rgba;
    bad.luminance = (gh_luminance) 9;
    check_bad_begin (rgba, good, &bad, "luminance rule 9");
    check_bad_begin (rgba, good, NULL, "NULL image");
    EXPECT_ERROR (err, gh_engine_begin (NULL, &rgba, &err), "NULL engine");
  }

  /* Calls out of order, and finish's own errors: the caller's histogram
   * stays bit for bit what it held. */
  {
    gh_engine *fresh;
    gh_histogram before;
    gh_histogram_init (&h);
    gh_histogram_init (&before);
    gh_engine_create (&o, &fresh, &err);
    EXPECT_ERROR (err, gh_engine_feed (fresh, &good, &err),
                  "feed before begin");
    EXPECT_ERROR (err, gh_engine_finish (fresh, &h, &err),
                  "finish before begin");
    CHECK (h.raw == NULL, "finish before begin: an empty output untouched");
    /* A histogram with counts in it. */
    CHECK (gh_engine_begin (engine, &rgba, &err) == GH_OK
             && gh_engine_feed (engine, &good, &err) == GH_OK
             && gh_engine_finish (engine, &h, &err) == GH_OK,
           "a histogram to keep: %s", err.message);
    copy_histogram (&h, &before);
    EXPECT_ERROR (err, gh_engine_finish (fresh, &h, &err),
                  "finish before begin, full output");
    CHECK (test_same_histogram (&h, &before),
           "finish before begin: the output as it was");
    EXPECT_ERROR (err, gh_engine_finish (NULL, &h, &err), "finish, NULL engine");
    CHECK (test_same_histogram (&h, &before),
           "finish, NULL engine: the output as it was");
    EXPECT_ERROR (err, gh_engine_finish (engine, &h, &err),
                  "finish twice");
    CHECK (test_same_histogram (&h, &before),
           "finish twice: the output as it was");
    gh_engine_begin (engine, &rgba, &err);
    EXPECT_ERROR (err, gh_engine_finish (engine, NULL, &err),
                  "finish, NULL output");
    gh_histogram_clear (&before);
    gh_histogram_clear (&h);
    gh_engine_destroy (fresh);
  }

  /* Pieces: each refused in the middle of an image that then goes on. */
  {
    gh_piece p = good;
    p.pixels = NULL;
    check_bad_feed (rgba, good, p, "NULL pixels");
    p = good, p.width = 0;
    check_bad_feed (rgba, good, p, "zero width");
    p = good, p.height = 0;
    check_bad_feed (rgba, good, p, "zero height");
    p = good, p.stride = 15;
    check_bad_feed (rgba, good, p, "stride shorter than a row");
    p = good, p.width = SIZE_MAX / 2, p.stride = SIZE_MAX;
    check_bad_feed (rgba, good, p, "width overflowing a row");
    p = good, p.width = (size_t) 1 << 30, p.height = (size_t) 1 << 30,
    p.stride = (size_t) 1 << 36;
    check_bad_feed (rgba, good, p, "rows overflowing memory");
    gh_engine_begin (engine, &rgba, &err);
    EXPECT_ERROR (err, gh_engine_feed (engine, NULL, &err), "NULL piece");
    gh_engine_begin (engine, &rgba, &err);
    EXPECT_ERROR (err, gh_engine_feed (NULL, &good, &err), "NULL engine");
    p = good_masked, p.mask = NULL;
    check_bad_feed (masked, good_masked, p, "mask missing");
    p = good_masked, p.mask_stride = 3;
    check_bad_feed (masked, good_masked, p, "mask stride short");
    p = good_f32, p.mask_stride = 8;
    check_bad_feed (f32, good_f32, p, "float mask stride of 2 floats");
    p = good_f32, p.stride = 12;
    check_bad_feed (f32, good_f32, p, "float stride of 3 floats");
    /* Two rows fit the buffer whatever the stride: only the alignment is
     * wrong. */
    p = good_f32, p.stride = 18, p.height = 2;
    check_bad_feed (f32, good_f32, p, "float stride of 4.5 floats");
    p = good_f32, p.mask_stride = 18, p.height = 2;
    check_bad_feed (f32, good_f32, p, "float mask stride of 4.5 floats");
  }

  /* After all those errors a fresh image still counts right. */
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

  /* Applying: every refusal leaves every byte as it was. */
  {
    uint16_t t[256] = { 0 };
    const uint16_t *tables[3] = { t, t, NULL };
    const uint16_t *all_tables[3] = { t, t, t };
    gh_op op;
    gh_histogram hist;

    remember_pixels ();
    EXPECT_ERROR (err, gh_apply_tables (GH_LAYOUT_RGB, pixels, 4, 4, 12,
                                        tables, &err),
                  "missing table");
    check_pixels_kept ("missing table");
    EXPECT_ERROR (err, gh_apply_tables (GH_LAYOUT_RGB, pixels, 4, 4, 11,
                                        all_tables, &err),
                  "tables, short stride");
    check_pixels_kept ("tables, short stride");
    EXPECT_ERROR (err, gh_apply_tables (GH_LAYOUT_RGB, pixels, 0, 4, 12,
                                        all_tables, &err),
                  "tables, zero width");
    check_pixels_kept ("tables, zero width");
    /* Operations: refused when prepared, and when applied. */
    memset (&op, 0, sizeof op);
    EXPECT_ERROR (err, gh_op_apply (&op, pixels, 4, 4, 12, &err),
                  "an operation never prepared");
    check_pixels_kept ("an operation never prepared");
    EXPECT_ERROR (err, gh_op_binarize (&op, GH_LAYOUT_GRAY, GH_SAMPLE_U8,
                                       GH_LUMINANCE_PERCEPTUAL, 256,
                                       GH_CHANNEL_RED, 10, &err),
                  "binarize red of gray");
    EXPECT_ERROR (err, gh_op_binarize (&op, GH_LAYOUT_RGB, GH_SAMPLE_U8,
                                       GH_LUMINANCE_PERCEPTUAL, 1024,
                                       GH_CHANNEL_RED, 10, &err),
                  "binarize 1024 bins on u8");
    EXPECT_ERROR (err, gh_op_binarize (&op, GH_LAYOUT_RGB, GH_SAMPLE_U8,
                                       GH_LUMINANCE_PERCEPTUAL, 256,
                                       GH_CHANNEL_RED, 256, &err),
                  "binarize threshold bin 256 of 256");
    EXPECT_ERROR (err, gh_op_binarize (NULL, GH_LAYOUT_RGB, GH_SAMPLE_U8,
                                       GH_LUMINANCE_PERCEPTUAL, 256,
                                       GH_CHANNEL_RED, 10, &err),
                  "binarize, NULL operation");
    EXPECT_ERROR (err, gh_op_binarize (&op, GH_LAYOUT_GRAY, GH_SAMPLE_U8,
                                       GH_LUMINANCE_PERCEPTUAL, 256,
                                       GH_CHANNEL_LUMINANCE, 10, &err),
                  "binarize luminance of gray");
    EXPECT_ERROR (err, gh_op_binarize (&op, GH_LAYOUT_RGB, GH_SAMPLE_U8,
                                       GH_LUMINANCE_PERCEPTUAL, 256,
                                       (gh_channel) 6, 10, &err),
                  "binarize channel 6");
    EXPECT_ERROR (err, gh_op_binarize (&op, GH_LAYOUT_GRAY, GH_SAMPLE_F32,
                                       GH_LUMINANCE_PERCEPTUAL, 1024,
                                       GH_CHANNEL_RED, 10, &err),
                  "float binarize red of gray");
    CHECK (gh_op_binarize (&op, GH_LAYOUT_GRAY, GH_SAMPLE_U8,
                           GH_LUMINANCE_PERCEPTUAL, 256, GH_CHANNEL_VALUE,
                           10, &err) == GH_OK,
           "an 8-bit binarize: %s", err.message);
    EXPECT_ERROR (err, gh_op_apply (&op, pixels, 4, 4, 3, &err),
                  "binarize, short stride");
    check_pixels_kept ("binarize, short stride");
    EXPECT_ERROR (err, gh_op_apply (&op, NULL, 4, 4, 4, &err),
                  "binarize, NULL 8-bit pixels");
    check_pixels_kept ("binarize, NULL 8-bit pixels");
    gh_op_clear (&op);
    gh_histogram_init (&hist);
    CHECK (gh_engine_begin (engine, &f32, &err) == GH_OK
             && gh_engine_feed (engine, &good_f32, &err) == GH_OK
             && gh_engine_finish (engine, &hist, &err) == GH_OK,
           "a 1024-bin histogram: %s", err.message);
    remember_pixels ();
    EXPECT_ERROR (err, gh_op_equalize (&op, &hist, GH_LAYOUT_GRAY,
                                       GH_SAMPLE_U8, GH_LUMINANCE_PERCEPTUAL,
                                       GH_EQUALIZE_CHANNELS, &err),
                  "equalize u8 with 1024 bins");
    EXPECT_ERROR (err, gh_op_equalize (&op, NULL, GH_LAYOUT_GRAY,
                                       GH_SAMPLE_F32, GH_LUMINANCE_PERCEPTUAL,
                                       GH_EQUALIZE_CHANNELS, &err),
                  "equalize, no histogram");
    EXPECT_ERROR (err, gh_op_equalize (&op, &hist, GH_LAYOUT_GRAY,
                                       GH_SAMPLE_F32, GH_LUMINANCE_PERCEPTUAL,
                                       (gh_equalize_mode) 2, &err),
                  "equalize mode 2");
    CHECK (gh_op_equalize (&op, &hist, GH_LAYOUT_GRAY, GH_SAMPLE_F32,
                           GH_LUMINANCE_PERCEPTUAL, GH_EQUALIZE_CHANNELS,
                           &err) == GH_OK,
           "a prepared float equalize: %s", err.message);
    EXPECT_ERROR (err, gh_op_apply (&op, fpixels, 4, 4, 12, &err),
                  "float equalize, short stride");
    check_pixels_kept ("float equalize, short stride");
    gh_op_clear (&op);
    CHECK (gh_op_binarize (&op, GH_LAYOUT_GRAY, GH_SAMPLE_F32,
                           GH_LUMINANCE_PERCEPTUAL, 1024, GH_CHANNEL_VALUE,
                           500, &err) == GH_OK,
           "a prepared binarize: %s", err.message);
    EXPECT_ERROR (err, gh_op_apply (&op, fpixels, 4, 4, 15, &err),
                  "binarize, short float stride");
    check_pixels_kept ("binarize, short float stride");
    EXPECT_ERROR (err, gh_op_apply (&op, NULL, 4, 4, 16, &err),
                  "binarize, NULL pixels");
    check_pixels_kept ("binarize, NULL pixels");
    gh_op_clear (&op);
    gh_histogram_clear (&hist);
  }

  /* CSV: a stream that fails is reported by every writer, and what was
   * written from is unchanged. */
  {
    FILE *full = failing_stream ();
    gh_histogram before;
    gh_histogram_init (&h);
    gh_histogram_init (&before);
    CHECK (gh_engine_begin (engine, &rgba, &err) == GH_OK
             && gh_engine_feed (engine, &good, &err) == GH_OK
             && gh_engine_finish (engine, &h, &err) == GH_OK,
           "a histogram to write: %s", err.message);
    copy_histogram (&h, &before);
    if (!full)
      CHECK (0, "cannot open /dev/full");
    else
      {
        CHECK (gh_csv_write_histogram (full, &h) == -1,
               "histogram CSV on a full disk: -1");
        CHECK (test_same_histogram (&h, &before),
               "histogram CSV on a full disk: the histogram as it was");
        clearerr (full);
        CHECK (gh_csv_write_stats_rows (full, "a,b.png", &h, "cpu") == -1,
               "statistics rows on a full disk: -1");
        CHECK (test_same_histogram (&h, &before),
               "statistics rows on a full disk: the histogram as it was");
        clearerr (full);
        CHECK (gh_csv_write_error_row (full, "x", "why") == -1,
               "error row on a full disk: -1");
        clearerr (full);
        CHECK (gh_csv_write_text (full, "a\"b") == -1,
               "quoted text on a full disk: -1");
        clearerr (full);
        CHECK (gh_csv_write_text (full, "plain") == -1,
               "plain text on a full disk: -1");
        clearerr (full);
        CHECK (gh_csv_write_number (full, 0.5) == -1,
               "a number on a full disk: -1");
        fclose (full);
      }
    gh_histogram_clear (&before);
    gh_histogram_clear (&h);
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
    EXPECT_ERROR (err, gh_engine_create (NULL, &e, &err),
                  "bad backend variable");
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
