/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clahe_kernels.cu — CLAHE's GPU kernels for 8-bit images and their
 * launches (clahe_kernels.h), with the same integers and the same float
 * operations as clahe.c and clahe_map.c.
 *
 * Counting: a block per tile column and run of padded rows, reading 16
 * aligned bytes at a time, each lane its own copy of the counts in shared
 * memory (as the histogram's kernels), the copies added to the tile's
 * global counts when the run leaves a tile row.  Mappings (whole images):
 * a block per tile, its clipping and redistribution as clahe_map.c's, the
 * cumulative sum a scan.  Interpolation: 16 aligned bytes a thread, down
 * a run of rows (the column weights computed once), the four mappings of
 * each level packed into one word of a table in shared memory (one lookup
 * a sample), the row and column weights with the host's float operations
 * spelled out so nvcc cannot fuse them, bytes to floats and rounding half
 * to even as cvRound by exact float additions rather than conversion
 * instructions; tiles too small for those tables read the mappings from
 * global memory, a pixel a thread. */
#include "clahe_kernels.h"
#include "fail.h"
#include "pixel.h"

#include <stdint.h>

#define COUNT_THREADS 512

gh_status
gh_clahe_cuda_fail (gh_error *error, const char *what, cudaError_t e)
{
  return gh_fail (error, GH_ERR_STATE, "CLAHE on the GPU: %s: %s", what,
                  cudaGetErrorString (e));
}

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

/* Tile rows ty0.. (grid y) of channel blockIdx.z, tile column blockIdx.x:
 * the clipped counts' mapping, as clahe_map.c's build_mappings. */
__global__ void
lut_kernel (gh_clahe_geom g, int ty0, int limit, float scale,
            const uint32_t *hist, uint8_t *lut)
{
  __shared__ int s[2][256];
  __shared__ int clipped;
  int v = threadIdx.x, ty = ty0 + blockIdx.y, k = blockIdx.z;
  size_t at = ((size_t) k * g.tiles_x * g.tiles_y
               + (size_t) ty * g.tiles_x + blockIdx.x) * 256;
  int h = (int) hist[at + v], src = 0;

  if (limit > 0)
    {
      int over = h > limit ? h - limit : 0, batch, residual;
      if (v == 0)
        clipped = 0;
      __syncthreads ();
      atomicAdd (&clipped, over);
      __syncthreads ();
      batch = clipped / 256;
      residual = clipped - batch * 256;
      h += batch - over;
      /* The residual one by one at 0, step, 2 step, ... */
      if (residual)
        {
          int step = 256 / residual > 1 ? 256 / residual : 1;
          if (v % step == 0 && v / step < residual)
            h++;
        }
    }
  s[0][v] = h;
  __syncthreads ();
  for (int d = 1; d < 256; d *= 2)
    {
      s[1 - src][v] = s[src][v] + (v >= d ? s[src][v - d] : 0);
      src = 1 - src;
      __syncthreads ();
    }
  {
    int r = __float2int_rn (__fmul_rn (__int2float_rn (s[src][v]), scale));
    lut[at + v] = (uint8_t) (r < 0 ? 0 : r > 255 ? 255 : r);
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

/* The interpolation's tiles and weights along one axis, as
 * CLAHE_Interpolation_Body computes them. */
struct weights {
  int t1, t2;
  int seg; /* t1 before clamping, + 1: 0 .. tiles */
  float a, a1;
};

__device__ __forceinline__ float
inverse (int tile)
{
  return __fdiv_rn (1.0f, __int2float_rn (tile));
}

/* inv: inverse (the tile's size). */
__device__ __forceinline__ weights
weights_of (int pos, float inv, int tiles)
{
  float f = __fsub_rn (__fmul_rn (__int2float_rn (pos), inv), 0.5f);
  int t1 = __float2int_rd (f);
  weights w;
  w.a = __fsub_rn (f, __int2float_rn (t1));
  w.a1 = __fsub_rn (1.0f, w.a);
  w.t1 = t1 > 0 ? t1 : 0;
  w.t2 = t1 + 1 < tiles - 1 ? t1 + 1 : tiles - 1;
  w.seg = t1 + 1;
  return w;
}

/* One pixel p at column weights c and row weights r: each channel (or
 * gray) through the four tiles' mappings. */
__device__ __forceinline__ void
map_pixel (const gh_clahe_geom &g, uint8_t *p, const uint8_t *__restrict__ lut,
           size_t tiles, weights c, weights r)
{
  for (int k = 0; k < g.channels; k++)
    {
      const uint8_t *p1 = lut + (k * tiles + (size_t) r.t1 * g.tiles_x) * 256;
      const uint8_t *p2 = lut + (k * tiles + (size_t) r.t2 * g.tiles_x) * 256;
      int i1 = c.t1 * 256 + p[k], i2 = c.t2 * 256 + p[k];
      float top = __fadd_rn (__fmul_rn ((float) p1[i1], c.a1),
                             __fmul_rn ((float) p1[i2], c.a));
      float bottom = __fadd_rn (__fmul_rn ((float) p2[i1], c.a1),
                                __fmul_rn ((float) p2[i2], c.a));
      int v = __float2int_rn (
        __fadd_rn (__fmul_rn (top, r.a1), __fmul_rn (bottom, r.a)));
      p[k] = (uint8_t) (v < 0 ? 0 : v > 255 ? 255 : v);
    }
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

/* A width x height rectangle at (x0, y0) of the image, pitch apart, in
 * place, `per` pixels a thread, the mappings read from global memory:
 * grids whose tiles are too narrow for map_shared_kernel's tables. */
__global__ void
map_kernel (gh_clahe_geom g, uint8_t *pixels, size_t pitch, int x0, int y0,
            int width, int height, int per, const uint8_t *__restrict__ lut)
{
  int i0 = (blockIdx.x * blockDim.x + threadIdx.x) * per;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  size_t tiles = (size_t) g.tiles_x * g.tiles_y;
  float inv_w = inverse (g.tile_w);
  weights r;

  if (i0 >= width || j >= height)
    return;
  r = weights_of (y0 + j, inverse (g.tile_h), g.tiles_y);
  for (int i = i0; i < i0 + per && i < width; i++)
    map_pixel (g, pixels + (size_t) j * pitch + (size_t) i * (int) g.layout,
               lut, tiles, weights_of (x0 + i, inv_w, g.tiles_x), r);
}

/* map_shared_kernel's blocks: MAP_THREADS threads, `items` (a power of
 * two, at most MAP_ITEMS) 16-byte words of a row, and `rows` rows
 * (MAP_ROWS, or 16 where the tables would pass 48 KB): the threads of an
 * item walk down the block's rows MAP_THREADS / items apart, so each
 * computes its word's column weights once for all of them.  On the H100
 * (BENCHMARKS.md, 2026-11-27) 32 rows were the best of 16, 32 and 64 for
 * gray, 64 for RGB: a 12 MP gray band has too few words for 64. */
#define MAP_THREADS 256
#define MAP_ROWS(bpp) ((bpp) >= 3 ? 64 : 32)
#define MAP_ITEMS 32

/* Byte k of t as a float, exactly, with no conversion instruction (those
 * issue at a fraction of the float pipes' rate): 2^23 + the byte, less
 * 2^23. */
__device__ __forceinline__ float
byte_float (uint32_t t, int k)
{
  return __fsub_rn (__uint_as_float (__byte_perm (t, 0x4B000000u,
                                                  0x7650 + k)),
                    8388608.0f);
}

/* One sample at column weights (a, a1) and its row's weights r, from its
 * packed table word t (its four tiles' bytes at its level, of the segment
 * between tile centres the sample lies in), in the low byte of the
 * result.  The rounding is saturate_cast<uchar>'s, as clahe_map.c's
 * saturate_u8: adding 1.5 * 2^23 to v rounds it to nearest, ties to even,
 * into the sum's low bits (__float2int_rn's result, with no conversion).
 * Its clamps never act: every term is a byte times a weight in [0, 1], so
 * 0 <= v <= 255 give or take a few ulps, and cvRound (v) is 0..255. */
__device__ __forceinline__ uint32_t
map_sample (uint32_t t, float a, float a1, weights r)
{
  float top = __fadd_rn (__fmul_rn (byte_float (t, 0), a1),
                         __fmul_rn (byte_float (t, 1), a));
  float bottom = __fadd_rn (__fmul_rn (byte_float (t, 2), a1),
                            __fmul_rn (byte_float (t, 3), a));
  return __float_as_uint (__fadd_rn (
    __fadd_rn (__fmul_rn (top, r.a1), __fmul_rn (bottom, r.a)), 12582912.0f));
}

/* Item `it`'s word of a row: its it-th aligned 16-byte word (item 1 the
 * first) where all its bytes are the row's, else NULL. */
__device__ __forceinline__ uint8_t *
word_of (uint8_t *row, size_t row_bytes, int it)
{
  uint8_t *a0 = (uint8_t *) (((uintptr_t) row + 15) & ~(uintptr_t) 15);
  uint8_t *a1 = (uint8_t *) (((uintptr_t) row + row_bytes) & ~(uintptr_t) 15);

  return it >= 1 && (a1 - a0) / 16 >= it ? a0 + 16 * (it - 1) : NULL;
}

/* A width x height rectangle at (x0, y0) of the image, rows pitch apart,
 * in place, BPP bytes a pixel.  Block (bx, by) takes rows by * rows.. and,
 * of each row, items bx * items.. of: the bytes before its first 16-byte
 * boundary (item 0), its aligned 16-byte words, the bytes after its last
 * boundary; words are read and written whole.  The block first packs,
 * into shared memory, for each row segment q and column segment s between
 * tile centres that its pixels lie in, and each level, the four mappings'
 * bytes of that level in one word (top-left, top-right, bottom-left,
 * bottom-right), so a sample's four lookups are one load from shared
 * memory; up to nq x ns segments.  A thread keeps its word's 16 column
 * weights and table offsets while the word starts at the same column
 * (every row, where the pitch is a multiple of 16). */
template <int BPP>
__global__ void __launch_bounds__ (MAP_THREADS)
map_shared_kernel (gh_clahe_geom g, uint8_t *pixels, size_t pitch, int x0,
                   int y0, int width, int height, int items, int rows,
                   const uint8_t *__restrict__ lut)
{
  extern __shared__ uint32_t tab[]; /* nq x ns x channels x 256 */
  const int channels = BPP >= 3 ? 3 : 1;
  size_t tiles = (size_t) g.tiles_x * g.tiles_y, row_bytes = (size_t) width * BPP;
  float inv_w = inverse (g.tile_w), inv_h = inverse (g.tile_h);
  int ja = blockIdx.y * rows;
  int jb = ja + rows < height ? ja + rows : height;
  int i0 = blockIdx.x * items, it = i0 + (int) threadIdx.x % items;
  /* Item i's bytes lie in [16 (i - 1), 16 (i + 1)) of its row. */
  long lo = 16 * ((long) i0 - 1), hi = 16 * ((long) i0 + items + 1);
  int q_lo = weights_of (y0 + ja, inv_h, g.tiles_y).seg;
  int q_hi = weights_of (y0 + jb - 1, inv_h, g.tiles_y).seg;
  int s_lo, s_hi, ns, n;
  long held = -1; /* the byte of its row the weights below are for */
  float ca[16]; /* each byte's column weight a (a1 = 1 - a) */
  int col[16];  /* table offset of each byte's column segment and channel */
  int j0 = ja + (int) threadIdx.x / items;
  uint8_t *an = j0 < jb ? word_of (pixels + (size_t) j0 * pitch, row_bytes, it)
                        : NULL;
  uint4 qn = an ? *(const uint4 *) an : make_uint4 (0, 0, 0, 0);

  lo = lo > 0 ? lo : 0;
  hi = hi < (long) row_bytes ? hi : (long) row_bytes;
  s_lo = weights_of (x0 + (int) (lo / BPP), inv_w, g.tiles_x).seg;
  s_hi = weights_of (x0 + (int) ((hi - 1) / BPP), inv_w, g.tiles_x).seg;
  ns = s_hi - s_lo + 1;
  n = (q_hi - q_lo + 1) * ns * channels * 256;
  for (int i = threadIdx.x; i < n; i += MAP_THREADS)
    {
      int v = i & 255, rest = i >> 8, k = rest % channels;
      int s = s_lo + rest / channels % ns, q = q_lo + rest / channels / ns;
      int r1 = q - 1 > 0 ? q - 1 : 0, r2 = q < g.tiles_y - 1 ? q : g.tiles_y - 1;
      int c1 = s - 1 > 0 ? s - 1 : 0, c2 = s < g.tiles_x - 1 ? s : g.tiles_x - 1;
      const uint8_t *l = lut + k * tiles * 256 + v;
      tab[i] = (uint32_t) l[((size_t) r1 * g.tiles_x + c1) * 256]
               | (uint32_t) l[((size_t) r1 * g.tiles_x + c2) * 256] << 8
               | (uint32_t) l[((size_t) r2 * g.tiles_x + c1) * 256] << 16
               | (uint32_t) l[((size_t) r2 * g.tiles_x + c2) * 256] << 24;
    }
  __syncthreads ();
  for (int j = ja + (int) threadIdx.x / items, step = MAP_THREADS / items;
       j < jb; j += step)
    {
      uint8_t *row = pixels + (size_t) j * pitch, *a = an;
      uint4 q = qn;
      weights r = weights_of (y0 + j, inv_h, g.tiles_y);
      const uint32_t *tq = tab + (size_t) (r.seg - q_lo) * ns * channels * 256;
      uint8_t *a0, *a1, *p, *e;
      long nb;

      /* The next row's word, loaded while this one's are mapped. */
      an = j + step < jb ? word_of (row + step * pitch, row_bytes, it) : NULL;
      if (an)
        qn = *(const uint4 *) an;
      if (a)
        {
          /* A whole word: 16 samples from one load, one store. */
          long cb = a - row;
          uint32_t w[4] = { q.x, q.y, q.z, q.w };
          if (cb != held)
            {
              int x = (int) (cb / BPP), k = (int) (cb % BPP);
              weights c = weights_of (x0 + x, inv_w, g.tiles_x);
              held = cb;
#pragma unroll
              for (int i = 0; i < 16; i++)
                {
                  ca[i] = c.a;
                  col[i] = k < channels
                             ? ((c.seg - s_lo) * channels + k) * 256 : -1;
                  if (++k == BPP && i < 15)
                    {
                      k = 0;
                      c = weights_of (x0 + ++x, inv_w, g.tiles_x);
                    }
                }
            }
#pragma unroll
          for (int i = 0; i < 16; i++)
            if (channels == BPP || col[i] >= 0)
              {
                uint32_t v = (w[i / 4] >> (8 * (i % 4))) & 255;
                uint32_t m = map_sample (tq[col[i] + v], ca[i],
                                         __fsub_rn (1.0f, ca[i]), r);
                /* m's low byte in place of byte i % 4. */
                w[i / 4] = __byte_perm (w[i / 4], m,
                                        i % 4 == 0   ? 0x3214
                                        : i % 4 == 1 ? 0x3240
                                        : i % 4 == 2 ? 0x3410
                                                     : 0x4210);
              }
          *(uint4 *) a = make_uint4 (w[0], w[1], w[2], w[3]);
          continue;
        }
      a0 = (uint8_t *) (((uintptr_t) row + 15) & ~(uintptr_t) 15);
      a1 = (uint8_t *) (((uintptr_t) row + row_bytes) & ~(uintptr_t) 15);
      nb = a1 > a0 ? (a1 - a0) / 16 : 0;
      if (it > nb + 1)
        continue;
      /* The bytes before the first boundary, or after the last. */
      if (it == 0)
        {
          p = row;
          e = nb ? a0 : row + row_bytes;
        }
      else
        {
          p = nb ? a1 : row + row_bytes;
          e = row + row_bytes;
        }
      for (; p < e; p++)
        {
          long cb = p - row;
          int k = (int) (cb % BPP);
          weights c = weights_of (x0 + (int) (cb / BPP), inv_w, g.tiles_x);
          if (k < channels)
            *p = (uint8_t) map_sample (
              tq[((c.seg - s_lo) * channels + k) * 256 + *p], c.a, c.a1, r);
        }
    }
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
