/*
 * Private helpers shared by the LCP solvers of Numerics/src/lcp (not installed).
 *
 * Dense matrices here are column-major with a leading dimension (entry (i,j)
 * at a[i + j*ld]), like LAPACK. Every helper works on caller-provided memory
 * unless it says it allocates.
 */
#ifndef NSDYN_LCP_INTERNAL_H
#define NSDYN_LCP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "common/solver_core.h"
#include "matrix/dense_lu.h"
#include "nsdyn/nsd_lcp.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest size the enumerative solver accepts whatever options say (2^30 bases
 *  is the most an int iteration count can report). */
#define NSD_LCPI_ENUM_HARD_MAX 30

/**
 * Common start of every LCP solver: starts @p report under @p name, copies
 * @p options (defaults when NULL) into @p opt, validates the problem, the
 * output pointers and the generic options, and sets z to 0 unless warm
 * starting (a warm start must be finite). Returns NSD_OK or the failure
 * status already recorded in @p report.
 */
NsdStatus nsd_lcpi_begin(const char* name, const NsdLcp* problem, double* z, double* w,
                         const NsdSolverOptions* options, NsdSolverOptions* opt, NsdReport* report);

/** Zero @p own and return it: the report used when a caller passes NULL. */
NsdReport* nsd_lcpi_own_report(NsdReport* own);

/** New column-major n x n copy of the square matrix @p m (any storage); NULL on no memory. */
double* nsd_lcpi_dense_copy(const NsdMatrix* m);

/** Euclidean norm of x[n]. */
double nsd_lcpi_norm(int n, const double* x);

/** w = M z + q for a dense column-major M (ld = n), column by column, zero z_j skipped. */
void nsd_lcpi_product_dense(int n, const double* m, const double* q, const double* z, double* w);

/**
 * The Siconos LCP error of z for a dense M (ld = n): w = M z + q is written
 * to @p w, then ||z - max(0, z - w)|| / qnorm (unscaled when qnorm <= DBL_EPSILON).
 */
double nsd_lcpi_error_dense(int n, const double* m, const double* q, double qnorm, const double* z,
                            double* w);

/** The same measure from z and an already computed w. */
double nsd_lcpi_error_zw(int n, const double* z, const double* w, double qnorm);

/** Workspace (doubles) needed by nsd_lcpi_basis_solve for size n. */
size_t nsd_lcpi_basis_work(int n);

/**
 * Solve the complementary basis given by @p in_basis[i] (1: z_i basic, so
 * w_i = 0; 0: z_i = 0): M_aa z_a = -q_a by LU with one step of iterative
 * refinement, z_b = 0. M is dense (leading dimension ld), z[n] out.
 * @p work has nsd_lcpi_basis_work(n) doubles, @p iwork 2n ints.
 * Returns 0, or 1 when M_aa is numerically singular.
 */
int nsd_lcpi_basis_solve(int n, const double* m, int ld, const double* q,
                         const unsigned char* in_basis, double* z, double* work, int* iwork);

/**
 * Polish z on its own active set: with a_i = (z_i > w_i), re-solve the basis
 * by nsd_lcpi_basis_solve, clip negative z to 0, and keep the result if its
 * error (dense measure) is not larger. z and w (= M z + q) are updated.
 * M is dense with leading dimension n. @p work: nsd_lcpi_basis_work(n) + 2n
 * doubles, @p iwork: 2n ints, @p mask: n bytes. Returns the error of the z kept.
 */
double nsd_lcpi_polish(int n, const double* m, const double* q, double qnorm, double* z, double* w,
                       double* work, int* iwork, unsigned char* mask);

/** Outcome of the dense Lemke core. */
typedef enum NsdLcpiLemkeOutcome {
  NSD_LCPI_LEMKE_SOLVED = 0, /**< z0 left the basis: complementary solution */
  NSD_LCPI_LEMKE_RAY,        /**< ray termination (no blocking row) */
  NSD_LCPI_LEMKE_MAX_PIVOTS, /**< pivot cap reached */
  NSD_LCPI_LEMKE_TIME_LIMIT  /**< time limit reached */
} NsdLcpiLemkeOutcome;

/** Pivot cap of Lemke's method: max(max_iterations, 10 n + 100). */
int nsd_lcpi_lemke_pivot_cap(int n, int max_iterations);

/** Doubles of workspace needed by nsd_lcpi_lemke_dense for size n. */
size_t nsd_lcpi_lemke_work(int n);

/**
 * Lemke's method on a dense LCP (see lcp_lemke.c). M column-major with
 * leading dimension ld; z[n] out (the basic z values when the method stops,
 * clipped at 0). @p work: nsd_lcpi_lemke_work(n) doubles; @p iwork: 2n ints.
 * @p deadline: absolute nsd_wall_time() to stop at, 0 for none.
 * *pivots receives the number of pivots done; *entering the variable that
 * found no blocking row on ray termination (0..n-1: w_i, n..2n-1: z_i, 2n: z0).
 */
NsdLcpiLemkeOutcome nsd_lcpi_lemke_dense(int n, const double* m, int ld, const double* q, double* z,
                                         double pivot_tolerance, int max_pivots, double deadline,
                                         int* pivots, int* entering, double* work, int* iwork);

/**
 * Try the complementary basis @p mask (bit i set: z_i basic) of a dense LCP:
 * solve it (nsd_lcpi_basis_solve) and accept it when z_a >= -feas_tol and
 * w_b >= -feas_tol. On acceptance z[n] holds the basic solution with tiny
 * negatives clipped to 0. Returns 1 if accepted. @p work:
 * nsd_lcpi_basis_work(n) doubles, @p iwork: 2n ints, @p flags: n bytes.
 */
int nsd_lcpi_enum_try(int n, const double* m, int ld, const double* q, uint64_t mask,
                      double feas_tol, double* z, double* work, int* iwork, unsigned char* flags);

#ifdef __cplusplus
}
#endif
#endif
