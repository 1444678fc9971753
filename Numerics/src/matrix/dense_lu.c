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
