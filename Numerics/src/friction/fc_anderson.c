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
  memset(a, 0, sizeof *a);
}

void nsd_fca_before(NsdFcAnderson* a, const double* r) {
  nsd_fcc_copy(r, a->x_r, a->n, a->threads);
}

/* Keep (f, g) as the last sweep's. */
static void keep_last(NsdFcAnderson* a, const double* f, double f_norm2, const double* r,
                      const double* c) {
  nsd_fcc_copy(f, a->f_last, a->n, a->threads);
  nsd_fcc_copy(r, a->g_last_r, a->n, a->threads);
  nsd_fcc_copy(c, a->g_last_c, a->n_carried, a->threads);
  a->last_norm2 = f_norm2;
  a->have_last = 1;
}

/* Solve A x = b (b becomes x) for the k x k symmetric A (column-major, overwritten) by
 * LAPACK's Cholesky; 0 if A is not numerically positive definite. */
static int cholesky_solve(double* A, double* b, int k) {
  return LAPACKE_dposv_work(LAPACK_COL_MAJOR, 'L', k, 1, A, k, b, k) == 0;
}

int nsd_fca_after(NsdFcAnderson* a, double* r, double* c,
                  void (*reduce_sum)(void* user, double* values, int count), void* user) {
  const int n = a->n, nc = a->n_carried, nt = a->threads, m = a->memory;
  double* f = a->x_r;  // f_k = G(x_k) - x_k, in place of x_k's r
  nsd_fcc_axpby(1.0, r, -1.0, a->x_r, f, n, nt);

  // the new difference (after the first sweep of a history), into the next ring slot;
  // the slots 0 .. count-1 are held (a restart empties the ring from slot 0)
  int slot = -1, held = a->count;
  if (a->have_last) {
    slot = a->next;
    double* df = a->df + (size_t)slot * n;
    nsd_fcc_axpby(1.0, f, -1.0, a->f_last, df, n, nt);
    nsd_fcc_axpby(1.0, r, -1.0, a->g_last_r, a->dg_r + (size_t)slot * n, n, nt);
    nsd_fcc_axpby(1.0, c, -1.0, a->g_last_c, a->dg_c + (size_t)slot * nc, nc, nt);
    if (held < m) ++held;
  }
  // ||f||^2 first: when it grew (a change of the contacts' status), a new history starts
  // from here and nothing else is summed
  double* sums = a->work;
  const int n_sums = 1 + 2 * m;
  memset(sums, 0, (size_t)n_sums * sizeof *sums);
  sums[0] = nsd_fcc_dot(f, f, n, nt);
  if (reduce_sum) reduce_sum(user, sums, 1);
  if (slot < 0 || sums[0] > a->last_norm2) {
    if (slot >= 0) ++a->restarts;
    a->count = 0;
    a->next = 0;
    keep_last(a, f, sums[0], r, c);
    return 0;
  }
  // df_j . df_slot and df_j . f for the held slots j
  for (int j = 0; j < held; ++j) {
    const double* dfj = a->df + (size_t)j * n;
    sums[1 + j] = nsd_fcc_dot(dfj, a->df + (size_t)slot * n, n, nt);
    sums[1 + m + j] = nsd_fcc_dot(dfj, f, n, nt);
  }
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
  const double f_norm2 = sums[0];
  if (!(largest > 0.0) || !cholesky_solve(A, rhs, held)) {
    keep_last(a, f, f_norm2, r, c);
    return 0;
  }
  keep_last(a, f, f_norm2, r, c);
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
