/**
 * @file nsd_mlcp.h
 * @brief MLCP solvers (mixed and box-constrained forms, see ::NsdMlcp).
 *        z[size] (input when warm_start, output), w[size] = M z + q (output).
 *        report->residual is nsd_mlcp_error() of the returned z.
 */
#ifndef NSDYN_NSD_MLCP_H
#define NSDYN_NSD_MLCP_H

#include "nsd_problems.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Signature shared by all MLCP solvers. @p options NULL means defaults. */
typedef NsdStatus (*NsdMlcpSolver)(const NsdMlcp* problem, double* z, double* w,
                                   const NsdSolverOptions* options, NsdReport* report);

/**
 * Projected Gauss-Seidel over all rows with relaxation:
 * z_i <- mid(lb_i, z_i - omega w_i / M_ii, ub_i). Needs M_ii != 0 on free rows
 * and M_ii > 0 on bounded rows.
 */
NSD_API NsdStatus nsd_mlcp_pgs(const NsdMlcp* problem, double* z, double* w,
                               const NsdSolverOptions* options, NsdReport* report);

/**
 * Direct enumerative solver: for each choice of active sets on the
 * complementarity/box rows (free rows always basic), solve the linear system by
 * LU and keep the first feasible one. Exact; for small numbers of bounded rows
 * (<= options->enumerative.max_size).
 */
NSD_API NsdStatus nsd_mlcp_enum(const NsdMlcp* problem, double* z, double* w,
                                const NsdSolverOptions* options, NsdReport* report);

/**
 * Pivoting solver for the mixed form (equality + complementarity rows): the
 * free variables are eliminated by a Schur complement (LU of the equality
 * block A) and the remaining LCP is solved by lexicographic Lemke.
 */
NSD_API NsdStatus nsd_mlcp_lemke(const NsdMlcp* problem, double* z, double* w,
                                 const NsdSolverOptions* options, NsdReport* report);

/**
 * Semismooth Newton on the box form with the Fischer-Burmeister (or min)
 * function extended to boxes, Armijo line search.
 */
NSD_API NsdStatus nsd_mlcp_newton(const NsdMlcp* problem, double* z, double* w,
                                  const NsdSolverOptions* options, NsdReport* report);

#ifdef __cplusplus
}
#endif
#endif
