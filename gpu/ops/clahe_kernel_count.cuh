/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clahe_kernel_count.cuh — CLAHE's counting kernel for 8-bit images
 * (count_kernel), included by its launch, clahe_launch.cu, alone.  A block
 * per tile column and run of padded rows, reading 16 aligned bytes at a
 * time, each lane its own copy of the counts in shared memory (as the
 * histogram's kernels), the copies added to the tile's global counts when
 * the run leaves a tile row; the same integers as clahe.c's. */
#ifndef GH_CLAHE_KERNEL_COUNT_CUH
#define GH_CLAHE_KERNEL_COUNT_CUH

#include "clahe.h"
#include "pixel.h"

#include <stdint.h>

#define COUNT_THREADS 512

/* A pixel's bin in channel k of the geometry's sets. */
__device__ __forceinline__ int
key_of (const gh_clahe_geom &g, const uint8_t *p, int k)
{
  if (!g.luminance_mode)
    return p[k];
  return g.luminance == GH_LUMINANCE_LINEAR
           ? gh_luminance_bin_linear (p[0], p[1], p[2])
           : gh_luminance_bin (p[0], p[1], p[2]);
}

/* The block's counts of tile (ty, tx), `copies` copies of each bin, summed
 * into the global ones and zeroed for the next tile row, 4 copies a load;
 * thread i starts at its i-th run of 4 copies, so the 8 threads of a
 * quarter warp (which share a 16-byte access) read different banks. */
__device__ void
count_flush (const gh_clahe_geom &g, uint32_t *sh, int copies, int ty,
             int tx, uint32_t *hist)
{
  int n = g.channels * 256, quads = copies / 4;
  size_t tiles = (size_t) g.tiles_x * g.tiles_y;

  for (int i = threadIdx.x; i < n; i += blockDim.x)
    {
      uint32_t s = 0;
      uint4 *row = (uint4 *) (sh + i * copies);
      for (int c = 0; c < quads; c++)
        {
          int l = (c + i) & (quads - 1);
          uint4 q = row[l];
          s += q.x + q.y + q.z + q.w;
          row[l] = make_uint4 (0, 0, 0, 0);
        }
      if (s)
        atomicAdd (&hist[((size_t) (i / 256) * tiles
                          + (size_t) ty * g.tiles_x + tx) * 256 + i % 256],
                   s);
    }
}

/* One more count of level v in channel k: the lane's own of 2^S copies
 * (S a constant, so the address is a shift and an add). */
template <int S>
__device__ __forceinline__ void
count_add (uint32_t *mine, int k, unsigned v)
{
  atomicAdd (mine + (((unsigned) k * 256 + v) << S), 1u);
}

/* Pixels x = xa, xa + 1, ... xb - 1 (padded columns, their sources
 * reflected) of rows ya..yb-1 that lie in lo..hi-1, one at a time, shared
 * by the block's threads: luminance, and the padding columns. */
template <int S>
__device__ void
count_pixels (const gh_clahe_geom &g, const uint8_t *pixels, size_t pitch,
              int lo, int hi, int ya, int yb, int xa, int xb, uint32_t *mine)
{
  int w = xb - xa, bpp = (int) g.layout;

  if (w <= 0)
    return;
  for (long i = threadIdx.x; i < (long) (yb - ya) * w; i += blockDim.x)
    {
      int y = ya + (int) (i / w), x = xa + (int) (i % w);
      int sy = y < g.height ? y : gh_reflect101 (y, g.height);
      int sx = x < g.width ? x : gh_reflect101 (x, g.width);
      const uint8_t *p;
      if (sy < lo || sy >= hi)
        continue;
      p = pixels + (size_t) (sy - lo) * pitch + (size_t) sx * bpp;
      for (int k = 0; k < g.channels; k++)
        count_add<S> (mine, k, (unsigned) key_of (g, p, k));
    }
}

/* Columns xa..xb-1 of rows ya..yb-1 (in the image) that lie in lo..hi-1,
 * each channel its own bins (BPP bytes a pixel, alpha not counted), read
 * 16 aligned bytes at a time: a row's bytes from the 16-byte word holding
 * its first to the one holding its last, the bytes outside skipped (the
 * buffers are rounded up to 16 bytes).  The block's threads take the
 * (row, word) pairs in turn. */
template <int BPP, int S>
__device__ void
count_words (const gh_clahe_geom &g, const uint8_t *pixels, size_t pitch,
             int lo, int hi, int ya, int yb, int xa, int xb, uint32_t *mine)
{
  /* Words a row: the most any row's bytes cross. */
  int nw = xb > xa ? ((xb - xa) * BPP + 30) / 16 : 1, step = (int) blockDim.x;
  int dr = step / nw, dw = step % nw;
  int r = (int) threadIdx.x / nw, w = (int) threadIdx.x % nw;

  if (xb <= xa)
    return;
  for (; ya + r < yb; r += dr, w += dw)
    {
      int sy;
      if (w >= nw)
        {
          w -= nw;
          r++;
          if (ya + r >= yb)
            break;
        }
      sy = ya + r;
      if (sy < lo || sy >= hi)
        continue;
      {
        const uint8_t *row = pixels + (size_t) (sy - lo) * pitch;
        const uint8_t *start = row + (size_t) xa * BPP;
        const uint8_t *end = row + (size_t) xb * BPP;
        const uint8_t *a = (const uint8_t *) ((uintptr_t) start & ~(uintptr_t) 15)
                           + 16 * w;
        long off = a - row; /* >= -15 */
        int k = (int) ((off + 16 * BPP) % BPP);
        uint4 q;
        uint32_t word[4];
        if (a >= end)
          continue;
        q = *(const uint4 *) a;
        word[0] = q.x;
        word[1] = q.y;
        word[2] = q.z;
        word[3] = q.w;
        if (a >= start && a + 16 <= end)
          {
            /* Every byte the tile's: no test but for alpha. */
#pragma unroll
            for (int i = 0; i < 16; i++)
              {
                if (k < (BPP >= 3 ? 3 : 1))
                  count_add<S> (mine, k,
                             (word[i / 4] >> (8 * (i % 4))) & 255);
                k = k + 1 == BPP ? 0 : k + 1;
              }
            continue;
          }
#pragma unroll
        for (int i = 0; i < 16; i++)
          {
            if (a + i >= start && a + i < end && k < (BPP >= 3 ? 3 : 1))
              count_add<S> (mine, k,
                         (word[i / 4] >> (8 * (i % 4))) & 255);
            k = k + 1 == BPP ? 0 : k + 1;
          }
      }
    }
}

/* Padded rows ya..yb-1 whose source rows lie in lo..hi-1 (row y at
 * pixels + (y - lo) * pitch) into the tile counts: block (tx, j) takes
 * tile column tx and `per_block` rows from ya + j * per_block.  Each lane
 * counts into its own of `copies` (32, 16 or 8: 2^S) copies of the
 * channels' bins, bin b of channel k at word (k * 256 + b) * copies +
 * lane % copies, so lanes never meet on a counter or (with 32) in a bank,
 * however alike the pixels; the copies are summed when the run leaves a
 * tile row (as the histogram's kernel_shared_atomic.cuh). */
template <int BPP, int S>
__global__ void __launch_bounds__ (COUNT_THREADS)
count_kernel (gh_clahe_geom g, const uint8_t *__restrict__ pixels,
              size_t pitch, int lo, int hi, int ya, int yb, int per_block,
              uint32_t *hist)
{
  extern __shared__ uint32_t sh[]; /* channels x 256 x copies */
  int tx = blockIdx.x, copies = 1 << S;
  int y0 = ya + blockIdx.y * per_block;
  int y1 = y0 + per_block < yb ? y0 + per_block : yb;
  int xa = tx * g.tile_w, xe = xa + g.tile_w;
  int xi = xe < g.width ? xe : g.width; /* the image's columns end */
  uint32_t *mine = sh + (threadIdx.x & (copies - 1));

  for (int i = threadIdx.x; i < g.channels * 256 * copies / 4;
       i += blockDim.x)
    ((uint4 *) sh)[i] = make_uint4 (0, 0, 0, 0);
  __syncthreads ();
  for (int ys = y0; ys < y1;)
    {
      int ty = ys / g.tile_h, ye = (ty + 1) * g.tile_h;
      ye = ye < y1 ? ye : y1;
      /* A run stops at the image's end, so one launch may count the
       * image and its padding rows (which count_words would skip). */
      ye = ys < g.height && ye > g.height ? g.height : ye;
      /* The padding rows read rows reflected, one at a time. */
      if (g.luminance_mode || ys >= g.height)
        count_pixels<S> (g, pixels, pitch, lo, hi, ys, ye, xa, xi, mine);
      else
        count_words<BPP, S> (g, pixels, pitch, lo, hi, ys, ye, xa, xi, mine);
      count_pixels<S> (g, pixels, pitch, lo, hi, ys, ye, xi > xa ? xi : xa,
                       xe, mine);
      __syncthreads ();
      count_flush (g, sh, copies, ty, tx, hist);
      __syncthreads ();
      ys = ye;
    }
}

#endif
