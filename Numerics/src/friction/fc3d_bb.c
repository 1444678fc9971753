/* Projected gradient with Barzilai-Borwein steps for FC3D:
 *   min f(r) = 1/2 r^T M r + qs^T r  over the product of friction cones,
 * the spectral projected gradient of Birgin, Martínez and Raydan (SIAM J.
 * Optim. 10(4), 2000): the search direction d = Pi_K(r - alpha g) - r with
 * the Barzilai-Borwein step alpha = s^T s / s^T y (J. Barzilai, J. M. Borwein,
 * "Two-point step size gradient methods", IMA J. Numer. Anal. 8, 1988), and
 * the non-monotone line search of Grippo, Lampariello and Lucidi (SIAM J.
 * Numer. Anal. 23(4), 1986) against the largest f of the last bb.memory
 * iterates. As APGD, it solves the cone complementarity relaxation with q_n
 * shifted by s = mu ||u_T||, updating s (the De Saxcé fixed point, Acary et
 * al. 2011) until the Siconos error reaches the tolerance.
 *
 * Cost: one product M d per iteration (f is quadratic, so the line search
 * along d needs no further product), plus a fresh M r every
 * BB_REFRESH_PERIOD iterations to stop round-off drift in M r. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "friction/fc_cone_internal.h"

/* Line search: at most this many reductions, each by a factor clamped to
 * [BB_SHRINK_MIN, BB_SHRINK_MAX] around the exact minimiser on the line. */
#define BB_MAX_LINE_SEARCH 40
#define BB_SHRINK_MIN 0.1
#define BB_SHRINK_MAX 0.5
/* Step bounds relative to 1/L_0. */
#define BB_STEP_RANGE 1e10
/* Iterations between two fresh products M r. */
#define BB_REFRESH_PERIOD 50
/* See APGD_DESAXCE_RATIO in fc3d_apgd.c. */
#define BB_DESAXCE_RATIO 0.3

NsdStatus nsd_fc3d_bb(const NsdFc* problem, double* r, double* u, const NsdSolverOptions* options,
                      NsdReport* report) {
  NsdReport local;
  NsdReport* rep = report ? report : &local;
  if (!report) local.history = NULL;
  NsdSolverOptions opts;
  if (nsd_solver_begin("bb", options, &opts, rep) != NSD_OK) return NSD_BAD_INPUT;
  const NsdSolverOptions* o = &opts;

  // reject bad input before allocating
  if (!nsd_fc_check(problem, rep)) return rep->status;
  if (problem->dim != 3)
    return nsd_report_fail(rep, NSD_BAD_INPUT, "BB (fc3d): dimension %d, expected 3", problem->dim);
  if (o->bb.memory < 1 || !(o->bb.sigma > 0.0 && o->bb.sigma < 1.0))
    return nsd_report_fail(rep, NSD_BAD_INPUT,
                           "BB: memory = %d (expected >= 1), sigma = %g (expected in (0,1))",
                           o->bb.memory, o->bb.sigma);
  int nc = problem->nc, m = 3 * nc;
  if (m > 0 && (!r || !u)) return nsd_report_fail(rep, NSD_BAD_INPUT, "BB: r or u is NULL");
  if (o->warm_start && !nsd_all_finite(r, (size_t)m))
    return nsd_report_fail(rep, NSD_BAD_INPUT, "BB: warm-start r is not finite");
  if (!nsd_fcc_check_psd(problem->M, 3, "BB", rep)) return rep->status;
  if (m == 0) {
    rep->residual = 0.0;
    return nsd_report_finish(rep, o->tolerance);
  }

  // workspace: x, Mx, g, d, Md, qs and the monitor's four vectors; f history
  int nt = nsd_fcc_threads(o->threads);
  const double* mu = problem->mu;
  NsdDelassus dop = {.size = m, .n_dof = 0, .assembled = problem->M};
  NsdFccOperator op;
  double* block = malloc(10 * (size_t)m * sizeof *block);
  double* fhist = malloc((size_t)o->bb.memory * sizeof *fhist);
  if (!block || !fhist || nsd_fcc_operator_init(&op, &dop, nt) != NSD_OK) {
    free(block);
    free(fhist);
    return nsd_report_fail(rep, NSD_FAILED, "BB: out of memory, m = %d", m);
  }
  double *x = block, *mx = x + m, *g = mx + m, *d = g + m, *md = d + m, *qs = md + m;
  NsdFccMonitor mon = {.dim = 3,
                       .nc = nc,
                       .m = m,
                       .nt = nt,
                       .mu = mu,
                       .qs = qs,
                       .q_true = problem->q,
                       .w = qs + m,
                       .u = qs + 2 * m,
                       .best = qs + 3 * m,
                       .nbest = qs + 4 * m,
                       .best_value = INFINITY};
  mon.q_norm = nsd_fcc_norm(problem->q, m, nt);

  // start point x_0 = Pi_K(r) or 0, and alpha_0 = 1/L_0 with
  // L_0 = ||M (x_0 - 1)|| / ||x_0 - 1|| (as APGD)
  if (o->warm_start) {
    memcpy(x, r, (size_t)m * sizeof *x);
    nsd_fcc_project(3, nc, mu, x, nt);
    nsd_fcc_operator_apply(&op, x, mx);
  } else {
    memset(x, 0, (size_t)m * sizeof *x);
    memset(mx, 0, (size_t)m * sizeof *mx);
  }
  for (int i = 0; i < m; ++i) d[i] = x[i] - 1.0;
  double dn = nsd_fcc_norm(d, m, nt);
  if (!(dn > 0.0)) {
    for (int i = 0; i < m; ++i) d[i] = 1.0;
    dn = sqrt((double)m);
  }
  nsd_fcc_operator_apply(&op, d, md);
  double L0 = nsd_fcc_norm(md, m, nt) / dn;
  if (!(L0 > 0.0 && isfinite(L0))) L0 = 1.0;
  double alpha_min = 1.0 / (L0 * BB_STEP_RANGE), alpha_max = BB_STEP_RANGE / L0;
  double alpha = 1.0 / L0;

  int diverged = 0, done = 0, since_refresh = 0;
  while (!done && !diverged) {
    // De Saxcé shift from the current iterate: qs = q + mu ||u_T|| e_n
    nsd_fcc_axpby(1.0, mx, 1.0, problem->q, mon.u, m, nt);
    nsd_fcc_desaxce_shift(3, nc, mu, problem->q, mon.u, qs, nt);
    mon.qs_norm = nsd_fcc_norm(qs, m, nt);
    nsd_fcc_axpby(1.0, mx, 1.0, qs, g, m, nt);
    double value = nsd_fcc_monitor_eval(&mon, x, mx);
    if (!isfinite(value)) {
      diverged = 1;
      break;
    }
    if (mon.best_value <= o->tolerance) break;

    // f measured from the current point (only differences matter); new history
    double f = 0.0;
    int nhist = 1, head = 0;
    fhist[0] = f;

    int inner_done = 0, first = rep->iterations;
    while (!inner_done && rep->iterations < o->max_iterations && !nsd_time_up(rep, o->time_limit)) {
      rep->iterations++;

      // (1) direction d = Pi_K(x - alpha g) - x, and M d
      nsd_fcc_project_step(3, nc, mu, x, alpha, g, d, nt);
      nsd_fcc_axpby(1.0, d, -1.0, x, d, m, nt);
      nsd_fcc_operator_apply(&op, d, md);
      double gd = nsd_fcc_dot(g, d, m, nt), dmd = nsd_fcc_dot(d, md, m, nt);
      double dd = nsd_fcc_dot(d, d, m, nt);
      if (!(dd > 0.0)) {
        // x is a fixed point of the projected step: the CCP is solved for this s
        inner_done = 2;
        break;
      }

      // (2) non-monotone line search: f(x + l d) <= max of the last f + sigma l g^T d,
      //     with f(x + l d) = f + l g^T d + l^2/2 d^T M d exactly; when round-off
      //     makes g^T d >= 0 (d at the noise level of the projection) the full
      //     step is taken
      double fref = fhist[0];
      for (int k = 1; k < nhist; ++k) fref = fmax(fref, fhist[k]);
      double lambda = 1.0, ftrial = f + gd + 0.5 * dmd;
      for (int ls = 0;
           gd < 0.0 && ls < BB_MAX_LINE_SEARCH && ftrial > fref + o->bb.sigma * lambda * gd; ++ls) {
        double lq = dmd > 0.0 ? -gd / dmd : BB_SHRINK_MAX * lambda;
        lambda = fmin(fmax(lq, BB_SHRINK_MIN * lambda), BB_SHRINK_MAX * lambda);
        ftrial = f + lambda * gd + 0.5 * lambda * lambda * dmd;
      }

      // (3) x <- x + lambda d, M x <- M x + lambda M d (or a fresh product)
      nsd_fcc_axpby(1.0, x, lambda, d, x, m, nt);
      if (++since_refresh >= BB_REFRESH_PERIOD) {
        nsd_fcc_operator_apply(&op, x, mx);
        since_refresh = 0;
      } else {
        nsd_fcc_axpby(1.0, mx, lambda, md, mx, m, nt);
      }
      f = ftrial;
      head = (head + 1) % o->bb.memory;
      fhist[head] = f;
      if (nhist < o->bb.memory) nhist++;

      // (4) Barzilai-Borwein step: s = lambda d, y = lambda M d, alpha = s^T s / s^T y
      alpha = dmd > 0.0 ? fmin(fmax(dd / dmd, alpha_min), alpha_max) : alpha_max;

      // (5) residuals, best iterate, stopping tests
      nsd_fcc_axpby(1.0, mx, 1.0, qs, g, m, nt);
      value = nsd_fcc_monitor_eval(&mon, x, mx);
      nsd_report_record(rep, value);
      if (!isfinite(value)) {
        diverged = 1;
        break;
      }
      if (mon.best_value <= o->tolerance) {
        done = 1;
        break;
      }
      if (mon.own <= BB_DESAXCE_RATIO * mon.coulomb) inner_done = 1;
    }
    // stop on the budget, or when a round could not move at all
    if (!inner_done || (inner_done == 2 && rep->iterations == first + 1)) done = 1;
    // next De Saxcé round from the best iterate (fresh product)
    if (!done && !diverged) {
      memcpy(x, mon.best, (size_t)m * sizeof *x);
      memcpy(mx, mon.nbest, (size_t)m * sizeof *mx);
    }
  }

  // return the best iterate with the library's own Siconos error
  memcpy(r, mon.best, (size_t)m * sizeof *r);
  nsd_fcc_operator_free(&op);
  free(block);
  free(fhist);
  rep->residual = nsd_fc_error(problem, r, u);
  if (diverged)
    return nsd_report_fail(rep, NSD_FAILED, "BB: non-finite iterate after %d iterations",
                           rep->iterations);
  if (nsd_time_up(rep, o->time_limit) && rep->residual > o->tolerance)
    nsd_report_fail(rep, NSD_MAX_ITERATIONS, "BB: time limit %g s reached, error %.3e",
                    o->time_limit, rep->residual);
  return nsd_report_finish(rep, o->tolerance);
}
