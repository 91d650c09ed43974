/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vector_clones.h — GH_VECTOR_CLONES, internal to the engine: put before
 * a function whose loops the compiler should vectorize for AVX2 where the
 * CPU has it; GH_SCALAR_LOOP before one whose loops it should not.
 *
 * GCC compiles the function for AVX2 and for the baseline and picks at
 * load time (ifunc).  The same floating-point operations either way (no
 * FMA: the project builds with -ffp-contract=off), so the same results.
 * Not under ThreadSanitizer: its instrumented resolver would run at
 * relocation, before TSan's runtime is up, and crash every program at
 * start. */
#ifndef GH_VECTOR_CLONES_H
#define GH_VECTOR_CLONES_H

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) \
  && defined(__linux__) && !defined(__SANITIZE_THREAD__)
#define GH_VECTOR_CLONES __attribute__ ((target_clones ("avx2", "default")))
#define GH_HAVE_VECTOR_CLONES 1
#else
#define GH_VECTOR_CLONES
#define GH_HAVE_VECTOR_CLONES 0
#endif

/* GH_SCALAR_LOOP: put before a small function of table lookups, a load
 * each, for GCC to keep its loops scalar and out of the callers.  Where
 * the CPU has no gather worth using, the vectorizer builds one of single
 * loads and inserts, slower than the plain loads (the luminance keys' and
 * the colour move's tables: 0.6 and 0.3 ns a pixel less with them kept
 * apart). */
#if defined(__GNUC__) && !defined(__clang__)
#define GH_SCALAR_LOOP                                                       \
  __attribute__ ((noinline, optimize ("no-tree-vectorize")))
#else
#define GH_SCALAR_LOOP __attribute__ ((noinline))
#endif

#endif
