/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cuda_backend.h — the GPU backend: pieces stream through pinned staging
 * buffers on several CUDA streams, so copying one chunk overlaps counting
 * the one before.  C interface over cuda_backend.cu.
 *
 *   gh_cuda_create (&options, &gpu, &err)    -- fails cleanly with no GPU:
 *                                               GH_ERR_UNSUPPORTED when the
 *                                               machine has no driver or no
 *                                               device, another code when a
 *                                               device failed to start
 *   gh_cuda_begin (gpu, &image)              -- cannot fail: GPU errors
 *                                               show at feed and finish
 *   gh_cuda_feed (gpu, &piece, cpu, &err)    -- pieces already checked
 *   gh_cuda_finish (gpu, &acc, cpu, &err)    -- adds the GPU's sums to acc
 *
 * Each chunk's sums come back to the host as soon as it is counted, and a
 * chunk's staging buffer is not reused before then; so when any CUDA call
 * fails, nothing is lost: gh_cuda_feed and gh_cuda_finish hand every chunk
 * without results, and the rest of the piece, to the CPU backend `cpu`,
 * then return GH_ERR_STATE with the reason.  The engine then stays on the
 * CPU; the result is the same.
 */
#ifndef GH_CUDA_BACKEND_H
#define GH_CUDA_BACKEND_H

#include "accum.h"
#include "cpu_backend.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gh_cuda gh_cuda;

gh_status gh_cuda_create (const gh_options *options, gh_cuda **out,
                          gh_error *error);
void gh_cuda_destroy (gh_cuda *gpu);
const char *gh_cuda_device_name (const gh_cuda *gpu);
void gh_cuda_begin (gh_cuda *gpu, const gh_image *image);
gh_status gh_cuda_feed (gh_cuda *gpu, const gh_piece *piece, gh_cpu *cpu,
                        gh_error *error);
gh_status gh_cuda_finish (gh_cuda *gpu, gh_accum *acc, gh_cpu *cpu,
                          gh_error *error);

/* Page-locked host memory (NULL if none); freeing takes either kind: what
 * is not page-locked goes to free(). */
void *gh_cuda_alloc_host (size_t bytes);
void gh_cuda_free_host (void *memory);
/* Whether `p` lies in page-locked host memory (cudaHostAlloc'ed or
 * registered), which the copy engines read and write straight. */
int gh_cuda_page_locked (const void *p);

#ifdef __cplusplus
}
#endif

#endif
