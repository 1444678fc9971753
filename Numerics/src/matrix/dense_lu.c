/* Dense LU over LAPACKE, and the unblocked small-system LU (see dense_lu.h). */
#include "matrix/dense_lu.h"

#include <lapacke.h>
#include <math.h>

_Static_assert(sizeof(lapack_int) == sizeof(int), "nsdyn expects LP64 LAPACKE (32-bit lapack_int)");

int nsd_dense_lu_factor(double* a, int n, int* pivots, double* rcond) {
  if (n == 0) {
    if (rcond) *rcond = 1.0;
    return 0;
  }
  double anorm = rcond ? LAPACKE_dlange(LAPACK_COL_MAJOR, '1', n, n, a, n) : 0.0;
  lapack_int info = LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, a, n, pivots);
  if (info != 0) {
    if (rcond) *rcond = 0.0;
    return (int)info;
  }
  if (rcond) {
    double rc = 0.0;
    if (LAPACKE_dgecon(LAPACK_COL_MAJOR, '1', n, a, n, anorm, &rc) != 0) rc = 0.0;
    *rcond = rc;
  }
  return 0;
}

int nsd_dense_lu_solve(const double* lu, int n, const int* pivots, double* b, int nrhs) {
  if (n == 0 || nrhs == 0) return 0;
  return (int)LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', n, nrhs, lu, n, pivots, b, n);
}

int nsd_dense_small_factor(int k, double* a, int ld, int* piv, double rel_tol) {
  // scale of the matrix for the singularity test
  double amax = 0.0;
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) amax = fmax(amax, fabs(a[i + j * ld]));
  if (k > 0 && !(amax > 0.0)) return 1;
  const double tiny = rel_tol * amax;

  // right-looking Gaussian elimination with partial (row) pivoting
  for (int c = 0; c < k; ++c) {
    int p = c;
    double best = fabs(a[c + c * ld]);
    for (int i = c + 1; i < k; ++i)
      if (fabs(a[i + c * ld]) > best) {
        best = fabs(a[i + c * ld]);
        p = i;
      }
    piv[c] = p;
    if (!(best > tiny)) return 1;
    if (p != c)
      for (int j = 0; j < k; ++j) {
        const double t = a[c + j * ld];
        a[c + j * ld] = a[p + j * ld];
        a[p + j * ld] = t;
      }
    const double inv = 1.0 / a[c + c * ld];
    for (int i = c + 1; i < k; ++i) a[i + c * ld] *= inv;
    for (int j = c + 1; j < k; ++j) {
      const double f = a[c + j * ld];
      if (f == 0.0) continue;
      for (int i = c + 1; i < k; ++i) a[i + j * ld] -= a[i + c * ld] * f;
    }
  }
  return 0;
}

void nsd_dense_small_solve(int k, const double* a, int ld, const int* piv, double* b) {
  // apply the row swaps, then L (unit) and U substitutions
  for (int c = 0; c < k; ++c)
    if (piv[c] != c) {
      const double t = b[c];
      b[c] = b[piv[c]];
      b[piv[c]] = t;
    }
  for (int j = 0; j < k; ++j) {
    const double bj = b[j];
    if (bj == 0.0) continue;
    for (int i = j + 1; i < k; ++i) b[i] -= a[i + j * ld] * bj;
  }
  for (int j = k - 1; j >= 0; --j) {
    b[j] /= a[j + j * ld];
    const double bj = b[j];
    if (bj == 0.0) continue;
    for (int i = 0; i < j; ++i) b[i] -= a[i + j * ld] * bj;
  }
}
