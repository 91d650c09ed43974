/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clahe_cuda.h — CLAHE's GPU passes (clahe_cuda.cu) for 8-bit images,
 * internal to the engine; clahe.c and clahe_map.c call them and finish on
 * the CPU when one fails.
 *
 *   gh_clahe_cuda_create (&geom, &gpu, &err)  -- on CUDA device 0, the
 *                                                engine's
 *   gh_clahe_cuda_count (gpu, strip, y0, rows, stride, hist, &err)
 *       adds the strip's rows to the host's tile histograms `hist`
 *       (channels x tiles x 256, clahe.c's layout) as the CPU would: the
 *       counts come back before it returns, so a failure loses nothing
 *       and `hist` is unchanged by a failed call;
 *   gh_clahe_cuda_set_luts (gpu, luts, &err)
 *       the tile mappings (clahe_map.c's) for ...
 *   gh_clahe_cuda_map (gpu, pixels, x0, y0, w, h, stride, &err)
 *       maps a rectangle of each channel (or gray) in place; the pixels
 *       are written only once the whole result is back.
 *
 *   gh_clahe_cuda_image (&geom, limit, pool, &space, pixels, stride,
 *                        check, arg, hist, &done, &counted, &err)
 *       CLAHE of a whole image in memory (each channel or gray; the
 *       padding rows' sources in the last tile row), in place: counts,
 *       mappings (clip count `limit`, as clahe_map.c's) and interpolation
 *       on the device, the copies by `pool`'s threads; `space` keeps the
 *       device and pinned buffers between calls (gh_clahe_space_free);
 *       page-locked `pixels` are copied straight from and back to, with
 *       no staging.  check (arg, &err) is asked before each band is
 *       written back (the engine's injected failures).  On a failure rows
 *       0..done-1 hold their result, the others are untouched, and `hist`
 *       has the counts of rows 0..counted-1's tile rows (counted >= done,
 *       a multiple of the tile height or the image's), the rest of it as
 *       it was; the space is freed.
 */
#ifndef GH_CLAHE_CUDA_H
#define GH_CLAHE_CUDA_H

#include "clahe.h"
#include "threads.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gh_clahe_cuda gh_clahe_cuda;
typedef struct gh_clahe_space gh_clahe_space;

gh_status gh_clahe_cuda_create (const gh_clahe_geom *geom,
                                gh_clahe_cuda **out, gh_error *error);
gh_status gh_clahe_cuda_count (gh_clahe_cuda *gpu, const void *pixels,
                               size_t y0, size_t rows, size_t stride,
                               uint32_t *hist, gh_error *error);
gh_status gh_clahe_cuda_set_luts (gh_clahe_cuda *gpu, const uint8_t *luts,
                                  gh_error *error);
gh_status gh_clahe_cuda_map (gh_clahe_cuda *gpu, void *pixels, size_t x0,
                             size_t y0, size_t width, size_t height,
                             size_t stride, gh_error *error);
void gh_clahe_cuda_destroy (gh_clahe_cuda *gpu);

gh_status gh_clahe_cuda_image (const gh_clahe_geom *geom, int limit,
                               gh_threads *pool, gh_clahe_space **space,
                               void *pixels, size_t stride,
                               gh_status (*check) (void *, gh_error *),
                               void *check_arg, uint32_t *hist,
                               size_t *done, size_t *counted,
                               gh_error *error);
void gh_clahe_space_free (gh_clahe_space *space);

#ifdef __cplusplus
}
#endif

#endif
