/* SPDX-License-Identifier: GPL-3.0-or-later */
/* threads.h — the engine's thread pool, internal to the engine: the CPU
 * backend counts with it, and CLAHE (clahe.c) borrows the engine's, so
 * both honour gh_options.cpu_threads.
 *
 *   gh_threads *pool;
 *   gh_threads_create (0, &pool, &err);     -- 0: one thread per core
 *   gh_threads_run (pool, n, fn, arg);      -- fn (i, arg) for i in 0..n-1
 *                                              at once, 0 on the caller's
 *                                              thread; returns when all end
 *   gh_threads_destroy (pool);
 *
 * Jobs beyond gh_threads_count (pool) run on the caller's thread too; the
 * jobs must touch disjoint memory.  A pool runs one call at a time: a
 * call from another thread meanwhile waits for it (CLAHE's map, from a
 * GEGL render, beside the engine's count from another). */
#ifndef GH_THREADS_H
#define GH_THREADS_H

#include "gpu_histogram.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gh_threads gh_threads;
typedef void (*gh_thread_fn) (int index, void *arg);

/* The processor's cores (at least 1). */
int gh_threads_cores (void);

/* `threads` <= 0: one per core; at most 256.  Fewer threads than asked
 * for when the system will not start more (gh_threads_count says). */
gh_status gh_threads_create (int threads, gh_threads **out, gh_error *error);
int gh_threads_count (const gh_threads *pool);
void gh_threads_run (gh_threads *pool, int n, gh_thread_fn fn, void *arg);
void gh_threads_destroy (gh_threads *pool);

/* Jobs for `work` units, each of at least `min_work`, at most `most`, and
 * no more than the pool's threads (the cores for a NULL pool); at least 1. */
int gh_threads_jobs (const gh_threads *pool, size_t work, size_t min_work,
                     int most);
/* gh_threads_run on `pool`, or for a NULL pool on threads started for
 * this call (the jobs no thread starts for run on the caller's; at most
 * 256 jobs). */
void gh_threads_run_any (gh_threads *pool, int n, gh_thread_fn fn,
                         void *arg);

#ifdef __cplusplus
}
#endif

#endif
