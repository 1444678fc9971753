/* ADMM on the global friction-contact problem (nsd_gfc.h). With the De Saxcé
 * shift c = b + s, s_a = mu_a ||u_Ta|| e_n frozen, the problem is the convex
 *   min_v 1/2 v^T M v - q^T v  subject to  w = H^T v + c,  w in K*
 * (K* the dual of the Coulomb cones, K_a = {mu_a r_n >= ||r_T||}), whose
 * multiplier of the constraint is the reaction r in K; updating s from
 * u = H^T v + b at every iteration makes a fixed point a Coulomb solution
 * (Acary, Cadoux, Lemaréchal, Malick, ZAMM 2011; the splitting on the local
 * velocity is that of Siconos's gfc3d_ADMM). One iteration, penalty rho:
 *   v' = (M + rho H H^T)^-1 (q + H (r^ + rho (w^ - c))),
 *   x  = H^T v' + c - r^ / rho,
 *   r' = rho Pi_K(-x),   w' = x + r' / rho   (= Pi_K*(x) by Moreau),
 * so that r' is in K, w' in K* and r'^T w' = 0 at every iteration; the
 * residuals are H^T v' + c - w' = (r^ - r') / rho (primal) and
 * rho H (w' - w^) (dual; it is also M v' - q - H r'). M and H stay sparse:
 * M + rho H H^T is assembled in CSC once, analysed once (CHOLMOD, or LU when M
 * is not symmetric) and refactorised only when rho changes; it is regular
 * when M is positive definite on the kernel of H^T, so M itself may be
 * singular. Acceleration with restart on (w, r) (Goldstein, O'Donoghue,
 * Setzer, Baraniuk, SIAM J. Imaging Sci. 7(3), 2014, Alg. 8), dropped for good
 * when the best error stalls; residual balancing of rho on the relative
 * residuals (Boyd et al. 2011, §3.4.1; the square-root step of OSQP). The
 * returned (r, v) is the iterate of least nsd_gfc_error; once that is below
 * the tolerance, r alone is checked as nsd_problem_error sees it (v = M^-1 (q + H r),
 * when M can be factorised): that v is returned when it meets the tolerance, else the
 * internal target is tightened (NSD_GFC_POLISH_ROUNDS times at most). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef NCOMPLEX
#define NCOMPLEX
#endif
#include <cs.h>

#include "friction/fc_cone_internal.h"
#include "gfc/gfc_solver_internal.h"

/* rho changes when one relative residual exceeds this times the other */
#define GADMM_BALANCE 10.0
/* largest factor of one change of rho */
#define GADMM_RHO_STEP 2.0
/* rho stays within [rho_0 / GADMM_RHO_DOWN, rho_0 GADMM_RHO_UP]: the relative dual residual
 * is normalised by ||H r||, which vanishes as contacts open, and then pulls rho down for good
 * (GFC3D_TwoRods1: to rho_0 / 256 and 220 iterations; at most rho_0 / 20: 60) */
#define GADMM_RHO_DOWN 20.0
#define GADMM_RHO_UP 1e8
/* restart when the combined residual grows by more than this factor; a flat one keeps the
 * acceleration (0.999, restart unless it decreases, stopped it in the slow steady drift of
 * r on TwoRods1: 131 iterations instead of 60) */
#define GADMM_RESTART_ETA 1.0
/* acceleration off for good when the best error has not improved for this many iterations */
#define GADMM_STALL 100

/* rho_0: the option, else 1 / mean_j W_jj with the diagonal of W = H^T M^-1 H estimated by
 * W_jj ~ sum_i H_ij^2 / M_ii (rho H H^T then weighs like M on the dofs the contacts touch),
 * else trace(M) / ||H||_F^2 (a zero or negative M_ii under a contact), else 1. */
static double initial_rho(const NsdGfcSystem* s, double option) {
  if (option > 0.0) return option;
  const cs_di* M = (const cs_di*)s->M->csc;
  const cs_di* H = (const cs_di*)s->H->csc;
  double* diag = calloc((size_t)M->n + 1, sizeof *diag);
  double trace = 0.0, h2 = 0.0, wsum = 0.0;
  int usable = diag != NULL;
  for (int j = 0; j < M->n; ++j)
    for (int k = M->p[j]; k < M->p[j + 1]; ++k)
      if (M->i[k] == j) {
        trace += fabs(M->x[k]);
        if (diag) diag[j] += M->x[k];
      }
  for (int j = 0; j < H->n; ++j)
    for (int k = H->p[j]; k < H->p[j + 1]; ++k) {
      double h = H->x[k] * H->x[k];
      h2 += h;
      if (h == 0.0 || !usable) continue;
      if (diag[H->i[k]] > 0.0)
        wsum += h / diag[H->i[k]];
      else
        usable = 0;
    }
  free(diag);
  if (usable && wsum > 0.0) return (double)H->n / wsum;
  if (trace > 0.0 && h2 > 0.0) return trace / h2;
  return 1.0;
}

NsdStatus nsd_gfc_admm(const NsdGfc* problem, double* r, double* u, double* v,
                       const NsdSolverOptions* options, NsdReport* report) {
  NsdReport local;
  NsdSolverOptions opts;
  NsdReport* rep =
      nsd_gfc_solver_begin("admm", "ADMM (gfc)", problem, r, u, options, &opts, report, &local);
  if (!rep) return NSD_BAD_INPUT;
  const NsdSolverOptions* o = &opts;
  if (!(o->admm.rho >= 0.0) || !isfinite(o->admm.rho))
    return nsd_report_fail(rep, NSD_BAD_INPUT, "ADMM (gfc): rho = %g, expected >= 0 (0: automatic)",
                           o->admm.rho);
  const int dim = problem->dim, nc = problem->nc, n = problem->n, m = dim * nc;
  const double* mu = problem->mu;

  // workspace: m-vectors w, w^, w_old, r', r^, r_old, c, x, best r; n-vectors rhs, v, best v,
  // v of r alone
  size_t mm = (size_t)(m > 0 ? m : 1), nn = (size_t)(n > 0 ? n : 1);
  NsdGfcSystem sys;
  double* block = nsd_gfc_solver_workspace(problem, 9 * mm + 4 * nn, &sys, "ADMM (gfc)", rep);
  if (!block) return NSD_FAILED;
  double *w = block, *wh = w + mm, *wold = wh + mm, *rr = wold + mm, *rh = rr + mm;
  double *rold = rh + mm, *c = rold + mm, *x = c + mm, *best_r = x + mm;
  double *rhs = best_r + mm, *vv = rhs + nn, *best_v = vv + nn, *vr = best_v + nn;

  double rho = initial_rho(&sys, o->admm.rho), rho0 = rho;
  if (nsd_gfc_system_factor(&sys, rho, NULL, 0.0, rep) != NSD_OK) {
    char why[sizeof rep->message];
    memcpy(why, rep->message, sizeof why);
    nsd_gfc_system_free(&sys);
    free(block);
    return nsd_report_fail(rep, NSD_FAILED,
                           "ADMM (gfc): M + %g H H^T could not be factorised (M singular on the "
                           "kernel of H^T?): %.150s",
                           rho, why);
  }

  // start: r_0 = Pi_K(r) (warm start) or 0, w_0 = 0, s_0 = 0
  if (o->warm_start && m > 0) {
    memcpy(rr, r, (size_t)m * sizeof *rr);
    nsd_fcc_project(dim, nc, mu, rr, 1);
  } else {
    memset(rr, 0, mm * sizeof *rr);
  }
  memset(w, 0, mm * sizeof *w);
  if (m > 0) memcpy(c, problem->b, (size_t)m * sizeof *c);
  memcpy(rh, rr, mm * sizeof *rr);
  memcpy(wh, w, mm * sizeof *w);
  memset(best_r, 0, mm * sizeof *best_r);
  memset(best_v, 0, nn * sizeof *best_v);
  double best = INFINITY, tau = 1.0, combined_old = INFINITY;
  double target = o->tolerance, er = INFINITY;
  int rounds = 0, m_singular = 0, er_fresh = 0;
  int accelerate = 1, best_iteration = 0;

  NsdStatus failed = NSD_OK;
  for (;;) {
    if (nsd_time_up(rep, o->time_limit)) {
      nsd_report_fail(rep, NSD_MAX_ITERATIONS, "ADMM (gfc): time limit %g s reached",
                      o->time_limit);
      break;
    }
    rep->iterations++;
    // (1) v' = (M + rho H H^T)^-1 (q + H (r^ + rho (w^ - c)))
    for (int i = 0; i < m; ++i) x[i] = rh[i] + rho * (wh[i] - c[i]);
    nsd_matrix_gemv(1.0, problem->H, x, 0.0, rhs);
    for (int i = 0; i < n; ++i) vv[i] = problem->q[i] + rhs[i];
    if (nsd_gfc_system_solve(&sys, vv) != NSD_OK) {
      failed = nsd_report_fail(rep, NSD_FAILED, "ADMM (gfc): linear solve failed (rho = %g)", rho);
      break;
    }
    // (2) u = H^T v' + b; x = u + s - r^/rho; r' = rho Pi_K(-x); w' = x + r'/rho
    memcpy(wold, w, mm * sizeof *w);
    memcpy(rold, rr, mm * sizeof *rr);
    if (m > 0) {
      memcpy(u, problem->b, (size_t)m * sizeof *u);
      nsd_matrix_gemv_t(1.0, problem->H, vv, 1.0, u);
    }
    for (int i = 0; i < m; ++i) {
      x[i] = u[i] + (c[i] - problem->b[i]) - rh[i] / rho;
      rr[i] = -x[i];
    }
    nsd_fcc_project(dim, nc, mu, rr, 1);
    double prim2 = 0.0, wdiff2 = 0.0, nw2 = 0.0, nx2 = 0.0;
    for (int i = 0; i < m; ++i) {
      rr[i] *= rho;
      w[i] = x[i] + rr[i] / rho;
      double p = (rh[i] - rr[i]) / rho, d = w[i] - wh[i];
      prim2 += p * p;
      wdiff2 += d * d;
      nw2 += w[i] * w[i];
      nx2 += (u[i] + c[i] - problem->b[i]) * (u[i] + c[i] - problem->b[i]);
    }

    // (3) the Siconos error of (r', v'), best iterate
    double value = nsd_gfc_error(problem, rr, vv, NULL);
    nsd_report_record(rep, value);
    if (!isfinite(value)) {
      failed = nsd_report_fail(
          rep, NSD_FAILED, "ADMM (gfc): non-finite iterate after %d iterations", rep->iterations);
      break;
    }
    if (value < best) {
      best = value;
      best_iteration = rep->iterations;
      memcpy(best_r, rr, mm * sizeof *rr);
      memcpy(best_v, vv, nn * sizeof *vv);
      er_fresh = 0;
    } else if (accelerate && rep->iterations - best_iteration > GADMM_STALL) {
      accelerate = 0;
    }
    // below the target: the error of r alone (v = M^-1 (q + H r), what nsd_problem_error
    // sees) decides; above the tolerance, a tighter target for a few rounds
    if (best <= target) {
      er = nsd_gfc_reaction_check(problem, best_r, vr, &m_singular);
      er_fresh = 1;
      if (m_singular || er <= o->tolerance || rounds >= NSD_GFC_POLISH_ROUNDS) break;
      target = 0.1 * fmin(target, best);
      ++rounds;
    }
    if (rep->iterations >= o->max_iterations) break;

    // (4) De Saxcé shift from u: c = b + mu ||u_T|| e_n
    nsd_fcc_desaxce_shift(dim, nc, mu, problem->b, u, c, 1);

    // relative dual residual rho ||H (w' - w^)|| / ||H r'|| (before w^ moves)
    double dual = 0.0;
    if (o->admm.adaptive && m > 0) {
      for (int i = 0; i < m; ++i) x[i] = w[i] - wh[i];
      nsd_matrix_gemv(rho, problem->H, x, 0.0, rhs);
      dual = nsd_gfc_norm(rhs, n);
      nsd_matrix_gemv(1.0, problem->H, rr, 0.0, rhs);
      dual /= fmax(nsd_gfc_norm(rhs, n), DBL_MIN);
    }

    // (5) acceleration with restart on the combined residual
    double combined = prim2 * rho + rho * wdiff2;
    if (accelerate && combined <= GADMM_RESTART_ETA * combined_old) {
      double tau_new = 0.5 * (1.0 + sqrt(1.0 + 4.0 * tau * tau)), beta = (tau - 1.0) / tau_new;
      for (int i = 0; i < m; ++i) {
        wh[i] = w[i] + beta * (w[i] - wold[i]);
        rh[i] = rr[i] + beta * (rr[i] - rold[i]);
      }
      tau = tau_new;
    } else {
      tau = 1.0;
      memcpy(wh, w, mm * sizeof *w);
      memcpy(rh, rr, mm * sizeof *rr);
    }
    combined_old = combined;

    // (6) residual balancing: primal ||H^T v + c - w|| / max(||H^T v + c||, ||w||),
    //     dual rho ||H (w' - w^)|| / ||H r'||; the multiplier r is not scaled
    if (o->admm.adaptive && m > 0) {
      double prim = sqrt(prim2) / fmax(fmax(sqrt(nx2), sqrt(nw2)), DBL_MIN);
      double scale = 1.0;
      if (prim > GADMM_BALANCE * dual || dual > GADMM_BALANCE * prim)
        scale = fmin(fmax(sqrt(prim / fmax(dual, DBL_MIN)), 1.0 / GADMM_RHO_STEP), GADMM_RHO_STEP);
      double rho_new = fmin(fmax(rho * scale, rho0 / GADMM_RHO_DOWN), rho0 * GADMM_RHO_UP);
      if (rho_new != rho) {
        if (nsd_gfc_system_factor(&sys, rho_new, NULL, 0.0, rep) != NSD_OK) {
          failed = nsd_report_fail(rep, NSD_FAILED,
                                   "ADMM (gfc): M + %g H H^T could not be factorised after %d "
                                   "iterations",
                                   rho_new, rep->iterations);
          break;
        }
        rho = rho_new;
        tau = 1.0;
        combined_old = INFINITY;
        memcpy(wh, w, mm * sizeof *w);
        memcpy(rh, rr, mm * sizeof *rr);
      }
    }
  }

  // the best (r, v) with the library's error; u from it
  if (m > 0) memcpy(r, best_r, (size_t)m * sizeof *r);
  const double* vbest = er_fresh && er <= o->tolerance ? vr : best_v;
  if (v) memcpy(v, vbest, (size_t)n * sizeof *v);
  int lu = sys.lu_fallback;
  rep->residual = nsd_gfc_error(problem, best_r, vbest, u);
  nsd_gfc_system_free(&sys);
  free(block);
  if (failed != NSD_OK) return failed;
  NsdStatus fin = nsd_report_finish(rep, o->tolerance);
  if (lu) {
    size_t len = strlen(rep->message);
    snprintf(rep->message + len, sizeof rep->message - len,
             "%s(ADMM: Cholesky of M + rho H H^T failed, LU used)", len ? " " : "");
  }
  return fin;
}
