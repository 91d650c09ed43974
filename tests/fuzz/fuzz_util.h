/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_util.h — what the fuzz targets share: bytes taken from the input
 * in order (zeros once it is used up, so every input is a whole case),
 * a file of given bytes, and a check that stops the run where a
 * property fails (libFuzzer keeps the input as a crash), said on the
 * descriptor, as a target may have quietened stderr's stream.  Built
 * with _GNU_SOURCE (memfd_create, open_memstream, dprintf). */
#ifndef FUZZ_UTIL_H
#define FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct {
  const uint8_t *data;
  size_t size;
} fuzz_input;

static inline unsigned
fuzz_byte (fuzz_input *in)
{
  unsigned b = 0;
  if (in->size)
    {
      b = *in->data++;
      in->size--;
    }
  return b;
}

static inline unsigned
fuzz_u16 (fuzz_input *in)
{
  unsigned lo = fuzz_byte (in);
  return lo | fuzz_byte (in) << 8;
}

static inline uint64_t
fuzz_u64 (fuzz_input *in)
{
  uint64_t v = 0;
  for (int k = 0; k < 8; k++)
    v |= (uint64_t) fuzz_byte (in) << (8 * k);
  return v;
}

/* A NUL-terminated string of the next bytes up to a NUL (or the end),
 * at most `max` long; free it. */
static inline char *
fuzz_text (fuzz_input *in, size_t max)
{
  size_t n = 0;
  char *s;
  while (n < in->size && n < max && in->data[n])
    n++;
  s = malloc (n + 1);
  if (!s)
    abort ();
  memcpy (s, in->data, n);
  s[n] = 0;
  n += n < in->size; /* the NUL */
  in->data += n;
  in->size -= n;
  return s;
}

/* A file in memory holding `size` bytes, by a path pnm_open and the like
 * can open; -1 when none can be made. */
static inline int
fuzz_file (const void *data, size_t size, char *path, size_t len)
{
  int fd = memfd_create ("fuzz", 0);
  if (fd < 0 || (size && write (fd, data, size) != (ssize_t) size))
    {
      if (fd >= 0)
        close (fd);
      return -1;
    }
  snprintf (path, len, "/proc/self/fd/%d", fd);
  return fd;
}

#define FUZZ_CHECK(cond)                                                    \
  do                                                                        \
    {                                                                       \
      if (!(cond))                                                          \
        {                                                                   \
          dprintf (2, "%s:%d: property failed: %s\n", __FILE__,            \
                   __LINE__, #cond);                                        \
          abort ();                                                         \
        }                                                                   \
    }                                                                       \
  while (0)

#endif
