/* clahe_cuda.cu — CLAHE's GPU passes for 8-bit images (clahe_cuda.h):
 * the tile histograms of a strip and the interpolation of a rectangle,
 * the same integers and the same float operations as clahe.c.
 *
 * Counting: one thread per padded column and padded row of the strip
 * (each source row, and each padding row reflecting to it), adding the
 * pixel's bin to its tile with a global atomic; the tile rows the strip
 * touched are copied back and added to the host's counts.  Mapping: one
 * thread per pixel, the column weights computed on the host (uploaded
 * once), the row weights with the host's float operations spelled out so
 * nvcc cannot fuse them, rounding half to even as cvRound. */
#include "fail.h"
#include "clahe_cuda.h"
#include "pixel.h"

#include <cuda_runtime.h>

#include <stdlib.h>
#include <string.h>

struct gh_clahe_cuda {
  gh_clahe_geom g;
  cudaStream_t stream;
  int *d_src_col;
  uint32_t *d_hist;     /* channels x tiles x 256 */
  uint32_t *h_hist;     /* the touched part, back on the host */
  int2 *d_pairs, *h_pairs; /* (row in the strip, padded row) */
  size_t pairs_cap;
  uint8_t *d_pixels, *h_stage;
  size_t pixels_cap;
  uint8_t *d_lut;
  float *d_xa, *d_xa1;
  int *d_tx1, *d_tx2;
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

__global__ void
count_kernel (gh_clahe_geom g, const uint8_t *pixels, size_t pitch,
              const int *src_col, const int2 *pairs, uint32_t *hist)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int2 pr = pairs[blockIdx.y];
  int bpp = (int) g.layout;
  size_t tiles = (size_t) g.tiles_x * g.tiles_y;
  size_t tile;
  const uint8_t *p;

  if (x >= g.padded_w)
    return;
  p = pixels + (size_t) pr.x * pitch + (size_t) src_col[x] * bpp;
  tile = (size_t) (pr.y / g.tile_h) * g.tiles_x + x / g.tile_w;
  for (int k = 0; k < g.channels; k++)
    atomicAdd (&hist[((size_t) k * tiles + tile) * 256 + key_of (g, p, k)],
               1u);
}

__global__ void
map_kernel (gh_clahe_geom g, uint8_t *pixels, size_t pitch, int x0, int y0,
            int width, int height, const uint8_t *lut, const float *xa,
            const float *xa1, const int *tx1, const int *tx2)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  size_t tiles = (size_t) g.tiles_x * g.tiles_y;
  int x, y, ty1, ty2, bpp = (int) g.layout;
  float inv_th, tyf, ya, ya1;
  uint8_t *p;

  if (i >= width || j >= height)
    return;
  x = x0 + i;
  y = y0 + j;
  inv_th = __fdiv_rn (1.0f, __int2float_rn (g.tile_h));
  tyf = __fsub_rn (__fmul_rn (__int2float_rn (y), inv_th), 0.5f);
  ty1 = __float2int_rd (tyf);
  ty2 = ty1 + 1;
  ya = __fsub_rn (tyf, __int2float_rn (ty1));
  ya1 = __fsub_rn (1.0f, ya);
  ty1 = ty1 > 0 ? ty1 : 0;
  ty2 = ty2 < g.tiles_y - 1 ? ty2 : g.tiles_y - 1;
  p = pixels + (size_t) j * pitch + (size_t) i * bpp;
  for (int k = 0; k < g.channels; k++)
    {
      const uint8_t *p1 = lut + (k * tiles + (size_t) ty1 * g.tiles_x) * 256;
      const uint8_t *p2 = lut + (k * tiles + (size_t) ty2 * g.tiles_x) * 256;
      int i1 = tx1[x] * 256 + p[k], i2 = tx2[x] * 256 + p[k];
      float top = __fadd_rn (__fmul_rn ((float) p1[i1], xa1[x]),
                             __fmul_rn ((float) p1[i2], xa[x]));
      float bottom = __fadd_rn (__fmul_rn ((float) p2[i1], xa1[x]),
                                __fmul_rn ((float) p2[i2], xa[x]));
      int r = __float2int_rn (
        __fadd_rn (__fmul_rn (top, ya1), __fmul_rn (bottom, ya)));
      p[k] = (uint8_t) (r < 0 ? 0 : r > 255 ? 255 : r);
    }
}

void
gh_clahe_cuda_destroy (gh_clahe_cuda *c)
{
  if (!c)
    return;
  cudaFree (c->d_src_col);
  cudaFree (c->d_hist);
  cudaFree (c->d_pairs);
  cudaFree (c->d_pixels);
  cudaFree (c->d_lut);
  cudaFree (c->d_xa);
  cudaFree (c->d_xa1);
  cudaFree (c->d_tx1);
  cudaFree (c->d_tx2);
  if (c->stream)
    cudaStreamDestroy (c->stream);
  free (c->h_hist);
  free (c->h_pairs);
  free (c->h_stage);
  free (c);
}

static gh_status
create (const gh_clahe_geom *g, gh_clahe_cuda *c, gh_error *error)
{
  size_t counters = (size_t) g->channels * g->tiles_x * g->tiles_y * 256;

  TRY (cudaSetDevice (0));
  TRY (cudaStreamCreateWithFlags (&c->stream, cudaStreamNonBlocking));
  if (!g->src_col)
    return GH_OK; /* mapping only */
  if (!(c->h_hist = (uint32_t *) malloc (counters * sizeof *c->h_hist)))
    return gh_fail (error, GH_ERR_NOMEM, "out of memory for CLAHE's tiles");
  TRY (cudaMalloc (&c->d_hist, counters * sizeof *c->d_hist));
  TRY (cudaMalloc (&c->d_src_col, (size_t) g->padded_w * sizeof (int)));
  TRY (cudaMemcpy (c->d_src_col, g->src_col,
                   (size_t) g->padded_w * sizeof (int),
                   cudaMemcpyHostToDevice));
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
  if ((st = create (g, c, error)) != GH_OK)
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
  size_t pitch = (size_t) g->width * (size_t) g->layout, n = 0;
  size_t tiles = (size_t) g->tiles_x * g->tiles_y, first, count;
  int ty_lo = g->tiles_y, ty_hi = -1;
  gh_status st;

  /* The padded rows this strip makes. */
  if (c->pairs_cap < rows + (size_t) (g->padded_h - g->height))
    {
      size_t cap = rows + (size_t) (g->padded_h - g->height);
      int2 *h = (int2 *) realloc (c->h_pairs, cap * sizeof *h);
      if (!h)
        return gh_fail (error, GH_ERR_NOMEM, "out of memory for a strip");
      c->h_pairs = h;
      cudaFree (c->d_pairs);
      c->d_pairs = NULL;
      c->pairs_cap = 0;
      TRY (cudaMalloc (&c->d_pairs, cap * sizeof *c->d_pairs));
      c->pairs_cap = cap;
    }
  for (size_t r = 0; r < rows; r++)
    {
      int y = (int) (y0 + r);
      c->h_pairs[n++] = make_int2 ((int) r, y);
      for (int py = g->height; py < g->padded_h; py++)
        if (gh_reflect101 (py, g->height) == y)
          c->h_pairs[n++] = make_int2 ((int) r, py);
    }
  for (size_t i = 0; i < n; i++)
    {
      int ty = c->h_pairs[i].y / g->tile_h;
      ty_lo = ty < ty_lo ? ty : ty_lo;
      ty_hi = ty > ty_hi ? ty : ty_hi;
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
  TRY (cudaMemcpyAsync (c->d_pairs, c->h_pairs, n * sizeof (int2),
                        cudaMemcpyHostToDevice, c->stream));
  /* A grid has at most 65535 rows of blocks: a tall strip takes several. */
  for (size_t at = 0; at < n; at += 65535)
    {
      unsigned rows_here = (unsigned) (n - at < 65535 ? n - at : 65535);
      count_kernel<<<dim3 ((unsigned) ((g->padded_w + 255) / 256), rows_here),
                     256, 0, c->stream>>> (*g, c->d_pixels, pitch,
                                          c->d_src_col, c->d_pairs + at,
                                          c->d_hist);
      TRY (cudaGetLastError ());
    }
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
                        const float *xa, const float *xa1, const int *tx1,
                        const int *tx2, gh_error *error)
{
  const gh_clahe_geom *g = &c->g;
  size_t lut_bytes = (size_t) g->channels * g->tiles_x * g->tiles_y * 256;
  size_t w = (size_t) g->width;

  TRY (cudaSetDevice (0));
  TRY (cudaMalloc (&c->d_lut, lut_bytes));
  TRY (cudaMalloc (&c->d_xa, w * sizeof (float)));
  TRY (cudaMalloc (&c->d_xa1, w * sizeof (float)));
  TRY (cudaMalloc (&c->d_tx1, w * sizeof (int)));
  TRY (cudaMalloc (&c->d_tx2, w * sizeof (int)));
  TRY (cudaMemcpy (c->d_lut, luts, lut_bytes, cudaMemcpyHostToDevice));
  TRY (cudaMemcpy (c->d_xa, xa, w * sizeof (float), cudaMemcpyHostToDevice));
  TRY (cudaMemcpy (c->d_xa1, xa1, w * sizeof (float),
                   cudaMemcpyHostToDevice));
  TRY (cudaMemcpy (c->d_tx1, tx1, w * sizeof (int), cudaMemcpyHostToDevice));
  TRY (cudaMemcpy (c->d_tx2, tx2, w * sizeof (int), cudaMemcpyHostToDevice));
  return GH_OK;
}

gh_status
gh_clahe_cuda_map (gh_clahe_cuda *c, void *pixels, size_t x0, size_t y0,
                   size_t width, size_t height, size_t stride,
                   gh_error *error)
{
  const gh_clahe_geom *g = &c->g;
  size_t pitch = width * (size_t) g->layout;
  dim3 block (32, 8);
  gh_status st;

  if ((st = pixel_room (c, pitch * height, error)) != GH_OK)
    return st;
  TRY (cudaSetDevice (0));
  TRY (cudaMemcpy2DAsync (c->d_pixels, pitch, pixels, stride, pitch, height,
                          cudaMemcpyHostToDevice, c->stream));
  for (size_t at = 0; at < height; at += 65535 * 8)
    {
      size_t rows = height - at < 65535 * 8 ? height - at : 65535 * 8;
      map_kernel<<<dim3 ((unsigned) ((width + 31) / 32),
                         (unsigned) ((rows + 7) / 8)),
                   block, 0, c->stream>>> (*g, c->d_pixels + at * pitch,
                                           pitch, (int) x0, (int) (y0 + at),
                                           (int) width, (int) rows, c->d_lut,
                                           c->d_xa, c->d_xa1, c->d_tx1,
                                           c->d_tx2);
      TRY (cudaGetLastError ());
    }
  TRY (cudaMemcpyAsync (c->h_stage, c->d_pixels, pitch * height,
                        cudaMemcpyDeviceToHost, c->stream));
  TRY (cudaStreamSynchronize (c->stream));
  for (size_t j = 0; j < height; j++)
    memcpy ((uint8_t *) pixels + j * stride, c->h_stage + j * pitch, pitch);
  return GH_OK;
}
