/* SPDX-License-Identifier: GPL-3.0-or-later */
/* engine_share.h — what an engine lends the operations beside it (CLAHE's
 * GPU passes and its threads), internal to the engine.
 *
 * gh_engine_gpu_ready: 1 when the engine's GPU is started and has not
 * failed (under AUTO, once its background start is done; it never waits),
 * so the caller may use CUDA device 0 as the engine does; 0 for NULL.
 * gh_engine_gpu_lost: a GPU pass beside the engine failed and the caller
 * finishes on the CPU: the engine tells it as its own fallback (the
 * one-line reason, gh_engine_gpu_failed, stderr unless quiet) and counts
 * on the CPU from then on.
 * gh_engine_gpu_preferred: gh_engine_gpu_ready, and under AUTO only where
 * the engine's CPU threads are fewer than `threads`: the number of them
 * that does the caller's work as fast as the GPU (measured by the caller);
 * a backend of CUDA asked for takes the GPU whatever the threads.
 * gh_engine_threads: the engine's CPU threads (gh_options.cpu_threads of
 * them), which the operations beside it may run on between the engine's
 * own calls; NULL for NULL.
 * gh_engine_gpu_injected: testing only, GH_ERR_STATE with the reason in
 * `why` when such a pass must fail now (gh_options.inject_gpu_failure_after
 * counts these passes too), else GH_OK.
 * gh_engine_clahe_space: where CLAHE's whole-image GPU pass keeps its
 * device and pinned buffers between calls (clahe_cuda.cu); freed with the
 * engine's device. */
#ifndef GH_ENGINE_SHARE_H
#define GH_ENGINE_SHARE_H

#include "gpu_histogram.h"
#include "threads.h"

int gh_engine_gpu_ready (gh_engine *engine);
int gh_engine_gpu_preferred (gh_engine *engine, int threads);
void gh_engine_gpu_lost (gh_engine *engine, const char *why);
gh_threads *gh_engine_threads (gh_engine *engine);
gh_status gh_engine_gpu_injected (gh_engine *engine, gh_error *why);
struct gh_clahe_space **gh_engine_clahe_space (gh_engine *engine);

#endif
