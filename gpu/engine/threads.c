/* SPDX-License-Identifier: GPL-3.0-or-later */
/* threads.c — the thread pool (threads.h): threads started once and
 * woken for each call, since starting one costs tens of microseconds and
 * the CPU backend runs a call per piece. */
#define _POSIX_C_SOURCE 200809L /* sysconf */
#include "threads.h"

#include "fail.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#define MOST_THREADS 256

typedef struct {
  gh_threads *pool;
  int index;
  pthread_t thread;
} worker;

struct gh_threads {
  int count;
  worker *workers; /* count of them; workers[0] is the caller */
  pthread_mutex_t run; /* held by the call the workers serve */
  pthread_mutex_t lock;
  pthread_cond_t wake, done;
  unsigned long generation;
  int pending;
  int quit;
  int n; /* the current call's jobs */
  gh_thread_fn fn;
  void *arg;
};

int
gh_threads_cores (void)
{
  long n = sysconf (_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int) n : 1;
}

static void *
worker_main (void *arg)
{
  worker *w = arg;
  gh_threads *pool = w->pool;
  unsigned long seen = 0;

  for (;;)
    {
      pthread_mutex_lock (&pool->lock);
      while (pool->generation == seen && !pool->quit)
        pthread_cond_wait (&pool->wake, &pool->lock);
      if (pool->quit)
        {
          pthread_mutex_unlock (&pool->lock);
          return NULL;
        }
      seen = pool->generation;
      pthread_mutex_unlock (&pool->lock);

      if (w->index < pool->n)
        pool->fn (w->index, pool->arg);

      pthread_mutex_lock (&pool->lock);
      if (--pool->pending == 0)
        pthread_cond_signal (&pool->done);
      pthread_mutex_unlock (&pool->lock);
    }
}

static void
stop_workers (gh_threads *pool, int started)
{
  pthread_mutex_lock (&pool->lock);
  pool->quit = 1;
  pthread_cond_broadcast (&pool->wake);
  pthread_mutex_unlock (&pool->lock);
  for (int i = 1; i < started; i++)
    pthread_join (pool->workers[i].thread, NULL);
}

gh_status
gh_threads_create (int threads, gh_threads **out, gh_error *error)
{
  gh_threads *pool;
  int started = 1;

  if (threads <= 0)
    threads = gh_threads_cores ();
  if (threads > MOST_THREADS)
    threads = MOST_THREADS;
  pool = calloc (1, sizeof *pool);
  if (!pool || !(pool->workers = calloc ((size_t) threads,
                                         sizeof *pool->workers)))
    {
      free (pool);
      return gh_fail (error, GH_ERR_NOMEM, "out of memory for %d threads",
                      threads);
    }
  pthread_mutex_init (&pool->run, NULL);
  pthread_mutex_init (&pool->lock, NULL);
  pthread_cond_init (&pool->wake, NULL);
  pthread_cond_init (&pool->done, NULL);
  for (int i = 0; i < threads; i++)
    {
      pool->workers[i].pool = pool;
      pool->workers[i].index = i;
    }
  for (; started < threads; started++)
    if (pthread_create (&pool->workers[started].thread, NULL, worker_main,
                        &pool->workers[started]) != 0)
      break;
  /* Fewer threads than asked for still give the right answer. */
  pool->count = started;
  *out = pool;
  return GH_OK;
}

int
gh_threads_count (const gh_threads *pool)
{
  return pool->count;
}

void
gh_threads_run (gh_threads *pool, int n, gh_thread_fn fn, void *arg)
{
  if (n <= 1)
    {
      if (n == 1)
        fn (0, arg);
      return;
    }
  /* A caller on another thread (a GEGL render's map while another
   * counts) waits for the workers. */
  pthread_mutex_lock (&pool->run);
  pthread_mutex_lock (&pool->lock);
  pool->n = n;
  pool->fn = fn;
  pool->arg = arg;
  pool->pending = pool->count - 1;
  pool->generation++;
  pthread_cond_broadcast (&pool->wake);
  pthread_mutex_unlock (&pool->lock);

  fn (0, arg);
  for (int i = pool->count; i < n; i++)
    fn (i, arg);

  pthread_mutex_lock (&pool->lock);
  while (pool->pending > 0)
    pthread_cond_wait (&pool->done, &pool->lock);
  pthread_mutex_unlock (&pool->lock);
  pthread_mutex_unlock (&pool->run);
}

void
gh_threads_destroy (gh_threads *pool)
{
  if (!pool)
    return;
  stop_workers (pool, pool->count);
  pthread_mutex_destroy (&pool->run);
  pthread_mutex_destroy (&pool->lock);
  pthread_cond_destroy (&pool->wake);
  pthread_cond_destroy (&pool->done);
  free (pool->workers);
  free (pool);
}

int
gh_threads_jobs (const gh_threads *pool, size_t work, size_t min_work,
                 int most)
{
  size_t cores = (size_t) (pool ? pool->count : gh_threads_cores ());
  size_t n = work / min_work;
  n = n < cores ? n : cores;
  n = n < (size_t) most ? n : (size_t) most;
  return n > 1 ? (int) n : 1;
}

/* A job on a thread of its own (gh_threads_run_any without a pool). */
typedef struct {
  gh_thread_fn fn;
  void *arg;
  int index;
} once_job;

static void *
once_main (void *p)
{
  const once_job *j = p;
  j->fn (j->index, j->arg);
  return NULL;
}

void
gh_threads_run_any (gh_threads *pool, int n, gh_thread_fn fn, void *arg)
{
  pthread_t threads[MOST_THREADS];
  once_job jobs[MOST_THREADS];
  int started = 1;

  if (pool)
    {
      gh_threads_run (pool, n, fn, arg);
      return;
    }
  /* Started for the call and given their job directly: a pool's start,
   * wake and stop would cost more than the call saves. */
  n = n < MOST_THREADS ? n : MOST_THREADS;
  for (int i = 1; i < n; i++, started++)
    {
      jobs[i] = (once_job){ fn, arg, i };
      if (pthread_create (&threads[i], NULL, once_main, &jobs[i]))
        break; /* no thread: the caller runs the rest */
    }
  for (int i = started; i < n; i++)
    fn (i, arg);
  fn (0, arg);
  for (int i = 1; i < started; i++)
    pthread_join (threads[i], NULL);
}
