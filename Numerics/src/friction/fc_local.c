/*
 * One-contact friction problems: u = W r + q, r in K_mu, De Saxce's
 * u + mu ||u_T|| e_n in K*_mu, orthogonal to r.
 *
 * Closed forms first (they are exact, and most contacts of a converging
 * Gauss-Seidel sweep fall in them):
 *   mu = 0       r = (max(0, -q_n / W_nn), 0, 0);
 *   q_n >= 0     take-off, r = 0 (u = q is admissible: u_n >= 0);
 *   stick        r = -W^-1 q when it lies in K_mu (then u = 0).
 * A sliding contact is solved iteratively by one of
 *   - the projection fixed point r <- Pi_K(r - rho (u + mu ||u_T|| e_n)),
 *     rho = 1 / lambda_max(W) (a projected-gradient step on the block);
 *   - the Alart-Curnier semismooth Newton method on
 *       Phi_n = r_n - max(0, r_n - rho_n u_n),
 *       Phi_T = r_T - Pi_{D(mu max(0, r_n - rho_n u_n))}(r_T - rho_t u_T),
 *     with an element of its generalised Jacobian and an Armijo line search
 *     on 1/2 ||Phi||^2;
 *   - the Fischer-Burmeister semismooth Newton method for second-order cone
 *     complementarity on the sqrt(mu)-scaled images of r and u + mu ||u_T|| e_n
 *     in the Lorentz cone (rho = 1), same line search.
 * Both maps and their Jacobians (blocks a = dPhi/dr, b = dPhi/du, so that
 * J = a + b W) are those of the global Newton solvers: fc_maps.c.
 * Both Newton methods fall back to projection steps from their best iterate
 * when a step fails (singular Jacobian, no descent).
 */
#include <math.h>
#include <string.h>

#include "friction/fc_gs_internal.h"
#include "friction/fc_local.h"
#include "friction/fc_maps.h"
#include "matrix/dense_lu.h"

/* Armijo sufficient-decrease constant and the cap on step halvings. */
#define FCL_ARMIJO_SIGMA 1e-4
#define FCL_MAX_HALVINGS 30
/* A pivot below this times the largest entry makes a 2x2 or 3x3 system singular. */
#define FCL_SINGULAR 1e-14

/* ---- small dense helpers ----------------------------------------------------- */

/* sqrt(x^2 + y^2): the magnitudes met here are far from overflow and
 * underflow, where hypot's care costs several times more. */
static inline double norm2(double x, double y) {
  return sqrt(x * x + y * y);
}

/* u = W r + q for a dim x dim column-major W. */
static void local_velocity(int dim, const double* W, const double* q, const double* r, double* u) {
  for (int i = 0; i < dim; ++i) {
    double s = q[i];
    for (int j = 0; j < dim; ++j) s += W[i + dim * j] * r[j];
    u[i] = s;
  }
}

double nsd_fcl_error(int dim, const double* W, const double* q, double mu, const double* r) {
  double u[3] = {0.0, 0.0, 0.0}, q2 = 0.0;
  local_velocity(dim, W, q, r, u);
  for (int k = 0; k < dim; ++k) q2 += q[k] * q[k];
  return nsd_fc_siconos_error(dim, 1, &mu, sqrt(q2), r, u);
}

/* 3D stick by the cofactors of W when W is safely regular: 1 and r = -W^-1 q
 * when that lies in K_mu, 0 when it does not; -1 when W is nearly singular
 * (then the pivoting solve decides). */
static int stick3(const double* W, const double* q, double mu, double* r) {
  const double a00 = W[0], a10 = W[1], a20 = W[2], a01 = W[3], a11 = W[4], a21 = W[5], a02 = W[6],
               a12 = W[7], a22 = W[8];
  const double c00 = a11 * a22 - a12 * a21, c01 = a12 * a20 - a10 * a22,
               c02 = a10 * a21 - a11 * a20;
  const double det = a00 * c00 + a01 * c01 + a02 * c02;
  double amax = fabs(a00);
  for (int e = 1; e < 9; ++e) {
    const double x = fabs(W[e]);
    if (x > amax) amax = x;  // (not fmax: a libm call here, on the sweep's hot path)
  }
  // well away from singular: |det| above a margin of amax^3
  if (!(fabs(det) > 1e-8 * amax * amax * amax)) return -1;
  const double inv = -1.0 / det;
  // x = -W^-1 q = -adj(W) q / det
  const double x0 =
      inv * (c00 * q[0] + (a02 * a21 - a01 * a22) * q[1] + (a01 * a12 - a02 * a11) * q[2]);
  if (!(x0 > 0.0)) return 0;
  const double x1 =
      inv * (c01 * q[0] + (a00 * a22 - a02 * a20) * q[1] + (a02 * a10 - a00 * a12) * q[2]);
  const double x2 =
      inv * (c02 * q[0] + (a01 * a20 - a00 * a21) * q[1] + (a00 * a11 - a01 * a10) * q[2]);
  if (!(norm2(x1, x2) <= mu * x0)) return 0;
  r[0] = x0;
  r[1] = x1;
  r[2] = x2;
  return 1;
}

/* Closed forms: frictionless, take-off, stick. Returns 1 and sets r when one applies. */
static int closed_form(int dim, const double* W, const double* q, double mu, double* r) {
  // frictionless: the normal LCP of one unknown
  if (mu == 0.0) {
    const double rn = -q[0] / W[0];
    r[0] = rn > 0.0 ? rn : 0.0;  // NaN: 0, as fmax (a libm call, hot in the overlap recovery)
    for (int k = 1; k < dim; ++k) r[k] = 0.0;
    return 1;
  }
  // take-off: r = 0 and u = q with q_n >= 0
  if (q[0] >= 0.0) {
    for (int k = 0; k < dim; ++k) r[k] = 0.0;
    return 1;
  }
  // stick: W r = -q with r inside the cone (3D: by cofactors, unless nearly singular)
  if (dim == 3) {
    const int stick = stick3(W, q, mu, r);
    if (stick >= 0) return stick;
  }
  double A[9], x[3];
  int piv[3];
  memcpy(A, W, (size_t)(dim * dim) * sizeof *A);
  for (int i = 0; i < dim; ++i) x[i] = -q[i];
  if (nsd_dense_small_factor(dim, A, dim, piv, FCL_SINGULAR) == 0) {
    nsd_dense_small_solve(dim, A, dim, piv, x);
    const double xt = dim == 3 ? norm2(x[1], x[2]) : fabs(x[1]);
    if (x[0] > 0.0 && xt <= mu * x[0]) {
      memcpy(r, x, (size_t)dim * sizeof *r);
      return 1;
    }
  }
  return 0;
}

/* ---- projection fixed point --------------------------------------------------- */

/* Up to max_iterations steps r <- Pi_K(r - rho (u + mu ||u_T|| e_n)) from r;
 * keeps the best iterate in r and returns its error. */
static double projection_steps(int dim, const double* W, const double* q, double mu, double* r,
                               double tolerance, int max_iterations, double error) {
  const double rho = 1.0 / nsd_fcgs_block_lambda_max(dim, W);
  double x[3], u[3];
  memcpy(x, r, (size_t)dim * sizeof *x);
  for (int it = 0; it < max_iterations && error > tolerance; ++it) {
    local_velocity(dim, W, q, x, u);
    const double ut = dim == 3 ? norm2(u[1], u[2]) : fabs(u[1]);
    x[0] -= rho * (u[0] + mu * ut);
    for (int k = 1; k < dim; ++k) x[k] -= rho * u[k];
    nsd_fcc_project_block(dim, mu, x);
    const double e = nsd_fcl_error(dim, W, q, mu, x);
    if (e < error) {
      error = e;
      memcpy(r, x, (size_t)dim * sizeof *r);
    }
  }
  return error;
}

/* ---- semismooth Newton driver --------------------------------------------------- */

typedef struct LocalNewton {
  NsdFcLocalSolver kind;
  const double* W;
  const double* q;
  double mu, rho_n, rho_t;
} LocalNewton;

/* Phi(r) of the chosen map with u = W r + q and, when J is non-NULL, its
 * Jacobian in r (column-major 3x3), J = a + b W. */
static void newton_function(const LocalNewton* ln, const double* r, double* phi, double* J) {
  double u[3], a[9], b[9];
  local_velocity(3, ln->W, ln->q, r, u);
  if (ln->kind == NSD_FC_LOCAL_FB_NEWTON)
    nsd_fcm_fb(r, u, ln->mu, 1.0, phi, J ? a : NULL, J ? b : NULL);
  else
    nsd_fcm_ac(r, u, ln->mu, ln->rho_n, ln->rho_t, phi, J ? a : NULL, J ? b : NULL);
  if (J) nsd_fcm_jacobian(a, b, ln->W, J);
}

/* Newton steps with Armijo backtracking on 1/2 ||Phi||^2 from r; the best
 * iterate (by local error) is left in r and its error returned. */
static double newton_steps(const LocalNewton* ln, double* r, double tolerance, int max_iterations,
                           double error) {
  double x[3], phi[3], J[9];
  int piv[3];
  memcpy(x, r, sizeof x);
  for (int it = 0; it < max_iterations && error > tolerance; ++it) {
    // Newton direction: J d = -Phi
    newton_function(ln, x, phi, J);
    const double psi = 0.5 * (phi[0] * phi[0] + phi[1] * phi[1] + phi[2] * phi[2]);
    if (!(psi > 0.0)) break;
    double d[3] = {-phi[0], -phi[1], -phi[2]};
    if (nsd_dense_small_factor(3, J, 3, piv, FCL_SINGULAR) != 0) break;
    nsd_dense_small_solve(3, J, 3, piv, d);

    // Armijo backtracking: psi(x + t d) <= (1 - 2 sigma t) psi(x)
    double t = 1.0, trial[3], phit[3];
    int accepted = 0;
    for (int h = 0; h <= FCL_MAX_HALVINGS; ++h, t *= 0.5) {
      for (int k = 0; k < 3; ++k) trial[k] = x[k] + t * d[k];
      newton_function(ln, trial, phit, NULL);
      const double psit = 0.5 * (phit[0] * phit[0] + phit[1] * phit[1] + phit[2] * phit[2]);
      if (psit <= (1.0 - 2.0 * FCL_ARMIJO_SIGMA * t) * psi) {
        accepted = 1;
        break;
      }
    }
    if (!accepted) break;
    memcpy(x, trial, sizeof x);

    // keep the best iterate
    const double e = nsd_fcl_error(3, ln->W, ln->q, ln->mu, x);
    if (e < error) {
      error = e;
      memcpy(r, x, sizeof x);
    }
  }
  return error;
}

int nsd_fcl_closed_form3(const double* W, const double* q, double mu, double* r) {
  return closed_form(3, W, q, mu, r);
}

double nsd_fcl_solve3(const NsdFcLocalParams* params, const double* W, const double* q, double mu,
                      double* r) {
  // 1. closed forms
  if (closed_form(3, W, q, mu, r)) return nsd_fcl_error(3, W, q, mu, r);
  return nsd_fcl_sliding3(params, W, q, mu, r);
}

double nsd_fcl_sliding3(const NsdFcLocalParams* params, const double* W, const double* q, double mu,
                        double* r) {
  // 2. a sliding contact. The block's own sliding answer first: the normal reaction that
  //    stops the normal velocity, u_n = 0, with the friction mu r_n opposing q_T. It is
  //    exact when W is diagonal (two spheres, a sphere on a plane: their arms lie along
  //    the normal), as u_T = q_T (1 - W_tt mu r_n / ||q_T||) then opposes r_T, sliding
  //    having been decided by the failed stick; a Gauss-Seidel sweep meets it at every
  //    sliding contact of a granular flow, where Newton from the last r took 2-4 steps.
  //    Otherwise Newton starts from r when it is a positive reaction, else from that
  //    answer (a start of lower error but far from r stalled Newton on coupled blocks).
  const double qt = norm2(q[1], q[2]);
  double slide[3];
  slide[0] = -q[0] / W[0];
  slide[1] = qt > 0.0 ? -mu * slide[0] * q[1] / qt : 0.0;
  slide[2] = qt > 0.0 ? -mu * slide[0] * q[2] / qt : 0.0;
  nsd_fcc_project_block(3, mu, slide);
  double error = nsd_fcl_error(3, W, q, mu, slide);
  if (error <= params->tolerance || !(r[0] > 0.0) || !isfinite(r[0] + r[1] + r[2])) {
    memcpy(r, slide, sizeof slide);
    if (error <= params->tolerance) return error;
  } else {
    nsd_fcc_project_block(3, mu, r);
    error = nsd_fcl_error(3, W, q, mu, r);
    if (error <= params->tolerance) return error;
  }

  // 3. the local method
  if (params->solver == NSD_FC_LOCAL_PROJECTION)
    return projection_steps(3, W, q, mu, r, params->tolerance, params->max_iterations, error);
  LocalNewton ln = {params->solver, W, q, mu, 1.0 / W[0], 1.0 / W[0]};
  // Alart-Curnier: rho from the diagonal of the block (normal and mean tangential).
  // Fischer-Burmeister takes rho = 1: its zeros do not depend on rho, and on random
  // blocks rho = 1 / W_nn left more local solves short of the tolerance (275 against
  // 212 of 200,000) with no gain in time on the Capsules problems.
  const double wt = 0.5 * (W[4] + W[8]);
  if (wt > 0.0) ln.rho_t = 1.0 / wt;
  error = newton_steps(&ln, r, params->tolerance, params->max_iterations, error);
  if (error <= params->tolerance) return error;

  // 4. fallback: projection steps from the best Newton iterate
  return projection_steps(3, W, q, mu, r, params->tolerance, params->max_iterations, error);
}

double nsd_fcl_solve2(const double* W, const double* q, double mu, double* r) {
  // take-off, stick, frictionless
  if (closed_form(2, W, q, mu, r)) return nsd_fcl_error(2, W, q, mu, r);

  // sliding with u_t > 0 (r_t = -mu r_n) or u_t < 0 (r_t = mu r_n), u_n = 0:
  // (W_nn -+ mu W_nt) r_n + q_n = 0 and u_t = (W_tn -+ mu W_tt) r_n + q_t
  const double wnn = W[0], wtn = W[1], wnt = W[2], wtt = W[3];
  double best[2] = {0.0, 0.0};
  double best_error = nsd_fcl_error(2, W, q, mu, best);
  for (int s = 0; s < 2; ++s) {
    const double sign = s == 0 ? -1.0 : 1.0; /* r_t = sign mu r_n */
    const double den = wnn + sign * mu * wnt;
    if (!(den > 0.0)) continue;
    const double c[2] = {-q[0] / den, sign * mu * (-q[0] / den)};
    const double ut = (wtn + sign * mu * wtt) * c[0] + q[1];
    // the consistent regime: u_t opposite to r_t
    if (sign * ut <= 0.0) {
      r[0] = c[0];
      r[1] = c[1];
      return nsd_fcl_error(2, W, q, mu, r);
    }
    const double e = nsd_fcl_error(2, W, q, mu, c);
    if (e < best_error) {
      best_error = e;
      best[0] = c[0];
      best[1] = c[1];
    }
  }

  // no regime is consistent (rounding at a regime boundary): the best candidate
  r[0] = best[0];
  r[1] = best[1];
  return best_error;
}
