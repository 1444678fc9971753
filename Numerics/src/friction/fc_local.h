/**
 * @file fc_local.h
 * @brief One-contact friction problems, the inner solves of the Gauss-Seidel
 *        solvers: find r in K_mu with u = W r + q and
 *        K*_mu ∋ u + mu ||u_T|| e_n _|_ r (W: dim x dim, column-major,
 *        normal component first). Not installed.
 *
 * Every solve first tries the closed forms (frictionless, take-off, stick);
 * only a sliding contact needs the iterative local solver.
 */
#ifndef NSDYN_FC_LOCAL_H
#define NSDYN_FC_LOCAL_H

#include "nsdyn/nsd_fc.h"

#if defined(__GNUC__)
#define NSD_FCL_INTERNAL __attribute__((visibility("hidden")))
#else
#define NSD_FCL_INTERNAL
#endif

/** Settings of a 3D local solve (from options->nsgs). */
typedef struct NsdFcLocalParams {
  NsdFcLocalSolver solver; /**< method used for a sliding contact */
  double tolerance;        /**< on nsd_fcl_error */
  int max_iterations;      /**< Newton steps, or projection steps */
} NsdFcLocalParams;

/**
 * Local Siconos error of r: ||r - Pi(r - u - mu ||u_T|| e_n)|| with u = W r + q,
 * divided by max(||q||, ||r||, ||u||) when that exceeds DBL_EPSILON.
 */
NSD_FCL_INTERNAL double nsd_fcl_error(int dim, const double* W, const double* q, double mu,
                                      const double* r);

/**
 * Solve one 3D contact; r[3] holds the starting point (used by the iterative
 * solvers) and receives the answer. W[0] > 0 is required. Returns the local
 * error of the answer: the best iterate seen when no method reached
 * the tolerance (Newton falls back to projection steps when it fails).
 */
NSD_FCL_INTERNAL double nsd_fcl_solve3(const NsdFcLocalParams* params, const double* W,
                                       const double* q, double mu, double* r);

/**
 * The closed forms of a 3D contact alone (frictionless, take-off, stick):
 * 1 and r[3] set when one applies, else 0 and r untouched. W[0] > 0 is required.
 */
NSD_FCL_INTERNAL int nsd_fcl_closed_form3(const double* W, const double* q, double mu, double* r);

/**
 * The iterative part of nsd_fcl_solve3, for a contact no closed form solves
 * (a sliding one): r[3] holds the starting point and receives the answer.
 * Returns the local error of the answer.
 */
NSD_FCL_INTERNAL double nsd_fcl_sliding3(const NsdFcLocalParams* params, const double* W,
                                         const double* q, double mu, double* r);

/**
 * Solve one 2D contact exactly by enumeration of its four regimes (take-off,
 * stick, slide forwards, slide backwards), r[2] out. W[0] > 0 is required.
 * Returns the local error of the answer.
 */
NSD_FCL_INTERNAL double nsd_fcl_solve2(const double* W, const double* q, double mu, double* r);

#endif
