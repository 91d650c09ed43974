/* clahe_cuda.h — CLAHE's GPU passes (clahe_cuda.cu) for 8-bit images,
 * internal to the engine; clahe.c calls them and finishes on the CPU when
 * one fails.
 *
 *   gh_clahe_cuda_create (&geom, &gpu, &err)  -- on CUDA device 0, the
 *                                                engine's
 *   gh_clahe_cuda_count (gpu, strip, y0, rows, stride, hist, &err)
 *       adds the strip's rows to the host's tile histograms `hist`
 *       (channels x tiles x 256, clahe.c's layout) as the CPU would: the
 *       counts come back before it returns, so a failure loses nothing
 *       and `hist` is unchanged by a failed call;
 *   gh_clahe_cuda_set_luts (gpu, luts, xa, xa1, tx1, tx2, &err)
 *       the tile mappings and column weights (clahe.c's) for ...
 *   gh_clahe_cuda_map (gpu, pixels, x0, y0, w, h, stride, &err)
 *       maps a rectangle of each channel (or gray) in place; the pixels
 *       are written only once the whole result is back.
 */
#ifndef GH_CLAHE_CUDA_H
#define GH_CLAHE_CUDA_H

#include "clahe.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gh_clahe_cuda gh_clahe_cuda;

gh_status gh_clahe_cuda_create (const gh_clahe_geom *geom,
                                gh_clahe_cuda **out, gh_error *error);
gh_status gh_clahe_cuda_count (gh_clahe_cuda *gpu, const void *pixels,
                               size_t y0, size_t rows, size_t stride,
                               uint32_t *hist, gh_error *error);
gh_status gh_clahe_cuda_set_luts (gh_clahe_cuda *gpu, const uint8_t *luts,
                                  const float *xa, const float *xa1,
                                  const int *tx1, const int *tx2,
                                  gh_error *error);
gh_status gh_clahe_cuda_map (gh_clahe_cuda *gpu, void *pixels, size_t x0,
                             size_t y0, size_t width, size_t height,
                             size_t stride, gh_error *error);
void gh_clahe_cuda_destroy (gh_clahe_cuda *gpu);

#ifdef __cplusplus
}
#endif

#endif
