/*
 * Dense LU (LAPACK dgetrf) and Cholesky (dpotrf, lower triangle) of an
 * NsdMatrix into an NsdFactor, refused on a negligible pivot (see
 * matrix_factor.c for the tolerances).
 */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/matrix_factor_impl.h"

/* ---- dense (LAPACK) ------------------------------------------------------- */

/* LU of the dense matrix a into f; reports the first negligible pivot. */
NsdStatus nsd_factor_dense_lu(const NsdMatrix* a, NsdFactor* f, NsdReport* report) {
  int n = a->rows;
  size_t nn = (size_t)n * (size_t)n;
  if (!f->colmax) f->colmax = malloc((size_t)n * sizeof(double));
  if (!f->dense) f->dense = malloc(nn * sizeof(double));
  if (!f->ipiv) f->ipiv = malloc((size_t)n * sizeof(int));
  double* colmax = f->colmax;
  if (!colmax || !f->dense || !f->ipiv)
    return nsd_report_fail(report, NSD_FAILED, "out of memory factorising a dense %d x %d matrix",
                           n, n);

  // column magnitudes, the scale of each pivot
  memcpy(f->dense, a->dense, nn * sizeof(double));
  for (int j = 0; j < n; ++j) {
    colmax[j] = 0.0;
    for (int i = 0; i < n; ++i)
      colmax[j] = fmax(colmax[j], fabs(f->dense[(size_t)i + (size_t)j * n]));
  }

  // P A = L U with partial pivoting; row interchanges keep U's column k as A's column k
  lapack_int info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, f->dense, n, f->ipiv);
  NsdStatus status = NSD_OK;
  if (info < 0) {
    status = nsd_report_fail(report, NSD_FAILED, "dgetrf rejected argument %d", (int)-info);
  } else {
    for (int k = 0; k < n; ++k) {
      double u = f->dense[(size_t)k + (size_t)k * n], tol = pivot_tolerance(n) * colmax[k];
      if (!(fabs(u) > tol)) {
        status =
            nsd_report_fail(report, NSD_FAILED,
                            "singular matrix: LU pivot of column %d is %g (|u| <= %g)", k, u, tol);
        break;
      }
    }
  }
  return status;
}

/* Cholesky A = L L^T of the dense matrix a (lower triangle) into f. */
NsdStatus nsd_factor_dense_cholesky(const NsdMatrix* a, NsdFactor* f, NsdReport* report) {
  int n = a->rows;
  size_t nn = (size_t)n * (size_t)n;
  if (!f->dense) f->dense = malloc(nn * sizeof(double));
  if (!f->dense)
    return nsd_report_fail(report, NSD_FAILED, "out of memory factorising a dense %d x %d matrix",
                           n, n);
  memcpy(f->dense, a->dense, nn * sizeof(double));

  // exact failure: the leading minor of order info is not positive
  lapack_int info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, f->dense, n);
  if (info < 0)
    return nsd_report_fail(report, NSD_FAILED, "dpotrf rejected argument %d", (int)-info);
  if (info > 0)
    return nsd_report_fail(report, NSD_FAILED,
                           "matrix not positive definite: pivot of column %d is not positive",
                           (int)info - 1);

  // numerical failure: a pivot l_kk^2 negligible against a_kk
  for (int k = 0; k < n; ++k) {
    double l = f->dense[(size_t)k + (size_t)k * n], akk = a->dense[(size_t)k + (size_t)k * n];
    double tol = pivot_tolerance(n) * akk;
    if (!(l * l > tol))
      return nsd_report_fail(report, NSD_FAILED,
                             "matrix not positive definite: pivot of column %d is %g (<= %g)", k,
                             l * l, tol);
  }
  return NSD_OK;
}
