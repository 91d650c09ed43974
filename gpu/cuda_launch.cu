/* cuda_launch.cu — launch policy: kernel choice, grid and shared memory.
 *
 * The grid is persistent: as many blocks as fit on every multiprocessor at
 * once (from the occupancy calculator, with each kernel's shared memory),
 * fewer when the image is small; each block then strides over the image.
 */
#include "cuda_launch.h"

#include "kernel_packed.cuh"
#include "kernel_shared_atomic.cuh"

/* Rule, until the performance work's calibration replaces it: the
 * shared-atomic kernel (lane-private sub-histograms) everywhere; on the
 * H100 it is level across inputs and beats the packed per-thread kernel on
 * every one measured (BENCHMARKS.md, 2026-11-22). */
gh_kernel
gh_cuda_choose_kernel (gh_layout layout, bool mask, bool raw)
{
  (void) layout;
  (void) mask;
  (void) raw;
  return GH_KERNEL_SHARED_ATOMIC;
}

typedef void (*kernel_fn) (const uint8_t *, const uint8_t *, size_t,
                           gh_u64 *);

static cudaError_t
launch (kernel_fn fn, int threads, size_t smem, const uint8_t *pix,
        const uint8_t *mask, size_t n, gh_u64 *sums, cudaStream_t stream)
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
  fn<<<(unsigned) blocks, threads, smem, stream>>> (pix, mask, n, sums);
  return cudaGetLastError ();
}

template <int BPP, bool MASK, bool RAW>
static cudaError_t
launch_typed (gh_kernel kernel, const uint8_t *pix, const uint8_t *mask,
              size_t n, gh_u64 *sums, cudaStream_t stream)
{
  if (kernel == GH_KERNEL_PACKED)
    return launch (gh_kernel_packed<BPP, MASK, RAW>, GH_PK_THREADS,
                   gh_packed_smem<BPP, MASK, RAW> (), pix, mask, n, sums,
                   stream);
  return launch (gh_kernel_shared_atomic<BPP, MASK, RAW>, GH_SA_THREADS,
                 gh_shared_atomic_smem<BPP, MASK, RAW> (), pix, mask, n, sums,
                 stream);
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

cudaError_t
gh_cuda_histogram (gh_kernel kernel, gh_layout layout, bool mask, bool raw,
                   const uint8_t *d_pixels, const uint8_t *d_mask, size_t n,
                   unsigned long long *d_sums, cudaStream_t stream)
{
  if (n >= ((size_t) 1 << 32) || (mask && !raw && !d_mask))
    return cudaErrorInvalidValue;
  if (kernel == GH_KERNEL_AUTO)
    kernel = gh_cuda_choose_kernel (layout, mask, raw);
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
