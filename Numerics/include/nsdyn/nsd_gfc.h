/**
 * @file nsd_gfc.h
 * @brief Solvers of the global friction-contact problem (::NsdGfc of
 *        nsd_problems.h, Siconos's GlobalFrictionContactProblem) and its error.
 *
 * Problem: find the velocities v[n], the local velocities u[dim nc] and the
 * reactions r[dim nc] with
 *   M v = q + H r,   u = H^T v + b,
 * and, per contact, the Coulomb law of ::NsdFc on (u, r) (normal component
 * first). M is n x n symmetric positive semi-definite, H is n x dim nc; both
 * may be of any ::NsdMatrix storage and are used sparse: W = H^T M^-1 H is
 * formed only by the solvers that say so.
 *
 * Every solver has the signature ::NsdGfcSolver: r[dim nc] (input when
 * options->warm_start), u[dim nc] out, v[n] out (nullable: then the solver
 * keeps its own). Through nsd_solve (nsd_solvers.h) x is r and y is u.
 */
#ifndef NSDYN_NSD_GFC_H
#define NSDYN_NSD_GFC_H

#include "nsd_common.h"
#include "nsd_options.h"
#include "nsd_problems.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Signature of the GFC solvers (see the file comment). */
typedef NsdStatus (*NsdGfcSolver)(const NsdGfc* problem, double* r, double* u, double* v,
                                  const NsdSolverOptions* options, NsdReport* report);

/**
 * Siconos's error of a global problem at (r, v) (Siconos 4.4 gfc3d_compute_error
 * with norm_q = ||q||; doc/global-friction.md): the sum of
 *   ||q + H r - M v|| / max(||q||, ||M v||, ||H r||)   (equilibrium)
 * and, with u = H^T v + b recomputed, the natural-map residual with De Saxce's
 * change of velocity over the contacts (the terms of nsd_fc_error)
 *   sqrt(sum_a ||r_a - Pi_Ka(r_a - u_a - mu_a ||u_Ta|| e_n)||^2) / max(||u||, ||r||),
 * each term unscaled when its scale is <= sqrt(DBL_EPSILON). @p u_out (nullable)
 * receives u. +inf on NaN/inf.
 */
NSD_API double nsd_gfc_error(const NsdGfc* problem, const double* r, const double* v,
                             double* u_out);

/**
 * The error of @p r alone: v recovered from M v = q + H r (nsd_gfc_velocity),
 * then nsd_gfc_error. +inf when M cannot be factorised. Used by nsd_problem_error.
 */
NSD_API double nsd_gfc_error_of_reaction(const NsdGfc* problem, const double* r);

/**
 * v = M^-1 (q + H r) through a sparse Cholesky of M (LU when not SPD).
 * NSD_OK, or NSD_FAILED with a message when M is singular.
 */
NSD_API NsdStatus nsd_gfc_velocity(const NsdGfc* problem, const double* r, double* v,
                                   NsdReport* report);

/**
 * The local (reduced) problem of @p problem: W = H^T M^-1 H (sparse-block, by a
 * sparse factorisation of M, never a dense inverse), q_local = H^T M^-1 q + b,
 * the same mu. NULL with a message in @p report when M is singular.
 * Free with nsd_fc_destroy.
 */
NSD_API NsdFc* nsd_gfc_reduce(const NsdGfc* problem, NsdReport* report);

/**
 * Gauss-Seidel on the reduced problem (Siconos NSGS_WR): nsd_gfc_reduce, then the
 * FC2D/FC3D nsgs with the same options, then v from M v = q + H r. The error
 * reported is nsd_gfc_error; when the local solve met the tolerance but the global
 * error did not (the scalings differ), the local solve resumes warm with a tighter
 * tolerance. NSD_BAD_INPUT with a message naming the value when the problem fails
 * nsd_gfc_check, M is not symmetric (relative asymmetry > 1e-6) or M is singular.
 */
NSD_API NsdStatus nsd_gfc_nsgs_wr(const NsdGfc* problem, double* r, double* u, double* v,
                                  const NsdSolverOptions* options, NsdReport* report);

/**
 * ADMM on the global problem (M and H kept sparse; one sparse factorisation of
 * the ADMM matrix, refactorised only when rho changes).
 */
NSD_API NsdStatus nsd_gfc_admm(const NsdGfc* problem, double* r, double* u, double* v,
                               const NsdSolverOptions* options, NsdReport* report);

/** Primal-dual interior-point method on the global problem (second-order cones). */
NSD_API NsdStatus nsd_gfc_ipm(const NsdGfc* problem, double* r, double* u, double* v,
                              const NsdSolverOptions* options, NsdReport* report);

#ifdef __cplusplus
}
#endif
#endif
