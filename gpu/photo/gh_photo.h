/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gh_photo.h — JPEG photos on the GPU, through nvJPEG, where the build
 * has it (GH_HAVE_NVJPEG): a batch of JPEG files' bytes decoded on the
 * device (the hardware JPEG decoder in one batched call where the GPU has
 * one, else nvJPEG's GPU decoder a file at a time), GIMP's histograms of
 * each counted there (the engine's binning: pixel.h), a table per channel
 * (or one table of a channel's level) applied there to the pixels in
 * place (or CLAHE made there: photo_clahe.h), and each result encoded
 * there;
 * only the counts, the tables and the encoded bytes cross to the host.
 * The device buffers and the encoders' states are made once for the
 * largest images seen and reused batch after batch, so memory stays
 * bounded by the batch size.
 *
 *   gh_photo *p;
 *   if (gh_photo_create (32, &p, &err)) ... err.message: no GPU, no nvJPEG
 *   items[k].jpeg, .length = a file's bytes;
 *   gh_photo_decode_count (p, items, n, &err);
 *     -- items[k].ok: decoded and counted (.width, .height, .channels,
 *        .counts); else .why says why (a file nvJPEG refuses: CMYK,
 *        12-bit, damaged), for the caller's CPU path
 *   gh_photo_apply_encode (p, items, n, tables, keys, quality, &err);
 *     -- each ok item's pixels through tables[k] and encoded:
 *        .encoded, .encoded_length (4:4:4 colour or gray, baseline,
 *        optimised Huffman tables, as the CPU path writes)
 *   or: gh_photo_clahe (p, items, n, &params, &err);  -- CLAHE in place
 *       gh_photo_encode (p, items, n, quality, &err);
 *   gh_photo_destroy (p);
 *
 * A failure of the device itself (not a refused file) returns an error
 * with the reason: the batch's items are then not ok, and the caller
 * takes them (and the rest) to the CPU.  Plain C interface over
 * photo_nvjpeg.cu; one thread at a time.
 */
#ifndef GH_PHOTO_H
#define GH_PHOTO_H

#include <stddef.h>
#include <stdint.h>

#include "gpu_histogram.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GH_PHOTO_MAX_BATCH 64

typedef struct gh_photo gh_photo;

typedef struct {
  /* In: the file's bytes. */
  const unsigned char *jpeg;
  size_t length;
  /* Out of gh_photo_decode_count. */
  int ok;
  char why[200];
  int width, height, channels; /* channels: 1 gray, 3 RGB */
  int hardware;                /* decoded by the hardware decoder */
  /* GIMP's six histograms of 256 bins, by gh_channel, the engine's
   * binning (perceptual luminance); channels a gray image lacks are 0. */
  uint64_t counts[GH_NUM_CHANNELS * 256];
  /* Out of gh_photo_apply_encode: the JPEG, in a buffer of
   * encoded_size bytes kept by the item (free it). */
  unsigned char *encoded;
  size_t encoded_length, encoded_size;
} gh_photo_item;

/* Per-stage seconds, summed over the calls; start: gh_photo_create's,
 * of which start_context opening the device (CUDA's driver and context
 * where it is the process's first) and start_handles the buffers and
 * nvJPEG's handles (made by the process's first gh_photo, waited for by
 * the others); the rest is the decoder's and encoder's states. */
typedef struct {
  double decode, count, apply, encode;
  unsigned long images, hardware;
  double start, start_context, start_handles;
} gh_photo_timings;

/* batch: items a call takes at most, 1..GH_PHOTO_MAX_BATCH. */
gh_status gh_photo_create (int batch, gh_photo **out, gh_error *error);
void gh_photo_destroy (gh_photo *p);
/* "NVIDIA H200", and how it decodes ("hardware" or "GPU"). */
const char *gh_photo_device_name (const gh_photo *p);
const char *gh_photo_decoder_name (const gh_photo *p);
void gh_photo_get_timings (const gh_photo *p, gh_photo_timings *out);

gh_status gh_photo_decode_count (gh_photo *p, gh_photo_item *items, int n,
                                 gh_error *error);
/* keys NULL or keys[k] < 0: tables[k][c][v] is what item k's channel c
 * (gray: c = 0) makes of level v (equalize, match: gh_op's tables);
 * keys[k] a gh_channel: every colour sample of a pixel becomes
 * tables[k][0][its level in that channel] (binarize, posterize: the
 * engine's level_of, perceptual luminance). */
gh_status gh_photo_apply_encode (gh_photo *p, gh_photo_item *items, int n,
                                 const uint8_t (*tables)[3][256],
                                 const int *keys, int quality,
                                 gh_error *error);

/* CLAHE of each ok item's pixels in place (params: gh_clahe_params, the
 * perceptual luminance), equal to gh_clahe_image's on the CPU from the
 * same pixels; then gh_photo_encode. */
gh_status gh_photo_clahe (gh_photo *p, gh_photo_item *items, int n,
                          const gh_clahe_params *params, gh_error *error);
/* Each ok item's pixels as they are now encoded (gh_photo_apply_encode's
 * second half). */
gh_status gh_photo_encode (gh_photo *p, gh_photo_item *items, int n,
                           int quality, gh_error *error);

/* Item k's pixels on the device as they are now (decoded, or mapped
 * after gh_photo_apply_encode), width x height x channels bytes, into
 * `host`: for the tests. */
gh_status gh_photo_download (gh_photo *p, int k, const gh_photo_item *item,
                             void *host, gh_error *error);

#ifdef __cplusplus
}
#endif

#endif
