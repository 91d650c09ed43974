/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clahe_bench.h — CLAHE's timings for the benchmark (gpu-histogram-bench
 * --clahe FILE...): the engine's CLAHE (8x8 tiles, clip limit 2, each
 * channel) on each netpbm file held in memory, on the CPU and, when the
 * engine can use a GPU, on the GPU, fed in strips and whole
 * (gh_clahe_image, and on the GPU also from page-locked memory); the
 * results compared byte for byte.  The CPU engine runs `threads` threads
 * (gh_options.cpu_threads; 0: one per core).  One "clahe-row" line per
 * file (name, width, height, depth, milliseconds of CPU and GPU in
 * strips, CPU and GPU whole, all equal or not, GPU whole from page-locked
 * memory and that memory's allocation) for bench/clahe_vs_opencv.py. */
#ifndef BENCH_CLAHE_BENCH_H
#define BENCH_CLAHE_BENCH_H

/* 0 on success.  `gpu_whole_only`: the GPU's whole calls alone, each file
 * `repeat` times from ordinary memory, then `repeat` times from
 * page-locked memory (for a profiler: nothing else on the device). */
int clahe_bench (const char *const *files, int n, int repeat, int threads,
                 int gpu_whole_only);

#endif
