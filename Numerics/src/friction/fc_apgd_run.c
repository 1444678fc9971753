/* One accelerated projected-gradient run of APGD (Mazhar, Heyn, Negrut, Tasora, ACM TOG
 * 34(3), 2015, Algorithm 2; the numbers (1)-(9) below are its steps) and the global
 * quantities of a solve split in parts. The De Saxce loop and the entry points that call it
 * are in fc3d_apgd.c, whose opening comment describes the method, its cost and memory. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "friction/fc_apgd_internal.h"
#include "friction/fc_apgd_metric.h"

/* Lipschitz estimate growth on a failed backtracking test, and decay after
 * each iteration (Mazhar et al. 2015). */
#define APGD_BACKTRACK_GROWTH 2.0
#define APGD_STEP_DECAY 0.9
/* De Saxcé loop: the inner APGD stops to update s once its own CCP residual
 * is below this fraction of the Coulomb (Siconos) error, i.e. once the error
 * left is due to the shift s rather than to the inner solve. */
#define APGD_DESAXCE_RATIO 0.3

/* ---- global quantities (NsdDelassus.reduce_sum / reduce_max) ---------------------
 * A whole problem (both hooks NULL) computes every quantity as before; one part of a
 * distributed problem adds its partial sums to those of the other parts through the
 * hooks before any decision, so that every part decides alike. */

int apgd_parts(const NsdDelassus* d) {
  return d && d->reduce_sum && d->reduce_max;
}

/* values[0..n) summed over the parts (nothing for a whole problem). */
void apgd_reduce_sum(const NsdDelassus* d, double* values, int n) {
  if (apgd_parts(d)) d->reduce_sum(d->user, values, n);
}

/* Euclidean norm of the global vector whose part here is x[m]; nsd_fcc_norm for a
 * whole problem. */
double apgd_norm(const NsdDelassus* d, const double* x, int m, int nt) {
  if (!apgd_parts(d)) return nsd_fcc_norm(x, m, nt);
  double s = nsd_fcc_dot(x, x, m, nt);
  d->reduce_sum(d->user, &s, 1);
  return sqrt(s);
}

/* nsd_fcc_natural_residual of the global (r, v); @p q_norm is global. */
double apgd_natural_residual(const NsdDelassus* d, int dim, int nc, const double* mu,
                             const double* r, const double* v, int desaxce, double q_norm, int nt) {
  if (!apgd_parts(d)) return nsd_fcc_natural_residual(dim, nc, mu, r, v, desaxce, q_norm, nt);
  double sums[3];
  nsd_fcc_natural_sums(dim, nc, mu, r, v, desaxce, sums, nt);
  d->reduce_sum(d->user, sums, 3);
  return nsd_fcc_natural_value(sums, q_norm);
}

/* The time limit passed on some part (every part stops at the same iteration). */
int apgd_time_up(const NsdDelassus* d, const NsdReport* rep, double limit) {
  if (!apgd_parts(d) || !(limit > 0.0)) return nsd_time_up(rep, limit);
  double up = nsd_time_up(rep, limit) ? 1.0 : 0.0;
  d->reduce_max(d->user, &up, 1);
  return up > 0.0;
}

/* For a part of a distributed problem: whether the input check failed on another
 * part (@p ok: this part's verdict, its message already in @p rep when 0). Every
 * part returns the same status. A whole problem: ok itself. */
int apgd_input_ok(const NsdDelassus* d, int ok, NsdReport* rep) {
  if (!apgd_parts(d)) return ok;
  double fault = ok ? 0.0 : 1.0;
  d->reduce_max(d->user, &fault, 1);
  if (fault > 0.0 && ok)
    nsd_report_fail(rep, NSD_BAD_INPUT,
                    "APGD: bad input in another part of the distributed problem");
  return fault == 0.0;
}

/* Allocate the state for m = dim*nc unknowns, with r and u as two of the
 * buffers, and set up the operator. */
NsdStatus apgd_init(Apgd* a, const NsdDelassus* d, int dim, const double* mu, double* r, double* u,
                    const NsdSolverOptions* opt, NsdReport* rep) {
  memset(a, 0, sizeof *a);
  a->d = d;
  a->dim = dim;
  a->m = d->size;
  a->m_global = (double)a->m;
  apgd_reduce_sum(d, &a->m_global, 1);
  a->nc = d->size / dim;
  a->mu = mu;
  a->nt = nsd_fcc_threads(opt->threads);
  a->max_backtracks = opt->apgd.max_backtracks;
  a->adaptive_restart = opt->apgd.adaptive_restart;
  a->best_value = INFINITY;
  size_t m = (size_t)(a->m > 0 ? a->m : 1);
  int metric = opt->apgd.preconditioner != NSD_APGD_PRECONDITIONER_NONE;
  const int drift = opt->apgd.drift != 0;
  a->block = malloc(((metric ? 6 : 5) + (drift ? 2 : 0)) * m * sizeof *a->block);
  if (!a->block) return nsd_report_fail(rep, NSD_FAILED, "APGD: out of memory, m = %d", a->m);
  a->pool[0] = r;
  a->pool[1] = a->block;
  a->pool[2] = a->block + m;
  a->gamma = a->pool[0];
  a->gp = a->pool[1];
  a->best = a->gamma;
  a->ngamma = u;
  a->ngp = a->block + 2 * m;
  a->y = a->block + 3 * m;
  a->ny = a->block + 4 * m;
  if (drift) {
    a->drift_dir = a->block + (metric ? 6 : 5) * m;
    a->drift_ndir = a->drift_dir + m;
  }
  if (metric) {
    // the weights, or the Euclidean metric when this operator gives no diagonal; every
    // part of a distributed problem alike
    a->w = a->block + 5 * m;
    double none = nsd_apgd_metric_weights(d, dim, opt->apgd.preconditioner, a->w) ? 0.0 : 1.0;
    if (apgd_parts(d)) d->reduce_max(d->user, &none, 1);
    if (none > 0.0) a->w = NULL;
  }
  if (nsd_fcc_operator_init(&a->op, d, a->nt) != NSD_OK) {
    free(a->block);
    a->block = NULL;
    return nsd_report_fail(rep, NSD_FAILED, "APGD: out of memory for the operator");
  }
  return NSD_OK;
}

void apgd_free(Apgd* a) {
  nsd_fcc_operator_free(&a->op);
  free(a->block);
  a->block = NULL;
}

/* A buffer of the pool that holds neither gamma nor best. */
double* apgd_free_buffer(const Apgd* a) {
  for (int k = 0; k < 3; ++k)
    if (a->pool[k] != a->gamma && a->pool[k] != a->best) return a->pool[k];
  return NULL; /* unreachable: three buffers, two in use at most */
}

/*
 * Start point g_0 = Pi_K(r) (warm) or 0, with N g_0 and the first Lipschitz
 * estimate L_0 = ||N (g_0 - g~_0)|| / ||g_0 - g~_0||, g~_0 = (1, ..., 1).
 */
void apgd_start(Apgd* a, const double* r, int warm) {
  int m = a->m, nt = a->nt;
  if (warm) {
    nsd_fcc_copy(r, a->gamma, m, nt);
    nsd_fcc_project(a->dim, a->nc, a->mu, a->gamma, nt);
    nsd_fcc_operator_apply(&a->op, a->gamma, a->ngamma);
  } else if (m > 0) {
    memset(a->gamma, 0, (size_t)m * sizeof *a->gamma);
    memset(a->ngamma, 0, (size_t)m * sizeof *a->ngamma);
  }
  // d = g_0 - 1 (or 1 if g_0 is the ones vector), L_0 = ||N d|| / ||d||
  for (int i = 0; i < m; ++i) a->y[i] = a->gamma[i] - 1.0;
  double dn = apgd_norm(a->d, a->y, m, nt);
  if (!(dn > 0.0)) {
    for (int i = 0; i < m; ++i) a->y[i] = 1.0;
    dn = sqrt(a->m_global);
  }
  nsd_fcc_operator_apply(&a->op, a->y, a->ny);
  double L;
  if (a->w) {
    // in D's metric: ||D^-1/2 N d|| / ||D^1/2 d||
    double s[2] = {0.0, 0.0};
    for (int i = 0; i < m; ++i) {
      s[0] += a->ny[i] * a->ny[i] / a->w[i];
      s[1] += a->y[i] * a->y[i] * a->w[i];
    }
    apgd_reduce_sum(a->d, s, 2);
    L = s[1] > 0.0 ? sqrt(s[0] / s[1]) : 0.0;
  } else {
    L = apgd_norm(a->d, a->ny, m, nt) / dn;
  }
  a->L = (L > 0.0 && isfinite(L)) ? L : 1.0;
}

/* ---- fused vector passes (one parallel region each) ------------------------------ */

/* out = Pi_K(y - t g) for one contact, in the metric of the weights w (nullable:
 * Euclidean). */
static inline void apgd_step_block(int dim, double mu, const double* w, const double* y,
                                   const double* g, double t, double* out) {
  if (w) {
    nsd_apgd_metric_step(dim, mu, w, y, g, t, out);
    return;
  }
  for (int k = 0; k < dim; ++k) out[k] = y[k] - t * g[k];
  nsd_fcc_project_block(dim, mu, out);
}

/* g' = Pi_K(y - t (N y + qs)), the gradient formed on the fly. */
static void apgd_step(const Apgd* a, double t) {
  const int dim = a->dim;
  const double* restrict y = a->y;
  const double* restrict ny = a->ny;
  const double* restrict qs = a->qs;
  const double* mu = a->mu;
  const double* w = a->w;
  double* restrict gp = a->gp;
  NSD_FCC_PARALLEL_FOR_DYNAMIC(a->nt, a->m, 1024)
  for (int c = 0; c < a->nc; ++c) {
    size_t o = (size_t)dim * (size_t)c;
    double g[3];
    for (int k = 0; k < dim; ++k) g[k] = ny[o + k] + qs[o + k];
    apgd_step_block(dim, mu ? mu[c] : 0.0, w ? w + o : NULL, y + o, g, t, gp + o);
  }
}

/*
 * Epilogue of the product N g' on its rows [r0, r1) (chunk c): with
 * d = g' - y, d^T (N g' - N y) and d^T d (the backtracking test) and, with
 * adaptive restart, (N y + qs)^T (g' - g) (the restart test). apgd_product_sums adds
 * the chunks in order.
 */
static void apgd_sums_rows(void* ctx, int c, int r0, int r1) {
  Apgd* a = ctx;
  const double* restrict y = a->y;
  const double* restrict ny = a->ny;
  const double* restrict gp = a->gp;
  const double* restrict ngp = a->ngp;
  const double* restrict g = a->gamma;
  const double* restrict qs = a->qs;
  const double* restrict w = a->w;
  double dnd = 0.0, dd = 0.0, rt = 0.0;
  for (int i = r0; i < r1; ++i) {
    double d = gp[i] - y[i];
    dnd += d * (ngp[i] - ny[i]);
    dd += w ? d * d * w[i] : d * d;
  }
  if (a->adaptive_restart)
    for (int i = r0; i < r1; ++i) rt += (ny[i] + qs[i]) * (gp[i] - g[i]);
  a->part[c][0] = dnd;
  a->part[c][1] = dd;
  a->part[c][2] = rt;
}

/* N g' and, in the same parallel region, the sums of apgd_sums_rows added
 * chunk by chunk in order (the chunks depend on the operator alone). */
static void apgd_product_sums(Apgd* a, double s[3]) {
  int nch = nsd_fcc_operator_apply_then(&a->op, a->gp, a->ngp, apgd_sums_rows, a);
  s[0] = s[1] = s[2] = 0.0;
  for (int c = 0; c < nch; ++c)
    for (int k = 0; k < 3; ++k) s[k] += a->part[c][k];
  // the three sums of the parts in one message
  apgd_reduce_sum(a->d, s, 3);
}

/*
 * Measures of x (with nx = N x) in one pass over the contacts: own, the
 * natural-map residual of the CCP with v = nx + qs; coulomb (q_true set), the
 * Siconos error with u = nx + q_true. Returns the measure the best iterate is
 * chosen by (coulomb when q_true is set, else own). In the same pass, the new
 * y and N y from x = g' and the old g (see ApgdExtrapolate) and, if next is
 * set, the projected step of the next iteration from them,
 * next = Pi_K(y - t_next (N y + qs)) (as apgd_step). next may be the buffer
 * of the old g: each contact reads it before writing.
 */
double apgd_eval(Apgd* a, const double* x, const double* nx, ApgdExtrapolate mode, double beta,
                 double* next, double t_next) {
  const int dim = a->dim, nc = a->nc;
  const double* mu = a->mu;
  const double* qs = a->qs;
  const double* qt = a->q_true;
  const double* g = a->gamma;
  const double* ng = a->ngamma;
  double* y = a->y;
  double* ny = a->ny;
  const double alpha = 1.0 + beta, mbeta = -beta;
  if (nc <= 0 && !apgd_parts(a->d)) {
    a->own = a->coulomb = 0.0;
    return 0.0;
  }
  // tot: the sums of the own measure (3), then of the Coulomb one (3)
  double tot[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  int len = nsd_fcc_chunk_length(nc > 0 ? nc : 1), nch = nc > 0 ? (nc + len - 1) / len : 0;
  double part[NSD_FCC_MAX_CHUNKS][6];
  NSD_FCC_PARALLEL_FOR_DYNAMIC(a->nt, a->m, 2)
  for (int c = 0; c < nch; ++c) {
    int a0 = c * len, a1 = a0 + len < nc ? a0 + len : nc;
    double so[3] = {0.0, 0.0, 0.0}, sc[3] = {0.0, 0.0, 0.0};
    for (int k = a0; k < a1; ++k) {
      size_t o = (size_t)dim * (size_t)k;
      double m = mu ? mu[k] : 0.0, v[3] = {0.0, 0.0, 0.0};
      for (int j = 0; j < dim; ++j) v[j] = nx[o + j] + qs[o + j];
      nsd_fcc_natural_terms(dim, m, x + o, v, 0, so);
      if (qt) {
        for (int j = 0; j < dim; ++j) v[j] = nx[o + j] + qt[o + j];
        nsd_fcc_natural_terms(dim, m, x + o, v, 1, sc);
      }
      if (mode == APGD_EXTRAPOLATE_NONE) continue;
      double yk[3], nyk[3];
      for (int j = 0; j < dim; ++j) {
        if (mode == APGD_EXTRAPOLATE_MOMENTUM) {
          yk[j] = alpha * x[o + j] + mbeta * g[o + j];
          nyk[j] = alpha * nx[o + j] + mbeta * ng[o + j];
        } else {
          yk[j] = x[o + j];
          nyk[j] = nx[o + j];
        }
        y[o + j] = yk[j];
        ny[o + j] = nyk[j];
      }
      if (next) {
        double gk[3];
        for (int j = 0; j < dim; ++j) gk[j] = nyk[j] + qs[o + j];
        apgd_step_block(dim, m, a->w ? a->w + o : NULL, yk, gk, t_next, next + o);
      }
    }
    for (int j = 0; j < 3; ++j) {
      part[c][j] = so[j];
      part[c][3 + j] = sc[j];
    }
  }
  for (int c = 0; c < nch; ++c)
    for (int j = 0; j < 3; ++j) {
      tot[j] += part[c][j];
      tot[3 + j] += part[c][3 + j];
    }
  // the sums of the parts, both measures in one message
  apgd_reduce_sum(a->d, tot, qt ? 6 : 3);
  a->own = nsd_fcc_natural_value(tot, a->qs_norm);
  if (!qt) return a->own;
  a->coulomb = nsd_fcc_natural_value(tot + 3, a->q_norm);
  return a->coulomb;
}

/*
 * APGD iterations from g_0 = a->gamma (with N g_0 in a->ngamma) on the linear
 * term a->qs, until the measure (apgd_eval) of the best iterate <= tol, or (De
 * Saxcé mode, desaxce = 1) the CCP residual falls below APGD_DESAXCE_RATIO
 * times the Coulomb error, or the budget (report->iterations <
 * max_iterations) or time runs out. On return a->gamma / a->ngamma hold the
 * best iterate and its product (except after a non-finite start point).
 *
 * Parallel regions per iteration: the projected step, the product N g' (one
 * region for a fused factored operator), the backtracking/restart sums, and
 * the measures of g' fused with the update of y and N y; plus two per
 * backtracking step.
 */
ApgdEnd apgd_run(Apgd* a, double tol, int max_iterations, double time_limit, int desaxce,
                 NsdReport* rep) {
  int m = a->m, nt = a->nt;
  ApgdEnd end = APGD_STOPPED;

  // the start point may already do
  double value = apgd_eval(a, a->gamma, a->ngamma, APGD_EXTRAPOLATE_NONE, 0.0, NULL, 0.0);
  if (!isfinite(value)) return APGD_DIVERGED;
  if (desaxce) {
    // the inner run keeps its best iterate by its own (CCP) residual; the iterate of
    // least Coulomb error is copied aside, so that restarting from it cannot cycle
    if (a->keep && a->coulomb < a->keep_value) {
      a->keep_value = a->coulomb;
      nsd_fcc_copy(a->gamma, a->keep, m, nt);
    }
    if (a->coulomb <= tol) end = APGD_CONVERGED;
    value = a->own;
  }
  a->best = a->gamma;
  a->best_value = value;
  if (!desaxce && a->best_value <= tol) end = APGD_CONVERGED;

  // y_0 = g_0, theta_0 = 1, t = 1/L
  nsd_fcc_copy(a->gamma, a->y, m, nt);
  nsd_fcc_copy(a->ngamma, a->ny, m, nt);
  a->gp = apgd_free_buffer(a);
  double theta = 1.0, L = a->L, t = 1.0 / L;
  ApgdDrift drift = {0, -1.0};
  int stepped = 0; /* g' of this iteration already computed (by the last apgd_eval) */

  while (end == APGD_STOPPED && rep->iterations < max_iterations &&
         !apgd_time_up(a->d, rep, time_limit)) {
    rep->iterations++;

    // (1, 2) projected step g' = Pi_K(y - t g), g = N y + q formed on the fly
    //        (unless done with the previous residual), then N g'
    // (3)    backtracking while f(g') > f(y) + g^T (g' - y) + L/2 ||g' - y||^2.
    //        f is quadratic, so with d = g' - y the test reads d^T N d > L ||d||^2,
    //        evaluated as (g' - y)^T (N g' - N y) (no cancellation of f values);
    //        these sums and the restart test g^T (g' - g) of (8) are taken in
    //        the parallel region of the product
    if (!stepped) apgd_step(a, t);
    double s[3];
    apgd_product_sums(a, s);
    for (int bt = 0; bt < a->max_backtracks && s[0] > L * s[1]; ++bt) {
      L *= APGD_BACKTRACK_GROWTH;
      t = 1.0 / L;
      apgd_step(a, t);
      apgd_product_sums(a, s);
    }

    // (4) theta' = (-theta^2 + theta sqrt(theta^2 + 4)) / 2
    double theta_next = 0.5 * (-theta * theta + theta * sqrt(theta * theta + 4.0));

    // (5) beta = theta (1 - theta) / (theta^2 + theta')
    double beta = theta * (1.0 - theta) / (theta * theta + theta_next);

    // (8) adaptive restart when g^T (g' - g) > 0: y' = g', theta' = 1
    int restart = a->adaptive_restart && s[2] > 0.0;
    if (restart) theta_next = 1.0;

    // (9) L <- 0.9 L, t = 1/L (the step of the next iteration)
    double L_next = L * APGD_STEP_DECAY, t_next = 1.0 / L_next;

    // (6, 7) y' = g' + beta (g' - g), and by linearity N y' = (1 + beta) N g' - beta N g
    //     (or y' = g' on restart), in the same pass as the residual of g'
    //     (projected-gradient map, see apgd_eval) and the next step
    //     Pi_K(y' - t_next (N y' + q)). That step goes to a buffer that is
    //     free whether g' becomes the best or not: the third one if the best
    //     is g, else g's own (read before written, contact by contact)
    double* next = NULL;
    if (rep->iterations < max_iterations) {
      if (a->best != a->gamma) {
        next = a->gamma;
      } else {
        for (int k = 0; k < 3; ++k)
          if (a->pool[k] != a->gamma && a->pool[k] != a->gp) next = a->pool[k];
      }
    }
    value =
        apgd_eval(a, a->gp, a->ngp, restart ? APGD_EXTRAPOLATE_RESTART : APGD_EXTRAPOLATE_MOMENTUM,
                  beta, next, t_next);
    if (isfinite(value) && apgd_drift_jump(a, &drift, desaxce ? a->own : value)) {
      // g' moved along a null direction of N to a cone boundary: evaluated again, momentum
      // restarted (y = g'), the next step from there
      value = apgd_eval(a, a->gp, a->ngp, APGD_EXTRAPOLATE_RESTART, 0.0, next, t_next);
      theta_next = 1.0;
    }
    nsd_report_record(rep, value);
    if (!isfinite(value)) {
      end = APGD_DIVERGED;
      break;
    }
    int converged = 0;
    if (desaxce) {
      if (a->keep && a->coulomb < a->keep_value) {
        a->keep_value = a->coulomb;
        nsd_fcc_copy(a->gp, a->keep, m, nt);
      }
      converged = a->coulomb <= tol;
      value = a->own;
    }
    // keep the best iterate (by reference: its buffer is not written again while it is the best)
    if (value < a->best_value || converged) {
      a->best_value = value;
      a->best = a->gp;
    }
    if (converged || (!desaxce && a->best_value <= tol)) {
      end = APGD_CONVERGED;
    } else if (desaxce && a->own <= APGD_DESAXCE_RATIO * a->coulomb) {
      end = APGD_INNER_DONE;
    }

    L = L_next;
    t = t_next;

    // (10) g <- g', theta <- theta'; g' is the step just taken, or goes to a
    //      buffer that is neither g nor the best
    a->gamma = a->gp;
    double* swap = a->ngamma;
    a->ngamma = a->ngp;
    a->ngp = swap;
    a->gp = next ? next : apgd_free_buffer(a);
    stepped = next != NULL;
    theta = theta_next;
  }

  // continue (or return) from the best iterate: N best by one more product
  // when it is not the last iterate
  a->L = L;
  if (a->best != a->gamma) {
    a->gamma = a->best;
    nsd_fcc_operator_apply(&a->op, a->gamma, a->ngamma);
    a->gp = apgd_free_buffer(a);
  }
  return end;
}
