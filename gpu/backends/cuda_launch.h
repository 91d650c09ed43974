/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cuda_launch.h — the launch side of the GPU kernels: which kernel variant,
 * how big a grid, how much shared memory.  Internal to the engine, its
 * tests and the benchmark (CUDA C++ only).
 *
 *   gh_launch_kind kind = { GH_LAYOUT_RGBA, false, false,
 *                           GH_LUMINANCE_PERCEPTUAL };
 *   gh_choice c = gh_cuda_choose (GH_KERNEL_AUTO, &kind, 0);
 *   cudaError_t e = gh_cuda_histogram (c.order[0], &kind, 0, d_pixels,
 *                                      NULL, n, d_sums, stream);
 *
 * d_pixels holds n packed pixels (16-byte aligned), d_mask n bytes or NULL;
 * d_sums is GH_NUM_CHANNELS * 256 64-bit sums that the kernel adds each
 * pixel's weights into (accum.h explains the units).  raw: count the
 * stored samples only (no value/luminance, no weights), for comparing with
 * other libraries.  n < 2^32.
 *
 * `cap` (bytes, 0: none) lowers the shared memory a block and a
 * multiprocessor may use below what the device allows, so one device can
 * run the configurations of smaller ones (gh_options.smem_cap).
 */
#ifndef GH_CUDA_LAUNCH_H
#define GH_CUDA_LAUNCH_H

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu_histogram.h"
#include "kernel_policy.h"

/* What a launch counts. */
typedef struct {
  gh_layout layout;
  bool mask;
  bool raw;
  gh_luminance luminance; /* matters to colour kernels that are not raw */
} gh_launch_kind;

/* What the launch policy may use on the current device. */
typedef struct {
  size_t per_block; /* dynamic shared memory a block may have (opt-in) */
  size_t per_sm;    /* shared memory of a multiprocessor */
  size_t reserved;  /* what the system takes of it per block */
  int sms;
} gh_smem_budget;

/* The dispatcher's answer for one kind of call: the variants that can
 * launch under the budget, the one to use first, then the ones to try
 * when a launch fails; the global kernel always last.  ms[v]: variant
 * v's calibration time in milliseconds, 0 when it was not timed. */
typedef struct {
  int count;
  gh_variant order[GH_VARIANT_COUNT];
  float ms[GH_VARIANT_COUNT];
} gh_choice;

/* gh_variant_policies[v].name; "none" out of range. */
const char *gh_variant_name (gh_variant v);

/* Dynamic shared memory a block of variant v takes for this kind, in its
 * largest form (GIMP 3's luminance in a 16-copy counts kernel takes a
 * smaller table where the budget has no room for it). */
size_t gh_variant_smem (gh_variant v, const gh_launch_kind *kind);

cudaError_t gh_cuda_budget (size_t cap, gh_smem_budget *budget);

/* Whether variant v can launch for this kind within the budget. */
bool gh_variant_fits (gh_variant v, const gh_launch_kind *kind,
                      const gh_smem_budget *budget);

/* The dispatcher (see cuda_launch.cu): a calibration on first use of each
 * device, kind of call, family (GH_KERNEL_AUTO: every kernel) and cap,
 * cached for the process. */
gh_choice gh_cuda_choose (gh_kernel family, const gh_launch_kind *kind,
                          size_t cap);

/* Launches one variant; a variant that does not fit the budget is refused
 * (cudaErrorInvalidConfiguration) as the device itself would refuse it. */
cudaError_t gh_cuda_histogram (gh_variant v, const gh_launch_kind *kind,
                               size_t cap, const uint8_t *d_pixels,
                               const uint8_t *d_mask, size_t n,
                               unsigned long long *d_sums,
                               cudaStream_t stream);

#endif
