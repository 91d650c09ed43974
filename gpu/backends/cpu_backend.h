/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpu_backend.h — the multi-threaded CPU backend.
 *
 * Each thread counts its share of a piece into private tables (several
 * sub-histograms per channel, so runs of equal values don't serialize on
 * one counter) and flushes them into its own gh_accum; gh_cpu_collect sums
 * the threads' accumulators.  Also the GPU backend's fallback.
 *
 *   gh_cpu_create (0, &cpu, &err);      -- 0: one thread per core
 *   gh_cpu_begin (cpu, &image, &err);   -- sizes the accumulators
 *   gh_cpu_feed (cpu, &piece);          -- pieces already checked
 *   gh_cpu_collect (cpu, &acc);         -- adds into acc
 */
#ifndef GH_CPU_BACKEND_H
#define GH_CPU_BACKEND_H

#include "accum.h"
#include "threads.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gh_cpu gh_cpu;

gh_status gh_cpu_create (int threads, gh_cpu **out, gh_error *error);
void gh_cpu_destroy (gh_cpu *cpu);
int gh_cpu_threads (const gh_cpu *cpu);
gh_status gh_cpu_begin (gh_cpu *cpu, const gh_image *image, gh_error *error);
void gh_cpu_feed (gh_cpu *cpu, const gh_piece *piece);
void gh_cpu_collect (gh_cpu *cpu, gh_accum *acc);

/* The backend's threads, which CLAHE borrows (threads.h). */
gh_threads *gh_cpu_pool (gh_cpu *cpu);

/* memcpy with every thread of the pool (the GPU backend's staging). */
void gh_cpu_memcpy (gh_cpu *cpu, void *dst, const void *src, size_t bytes);

#ifdef __cplusplus
}
#endif

#endif
