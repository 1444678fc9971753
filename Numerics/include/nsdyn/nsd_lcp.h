/**
 * @file nsd_lcp.h
 * @brief LCP solvers. Each has the signature of ::NsdLcpSolver:
 *        z[n] (input when options->warm_start, output), w[n] (output, = M z + q).
 *        report->residual is nsd_lcp_error() of the returned z.
 */
#ifndef NSDYN_NSD_LCP_H
#define NSDYN_NSD_LCP_H

#include "nsd_problems.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Signature shared by all LCP solvers. @p options NULL means defaults. */
typedef NsdStatus (*NsdLcpSolver)(const NsdLcp* problem, double* z, double* w,
                                  const NsdSolverOptions* options, NsdReport* report);

/**
 * Lemke's complementary pivoting with the lexicographic ratio test (handles
 * degeneracy; cannot cycle). Dense tableau, covering vector of ones.
 * Ray termination gives NSD_FAILED with "ray termination" in the message
 * (the LCP then has no solution for a copositive-plus M).
 * Iterations are pivots.
 */
NSD_API NsdStatus nsd_lcp_lemke(const NsdLcp* problem, double* z, double* w,
                                const NsdSolverOptions* options, NsdReport* report);

/**
 * Projected Gauss-Seidel ("pgs") with relaxation omega = options->relaxation
 * (PSOR when omega != 1): z_i <- max(0, z_i - omega w_i / M_ii).
 * Needs M_ii > 0. Iterations are sweeps.
 */
NSD_API NsdStatus nsd_lcp_pgs(const NsdLcp* problem, double* z, double* w,
                              const NsdSolverOptions* options, NsdReport* report);

/** nsd_lcp_pgs under its other name "nlgs" (Siconos's NLGS; the report says "nlgs"). */
NSD_API NsdStatus nsd_lcp_nlgs(const NsdLcp* problem, double* z, double* w,
                               const NsdSolverOptions* options, NsdReport* report);

/** nsd_lcp_pgs under its other name "psor" (Siconos's PSOR; the report says "psor"). */
NSD_API NsdStatus nsd_lcp_psor(const NsdLcp* problem, double* z, double* w,
                               const NsdSolverOptions* options, NsdReport* report);

/**
 * Block projected Gauss-Seidel: rows in blocks of options->pgs.block_size (or the
 * diagonal blocks of a sparse-block M), each block's small LCP solved exactly.
 */
NSD_API NsdStatus nsd_lcp_pgs_block(const NsdLcp* problem, double* z, double* w,
                                    const NsdSolverOptions* options, NsdReport* report);

/**
 * Enumeration of the 2^n complementary bases (n <= options->enumerative.max_size),
 * each solved by LU; returns the first basis giving a solution.
 */
NSD_API NsdStatus nsd_lcp_enum(const NsdLcp* problem, double* z, double* w,
                               const NsdSolverOptions* options, NsdReport* report);

/**
 * Semismooth Newton on the Fischer-Burmeister or min reformulation
 * (options->newton.merit) with Armijo line search on 1/2 ||Phi||^2 and a
 * gradient step fallback.
 */
NSD_API NsdStatus nsd_lcp_newton(const NsdLcp* problem, double* z, double* w,
                                 const NsdSolverOptions* options, NsdReport* report);

/** nsd_lcp_newton with the Fischer-Burmeister merit. */
NSD_API NsdStatus nsd_lcp_newton_fb(const NsdLcp* problem, double* z, double* w,
                                    const NsdSolverOptions* options, NsdReport* report);

/** nsd_lcp_newton with the min merit. */
NSD_API NsdStatus nsd_lcp_newton_min(const NsdLcp* problem, double* z, double* w,
                                     const NsdSolverOptions* options, NsdReport* report);

/**
 * Semismooth Newton with the direction of the min reformulation and the
 * globalisation of the Fischer-Burmeister one: H d = -min(z, w) with H from
 * the generalized Jacobian of min(z, M z + q), then the descent test and the
 * Armijo line search on theta_FB = 1/2 ||Phi_FB(z)||^2. Where that H is
 * singular, d is the Fischer-Burmeister Newton direction; where d is not a
 * descent direction of theta_FB, the step is along -grad theta_FB.
 * options->newton.merit is ignored; the other newton.* options apply.
 * Iterations are Newton steps.
 */
NSD_API NsdStatus nsd_lcp_newton_min_fblsa(const NsdLcp* problem, double* z, double* w,
                                           const NsdSolverOptions* options, NsdReport* report);

#ifdef __cplusplus
}
#endif
#endif
