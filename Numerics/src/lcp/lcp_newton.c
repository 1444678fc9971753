/*
 * Semismooth Newton method for the LCP, on the equation Phi(z) = 0 with
 *     Phi_i(z) = phi(z_i, w_i),  w = M z + q,
 * phi being the Fischer-Burmeister function phi(a,b) = a + b - sqrt(a^2 + b^2)
 * (A. Fischer, "A special Newton-type optimization method", Optimization 24,
 * 1992) or the min function phi(a,b) = min(a,b) (J.-S. Pang, "Newton's method
 * for B-differentiable equations", Math. Oper. Res. 15, 1990).
 * Globalisation as in T. De Luca, F. Facchinei, C. Kanzow, "A semismooth
 * equation approach to the solution of nonlinear complementarity problems",
 * Math. Programming 75, 1996:
 *   1. H = D_a + D_b M, an element of the generalized Jacobian of Phi;
 *   2. Newton direction H d = -Phi (dense LU, LAPACK);
 *   3. if H is singular, or d is not a descent direction of
 *      theta = 1/2 ||Phi||^2 (grad theta . d > -rho ||d||^p), use d = -H^T Phi;
 *   4. Armijo backtracking t = 1, shrink, shrink^2, ... until
 *      theta(z + t d) <= theta(z) + sigma t grad theta . d;
 *   5. stop when the Siconos LCP error is below tolerance.
 * The direction and the line search may use different reformulations: the
 * "min-FBLSA" variant takes the Newton direction of the min function (exact
 * on the right active set) and does steps 3-4 on the Fischer-Burmeister merit,
 * which is continuously differentiable and whose stationary points are
 * solutions for a P0 M (Facchinei, Kanzow). Where the min function's H is
 * singular (a row of M with a zero column picked, as at z = 0 on lcp_CPS_4),
 * step 2 uses the Fischer-Burmeister Newton direction instead, as the min-FB
 * line-search Newton of Siconos numerics does; the gradient fallback of step 3
 * is d = -grad theta_FB.
 */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lcp/lcp_internal.h"

/* Descent test of step 3 (De Luca, Facchinei, Kanzow 1996: rho > 0, p > 2). */
#define NEWTON_DESCENT_RHO 1e-10
#define NEWTON_DESCENT_P 2.1
/* Reciprocal condition number under which H counts as singular. */
#define NEWTON_RCOND_MIN 1e-14
/* 1/sqrt(2): Fischer-Burmeister scalings at the kink (0,0) are 1 - 1/sqrt(2). */
#define NEWTON_INV_SQRT2 0.70710678118654752440

/* Phi(z) and the diagonal scalings of H = D_a + D_b M, from z and w. */
static void merit(NsdNewtonMerit kind, int n, const double* z, const double* w, double* phi,
                  double* da, double* db) {
  for (int i = 0; i < n; ++i) {
    const double a = z[i], b = w[i];
    if (kind == NSD_MERIT_MIN) {
      // min(a, b): the row of whichever is smaller (z on ties)
      if (a <= b) {
        phi[i] = a;
        da[i] = 1.0;
        db[i] = 0.0;
      } else {
        phi[i] = b;
        da[i] = 0.0;
        db[i] = 1.0;
      }
      continue;
    }

    // Fischer-Burmeister, written without cancellation when a + b > 0
    const double s = hypot(a, b);
    phi[i] = a + b > 0.0 ? 2.0 * a * b / (a + b + s) : a + b - s;
    if (s > 0.0) {
      da[i] = 1.0 - a / s;
      db[i] = 1.0 - b / s;
    } else {
      // at (0,0): the generalized gradient along the direction (1,1)/sqrt(2)
      da[i] = 1.0 - NEWTON_INV_SQRT2;
      db[i] = 1.0 - NEWTON_INV_SQRT2;
    }
  }
}

static double half_norm2(int n, const double* x) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  return 0.5 * s;
}

/* Solves (D_a + D_b M) d = -phi with LU in h (n x n, column-major); returns 0
 * when the matrix is singular or nearly so, or d is not finite. */
static int newton_direction(int n, const double* md, const double* da, const double* db,
                            const double* phi, double* h, lapack_int* ipiv, double* d) {
  const size_t nn = (size_t)n;
  for (size_t j = 0; j < nn; ++j)
    for (size_t i = 0; i < nn; ++i) h[i + j * nn] = db[i] * md[i + j * nn] + (i == j ? da[i] : 0.0);
  double rcond = 0.0;
  if (nsd_dense_lu_factor(h, n, ipiv, &rcond) != 0 || !(rcond > NEWTON_RCOND_MIN)) return 0;
  for (size_t i = 0; i < nn; ++i) d[i] = -phi[i];
  return nsd_dense_lu_solve(h, n, ipiv, d, 1) == 0 && nsd_all_finite(d, nn);
}

/* Number of n-vectors newton_run needs. */
#define NEWTON_VECTORS 13

/* The iterations, on allocated workspace (see newton_solve): md is the dense
 * M, h room for H and its LU, vec NEWTON_VECTORS n doubles, ipiv n pivots.
 * dir is the reformulation giving H and the Newton direction, search the one
 * whose theta the descent test, the gradient fallback and the line search use. */
static NsdStatus newton_run(const NsdLcp* problem, double* z, double* w,
                            const NsdSolverOptions* opt, NsdReport* report, NsdNewtonMerit dir,
                            NsdNewtonMerit search, const double* md, double* h, double* vec,
                            lapack_int* ipiv) {
  NsdStatus status = NSD_OK;
  const int n = problem->n;
  const size_t nn = (size_t)n;
  const double* q = problem->q;
  double* phi = vec;  // Phi of dir, and its scalings
  double* da = vec + nn;
  double* db = vec + 2 * nn;
  double* psi = vec + 3 * nn;  // Phi of search, and its scalings
  double* ea = vec + 4 * nn;
  double* eb = vec + 5 * nn;
  double* d = vec + 6 * nn;
  double* grad = vec + 7 * nn;
  double* zt = vec + 8 * nn;
  double* wt = vec + 9 * nn;
  double* psit = vec + 10 * nn;
  double* eat = vec + 11 * nn;
  double* ebt = vec + 12 * nn;
  const double qnorm = nsd_lcpi_norm(n, q);

  // initial point
  nsd_lcpi_product_dense(n, md, q, z, w);
  double error = nsd_lcpi_error_zw(n, z, w, qnorm);
  merit(dir, n, z, w, phi, da, db);
  merit(search, n, z, w, psi, ea, eb);
  double theta = half_norm2(n, psi);

  for (int iter = 1; iter <= opt->max_iterations && !(error <= opt->tolerance); ++iter) {
    // 1. grad theta = (E_a + E_b M)^T Psi, E the scalings of search
    for (size_t j = 0; j < nn; ++j) {
      double g = ea[j] * psi[j];
      const double* col = md + j * nn;
      for (size_t i = 0; i < nn; ++i) g += eb[i] * col[i] * psi[i];
      grad[j] = g;
    }

    // 2. Newton direction of dir; if its H is singular and search differs,
    //    the Newton direction of search
    int newton_ok = newton_direction(n, md, da, db, phi, h, ipiv, d);
    if (!newton_ok && search != dir) newton_ok = newton_direction(n, md, ea, eb, psi, h, ipiv, d);

    // 3. descent test; else the steepest descent direction of theta
    double slope = 0.0;
    if (newton_ok) {
      for (int i = 0; i < n; ++i) slope += grad[i] * d[i];
      const double dnorm = nsd_lcpi_norm(n, d);
      newton_ok = slope <= -NEWTON_DESCENT_RHO * pow(dnorm, NEWTON_DESCENT_P);
    }

    // 4. Armijo line search, first along the Newton direction, then the gradient
    int accepted = 0;
    for (int attempt = newton_ok ? 0 : 1; attempt < 2 && !accepted; ++attempt) {
      if (attempt == 1) {
        slope = 0.0;
        for (int i = 0; i < n; ++i) {
          d[i] = -grad[i];
          slope -= grad[i] * grad[i];
        }
        if (!(slope < 0.0)) break;
      }
      double t = 1.0;
      for (int ls = 0; ls < opt->newton.max_line_search; ++ls) {
        for (int i = 0; i < n; ++i) zt[i] = z[i] + t * d[i];
        nsd_lcpi_product_dense(n, md, q, zt, wt);
        merit(search, n, zt, wt, psit, eat, ebt);
        const double theta_t = half_norm2(n, psit);
        if (theta_t <= theta + opt->newton.armijo_sigma * t * slope) {
          accepted = 1;
          break;
        }
        t *= opt->newton.step_shrink;
      }
    }
    report->iterations = iter;
    if (!accepted) {
      status = nsd_report_fail(report, NSD_FAILED,
                               "line search failed at iteration %d (theta %.3e, error %.3e): "
                               "no Armijo step along the Newton or the gradient direction",
                               iter, theta, error);
      break;
    }

    // 5. move, then both reformulations at the new point and the error measure
    memcpy(z, zt, nn * sizeof *z);
    memcpy(w, wt, nn * sizeof *w);
    memcpy(psi, psit, nn * sizeof *psi);
    memcpy(ea, eat, nn * sizeof *ea);
    memcpy(eb, ebt, nn * sizeof *eb);
    merit(dir, n, z, w, phi, da, db);
    theta = half_norm2(n, psi);
    error = nsd_lcpi_error_zw(n, z, w, qnorm);
    nsd_report_record(report, error);
    if (!isfinite(error)) {
      status = nsd_report_fail(report, NSD_FAILED, "diverged at iteration %d", iter);
      break;
    }
    if (!(error <= opt->tolerance) && nsd_time_up(report, opt->time_limit)) {
      status =
          nsd_report_fail(report, NSD_MAX_ITERATIONS, "time limit %g s reached after %d iterations",
                          opt->time_limit, iter);
      break;
    }
  }

  // the returned z, its w and its error
  report->residual = nsd_lcp_error(problem, z, w);
  if (status == NSD_OK || report->residual <= opt->tolerance)
    status = nsd_report_finish(report, opt->tolerance);
  return status;
}

/* Checks of the Newton options, workspace, then the iterations; name is the
 * solver name in the report. */
static NsdStatus newton_solve(const char* name, NsdNewtonMerit dir, NsdNewtonMerit search,
                              const NsdLcp* problem, double* z, double* w,
                              const NsdSolverOptions* options, NsdReport* report) {
  NsdReport own;
  if (!report) report = nsd_lcpi_own_report(&own);
  NsdSolverOptions opt;
  NsdStatus status = nsd_lcpi_begin(name, problem, z, w, options, &opt, report);
  if (status != NSD_OK) return status;
  if (dir != NSD_MERIT_MIN && dir != NSD_MERIT_FISCHER_BURMEISTER)
    return nsd_report_fail(report, NSD_BAD_INPUT, "newton.merit=%d, unknown", (int)dir);
  if (opt.newton.max_line_search < 1)
    return nsd_report_fail(report, NSD_BAD_INPUT, "newton.max_line_search=%d, expected >= 1",
                           opt.newton.max_line_search);
  if (!(opt.newton.armijo_sigma > 0.0 && opt.newton.armijo_sigma < 1.0))
    return nsd_report_fail(report, NSD_BAD_INPUT, "newton.armijo_sigma=%g, not in (0,1)",
                           opt.newton.armijo_sigma);
  if (!(opt.newton.step_shrink > 0.0 && opt.newton.step_shrink < 1.0))
    return nsd_report_fail(report, NSD_BAD_INPUT, "newton.step_shrink=%g, not in (0,1)",
                           opt.newton.step_shrink);
  const int n = problem->n;
  const size_t nn = (size_t)n;

  // workspace: dense M and H, vectors, pivots
  double* md = nsd_lcpi_dense_copy(problem->M);
  double* h = malloc(nn * nn * sizeof *h);
  double* vec = malloc(NEWTON_VECTORS * nn * sizeof *vec);
  lapack_int* ipiv = malloc(nn * sizeof *ipiv);
  if (md && h && vec && ipiv)
    status = newton_run(problem, z, w, &opt, report, dir, search, md, h, vec, ipiv);
  else
    status = nsd_report_fail(report, NSD_FAILED, "out of memory (Newton, n=%d)", n);
  free(md);
  free(h);
  free(vec);
  free(ipiv);
  return status;
}

NsdStatus nsd_lcp_newton(const NsdLcp* problem, double* z, double* w,
                         const NsdSolverOptions* options, NsdReport* report) {
  const NsdNewtonMerit kind = options ? options->newton.merit : NSD_MERIT_FISCHER_BURMEISTER;
  return newton_solve(kind == NSD_MERIT_MIN ? "newton_min" : "newton_fb", kind, kind, problem, z, w,
                      options, report);
}

/* The named variants fix the merit whatever options->newton.merit says. */
NsdStatus nsd_lcp_newton_fb(const NsdLcp* problem, double* z, double* w,
                            const NsdSolverOptions* options, NsdReport* report) {
  return newton_solve("newton_fb", NSD_MERIT_FISCHER_BURMEISTER, NSD_MERIT_FISCHER_BURMEISTER,
                      problem, z, w, options, report);
}

NsdStatus nsd_lcp_newton_min(const NsdLcp* problem, double* z, double* w,
                             const NsdSolverOptions* options, NsdReport* report) {
  return newton_solve("newton_min", NSD_MERIT_MIN, NSD_MERIT_MIN, problem, z, w, options, report);
}

NsdStatus nsd_lcp_newton_min_fblsa(const NsdLcp* problem, double* z, double* w,
                                   const NsdSolverOptions* options, NsdReport* report) {
  return newton_solve("newton_min_fblsa", NSD_MERIT_MIN, NSD_MERIT_FISCHER_BURMEISTER, problem, z,
                      w, options, report);
}
