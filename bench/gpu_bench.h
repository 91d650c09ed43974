/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gpu_bench.h — the benchmark's GPU half (gpu_bench.cu), called by
 * benchmark.c when the engine is built with CUDA.  images[k] are width x
 * height RGBA8 host images (NULL: that kind is missing); prints its tables
 * and returns 0, or non-zero after a CUDA error. */
#ifndef BENCH_GPU_BENCH_H
#define BENCH_GPU_BENCH_H

#include "images.h"

#ifdef __cplusplus
extern "C" {
#endif

int gpu_bench (uint8_t *const images[IMG_KINDS], size_t width, size_t height,
               int repeat);
/* Each count mode's chosen kernel once on each input, inside
 * cudaProfilerStart / Stop, for ncu --profile-from-start off: 0, 77
 * without a GPU, else non-zero. */
int gpu_profile_counts (uint8_t *const images[IMG_KINDS], size_t width,
                        size_t height);

#ifdef __cplusplus
}
#endif

#endif
