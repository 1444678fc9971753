/* Accelerated projected gradient descent (APGD) for friction contact:
 * Nesterov momentum with Lipschitz backtracking and adaptive restart on
 *   min f(g) = 1/2 g^T N g + q^T g  over the product of friction cones,
 * after H. Mazhar, T. Heyn, D. Negrut, A. Tasora, "Using Nesterov's method to
 * accelerate multibody dynamics with friction and contact", ACM Transactions
 * on Graphics 34(3), 2015 (their Algorithm 2; the numbers (1)-(9) in the comments
 * below are the steps of that algorithm).
 *
 * The minimiser solves the cone complementarity problem (CCP)
 *   K ∋ g ⟂ N g + q ∈ K*,
 * a convex relaxation of Coulomb friction. nsd_fc3d_apgd turns it into a
 * Coulomb solution with the De Saxcé fixed point of Acary, Cadoux,
 * Lemaréchal, Malick ("A formulation of the linear discrete Coulomb friction
 * problem via convex optimization", ZAMM 91(2), 2011): the CCP is solved with
 * q_n shifted by s = mu ||u_T||, s is updated from the answer and APGD is
 * warm-started again, until the Siconos error reaches the tolerance. Each inner run
 * keeps its best iterate by its own (CCP) residual and the outer loop continues from
 * it; the iterate of least Coulomb error seen so far is copied aside and returned.
 * (Restarting every outer round from the best-by-Coulomb iterate instead made the
 * loop cycle on settled piles: the same shift, the same inner run, a plateau.)
 *
 * Cost: one product N x per iteration plus one per backtracking step; N y is
 * never computed, it follows by linearity from N g' and N g. One more product
 * per run when the best iterate is not the last one (N best is not kept).
 * Memory: seven vectors of size m, two of them the caller's r and u; no
 * copies per iteration. Parallel regions per iteration: two (the product with
 * the backtracking sums, and the residual with the update of y and the next
 * projected step), plus two per backtracking step.
 *
 * This file: the option and input checks, the De Saxcé loop and the entry points; one
 * accelerated run and the state of a solve are in fc_apgd_run.c (fc_apgd_internal.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "friction/fc_apgd_internal.h"
#include "friction/fc_apgd_metric.h"
#include "friction/fc_cone_internal.h"

/* Cold retry inside the budget (apgd_coulomb): from a warm start, budgets of at
 * least APGD_RETRY_MIN iterations are checked at a quarter and at half of the budget;
 * if the least Coulomb error did not fall by APGD_RETRY_GAIN between the two, the
 * rest of the budget goes to a run from r = 0. */
#define APGD_RETRY_MIN 100
#define APGD_RETRY_GAIN 0.5

/* Shared option checks of the APGD entry points. */
static int apgd_check_options(const NsdSolverOptions* o, NsdReport* rep) {
  if (o->apgd.max_backtracks < 0) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "APGD: apgd.max_backtracks = %d, expected >= 0",
                    o->apgd.max_backtracks);
    return 0;
  }
  if (o->apgd.preconditioner < NSD_APGD_PRECONDITIONER_NONE ||
      o->apgd.preconditioner > NSD_APGD_PRECONDITIONER_CONE) {
    nsd_report_fail(rep, NSD_BAD_INPUT,
                    "APGD: apgd.preconditioner = %d, expected 0 (none), 1 (block) or 2 (cone)",
                    o->apgd.preconditioner);
    return 0;
  }
  return 1;
}

/* The reduction hooks come in pairs. */
static int apgd_check_hooks(const NsdDelassus* op, NsdReport* rep) {
  if (op && (!op->reduce_sum) != (!op->reduce_max)) {
    nsd_report_fail(rep, NSD_BAD_INPUT,
                    "APGD: the operator sets one of reduce_sum and reduce_max, not both");
    return 0;
  }
  return 1;
}

/* Input checks of nsd_fc_apgd_operator and nsd_fc3d_apgd_operator (this part's verdict,
 * message in rep): r, u, q and (dim > 1) mu given unless this part has no contact, finite,
 * mu >= 0, a finite warm start, an assembled operator positive semidefinite. */
static int apgd_check_input(const NsdDelassus* op, int dim, const double* q, const double* mu,
                            const double* r, const double* u, const NsdSolverOptions* o,
                            NsdReport* rep) {
  if (!nsd_fcc_delassus_check(op, dim, rep) || !apgd_check_hooks(op, rep) ||
      !apgd_check_options(o, rep))
    return 0;
  int m = op->size, nc = m / dim;
  if (m > 0 && (!r || !u || !q || (dim > 1 && !mu))) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "APGD: r, u, q or mu missing");
    return 0;
  }
  if (!nsd_all_finite(q, (size_t)m) || (dim > 1 && !nsd_all_finite(mu, (size_t)nc))) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "APGD: q or mu not finite");
    return 0;
  }
  for (int a = 0; dim > 1 && a < nc; ++a)
    if (mu[a] < 0.0) {
      nsd_report_fail(rep, NSD_BAD_INPUT, "APGD: mu[%d] = %g, expected mu >= 0", a, mu[a]);
      return 0;
    }
  if (o->warm_start && !nsd_all_finite(r, (size_t)m)) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "APGD: warm-start r is not finite");
    return 0;
  }
  if (op->assembled &&
      !nsd_fcc_check_psd_threads(op->assembled, dim, "APGD", rep, nsd_fcc_threads(o->threads)))
    return 0;
  return 1;
}

NsdStatus nsd_fc_apgd_operator(const NsdDelassus* op, int dim, const double* q, const double* mu,
                               double* r, double* u, const NsdSolverOptions* options,
                               NsdReport* report, double* siconos_error) {
  NsdReport local;
  NsdReport* rep = report ? report : &local;
  if (!report) local.history = NULL;
  if (siconos_error) *siconos_error = INFINITY;
  NsdSolverOptions opts;
  if (nsd_solver_begin("apgd", options, &opts, rep) != NSD_OK) return NSD_BAD_INPUT;
  const NsdSolverOptions* o = &opts;

  // check the operator, the vectors and the options before any work (every part of a
  // distributed problem learns of a fault on any other)
  if (!apgd_input_ok(op, apgd_check_input(op, dim, q, mu, r, u, o, rep), rep)) return rep->status;
  int m = op->size, nc = m / dim;

  Apgd a;
  if (apgd_init(&a, op, dim, mu, r, u, o, rep) != NSD_OK) return rep->status;
  a.qs = q;
  a.qs_norm = apgd_norm(op, q, m, a.nt);

  // solve the CCP from the start point
  apgd_start(&a, r, o->warm_start);
  ApgdEnd end = apgd_run(&a, o->tolerance, o->max_iterations, o->time_limit, 0, rep);

  // r = best iterate, u = N r + q (r and u were workspace: only the buffers
  // of gamma and N gamma still matter), own residual, Siconos error
  nsd_fcc_copy(a.gamma, r, m, a.nt);
  nsd_fcc_axpby(1.0, a.ngamma, 1.0, q, u, m, a.nt);
  rep->residual = a.best_value;
  if (siconos_error)
    *siconos_error = apgd_natural_residual(op, dim, nc, mu, r, u, 1, a.qs_norm, a.nt);
  rep->drift_jumps += a.drift_jumps;
  apgd_free(&a);
  if (end == APGD_DIVERGED)
    return nsd_report_fail(rep, NSD_FAILED, "APGD: non-finite iterate after %d iterations",
                           rep->iterations);
  if (end == APGD_STOPPED && nsd_time_up(rep, o->time_limit))
    nsd_report_fail(rep, NSD_MAX_ITERATIONS, "APGD: time limit %g s reached, residual %.3e",
                    o->time_limit, rep->residual);
  return nsd_report_finish(rep, o->tolerance);
}

/* De Saxcé fixed point on an operator (shared by the two Coulomb entry points):
 * s = mu ||u_T|| from the current iterate, APGD on q + s e_n warm-started from
 * it, until the Siconos error is small enough. On return r holds the best
 * iterate; u is workspace (the caller recomputes it). */
static ApgdEnd apgd_coulomb(const NsdDelassus* op, int nc, const double* q, const double* mu,
                            double* r, double* u, const NsdSolverOptions* o, NsdReport* rep) {
  int m = 3 * nc;
  Apgd a;
  if (apgd_init(&a, op, 3, mu, r, u, o, rep) != NSD_OK) return APGD_DIVERGED;
  double* qs = malloc((size_t)(m > 0 ? m : 1) * sizeof *qs);
  if (!qs) {
    rep->drift_jumps += a.drift_jumps;
    apgd_free(&a);
    nsd_report_fail(rep, NSD_FAILED, "APGD: out of memory, m = %d", m);
    return APGD_DIVERGED;
  }
  /* never NULL in De Saxce mode: a part without contacts (q may be NULL) must send the
   * same reductions as the others (apgd_eval keys its message length on q_true) */
  a.q_true = q ? q : qs;
  a.q_norm = apgd_norm(op, q, m, a.nt);
  a.qs = qs;
  a.keep = malloc((size_t)(m > 0 ? m : 1) * sizeof *a.keep);
  a.keep_value = INFINITY;
  apgd_start(&a, r, o->warm_start);
  // the cold retry stays inside the budget: a warm run that stalls between a quarter
  // and half of it gives the rest to a run from 0 (APGD_RETRY_MIN)
  const int max = o->max_iterations;
  int stop = o->warm_start && max >= APGD_RETRY_MIN ? max / 4 : max;
  double at_quarter = INFINITY;
  ApgdEnd end = APGD_INNER_DONE;
  while (end == APGD_INNER_DONE) {
    // u = N g + q into qs, then shifted in place
    nsd_fcc_axpby(1.0, a.ngamma, 1.0, q, qs, m, a.nt);
    nsd_fcc_desaxce_shift(3, nc, mu, q, qs, qs, a.nt);
    a.qs_norm = apgd_norm(op, qs, m, a.nt);
    end = apgd_run(&a, o->tolerance, stop, o->time_limit, 1, rep);
    if (end != APGD_STOPPED || stop == max || apgd_time_up(op, rep, o->time_limit)) continue;
    if (stop == max / 4) {
      at_quarter = a.keep_value;
      stop = max / 2;
    } else {
      stop = max;
      if (!(a.keep_value <= APGD_RETRY_GAIN * at_quarter)) apgd_start(&a, r, 0);
    }
    end = APGD_INNER_DONE;
  }
  // the iterate of least Coulomb error (the last one unless an earlier one was better)
  nsd_fcc_copy(a.keep && a.keep_value < INFINITY ? a.keep : a.gamma, r, m, a.nt);
  free(a.keep);
  rep->drift_jumps += a.drift_jumps;
  apgd_free(&a);
  free(qs);
  return end;
}

/* Status of a Coulomb APGD solve from how it ended and its Siconos error. */
static NsdStatus apgd_coulomb_finish(ApgdEnd end, const NsdSolverOptions* o, NsdReport* rep) {
  if (end == APGD_DIVERGED) {
    if (rep->status != NSD_OK) return rep->status;  // allocation failure already reported
    return nsd_report_fail(rep, NSD_FAILED, "APGD: non-finite iterate after %d iterations",
                           rep->iterations);
  }
  if (end == APGD_STOPPED && nsd_time_up(rep, o->time_limit))
    nsd_report_fail(rep, NSD_MAX_ITERATIONS, "APGD: time limit %g s reached, error %.3e",
                    o->time_limit, rep->residual);
  return nsd_report_finish(rep, o->tolerance);
}

NsdStatus nsd_fc3d_apgd(const NsdFc* problem, double* r, double* u, const NsdSolverOptions* options,
                        NsdReport* report) {
  NsdReport local;
  NsdReport* rep = report ? report : &local;
  if (!report) local.history = NULL;
  NsdSolverOptions opts;
  if (nsd_solver_begin("apgd", options, &opts, rep) != NSD_OK) return NSD_BAD_INPUT;
  const NsdSolverOptions* o = &opts;

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
  if (!nsd_fcc_check_psd_threads(problem->M, 3, "APGD", rep, nsd_fcc_threads(o->threads)))
    return rep->status;
  if (m == 0) {
    rep->residual = 0.0;
    return nsd_report_finish(rep, o->tolerance);
  }

  NsdDelassus op = {.size = m, .n_dof = 0, .assembled = problem->M};
  ApgdEnd end = apgd_coulomb(&op, problem->nc, problem->q, problem->mu, r, u, o, rep);
  if (end == APGD_DIVERGED && rep->status != NSD_OK) return rep->status;
  // the library's own Siconos error of the best iterate
  rep->residual = nsd_fc_error(problem, r, u);
  return apgd_coulomb_finish(end, o, rep);
}

NsdStatus nsd_fc3d_apgd_operator(const NsdDelassus* op, const double* q, const double* mu,
                                 double* r, double* u, const NsdSolverOptions* options,
                                 NsdReport* report) {
  NsdReport local;
  NsdReport* rep = report ? report : &local;
  if (!report) local.history = NULL;
  NsdSolverOptions opts;
  if (nsd_solver_begin("apgd", options, &opts, rep) != NSD_OK) return NSD_BAD_INPUT;
  const NsdSolverOptions* o = &opts;

  // check the operator, the vectors and the options before any work (every part of a
  // distributed problem learns of a fault on any other)
  if (!apgd_input_ok(op, apgd_check_input(op, 3, q, mu, r, u, o, rep), rep)) return rep->status;
  int m = op->size, nc = m / 3;
  // a part of a distributed problem may hold no contact: it stops only with all parts
  double m_global = (double)m;
  apgd_reduce_sum(op, &m_global, 1);
  if (m_global == 0.0) {
    rep->residual = 0.0;
    return nsd_report_finish(rep, o->tolerance);
  }

  ApgdEnd end = apgd_coulomb(op, nc, q, mu, r, u, o, rep);
  if (end == APGD_DIVERGED && rep->status != NSD_OK) return rep->status;
  // u = N r + q and the Siconos error of the best iterate
  NsdFccOperator fop;
  int nt = nsd_fcc_threads(o->threads);
  if (nsd_fcc_operator_init(&fop, op, nt) != 0)
    return nsd_report_fail(rep, NSD_FAILED, "APGD: out of memory, m = %d", m);
  nsd_fcc_operator_apply(&fop, r, u);
  nsd_fcc_operator_free(&fop);
  nsd_fcc_axpby(1.0, u, 1.0, q, u, m, nt);
  if (!apgd_parts(op)) {
    rep->residual = nsd_fcc_natural_residual(3, nc, mu, r, u, 1, nsd_fcc_norm(q, m, nt), nt);
  } else {
    // ||q||^2 and the error sums of the parts in one message
    double sums[4];
    sums[0] = nsd_fcc_dot(q, q, m, nt);
    nsd_fcc_natural_sums(3, nc, mu, r, u, 1, sums + 1, nt);
    op->reduce_sum(op->user, sums, 4);
    rep->residual = nsd_fcc_natural_value(sums + 1, sqrt(sums[0]));
  }
  return apgd_coulomb_finish(end, o, rep);
}

NsdStatus nsd_fc3d_apgd_ccp(const NsdFc* problem, double* r, double* u,
                            const NsdSolverOptions* options, NsdReport* report) {
  NsdReport local;
  NsdReport* rep = report ? report : &local;
  if (!report) local.history = NULL;
  NsdSolverOptions opts;
  if (nsd_solver_begin("apgd_ccp", options, &opts, rep) != NSD_OK) return NSD_BAD_INPUT;
  if (!problem || !problem->M)
    return nsd_report_fail(rep, NSD_BAD_INPUT, "APGD (relaxation): no problem");
  if (!nsd_fc_check(problem, rep)) return rep->status;
  if (problem->dim != 3)
    return nsd_report_fail(rep, NSD_BAD_INPUT, "APGD (relaxation, fc3d): dimension %d, expected 3",
                           problem->dim);
  const int m = 3 * problem->nc;
  NsdDelassus op = {.size = m, .n_dof = 0, .assembled = problem->M};
  double coulomb = INFINITY;
  NsdStatus status =
      m == 0 ? NSD_OK
             : nsd_fc_apgd_operator(&op, 3, problem->q, problem->mu, r, u, options, rep, &coulomb);
  snprintf(rep->solver, sizeof rep->solver, "%s", "apgd_ccp");
  if (m == 0) {
    rep->residual = 0.0;
    return nsd_report_finish(rep, opts.tolerance);
  }
  // say which problem the answer solves, whatever the status
  if (status == NSD_OK || status == NSD_MAX_ITERATIONS) {
    const size_t used = strlen(rep->message);
    snprintf(rep->message + used, sizeof rep->message - used,
             "%sanswer of the cone complementarity relaxation (APGD residual %.3e); "
             "its Coulomb (Siconos) error is %.3e",
             used ? "; " : "", rep->residual, coulomb);
  }
  return status;
}
