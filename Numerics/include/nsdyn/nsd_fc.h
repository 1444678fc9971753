/**
 * @file nsd_fc.h
 * @brief Friction-contact solvers (local form u = M r + q, r in the cones,
 *        see ::NsdFc) and the Delassus operator interface used by APGD.
 *
 * Every solver: r[dim*nc] (input when options->warm_start, output),
 * u[dim*nc] = M r + q (output); report->residual is nsd_fc_error() of the
 * returned r (the Siconos FC2D/FC3D measure), compared with options->tolerance.
 */
#ifndef NSDYN_NSD_FC_H
#define NSDYN_NSD_FC_H

#include "nsd_problems.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Signature shared by all local friction-contact solvers. @p options NULL: defaults. */
typedef NsdStatus (*NsdFcSolver)(const NsdFc* problem, double* r, double* u,
                                 const NsdSolverOptions* options, NsdReport* report);

/* ---- FC3D ------------------------------------------------------------------ */

/** Nonsmooth Gauss-Seidel over contacts with a local solver (options->nsgs), relaxation. */
NSD_API NsdStatus nsd_fc3d_nsgs(const NsdFc* problem, double* r, double* u,
                                const NsdSolverOptions* options, NsdReport* report);

/** Projected SOR on the cones (one projected step per contact per sweep). */
NSD_API NsdStatus nsd_fc3d_psor(const NsdFc* problem, double* r, double* u,
                                const NsdSolverOptions* options, NsdReport* report);

/**
 * Accelerated projected gradient descent (Mazhar et al. 2015) on the assembled
 * M, parallel with OpenMP (options->threads, options->apgd). APGD solves the
 * cone complementarity relaxation; this entry point makes its answer a
 * Coulomb solution by the De Saxcé fixed point (q_n shifted by mu ||u_T||,
 * updated between warm-started APGD runs). report->residual and the status
 * use the Siconos FC3D error, like every solver here; the history records it
 * per iteration. M must be symmetric (up to 1e-2 of its largest entry) with
 * positive semidefinite diagonal blocks, else NSD_BAD_INPUT. See
 * nsd_fc_apgd_operator for the pure relaxation on a matrix-free operator.
 */
NSD_API NsdStatus nsd_fc3d_apgd(const NsdFc* problem, double* r, double* u,
                                const NsdSolverOptions* options, NsdReport* report);

/**
 * APGD on the assembled M for the cone complementarity relaxation only (solver
 * "apgd_ccp": no De Saxcé loop), the problem Mazhar et al. solve. report->residual
 * and the status use APGD's own residual (see nsd_fc_apgd_operator); the report's
 * message says so and gives the Siconos (Coulomb) error of the answer, which can be
 * far larger (2.5e-2 against a residual of 1e-6 at 20,000 granular contacts). Use
 * "apgd" for the Coulomb answer.
 */
NSD_API NsdStatus nsd_fc3d_apgd_ccp(const NsdFc* problem, double* r, double* u,
                                    const NsdSolverOptions* options, NsdReport* report);

/**
 * Projected gradient with Barzilai-Borwein steps and the Grippo-Lampariello-
 * Lucidi non-monotone line search (options->bb: memory, sigma), with the same
 * De Saxcé fixed point and input checks as nsd_fc3d_apgd.
 */
NSD_API NsdStatus nsd_fc3d_bb(const NsdFc* problem, double* r, double* u,
                              const NsdSolverOptions* options, NsdReport* report);

/**
 * ADMM (Boyd et al. 2011) on r = z, z in the cones, with the De Saxcé shift
 * updated every iteration and residual balancing of the penalty
 * (options->admm: rho, 0 = mean diagonal of M; adaptive). Factorises
 * M + rho I (Cholesky, or LU when M is not symmetric to round-off) and
 * refactorises when rho changes. Same input checks as nsd_fc3d_apgd.
 */
NSD_API NsdStatus nsd_fc3d_admm(const NsdFc* problem, double* r, double* u,
                                const NsdSolverOptions* options, NsdReport* report);

/** Global nonsmooth Newton, Alart-Curnier, sparse direct linear solves, line search. */
NSD_API NsdStatus nsd_fc3d_newton_ac(const NsdFc* problem, double* r, double* u,
                                     const NsdSolverOptions* options, NsdReport* report);

/** Global nonsmooth Newton, Fischer-Burmeister (for SOCCP), line search. */
NSD_API NsdStatus nsd_fc3d_newton_fb(const NsdFc* problem, double* r, double* u,
                                     const NsdSolverOptions* options, NsdReport* report);

/** Parameters of nsd_fc3d_prox_ex (nsd_fc_prox_params_default gives the defaults). */
typedef struct NsdFcProxParams {
  double sigma0;            /**< first sigma, relative to the mean |diagonal| of M; default 1 */
  double decrease;          /**< sigma factor after a converged inner solve that lowered the
                                 error, in (0,1]; default 0.1 */
  double increase;          /**< sigma factor after a failed inner solve, >= 1; default 10 */
  double sigma_min;         /**< floor of sigma (relative); default 1e-12 */
  double sigma_max;         /**< failure when sigma grows past it (relative); default 1e10 */
  int inner_max_iterations; /**< Newton steps per proximal subproblem; default 50 */
} NsdFcProxParams;

/** Fill @p params with the defaults documented in ::NsdFcProxParams. */
NSD_API void nsd_fc_prox_params_default(NsdFcProxParams* params);

/**
 * Proximal-point method (Siconos FC3D_PROX; Acary, Bremond, Huber 2018): each
 * outer step solves the regularised problem u = (M + sigma I) r + (q - sigma r_k)
 * around the current r_k with nsd_fc3d_newton_ac (warm-started, at most
 * params->inner_max_iterations steps), then decreases sigma when that solve
 * converged and the Siconos FC3D error of the outer iterate dropped, and
 * increases it when the inner Newton failed (keeping r_k unless the error
 * dropped). sigma is relative to the mean |diagonal| of M, so M may be rank
 * deficient. Stops when nsd_fc_error(r) <= options->tolerance;
 * options->max_iterations caps the total Newton steps (report->iterations),
 * options->time_limit the wall time; the history records the outer error per
 * proximal step. @p params NULL: defaults.
 */
NSD_API NsdStatus nsd_fc3d_prox_ex(const NsdFc* problem, double* r, double* u,
                                   const NsdSolverOptions* options, const NsdFcProxParams* params,
                                   NsdReport* report);

/** nsd_fc3d_prox_ex with the default parameters (the "prox" solver of the table). */
NSD_API NsdStatus nsd_fc3d_prox(const NsdFc* problem, double* r, double* u,
                                const NsdSolverOptions* options, NsdReport* report);

/* ---- FC2D ------------------------------------------------------------------ */

/** Nonsmooth Gauss-Seidel for 2D friction (exact 2x2 local solves). */
NSD_API NsdStatus nsd_fc2d_nsgs(const NsdFc* problem, double* r, double* u,
                                const NsdSolverOptions* options, NsdReport* report);

/** 2D friction through its LCP reformulation, solved by lexicographic Lemke. */
NSD_API NsdStatus nsd_fc2d_lemke(const NsdFc* problem, double* r, double* u,
                                 const NsdSolverOptions* options, NsdReport* report);

/* ---- APGD on an operator ------------------------------------------------------ */

/**
 * The Delassus operator N = J M^-1 J^T of a contact problem, assembled or matrix-free.
 * If @c assembled is non-NULL it is used (y = N x by nsd_matrix_gemv).
 * Otherwise the three callbacks are used: y = J (M^-1 (J^T x)). Each
 * callback must be safe to call from one thread at a time (APGD parallelises
 * inside its own loops, and the callbacks may use OpenMP themselves).
 */
typedef struct NsdDelassus {
  int size;                   /**< m = dim * nc, rows of J */
  int n_dof;                  /**< columns of J (matrix-free form) */
  const NsdMatrix* assembled; /**< Nullable: N itself, m x m */
  void* user;                 /**< passed to the callbacks */
  /** v[n_dof] = J^T x[m] */
  void (*apply_jt)(void* user, const double* x, double* v);
  /** w[n_dof] = M^-1 v[n_dof] */
  void (*apply_minv)(void* user, const double* v, double* w);
  /** y[m] = J w[n_dof] */
  void (*apply_j)(void* user, const double* w, double* y);
  /**
   * Nullable (both NULL: the operator is the whole problem, on one process).
   * Set both when the operator is one part of a global problem split by contacts
   * (nsdyn_parallel: one part per MPI rank, the callbacks exchanging body values
   * between the parts): values[0..count) holds this part's partial sums (or maxima)
   * and must be replaced, on every part alike, by the sum (the maximum) over all
   * parts. nsd_fc3d_apgd_operator and nsd_fc_apgd_operator then take every global
   * quantity through them (input faults and sizes, norms, the backtracking and
   * restart sums, the residuals and the Siconos error, the time limit), so that all
   * parts take the same decisions and call the callbacks the same number of times;
   * a part may hold no contact (size 0). The sum must not depend on message timing
   * if results are to be reproducible. Called with @c user, from one thread.
   */
  void (*reduce_sum)(void* user, double* values, int count);
  void (*reduce_max)(void* user, double* values, int count);
} NsdDelassus;

/**
 * Factored Delassus operator from J (m x n_dof, any storage) and a
 * block-diagonal M^-1 (n_dof x n_dof, any storage; sparse-block and dense
 * are used in place). The products are parallelised with OpenMP over
 * @p threads threads (0: runtime default), without write conflicts: J^T x by
 * ranges of bodies (for a sparse-block J an index of the blocks touching each
 * range is built here, ints only; CSC and dense J are read in place and a CSC J
 * is transposed once for J w), M^-1 v and J w by rows. No copy of J's values is
 * made, and results do not depend on the thread count. Fills @p op, which keeps
 * pointers to J and Minv (they must outlive it) and owns its index and workspace:
 * free it with nsd_delassus_factored_free.
 */
NSD_API NsdStatus nsd_delassus_factored(const NsdMatrix* J, const NsdMatrix* Minv, int threads,
                                        NsdDelassus* op, NsdReport* report);

/** Free what nsd_delassus_factored allocated in @p op. */
NSD_API void nsd_delassus_factored_free(NsdDelassus* op);

/**
 * APGD (Nesterov-accelerated projected gradient with backtracking and
 * adaptive restart, Mazhar et al. 2015) minimising 1/2 r^T N r + q^T r over the
 * product of friction cones of coefficients mu[nc] (dim 2 or 3, nc = size/dim),
 * or over the positive orthant (dim 1, mu unused and nullable: an LCP with
 * symmetric PSD N). This is the cone complementarity relaxation (no De Saxcé
 * term): report->residual and the status use APGD's own residual, the
 * projected-gradient map with unit step normalised as Siconos,
 *   ||r - Pi_K(r - (N r + q))|| / max(||q||, ||r||, ||N r + q||),
 * of the best iterate, which is returned with u = N r + q. The Siconos FC
 * error of that answer (with the De Saxcé term) goes to @p siconos_error
 * (nullable). One application of N per iteration plus one per backtracking
 * step, one to estimate L_0 (two when warm-started), and one at the end when
 * the best iterate is not the last. @p r and @p u serve as workspace during the
 * solve: they must not alias @p q or @p mu. An assembled N is checked like M in
 * nsd_fc3d_apgd.
 */
NSD_API NsdStatus nsd_fc_apgd_operator(const NsdDelassus* op, int dim, const double* q,
                                       const double* mu, double* r, double* u,
                                       const NsdSolverOptions* options, NsdReport* report,
                                       double* siconos_error);

/**
 * APGD with the De Saxcé fixed point of nsd_fc3d_apgd on an operator (assembled
 * or matrix-free, e.g. from nsd_delassus_factored): the Coulomb answer of the
 * FC3D problem u = N r + q, r in the cones of coefficients mu[nc], without W
 * ever assembled. report->residual and the status use the Siconos FC3D error
 * of the returned r (u = N r + q recomputed with one more product). The
 * Kernel's FrictionContact(3) calls it for the contacts of a ContactManager.
 */
NSD_API NsdStatus nsd_fc3d_apgd_operator(const NsdDelassus* op, const double* q, const double* mu,
                                         double* r, double* u, const NsdSolverOptions* options,
                                         NsdReport* report);

#ifdef __cplusplus
}
#endif
#endif
