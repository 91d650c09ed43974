/* cuda_launch.cu — launch policy: kernel choice, grid and shared memory.
 *
 * The grid is persistent: as many blocks as fit on every multiprocessor at
 * once (from the occupancy calculator, with each kernel's shared memory),
 * fewer when the image is small; each block then strides over the image.
 */
#include "cuda_launch.h"

#include "kernel_packed.cuh"
#include "kernel_shared_atomic.cuh"

/* Rule, until the performance work's calibration replaces it, from the
 * H100 figures in BENCHMARKS.md (2026-11-22): the lane-private
 * shared-atomic kernel everywhere.  It is level across inputs (raw 0.89,
 * GIMP's six channels 0.63-0.64, gray 0.90 of the read ceiling); per-warp
 * copies beat it only on degenerate colour images (0.71 against 0.64) and
 * lose on photos (0.51) and uniform input (0.48).  The packed per-thread
 * kernel lost everywhere (0.27 raw, 0.45 gray). */
gh_kernel
gh_cuda_choose_kernel (gh_layout layout, bool mask, bool raw)
{
  (void) layout;
  (void) mask;
  (void) raw;
  return GH_KERNEL_LANE_ATOMIC;
}

typedef void (*kernel_fn) (const uint8_t *, const uint8_t *, size_t,
                           gh_u64 *, gh_u64 *);

static cudaError_t
launch (kernel_fn fn, int threads, size_t smem, const uint8_t *pix,
        const uint8_t *mask, size_t n, gh_u64 *count, gh_u64 *deficit,
        cudaStream_t stream)
{
  int device, sms, per_sm = 0;
  size_t groups = n / GH_GROUP, blocks;
  cudaError_t e;

  if (n == 0)
    return cudaSuccess;
  if ((e = cudaGetDevice (&device)) != cudaSuccess
      || (e = cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount,
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
  blocks = (size_t) sms * (size_t) per_sm;
  if (blocks > (groups + threads - 1) / threads)
    blocks = (groups + threads - 1) / threads;
  if (blocks < 1)
    blocks = 1;
  fn<<<(unsigned) blocks, threads, smem, stream>>> (pix, mask, n, count,
                                                     deficit);
  return cudaGetLastError ();
}

template <int BPP, bool MASK, bool RAW>
static cudaError_t
launch_typed (gh_kernel kernel, const uint8_t *pix, const uint8_t *mask,
              size_t n, gh_u64 *count, gh_u64 *deficit, cudaStream_t stream)
{
  if (kernel == GH_KERNEL_PACKED)
    return launch (gh_kernel_packed<BPP, MASK, RAW>, GH_PK_THREADS,
                   gh_packed_smem<BPP, MASK, RAW> (), pix, mask, n, count,
                   deficit, stream);
  if (kernel == GH_KERNEL_LANE_ATOMIC)
    return launch (gh_kernel_shared_atomic<BPP, MASK, RAW, true>,
                   gh_sa_policy<true>::threads,
                   gh_shared_atomic_smem<BPP, MASK, RAW, true> (), pix, mask,
                   n, count, deficit, stream);
  return launch (gh_kernel_shared_atomic<BPP, MASK, RAW, false>,
                 gh_sa_policy<false>::threads,
                 gh_shared_atomic_smem<BPP, MASK, RAW, false> (), pix, mask,
                 n, count, deficit, stream);
}

template <int BPP>
static cudaError_t
launch_layout (gh_kernel kernel, bool mask, bool raw, const uint8_t *pix,
               const uint8_t *m, size_t n, gh_u64 *count, gh_u64 *deficit,
               cudaStream_t stream)
{
  if (raw)
    return launch_typed<BPP, false, true> (kernel, pix, NULL, n, count,
                                           deficit, stream);
  if (mask)
    return launch_typed<BPP, true, false> (kernel, pix, m, n, count, deficit,
                                           stream);
  return launch_typed<BPP, false, false> (kernel, pix, NULL, n, count,
                                          deficit, stream);
}

cudaError_t
gh_cuda_histogram (gh_kernel kernel, gh_layout layout, bool mask, bool raw,
                   const uint8_t *d_pixels, const uint8_t *d_mask, size_t n,
                   unsigned long long *d_count,
                   unsigned long long *d_deficit, cudaStream_t stream)
{
  if (n >= ((size_t) 1 << 32) || (mask && !raw && !d_mask))
    return cudaErrorInvalidValue;
  if (kernel == GH_KERNEL_AUTO)
    kernel = gh_cuda_choose_kernel (layout, mask, raw);
  switch (layout)
    {
    case GH_LAYOUT_GRAY:
      return launch_layout<1> (kernel, mask, raw, d_pixels, d_mask, n,
                               d_count, d_deficit, stream);
    case GH_LAYOUT_GRAYA:
      return launch_layout<2> (kernel, mask, raw, d_pixels, d_mask, n,
                               d_count, d_deficit, stream);
    case GH_LAYOUT_RGB:
      return launch_layout<3> (kernel, mask, raw, d_pixels, d_mask, n,
                               d_count, d_deficit, stream);
    case GH_LAYOUT_RGBA:
      return launch_layout<4> (kernel, mask, raw, d_pixels, d_mask, n,
                               d_count, d_deficit, stream);
    }
  return cudaErrorInvalidValue;
}
