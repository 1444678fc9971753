/*
 * Global semismooth Newton for the generic mechanical problem (nsd_gmp_newton,
 * nsd_gmp.h) on Phi(r) = 0, u = W r + q, one map per block with the block's
 * scale rho = 1 / ||W_bb||_F:
 *  - equality rows: Phi = rho u;
 *  - LCP rows: Fischer-Burmeister fb(r, rho u) = r + rho u - sqrt(r^2 + rho^2 u^2),
 *    or the min function min(r, rho u);
 *  - 3D cones: the Alart-Curnier map of fc_maps.h (shared with the FC3D Newton
 *    and the local solvers); 2D cones: the same map with one tangent;
 *  - relay rows: the natural map r - Pi_[lower,upper](r - rho u).
 * Each map gives d Phi_b = A_b dr_b + B_b du_b, so J = A + B W (A, B block
 * diagonal), assembled in CSC from W's rows. Each step:
 *   1. J d = -Phi by sparse LU (nsd_factor_create); when J is singular or d is
 *      not a descent direction of theta = 1/2 ||Phi||^2 (grad = J^T Phi), the
 *      direction of (J + eps I) d = -Phi, eps growing from max(1e-10, ||Phi||);
 *   2. Armijo backtracking on theta (options->newton); a trial step that fails
 *      the test but lowers the Siconos error is taken too (near round-off, where
 *      theta stops decreasing reliably: GMP5 of the shared set, W ~ 1e6);
 *   3. stop when the Siconos GMP error is below tolerance.
 * When this monotone pass stops short (line search failed, no direction, the
 * error not halved in GMP_NEWTON_STALL steps) with iterations left, a second pass starts again from
 * the initial r with a non-monotone test, against the largest theta of the last
 * GMP_NEWTON_WINDOW steps (Grippo, Lampariello, Lucidi 1986): theta is not smooth
 * where a cone or a relay row changes case, and the monotone search can stall
 * there on ever smaller steps (the redundant box-on-box contacts of
 * Examples/ArmPushesBoxes at the impact, issue 26). The non-monotone search alone
 * can cycle instead, so it is the second pass; the pass with the lower error
 * gives the answer, and the iterations of both are counted.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/solver_core.h"
#include "friction/fc_maps.h"
#include "gmp/gmp_internal.h"

/* Descent test of step 1: grad.d <= -c ||d||^p (De Luca, Facchinei, Kanzow 1996). */
#define GMP_NEWTON_DESCENT_C 1e-12
#define GMP_NEWTON_DESCENT_P 2.1
/* Regularisations of step 1: eps = max(FIRST, ||Phi||) GROWTH^k, k < TRIES. */
#define GMP_NEWTON_REG_FIRST 1e-10
#define GMP_NEWTON_REG_GROWTH 10.0
#define GMP_NEWTON_REG_TRIES 8
/* Steps whose theta the non-monotone line search compares with. */
#define GMP_NEWTON_WINDOW 10
/* Steps in which a pass must halve the error. */
#define GMP_NEWTON_STALL 500
/* 1/sqrt(2): the Fischer-Burmeister derivatives at the kink r = u = 0. */
#define GMP_NEWTON_SQRT1_2 0.70710678118654752440

typedef struct Newton {
  NsdGmpData d;
  int fb;      /* 1: Fischer-Burmeister on LCP rows, 0: min */
  double* rho; /* [n_blocks] */
  double* a;   /* [sum s^2] A_b, column-major, at d.diag_at[b] */
  double* b;   /* [sum s^2] B_b */
  double* vec; /* the vectors below, n each */
  double *phi, *dir, *grad, *rt, *ut, *phit;
  double *r0, *r1, *u1; /* the start, and the end of the monotone pass */
  int* ti;              /* triplets of J (+ the diagonal for eps I) */
  int* tj;
  double* tx;
  size_t tcap;
  double window[GMP_NEWTON_WINDOW]; /* theta of the last steps of a pass */
} Newton;

static void newton_free(Newton* s) {
  nsd_gmpi_data_free(&s->d);
  free(s->rho);
  free(s->a);
  free(s->b);
  free(s->vec);
  free(s->ti);
  free(s->tj);
  free(s->tx);
}

/* The map of one LCP row, with its derivatives in r and in u. */
static void lcp_row(int fb, double r, double u, double rho, double* phi, double* da, double* du) {
  const double y = rho * u;
  if (fb) {
    const double s = sqrt(r * r + y * y);
    *phi = r + y - s;
    if (s > 0.0) {
      *da = 1.0 - r / s;
      *du = rho * (1.0 - y / s);
    } else {  // an element of the generalized Jacobian at the kink
      *da = 1.0 - GMP_NEWTON_SQRT1_2;
      *du = rho * (1.0 - GMP_NEWTON_SQRT1_2);
    }
  } else if (r <= y) {
    *phi = r;
    *da = 1.0;
    *du = 0.0;
  } else {
    *phi = y;
    *da = 0.0;
    *du = rho;
  }
}

/* Alart-Curnier map of one 2D contact (normal, tangent), rho_n = rho_t = rho. */
static void ac2(const double* r, const double* u, double mu, double rho, double* phi, double* a,
                double* b) {
  memset(a, 0, 4 * sizeof *a);
  memset(b, 0, 4 * sizeof *b);
  const double xn = r[0] - rho * u[0];
  if (xn > 0.0) {
    phi[0] = rho * u[0];
    b[0] = rho;
  } else {
    phi[0] = r[0];
    a[0] = 1.0;
  }
  const double radius = mu * (xn > 0.0 ? xn : 0.0), y = r[1] - rho * u[1];
  if (radius > 0.0 && fabs(y) <= radius) {
    phi[1] = rho * u[1];
    b[3] = rho;
    return;
  }
  const double e = y > 0.0 ? 1.0 : y < 0.0 ? -1.0 : 0.0;
  phi[1] = r[1] - radius * e;
  a[3] = 1.0;
  if (radius > 0.0) {
    a[1] = -mu * e;
    b[1] = mu * rho * e;
  }
}

/* Phi at (r, u = W r + q), and the blocks A, B when @p jac. */
static void evaluate(Newton* s, const double* r, const double* u, double* phi, int jac) {
  const NsdGmp* p = s->d.p;
  for (int bl = 0; bl < p->n_blocks; ++bl) {
    const int k = p->blocks[bl].size, at = p->start[bl];
    const double rho = s->rho[bl];
    double* a = s->a + s->d.diag_at[bl];
    double* b = s->b + s->d.diag_at[bl];
    double a3[9], b3[9];
    switch (p->blocks[bl].kind) {
      case NSD_GMP_EQUALITY:
        memset(a, 0, (size_t)k * k * sizeof *a);
        memset(b, 0, (size_t)k * k * sizeof *b);
        for (int i = 0; i < k; ++i) {
          phi[at + i] = rho * u[at + i];
          b[i + (size_t)i * k] = rho;
        }
        break;
      case NSD_GMP_LCP:
        memset(a, 0, (size_t)k * k * sizeof *a);
        memset(b, 0, (size_t)k * k * sizeof *b);
        for (int i = 0; i < k; ++i)
          lcp_row(s->fb, r[at + i], u[at + i], rho, &phi[at + i], &a[i + (size_t)i * k],
                  &b[i + (size_t)i * k]);
        break;
      case NSD_GMP_FC3D:
        nsd_fcm_ac(r + at, u + at, p->blocks[bl].mu, rho, rho, phi + at, jac ? a3 : NULL,
                   jac ? b3 : NULL);
        if (jac) {
          memcpy(a, a3, sizeof a3);
          memcpy(b, b3, sizeof b3);
        }
        break;
      case NSD_GMP_FC2D:
        ac2(r + at, u + at, p->blocks[bl].mu, rho, phi + at, a, b);
        break;
      case NSD_GMP_RELAY:
        memset(a, 0, (size_t)k * k * sizeof *a);
        memset(b, 0, (size_t)k * k * sizeof *b);
        for (int i = 0; i < k; ++i) {
          const double x = r[at + i] - rho * u[at + i];
          if (x > p->lower[at + i] && x < p->upper[at + i]) {  // inside: Phi = rho u
            phi[at + i] = rho * u[at + i];
            b[i + (size_t)i * k] = rho;
          } else {  // on a bound: Phi = r - bound
            phi[at + i] = r[at + i] - (x >= p->upper[at + i] ? p->upper[at + i] : p->lower[at + i]);
            a[i + (size_t)i * k] = 1.0;
          }
        }
        break;
    }
  }
}

/* Append a triplet, growing the arrays; 0 on no memory. */
static int push(Newton* s, size_t* count, int i, int j, double x) {
  if (*count == s->tcap) {
    const size_t cap = s->tcap ? 2 * s->tcap : 1024;
    int* ni = realloc(s->ti, cap * sizeof *ni);
    if (ni) s->ti = ni;
    int* nj = realloc(s->tj, cap * sizeof *nj);
    if (nj) s->tj = nj;
    double* nx = realloc(s->tx, cap * sizeof *nx);
    if (nx) s->tx = nx;
    if (!ni || !nj || !nx) return 0;
    s->tcap = cap;
  }
  s->ti[*count] = i;
  s->tj[*count] = j;
  s->tx[*count] = x;
  ++*count;
  return 1;
}

/* J + eps I in CSC from the blocks A, B at the last evaluate; NULL on no memory. */
static NsdMatrix* assemble(Newton* s, double eps) {
  const NsdGmp* p = s->d.p;
  size_t count = 0;
  for (int bl = 0; bl < p->n_blocks; ++bl) {
    const int k = p->blocks[bl].size, at = p->start[bl];
    const double* a = s->a + s->d.diag_at[bl];
    const double* b = s->b + s->d.diag_at[bl];
    for (int i = 0; i < k; ++i) {
      for (int c = 0; c < k; ++c) {
        const double aic = a[i + (size_t)c * k], bic = b[i + (size_t)c * k];
        if (aic != 0.0 && !push(s, &count, at + i, at + c, aic)) return NULL;
        if (bic == 0.0) continue;
        for (int e = s->d.row_ptr[at + c]; e < s->d.row_ptr[at + c + 1]; ++e)
          if (!push(s, &count, at + i, s->d.col[e], bic * s->d.val[e])) return NULL;
      }
      if (!push(s, &count, at + i, at + i, eps)) return NULL;
    }
  }
  return nsd_matrix_create_csc_from_triplets(p->n, p->n, (int)count, s->ti, s->tj, s->tx);
}

static double dot(int n, const double* x, const double* y) {
  double t = 0.0;
  for (int i = 0; i < n; ++i) t += x[i] * y[i];
  return t;
}

/* A descent direction into s->dir (grad = J^T Phi into s->grad); 0 when none was found. */
static int direction(Newton* s, double* gd) {
  const int n = s->d.p->n;
  const double phinorm = sqrt(dot(n, s->phi, s->phi));
  double eps = 0.0;
  for (int attempt = 0; attempt <= GMP_NEWTON_REG_TRIES; ++attempt) {
    NsdMatrix* J = assemble(s, eps);
    if (!J) return 0;
    if (attempt == 0) nsd_matrix_gemv_t(1.0, J, s->phi, 0.0, s->grad);
    NsdFactor* lu = NULL;
    int ok = nsd_factor_create(J, NSD_FACTOR_LU, &lu, NULL) == NSD_OK;
    nsd_matrix_destroy(J);
    if (ok) {
      for (int i = 0; i < n; ++i) s->dir[i] = -s->phi[i];
      ok = nsd_factor_solve(lu, s->dir) == NSD_OK;
    }
    nsd_factor_destroy(lu);
    if (ok) {
      const double dn = sqrt(dot(n, s->dir, s->dir));
      *gd = dot(n, s->grad, s->dir);
      if (isfinite(*gd) && *gd <= -GMP_NEWTON_DESCENT_C * pow(dn, GMP_NEWTON_DESCENT_P)) return 1;
    }
    eps = attempt == 0 ? fmax(GMP_NEWTON_REG_FIRST, phinorm) : eps * GMP_NEWTON_REG_GROWTH;
  }
  // last resort: steepest descent
  for (int i = 0; i < n; ++i) s->dir[i] = -s->grad[i];
  *gd = -dot(n, s->grad, s->grad);
  return *gd < 0.0;
}

static NsdStatus newton_init(Newton* s, const NsdGmp* p, const NsdSolverOptions* opt,
                             NsdReport* report) {
  memset(s, 0, sizeof *s);
  NsdStatus st = nsd_gmpi_data_init(&s->d, p, report);
  if (st != NSD_OK) return st;
  s->fb = opt->newton.merit == NSD_MERIT_FISCHER_BURMEISTER;
  const int nb = p->n_blocks, n = p->n;
  size_t total = 0;
  for (int b = 0; b < nb; ++b) total += (size_t)p->blocks[b].size * (size_t)p->blocks[b].size;
  s->rho = malloc((size_t)(nb > 0 ? nb : 1) * sizeof *s->rho);
  s->a = malloc((total > 0 ? total : 1) * sizeof *s->a);
  s->b = malloc((total > 0 ? total : 1) * sizeof *s->b);
  s->vec = malloc(9 * (size_t)(n > 0 ? n : 1) * sizeof *s->vec);
  if (!s->rho || !s->a || !s->b || !s->vec)
    return nsd_report_fail(report, NSD_FAILED, "GMP newton: out of memory, n=%d", n);
  double* v = s->vec;
  const size_t m = (size_t)(n > 0 ? n : 1);
  s->phi = v;
  s->dir = v + m;
  s->grad = v + 2 * m;
  s->rt = v + 3 * m;
  s->ut = v + 4 * m;
  s->phit = v + 5 * m;
  s->r0 = v + 6 * m;
  s->r1 = v + 7 * m;
  s->u1 = v + 8 * m;
  for (int b = 0; b < nb; ++b) {
    const int k = p->blocks[b].size;
    const double* w = s->d.diag + s->d.diag_at[b];
    double f = 0.0;
    for (int e = 0; e < k * k; ++e) f += w[e] * w[e];
    // equality rows: Phi = u, the quantity the Siconos error measures unscaled
    s->rho[b] = p->blocks[b].kind == NSD_GMP_EQUALITY || !(f > 0.0) ? 1.0 : 1.0 / sqrt(f);
  }
  return NSD_OK;
}

/*
 * Newton steps from (r, u = W r + q, error err) while the error is above the
 * tolerance and *it < max_iterations; the line search compares with the largest
 * theta of the last @p window steps of this pass (1: monotone Armijo). The pass
 * stops, failing @p report, when the error has not halved in GMP_NEWTON_STALL
 * steps, when no direction is found or the line search fails. Returns the error
 * at the end.
 */
static double iterate(Newton* s, double* r, double* u, double err, int window,
                      const NsdSolverOptions* opt, NsdReport* report, int* it) {
  const int n = s->d.p->n;
  double mark = err;  // the error GMP_NEWTON_STALL steps must halve
  for (int k = 0, k_mark = 0;
       err > opt->tolerance && *it < opt->max_iterations && !nsd_time_up(report, opt->time_limit);
       ++k) {
    if (err <= 0.5 * mark) {
      mark = err;
      k_mark = k;
    } else if (k - k_mark >= GMP_NEWTON_STALL) {
      nsd_report_fail(report, NSD_FAILED, "GMP newton: the error %.3e did not halve in %d steps",
                      err, GMP_NEWTON_STALL);
      break;
    }
    evaluate(s, r, u, s->phi, 1);
    const double theta = 0.5 * dot(n, s->phi, s->phi);
    s->window[k % window] = theta;
    double theta_ref = theta;
    for (int j = 0; j < window && j <= k; ++j) theta_ref = fmax(theta_ref, s->window[j]);
    double gd = 0.0;
    if (!direction(s, &gd)) {
      nsd_report_fail(report, NSD_FAILED, "GMP newton: no descent direction at step %d", *it + 1);
      break;
    }
    // Armijo backtracking on theta (non-monotone when window > 1)
    double t = 1.0;
    int accepted = 0;
    for (int ls = 0; ls <= opt->newton.max_line_search; ++ls) {
      for (int i = 0; i < n; ++i) s->rt[i] = r[i] + t * s->dir[i];
      nsd_gmpi_velocity(&s->d, s->rt, s->ut);
      evaluate(s, s->rt, s->ut, s->phit, 0);
      const double theta_t = 0.5 * dot(n, s->phit, s->phit);
      if (isfinite(theta_t) && theta_t <= theta_ref + opt->newton.armijo_sigma * t * gd) {
        accepted = 1;
        break;
      }
      // near round-off the Armijo test can fail on a step that still lowers the error
      if (nsd_gmpi_error(&s->d, s->rt, s->ut) < err) {
        accepted = 1;
        break;
      }
      t *= opt->newton.step_shrink;
    }
    ++*it;
    if (!accepted) {
      nsd_report_fail(report, NSD_FAILED,
                      "GMP newton: the line search failed at step %d (theta %.3e)", *it, theta);
      break;
    }
    memcpy(r, s->rt, (size_t)n * sizeof *r);
    memcpy(u, s->ut, (size_t)n * sizeof *u);
    err = nsd_gmpi_error(&s->d, r, u);
    nsd_report_record(report, err);
  }
  return err;
}

NsdStatus nsd_gmp_newton(const NsdGmp* problem, double* r, double* u,
                         const NsdSolverOptions* options, NsdReport* report) {
  NsdReport own;
  if (!report) {
    memset(&own, 0, sizeof own);
    report = &own;
  }
  NsdSolverOptions opt;
  if (nsd_gmpi_begin("newton", problem, r, u, options, &opt, report) != NSD_OK)
    return report->status;
  Newton s;
  NsdStatus st = newton_init(&s, problem, &opt, report);
  if (st != NSD_OK) {
    newton_free(&s);
    return st;
  }
  const size_t bytes = (size_t)problem->n * sizeof *r;

  memcpy(s.r0, r, bytes);
  nsd_gmpi_velocity(&s.d, r, u);
  const double err0 = nsd_gmpi_error(&s.d, r, u);
  nsd_report_record(report, err0);
  int it = 0;
  double err = iterate(&s, r, u, err0, 1, &opt, report, &it);
  if (err > opt.tolerance && it < opt.max_iterations && !nsd_time_up(report, opt.time_limit)) {
    // the monotone pass stopped short: again from the start, non-monotone; the better end wins
    const NsdStatus first_status = report->status;
    char first_message[sizeof report->message];
    memcpy(first_message, report->message, sizeof first_message);
    memcpy(s.r1, r, bytes);
    memcpy(s.u1, u, bytes);
    memcpy(r, s.r0, bytes);
    nsd_gmpi_velocity(&s.d, r, u);
    report->status = NSD_OK;
    report->message[0] = '\0';
    const double err2 = iterate(&s, r, u, err0, GMP_NEWTON_WINDOW, &opt, report, &it);
    if (err2 < err) {
      err = err2;
    } else {
      memcpy(r, s.r1, bytes);
      memcpy(u, s.u1, bytes);
      report->status = first_status;
      memcpy(report->message, first_message, sizeof first_message);
    }
  }
  report->iterations = it;
  report->residual = err;
  newton_free(&s);
  return nsd_report_finish(report, opt.tolerance);
}
