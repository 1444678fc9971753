/* Accelerated projected gradient for rolling friction contact (nsd_rfc_pg):
 * Nesterov steps over the product of the rolling cones on the De Saxcé fixed
 * point, gradient restart, in variables scaled per contact (below), step 1/L
 * from a power iteration on the symmetric part of the scaled M, step halved
 * when the error stagnates. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/solver_core.h"
#include "rfc/rfc_internal.h"

#define POWER_ITERATIONS 40
#define LIPSCHITZ_MARGIN 1.05
#define STAGNATION_STEPS 200

/* The change of variables r = S r~ (S diagonal, positive): per contact a factor b on the
 * whole contact (the cones are invariant) and a further a on the rolling rows (the
 * rolling cone becomes that of mu_r / a). The problem in r~ is the same kind of
 * problem with M~ = S M S, q~ = S q; b = 1/sqrt(W_NN) and a = sqrt(W_NN / W_RR)
 * (mean of the rolling diagonal) give M~ a unit diagonal on the normal and rolling
 * rows, which the single step 1/L needs: rotational and translational rows of a
 * sphere differ by 1/(m R^2) against 1/m. */
typedef struct Scaled {
  const NsdRfc* p;
  double* s;    /* [m] the diagonal of S */
  double* mu_r; /* [nc] mu_r / a */
  double* tmp;  /* [m] */
} Scaled;

static void scaling(Scaled* sc, const double* diag) {
  const NsdRfc* p = sc->p;
  const int d = p->dim, h = (d - 1) / 2;
  for (int c = 0; c < p->nc; ++c) {
    const double* w = diag + (size_t)d * c;
    double wr = 0.0;
    for (int i = 0; i < h; ++i) wr += w[1 + h + i] / h;
    const double b = w[0] > 0.0 && isfinite(w[0]) ? 1.0 / sqrt(w[0]) : 1.0;
    const double a = w[0] > 0.0 && wr > 0.0 && isfinite(wr) ? sqrt(w[0] / wr) : 1.0;
    for (int i = 0; i < d; ++i) sc->s[(size_t)d * c + i] = i > h ? b * a : b;
    sc->mu_r[c] = p->mu_r[c] / a;
  }
}

/* out = S (M (S v)) (+ S q when with_q); transposed: S M^T S v. */
static void scaled_product(const Scaled* sc, const double* v, int transposed, int with_q,
                           double beta, double* out) {
  const NsdRfc* p = sc->p;
  const int m = p->dim * p->nc;
  for (int i = 0; i < m; ++i) sc->tmp[i] = sc->s[i] * v[i];
  if (beta == 0.0) {
    for (int i = 0; i < m; ++i) out[i] = with_q ? p->q[i] : 0.0;
  } else {
    for (int i = 0; i < m; ++i) out[i] = out[i] / sc->s[i] + (with_q ? p->q[i] : 0.0);
  }
  if (transposed)
    nsd_matrix_gemv_t(1.0, p->M, sc->tmp, 1.0, out);
  else
    nsd_matrix_gemv(1.0, p->M, sc->tmp, 1.0, out);
  for (int i = 0; i < m; ++i) out[i] *= sc->s[i];
}

/* Largest eigenvalue of the symmetric part of S M S by power iteration (w: 2 m scratch). */
static double lipschitz(const Scaled* sc, int m, double* w) {
  double* v = w;
  double* y = w + m;
  for (int i = 0; i < m; ++i) v[i] = 1.0 + 0.01 * (double)(i % 7);
  double lambda = 0.0;
  for (int it = 0; it < POWER_ITERATIONS; ++it) {
    double nv = 0.0;
    for (int i = 0; i < m; ++i) nv += v[i] * v[i];
    nv = sqrt(nv);
    if (!(nv > 0.0)) break;
    for (int i = 0; i < m; ++i) v[i] /= nv;
    scaled_product(sc, v, 0, 0, 0.0, y);
    scaled_product(sc, v, 1, 0, 1.0, y);
    double vy = 0.0;
    for (int i = 0; i < m; ++i) {
      y[i] *= 0.5;
      vy += v[i] * y[i];
    }
    lambda = vy;
    memcpy(v, y, (size_t)m * sizeof *v);
  }
  if (!(lambda > 0.0) || !isfinite(lambda)) lambda = 1.0; /* the scaled diagonal is 1 */
  return LIPSCHITZ_MARGIN * lambda;
}

/* g = S û at the scaled point y: S (M S y + q) with De Saxcé's shift (scaled coefficients). */
static void shifted_gradient(const Scaled* sc, const double* y, double* g) {
  const NsdRfc* p = sc->p;
  const int d = p->dim;
  scaled_product(sc, y, 0, 1, 0.0, g);
  for (int a = 0; a < p->nc; ++a) {
    double* ga = g + (size_t)d * a;
    ga[0] += nsd_rfc_shift(d, p->mu[a], sc->mu_r[a], ga);
  }
}

/* The unscaled r = S x and its error (u = M r + q out). */
static double unscaled_error(const Scaled* sc, const double* x, double* r, double* u) {
  const int m = sc->p->dim * sc->p->nc;
  for (int i = 0; i < m; ++i) r[i] = sc->s[i] * x[i];
  return nsd_rfc_error(sc->p, r, u);
}

NsdStatus nsd_rfc_pg(const NsdRfc* p, double* r, double* u, const NsdSolverOptions* options,
                     NsdReport* report) {
  NsdReport own;
  if (!report) {
    memset(&own, 0, sizeof own);
    report = &own;
  }
  NsdSolverOptions opt;
  NsdStatus status = nsd_rfc_begin("pg", p, r, u, options, &opt, report);
  if (status != NSD_OK) return status;
  const int d = p->dim, m = d * p->nc;
  if (m == 0) {
    report->residual = 0.0;
    return nsd_report_finish(report, opt.tolerance);
  }
  double* work = malloc(((size_t)m * 7 + (size_t)p->nc) * sizeof *work);
  if (!work) return nsd_report_fail(report, NSD_FAILED, "rfc pg: out of memory, %d unknowns", m);
  double* x = work; /* scaled iterate */
  double* y = work + m;
  double* g = work + 2 * m;
  double* xnew = work + 3 * m;
  double* best = work + 4 * m;
  Scaled sc = {p, work + 5 * m, work + 7 * m, work + 6 * m};

  // the scaling from the diagonal of M, the step from S M S
  nsd_matrix_diagonal(p->M, g);
  scaling(&sc, g);
  double L = lipschitz(&sc, m, g); /* g and xnew as its 2 m of scratch */

  // the start point in the cones, scaled
  for (int i = 0; i < m; ++i) x[i] = r[i] / sc.s[i];
  for (int a = 0; a < p->nc; ++a) nsd_rfc_project_on_cone(d, p->mu[a], sc.mu_r[a], x + d * a);
  memcpy(y, x, (size_t)m * sizeof *y);
  memcpy(best, x, (size_t)m * sizeof *best);
  double best_error = unscaled_error(&sc, x, r, u);
  double theta = 1.0;
  int since_best = 0;

  for (int it = 0; it < opt.max_iterations && best_error > opt.tolerance; ++it) {
    // projected step from y
    shifted_gradient(&sc, y, g);
    for (int i = 0; i < m; ++i) xnew[i] = y[i] - g[i] / L;
    for (int a = 0; a < p->nc; ++a)
      nsd_rfc_project_on_cone(d, p->mu[a], sc.mu_r[a], xnew + (size_t)d * a);
    const double e = unscaled_error(&sc, xnew, r, u);
    report->iterations = it + 1;
    nsd_report_record(report, e);
    if (!isfinite(e)) {
      report->residual = unscaled_error(&sc, best, r, u);
      nsd_report_fail(report, NSD_FAILED, "rfc pg: the iterate is not finite at iteration %d",
                      it + 1);
      free(work);
      return report->status;
    }
    if (e < best_error) {
      best_error = e;
      memcpy(best, xnew, (size_t)m * sizeof *best);
      since_best = 0;
    } else if (++since_best >= STAGNATION_STEPS) {
      // stagnation: smaller steps from the best point, no momentum
      L *= 2.0;
      memcpy(x, best, (size_t)m * sizeof *x);
      memcpy(y, best, (size_t)m * sizeof *y);
      theta = 1.0;
      since_best = 0;
      continue;
    }
    // momentum, restarted when the step goes against the gradient
    double dot = 0.0;
    for (int i = 0; i < m; ++i) dot += g[i] * (xnew[i] - x[i]);
    if (dot > 0.0) {
      theta = 1.0;
      memcpy(y, xnew, (size_t)m * sizeof *y);
    } else {
      const double next = 0.5 * (1.0 + sqrt(1.0 + 4.0 * theta * theta));
      const double beta = (theta - 1.0) / next;
      for (int i = 0; i < m; ++i) y[i] = xnew[i] + beta * (xnew[i] - x[i]);
      theta = next;
    }
    memcpy(x, xnew, (size_t)m * sizeof *x);
    if (nsd_time_up(report, opt.time_limit)) {
      nsd_report_fail(report, NSD_MAX_ITERATIONS, "rfc pg: time limit %g s reached",
                      opt.time_limit);
      break;
    }
  }
  report->residual = unscaled_error(&sc, best, r, u);
  free(work);
  return nsd_report_finish(report, opt.tolerance);
}
