/* cuda_launch.cu — launch policy: kernel choice, grid and shared memory.
 *
 * The grid is persistent: as many blocks as fit on every multiprocessor at
 * once (from the occupancy calculator, with each kernel's shared memory),
 * fewer when the image is small; each block then strides over the image.
 */
#include "cuda_launch.h"

#include <atomic>
#include <mutex>

#include "kernel_packed.cuh"
#include "kernel_shared_atomic.cuh"

#define MAX_DEVICES 16

typedef void (*kernel_fn) (const uint8_t *, const uint8_t *, size_t,
                           gh_u64 *);

/* One kernel's full grid on each device (0: not worked out yet).  The
 * attribute call and the occupancy calculator cost microseconds of host
 * time, during which the GPU waits for the launch: paid once per kernel
 * and device, not once per chunk.  Working it out twice in a race is
 * harmless. */
struct launch_shape
{
  std::atomic<int> blocks[MAX_DEVICES];
};

static cudaError_t
full_grid (kernel_fn fn, int threads, size_t smem, int device, int *blocks)
{
  int sms, per_sm = 0;
  cudaError_t e;

  if ((e = cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount,
                                   device))
        != cudaSuccess
      || (e = cudaFuncSetAttribute ((const void *) fn,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int) smem))
           != cudaSuccess
      || (e = cudaOccupancyMaxActiveBlocksPerMultiprocessor (
            &per_sm, (const void *) fn, threads, smem))
           != cudaSuccess)
    return e;
  if (per_sm < 1)
    return cudaErrorInvalidConfiguration;
  *blocks = sms * per_sm;
  return cudaSuccess;
}

static cudaError_t
launch (kernel_fn fn, launch_shape &shape, int threads, size_t smem,
        const uint8_t *pix, const uint8_t *mask, size_t n, gh_u64 *sums,
        cudaStream_t stream)
{
  int device, full;
  size_t groups = n / GH_GROUP, blocks;
  cudaError_t e;

  if (n == 0)
    return cudaSuccess;
  if ((e = cudaGetDevice (&device)) != cudaSuccess)
    return e;
  if (device < 0 || device >= MAX_DEVICES)
    {
      if ((e = full_grid (fn, threads, smem, device, &full)) != cudaSuccess)
        return e;
    }
  else if ((full = shape.blocks[device].load (std::memory_order_acquire))
           == 0)
    {
      if ((e = full_grid (fn, threads, smem, device, &full)) != cudaSuccess)
        return e;
      shape.blocks[device].store (full, std::memory_order_release);
    }
  blocks = (size_t) full;
  if (blocks > (groups + threads - 1) / threads)
    blocks = (groups + threads - 1) / threads;
  if (blocks < 1)
    blocks = 1;
  fn<<<(unsigned) blocks, threads, smem, stream>>> (pix, mask, n, sums);
  return cudaGetLastError ();
}

template <int BPP, bool MASK, bool RAW>
static cudaError_t
launch_typed (gh_kernel kernel, const uint8_t *pix, const uint8_t *mask,
              size_t n, gh_u64 *sums, cudaStream_t stream)
{
  static launch_shape packed, shared_atomic;
  if (kernel == GH_KERNEL_PACKED)
    return launch (gh_kernel_packed<BPP, MASK, RAW>, packed, GH_PK_THREADS,
                   gh_packed_smem<BPP, MASK, RAW> (), pix, mask, n, sums,
                   stream);
  return launch (gh_kernel_shared_atomic<BPP, MASK, RAW>, shared_atomic,
                 GH_SA_THREADS, gh_shared_atomic_smem<BPP, MASK, RAW> (), pix,
                 mask, n, sums, stream);
}

template <int BPP>
static cudaError_t
launch_layout (gh_kernel kernel, bool mask, bool raw, const uint8_t *pix,
               const uint8_t *m, size_t n, gh_u64 *sums, cudaStream_t stream)
{
  if (raw)
    return launch_typed<BPP, false, true> (kernel, pix, NULL, n, sums,
                                           stream);
  if (mask)
    return launch_typed<BPP, true, false> (kernel, pix, m, n, sums, stream);
  return launch_typed<BPP, false, false> (kernel, pix, NULL, n, sums, stream);
}

/* The dispatcher: a one-time calibration per device and kind of call
 * (layout, mask, raw), cached for the process.  Each kernel counts a probe
 * of 1 M pixels of random bytes (with a random mask), once to warm up,
 * then three times; the fastest time wins.  Random bytes because the
 * kernels differ most there: the shared-atomic kernel is level across
 * inputs, the packed one is no faster on degenerate ones (BENCHMARKS.md).
 * A calibration that fails (the GPU failing) settles on the shared-atomic
 * kernel; the call that follows fails too and the engine falls back. */
#define PROBE_PIXELS ((size_t) 1 << 20)

typedef struct {
  gh_kernel kernel; /* GH_KERNEL_AUTO: not calibrated yet */
  float ms[2];      /* packed, shared-atomic */
} calibration;

static calibration calibrations[MAX_DEVICES][4][2][2];
static std::mutex calibration_lock;

__global__ void
fill_probe (uint32_t *p, size_t words)
{
  for (size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x; i < words;
       i += (size_t) gridDim.x * blockDim.x)
    {
      uint32_t x = (uint32_t) i * 0x9E3779B9u + 0x7F4A7C15u;
      x ^= x >> 15;
      x *= 0x2C1B3C6Du;
      x ^= x >> 12;
      x *= 0x297A2D39u;
      p[i] = x ^ (x >> 15);
    }
}

static cudaError_t
calibrate (gh_layout layout, bool mask, bool raw, calibration *c)
{
  const size_t bytes = PROBE_PIXELS * (size_t) layout + PROBE_PIXELS;
  const gh_kernel kernels[2] = { GH_KERNEL_PACKED, GH_KERNEL_SHARED_ATOMIC };
  uint8_t *probe = NULL;
  gh_u64 *sums = NULL;
  cudaEvent_t start = NULL, stop = NULL;
  cudaError_t e;

  if ((e = cudaMalloc (&probe, bytes)) == cudaSuccess
      && (e = cudaMalloc (&sums, GH_NUM_CHANNELS * 256 * sizeof *sums))
           == cudaSuccess
      && (e = cudaMemset (sums, 0, GH_NUM_CHANNELS * 256 * sizeof *sums))
           == cudaSuccess
      && (e = cudaEventCreate (&start)) == cudaSuccess
      && (e = cudaEventCreate (&stop)) == cudaSuccess)
    {
      fill_probe<<<256, 256>>> ((uint32_t *) probe, bytes / 4);
      e = cudaGetLastError ();
    }
  for (int k = 0; k < 2 && e == cudaSuccess; k++)
    {
      c->ms[k] = 1e30f;
      for (int i = 0; i < 4 && e == cudaSuccess; i++)
        {
          float ms;
          if ((e = cudaEventRecord (start)) != cudaSuccess
              || (e = gh_cuda_histogram (kernels[k], layout, mask, raw, probe,
                                         probe + PROBE_PIXELS * layout,
                                         PROBE_PIXELS, sums, 0))
                   != cudaSuccess
              || (e = cudaEventRecord (stop)) != cudaSuccess
              || (e = cudaEventSynchronize (stop)) != cudaSuccess
              || (e = cudaEventElapsedTime (&ms, start, stop)) != cudaSuccess)
            break;
          if (i > 0 && ms < c->ms[k])
            c->ms[k] = ms;
        }
    }
  c->kernel = e == cudaSuccess && c->ms[0] < c->ms[1] ? GH_KERNEL_PACKED
                                                      : GH_KERNEL_SHARED_ATOMIC;
  if (start)
    cudaEventDestroy (start);
  if (stop)
    cudaEventDestroy (stop);
  cudaFree (sums);
  cudaFree (probe);
  return e;
}

gh_kernel
gh_cuda_choose_kernel (gh_layout layout, bool mask, bool raw, float ms[2])
{
  int device = 0;
  calibration *c;

  if (cudaGetDevice (&device) != cudaSuccess || device < 0
      || device >= MAX_DEVICES || layout < GH_LAYOUT_GRAY
      || layout > GH_LAYOUT_RGBA)
    return GH_KERNEL_SHARED_ATOMIC;
  c = &calibrations[device][layout - 1][mask][raw];
  {
    std::lock_guard<std::mutex> hold (calibration_lock);
    if (c->kernel == GH_KERNEL_AUTO)
      calibrate (layout, mask, raw, c);
  }
  if (ms)
    {
      ms[0] = c->ms[0];
      ms[1] = c->ms[1];
    }
  return c->kernel;
}

cudaError_t
gh_cuda_histogram (gh_kernel kernel, gh_layout layout, bool mask, bool raw,
                   const uint8_t *d_pixels, const uint8_t *d_mask, size_t n,
                   unsigned long long *d_sums, cudaStream_t stream)
{
  if (n >= ((size_t) 1 << 32) || (mask && !raw && !d_mask))
    return cudaErrorInvalidValue;
  if (kernel == GH_KERNEL_AUTO)
    kernel = gh_cuda_choose_kernel (layout, mask, raw, NULL);
  switch (layout)
    {
    case GH_LAYOUT_GRAY:
      return launch_layout<1> (kernel, mask, raw, d_pixels, d_mask, n,
                               d_sums, stream);
    case GH_LAYOUT_GRAYA:
      return launch_layout<2> (kernel, mask, raw, d_pixels, d_mask, n,
                               d_sums, stream);
    case GH_LAYOUT_RGB:
      return launch_layout<3> (kernel, mask, raw, d_pixels, d_mask, n,
                               d_sums, stream);
    case GH_LAYOUT_RGBA:
      return launch_layout<4> (kernel, mask, raw, d_pixels, d_mask, n,
                               d_sums, stream);
    }
  return cudaErrorInvalidValue;
}
