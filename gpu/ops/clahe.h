/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clahe.h — CLAHE's geometry, shared by the CPU (clahe.c, the tile
 * histograms; clahe_map.c, the mappings) and the GPU (clahe_cuda.cu), and
 * what gh_op_apply_rect and gh_op_clear (ops.c) call for a CLAHE op;
 * internal to the engine.
 *
 * OpenCV pads an image whose size is not a multiple of the grid (in
 * either direction) by tiles_x - width % tiles_x columns and tiles_y -
 * height % tiles_y rows, BORDER_REFLECT_101, and cuts the padded image
 * into tiles of tile_w x tile_h; the interpolation then runs over the
 * unpadded image with those tile sizes.  A padded column x' reads source
 * column src_col[x'] (the identity below width), and the padded rows
 * from height on read src_row[y' - height]. */
#ifndef GH_CLAHE_H
#define GH_CLAHE_H

#include "gpu_histogram.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  gh_layout layout;
  gh_luminance luminance;
  int channels;       /* tile histogram sets: 3 (R, G, B) or 1 */
  int luminance_mode; /* the one set counts the luminance of colour */
  int bins;           /* 256 for U8 */
  int width, height;  /* the image */
  int padded_w, padded_h;
  int tiles_x, tiles_y, tile_w, tile_h;
  int *src_col;       /* padded_w entries */
  int *src_row;       /* padded_h - height entries */
} gh_clahe_geom;

/* The tile histograms being fed (clahe.c), which gh_op_clahe
 * (clahe_map.c) turns into the mappings. */
struct gh_clahe {
  gh_clahe_geom g;
  gh_sample sample;
  double clip_limit;
  uint32_t *hist;     /* channels x tiles x bins */
  unsigned char *fed; /* one flag per row */
  int *strip_rows;    /* tiles_y entries: a strip's tile rows (clahe.c) */
  size_t rows_fed;
  gh_engine *engine;
  struct gh_clahe_cuda *gpu; /* NULL: the CPU counts */
};

/* CLAHE's CPU jobs (threads.h): at most this many, each with at least
 * this many pixels (waking a thread costs microseconds). */
#define GH_CLAHE_MAX_JOBS 32
#define GH_CLAHE_JOB_PIXELS ((size_t) 1 << 16)

/* Under AUTO the GPU counts and maps CLAHE only for an engine of fewer CPU
 * threads than this: on the H100 host, 12 MP with 8 x 8 tiles took the GPU
 * 6-8 ms gray and 18-21 ms RGB, the CPU 24 and 73 ms on one thread, 4.0
 * and 10.4 ms on 16 (BENCHMARKS.md, 2026-11-26): the CPU
 * is as fast from about 4 threads on. */
#define GH_CLAHE_GPU_THREADS 4

/* A whole image in memory (gh_clahe_image) goes to the GPU under AUTO from
 * this many pixels, whatever the threads: on the H100 host, 16 threads,
 * the GPU's whole call took 0.17 / 0.25 ms at 500 x 500 gray / RGB against
 * the CPU's 0.39 / 0.97, and 0.98 / 1.87 ms at 12 MP against 2.6 / 8.1
 * (BENCHMARKS.md, 2026-11-26); below it a GPU's fixed costs (a dozen CUDA
 * calls, two streams' events) are not measured to pay. */
#define GH_CLAHE_IMAGE_GPU_PIXELS 250000

/* OpenCV's clip limit in counts a bin (0: no clipping). */
int gh_clahe_clip_count (const gh_clahe *c);

/* cv::borderInterpolate (p, len, BORDER_REFLECT_101); the GPU's kernels
 * (clahe_cuda.cu) reflect the padding with it too. */
#ifdef __CUDACC__
#define GH_CLAHE_HD __host__ __device__
#else
#define GH_CLAHE_HD
#endif
static inline GH_CLAHE_HD int
gh_reflect101 (long p, long len)
{
  if (len == 1)
    return 0;
  while (p < 0 || p >= len)
    p = p < 0 ? -p : 2 * (len - 1) - p;
  return (int) p;
}

/* Applying a CLAHE op's tile mappings to a rectangle, and freeing them. */
gh_status gh_clahe_apply (const gh_op *op, void *pixels, size_t x0,
                          size_t y0, size_t width, size_t height,
                          size_t stride, gh_error *error);
void gh_clahe_map_free (struct gh_clahe_map *map);

#ifdef __cplusplus
}
#endif

#endif
