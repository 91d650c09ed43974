/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clahe_kernel_map.cuh — CLAHE's interpolation kernels for 8-bit images
 * (map_shared_kernel, map_kernel), included by their launch,
 * clahe_launch.cu, alone.  16 aligned bytes a thread, down a run of rows
 * (the column weights computed once), the four mappings of each level
 * packed into one word of a table in shared memory (one lookup a sample),
 * the row and column weights with the host's float operations spelled out
 * so nvcc cannot fuse them, bytes to floats and rounding half to even as
 * cvRound by exact float additions rather than conversion instructions;
 * tiles too small for those tables read the mappings from global memory,
 * a pixel a thread (map_kernel). */
#ifndef GH_CLAHE_KERNEL_MAP_CUH
#define GH_CLAHE_KERNEL_MAP_CUH

#include "clahe.h"

#include <stdint.h>

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

#endif
