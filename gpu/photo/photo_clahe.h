/* SPDX-License-Identifier: GPL-3.0-or-later */
/* photo_clahe.h — CLAHE of a decoded photo in device memory (photo_nvjpeg.cu's
 * buffers), through the engine's CLAHE kernels (clahe_launch.h), equal
 * byte for byte to gh_clahe_image's result on the CPU from the same
 * pixels: each channel (or gray) as the engine's whole-image GPU pass
 * maps them; or, in the luminance mode, each pixel's perceptual luminance
 * level as a gray plane through the same kernels, then each colour moved
 * to its mapped level as colour.c's gh_op_move_luminance_u8 moves it, in
 * the same double operations.  Asynchronous on `stream`; the scratch
 * (tile counts, mappings, the luminance plane) is kept in `*space` for
 * the next photo.  For .cu callers (cudaStream_t).
 *
 *   gh_photo_clahe_space *s = NULL;
 *   gh_photo_clahe_run (&params, d_pixels, width, height, channels, &s,
 *                       stream, &err);   -- channels 1 or 3, interleaved,
 *                                           the buffer 16-byte padded
 *   gh_photo_clahe_space_free (s);
 */
#ifndef GH_PHOTO_CLAHE_H
#define GH_PHOTO_CLAHE_H

#include "gpu_histogram.h"

#include <cuda_runtime.h>
#include <stdint.h>

typedef struct gh_photo_clahe_space gh_photo_clahe_space;

gh_status gh_photo_clahe_run (const gh_clahe_params *params, uint8_t *pixels,
                              int width, int height, int channels,
                              gh_photo_clahe_space **space,
                              cudaStream_t stream, gh_error *error);
void gh_photo_clahe_space_free (gh_photo_clahe_space *space);

#endif
