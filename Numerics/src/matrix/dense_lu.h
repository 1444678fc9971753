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
 * of a (numerically singular, or a zero matrix).
 */
int nsd_dense_small_factor(int k, double* a, int ld, int* piv, double rel_tol);

/* Solve with the factors of nsd_dense_small_factor; b[k] holds x on return. */
void nsd_dense_small_solve(int k, const double* a, int ld, const int* piv, double* b);

#endif
