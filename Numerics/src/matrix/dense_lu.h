/*
 * The dense LUs of the library (private to it), column-major:
 *   - nsd_dense_lu_*: LAPACKE dgetrf/dgetrs, with dgecon's condition estimate
 *     on request, for moderate n (LCP Lemke and Newton, MLCP Lemke, Newton and
 *     enumeration);
 *   - nsd_dense_small_*: an unblocked LU with partial pivoting and a relative
 *     singularity threshold, for the tiny systems solved in inner loops: the
 *     2x2 and 3x3 systems of the friction local solver (fc_local.c, once or
 *     more per contact and sweep of Gauss-Seidel) and the complementary bases
 *     of the LCP enumeration (lcp_enum.c, and per block in lcp_pgs_block.c).
 *     There LAPACKE's per-call cost (argument checks, NaN scans, dispatch)
 *     exceeds the few dozen flops of the factorisation (a 3x3 factor and
 *     solve: about 90 ns here against 450 ns through LAPACKE and OpenBLAS,
 *     -O2, x86-64), and dgetrf only reports exactly zero pivots, while these
 *     callers need "singular relative to the matrix" to reject a basis or a
 *     Newton step.
 */
#ifndef NSDYN_DENSE_LU_H
#define NSDYN_DENSE_LU_H

#include <math.h>

/*
 * In-place LU with partial pivoting of the n x n column-major @p a (dgetrf);
 * pivots[n]. @p rcond (nullable) receives the reciprocal 1-norm condition
 * estimate (dgecon; 0 when it fails). Returns 0 on success, nonzero when a
 * pivot is exactly zero or an argument is rejected. n = 0: success, rcond 1.
 */
int nsd_dense_lu_factor(double* a, int n, int* pivots, double* rcond);

/* Solve with the factors of nsd_dense_lu_factor for @p nrhs right-hand sides
 * (n x nrhs column-major, in place); 0 on success. */
int nsd_dense_lu_solve(const double* lu, int n, const int* pivots, double* b, int nrhs);

/*
 * In-place LU with partial (row) pivoting of the k x k column-major @p a with
 * leading dimension @p ld; pivots in piv[k] (row c swapped with piv[c]).
 * Returns 0, or 1 when a pivot is not above rel_tol times the largest |entry|
 * of a (numerically singular, or a zero matrix). Inline: with k a constant at
 * the call (the local solver's 3) the loops unroll; the operations and their
 * order are those of the loops, so the results are the same bits.
 */
static inline int nsd_dense_small_factor(int k, double* a, int ld, int* piv, double rel_tol) {
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

/* Solve with the factors of nsd_dense_small_factor; b[k] holds x on return. */
static inline void nsd_dense_small_solve(int k, const double* a, int ld, const int* piv,
                                         double* b) {
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

#endif
