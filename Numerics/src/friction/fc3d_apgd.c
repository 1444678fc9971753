/* Accelerated projected gradient descent (APGD) for friction contact:
 * Nesterov momentum with Lipschitz backtracking and adaptive restart on
 *   min f(g) = 1/2 g^T N g + q^T g  over the product of friction cones,
 * after H. Mazhar, T. Heyn, D. Negrut, A. Tasora, "Using Nesterov's method to
 * accelerate multibody dynamics with friction and contact", ACM Transactions
 * on Graphics 34(3), 2015 (their Algorithm 2, steps numbered as in issue 3).
 *
 * The minimiser solves the cone complementarity problem (CCP)
 *   K ∋ g ⟂ N g + q ∈ K*,
 * a convex relaxation of Coulomb friction. nsd_fc3d_apgd turns it into a
 * Coulomb solution with the De Saxcé fixed point of Acary, Cadoux,
 * Lemaréchal, Malick ("A formulation of the linear discrete Coulomb friction
 * problem via convex optimization", ZAMM 91(2), 2011): the CCP is solved with
 * q_n shifted by s = mu ||u_T||, s is updated from the answer and APGD is
 * warm-started again, until the Siconos error reaches the tolerance.
 *
 * Cost: one product N x per iteration plus one per backtracking step; N y is
 * never computed, it follows by linearity from N g' and N g. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "friction/fc_cone_internal.h"

/* Lipschitz estimate growth on a failed backtracking test, and decay after
 * each iteration (Mazhar et al. 2015). */
#define APGD_BACKTRACK_GROWTH 2.0
#define APGD_STEP_DECAY 0.9
/* De Saxcé loop: the inner APGD stops to update s once its own CCP residual
 * is below this fraction of the Coulomb (Siconos) error, i.e. once the error
 * left is due to the shift s rather than to the inner solve. */
#define APGD_DESAXCE_RATIO 0.3

/* State of one APGD solve. */
typedef struct Apgd {
  NsdFccOperator op;
  NsdFccMonitor mon;
  int dim, nc, m, nt;
  const double* mu;
  int max_backtracks, adaptive_restart;
  double L;          /* Lipschitz estimate, t = 1/L */
  double* gamma;     /* g_k */
  double* ngamma;    /* N g_k */
  double* y;         /* y_k */
  double* ny;        /* N y_k */
  double* gp;        /* g' = g_{k+1} */
  double* ngp;       /* N g' */
  double* grad;      /* gradient N y + q at y */
  double* block;     /* one allocation for all of the above and the monitor */
} Apgd;

/* How an inner run ended. */
typedef enum ApgdEnd {
  APGD_CONVERGED,  /* the measure of the best iterate <= tolerance */
  APGD_INNER_DONE, /* De Saxcé mode: CCP solved well enough to update s */
  APGD_STOPPED,    /* iteration budget or time limit */
  APGD_DIVERGED    /* a non-finite iterate */
} ApgdEnd;

/* Allocate the state for m = dim*nc unknowns and set up the operator. */
static NsdStatus apgd_init(Apgd* a, const NsdDelassus* d, int dim, const double* mu,
                           const NsdSolverOptions* opt, NsdReport* rep) {
  memset(a, 0, sizeof *a);
  a->dim = dim;
  a->m = d->size;
  a->nc = d->size / dim;
  a->mu = mu;
  a->nt = nsd_fcc_threads(opt->threads);
  a->max_backtracks = opt->apgd.max_backtracks;
  a->adaptive_restart = opt->apgd.adaptive_restart;
  size_t m = (size_t)(a->m > 0 ? a->m : 1);
  a->block = malloc(12 * m * sizeof *a->block);
  if (!a->block) return nsd_report_fail(rep, NSD_FAILED, "APGD: out of memory, m = %d", a->m);
  double* p = a->block;
  double** slots[] = {&a->gamma, &a->ngamma, &a->y, &a->ny, &a->gp, &a->ngp, &a->grad,
                      &a->mon.w, &a->mon.u, &a->mon.best, &a->mon.nbest};
  for (size_t k = 0; k < sizeof slots / sizeof *slots; ++k, p += m) *slots[k] = p;
  if (nsd_fcc_operator_init(&a->op, d, a->nt) != NSD_OK) {
    free(a->block);
    a->block = NULL;
    return nsd_report_fail(rep, NSD_FAILED, "APGD: out of memory for the operator");
  }
  a->mon.dim = dim;
  a->mon.nc = a->nc;
  a->mon.m = a->m;
  a->mon.nt = a->nt;
  a->mon.mu = mu;
  a->mon.best_value = INFINITY;
  return NSD_OK;
}

static void apgd_free(Apgd* a) {
  nsd_fcc_operator_free(&a->op);
  free(a->block);
  a->block = NULL;
}

/*
 * Start point g_0 = Pi_K(r) (warm) or 0, with N g_0 and the first Lipschitz
 * estimate L_0 = ||N (g_0 - g~_0)|| / ||g_0 - g~_0||, g~_0 = (1, ..., 1).
 */
static void apgd_start(Apgd* a, const double* r, int warm) {
  int m = a->m, nt = a->nt;
  if (warm) {
    nsd_fcc_copy(r, a->gamma, m, nt);
    nsd_fcc_project(a->dim, a->nc, a->mu, a->gamma, nt);
    nsd_fcc_operator_apply(&a->op, a->gamma, a->ngamma);
  } else {
    memset(a->gamma, 0, (size_t)m * sizeof *a->gamma);
    memset(a->ngamma, 0, (size_t)m * sizeof *a->ngamma);
  }
  // d = g_0 - 1 (or 1 if g_0 is the ones vector), L_0 = ||N d|| / ||d||
  for (int i = 0; i < m; ++i) a->y[i] = a->gamma[i] - 1.0;
  double dn = nsd_fcc_norm(a->y, m, nt);
  if (!(dn > 0.0)) {
    for (int i = 0; i < m; ++i) a->y[i] = 1.0;
    dn = sqrt((double)m);
  }
  nsd_fcc_operator_apply(&a->op, a->y, a->ny);
  double L = nsd_fcc_norm(a->ny, m, nt) / dn;
  a->L = (L > 0.0 && isfinite(L)) ? L : 1.0;
}

/*
 * APGD iterations from g_0 = a->gamma (with N g_0 in a->ngamma) on the linear
 * term a->mon.qs, until the monitor's measure <= tol, or (De Saxcé mode,
 * desaxce = 1) the CCP residual falls below APGD_DESAXCE_RATIO times the
 * Coulomb error, or the budget (report->iterations < max_iterations) or time
 * runs out. On return a->gamma / a->ngamma hold the best iterate.
 */
static ApgdEnd apgd_run(Apgd* a, double tol, int max_iterations, double time_limit,
                        int desaxce, NsdReport* rep) {
  int m = a->m, nt = a->nt, dim = a->dim, nc = a->nc;
  const double* qs = a->mon.qs;
  ApgdEnd end = APGD_STOPPED;

  // the start point may already do
  double value = nsd_fcc_monitor_eval(&a->mon, a->gamma, a->ngamma);
  if (!isfinite(value)) return APGD_DIVERGED;
  if (a->mon.best_value <= tol) end = APGD_CONVERGED;

  // y_0 = g_0, theta_0 = 1, t = 1/L
  nsd_fcc_copy(a->gamma, a->y, m, nt);
  nsd_fcc_copy(a->ngamma, a->ny, m, nt);
  double theta = 1.0, L = a->L, t = 1.0 / L;

  while (end == APGD_STOPPED && rep->iterations < max_iterations &&
         !nsd_fcc_time_up(rep, time_limit)) {
    rep->iterations++;

    // (1) gradient at y: g = N y + q
    nsd_fcc_axpby(1.0, a->ny, 1.0, qs, a->grad, m, nt);

    // (2) projected step g' = Pi_K(y - t g), and N g'
    nsd_fcc_project_step(dim, nc, a->mu, a->y, t, a->grad, a->gp, nt);
    nsd_fcc_operator_apply(&a->op, a->gp, a->ngp);

    // (3) backtracking while f(g') > f(y) + g^T (g' - y) + L/2 ||g' - y||^2.
    //     f is quadratic, so with d = g' - y the test reads d^T N d > L ||d||^2,
    //     evaluated as (g' - y)^T (N g' - N y) (no cancellation of f values)
    for (int bt = 0; bt < a->max_backtracks; ++bt) {
      double dnd = nsd_fcc_dot_diff(a->gp, a->y, a->ngp, a->ny, m, nt);
      double dd = nsd_fcc_dot_diff(a->gp, a->y, a->gp, a->y, m, nt);
      if (!(dnd > L * dd)) break;
      L *= APGD_BACKTRACK_GROWTH;
      t = 1.0 / L;
      nsd_fcc_project_step(dim, nc, a->mu, a->y, t, a->grad, a->gp, nt);
      nsd_fcc_operator_apply(&a->op, a->gp, a->ngp);
    }

    // (4) theta' = (-theta^2 + theta sqrt(theta^2 + 4)) / 2
    double theta_next = 0.5 * (-theta * theta + theta * sqrt(theta * theta + 4.0));

    // (5) beta = theta (1 - theta) / (theta^2 + theta')
    double beta = theta * (1.0 - theta) / (theta * theta + theta_next);

    // (6) y' = g' + beta (g' - g), and by linearity N y' = (1 + beta) N g' - beta N g;
    //     the restart test (8) needs g^T (g' - g) with the old g, taken first
    double restart_test = nsd_fcc_dot_diff(a->grad, NULL, a->gp, a->gamma, m, nt);
    nsd_fcc_axpby(1.0 + beta, a->gp, -beta, a->gamma, a->y, m, nt);
    nsd_fcc_axpby(1.0 + beta, a->ngp, -beta, a->ngamma, a->ny, m, nt);

    // (7) residual of g' (projected-gradient map, see NsdFccMonitor), keep the
    //     best iterate, stop at tolerance
    value = nsd_fcc_monitor_eval(&a->mon, a->gp, a->ngp);
    nsd_report_record(rep, value);
    if (!isfinite(value)) {
      end = APGD_DIVERGED;
      break;
    }
    if (a->mon.best_value <= tol) {
      end = APGD_CONVERGED;
    } else if (desaxce && a->mon.own <= APGD_DESAXCE_RATIO * a->mon.coulomb) {
      end = APGD_INNER_DONE;
    }

    // (8) adaptive restart when g^T (g' - g) > 0: y' = g', theta' = 1
    if (a->adaptive_restart && restart_test > 0.0) {
      nsd_fcc_copy(a->gp, a->y, m, nt);
      nsd_fcc_copy(a->ngp, a->ny, m, nt);
      theta_next = 1.0;
    }

    // (9) L <- 0.9 L, t = 1/L
    L *= APGD_STEP_DECAY;
    t = 1.0 / L;

    // (10) g <- g', theta <- theta'
    double* swap = a->gamma;
    a->gamma = a->gp;
    a->gp = swap;
    swap = a->ngamma;
    a->ngamma = a->ngp;
    a->ngp = swap;
    theta = theta_next;
  }

  // continue (or return) from the best iterate
  a->L = L;
  nsd_fcc_copy(a->mon.best, a->gamma, m, nt);
  nsd_fcc_copy(a->mon.nbest, a->ngamma, m, nt);
  return end;
}

/* Options with defaults when NULL. */
static const NsdSolverOptions* options_or_default(const NsdSolverOptions* o,
                                                  NsdSolverOptions* storage) {
  if (o) return o;
  nsd_solver_options_default(storage);
  return storage;
}

/* Shared option checks of the APGD entry points. */
static int apgd_check_options(const NsdSolverOptions* o, NsdReport* rep) {
  if (!(o->tolerance >= 0.0)) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "APGD: tolerance = %g, expected >= 0", o->tolerance);
    return 0;
  }
  if (o->max_iterations < 0 || o->apgd.max_backtracks < 0) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "APGD: max_iterations = %d, max_backtracks = %d, expected >= 0",
                    o->max_iterations, o->apgd.max_backtracks);
    return 0;
  }
  return 1;
}

NsdStatus nsd_fc_apgd_operator(const NsdDelassus* op, int dim, const double* q, const double* mu,
                               double* r, double* u, const NsdSolverOptions* options,
                               NsdReport* report, double* siconos_error) {
  NsdReport local;
  NsdReport* rep = report ? report : &local;
  if (!report) local.history = NULL;
  nsd_report_start(rep, "apgd");
  NsdSolverOptions defaults;
  const NsdSolverOptions* o = options_or_default(options, &defaults);
  if (siconos_error) *siconos_error = INFINITY;

  // check the operator, the vectors and the options before any work
  if (!nsd_fcc_delassus_check(op, dim, rep) || !apgd_check_options(o, rep)) return rep->status;
  int m = op->size, nc = m / dim;
  if (!r || !u || !nsd_all_finite(q, (size_t)m) || (dim > 1 && !nsd_all_finite(mu, (size_t)nc)))
    return nsd_report_fail(rep, NSD_BAD_INPUT, "APGD: r, u, q or mu missing or not finite");
  for (int a = 0; dim > 1 && a < nc; ++a)
    if (mu[a] < 0.0)
      return nsd_report_fail(rep, NSD_BAD_INPUT, "APGD: mu[%d] = %g, expected mu >= 0", a, mu[a]);
  if (o->warm_start && !nsd_all_finite(r, (size_t)m))
    return nsd_report_fail(rep, NSD_BAD_INPUT, "APGD: warm-start r is not finite");
  if (op->assembled && !nsd_fcc_check_psd(op->assembled, dim, "APGD", rep)) return rep->status;

  Apgd a;
  if (apgd_init(&a, op, dim, mu, o, rep) != NSD_OK) return rep->status;
  a.mon.qs = q;
  a.mon.qs_norm = nsd_fcc_norm(q, m, a.nt);

  // solve the CCP from the start point
  apgd_start(&a, r, o->warm_start);
  ApgdEnd end = apgd_run(&a, o->tolerance, o->max_iterations, o->time_limit, 0, rep);

  // r = best iterate, u = N r + q, own residual, Siconos error
  nsd_fcc_copy(a.gamma, r, m, a.nt);
  nsd_fcc_axpby(1.0, a.ngamma, 1.0, q, u, m, a.nt);
  rep->residual = a.mon.best_value;
  if (siconos_error)
    *siconos_error = nsd_fcc_natural_residual(dim, nc, mu, r, u, 1, a.mon.qs_norm, a.nt);
  apgd_free(&a);
  if (end == APGD_DIVERGED)
    return nsd_report_fail(rep, NSD_FAILED, "APGD: non-finite iterate after %d iterations",
                           rep->iterations);
  if (end == APGD_STOPPED && nsd_fcc_time_up(rep, o->time_limit))
    nsd_report_fail(rep, NSD_MAX_ITERATIONS, "APGD: time limit %g s reached, residual %.3e",
                    o->time_limit, rep->residual);
  return nsd_report_finish(rep, o->tolerance);
}

NsdStatus nsd_fc3d_apgd(const NsdFc* problem, double* r, double* u,
                        const NsdSolverOptions* options, NsdReport* report) {
  NsdReport local;
  NsdReport* rep = report ? report : &local;
  if (!report) local.history = NULL;
  nsd_report_start(rep, "apgd");
  NsdSolverOptions defaults;
  const NsdSolverOptions* o = options_or_default(options, &defaults);

  // reject bad input before allocating
  if (!nsd_fc_check(problem, rep)) return rep->status;
  if (problem->dim != 3)
    return nsd_report_fail(rep, NSD_BAD_INPUT, "APGD (fc3d): dimension %d, expected 3",
                           problem->dim);
  if (!apgd_check_options(o, rep)) return rep->status;
  int m = 3 * problem->nc;
  if (m > 0 && (!r || !u)) return nsd_report_fail(rep, NSD_BAD_INPUT, "APGD: r or u is NULL");
  if (o->warm_start && !nsd_all_finite(r, (size_t)m))
    return nsd_report_fail(rep, NSD_BAD_INPUT, "APGD: warm-start r is not finite");
  if (!nsd_fcc_check_psd(problem->M, 3, "APGD", rep)) return rep->status;
  if (m == 0) {
    rep->residual = 0.0;
    return nsd_report_finish(rep, o->tolerance);
  }

  NsdDelassus op = {.size = m, .n_dof = 0, .assembled = problem->M};
  Apgd a;
  if (apgd_init(&a, &op, 3, problem->mu, o, rep) != NSD_OK) return rep->status;
  double* qs = malloc((size_t)m * sizeof *qs);
  if (!qs) {
    apgd_free(&a);
    return nsd_report_fail(rep, NSD_FAILED, "APGD: out of memory, m = %d", m);
  }
  a.mon.q_true = problem->q;
  a.mon.q_norm = nsd_fcc_norm(problem->q, m, a.nt);
  a.mon.qs = qs;

  // De Saxcé fixed point: s = mu ||u_T|| from the current iterate, APGD on
  // q + s e_n warm-started from it, until the Siconos error is small enough
  apgd_start(&a, r, o->warm_start);
  ApgdEnd end = APGD_INNER_DONE;
  while (end == APGD_INNER_DONE) {
    nsd_fcc_axpby(1.0, a.ngamma, 1.0, problem->q, a.mon.u, m, a.nt);
    nsd_fcc_desaxce_shift(3, problem->nc, problem->mu, problem->q, a.mon.u, qs, a.nt);
    a.mon.qs_norm = nsd_fcc_norm(qs, m, a.nt);
    end = apgd_run(&a, o->tolerance, o->max_iterations, o->time_limit, 1, rep);
  }

  // return the best iterate with the library's own Siconos error
  memcpy(r, a.gamma, (size_t)m * sizeof *r);
  apgd_free(&a);
  free(qs);
  rep->residual = nsd_fc_error(problem, r, u);
  if (end == APGD_DIVERGED)
    return nsd_report_fail(rep, NSD_FAILED, "APGD: non-finite iterate after %d iterations",
                           rep->iterations);
  if (end == APGD_STOPPED && nsd_fcc_time_up(rep, o->time_limit))
    nsd_report_fail(rep, NSD_MAX_ITERATIONS, "APGD: time limit %g s reached, error %.3e",
                    o->time_limit, rep->residual);
  return nsd_report_finish(rep, o->tolerance);
}
