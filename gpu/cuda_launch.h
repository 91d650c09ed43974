/* cuda_launch.h — the launch side of the GPU kernels: which kernel, how big
 * a grid, how much shared memory.  Internal to the engine and the benchmark
 * (CUDA C++ only).
 *
 *   cudaError_t e = gh_cuda_histogram (GH_KERNEL_AUTO, GH_LAYOUT_RGBA,
 *                                      false, false, d_pixels, NULL, n,
 *                                      d_sums, stream);
 *
 * d_pixels holds n packed pixels (16-byte aligned), d_mask n bytes or NULL;
 * d_sums is GH_NUM_CHANNELS * 256 64-bit sums that the kernel adds each
 * pixel's weights into (accum.h explains the units).  raw: count the
 * stored samples only (no value/luminance, no weights), for comparing with
 * other libraries.  n < 2^32.
 */
#ifndef GH_CUDA_LAUNCH_H
#define GH_CUDA_LAUNCH_H

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu_histogram.h"

/* The dispatcher (see cuda_launch.cu): the kernel for this kind of call on
 * the current device, from a calibration run on first use and cached for
 * the process; ms (or NULL) gets the probe's times in milliseconds,
 * packed then shared-atomic. */
gh_kernel gh_cuda_choose_kernel (gh_layout layout, bool mask, bool raw,
                                 float ms[2]);

cudaError_t gh_cuda_histogram (gh_kernel kernel, gh_layout layout, bool mask,
                               bool raw, const uint8_t *d_pixels,
                               const uint8_t *d_mask, size_t n,
                               unsigned long long *d_sums,
                               cudaStream_t stream);

#endif
