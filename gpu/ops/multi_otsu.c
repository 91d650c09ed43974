/* SPDX-License-Identifier: GPL-3.0-or-later */
/* multi_otsu.c — multi-level Otsu thresholds (gh_multi_otsu), as
 * scikit-image 0.19's filters.threshold_multiotsu on 8-bit data.
 *
 * scikit-image crops the histogram to the image's [min, max] levels,
 * normalizes it in double and stores the probabilities as float32, then
 * (_multiotsu.pyx, the LUT version) works in float32 throughout:
 *
 *   P[0] = S[0] = p[0];  P[i] = P[i-1] + p[i];  S[i] = S[i-1] + i * p[i]
 *   H(i, j) = (S[j] - S[i-1])^2 / (P[j] - P[i-1])   for i >= 1, P > 0
 *   H(0, j) = S[j]^2 / P[j]  for j >= 1;  H(0, 0) = 0     (never filled)
 *   sigma = (H(0, t0) + H(t_last + 1, n-1)) + H(t0 + 1, t1) + ...
 *
 * and keeps the first combination, in lexicographic order of (t0, t1, ...),
 * whose sigma is strictly above every earlier one (starting from 0).  The
 * quirks (S[0] = p[0] rather than 0, H(0, 0) = 0) are kept: they decide
 * which thresholds win.  When exactly `classes` levels are occupied, the
 * thresholds are the occupied levels but the last, without a search.
 *
 * The search is exhaustive, as scikit-image's: C(n - 1, classes - 1)
 * combinations over the n occupied bins, about 0.2 s for 5 classes over
 * all 256 levels.  Over more than 256 bins (float images: 1024) that grows
 * out of reach (minutes), so there the same maximum is found by dynamic
 * programming over the same float32 table H, in double; ties among equal
 * maxima may then resolve differently than an exhaustive search would. */
#include "fail.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

#define EXHAUSTIVE_MAX_BINS 256

typedef struct {
  int n;      /* bins in the cropped range */
  float *h;   /* H(i, j), row-major upper triangle, n * (n + 1) / 2 */
  int k;      /* thresholds wanted */
  int cur[GH_MULTI_OTSU_MAX_CLASSES - 1];
  int best[GH_MULTI_OTSU_MAX_CLASSES - 1];
  float sigma_max;
} search;

static inline float
H (const search *s, int i, int j)
{
  return s->h[(size_t) i * (2 * s->n - i + 1) / 2 + (size_t) (j - i)];
}

/* _set_thresh_indices_lut: every combination from threshold `t` on.  The
 * last threshold's loop is written out with the sums in scikit-image's
 * order: H(0, t0) + H(last + 1, n - 1), then the middle classes. */
static void
exhaust (search *s, const float *tail, int from, int t)
{
  int k = s->k, n = s->n;

  if (t < k - 1)
    {
      for (int i = from; i < n - k + t; i++)
        {
          s->cur[t] = i;
          exhaust (s, tail, i + 1, t + 1);
        }
      return;
    }
  {
    float first = H (s, 0, s->cur[0]);
    float mid[GH_MULTI_OTSU_MAX_CLASSES - 2];
    /* H (prev + 1, i) for the last class before the tail, a row of H. */
    int row = t > 0 ? s->cur[t - 1] + 1 : 0;
    const float *hrow = s->h + (size_t) row * (2 * n - row + 1) / 2 - row;

    /* t < k < GH_MULTI_OTSU_MAX_CLASSES: at most three middle classes. */
    int n_mid = t - 1 < GH_MULTI_OTSU_MAX_CLASSES - 2
                  ? t - 1
                  : GH_MULTI_OTSU_MAX_CLASSES - 2;

    for (int i = 0; i < n_mid; i++)
      mid[i] = H (s, s->cur[i] + 1, s->cur[i + 1]);
    for (int i = from; i < n - 1; i++)
      {
        float sigma;
        if (t == 0)
          first = H (s, 0, i);
        sigma = first + tail[i];
        for (int m = 0; m < n_mid; m++)
          sigma += mid[m];
        if (t > 0)
          sigma += hrow[i];
        if (sigma > s->sigma_max)
          {
            s->sigma_max = sigma;
            s->cur[t] = i;
            memcpy (s->best, s->cur, sizeof s->cur);
          }
      }
  }
}

/* The same maximum by dynamic programming: best[c][j], the largest sum of
 * c + 1 classes covering bins 0..j. */
static gh_status
programme (search *s, gh_error *error)
{
  int n = s->n, k = s->k;
  double *best = malloc ((size_t) (k + 1) * n * sizeof *best);
  int *from = malloc ((size_t) (k + 1) * n * sizeof *from);

  if (!best || !from)
    {
      free (best);
      free (from);
      return gh_fail (error, GH_ERR_NOMEM,
                      "out of memory for multi-level Otsu over %d bins", n);
    }
  for (int j = 0; j < n; j++)
    best[j] = H (s, 0, j);
  for (int c = 1; c <= k; c++)
    for (int j = c; j < n; j++)
      {
        double top = -DBL_MAX;
        int arg = c - 1;
        /* The last class is i + 1..j, the ones before cover 0..i. */
        for (int i = c - 1; i < j; i++)
          {
            double v = best[(size_t) (c - 1) * n + i] + H (s, i + 1, j);
            if (v > top)
              {
                top = v;
                arg = i;
              }
          }
        best[(size_t) c * n + j] = top;
        from[(size_t) c * n + j] = arg;
      }
  for (int c = k, j = n - 1; c >= 1; c--)
    {
      j = from[(size_t) c * n + j];
      s->best[c - 1] = j;
    }
  free (best);
  free (from);
  return GH_OK;
}

gh_status
gh_multi_otsu (const double *counts, int bins, int classes, int *thresholds,
               gh_error *error)
{
  search s;
  double total = 0;
  float *prob, *P, *S;
  int lo = 0, hi, occupied = 0;
  gh_status st = GH_OK;

  memset (&s, 0, sizeof s);
  if (!counts || !thresholds)
    return gh_fail (error, GH_ERR_INVALID, "no histogram given");
  if (bins < 2 || bins > 65536)
    return gh_fail (error, GH_ERR_INVALID, "%d bins", bins);
  if (classes < 2 || classes > GH_MULTI_OTSU_MAX_CLASSES)
    return gh_fail (error, GH_ERR_INVALID,
                    "%d classes; multi-level Otsu takes 2 to %d", classes,
                    GH_MULTI_OTSU_MAX_CLASSES);
  for (int b = 0; b < bins; b++)
    if (counts[b] > 0)
      total += counts[b];
  if (!(total > 0))
    return gh_fail (error, GH_ERR_INVALID,
                    "the image has no pixels; it cannot be thresholded in "
                    "%d classes",
                    classes);
  while (!(counts[lo] > 0))
    lo++;
  for (hi = bins - 1; !(counts[hi] > 0); hi--)
    ;
  s.n = hi - lo + 1;
  s.k = classes - 1;
  prob = malloc ((size_t) s.n * 3 * sizeof *prob);
  if (!prob)
    return gh_fail (error, GH_ERR_NOMEM, "out of memory for %d bins", s.n);
  P = prob + s.n;
  S = P + s.n;
  for (int i = 0; i < s.n; i++)
    {
      double c = counts[lo + i] > 0 ? counts[lo + i] : 0;
      prob[i] = (float) (c / total);
      occupied += prob[i] != 0;
    }
  if (occupied < classes)
    {
      free (prob);
      return gh_fail (error, GH_ERR_INVALID,
                      "the image has only %d different level%s; it cannot "
                      "be thresholded in %d classes",
                      occupied, occupied == 1 ? "" : "s", classes);
    }
  if (occupied == classes)
    {
      for (int i = 0, t = 0; i < s.n && t < s.k; i++)
        if (prob[i] != 0)
          thresholds[t++] = lo + i;
      free (prob);
      return GH_OK;
    }
  s.h = calloc ((size_t) s.n * (s.n + 1) / 2, sizeof *s.h);
  if (!s.h)
    {
      free (prob);
      return gh_fail (error, GH_ERR_NOMEM,
                      "out of memory for multi-level Otsu over %d bins", s.n);
    }
  /* _set_var_btwcls_lut, float by float. */
  P[0] = S[0] = prob[0];
  for (int i = 1; i < s.n; i++)
    {
      P[i] = P[i - 1] + prob[i];
      S[i] = S[i - 1] + (float) i * prob[i];
      if (P[i] > 0)
        s.h[i] = S[i] * S[i] / P[i];
    }
  for (size_t i = 1, idx = (size_t) s.n; i < (size_t) s.n; i++)
    for (size_t j = i; j < (size_t) s.n; j++, idx++)
      {
        float p = P[j] - P[i - 1];
        if (p > 0)
          {
            float m = S[j] - S[i - 1];
            s.h[idx] = m * m / p;
          }
      }
  if (s.n <= EXHAUSTIVE_MAX_BINS)
    {
      /* tail[i] = H (i + 1, n - 1), the last class after threshold i. */
      float tail[EXHAUSTIVE_MAX_BINS];
      for (int i = 0; i < s.n - 1; i++)
        tail[i] = H (&s, i + 1, s.n - 1);
      exhaust (&s, tail, 0, 0);
    }
  else
    st = programme (&s, error);
  for (int t = 0; t < s.k && st == GH_OK; t++)
    thresholds[t] = lo + s.best[t];
  free (s.h);
  free (prob);
  return st;
}
