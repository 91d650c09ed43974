/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cuda_launch.cu — launch policy: which kernel variants fit the device,
 * which is fastest, grid and shared memory.
 *
 * Each variant's shared memory is set against what the device allows a
 * block (cudaDevAttrMaxSharedMemoryPerBlockOptin: 64 KB on Turing, 99 KB
 * on consumer Ampere, Ada and Blackwell, 163 KB on the A100, 227 KB on
 * Hopper) and a multiprocessor, as CUB's dispatch picks its privatization
 * by what the device allows: the calibration times only the variants that
 * fit, a variant that does not fit is never launched, and a launch that
 * fails moves on to the next variant (gh_choice).  The global kernel needs
 * no shared memory, so some GPU path always exists.
 *
 * The grid is persistent: as many blocks as fit on every multiprocessor at
 * once (from the occupancy calculator and the budget), fewer when the image
 * is small; each block then strides over the image.
 */
#include "cuda_launch.h"

#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernel_counts.cuh"
#include "kernel_global.cuh"
#include "kernel_packed.cuh"
#include "kernel_shared_atomic.cuh"

typedef void (*kernel_fn) (const uint8_t *, const uint8_t *, size_t,
                           gh_u64 *);

const char *
gh_variant_name (gh_variant v)
{
  return v >= 0 && v < GH_VARIANT_COUNT ? gh_variant_policies[v].name
                                        : "none";
}

static bool
kind_valid (const gh_launch_kind *kind)
{
  return kind && kind->layout >= GH_LAYOUT_GRAY
         && kind->layout <= GH_LAYOUT_RGBA;
}

/* Calls f (bpp, mask, raw, lin) with each as a compile-time constant
 * (std::integral_constant), for a valid kind.  GIMP 3's luminance makes a
 * kernel of its own only where there is a luminance: colour, not raw. */
template <class F>
static auto
with_kind (const gh_launch_kind *kind, F &&f)
{
  typedef std::true_type T;
  typedef std::false_type N;
  auto by_bpp = [&] (auto bpp) {
    constexpr bool rgb = decltype (bpp)::value >= 3;
    const bool lin = rgb && kind->luminance == GH_LUMINANCE_LINEAR;
    if (kind->raw)
      return f (bpp, N (), T (), N ());
    if (kind->mask)
      return lin ? f (bpp, T (), N (), std::bool_constant<rgb> ())
                 : f (bpp, T (), N (), N ());
    return lin ? f (bpp, N (), N (), std::bool_constant<rgb> ())
               : f (bpp, N (), N (), N ());
  };
  switch (kind->layout)
    {
    case GH_LAYOUT_GRAY:
      return by_bpp (std::integral_constant<int, 1> ());
    case GH_LAYOUT_GRAYA:
      return by_bpp (std::integral_constant<int, 2> ());
    case GH_LAYOUT_RGB:
      return by_bpp (std::integral_constant<int, 3> ());
    case GH_LAYOUT_RGBA:
      break;
    }
  return by_bpp (std::integral_constant<int, 4> ());
}

/* A variant of one kind: its kernel, threads and shared memory; no
 * kernel (fn NULL) where the variant has no form for the kind. */
struct launch_shape
{
  kernel_fn fn;
  int threads;
  size_t smem;
};

static bool
shape_fits (const launch_shape &s, const gh_smem_budget *b)
{
  return s.fn && s.smem <= b->per_block && s.smem + b->reserved <= b->per_sm;
}

/* The counts kernel; its bank sections exist only for two pair tables.
 * LSLOTS: the copies of GIMP 3's luminance table (LIN). */
template <int BPP, bool MASK, bool RAW, bool LIN, int COPIES, bool SECTIONS,
          int LSLOTS>
static launch_shape
counts_shape (int threads)
{
  if constexpr (!SECTIONS
                || gh_count_sections<gh_counted_channels<BPP, RAW> (),
                                     COPIES, SECTIONS> ())
    return { gh_kernel_counts<BPP, MASK, RAW, LIN, COPIES, SECTIONS,
                              LIN ? LSLOTS : 0>,
             threads,
             gh_counts_smem<BPP, MASK, RAW, LIN, COPIES, LSLOTS> () };
  return { NULL, 0, 0 };
}

/* GIMP 3's luminance table has a copy a lane (32 KB: no lookup waits on a
 * bank), except in a 16-copy counts kernel whose budget cannot hold that
 * (for RGBA, 92 KB in all; the 64 KB cap of Turing): there the tight form,
 * 16 copies beside 16-bit odd counts and one copy of the partial sums
 * (62 KB, kernel_counts.cuh), or where even that does not fit 4 copies,
 * which 8 lanes share.  (A tight form of the 32-copy kernel, 94 KB with
 * 8 copies of 32-bit odd counts, ran 0.65 of the read ceiling under 99 KB
 * where counts/16s with 32 table copies runs 0.75, and the probe, which
 * had them level, chose it.)  `b` NULL: the larger. */
template <int BPP, bool MASK, bool RAW, bool LIN, int COPIES, bool SECTIONS>
static launch_shape
counts_shape_within (const gh_smem_budget *b, int threads)
{
  const launch_shape s
    = counts_shape<BPP, MASK, RAW, LIN, COPIES, SECTIONS, 32> (threads);
  if constexpr (LIN && COPIES == 16)
    if (b && !shape_fits (s, b))
      {
        const launch_shape tight
          = counts_shape<BPP, MASK, RAW, LIN, COPIES, SECTIONS,
                         GH_CT_TIGHT_SLOTS> (threads);
        return shape_fits (tight, b)
                 ? tight
                 : counts_shape<BPP, MASK, RAW, LIN, COPIES, SECTIONS, 4> (
                     threads);
      }
  return s;
}

/* Row V's kernel for one kind, as its row says (kernel_policy.h). */
template <int V, int BPP, bool MASK, bool RAW, bool LIN>
static launch_shape
row_shape (const gh_smem_budget *b)
{
  constexpr gh_variant_policy p = gh_variant_policies[V];
  if constexpr (p.technique == GH_TECH_PACKED)
    return { gh_kernel_packed<BPP, MASK, RAW, LIN>, p.threads,
             gh_packed_smem<BPP, MASK, RAW, LIN> () };
  else if constexpr (p.technique == GH_TECH_SHARED_ATOMIC)
    return { gh_kernel_shared_atomic<BPP, MASK, RAW, LIN, p.copies,
                                     p.sections>,
             p.threads,
             gh_shared_atomic_smem<BPP, RAW, LIN, p.copies, p.sections> () };
  else if constexpr (p.technique == GH_TECH_COUNTS)
    return counts_shape_within<BPP, MASK, RAW, LIN, p.copies, p.sections> (
      b, p.threads);
  else
    return { gh_kernel_global<BPP, MASK, RAW, LIN>, p.threads, 0 };
}

/* Variant v's row for one kind (none out of range). */
template <int BPP, bool MASK, bool RAW, bool LIN, int... V>
static launch_shape
shape_of (gh_variant v, const gh_smem_budget *b,
          std::integer_sequence<int, V...>)
{
  launch_shape s = { NULL, 0, 0 };
  ((v == V ? (void) (s = row_shape<V, BPP, MASK, RAW, LIN> (b)) : (void) 0),
   ...);
  return s;
}

/* Variant v's kernel for this kind within budget `b` (NULL: its largest
 * form). */
static launch_shape
shape_for (gh_variant v, const gh_launch_kind *kind, const gh_smem_budget *b)
{
  return with_kind (kind, [&] (auto bpp, auto mask, auto raw, auto lin) {
    return shape_of<decltype (bpp)::value, decltype (mask)::value,
                    decltype (raw)::value, decltype (lin)::value> (
      v, b, std::make_integer_sequence<int, GH_VARIANT_COUNT> ());
  });
}

size_t
gh_variant_smem (gh_variant v, const gh_launch_kind *kind)
{
  return kind_valid (kind) ? shape_for (v, kind, NULL).smem : 0;
}

cudaError_t
gh_cuda_budget (size_t cap, gh_smem_budget *b)
{
  int device, optin, per_sm, reserved;
  cudaError_t e;

  if ((e = cudaGetDevice (&device)) != cudaSuccess
      || (e = cudaDeviceGetAttribute (
            &optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device))
           != cudaSuccess
      || (e = cudaDeviceGetAttribute (
            &per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device))
           != cudaSuccess
      || (e = cudaDeviceGetAttribute (
            &reserved, cudaDevAttrReservedSharedMemoryPerBlock, device))
           != cudaSuccess
      || (e = cudaDeviceGetAttribute (&b->sms, cudaDevAttrMultiProcessorCount,
                                      device))
           != cudaSuccess)
    return e;
  b->per_block = (size_t) optin;
  b->per_sm = (size_t) per_sm;
  b->reserved = (size_t) reserved;
  /* A capped device is one whose multiprocessor holds one block of the
   * cap, as on the GPUs whose limits the caps stand for. */
  if (cap && cap < b->per_block)
    b->per_block = cap;
  if (cap && cap + b->reserved < b->per_sm)
    b->per_sm = cap + b->reserved;
  return cudaSuccess;
}

bool
gh_variant_fits (gh_variant v, const gh_launch_kind *kind,
                 const gh_smem_budget *b)
{
  return kind_valid (kind) && v >= 0 && v < GH_VARIANT_COUNT
         && shape_fits (shape_for (v, kind, b), b);
}

/* Blocks of one kernel resident on the whole device at once, under the
 * budget.  The attribute call and the occupancy calculator cost
 * microseconds of host time, during which the GPU waits for the launch:
 * worked out once per kernel, device and budget, not once per chunk. */
struct grid_entry
{
  kernel_fn fn;
  int device;
  size_t per_sm;
  int blocks;
};
static std::vector<grid_entry> grids;
static std::mutex grid_lock;

static cudaError_t
full_grid (const launch_shape &s, const gh_smem_budget *b, int *blocks)
{
  int device, per_sm = 0;
  cudaError_t e;

  if ((e = cudaGetDevice (&device)) != cudaSuccess)
    return e;
  std::lock_guard<std::mutex> hold (grid_lock);
  for (const grid_entry &g : grids)
    if (g.fn == s.fn && g.device == device && g.per_sm == b->per_sm)
      {
        *blocks = g.blocks;
        return cudaSuccess;
      }
  if ((e = cudaFuncSetAttribute ((const void *) s.fn,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 (int) s.smem))
        != cudaSuccess
      || (e = cudaOccupancyMaxActiveBlocksPerMultiprocessor (
            &per_sm, (const void *) s.fn, s.threads, s.smem))
           != cudaSuccess)
    return e;
  if (s.smem && (size_t) per_sm > b->per_sm / (s.smem + b->reserved))
    per_sm = (int) (b->per_sm / (s.smem + b->reserved));
  if (per_sm < 1)
    return cudaErrorInvalidConfiguration;
  *blocks = b->sms * per_sm;
  grids.push_back ({ s.fn, device, b->per_sm, *blocks });
  return cudaSuccess;
}

cudaError_t
gh_cuda_histogram (gh_variant v, const gh_launch_kind *kind, size_t cap,
                   const uint8_t *d_pixels, const uint8_t *d_mask, size_t n,
                   unsigned long long *d_sums, cudaStream_t stream)
{
  gh_smem_budget b;
  launch_shape s;
  size_t groups, blocks;
  int full;
  cudaError_t e;

  if (!kind_valid (kind) || v < 0 || v >= GH_VARIANT_COUNT
      || n >= ((size_t) 1 << 32) || (kind->mask && !kind->raw && !d_mask))
    return cudaErrorInvalidValue;
  if (n == 0)
    return cudaSuccess;
  if ((e = gh_cuda_budget (cap, &b)) != cudaSuccess)
    return e;
  s = shape_for (v, kind, &b);
  if (!shape_fits (s, &b))
    return cudaErrorInvalidConfiguration;
  if ((e = full_grid (s, &b, &full)) != cudaSuccess)
    return e;
  groups = n / GH_GROUP;
  blocks = (size_t) full;
  if (blocks > (groups + s.threads - 1) / s.threads)
    blocks = (groups + s.threads - 1) / s.threads;
  if (blocks < 1)
    blocks = 1;
  s.fn<<<(unsigned) blocks, s.threads, s.smem, stream>>> (
    d_pixels, kind->raw ? NULL : d_mask, n, d_sums);
  return cudaGetLastError ();
}

/* The dispatcher: a one-time calibration per device, kind of call, family
 * and cap, cached for the process.  Each variant of the family that fits
 * counts a probe of 1 M pixels of random bytes, alpha opaque (most
 * layers' pixels are) and a random mask, once to warm up, then three times, and the variants follow by time; then
 * the first by the rows' tie rank (most copies first; kernel_policy.h) whose time
 * is within TIE of the fastest goes first: on a probe of about 10 us variants a few
 * percent apart swap from run to run, while on a whole image fewer shared
 * copies lose (on the H100 32 copies beat 16 by 0.71 to 0.67 of the read
 * ceiling on weighted images where the probe had them level; BENCHMARKS.md).
 * Then the variants of other families that fit (untimed, by the rows'
 * untimed rank), then the global kernel.  Random bytes because the kernels differ most
 * there: the shared-atomic kernel is level across inputs, the packed one
 * is no faster on degenerate ones (BENCHMARKS.md).  Opaque alpha because
 * the counts kernel is fast on full pixels only: it wins where layers are
 * opaque, and a random mask keeps it out where a mask weighs pixels.  A variant whose probe
 * fails is left out; if the probe cannot even be set up, every variant
 * that fits stays in, untimed, and the calls that follow meet the same
 * failure and the engine falls back. */
#define PROBE_PIXELS ((size_t) 1 << 20)
#define TIE 1.1f

struct calibration
{
  int device;
  gh_launch_kind kind;
  gh_kernel family;
  size_t per_block, per_sm;
  gh_choice choice;
};
static std::vector<calibration> calibrations;
static std::mutex calibration_lock;

/* Random words; the first pixel_words of them (the pixels) OR'ed with
 * `opaque`, which sets their alpha bytes to 255. */
__global__ void
fill_probe (uint32_t *p, size_t words, size_t pixel_words, uint32_t opaque)
{
  for (size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x; i < words;
       i += (size_t) gridDim.x * blockDim.x)
    {
      uint32_t x = (uint32_t) i * 0x9E3779B9u + 0x7F4A7C15u;
      x ^= x >> 15;
      x *= 0x2C1B3C6Du;
      x ^= x >> 12;
      x *= 0x297A2D39u;
      p[i] = (x ^ (x >> 15)) | (i < pixel_words ? opaque : 0u);
    }
}

/* The order ties are broken in (kernel_policy.h): the rows' tie ranks. */
static int
tie_rank (gh_variant v, const gh_launch_kind *kind)
{
  return kind->luminance == GH_LUMINANCE_LINEAR
           ? gh_variant_policies[v].tie_linear
           : gh_variant_policies[v].tie;
}

/* Times variant v on the probe; false if it could not run. */
static bool
time_variant (gh_variant v, const gh_launch_kind *kind, size_t cap,
              const uint8_t *probe, gh_u64 *sums, cudaEvent_t start,
              cudaEvent_t stop, float *best)
{
  *best = 1e30f;
  for (int i = 0; i < 4; i++)
    {
      float ms;
      if (cudaEventRecord (start) != cudaSuccess
          || gh_cuda_histogram (v, kind, cap, probe,
                                probe + PROBE_PIXELS * kind->layout,
                                PROBE_PIXELS, sums, 0)
               != cudaSuccess
          || cudaEventRecord (stop) != cudaSuccess
          || cudaEventSynchronize (stop) != cudaSuccess
          || cudaEventElapsedTime (&ms, start, stop) != cudaSuccess)
        {
          cudaGetLastError (); /* a refused launch leaves its error */
          return false;
        }
      if (i > 0 && ms < *best)
        *best = ms;
    }
  return true;
}

static void
calibrate (gh_kernel family, const gh_launch_kind *kind, size_t cap,
           const gh_smem_budget *b, gh_choice *c)
{
  const size_t bytes = PROBE_PIXELS * (size_t) kind->layout + PROBE_PIXELS;
  uint8_t *probe = NULL;
  gh_u64 *sums = NULL;
  cudaEvent_t start = NULL, stop = NULL;
  bool timed[GH_VARIANT_COUNT] = { false };
  bool ready
    = cudaMalloc (&probe, bytes) == cudaSuccess
      && cudaMalloc (&sums, GH_NUM_CHANNELS * 256 * sizeof *sums)
           == cudaSuccess
      && cudaMemset (sums, 0, GH_NUM_CHANNELS * 256 * sizeof *sums)
           == cudaSuccess
      && cudaEventCreate (&start) == cudaSuccess
      && cudaEventCreate (&stop) == cudaSuccess;
  if (ready)
    {
      /* Opaque alpha (RGBA, gray + alpha), a random mask. */
      const uint32_t opaque = kind->layout == GH_LAYOUT_RGBA    ? 0xff000000u
                              : kind->layout == GH_LAYOUT_GRAYA ? 0xff00ff00u
                                                                : 0u;
      fill_probe<<<256, 256>>> ((uint32_t *) probe, bytes / 4,
                                PROBE_PIXELS * (size_t) kind->layout / 4,
                                kind->raw ? 0u : opaque);
      ready = cudaGetLastError () == cudaSuccess;
    }

  c->count = 0;
  for (int v = 0; v < GH_VARIANT_COUNT; v++)
    {
      c->ms[v] = 0;
      if (!gh_variant_in_family ((gh_variant) v, family)
          || !gh_variant_fits ((gh_variant) v, kind, b))
        continue;
      if (ready
          && !time_variant ((gh_variant) v, kind, cap, probe, sums, start,
                            stop, &c->ms[v]))
        {
          c->ms[v] = 0;
          continue;
        }
      timed[v] = ready;
      /* Insertion by time: the timed ones are the family's. */
      int at = c->count++;
      while (at > 0 && timed[v] && c->ms[c->order[at - 1]] > c->ms[v])
        {
          c->order[at] = c->order[at - 1];
          at--;
        }
      c->order[at] = (gh_variant) v;
    }
  const float fastest = c->count > 0 ? c->ms[c->order[0]] : 0;
  for (int i = 1; i < c->count; i++)
    if (tie_rank (c->order[i], kind) < tie_rank (c->order[0], kind)
        && c->ms[c->order[i]] > 0
        && c->ms[c->order[i]] <= fastest * TIE)
      {
        gh_variant first = c->order[i];
        for (int at = i; at > 0; at--)
          c->order[at] = c->order[at - 1];
        c->order[0] = first;
      }
  /* Then the other families, in the order of their usual speed. */
  for (int rank = 0; rank < GH_VARIANT_COUNT; rank++)
    for (int v = 0; v < GH_VARIANT_COUNT; v++)
      if (gh_variant_policies[v].untimed == rank
          && gh_variant_policies[v].technique != GH_TECH_GLOBAL
          && !gh_variant_in_family ((gh_variant) v, family)
          && gh_variant_fits ((gh_variant) v, kind, b))
        c->order[c->count++] = (gh_variant) v;
  c->order[c->count++] = GH_VARIANT_GLOBAL;

  if (start)
    cudaEventDestroy (start);
  if (stop)
    cudaEventDestroy (stop);
  cudaFree (sums);
  cudaFree (probe);
  cudaGetLastError ();
}

gh_choice
gh_cuda_choose (gh_kernel family, const gh_launch_kind *kind, size_t cap)
{
  gh_choice none;
  gh_smem_budget b;
  gh_launch_kind k;
  int device;

  none.count = 1;
  none.order[0] = GH_VARIANT_GLOBAL;
  for (int v = 0; v < GH_VARIANT_COUNT; v++)
    none.ms[v] = 0;
  if (!kind_valid (kind) || cudaGetDevice (&device) != cudaSuccess
      || gh_cuda_budget (cap, &b) != cudaSuccess)
    return none;
  /* One entry for kinds that launch the same kernels. */
  k = *kind;
  if (k.raw)
    k.mask = false;
  if (k.raw || k.layout < GH_LAYOUT_RGB)
    k.luminance = GH_LUMINANCE_PERCEPTUAL;

  std::lock_guard<std::mutex> hold (calibration_lock);
  for (const calibration &c : calibrations)
    if (c.device == device && c.family == family && c.per_block == b.per_block
        && c.per_sm == b.per_sm && c.kind.layout == k.layout
        && c.kind.mask == k.mask && c.kind.raw == k.raw
        && c.kind.luminance == k.luminance)
      return c.choice;
  calibration c = { device, k, family, b.per_block, b.per_sm, none };
  calibrate (family, &k, cap, &b, &c.choice);
  calibrations.push_back (c);
  return c.choice;
}
