/**
 * @file nsd_rfc.h
 * @brief Rolling friction contact (Siconos RollingFrictionContactProblem): the
 *        local friction-contact problem with, per contact, a rolling
 *        resistance cone next to the Coulomb cone; its error measure, the
 *        projection on its cone and its solvers (NSGS, projected gradient).
 *
 * Unknowns, per contact a (dim = 5 in 3D, 3 in 2D; normal component first):
 *  - 3D: r_a = (r_N, r_T1, r_T2, r_R1, r_R2), the normal and tangential
 *    impulses then the rolling moments (about the two tangent axes);
 *  - 2D: r_a = (r_N, r_T, r_R).
 * u_a is the matching relative velocity (normal, tangential, angular).
 *
 * Problem: find r with u = M r + q such that, for every contact,
 *   K_a ∋ r_a  ⊥  û_a ∈ K_a*,
 *   K_a = { ||r_T|| <= mu r_N and ||r_R|| <= mu_r r_N },
 *   û_a = u_a + (mu ||u_T|| + mu_r ||u_R||) e_N     (De Saxcé's change of velocity),
 *   K_a* = { v_N >= mu ||v_T|| + mu_r ||v_R|| }  (the dual cone).
 * That is: no impulse when the contact opens (u_N > 0); sticking (u_T = 0)
 * while ||r_T|| < mu r_N, else sliding with r_T = -mu r_N u_T / ||u_T||; and
 * independently no rolling (u_R = 0) while ||r_R|| < mu_r r_N, else rolling
 * with r_R = -mu_r r_N u_R / ||u_R||. mu_r is a length-free coefficient here
 * (Siconos's convention: the rolling moment in the file is already divided by
 * whatever length the model uses). mu = 0 or mu_r = 0 remove that part of the
 * cone (r_T = 0, resp. r_R = 0). With mu_r = 0 and rolling rows decoupled from
 * the others the problem is FC3D (resp. FC2D) on the remaining rows.
 *
 * Error (nsd_rfc_error), the measure of Siconos's rolling_fc3d_compute_error:
 *   sqrt(sum_a ||r_a - P_K_a(r_a - û_a)||^2) / max(||q||, ||r||, ||u||)
 * (unscaled when that maximum is <= DBL_EPSILON), u recomputed as M r + q.
 *
 * Files: the Siconos rolling .dat layout (dim, nc, M, q, mu, mu_r; see
 * doc/formats.md), read and written by nsd_read_problem / nsd_write_problem
 * as NSD_KIND_RFC3D / NSD_KIND_RFC2D (NsdProblem.rfc). Solve any problem with
 * nsd_solve (solvers "nsgs", the default, and "pg").
 */
#ifndef NSDYN_NSD_RFC_H
#define NSDYN_NSD_RFC_H

#include "nsd_problems.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The rolling friction contact problem (see the file comment). */
typedef struct NsdRfc {
  int dim;      /**< 5 (3D) or 3 (2D): unknowns per contact */
  int nc;       /**< number of contacts */
  NsdMatrix* M; /**< dim*nc square (Delassus), any storage */
  double* q;    /**< [dim*nc] */
  double* mu;   /**< [nc] Coulomb coefficients, finite >= 0 */
  double* mu_r; /**< [nc] rolling coefficients, finite >= 0 */
} NsdRfc;

/**
 * New problem taking ownership of @p M (destroyed on failure too) and copying
 * q[dim*nc], mu[nc] and mu_r[nc] (NULL vectors give zeros). NULL when @p M is
 * NULL, dim is not 3 or 5, nc < 0, or on no memory. Values are checked by
 * nsd_rfc_check, not here.
 */
NSD_API NsdRfc* nsd_rfc_create(int dim, int nc, NsdMatrix* M, const double* q, const double* mu,
                               const double* mu_r);

NSD_API void nsd_rfc_destroy(NsdRfc* problem);

/**
 * Check dim (3 or 5), nc >= 0, M square dim*nc with finite values, q finite,
 * mu and mu_r finite and >= 0. 1 if valid, else 0 with NSD_BAD_INPUT and a
 * message naming the field, the contact and the value ("RFC3D: mu_r[4] = -0.1,
 * expected mu_r >= 0") in @p report.
 */
NSD_API int nsd_rfc_check(const NsdRfc* problem, NsdReport* report);

/**
 * Euclidean projection of y (dim = 5 or 3 entries, normal first) on the cone
 * K = { ||y_T|| <= mu y_N, ||y_R|| <= mu_r y_N }, in place. Exact (closed
 * form): with a = ||y_T||, b = ||y_R||, the projection's normal component t
 * is the root on t >= 0 of the piecewise-linear increasing
 *   g(t) = t - y_N - mu max(0, a - mu t) - mu_r max(0, b - mu_r t)
 * (t = 0 when g(0) >= 0), and y_T, y_R are scaled to radii min(a, mu t),
 * min(b, mu_r t).
 */
NSD_API void nsd_rfc_project_on_cone(int dim, double mu, double mu_r, double* y);

/** Siconos's error of @p r (see the file comment); @p u_out (nullable) receives M r + q. */
NSD_API double nsd_rfc_error(const NsdRfc* problem, const double* r, double* u_out);

/**
 * The one-contact problem: u = W r + q (W dim x dim, column-major), r solving
 * the law above with (mu, mu_r). "Exact": a semismooth Newton on the natural
 * map F(r) = r - P_K(r - rho û(r)) (rho = 1 / the largest diagonal entry of
 * W, analytic generalized Jacobian of P_K, Armijo line search on ||F||^2),
 * run until ||F|| <= 1e-14 max(1, ||q||) or it stops decreasing (machine
 * precision), falling back on the projected fixed point r <- P_K(r - rho û)
 * when Newton stalls. q_N >= 0 gives r = 0 at once (the contact opens).
 * mu = 0 (mu_r = 0) eliminates r_T (r_R): exactly 0, the other unknowns solved
 * against the coupled rows of W. r[dim] is the start point and the answer. Returns the final ||F||
 * (the caller may compare it with its own tolerance). W_NN must be > 0.
 */
NSD_API double nsd_rfc_solve_one(int dim, const double* W, const double* q, double mu, double mu_r,
                                 double* r);

/** Signature of the RFC solvers: r[dim*nc] (input when options->warm_start), u = M r + q out. */
typedef NsdStatus (*NsdRfcSolver)(const NsdRfc* problem, double* r, double* u,
                                  const NsdSolverOptions* options, NsdReport* report);

/**
 * Nonsmooth Gauss-Seidel over contacts: each sweep solves every contact's
 * local problem W_aa r_a + q_a (q_a = q plus the other contacts' coupling)
 * exactly with nsd_rfc_solve_one, then relaxes by options->relaxation. Contact
 * order: natural, or shuffled each sweep (options->nsgs.shuffle, seed). Stops
 * when nsd_rfc_error <= options->tolerance (one error per sweep); iterations
 * are sweeps. NSD_BAD_INPUT when a diagonal block has W_NN <= 0, naming the
 * contact.
 */
NSD_API NsdStatus nsd_rfc_nsgs(const NsdRfc* problem, double* r, double* u,
                               const NsdSolverOptions* options, NsdReport* report);

/**
 * Accelerated projected gradient (Nesterov momentum with gradient restart)
 * over the product of the cones, on the De Saxcé fixed point: each step
 * x <- P_K(y - (M y + q + (mu ||u_T|| + mu_r ||u_R||) e_N) / L), the shift
 * taken at y (so updated every step). It runs in variables scaled per contact,
 * r = S r~ with S = b_a diag(1, 1, 1, a_a, a_a) (b_a = 1/sqrt(W_NN),
 * a_a = sqrt(W_NN / W_RR)): the same kind of problem (M~ = S M S, q~ = S q,
 * mu_r~ = mu_r / a_a; the cones and the law are invariant), whose normal and
 * rolling rows have a unit diagonal, so that translational and rotational
 * rows (1/m against 1/(m R^2)) share one step. L = 1.05 times the largest
 * eigenvalue of the symmetric part of S M S (power iteration), doubled (and
 * the momentum restarted from the best iterate) when the error has not
 * improved for 200 steps. The error (of the unscaled r) is computed every
 * step; the best iterate is returned. Stops when nsd_rfc_error <=
 * options->tolerance; iterations are gradient steps. Meant for a symmetric
 * positive semidefinite M (a Delassus operator); it may not converge
 * otherwise, nor for large mu (the De Saxcé fixed point is not a contraction
 * then). Slower than nsgs on small problems (see doc/rolling-friction.md).
 */
NSD_API NsdStatus nsd_rfc_pg(const NsdRfc* problem, double* r, double* u,
                             const NsdSolverOptions* options, NsdReport* report);

#ifdef __cplusplus
}
#endif
#endif
