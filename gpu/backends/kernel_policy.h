/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernel_policy.h — the GPU kernel variants, one row each, as CUB keeps
 * one policy per tuning: what each variant is (technique, lane copies,
 * bank sections, threads a block), which gh_options.kernel family keeps
 * to it, and where it stands when the dispatcher breaks a tie or falls
 * back.  Internal to the engine, its tests and the benchmark (CUDA C++
 * only).  The kernels take their block size from here; the launch
 * (cuda_launch.cu) instantiates each row's kernel from it, and the
 * dispatcher, the benchmark and test_gpu read the rows; a variant's
 * shared memory follows from its row and the kind of call (the kernels'
 * gh_*_smem).
 *
 *   const gh_variant_policy &p = gh_variant_policies[GH_VARIANT_COUNTS_16];
 *   p.name, p.copies, p.threads ...
 *
 * The techniques: the shared-atomic kernel with 32, 16 or 8 lane copies of
 * its counters, the smaller ones plain or in bank sections
 * (kernel_shared_atomic.cuh); the counts kernel (16-bit counts of full
 * pixels, two channels a word) with 32 or 16, the 16 also in bank
 * sections where there are two pair tables (GIMP's RGB and RGBA, raw
 * RGBA; elsewhere counts/16s has no form and never fits)
 * (kernel_counts.cuh); the packed one (kernel_packed.cuh); the global one
 * needs no shared memory and launches anywhere (kernel_global.cuh).
 * Within a technique, more copies come first.
 */
#ifndef GH_KERNEL_POLICY_H
#define GH_KERNEL_POLICY_H

#include "gpu_histogram.h"

/* Threads a block, per technique (the kernels' __launch_bounds__). */
#define GH_PK_THREADS 64
#define GH_SA_THREADS 1024
#define GH_CT_THREADS 1024
#define GH_GL_THREADS 256

/* The variants, in the rows' order. */
typedef enum {
  GH_VARIANT_PACKED = 0,
  GH_VARIANT_SHARED_32,
  GH_VARIANT_COUNTS_32,
  GH_VARIANT_SHARED_16S,
  GH_VARIANT_SHARED_16,
  GH_VARIANT_COUNTS_16S,
  GH_VARIANT_COUNTS_16,
  GH_VARIANT_SHARED_8S,
  GH_VARIANT_SHARED_8,
  GH_VARIANT_GLOBAL,
  GH_VARIANT_COUNT
} gh_variant;

typedef enum {
  GH_TECH_PACKED,
  GH_TECH_SHARED_ATOMIC,
  GH_TECH_COUNTS,
  GH_TECH_GLOBAL /* the last resort: in no family, never timed, last */
} gh_technique;

struct gh_variant_policy
{
  const char *name;
  gh_technique technique;
  int threads;
  int copies;       /* lane copies of the counters; 0: none */
  bool sections;    /* the copies in bank sections */
  /* The gh_options.kernel family that keeps to this variant;
   * GH_KERNEL_AUTO: only AUTO uses it. */
  gh_kernel family;
  /* Rank among variants whose calibration times are within a tie (lower
   * first), and the same under GIMP 3's luminance: there counts/32 goes
   * before shared-atomic/32, whole images having run it at 0.83-0.87 of
   * the read ceiling and shared-atomic/32 at 0.76-0.81 (it adds alpha a
   * pixel too, one more shared-memory add beside the table's three
   * lookups) where the probe had them level (BENCHMARKS.md, 2026-11-26). */
  int tie, tie_linear;
  /* Rank among the variants offered untimed after the family's timed
   * ones, by their usual speed (lower first). */
  int untimed;
};

/* clang-format off */
inline constexpr gh_variant_policy gh_variant_policies[] = {
  /* name                technique              threads        copies sections family                  tie lin untimed */
  { "packed",            GH_TECH_PACKED,        GH_PK_THREADS, 0,  false, GH_KERNEL_PACKED,        0, 0, 8 },
  { "shared-atomic/32",  GH_TECH_SHARED_ATOMIC, GH_SA_THREADS, 32, false, GH_KERNEL_SHARED_ATOMIC, 1, 2, 0 },
  { "counts/32",         GH_TECH_COUNTS,        GH_CT_THREADS, 32, false, GH_KERNEL_AUTO,          2, 1, 1 },
  { "shared-atomic/16s", GH_TECH_SHARED_ATOMIC, GH_SA_THREADS, 16, true,  GH_KERNEL_SHARED_ATOMIC, 3, 3, 2 },
  { "shared-atomic/16",  GH_TECH_SHARED_ATOMIC, GH_SA_THREADS, 16, false, GH_KERNEL_SHARED_ATOMIC, 4, 4, 3 },
  { "counts/16s",        GH_TECH_COUNTS,        GH_CT_THREADS, 16, true,  GH_KERNEL_AUTO,          5, 5, 4 },
  { "counts/16",         GH_TECH_COUNTS,        GH_CT_THREADS, 16, false, GH_KERNEL_AUTO,          6, 6, 5 },
  { "shared-atomic/8s",  GH_TECH_SHARED_ATOMIC, GH_SA_THREADS, 8,  true,  GH_KERNEL_SHARED_ATOMIC, 7, 7, 6 },
  { "shared-atomic/8",   GH_TECH_SHARED_ATOMIC, GH_SA_THREADS, 8,  false, GH_KERNEL_SHARED_ATOMIC, 8, 8, 7 },
  { "global",            GH_TECH_GLOBAL,        GH_GL_THREADS, 0,  false, GH_KERNEL_AUTO,          9, 9, 9 },
};
/* clang-format on */
static_assert (sizeof gh_variant_policies / sizeof *gh_variant_policies
                 == GH_VARIANT_COUNT,
               "one row per gh_variant");

/* Whether the dispatcher may time variant v for `family` (GH_KERNEL_AUTO:
 * every variant but the last resort). */
constexpr bool
gh_variant_in_family (gh_variant v, gh_kernel family)
{
  return gh_variant_policies[v].technique != GH_TECH_GLOBAL
         && (family == GH_KERNEL_AUTO
             || gh_variant_policies[v].family == family);
}

#endif
