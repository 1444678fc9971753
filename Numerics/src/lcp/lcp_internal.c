/* Private helpers of the LCP solvers: common input checks, dense copies and
 * error, and solves on a complementary basis (by the small LU of dense_lu.c). */
#include "lcp/lcp_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Relative pivot size under which a basis matrix counts as singular. */
#define LCPI_SINGULAR_TOL 1e-13

NsdStatus nsd_lcpi_begin(const char* name, const NsdLcp* problem, double* z, double* w,
                         const NsdSolverOptions* options, NsdSolverOptions* opt,
                         NsdReport* report) {
  // the common options, then the problem, then the output arrays
  if (nsd_solver_begin(name, options, opt, report) != NSD_OK) return NSD_BAD_INPUT;
  if (!problem) return nsd_report_fail(report, NSD_BAD_INPUT, "problem is NULL");
  if (!nsd_lcp_check(problem, report)) {
    if (report && report->status == NSD_OK) report->status = NSD_BAD_INPUT;
    return NSD_BAD_INPUT;
  }
  if (!z || !w)
    return nsd_report_fail(report, NSD_BAD_INPUT, "%s is NULL (n=%d)", !z ? "z" : "w", problem->n);

  // initial point: the caller's z (finite) or 0
  const int n = problem->n;
  if (opt->warm_start) {
    for (int i = 0; i < n; ++i)
      if (!isfinite(z[i]))
        return nsd_report_fail(report, NSD_BAD_INPUT, "warm start z[%d]=%g is not finite", i, z[i]);
  } else {
    memset(z, 0, (size_t)n * sizeof *z);
  }
  return NSD_OK;
}

NsdReport* nsd_lcpi_own_report(NsdReport* own) {
  memset(own, 0, sizeof *own);
  return own;
}

double* nsd_lcpi_dense_copy(const NsdMatrix* m) {
  const size_t n = (size_t)m->rows;
  double* a = malloc((n * n > 0 ? n * n : 1) * sizeof *a);
  if (!a) return NULL;

  // dense: copy; other storages: convert once, or read entry by entry
  if (m->storage == NSD_DENSE && m->dense) {
    memcpy(a, m->dense, n * n * sizeof *a);
    return a;
  }
  NsdMatrix* d = nsd_matrix_convert(m, NSD_DENSE, 0);
  if (d && d->dense) {
    memcpy(a, d->dense, n * n * sizeof *a);
  } else {
    for (size_t j = 0; j < n; ++j)
      for (size_t i = 0; i < n; ++i) a[i + j * n] = nsd_matrix_get(m, (int)i, (int)j);
  }
  nsd_matrix_destroy(d);
  return a;
}

double nsd_lcpi_norm(int n, const double* x) {
  // scaled sum of squares: no overflow for large entries
  double scale = 0.0, ssq = 1.0;
  for (int i = 0; i < n; ++i) {
    const double a = fabs(x[i]);
    if (a == 0.0) continue;
    if (scale < a) {
      ssq = 1.0 + ssq * (scale / a) * (scale / a);
      scale = a;
    } else {
      ssq += (a / scale) * (a / scale);
    }
  }
  return scale * sqrt(ssq);
}

double nsd_lcpi_error_zw(int n, const double* z, const double* w, double qnorm) {
  double ssq = 0.0;
  for (int i = 0; i < n; ++i) {
    const double d = z[i] - fmax(0.0, z[i] - w[i]);
    ssq += d * d;
  }
  const double abs_err = sqrt(ssq);
  return qnorm > DBL_EPSILON ? abs_err / qnorm : abs_err;
}

void nsd_lcpi_product_dense(int n, const double* m, const double* q, const double* z, double* w) {
  // w = q + sum_j z_j M(:,j), column by column
  memcpy(w, q, (size_t)n * sizeof *w);
  for (int j = 0; j < n; ++j) {
    const double zj = z[j];
    if (zj == 0.0) continue;
    const double* col = m + (size_t)j * (size_t)n;
    for (int i = 0; i < n; ++i) w[i] += col[i] * zj;
  }
}

double nsd_lcpi_error_dense(int n, const double* m, const double* q, double qnorm, const double* z,
                            double* w) {
  nsd_lcpi_product_dense(n, m, q, z, w);
  return nsd_lcpi_error_zw(n, z, w, qnorm);
}

size_t nsd_lcpi_basis_work(int n) {
  return (size_t)n * (size_t)n + 3 * (size_t)n;
}

int nsd_lcpi_basis_solve(int n, const double* m, int ld, const double* q,
                         const unsigned char* in_basis, double* z, double* work, int* iwork) {
  // gather the basic indices; their pivots follow them in iwork
  int k = 0;
  int* idx = iwork;
  int* piv = iwork + n;
  for (int i = 0; i < n; ++i)
    if (in_basis[i]) idx[k++] = i;
  memset(z, 0, (size_t)n * sizeof *z);
  if (k == 0) return 0;

  double* a = work;                          // k x k, leading dimension k
  double* x = work + (size_t)n * (size_t)n;  // [k] solution
  double* r = x + n;                         // [k] residual

  // M_aa and -q_a
  for (int jj = 0; jj < k; ++jj)
    for (int ii = 0; ii < k; ++ii) a[ii + jj * k] = m[idx[ii] + (size_t)idx[jj] * (size_t)ld];
  for (int ii = 0; ii < k; ++ii) x[ii] = -q[idx[ii]];

  int singular = nsd_dense_small_factor(k, a, k, piv, LCPI_SINGULAR_TOL);
  if (!singular) {
    nsd_dense_small_solve(k, a, k, piv, x);

    // one step of iterative refinement: r = -q_a - M_aa x, x += M_aa^-1 r
    for (int ii = 0; ii < k; ++ii) {
      double s = -q[idx[ii]];
      for (int jj = 0; jj < k; ++jj) s -= m[idx[ii] + (size_t)idx[jj] * (size_t)ld] * x[jj];
      r[ii] = s;
    }
    nsd_dense_small_solve(k, a, k, piv, r);
    for (int ii = 0; ii < k; ++ii) {
      x[ii] += r[ii];
      if (!isfinite(x[ii])) singular = 1;
    }
    for (int ii = 0; ii < k; ++ii) z[idx[ii]] = x[ii];
  }
  return singular;
}

double nsd_lcpi_polish(int n, const double* m, const double* q, double qnorm, double* z, double* w,
                       double* work, int* iwork, unsigned char* mask) {
  const double err0 = nsd_lcpi_error_dense(n, m, q, qnorm, z, w);
  if (err0 == 0.0) return err0;

  // the active set of z, re-solved exactly; z itself is kept in the last n doubles
  double* trial = work + nsd_lcpi_basis_work(n);
  double* wtrial = trial + n;
  for (int i = 0; i < n; ++i) mask[i] = z[i] > w[i];
  if (nsd_lcpi_basis_solve(n, m, n, q, mask, trial, work, iwork)) return err0;
  for (int i = 0; i < n; ++i) trial[i] = fmax(0.0, trial[i]);

  // keep whichever is better
  const double err1 = nsd_lcpi_error_dense(n, m, q, qnorm, trial, wtrial);
  if (err1 <= err0) {
    memcpy(z, trial, (size_t)n * sizeof *z);
    memcpy(w, wtrial, (size_t)n * sizeof *w);
    return err1;
  }
  return err0;
}

int nsd_lcpi_enum_try(int n, const double* m, int ld, const double* q, uint64_t mask,
                      double feas_tol, double* z, double* work, int* iwork, unsigned char* flags) {
  for (int i = 0; i < n; ++i) flags[i] = (unsigned char)((mask >> i) & 1u);
  if (nsd_lcpi_basis_solve(n, m, ld, q, flags, z, work, iwork)) return 0;

  // feasibility: z_a >= 0 and w_b = (M z + q)_b >= 0, within feas_tol
  for (int i = 0; i < n; ++i)
    if (flags[i] && z[i] < -feas_tol) return 0;
  for (int i = 0; i < n; ++i) {
    if (flags[i]) continue;
    double wi = q[i];
    for (int j = 0; j < n; ++j)
      if (flags[j]) wi += m[i + (size_t)j * (size_t)ld] * z[j];
    if (wi < -feas_tol) return 0;
  }
  for (int i = 0; i < n; ++i)
    if (z[i] < 0.0) z[i] = 0.0;
  return 1;
}
