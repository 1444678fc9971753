/*
 * Semismooth Newton for the box-constrained MLCP. Each row gets a function
 * phi_i(z_i, w_i) that is zero exactly when the row's conditions hold:
 *   free row                 phi = w
 *   fixed row (lb = ub)      phi = z - lb
 *   [lb, +inf)               phi = FB(z - lb, w)
 *   (-inf, ub]               phi = -FB(ub - z, -w)
 *   [lb, ub]                 phi = FB(z - lb, -FB(ub - z, -w))      (Billups)
 * with FB(a, b) = a + b - sqrt(a^2 + b^2), or, with the min merit, for every
 * row phi = z - mid(lb, z - w, ub). Steps solve J d = -Phi with the generalized
 * Jacobian J = diag(alpha) + diag(beta) M (alpha, beta: derivatives of phi_i in
 * z_i and w_i), then an Armijo line search on psi = 1/2 ||Phi||^2; when the
 * Newton direction is not a descent direction or its line search fails, the
 * gradient direction -J^T Phi is searched instead. The iterates may leave the
 * box (FB approaches it from outside), so convergence is measured, and z
 * returned, at the projection mid(lb, z, ub).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mlcp_internal.h"

/* Derivative of FB at its kink (0,0): the value along the direction (1,1)/sqrt(2). */
#define FB_KINK_DERIVATIVE 0.29289321881345247560 /* 1 - 1/sqrt(2) */

/* Working arrays, freed together. */
typedef struct NewtonWork {
  double* M;     /* dense copy of M */
  double* J;     /* Jacobian, then its LU */
  double* phi;   /* Phi(z) */
  double* alpha; /* d phi_i / d z_i */
  double* beta;  /* d phi_i / d w_i */
  double* grad;  /* J^T Phi */
  double* d;     /* direction */
  double* zt;    /* trial z */
  double* wt;    /* trial w */
  double* phit;  /* trial Phi */
  double* zp;    /* z projected on the box */
  double* dummy; /* derivatives of the trial point, unused */
  int* pivots;   /* LU pivots */
  int* kind;     /* MlcpRowKind per row */
} NewtonWork;

static void newton_work_free(NewtonWork* k) {
  free(k->M);
  free(k->J);
  free(k->phi);
  free(k->alpha);
  free(k->beta);
  free(k->grad);
  free(k->d);
  free(k->zt);
  free(k->wt);
  free(k->phit);
  free(k->zp);
  free(k->dummy);
  free(k->pivots);
  free(k->kind);
}

/* FB(a, b) and its partial derivatives, free of cancellation when a, b > 0. */
static double fb(double a, double b, double* da, double* db) {
  double r = hypot(a, b);
  if (r == 0) {
    *da = *db = FB_KINK_DERIVATIVE;
    return 0.0;
  }
  *da = 1.0 - a / r;
  *db = 1.0 - b / r;
  return a + b > 0 ? 2.0 * a * b / (a + b + r) : a + b - r;
}

/* phi_i with derivatives alpha (in z_i) and beta (in w_i). */
static double row_phi(MlcpRowKind kind, NsdNewtonMerit merit, double lb, double ub, double z,
                      double w, double* alpha, double* beta) {
  if (kind == MLCP_ROW_FREE) {
    *alpha = 0.0;
    *beta = 1.0;
    return w;
  }
  if (kind == MLCP_ROW_FIXED) {
    *alpha = 1.0;
    *beta = 0.0;
    return z - lb;
  }

  /* min merit: z - mid(lb, z - w, ub), the same for every bounded kind */
  if (merit == NSD_MERIT_MIN) {
    double t = z - w;
    if (t < lb || t > ub) {
      *alpha = 1.0;
      *beta = 0.0;
      return z - (t < lb ? lb : ub);
    }
    *alpha = 0.0;
    *beta = 1.0;
    return w;
  }

  /* Fischer-Burmeister, composed for the upper bound and for boxes */
  double fa, fb_b, ga, gb;
  if (kind == MLCP_ROW_LOWER) {
    double v = fb(z - lb, w, &fa, &fb_b);
    *alpha = fa;
    *beta = fb_b;
    return v;
  }
  if (kind == MLCP_ROW_UPPER) {
    double v = fb(ub - z, -w, &fa, &fb_b);
    *alpha = fa;
    *beta = fb_b;
    return -v;
  }
  double g = fb(ub - z, -w, &ga, &gb);
  double v = fb(z - lb, -g, &fa, &fb_b);
  *alpha = fa + fb_b * ga;
  *beta = fb_b * gb;
  return v;
}

/* w = M z + q and Phi(z) with its derivatives; returns psi = 1/2 ||Phi||^2. */
static double evaluate(const NsdMlcp* p, const NewtonWork* k, NsdNewtonMerit merit, const double* z,
                       double* w, double* phi, double* alpha, double* beta) {
  const int n = p->size;
  for (int i = 0; i < n; ++i) w[i] = p->q[i];
  for (int j = 0; j < n; ++j) {
    double zj = z[j];
    if (zj == 0.0) continue;
    const double* col = k->M + (size_t)j * n;
    for (int i = 0; i < n; ++i) w[i] += col[i] * zj;
  }
  double psi = 0.0;
  for (int i = 0; i < n; ++i) {
    phi[i] = row_phi((MlcpRowKind)k->kind[i], merit, p->lb[i], p->ub[i], z[i], w[i], &alpha[i],
                     &beta[i]);
    psi += 0.5 * phi[i] * phi[i];
  }
  return psi;
}

/* MLCP error of mid(lb, z, ub), the point returned. */
static double projected_error(const NsdMlcp* p, const NewtonWork* k, const double* z) {
  for (int i = 0; i < p->size; ++i) k->zp[i] = mlcp_mid(p->lb[i], z[i], p->ub[i]);
  return nsd_mlcp_error(p, k->zp, k->dummy);
}

/*
 * Armijo backtracking along d from z (merit psi, slope gd < 0): on success the
 * accepted point is in k->zt / k->wt / k->phit and its merit in *psi_out.
 */
static int line_search(const NsdMlcp* p, NewtonWork* k, const NsdSolverOptions* o, const double* z,
                       double psi, double gd, double* psi_out) {
  const int n = p->size;
  double t = 1.0;
  for (int step = 0; step <= o->newton.max_line_search; ++step) {
    for (int i = 0; i < n; ++i) k->zt[i] = z[i] + t * k->d[i];
    double psit = evaluate(p, k, o->newton.merit, k->zt, k->wt, k->phit, k->dummy, k->dummy + n);
    if (psit <= psi + o->newton.armijo_sigma * t * gd) {
      *psi_out = psit;
      return 1;
    }
    t *= o->newton.step_shrink;
  }
  return 0;
}

NsdStatus nsd_mlcp_newton(const NsdMlcp* problem, double* z, double* w,
                          const NsdSolverOptions* options, NsdReport* report) {
  NsdReport local = {0};
  if (!report) report = &local;
  NsdSolverOptions opt;
  // reject bad input before allocating
  if (nsd_solver_begin("mlcp_newton", options, &opt, report) != NSD_OK) return NSD_BAD_INPUT;
  if (!mlcp_begin(problem, z, w, &opt, report)) return report->status;
  if (opt.newton.merit != NSD_MERIT_FISCHER_BURMEISTER && opt.newton.merit != NSD_MERIT_MIN)
    return nsd_report_fail(report, NSD_BAD_INPUT, "newton.merit=%d, not a NsdNewtonMerit",
                           (int)opt.newton.merit);
  if (opt.newton.max_line_search < 0)
    return nsd_report_fail(report, NSD_BAD_INPUT, "newton.max_line_search=%d, expected >= 0",
                           opt.newton.max_line_search);
  if (!(opt.newton.armijo_sigma > 0 && opt.newton.armijo_sigma < 1))
    return nsd_report_fail(report, NSD_BAD_INPUT, "newton.armijo_sigma=%g, not in (0,1)",
                           opt.newton.armijo_sigma);
  if (!(opt.newton.step_shrink > 0 && opt.newton.step_shrink < 1))
    return nsd_report_fail(report, NSD_BAD_INPUT, "newton.step_shrink=%g, not in (0,1)",
                           opt.newton.step_shrink);

  const int n = problem->size;
  NewtonWork k;
  memset(&k, 0, sizeof k);
  size_t nn = (size_t)(n ? n : 1);
  k.M = mlcp_dense_copy(problem->M);
  k.J = malloc(nn * nn * sizeof *k.J);
  k.phi = malloc(nn * sizeof *k.phi);
  k.alpha = malloc(nn * sizeof *k.alpha);
  k.beta = malloc(nn * sizeof *k.beta);
  k.grad = malloc(nn * sizeof *k.grad);
  k.d = malloc(nn * sizeof *k.d);
  k.zt = malloc(nn * sizeof *k.zt);
  k.wt = malloc(nn * sizeof *k.wt);
  k.phit = malloc(nn * sizeof *k.phit);
  k.zp = malloc(nn * sizeof *k.zp);
  k.dummy = malloc(2 * nn * sizeof *k.dummy);
  k.pivots = malloc(nn * sizeof *k.pivots);
  k.kind = malloc(nn * sizeof *k.kind);
  if (!k.M || !k.J || !k.phi || !k.alpha || !k.beta || !k.grad || !k.d || !k.zt || !k.wt ||
      !k.phit || !k.zp || !k.dummy || !k.pivots || !k.kind) {
    newton_work_free(&k);
    return nsd_report_fail(report, NSD_FAILED, "out of memory, n=%d", n);
  }
  for (int i = 0; i < n; ++i) k.kind[i] = (int)mlcp_row_kind(problem, i);

  // Newton steps until the MLCP error meets the tolerance
  double psi = evaluate(problem, &k, opt.newton.merit, z, w, k.phi, k.alpha, k.beta);
  double error = projected_error(problem, &k, z);
  for (int it = 1; it <= opt.max_iterations && error > opt.tolerance; ++it) {
    /* generalized Jacobian J = diag(alpha) + diag(beta) M and gradient J^T Phi */
    for (int j = 0; j < n; ++j) {
      double g = 0.0;
      for (int i = 0; i < n; ++i) {
        double jij = k.beta[i] * k.M[i + (size_t)j * n] + (i == j ? k.alpha[i] : 0.0);
        k.J[i + (size_t)j * n] = jij;
        g += jij * k.phi[i];
      }
      k.grad[j] = g;
    }

    /* Newton direction J d = -Phi, kept if finite and of descent */
    for (int i = 0; i < n; ++i) k.d[i] = -k.phi[i];
    int newton_ok = nsd_dense_lu_factor(k.J, n, k.pivots, NULL) == 0 &&
                    nsd_dense_lu_solve(k.J, n, k.pivots, k.d, 1) == 0 && nsd_all_finite(k.d, n);
    double gd = 0.0;
    if (newton_ok) {
      for (int i = 0; i < n; ++i) gd += k.grad[i] * k.d[i];
      newton_ok = gd < 0;
    }

    /* Armijo search along it, else along the negative gradient */
    double psit = psi;
    int accepted = newton_ok && line_search(problem, &k, &opt, z, psi, gd, &psit);
    if (!accepted) {
      gd = 0.0;
      for (int i = 0; i < n; ++i) {
        k.d[i] = -k.grad[i];
        gd -= k.grad[i] * k.grad[i];
      }
      accepted = gd < 0 && line_search(problem, &k, &opt, z, psi, gd, &psit);
    }
    report->iterations = it;
    if (!accepted) {
      nsd_report_fail(report, NSD_FAILED,
                      "line search failed at step %d (1/2 ||Phi||^2 = %.3e, ||J^T Phi|| = "
                      "%.3e): no descent, likely a stationary point of the merit",
                      it, psi, sqrt(-gd));
      break;
    }

    /* take the step; derivatives at the new point */
    memcpy(z, k.zt, (size_t)n * sizeof *z);
    psi = evaluate(problem, &k, opt.newton.merit, z, w, k.phi, k.alpha, k.beta);
    error = projected_error(problem, &k, z);
    nsd_report_record(report, error);
    if (error > opt.tolerance && nsd_time_up(report, opt.time_limit)) {
      nsd_report_fail(report, NSD_MAX_ITERATIONS, "time limit %g s reached after %d steps",
                      opt.time_limit, it);
      break;
    }
  }

  // return the projected iterate, whose error was measured
  for (int i = 0; i < n; ++i) z[i] = mlcp_mid(problem->lb[i], z[i], problem->ub[i]);
  newton_work_free(&k);
  return mlcp_finish(problem, z, w, &opt, report);
}
