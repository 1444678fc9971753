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
 * projected step), plus two per backtracking step. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "friction/fc_apgd_metric.h"
#include "friction/fc_cone_internal.h"

/* Lipschitz estimate growth on a failed backtracking test, and decay after
 * each iteration (Mazhar et al. 2015). */
#define APGD_BACKTRACK_GROWTH 2.0
#define APGD_STEP_DECAY 0.9
/* De Saxcé loop: the inner APGD stops to update s once its own CCP residual
 * is below this fraction of the Coulomb (Siconos) error, i.e. once the error
 * left is due to the shift s rather than to the inner solve. */
#define APGD_DESAXCE_RATIO 0.3
/* Cold retry inside the budget (apgd_coulomb): from a warm start, budgets of at
 * least APGD_RETRY_MIN iterations are checked at a quarter and at half of the budget;
 * if the least Coulomb error did not fall by APGD_RETRY_GAIN between the two, the
 * rest of the budget goes to a run from r = 0. */
#define APGD_RETRY_MIN 100
#define APGD_RETRY_GAIN 0.5

/* State of one APGD solve. Vectors of m = dim * nc: seven in all, two of
 * them the caller's r and u (used as workspace until the answer is written):
 *   g_k, g' and the best iterate rotate over three buffers without copies
 *   (the best may be g_k; g' is written to a buffer that is neither);
 *   N g_k and N g' over two (N best is recomputed once at the end of a run
 *   when the best is not the last iterate);
 *   y and N y. */
typedef struct Apgd {
  NsdFccOperator op;
  const NsdDelassus* d; /* its reduce_sum / reduce_max: one part of a global problem */
  int dim, nc, m, nt;
  double m_global; /* m summed over the parts (m itself for a whole problem) */
  const double* mu;
  int max_backtracks, adaptive_restart;
  double* w; /* nullable: [m] weights of the metric D of the projected step (fc_apgd_metric.h) */
  double L;  /* Lipschitz estimate, t = 1/L */
  const double* qs; /* [m] linear term of the convex problem */
  double qs_norm;
  const double* q_true; /* nullable: [m] q of the Coulomb problem (De Saxcé mode) */
  double q_norm;
  double* pool[3];     /* buffers of gamma, gp, best */
  double* gamma;       /* g_k */
  double* gp;          /* g' = g_{k+1} */
  double* best;        /* best iterate so far */
  double* ngamma;      /* N g_k */
  double* ngp;         /* N g' */
  double* y;           /* y_k */
  double* ny;          /* N y_k */
  double best_value;   /* measure of best */
  double own, coulomb; /* measures of the last iterate evaluated */
  double* keep; /* De Saxcé mode: copy of the iterate of least Coulomb error so far (nullable) */
  double keep_value;                  /* its Coulomb error */
  double* block;                      /* one allocation for the vectors not the caller's */
  double part[NSD_FCC_MAX_CHUNKS][3]; /* per-chunk sums of apgd_sums_rows */
} Apgd;

/* How an inner run ended. */
typedef enum ApgdEnd {
  APGD_CONVERGED,  /* the measure of the best iterate <= tolerance */
  APGD_INNER_DONE, /* De Saxcé mode: CCP solved well enough to update s */
  APGD_STOPPED,    /* iteration budget or time limit */
  APGD_DIVERGED    /* a non-finite iterate */
} ApgdEnd;

/* ---- global quantities (NsdDelassus.reduce_sum / reduce_max) ---------------------
 * A whole problem (both hooks NULL) computes every quantity as before; one part of a
 * distributed problem adds its partial sums to those of the other parts through the
 * hooks before any decision, so that every part decides alike. */

static int apgd_parts(const NsdDelassus* d) {
  return d && d->reduce_sum && d->reduce_max;
}

/* values[0..n) summed over the parts (nothing for a whole problem). */
static void apgd_reduce_sum(const NsdDelassus* d, double* values, int n) {
  if (apgd_parts(d)) d->reduce_sum(d->user, values, n);
}

/* Euclidean norm of the global vector whose part here is x[m]; nsd_fcc_norm for a
 * whole problem. */
static double apgd_norm(const NsdDelassus* d, const double* x, int m, int nt) {
  if (!apgd_parts(d)) return nsd_fcc_norm(x, m, nt);
  double s = nsd_fcc_dot(x, x, m, nt);
  d->reduce_sum(d->user, &s, 1);
  return sqrt(s);
}

/* nsd_fcc_natural_residual of the global (r, v); @p q_norm is global. */
static double apgd_natural_residual(const NsdDelassus* d, int dim, int nc, const double* mu,
                                    const double* r, const double* v, int desaxce, double q_norm,
                                    int nt) {
  if (!apgd_parts(d)) return nsd_fcc_natural_residual(dim, nc, mu, r, v, desaxce, q_norm, nt);
  double sums[3];
  nsd_fcc_natural_sums(dim, nc, mu, r, v, desaxce, sums, nt);
  d->reduce_sum(d->user, sums, 3);
  return nsd_fcc_natural_value(sums, q_norm);
}

/* The time limit passed on some part (every part stops at the same iteration). */
static int apgd_time_up(const NsdDelassus* d, const NsdReport* rep, double limit) {
  if (!apgd_parts(d) || !(limit > 0.0)) return nsd_time_up(rep, limit);
  double up = nsd_time_up(rep, limit) ? 1.0 : 0.0;
  d->reduce_max(d->user, &up, 1);
  return up > 0.0;
}

/* For a part of a distributed problem: whether the input check failed on another
 * part (@p ok: this part's verdict, its message already in @p rep when 0). Every
 * part returns the same status. A whole problem: ok itself. */
static int apgd_input_ok(const NsdDelassus* d, int ok, NsdReport* rep) {
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
static NsdStatus apgd_init(Apgd* a, const NsdDelassus* d, int dim, const double* mu, double* r,
                           double* u, const NsdSolverOptions* opt, NsdReport* rep) {
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
  a->block = malloc((metric ? 6 : 5) * m * sizeof *a->block);
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

static void apgd_free(Apgd* a) {
  nsd_fcc_operator_free(&a->op);
  free(a->block);
  a->block = NULL;
}

/* A buffer of the pool that holds neither gamma nor best. */
static double* apgd_free_buffer(const Apgd* a) {
  for (int k = 0; k < 3; ++k)
    if (a->pool[k] != a->gamma && a->pool[k] != a->best) return a->pool[k];
  return NULL; /* unreachable: three buffers, two in use at most */
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

/* What apgd_eval writes besides the measures. */
typedef enum ApgdExtrapolate {
  APGD_EXTRAPOLATE_NONE,     /* y untouched */
  APGD_EXTRAPOLATE_MOMENTUM, /* y = g' + beta (g' - g), N y likewise */
  APGD_EXTRAPOLATE_RESTART   /* y = g', N y = N g' */
} ApgdExtrapolate;

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
static double apgd_eval(Apgd* a, const double* x, const double* nx, ApgdExtrapolate mode,
                        double beta, double* next, double t_next) {
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
static ApgdEnd apgd_run(Apgd* a, double tol, int max_iterations, double time_limit, int desaxce,
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
