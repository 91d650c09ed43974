/* clahe_cuda.cu — CLAHE's GPU passes for 8-bit images (clahe_cuda.h): the
 * tile histograms of a strip, the interpolation of a rectangle, and a
 * whole image in memory through both, with the same integers and the same
 * float operations as clahe.c and clahe_map.c.
 *
 * Counting: a block per tile column and run of padded rows, each warp its
 * own counts in shared memory, added to the tile's global counts when the
 * run leaves a tile row.  Mappings (whole images): a block per tile, its
 * clipping and redistribution as clahe_map.c's, the cumulative sum a scan.
 * Interpolation: one thread per pixel, the row and column weights with the
 * host's float operations spelled out so nvcc cannot fuse them, rounding
 * half to even as cvRound.
 *
 * A whole image (gh_clahe_cuda_image) crosses once each way in bands of
 * rows, through pinned buffers (BUFS a direction, the engine's, kept
 * between calls) that every CPU thread fills and empties, with stores
 * that bypass the caches: band i's copy in and count on one stream while
 * band i + 1 is staged; once the tile rows a band's interpolation reads
 * have their counts, their mappings are made on that stream and the band
 * is interpolated and copied out on a second, which waits on the first by
 * an event, so the copy out of the top of the image overlaps the copy in
 * of the bottom.  No stream or device is waited for: the host polls the
 * events and moves whatever can move.  Each tile row's counts come back
 * beside its mappings, so a failure part-way leaves the host what the CPU
 * needs to finish the rows not yet written. */
#include "fail.h"
#include "clahe_cuda.h"
#include "pixel.h"
#include "threads.h"

#include <cuda_runtime.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* A whole image's pinned buffers: BUFS a direction, each a band of
 * BAND_MAX at most (or one row, where a row is longer): bounded whatever
 * the image.  An image is cut into BANDS bands where that keeps them
 * within BAND_MIN..BAND_MAX: on the H100 host, 12 MP gray in 3 bands took
 * 1.0-1.3 ms, in 6 1.25-1.3 and in 12 1.95-2.1 (each band costs the
 * threads' wake-ups and a dozen CUDA calls; BENCHMARKS.md, session 31). */
#define BUFS 4
#define BANDS 3
#define BAND_MIN ((size_t) 1 << 20)
#define BAND_MAX ((size_t) 8 << 20)
#define COUNT_THREADS 256
#define COUNT_WARPS (COUNT_THREADS / 32)

struct gh_clahe_cuda {
  gh_clahe_geom g;
  cudaStream_t stream;
  uint32_t *d_hist;     /* channels x tiles x 256 */
  uint32_t *h_hist;     /* the touched part, back on the host */
  uint8_t *d_pixels, *h_stage;
  size_t pixels_cap;
  uint8_t *d_lut;
};

/* A whole image's buffers, kept by the engine between calls. */
struct gh_clahe_space {
  cudaStream_t up, down;
  cudaEvent_t in_free[BUFS], out_done[BUFS], luts;
  uint8_t *h_in[BUFS], *h_out[BUFS];
  size_t band_cap;
  uint8_t *d_img;
  size_t img_cap;
  uint32_t *d_hist, *h_hist;
  uint8_t *d_lut;
  size_t counters_cap;
};

static gh_status
cuda_fail (gh_error *error, const char *what, cudaError_t e)
{
  return gh_fail (error, GH_ERR_STATE, "CLAHE on the GPU: %s: %s", what,
                  cudaGetErrorString (e));
}

#define TRY(call)                                                            \
  do                                                                         \
    {                                                                        \
      cudaError_t e_ = (call);                                               \
      if (e_ != cudaSuccess)                                                 \
        return cuda_fail (error, #call, e_);                                 \
    }                                                                        \
  while (0)

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

/* The block's shared counts of tile (ty, tx) into the global ones, and
 * zeroed for the next tile row. */
__device__ void
count_flush (const gh_clahe_geom &g, uint32_t *sh, int ty, int tx,
             uint32_t *hist)
{
  int n = g.channels * 256;
  size_t tiles = (size_t) g.tiles_x * g.tiles_y;

  for (int i = threadIdx.x; i < n; i += blockDim.x)
    {
      uint32_t s = 0;
      for (int w = 0; w < COUNT_WARPS; w++)
        {
          s += sh[w * n + i];
          sh[w * n + i] = 0;
        }
      if (s)
        atomicAdd (&hist[((size_t) (i / 256) * tiles
                          + (size_t) ty * g.tiles_x + tx) * 256 + i % 256],
                   s);
    }
}

/* Padded rows ya..yb-1 whose source rows lie in lo..hi-1 (row y at
 * pixels + (y - lo) * pitch) into the tile counts: block (tx, j) takes
 * tile column tx and `per_block` rows from ya + j * per_block. */
__global__ void
count_kernel (gh_clahe_geom g, const uint8_t *__restrict__ pixels,
              size_t pitch, int lo, int hi, int ya, int yb, int per_block,
              uint32_t *hist)
{
  extern __shared__ uint32_t sh[]; /* COUNT_WARPS x channels x 256 */
  int tx = blockIdx.x, n = g.channels * 256, bpp = (int) g.layout;
  int y0 = ya + blockIdx.y * per_block;
  int y1 = y0 + per_block < yb ? y0 + per_block : yb;
  int xa = tx * g.tile_w, ty = y0 / g.tile_h;
  uint32_t *mine = sh + (threadIdx.x / 32) * n;

  for (int i = threadIdx.x; i < COUNT_WARPS * n; i += blockDim.x)
    sh[i] = 0;
  __syncthreads ();
  for (int y = y0; y < y1; y++)
    {
      int sy = y < g.height ? y : gh_reflect101 (y, g.height);
      const uint8_t *row;
      if (y / g.tile_h != ty)
        {
          __syncthreads ();
          count_flush (g, sh, ty, tx, hist);
          __syncthreads ();
          ty = y / g.tile_h;
        }
      if (sy < lo || sy >= hi)
        continue;
      row = pixels + (size_t) (sy - lo) * pitch;
      for (int x = xa + threadIdx.x; x < xa + g.tile_w; x += blockDim.x)
        {
          int sx = x < g.width ? x : gh_reflect101 (x, g.width);
          const uint8_t *p = row + (size_t) sx * bpp;
          for (int k = 0; k < g.channels; k++)
            atomicAdd (&mine[k * 256 + key_of (g, p, k)], 1u);
        }
    }
  __syncthreads ();
  count_flush (g, sh, ty, tx, hist);
}

static gh_status
launch_count (const gh_clahe_geom *g, const uint8_t *pixels, size_t pitch,
              int lo, int hi, int ya, int yb, uint32_t *hist,
              cudaStream_t stream, gh_error *error)
{
  long rows = yb - ya;
  /* Rows a block: about two blocks an SM of a large GPU, at most 64 rows
   * unless the grid's 65535 runs need more. */
  long per = (rows * g->tiles_x + 263) / 264;
  per = per < 1 ? 1 : per > 64 ? 64 : per;
  if ((rows + per - 1) / per > 65535)
    per = (rows + 65534) / 65535;

  if (rows <= 0)
    return GH_OK;
  count_kernel<<<dim3 ((unsigned) g->tiles_x,
                       (unsigned) ((rows + per - 1) / per)),
                 COUNT_THREADS,
                 COUNT_WARPS * g->channels * 256 * sizeof (uint32_t),
                 stream>>> (*g, pixels, pitch, lo, hi, ya, yb, (int) per,
                            hist);
  TRY (cudaGetLastError ());
  return GH_OK;
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

/* The interpolation's tiles and weights along one axis, as
 * CLAHE_Interpolation_Body computes them. */
struct weights {
  int t1, t2;
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
 * place, `per` pixels a thread. */
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

static gh_status
launch_map (const gh_clahe_geom *g, uint8_t *pixels, size_t pitch, size_t x0,
            size_t y0, size_t width, size_t height, const uint8_t *lut,
            cudaStream_t stream, gh_error *error)
{
  dim3 block (32, 8);
  int per = map_pixels (g);

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

void
gh_clahe_cuda_destroy (gh_clahe_cuda *c)
{
  if (!c)
    return;
  cudaFree (c->d_hist);
  cudaFree (c->d_pixels);
  cudaFree (c->d_lut);
  if (c->stream)
    cudaStreamDestroy (c->stream);
  free (c->h_hist);
  free (c->h_stage);
  free (c);
}

static gh_status
create (const gh_clahe_geom *g, gh_clahe_cuda *c, int counting,
        gh_error *error)
{
  size_t counters = (size_t) g->channels * g->tiles_x * g->tiles_y * 256;

  TRY (cudaSetDevice (0));
  TRY (cudaStreamCreateWithFlags (&c->stream, cudaStreamNonBlocking));
  if (!counting)
    return GH_OK;
  if (!(c->h_hist = (uint32_t *) malloc (counters * sizeof *c->h_hist)))
    return gh_fail (error, GH_ERR_NOMEM, "out of memory for CLAHE's tiles");
  TRY (cudaMalloc (&c->d_hist, counters * sizeof *c->d_hist));
  return GH_OK;
}

gh_status
gh_clahe_cuda_create (const gh_clahe_geom *g, gh_clahe_cuda **out,
                      gh_error *error)
{
  gh_clahe_cuda *c = (gh_clahe_cuda *) calloc (1, sizeof *c);
  gh_status st;

  *out = NULL;
  if (!c)
    return gh_fail (error, GH_ERR_NOMEM, "out of memory for CLAHE");
  c->g = *g;
  c->g.src_col = c->g.src_row = NULL;
  if ((st = create (g, c, g->src_col != NULL, error)) != GH_OK)
    {
      gh_clahe_cuda_destroy (c);
      return st;
    }
  *out = c;
  return GH_OK;
}

/* Room for `bytes` of pixels on both sides. */
static gh_status
pixel_room (gh_clahe_cuda *c, size_t bytes, gh_error *error)
{
  if (bytes <= c->pixels_cap)
    return GH_OK;
  cudaFree (c->d_pixels);
  c->d_pixels = NULL;
  free (c->h_stage);
  c->pixels_cap = 0;
  if (!(c->h_stage = (uint8_t *) malloc (bytes)))
    return gh_fail (error, GH_ERR_NOMEM, "out of memory for a strip");
  TRY (cudaMalloc (&c->d_pixels, bytes));
  c->pixels_cap = bytes;
  return GH_OK;
}

gh_status
gh_clahe_cuda_count (gh_clahe_cuda *c, const void *pixels, size_t y0,
                     size_t rows, size_t stride, uint32_t *hist,
                     gh_error *error)
{
  const gh_clahe_geom *g = &c->g;
  size_t pitch = (size_t) g->width * (size_t) g->layout;
  size_t tiles = (size_t) g->tiles_x * g->tiles_y, first, count;
  int lo = (int) y0, hi = (int) (y0 + rows);
  int ty_lo = lo / g->tile_h, ty_hi = (hi - 1) / g->tile_h;
  gh_status st;

  /* The padding rows reflecting into the strip lie below it. */
  for (int py = g->height; py < g->padded_h; py++)
    {
      int y = gh_reflect101 (py, g->height);
      if (y >= lo && y < hi && py / g->tile_h > ty_hi)
        ty_hi = py / g->tile_h;
    }
  if ((st = pixel_room (c, pitch * rows, error)) != GH_OK)
    return st;
  TRY (cudaSetDevice (0));
  first = (size_t) ty_lo * g->tiles_x * 256;
  count = (size_t) (ty_hi - ty_lo + 1) * g->tiles_x * 256;
  for (int k = 0; k < g->channels; k++)
    TRY (cudaMemsetAsync (c->d_hist + k * tiles * 256 + first, 0,
                          count * sizeof (uint32_t), c->stream));
  TRY (cudaMemcpy2DAsync (c->d_pixels, pitch, pixels, stride, pitch, rows,
                          cudaMemcpyHostToDevice, c->stream));
  if ((st = launch_count (g, c->d_pixels, pitch, lo, hi, lo, hi, c->d_hist,
                          c->stream, error))
        != GH_OK
      || (st = launch_count (g, c->d_pixels, pitch, lo, hi, g->height,
                             g->padded_h, c->d_hist, c->stream, error))
           != GH_OK)
    return st;
  for (int k = 0; k < g->channels; k++)
    TRY (cudaMemcpyAsync (c->h_hist + k * count, c->d_hist + k * tiles * 256
                                                    + first,
                          count * sizeof (uint32_t), cudaMemcpyDeviceToHost,
                          c->stream));
  TRY (cudaStreamSynchronize (c->stream));
  for (int k = 0; k < g->channels; k++)
    for (size_t i = 0; i < count; i++)
      hist[k * tiles * 256 + first + i] += c->h_hist[k * count + i];
  return GH_OK;
}

gh_status
gh_clahe_cuda_set_luts (gh_clahe_cuda *c, const uint8_t *luts,
                        gh_error *error)
{
  const gh_clahe_geom *g = &c->g;
  size_t lut_bytes = (size_t) g->channels * g->tiles_x * g->tiles_y * 256;

  TRY (cudaSetDevice (0));
  TRY (cudaMalloc (&c->d_lut, lut_bytes));
  TRY (cudaMemcpy (c->d_lut, luts, lut_bytes, cudaMemcpyHostToDevice));
  return GH_OK;
}

gh_status
gh_clahe_cuda_map (gh_clahe_cuda *c, void *pixels, size_t x0, size_t y0,
                   size_t width, size_t height, size_t stride,
                   gh_error *error)
{
  const gh_clahe_geom *g = &c->g;
  size_t pitch = width * (size_t) g->layout;
  gh_status st;

  if ((st = pixel_room (c, pitch * height, error)) != GH_OK)
    return st;
  TRY (cudaSetDevice (0));
  TRY (cudaMemcpy2DAsync (c->d_pixels, pitch, pixels, stride, pitch, height,
                          cudaMemcpyHostToDevice, c->stream));
  if ((st = launch_map (g, c->d_pixels, pitch, x0, y0, width, height,
                        c->d_lut, c->stream, error))
      != GH_OK)
    return st;
  TRY (cudaMemcpyAsync (c->h_stage, c->d_pixels, pitch * height,
                        cudaMemcpyDeviceToHost, c->stream));
  TRY (cudaStreamSynchronize (c->stream));
  for (size_t j = 0; j < height; j++)
    memcpy ((uint8_t *) pixels + j * stride, c->h_stage + j * pitch, pitch);
  return GH_OK;
}

/* ---- A whole image ---------------------------------------------------- */

void
gh_clahe_space_free (gh_clahe_space *s)
{
  if (!s)
    return;
  if (s->up)
    cudaStreamSynchronize (s->up);
  if (s->down)
    cudaStreamSynchronize (s->down);
  for (int i = 0; i < BUFS; i++)
    {
      cudaFreeHost (s->h_in[i]);
      cudaFreeHost (s->h_out[i]);
      if (s->in_free[i])
        cudaEventDestroy (s->in_free[i]);
      if (s->out_done[i])
        cudaEventDestroy (s->out_done[i]);
    }
  if (s->luts)
    cudaEventDestroy (s->luts);
  cudaFree (s->d_img);
  cudaFree (s->d_hist);
  cudaFree (s->d_lut);
  cudaFreeHost (s->h_hist);
  if (s->up)
    cudaStreamDestroy (s->up);
  if (s->down)
    cudaStreamDestroy (s->down);
  free (s);
}

/* The space's streams and events, and room for an image of `img` bytes,
 * bands of `band` and `counters` tile counts. */
static gh_status
space_room (gh_clahe_space **sp, size_t img, size_t band, size_t counters,
            gh_error *error)
{
  gh_clahe_space *s = *sp;

  if (!s)
    {
      if (!(s = *sp = (gh_clahe_space *) calloc (1, sizeof *s)))
        return gh_fail (error, GH_ERR_NOMEM, "out of memory for CLAHE");
      TRY (cudaStreamCreateWithFlags (&s->up, cudaStreamNonBlocking));
      TRY (cudaStreamCreateWithFlags (&s->down, cudaStreamNonBlocking));
      TRY (cudaEventCreateWithFlags (&s->luts, cudaEventDisableTiming));
      for (int i = 0; i < BUFS; i++)
        {
          TRY (cudaEventCreateWithFlags (&s->in_free[i],
                                         cudaEventDisableTiming));
          TRY (cudaEventCreateWithFlags (&s->out_done[i],
                                         cudaEventDisableTiming));
        }
    }
  if (img > s->img_cap)
    {
      cudaFree (s->d_img);
      s->d_img = NULL;
      s->img_cap = 0;
      TRY (cudaMalloc (&s->d_img, img));
      s->img_cap = img;
    }
  if (band > s->band_cap)
    {
      s->band_cap = 0;
      for (int i = 0; i < BUFS; i++)
        {
          cudaFreeHost (s->h_in[i]);
          cudaFreeHost (s->h_out[i]);
          s->h_in[i] = s->h_out[i] = NULL;
        }
      for (int i = 0; i < BUFS; i++)
        {
          TRY (cudaHostAlloc (&s->h_in[i], band, cudaHostAllocDefault));
          TRY (cudaHostAlloc (&s->h_out[i], band, cudaHostAllocDefault));
        }
      s->band_cap = band;
    }
  if (counters > s->counters_cap)
    {
      cudaFree (s->d_hist);
      cudaFree (s->d_lut);
      cudaFreeHost (s->h_hist);
      s->d_hist = NULL;
      s->d_lut = NULL;
      s->h_hist = NULL;
      s->counters_cap = 0;
      TRY (cudaMalloc (&s->d_hist, counters * sizeof *s->d_hist));
      TRY (cudaMalloc (&s->d_lut, counters));
      TRY (cudaHostAlloc (&s->h_hist, counters * sizeof *s->h_hist,
                          cudaHostAllocDefault));
      s->counters_cap = counters;
    }
  return GH_OK;
}

/* Rows copied between the caller's memory and a packed band, by the
 * threads. */
typedef struct {
  uint8_t *dst;
  const uint8_t *src;
  size_t dst_stride, src_stride, row_bytes, rows;
  int jobs;
} rows_copy;

/* memcpy whose stores bypass the caches where the CPU has SSE2: the
 * destination (pinned, or the caller's result) is not read again soon, and
 * a cached store first reads the line it writes. */
static void
copy_stream (uint8_t *dst, const uint8_t *src, size_t n)
{
#if defined(__SSE2__)
  size_t i = 0;
  while (i < n && ((uintptr_t) (dst + i) & 15))
    {
      dst[i] = src[i];
      i++;
    }
  for (; i + 64 <= n; i += 64)
    {
      __m128i a = _mm_loadu_si128 ((const __m128i *) (src + i));
      __m128i b = _mm_loadu_si128 ((const __m128i *) (src + i + 16));
      __m128i c = _mm_loadu_si128 ((const __m128i *) (src + i + 32));
      __m128i d = _mm_loadu_si128 ((const __m128i *) (src + i + 48));
      _mm_stream_si128 ((__m128i *) (dst + i), a);
      _mm_stream_si128 ((__m128i *) (dst + i + 16), b);
      _mm_stream_si128 ((__m128i *) (dst + i + 32), c);
      _mm_stream_si128 ((__m128i *) (dst + i + 48), d);
    }
  memcpy (dst + i, src + i, n - i);
  _mm_sfence ();
#else
  memcpy (dst, src, n);
#endif
}

static void
rows_copy_part (int index, void *arg)
{
  const rows_copy *c = (const rows_copy *) arg;
  size_t a = c->rows * index / c->jobs, b = c->rows * (index + 1) / c->jobs;

  if (c->dst_stride == c->row_bytes && c->src_stride == c->row_bytes)
    {
      copy_stream (c->dst + a * c->row_bytes, c->src + a * c->row_bytes,
                   (b - a) * c->row_bytes);
      return;
    }
  for (size_t j = a; j < b; j++)
    copy_stream (c->dst + j * c->dst_stride, c->src + j * c->src_stride,
                 c->row_bytes);
}

static void
copy_rows (gh_threads *pool, uint8_t *dst, size_t dst_stride,
           const uint8_t *src, size_t src_stride, size_t row_bytes,
           size_t rows)
{
  rows_copy c = { dst, src, dst_stride, src_stride, row_bytes, rows, 1 };

  c.jobs = gh_threads_jobs (pool, row_bytes * rows, (size_t) 64 << 10,
                            rows < 64 ? (int) rows : 64);
  gh_threads_run_any (pool, c.jobs, rows_copy_part, &c);
}

/* A whole image on its way: its bands and how far each has come. */
typedef struct {
  const gh_clahe_geom *g;
  gh_clahe_space *s;
  gh_threads *pool;
  uint8_t *pixels;
  size_t stride, pitch;
  int limit, band_rows, bands;
  float scale;
  int up;   /* bands copied in and counted */
  int luts; /* tile rows mapped, their counts on their way back */
  int down; /* bands interpolated and on their way back */
  int out;  /* bands written back */
  int luts_of[BUFS]; /* a band on its way back: `luts` when it left */
  int valid;         /* tile rows whose counts are on the host */
  size_t done;       /* rows written back */
} image_run;

static void
band_of (const image_run *r, int band, int *ya, int *yb)
{
  *ya = band * r->band_rows;
  *yb = *ya + r->band_rows < r->g->height ? *ya + r->band_rows
                                          : r->g->height;
}

/* The last tile row band's interpolation reads or its rows are counted in
 * (the padding's sources lie in the last). */
static int
band_needs (const image_run *r, int band)
{
  const gh_clahe_geom *g = r->g;
  int ya, yb, need;

  band_of (r, band, &ya, &yb);
  /* The lower of the two tile rows around its last row: floor (tyf) + 1,
   * rounded up if anything. */
  need = (int) ((float) (yb - 1) * (1.0f / (float) g->tile_h) - 0.5f + 1.0f);
  need = need > (yb - 1) / g->tile_h ? need : (yb - 1) / g->tile_h;
  return need < g->tiles_y - 1 ? need : g->tiles_y - 1;
}

/* Band r->up staged, copied in and counted (after the last, the padding
 * rows); the tile rows now whole mapped and their counts sent back. */
static gh_status
band_in (image_run *r, gh_error *error)
{
  const gh_clahe_geom *g = r->g;
  gh_clahe_space *s = r->s;
  size_t tiles = (size_t) g->tiles_x * g->tiles_y;
  int b = r->up % BUFS, ya, yb, ready;
  gh_status st;

  band_of (r, r->up, &ya, &yb);
  copy_rows (r->pool, s->h_in[b], r->pitch, r->pixels + (size_t) ya * r->stride,
             r->stride, r->pitch, (size_t) (yb - ya));
  TRY (cudaMemcpyAsync (s->d_img + (size_t) ya * r->pitch, s->h_in[b],
                        (size_t) (yb - ya) * r->pitch, cudaMemcpyHostToDevice,
                        s->up));
  TRY (cudaEventRecord (s->in_free[b], s->up));
  if ((st = launch_count (g, s->d_img, r->pitch, 0, g->height, ya, yb,
                          s->d_hist, s->up, error))
      != GH_OK)
    return st;
  if (++r->up == r->bands
      && (st = launch_count (g, s->d_img, r->pitch, 0, g->height, g->height,
                             g->padded_h, s->d_hist, s->up, error))
           != GH_OK)
    return st;
  ready = r->up == r->bands ? g->tiles_y : yb / g->tile_h;
  if (ready <= r->luts)
    return GH_OK;
  lut_kernel<<<dim3 ((unsigned) g->tiles_x, (unsigned) (ready - r->luts),
                     (unsigned) g->channels),
               256, 0, s->up>>> (*g, r->luts, r->limit, r->scale, s->d_hist,
                                 s->d_lut);
  TRY (cudaGetLastError ());
  for (int k = 0; k < g->channels; k++)
    {
      size_t at = (k * tiles + (size_t) r->luts * g->tiles_x) * 256;
      TRY (cudaMemcpyAsync (s->h_hist + at, s->d_hist + at,
                            (size_t) (ready - r->luts) * g->tiles_x * 256
                              * sizeof *s->h_hist,
                            cudaMemcpyDeviceToHost, s->up));
    }
  TRY (cudaEventRecord (s->luts, s->up));
  r->luts = ready;
  return GH_OK;
}

/* Band r->down interpolated once the mappings are made, and sent back. */
static gh_status
band_map (image_run *r, gh_error *error)
{
  gh_clahe_space *s = r->s;
  int b = r->down % BUFS, ya, yb;
  gh_status st;

  band_of (r, r->down, &ya, &yb);
  TRY (cudaStreamWaitEvent (s->down, s->luts, 0));
  if ((st = launch_map (r->g, s->d_img + (size_t) ya * r->pitch, r->pitch, 0,
                        (size_t) ya, (size_t) r->g->width, (size_t) (yb - ya),
                        s->d_lut, s->down, error))
      != GH_OK)
    return st;
  TRY (cudaMemcpyAsync (s->h_out[b], s->d_img + (size_t) ya * r->pitch,
                        (size_t) (yb - ya) * r->pitch, cudaMemcpyDeviceToHost,
                        s->down));
  TRY (cudaEventRecord (s->out_done[b], s->down));
  r->luts_of[b] = r->luts;
  r->down++;
  return GH_OK;
}

/* Band r->out, back in pinned memory, written to the caller's. */
static gh_status
band_out (image_run *r, gh_status (*check) (void *, gh_error *),
          void *check_arg, gh_error *error)
{
  int b = r->out % BUFS, ya, yb;
  gh_status st;

  if ((st = check (check_arg, error)) != GH_OK)
    return st;
  band_of (r, r->out, &ya, &yb);
  copy_rows (r->pool, r->pixels + (size_t) ya * r->stride, r->stride,
             r->s->h_out[b], r->pitch, r->pitch, (size_t) (yb - ya));
  r->valid = r->luts_of[b];
  r->done = (size_t) yb;
  r->out++;
  return GH_OK;
}

/* 1 when `e` has happened, 0 while pending; -1 (and *q) on an error. */
static int
happened (cudaEvent_t e, cudaError_t *q)
{
  *q = cudaEventQuery (e);
  return *q == cudaSuccess ? 1 : *q == cudaErrorNotReady ? 0 : -1;
}

/* The passes: whatever can move, moves (bands written back first, which
 * frees their buffers; then interpolations whose mappings are made; then
 * the next band in); the host waits on nothing but events. */
static gh_status
image_passes (image_run *r, gh_clahe_space **sp,
              gh_status (*check) (void *, gh_error *), void *check_arg,
              gh_error *error)
{
  const gh_clahe_geom *g = r->g;
  size_t img = r->pitch * (size_t) g->height;
  size_t counters = (size_t) g->channels * g->tiles_x * g->tiles_y * 256;
  size_t band = img / BANDS < BAND_MIN ? BAND_MIN
                : img / BANDS > BAND_MAX ? BAND_MAX : img / BANDS;
  cudaError_t q;
  gh_status st;
  int h;

  r->band_rows = band / r->pitch > 0 ? (int) (band / r->pitch) : 1;
  r->band_rows = r->band_rows < g->height ? r->band_rows : g->height;
  r->bands = (g->height + r->band_rows - 1) / r->band_rows;
  TRY (cudaSetDevice (0));
  if ((st = space_room (sp, img, (size_t) r->band_rows * r->pitch, counters,
                        error))
      != GH_OK)
    return st;
  r->s = *sp;
  TRY (cudaMemsetAsync (r->s->d_hist, 0, counters * sizeof *r->s->d_hist,
                        r->s->up));
  while (r->out < r->bands)
    {
      while (r->out < r->down
             && (h = happened (r->s->out_done[r->out % BUFS], &q)) != 0)
        if (h < 0)
          return cuda_fail (error, "a band's copy back", q);
        else if ((st = band_out (r, check, check_arg, error)) != GH_OK)
          return st;
      while (r->down < r->up && r->down - r->out < BUFS
             && band_needs (r, r->down) < r->luts)
        if ((st = band_map (r, error)) != GH_OK)
          return st;
      if (r->up < r->bands
          && (h = r->up < BUFS ? 1
                               : happened (r->s->in_free[r->up % BUFS], &q))
               != 0)
        {
          if (h < 0)
            return cuda_fail (error, "a band's copy in", q);
          if ((st = band_in (r, error)) != GH_OK)
            return st;
        }
    }
  return GH_OK;
}

gh_status
gh_clahe_cuda_image (const gh_clahe_geom *g, int limit, gh_threads *pool,
                     gh_clahe_space **space, void *pixels, size_t stride,
                     gh_status (*check) (void *, gh_error *),
                     void *check_arg, uint32_t *hist, size_t *done,
                     size_t *counted, gh_error *error)
{
  size_t tiles = (size_t) g->tiles_x * g->tiles_y;
  image_run r;
  gh_status st;

  memset (&r, 0, sizeof r);
  r.g = g;
  r.pool = pool;
  r.pixels = (uint8_t *) pixels;
  r.stride = stride;
  r.pitch = (size_t) g->width * (size_t) g->layout;
  r.limit = limit;
  r.scale = (float) (g->bins - 1) / (float) (g->tile_w * g->tile_h);
  st = image_passes (&r, space, check, check_arg, error);
  *done = r.done;
  *counted = 0;
  if (st == GH_OK)
    return GH_OK;
  /* What the CPU needs: the counts of the tile rows that the rows written
   * read; the streams stopped before the buffers go. */
  for (int k = 0; k < g->channels && r.valid > 0; k++)
    memcpy (hist + k * tiles * 256, r.s->h_hist + k * tiles * 256,
            (size_t) r.valid * g->tiles_x * 256 * sizeof *hist);
  *counted = (size_t) r.valid * g->tile_h < (size_t) g->height
               ? (size_t) r.valid * g->tile_h
               : (size_t) g->height;
  gh_clahe_space_free (*space);
  *space = NULL;
  return st;
}
