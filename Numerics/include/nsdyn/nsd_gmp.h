/**
 * @file nsd_gmp.h
 * @brief The generic mechanical problem (Siconos GenericMechanicalProblem): one
 *        matrix W and one vector q whose rows are cut into consecutive blocks,
 *        each an equality block, a block of LCP rows or a 2D/3D friction cone,
 *        with its solvers (NSGS over blocks, global Newton) and its error.
 *
 * Problem: find r and u = W r + q such that, for each block b (rows
 * start[b] .. start[b+1]-1):
 *  - NSD_GMP_EQUALITY: u_b = 0 (r_b free);
 *  - NSD_GMP_LCP:      0 <= r_b _|_ u_b >= 0;
 *  - NSD_GMP_FC2D/FC3D: the Coulomb law of ::NsdFc on the contact (normal
 *    component first), with the block's coefficient mu;
 *  - NSD_GMP_RELAY: per row i, lower[i] <= r_i <= upper[i] and -u_i in the
 *    normal cone of [lower[i], upper[i]] at r_i (u_i = 0 inside, u_i <= 0 at
 *    the upper bound, u_i >= 0 at the lower one): a bounded multiplier, e.g. a
 *    motor's impulse within its torque limit. Bounds: nsd_gmp_set_bounds.
 *
 * W is an ::NsdMatrix of any storage (dense, sparse-block, CSC); a file holds
 * it sparse-block, the diagonal blocks being the sub-problems (see
 * formats/README.md, "Generic mechanical"). Read and write GMP files with
 * nsd_read_problem / nsd_write_problem (kind NSD_KIND_GMP, NsdProblem.gmp).
 *
 * Error (nsd_gmp_error), the measure of Siconos's gmp_compute_error so that
 * the numbers compare with Siconos runs: with u = W r + q and, per block, the
 * local q_b = u_b - W_bb r_b (q plus the off-diagonal coupling), the maximum
 * over the blocks of
 *  - equality: max_i |u_i| (unscaled);
 *  - LCP: ||r_b - max(0, r_b - u_b)|| / (1 + ||q_b||);
 *  - cone: the natural-map residual with De Saxce's change of velocity of the
 *    FC2D/FC3D error, ||r_b - Pi(r_b - u_b - mu ||u_T|| e_n)||, / (1 + ||q_b||);
 *  - relay: ||r_b - Pi_[lower,upper](r_b - u_b)|| / (1 + ||q_b||).
 * +inf when r or u holds a NaN or an infinity.
 */
#ifndef NSDYN_NSD_GMP_H
#define NSDYN_NSD_GMP_H

#include "nsd_problems.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Kind of a block; the values are the Siconos problem codes of the .dat files. */
typedef enum NsdGmpBlockKind {
  NSD_GMP_LCP = 0,      /**< complementarity rows, 0 <= r _|_ u >= 0 (Siconos 0) */
  NSD_GMP_EQUALITY = 2, /**< u = 0, r free (Siconos 2) */
  NSD_GMP_FC2D = 3,     /**< 2D friction cone (normal, tangent), coefficient mu (Siconos 3) */
  NSD_GMP_FC3D = 4,     /**< 3D friction cone (normal, two tangents), coefficient mu (Siconos 4) */
  NSD_GMP_RELAY = 9 /**< bounded rows, -u in N_[lower,upper](r) (Siconos 9); not in .dat files */
} NsdGmpBlockKind;

/** One block of rows. */
typedef struct NsdGmpBlock {
  NsdGmpBlockKind kind;
  int size;  /**< rows: >= 1; 2 for NSD_GMP_FC2D, 3 for NSD_GMP_FC3D */
  double mu; /**< friction coefficient of a cone, finite >= 0; ignored otherwise */
} NsdGmpBlock;

/** The problem. Blocks follow each other in row order. */
typedef struct NsdGmp {
  int n;               /**< rows of W; the block sizes add up to it */
  int n_blocks;        /**< blocks */
  NsdGmpBlock* blocks; /**< [n_blocks] */
  int* start;          /**< [n_blocks+1] first row of each block; start[n_blocks] = sum of sizes */
  NsdMatrix* W;        /**< n x n, any storage */
  double* q;           /**< [n] */
  double* lower;       /**< [n] or NULL: lower bounds of the relay rows (nsd_gmp_set_bounds) */
  double* upper;       /**< [n] or NULL: upper bounds of the relay rows */
} NsdGmp;

/** "lcp", "equality", "fc2d", "fc3d", "relay" or "unknown". */
NSD_API const char* nsd_gmp_block_kind_name(NsdGmpBlockKind kind);

/**
 * New problem taking ownership of @p W (destroyed on failure too), copying
 * q[W->rows] and blocks[n_blocks]. n = W->rows. NULL when @p W is NULL or on
 * no memory. Nothing is validated here: see nsd_gmp_check.
 */
NSD_API NsdGmp* nsd_gmp_create(NsdMatrix* W, const double* q, int n_blocks,
                               const NsdGmpBlock* blocks);

NSD_API void nsd_gmp_destroy(NsdGmp* problem);

/**
 * Copy the bounds of the relay rows, lower[n] and upper[n] (the entries of the
 * other rows are ignored; -inf / +inf allowed). NSD_OK, or NSD_FAILED on no
 * memory, NSD_BAD_INPUT when an argument is NULL. Checked by nsd_gmp_check.
 */
NSD_API NsdStatus nsd_gmp_set_bounds(NsdGmp* problem, const double* lower, const double* upper);

/**
 * Check the blocks (known kinds, sizes >= 1, 2 or 3 for the cones, finite
 * mu >= 0, bounds of the relay rows set with lower <= upper and no NaN), that their sizes add up to
 * n, W square n x n with finite values, q finite. 1 if valid, else 0 with NSD_BAD_INPUT and a
 * message naming the block or entry and the value in @p report.
 */
NSD_API int nsd_gmp_check(const NsdGmp* problem, NsdReport* report);

/** The Siconos GMP error of @p r (see the file comment); @p u_out (nullable) receives W r + q. */
NSD_API double nsd_gmp_error(const NsdGmp* problem, const double* r, double* u_out);

/** Signature of the GMP solvers: r[n] (input when options->warm_start), u[n] = W r + q out. */
typedef NsdStatus (*NsdGmpSolver)(const NsdGmp* problem, double* r, double* u,
                                  const NsdSolverOptions* options, NsdReport* report);

/**
 * Nonsmooth Gauss-Seidel over the blocks (Siconos GMP_NSGS): each sweep solves
 * every block in turn with the others fixed, on its local problem
 * W_bb r_b + q_b (q_b = q plus the coupling of the other blocks):
 *  - equality block: exactly, by the LU of W_bb (LAPACK dgetrf, made once);
 *  - LCP block: exactly, by lexicographic Lemke on W_bb (options->lemke);
 *  - cone: by the one-contact solvers of the FC2D/FC3D NSGS (options->nsgs
 *    local_solver, local_tolerance, local_max_iterations);
 *  - relay block: in closed form for one row (clamp of -q_b / W_bb), else by
 *    projected Gauss-Seidel over its rows (options->nsgs local_tolerance and
 *    local_max_iterations).
 * Stops when nsd_gmp_error <= options->tolerance (one error per sweep);
 * iterations are sweeps. NSD_FAILED when an equality block's W_bb is singular
 * or a cone's W_bb has no positive normal entry, naming the block.
 */
NSD_API NsdStatus nsd_gmp_nsgs(const NsdGmp* problem, double* r, double* u,
                               const NsdSolverOptions* options, NsdReport* report);

/**
 * Global semismooth Newton on Phi(r) = 0 with, per block, u = W r + q:
 * equality rows Phi = rho u; LCP rows the Fischer-Burmeister function of
 * (r, rho u) (options->newton.merit fischer-burmeister, the default) or the min
 * function min(r, rho u) (merit min or alart-curnier); cones the Alart-Curnier
 * function (fc_maps.h, shared with the FC3D Newton); relay rows the natural map
 * r - Pi_[lower,upper](r - rho u). rho = 1 / ||W_bb||_F per
 * block. Each step solves J d = -Phi (J = A + B W assembled in CSC, sparse LU),
 * regularised (J + eps I) when singular or not a descent direction, then an
 * Armijo backtracking on 1/2 ||Phi||^2 (options->newton); when that pass stops
 * short (line search failed, error not halved in 500 steps), a second pass from
 * the initial r with a non-monotone Armijo test (gmp_newton.c). Stops when
 * nsd_gmp_error <= options->tolerance; iterations are Newton steps.
 */
NSD_API NsdStatus nsd_gmp_newton(const NsdGmp* problem, double* r, double* u,
                                 const NsdSolverOptions* options, NsdReport* report);

/**
 * ADMM over the blocks as one convex set: for symmetric positive semi-definite W,
 * with the cones' De Saxce term s = mu ||u_T|| fixed, the problem is the optimality
 * condition of min 1/2 r^T W r + (q + s)^T r over r in C, C the product of R^k
 * (equality blocks: their rows are free, so the fixed point has W r + q = 0 there
 * without projection or penalty), the orthant (LCP rows), the boxes (relay rows) and
 * the Coulomb cones. Scaled ADMM r' = (W + rho I)^-1 (-(q + s) + rho (z - xi)),
 * z' = P_C(r' + xi), xi' = xi + r' - z', s refreshed from u = W z' + q each
 * iteration. W + rho I in CSC, analysed once, refactorised when rho changes
 * (Cholesky, LU when it fails); rho_0 = options->admm.rho or the mean diagonal of W,
 * doubled or halved when the primal and dual residuals differ by 10x
 * (options->admm.adaptive). Stops when nsd_gmp_error <= options->tolerance;
 * iterations are ADMM iterations; the answer (r in C) is the projected iterate z.
 */
NSD_API NsdStatus nsd_gmp_admm(const NsdGmp* problem, double* r, double* u,
                               const NsdSolverOptions* options, NsdReport* report);

#ifdef __cplusplus
}
#endif
#endif
