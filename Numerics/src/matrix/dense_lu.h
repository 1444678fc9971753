/*
 * Dense LU of a small or moderate n x n column-major matrix, for every solver of
 * the library that needs one (LCP Lemke and Newton, MLCP Lemke, Newton and
 * enumeration): LAPACKE dgetrf/dgetrs, with dgecon's condition estimate on
 * request. Private to the library. (The 3x3 systems of the local friction
 * solvers are solved by hand in fc_local.c, and the Lemke/enumeration bases of
 * the LCP solvers by the tolerance-pivoted LU of lcp_internal.c.)
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

#endif
