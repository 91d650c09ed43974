/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clahe_launch.cu — the launches of CLAHE's GPU kernels for 8-bit images
 * (clahe_launch.h): grids, shared memory and the kernel variant for the
 * layout, over the kernels of clahe_kernel_count.cuh (counting),
 * clahe_kernel_luts.cuh (mappings) and clahe_kernel_map.cuh
 * (interpolation), which compute with the same integers and the same
 * float operations as clahe.c and clahe_map.c. */
#include "clahe_launch.h"
#include "clahe_kernel_count.cuh"
#include "clahe_kernel_luts.cuh"
#include "clahe_kernel_map.cuh"
#include "fail.h"

#include <stdint.h>

gh_status
gh_clahe_cuda_fail (gh_error *error, const char *what, cudaError_t e)
{
  return gh_fail (error, GH_ERR_STATE, "CLAHE on the GPU: %s: %s", what,
                  cudaGetErrorString (e));
}

/* Count kernel of BPP bytes a pixel and 2^S copies, allowed `smem` of
 * shared memory. */
template <int BPP, int S>
static gh_status
count_launch_s (const gh_clahe_geom *g, dim3 grid, size_t smem,
                const uint8_t *pixels, size_t pitch, int lo, int hi, int ya,
                int yb, int per, uint32_t *hist, cudaStream_t stream,
                gh_error *error)
{
  if (smem > 48 << 10)
    TRY (cudaFuncSetAttribute (count_kernel<BPP, S>,
                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                               (int) smem));
  count_kernel<BPP, S><<<grid, COUNT_THREADS, smem, stream>>> (
    *g, pixels, pitch, lo, hi, ya, yb, per, hist);
  TRY (cudaGetLastError ());
  return GH_OK;
}

/* Count kernel of BPP bytes a pixel and 2^shift copies (5, 4 or 3). */
template <int BPP>
static gh_status
count_launch (const gh_clahe_geom *g, dim3 grid, size_t smem, int shift,
              const uint8_t *pixels, size_t pitch, int lo, int hi, int ya,
              int yb, int per, uint32_t *hist, cudaStream_t stream,
              gh_error *error)
{
  switch (shift)
    {
    case 5:
      return count_launch_s<BPP, 5> (g, grid, smem, pixels, pitch, lo, hi,
                                     ya, yb, per, hist, stream, error);
    case 4:
      return count_launch_s<BPP, 4> (g, grid, smem, pixels, pitch, lo, hi,
                                     ya, yb, per, hist, stream, error);
    default:
      return count_launch_s<BPP, 3> (g, grid, smem, pixels, pitch, lo, hi,
                                     ya, yb, per, hist, stream, error);
    }
}

gh_status
gh_clahe_launch_count (const gh_clahe_geom *g, const uint8_t *pixels,
                       size_t pitch, int lo, int hi, int ya, int yb,
                       uint32_t *hist, cudaStream_t stream, gh_error *error)
{
  long rows = yb - ya;
  /* Rows a block: about two blocks an SM of a large GPU, at most 64 rows
   * unless the grid's 65535 runs need more. */
  long per = (rows * g->tiles_x + 263) / 264;
  size_t per_copy = (size_t) g->channels * 256 * sizeof (uint32_t);
  int dev, optin, shift = 5;
  dim3 grid;

  per = per < 1 ? 1 : per > 64 ? 64 : per;
  if ((rows + per - 1) / per > 65535)
    per = (rows + 65534) / 65535;
  if (rows <= 0)
    return GH_OK;
  /* The most copies of the counters (32, 16 or 8) a block may hold. */
  TRY (cudaGetDevice (&dev));
  TRY (cudaDeviceGetAttribute (&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                               dev));
  while (shift > 3 && per_copy << shift > (size_t) optin)
    shift--;
  grid = dim3 ((unsigned) g->tiles_x, (unsigned) ((rows + per - 1) / per));
  switch (g->layout)
    {
    case GH_LAYOUT_GRAY:
      return count_launch<1> (g, grid, per_copy << shift, shift, pixels,
                              pitch, lo, hi, ya, yb, (int) per, hist, stream,
                              error);
    case GH_LAYOUT_GRAYA:
      return count_launch<2> (g, grid, per_copy << shift, shift, pixels,
                              pitch, lo, hi, ya, yb, (int) per, hist, stream,
                              error);
    case GH_LAYOUT_RGB:
      return count_launch<3> (g, grid, per_copy << shift, shift, pixels,
                              pitch, lo, hi, ya, yb, (int) per, hist, stream,
                              error);
    default:
      return count_launch<4> (g, grid, per_copy << shift, shift, pixels,
                              pitch, lo, hi, ya, yb, (int) per, hist, stream,
                              error);
    }
}

gh_status
gh_clahe_launch_luts (const gh_clahe_geom *g, int ty0, int rows, int limit,
                      float scale, const uint32_t *hist, uint8_t *lut,
                      cudaStream_t stream, gh_error *error)
{
  lut_kernel<<<dim3 ((unsigned) g->tiles_x, (unsigned) rows,
                     (unsigned) g->channels),
               256, 0, stream>>> (*g, ty0, limit, scale, hist, lut);
  TRY (cudaGetLastError ());
  return GH_OK;
}

/* Pixels a thread of map_kernel maps side by side (the row's weights
 * computed once for them): on the H100, 4 gray ones took 60 us for 12 MP
 * against 82 us one a thread; 4 RGB ones 176 against 139 (their bytes
 * strided across the warp). */
static int
map_pixels (const gh_clahe_geom *g)
{
  return g->layout == GH_LAYOUT_GRAY ? 4 : 1;
}

/* map_shared_kernel of BPP bytes a pixel, when its tables fit 48 KB
 * (with MAP_ROWS (BPP) rows a block, or 16). */
template <int BPP>
static bool
map_shared (const gh_clahe_geom *g, uint8_t *pixels, size_t pitch, size_t x0,
            size_t y0, size_t width, size_t height, const uint8_t *lut,
            cudaStream_t stream)
{
  size_t row_bytes = width * BPP;
  int items = MAP_ITEMS, rows = MAP_ROWS (BPP), nq, ns;
  size_t smem;

  while (items > 1 && (size_t) items * 16 * 2 > row_bytes + 32)
    items /= 2;
  /* Segments a block may meet: its pixels' span over the tile size, the
   * centres a tile apart give or take a pixel of rounding, + 2. */
  if (g->tile_w < 2 || g->tile_h < 2)
    return false;
  ns = (16 * (items + 2) / BPP + 1 + g->tile_w - 2) / (g->tile_w - 1) + 2;
  for (;;)
    {
      nq = (rows + g->tile_h - 2) / (g->tile_h - 1) + 2;
      smem = (size_t) nq * ns * (BPP >= 3 ? 3 : 1) * 256 * sizeof (uint32_t);
      if (smem <= 48 << 10)
        break;
      if (rows == 16)
        return false;
      rows = 16;
    }
  for (size_t at = 0; at < height; at += (size_t) 65535 * rows)
    {
      size_t n = height - at < (size_t) 65535 * rows ? height - at
                                                     : (size_t) 65535 * rows;
      map_shared_kernel<BPP>
        <<<dim3 ((unsigned) ((row_bytes / 16 + 2 + items - 1) / items),
                 (unsigned) ((n + rows - 1) / rows)),
           MAP_THREADS, smem, stream>>> (*g, pixels + at * pitch, pitch,
                                         (int) x0, (int) (y0 + at),
                                         (int) width, (int) n, items, rows,
                                         lut);
    }
  return true;
}

gh_status
gh_clahe_launch_map (const gh_clahe_geom *g, uint8_t *pixels, size_t pitch,
                     size_t x0, size_t y0, size_t width, size_t height,
                     const uint8_t *lut, cudaStream_t stream,
                     gh_error *error)
{
  dim3 block (32, 8);
  int per = map_pixels (g);
  bool shared;

  if (g->luminance_mode)
    shared = false;
  else
    switch (g->layout)
      {
      case GH_LAYOUT_GRAY:
        shared = map_shared<1> (g, pixels, pitch, x0, y0, width, height, lut,
                                stream);
        break;
      case GH_LAYOUT_GRAYA:
        shared = map_shared<2> (g, pixels, pitch, x0, y0, width, height, lut,
                                stream);
        break;
      case GH_LAYOUT_RGB:
        shared = map_shared<3> (g, pixels, pitch, x0, y0, width, height, lut,
                                stream);
        break;
      default:
        shared = map_shared<4> (g, pixels, pitch, x0, y0, width, height, lut,
                                stream);
        break;
      }
  if (shared)
    {
      TRY (cudaGetLastError ());
      return GH_OK;
    }
  /* A grid has at most 65535 rows of blocks: a tall one takes several. */
  for (size_t at = 0; at < height; at += 65535 * 8)
    {
      size_t rows = height - at < 65535 * 8 ? height - at : 65535 * 8;
      map_kernel<<<dim3 ((unsigned) ((width + 32 * per - 1) / (32 * per)),
                         (unsigned) ((rows + 7) / 8)),
                   block, 0, stream>>> (*g, pixels + at * pitch, pitch,
                                        (int) x0, (int) (y0 + at),
                                        (int) width, (int) rows, per,
                                        lut);
      TRY (cudaGetLastError ());
    }
  return GH_OK;
}
