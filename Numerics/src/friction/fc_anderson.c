/* Anderson acceleration of the Gauss-Seidel sweeps (fc_anderson.h). */
#include "friction/fc_anderson.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "friction/fc_cone_internal.h"

/* The least-squares normal equations get lambda = TIKHONOV * (largest diagonal entry). */
#define TIKHONOV 1e-10

int nsd_fca_init(NsdFcAnderson* a, int memory, int n, int n_carried, int threads) {
  memset(a, 0, sizeof *a);
  a->memory = memory;
  a->n = n;
  a->n_carried = n_carried;
  a->threads = threads;
  const size_t m = (size_t)memory, nr = (size_t)(n > 0 ? n : 1),
               ncr = (size_t)(n_carried > 0 ? n_carried : 1);
  a->x_r = malloc(nr * sizeof *a->x_r);
  a->f_last = malloc(nr * sizeof *a->f_last);
  a->g_last_r = malloc(nr * sizeof *a->g_last_r);
  a->g_last_c = malloc(ncr * sizeof *a->g_last_c);
  a->df = malloc(m * nr * sizeof *a->df);
  a->dg_r = malloc(m * nr * sizeof *a->dg_r);
  a->dg_c = malloc(m * ncr * sizeof *a->dg_c);
  a->gram = malloc(m * m * sizeof *a->gram);
  a->work = malloc((2 * m + m * m + 1) * sizeof *a->work);
  a->partial = malloc((size_t)NSD_FCC_MAX_CHUNKS * 2 * m * sizeof *a->partial);
  return a->x_r && a->f_last && a->g_last_r && a->g_last_c && a->df && a->dg_r && a->dg_c &&
         a->gram && a->work;
}

void nsd_fca_free(NsdFcAnderson* a) {
  free(a->x_r);
  free(a->f_last);
  free(a->g_last_r);
  free(a->g_last_c);
  free(a->df);
  free(a->dg_r);
  free(a->dg_c);
  free(a->gram);
  free(a->work);
  free(a->partial);
  memset(a, 0, sizeof *a);
}

void nsd_fca_reset(NsdFcAnderson* a) {
  a->count = 0;
  a->next = 0;
  a->have_last = 0;
}

void nsd_fca_before(NsdFcAnderson* a, const double* r) {
  nsd_fcc_copy(r, a->x_r, a->n, a->threads);
}

/* Solve A x = b (b becomes x) for the k x k symmetric A (column-major, overwritten) by
 * LAPACK's Cholesky; 0 if A is not numerically positive definite. */
static int cholesky_solve(double* A, double* b, int k) {
  return LAPACKE_dposv_work(LAPACK_COL_MAJOR, 'L', k, 1, A, k, b, k) == 0;
}

/* The first pass, fused: f = r - x (into f_last, x_r's copy of r read once), the new
 * differences df = f - f_last and dg = g - g_last into ring slot @p slot (slot >= 0), and
 * g_last = g; returns ||f||^2 by fixed chunks summed in order. */
static double record_sweep(NsdFcAnderson* a, int slot, const double* r, const double* c) {
  const int n = a->n, nc = a->n_carried, nt = a->threads;
  double* f_last = a->f_last;
  double* g_r = a->g_last_r;
  double* g_c = a->g_last_c;
  const double* x = a->x_r;
  double* df = slot >= 0 ? a->df + (size_t)slot * n : NULL;
  double* dgr = slot >= 0 ? a->dg_r + (size_t)slot * n : NULL;
  double* dgc = slot >= 0 ? a->dg_c + (size_t)slot * nc : NULL;
  double* part = a->partial;
  const int len = n > 0 ? nsd_fcc_chunk_length(n) : 1, nch = n > 0 ? (n + len - 1) / len : 0;
  NSD_FCC_PARALLEL_FOR(nt, n)
  for (int k = 0; k < nch; ++k) {
    const int i0 = k * len, i1 = i0 + len < n ? i0 + len : n;
    double sum = 0.0;
    for (int i = i0; i < i1; ++i) {
      const double fi = r[i] - x[i];
      if (df) {
        df[i] = fi - f_last[i];
        dgr[i] = r[i] - g_r[i];
      }
      f_last[i] = fi;
      g_r[i] = r[i];
      sum += fi * fi;
    }
    part[k] = sum;
  }
  NSD_FCC_PARALLEL_FOR(nt, nc)
  for (int i = 0; i < nc; ++i) {
    if (dgc) dgc[i] = c[i] - g_c[i];
    g_c[i] = c[i];
  }
  double sum = 0.0;
  for (int k = 0; k < nch; ++k) sum += part[k];
  return sum;
}

/* out[j] = df_j . df_slot and out[m + j] = df_j . f for the held slots j, in one pass (fixed
 * chunks summed in order, as nsd_fcc_dot). */
static void history_dots(NsdFcAnderson* a, int slot, int held, double* out) {
  const int n = a->n, nt = a->threads, m = a->memory;
  const double* df = a->df;
  const double* dnew = a->df + (size_t)slot * n;
  const double* f = a->f_last;
  double* part = a->partial;
  const int len = n > 0 ? nsd_fcc_chunk_length(n) : 1, nch = n > 0 ? (n + len - 1) / len : 0;
  NSD_FCC_PARALLEL_FOR(nt, n)
  for (int k = 0; k < nch; ++k) {
    const int i0 = k * len, i1 = i0 + len < n ? i0 + len : n;
    double* pk = part + (size_t)k * 2 * m;
    for (int j = 0; j < held; ++j) {
      const double* dj = df + (size_t)j * n;
      double sn = 0.0, sf = 0.0;
      for (int i = i0; i < i1; ++i) {
        sn += dj[i] * dnew[i];
        sf += dj[i] * f[i];
      }
      pk[j] = sn;
      pk[m + j] = sf;
    }
  }
  for (int j = 0; j < held; ++j) {
    double sn = 0.0, sf = 0.0;
    for (int k = 0; k < nch; ++k) {
      sn += part[(size_t)k * 2 * m + j];
      sf += part[(size_t)k * 2 * m + m + j];
    }
    out[j] = sn;
    out[m + j] = sf;
  }
}

int nsd_fca_after(NsdFcAnderson* a, double* r, double* c,
                  void (*reduce_sum)(void* user, double* values, int count), void* user) {
  const int n = a->n, nc = a->n_carried, nt = a->threads, m = a->memory;
  // the new difference (after the first sweep of a history) goes to the next ring slot;
  // the slots 0 .. count-1 are held (a restart empties the ring from slot 0)
  const int slot = a->have_last ? a->next : -1;
  const int held = slot >= 0 && a->count < m ? a->count + 1 : a->count;
  double* sums = a->work;
  const int n_sums = 1 + 2 * m;
  memset(sums, 0, (size_t)n_sums * sizeof *sums);
  sums[0] = record_sweep(a, slot, r, c);  // f_k and g_k are now the last sweep's
  a->have_last = 1;
  // ||f|| grew (a change of the contacts' status): a new history starts from here
  if (reduce_sum) reduce_sum(user, sums, 1);
  if (slot < 0 || sums[0] > a->last_norm2) {
    if (slot >= 0) ++a->restarts;
    a->count = 0;
    a->next = 0;
    a->last_norm2 = sums[0];
    return 0;
  }
  a->last_norm2 = sums[0];
  history_dots(a, slot, held, sums + 1);
  if (reduce_sum) reduce_sum(user, sums + 1, n_sums - 1);
  a->count = held;
  a->next = (slot + 1) % m;
  for (int j = 0; j < held; ++j) a->gram[j + slot * m] = a->gram[slot + j * m] = sums[1 + j];

  // gamma from the regularised normal equations of min || f - sum gamma_j df_j ||
  double* rhs = sums + 1 + m;
  double* A = sums + n_sums;
  double largest = 0.0;
  for (int j = 0; j < held; ++j) largest = fmax(largest, a->gram[j + j * m]);
  for (int j = 0; j < held; ++j)
    for (int i = 0; i < held; ++i)
      A[i + j * held] = a->gram[i + j * m] + (i == j ? TIKHONOV * largest : 0.0);
  if (!(largest > 0.0) || !cholesky_solve(A, rhs, held)) return 0;
  // x_{k+1} = g_k - sum_j gamma_j dg_j, entry by entry (the same bits on any thread count)
  const double* gamma = rhs;
  const double* dgr = a->dg_r;
  const double* dgc = a->dg_c;
  NSD_FCC_PARALLEL_FOR(nt, n)
  for (int i = 0; i < n; ++i) {
    double x = r[i];
    for (int j = 0; j < held; ++j) x -= gamma[j] * dgr[(size_t)j * n + i];
    r[i] = x;
  }
  NSD_FCC_PARALLEL_FOR(nt, nc)
  for (int i = 0; i < nc; ++i) {
    double x = c[i];
    for (int j = 0; j < held; ++j) x -= gamma[j] * dgc[(size_t)j * nc + i];
    c[i] = x;
  }
  ++a->steps;
  return 1;
}
