/* Primal-dual interior-point method on the global friction-contact problem
 * (nsd_gfc.h). With the De Saxcé shift s_a = mu_a ||u_Ta|| e_n frozen, the
 * problem is the second-order cone program
 *   min_v 1/2 v^T M v - q^T v  subject to  z = P (H^T v + b + s),  z in L,
 * with L the product of Lorentz cones {x_0 >= ||x_1||} and P the diagonal
 * scaling (1/mu_a on the normal component, 1 on the tangential ones) that maps
 * the dual Coulomb cone K*_a onto L; its multiplier y in L gives the reaction
 * r = P y (in K_a), and M v = q + H P y (Acary, Cadoux, Lemaréchal, Malick,
 * ZAMM 2011; the cone rescaling by mu and the update of s inside the
 * iterations are options of Siconos's gfc3d_IPM). Here s is not frozen: since
 * z_T = u_T at feasibility, P s = ||z_T|| e is written on the slack, and the
 * primal equation R_p = P (H^T v + b) + ||z_T|| e - z = 0 is linearised with
 * E = I - e g^T, g = (0, z_T / ||z_T||), at the contacts that look sliding
 * (||z_T|| > GIPM_SLIDING z_0; g = 0 elsewhere); a fixed point is a Coulomb
 * solution. Infeasible-start Mehrotra predictor-corrector with Nesterov-Todd
 * scaling (Vandenberghe, "The CVXOPT linear and quadratic cone program
 * solvers", 2010, §4): per cone W = beta (2 w w^T - J), W y = W^-1 z = lambda.
 * The Newton system, with G = H P,
 *   M dv - G dy = -R_d,   G^T dv - E dz = -R_p,   W^-1 dz + W dy = lambda \ rc,
 * is reduced to (M + G W^-2 E^-1 G^T) dv = rhs: one sparse system per
 * iteration on the pattern of M + H H^T (analysed once; LU, the matrix is not
 * symmetric), solved twice (predictor, corrector). When it is singular (W^-2
 * spans many decades near the end), the step is retried with g = 0, then with
 * a growing diagonal shift (an inexact Newton step; the residuals stay exact).
 * M may be singular when it is positive definite on the kernel of H^T. The
 * returned (r, v) is the iterate of least nsd_gfc_error. Near the end the De Saxcé term is not
 * smooth at sticking contacts and the Newton matrix is ill-conditioned: when the IPM stalls
 * (GIPM_STALL), fails after its start, or its r alone (v = M^-1 (q + H r)) misses the
 * tolerance, a local phase polishes its best r: nsgs_wr warm-started (a few sweeps on the
 * shared files), ADMM warm-started where M is not symmetric or singular. A warm start tries
 * that local phase from the given r first (GIPM_WARM_SWEEPS sweeps at most). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/solver_core.h"
#include "gfc/gfc_solver_internal.h"

/* fraction of the largest step to the cone boundary taken */
#define GIPM_STEP_FRACTION 0.99
/* stop when the best error has not improved for this many iterations (then polish) */
#define GIPM_STALL 10

/* local sweeps tried from a warm-start r before the IPM starts cold */
#define GIPM_WARM_SWEEPS 50

/* the shift's Jacobian enters the Newton step only at contacts that look sliding,
 * ||z_T|| > GIPM_SLIDING z_0 (elsewhere s is frozen for the step): 0.5 converges on 9 of
 * the 12 shared files, 0.3 or 0.7 on 8, the Jacobian everywhere on 8 as well */
#define GIPM_SLIDING 0.5
/* relative diagonal shifts tried (x100) when the Newton matrix is singular */
#define GIPM_REG_MIN 1e-14
#define GIPM_REG_MAX 1e-6

/* x0^2 - ||x1||^2 */
static double jnorm2(int d, const double* x) {
  double t = 0.0;
  for (int i = 1; i < d; ++i) t += x[i] * x[i];
  t = sqrt(t);
  return (x[0] - t) * (x[0] + t);  // no cancellation of x0^2 - t^2 near the boundary
}

/* Largest alpha in (0, cap] with x + alpha dx in L (x interior). */
static double max_step(int d, const double* x, const double* dx, double cap) {
  double a = jnorm2(d, dx), b = x[0] * dx[0], c = jnorm2(d, x);
  for (int i = 1; i < d; ++i) b -= x[i] * dx[i];
  b *= 2.0;
  // f(alpha) = a alpha^2 + b alpha + c, f(0) = c > 0: the first positive root leaves L
  double step = INFINITY;
  if (fabs(a) <= 1e-300) {
    if (b < 0.0) step = -c / b;
  } else {
    double disc = b * b - 4.0 * a * c;
    if (disc >= 0.0) {
      double sq = sqrt(disc), qq = -0.5 * (b + (b >= 0.0 ? sq : -sq));
      double r1 = qq / a, r2 = qq != 0.0 ? c / qq : INFINITY;
      if (r1 > 0.0) step = fmin(step, r1);
      if (r2 > 0.0) step = fmin(step, r2);
    }
  }
  if (dx[0] < 0.0) step = fmin(step, -x[0] / dx[0]);
  return fmin(step, cap);
}

/* out = lambda \ rc in the Jordan algebra of L (lambda interior). */
static void jordan_div(int d, const double* lam, const double* rc, double* out) {
  double det = jnorm2(d, lam), t = lam[0] * rc[0];
  for (int i = 1; i < d; ++i) t -= lam[i] * rc[i];
  out[0] = t / det;
  for (int i = 1; i < d; ++i) out[i] = (rc[i] - out[0] * lam[i]) / lam[0];
}

/* out = x o y (Jordan product). */
static void jordan_prod(int d, const double* x, const double* y, double* out) {
  double t = 0.0;
  for (int i = 0; i < d; ++i) t += x[i] * y[i];
  for (int i = 1; i < d; ++i) out[i] = x[0] * y[i] + y[0] * x[i];
  out[0] = t;
}

/* y = A x, A d x d column-major */
static void small_gemv(int d, const double* A, const double* x, double* y) {
  for (int i = 0; i < d; ++i) {
    double s = 0.0;
    for (int j = 0; j < d; ++j) s += A[i + j * d] * x[j];
    y[i] = s;
  }
}

/* Nesterov-Todd scaling of (z, y) interior: W, W^-1 (d x d), lambda = W y. 0 if not interior. */
static int nt_scaling(int d, const double* z, const double* y, double* W, double* Wi, double* lam) {
  double nz2 = jnorm2(d, z), ny2 = jnorm2(d, y);
  if (!(nz2 > 0.0 && ny2 > 0.0 && z[0] > 0.0 && y[0] > 0.0)) return 0;
  double nz = sqrt(nz2), ny = sqrt(ny2), dot = 0.0, w[3] = {0.0, 0.0, 0.0}, v[3] = {0.0, 0.0, 0.0};
  for (int i = 0; i < d; ++i) dot += z[i] * y[i];
  dot /= nz * ny;
  double gamma2 = 2.0 * sqrt(0.5 * (1.0 + dot));
  for (int i = 0; i < d; ++i) w[i] = (z[i] / nz + (i ? -y[i] : y[i]) / ny) / gamma2;
  double nv = sqrt(2.0 * (w[0] + 1.0));
  for (int i = 0; i < d; ++i) v[i] = (w[i] + (i ? 0.0 : 1.0)) / nv;
  double beta = sqrt(nz / ny);
  for (int j = 0; j < d; ++j)
    for (int i = 0; i < d; ++i) {
      double jj = (i == j) ? (i ? -1.0 : 1.0) : 0.0, si = i ? -1.0 : 1.0, sj = j ? -1.0 : 1.0;
      W[i + j * d] = beta * (2.0 * v[i] * v[j] - jj);
      Wi[i + j * d] = (2.0 * si * v[i] * v[j] * sj - jj) / beta;
    }
  small_gemv(d, W, y, lam);
  return 1;
}

/* The data of one Newton system (all per-cone arrays indexed by contact). */
typedef struct Ipm {
  const NsdGfc* p;
  int n, m, dim, nc;
  const double* pd; /* [m] diagonal of P */
  double *W, *Wi, *Wi2, *lam;
  double* g;        /* [m] per cone (0, z_T / ||z_T||) */
  double *Rd, *Rp;  /* residuals */
  double *tm, *tm2; /* scratch */
  NsdGfcSystem* sys;
} Ipm;

/* x <- E^-1 x = x + e (g^T x) on one cone, g = (0, z_T / ||z_T||): the inverse of the
 * Jacobian E = I - e g^T of z - ||z_T|| e (the De Saxcé term, linearised). */
static void apply_einv(int d, const double* g, double* x) {
  for (int i = 1; i < d; ++i) x[0] += g[i] * x[i];
}

/* dv, dy, dz of the Newton system with complementarity right-hand side rc:
 *   M dv - G dy = -R_d,  G^T dv - E dz = -R_p,  W^-1 dz + W dy = lambda \ rc = t,
 * so dz = E^-1 (G^T dv + R_p), dy = W^-2 (W t - dz) and
 * (M + G W^-2 E^-1 G^T) dv = -R_d + G W^-2 (W t - E^-1 R_p). */
static NsdStatus newton_solve(const Ipm* s, const double* rc, double* dv, double* dy, double* dz) {
  int d = s->dim, m = s->m, n = s->n;
  double t[3], e[3];
  for (int a = 0; a < s->nc; ++a) {
    jordan_div(d, s->lam + a * d, rc + a * d, t);
    small_gemv(d, s->W + a * d * d, t, s->tm + a * d);  // W t
    for (int i = 0; i < d; ++i) e[i] = s->Rp[a * d + i];
    apply_einv(d, s->g + a * d, e);
    for (int i = 0; i < d; ++i) e[i] = s->tm[a * d + i] - e[i];
    small_gemv(d, s->Wi2 + a * d * d, e, s->tm2 + a * d);
  }
  for (int i = 0; i < m; ++i) s->tm2[i] *= s->pd[i];
  nsd_matrix_gemv(1.0, s->p->H, s->tm2, 0.0, dv);
  for (int i = 0; i < n; ++i) dv[i] -= s->Rd[i];
  if (nsd_gfc_system_solve(s->sys, dv) != NSD_OK) return NSD_FAILED;
  if (m == 0) return NSD_OK;
  nsd_matrix_gemv_t(1.0, s->p->H, dv, 0.0, dz);
  for (int i = 0; i < m; ++i) dz[i] = s->pd[i] * dz[i] + s->Rp[i];  // G^T dv + R_p
  for (int a = 0; a < s->nc; ++a) {
    apply_einv(d, s->g + a * d, dz + a * d);
    for (int i = 0; i < d; ++i) e[i] = s->tm[a * d + i] - dz[a * d + i];
    small_gemv(d, s->Wi2 + a * d * d, e, dy + a * d);
  }
  return NSD_OK;
}

static double cone_step(int d, int nc, const double* x, const double* dx) {
  double step = 1.0;
  for (int a = 0; a < nc; ++a) step = fmin(step, max_step(d, x + a * d, dx + a * d, 1.0));
  return step;
}

/* 1 if x + step dx is strictly inside every cone */
static int inside(int d, int nc, const double* x, const double* dx, double step) {
  double t[3];
  for (int a = 0; a < nc; ++a) {
    for (int i = 0; i < d; ++i) t[i] = x[a * d + i] + step * dx[a * d + i];
    if (!(t[0] > 0.0 && jnorm2(d, t) > 0.0)) return 0;
  }
  return 1;
}

static double dot(const double* a, const double* b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

/* Move x (nc cones) into the interior: x + (max(0, max_a ||x_a1|| - x_a0) + delta) e. */
static void shift_inside(int d, int nc, double* x, double delta) {
  double worst = 0.0;
  for (int a = 0; a < nc; ++a) {
    double t = 0.0;
    for (int i = 1; i < d; ++i) t += x[a * d + i] * x[a * d + i];
    worst = fmax(worst, sqrt(t) - x[a * d]);
  }
  for (int a = 0; a < nc; ++a) x[a * d] += worst + delta;
}

/* The local phase from r0 (the IPM's best r, or a warm start): nsgs_wr warm-started (W = H^T
 * M^-1 H and Gauss-Seidel with exact local solves: near a solution it converges in a few sweeps,
 * and its v = M^-1 (q + H r) makes its error that of r alone), or ADMM warm-started where
 * nsgs_wr refuses the problem (M not symmetric, or singular). Its sweeps or iterations count
 * within the caller's max_iterations and time_limit. Into r, v, u; returns the error of (r, v),
 * +inf when nothing ran. */
static double polish(const NsdGfc* p, const double* r0, double* r, double* v, double* u,
                     const NsdSolverOptions* o, int cap, NsdReport* rep, int* sweeps,
                     const char** how) {
  NsdSolverOptions po = *o;
  po.warm_start = 1;
  po.max_iterations = o->max_iterations - rep->iterations;
  if (cap > 0 && po.max_iterations > cap) po.max_iterations = cap;
  *sweeps = 0;
  if (po.max_iterations < 1) return INFINITY;
  if (o->time_limit > 0.0) {
    po.time_limit = o->time_limit - (nsd_wall_time() - rep->start_time);
    if (po.time_limit <= 0.0) return INFINITY;
  }
  size_t m = (size_t)(p->dim * p->nc);
  NsdReport sub;
  NsdStatus st = NSD_BAD_INPUT;
  for (int k = 0; k < 2 && st == NSD_BAD_INPUT; ++k) {
    memset(&sub, 0, sizeof sub);
    if (rep->history && rep->history_length < rep->history_capacity) {  // the caller's history
      sub.history = rep->history + rep->history_length;
      sub.history_capacity = rep->history_capacity - rep->history_length;
    }
    memcpy(r, r0, m * sizeof *r);
    *how = k == 0 ? "nsgs_wr" : "admm";
    st = k == 0 ? nsd_gfc_nsgs_wr(p, r, u, v, &po, &sub) : nsd_gfc_admm(p, r, u, v, &po, &sub);
  }
  rep->history_length += sub.history_length;
  *sweeps = sub.iterations;
  if (st == NSD_BAD_INPUT) return INFINITY;
  return nsd_gfc_error(p, r, v, NULL);
}

NsdStatus nsd_gfc_ipm(const NsdGfc* problem, double* r, double* u, double* v,
                      const NsdSolverOptions* options, NsdReport* report) {
  NsdReport local;
  NsdSolverOptions opts;
  NsdReport* rep =
      nsd_gfc_solver_begin("ipm", "IPM (gfc)", problem, r, u, options, &opts, report, &local);
  if (!rep) return NSD_BAD_INPUT;
  const NsdSolverOptions* o = &opts;
  const int d = problem->dim, nc = problem->nc, n = problem->n, m = d * nc;
  const double* mu = problem->mu;
  for (int a = 0; a < nc; ++a)
    if (!(mu[a] > 0.0))
      return nsd_report_fail(rep, NSD_BAD_INPUT,
                             "IPM (gfc): contact %d has mu = %g; the interior-point method needs "
                             "mu > 0 (use admm or nsgs_wr)",
                             a, mu[a]);

  // workspace: m-vectors pd, y, z, c, Rp, lam, tm, tm2, dy, dz, dya, dza, rc, best r;
  // per-cone d x d blocks W, Wi, Wi2, D; n-vectors v, dv, dva, Rd, best v,
  // v of r alone; m-vector g
  size_t mm = (size_t)(m > 0 ? m : 1), nn = (size_t)(n > 0 ? n : 1), bb = mm * (size_t)d;
  NsdGfcSystem sys;
  double* block =
      nsd_gfc_solver_workspace(problem, 15 * mm + 4 * bb + 6 * nn, &sys, "IPM (gfc)", rep);
  if (!block) return NSD_FAILED;
  sys.kind = NSD_FACTOR_LU;  // the Newton matrix is not symmetric (the De Saxcé Jacobian)
  double *pd = block, *y = pd + mm, *z = y + mm, *c = z + mm, *Rp = c + mm, *lam = Rp + mm;
  double *tm = lam + mm, *tm2 = tm + mm, *dy = tm2 + mm, *dz = dy + mm, *dya = dz + mm;
  double *dza = dya + mm, *rc = dza + mm, *best_r = rc + mm;
  double *W = best_r + mm, *Wi = W + bb, *Wi2 = Wi + bb, *D = Wi2 + bb;
  double *vv = D + bb, *dv = vv + nn, *dva = dv + nn, *Rd = dva + nn;
  double *best_v = Rd + nn, *vr = best_v + nn, *gdir = vr + nn;
  Ipm ipm = {.p = problem,
             .n = n,
             .m = m,
             .dim = d,
             .nc = nc,
             .pd = pd,
             .W = W,
             .Wi = Wi,
             .Wi2 = Wi2,
             .lam = lam,
             .g = gdir,
             .Rd = Rd,
             .Rp = Rp,
             .tm = tm,
             .tm2 = tm2,
             .sys = &sys};
  for (int a = 0; a < nc; ++a)
    for (int i = 0; i < d; ++i) pd[a * d + i] = i ? 1.0 : 1.0 / mu[a];
  memset(best_r, 0, mm * sizeof *best_r);
  memset(best_v, 0, nn * sizeof *best_v);

  // start (as CVXOPT's coneqp): v minimises 1/2 v'Mv - q'v + 1/2 ||G^T v + P b||^2, then
  // z = G^T v + P b and y = -z (dual equation exact) moved into the cones
  memset(D, 0, bb * sizeof *D);
  for (int a = 0; a < nc; ++a)
    for (int i = 0; i < d; ++i) D[a * d * d + i * d + i] = pd[a * d + i] * pd[a * d + i];
  NsdStatus failed = NSD_OK;
  double best = INFINITY;
  int best_iteration = 0;
  int regularised = 0;
  double reg_start = GIPM_REG_MIN;
  double er = INFINITY;
  int m_singular = 0, er_fresh = 0, use_vr = 0, sweeps = 0;
  const char* how = NULL;
  // warm start: the local phase from the given r (at most GIPM_WARM_SWEEPS sweeps); the IPM
  // from its cold start when that does not reach the tolerance
  if (o->warm_start && m > 0) {
    memcpy(best_r, r, mm * sizeof *r);
    double e = polish(problem, best_r, tm, vr, u, o, GIPM_WARM_SWEEPS, rep, &sweeps, &how);
    rep->iterations += sweeps;
    if (e <= o->tolerance) {
      memcpy(best_r, tm, mm * sizeof *tm);
      use_vr = 1;
      goto done;
    }
    memset(best_r, 0, mm * sizeof *best_r);
    how = NULL;
  }
  if (nsd_gfc_system_factor(&sys, 1.0, D, 0.0, rep) != NSD_OK) {
    failed = nsd_report_fail(rep, NSD_FAILED,
                             "IPM (gfc): M + H P^2 H^T could not be factorised (M singular on the "
                             "kernel of H^T?)");
    goto done;
  }
  if (m > 0) memcpy(c, problem->b, (size_t)m * sizeof *c);
  for (int i = 0; i < m; ++i) tm[i] = pd[i] * pd[i] * c[i];
  nsd_matrix_gemv(-1.0, problem->H, tm, 0.0, vv);
  for (int i = 0; i < n; ++i) vv[i] += problem->q[i];
  if (nsd_gfc_system_solve(&sys, vv) != NSD_OK) {
    failed = nsd_report_fail(rep, NSD_FAILED, "IPM (gfc): linear solve failed at the start");
    goto done;
  }
  if (m > 0) {
    nsd_matrix_gemv_t(1.0, problem->H, vv, 0.0, z);
    double scale = 0.0;
    for (int i = 0; i < m; ++i) {
      z[i] = pd[i] * (z[i] + c[i]);
      y[i] = -z[i];
      scale = fmax(scale, fabs(z[i]));
    }
    double delta = scale > 0.0 ? 0.1 * scale : 1.0;
    shift_inside(d, nc, z, delta);
    shift_inside(d, nc, y, delta);
  }

  for (;;) {
    // (1) u = H^T v + b, the error of (r = P y, v), best iterate
    if (m > 0) {
      memcpy(u, problem->b, (size_t)m * sizeof *u);
      nsd_matrix_gemv_t(1.0, problem->H, vv, 1.0, u);
    }
    for (int i = 0; i < m; ++i) tm[i] = pd[i] * y[i];
    double value = nsd_gfc_error(problem, tm, vv, NULL);
    if (rep->iterations > 0) nsd_report_record(rep, value);
    if (!isfinite(value)) {
      failed = nsd_report_fail(rep, NSD_FAILED, "IPM (gfc): non-finite iterate after %d iterations",
                               rep->iterations);
      break;
    }
    if (value < best) {
      best = value;
      best_iteration = rep->iterations;
      memcpy(best_r, tm, mm * sizeof *tm);
      memcpy(best_v, vv, nn * sizeof *vv);
      er_fresh = 0;
    }
    // converged: the error of r alone (v = M^-1 (q + H r), what nsd_problem_error sees),
    // returned with that v when it is below the tolerance too (more Newton steps do not
    // lower it: the iterates are at the cone boundary)
    if (best <= o->tolerance) {
      er = nsd_gfc_reaction_check(problem, best_r, vr, &m_singular);
      er_fresh = 1;
      break;
    }
    if (rep->iterations >= o->max_iterations) break;
    if (rep->iterations - best_iteration > GIPM_STALL) {
      nsd_report_fail(rep, NSD_MAX_ITERATIONS,
                      "IPM (gfc): no progress for %d iterations (best error %.3g)", GIPM_STALL,
                      best);
      break;
    }
    if (nsd_time_up(rep, o->time_limit)) {
      nsd_report_fail(rep, NSD_MAX_ITERATIONS, "IPM (gfc): time limit %g s reached", o->time_limit);
      break;
    }
    rep->iterations++;

    // (2) residuals R_d = M v - q - G y, R_p = P u + ||z_T|| e - z (P s = ||z_T|| e: the
    //     De Saxcé shift on the slack, whose tangential part is u_T at feasibility), and
    //     the direction g of the shift's Jacobian (0 where the contact does not look sliding)
    for (int a = 0; a < nc; ++a) {
      double nt = 0.0;
      for (int i = 1; i < d; ++i) nt += z[a * d + i] * z[a * d + i];
      nt = sqrt(nt);
      gdir[a * d] = 0.0;
      int use_g = nt > GIPM_SLIDING * z[a * d];
      for (int i = 1; i < d; ++i) gdir[a * d + i] = use_g && nt > 0.0 ? z[a * d + i] / nt : 0.0;
      for (int i = 0; i < d; ++i) {
        Rp[a * d + i] = pd[a * d + i] * u[a * d + i] - z[a * d + i] + (i ? 0.0 : nt);
        tm[a * d + i] = pd[a * d + i] * y[a * d + i];
      }
    }
    nsd_matrix_gemv(1.0, problem->M, vv, 0.0, Rd);
    nsd_matrix_gemv(-1.0, problem->H, tm, 1.0, Rd);
    for (int i = 0; i < n; ++i) Rd[i] -= problem->q[i];

    // (3) Nesterov-Todd scaling, D = P W^-2 P, factor of M + H D H^T
    for (int a = 0; a < nc; ++a) {
      double *wa = W + a * d * d, *wia = Wi + a * d * d, *w2 = Wi2 + a * d * d;
      if (!nt_scaling(d, z + a * d, y + a * d, wa, wia, lam + a * d)) {
        failed =
            nsd_report_fail(rep, NSD_FAILED, "IPM (gfc): iterate left the cone (contact %d)", a);
        break;
      }
      for (int j = 0; j < d; ++j)
        for (int i = 0; i < d; ++i) {
          double s = 0.0;
          for (int k = 0; k < d; ++k) s += wia[i + k * d] * wia[k + j * d];
          w2[i + j * d] = s;
        }
      // D = P W^-2 E^-1 P, (W^-2 E^-1)_ij = (W^-2)_ij + (W^-2)_i0 g_j (not symmetric: LU)
      for (int j = 0; j < d; ++j)
        for (int i = 0; i < d; ++i)
          D[a * d * d + i + j * d] =
              pd[a * d + i] * (w2[i + j * d] + w2[i] * gdir[a * d + j]) * pd[a * d + j];
    }
    if (failed != NSD_OK) break;
    NsdStatus fs = nsd_gfc_system_factor(&sys, 1.0, D, 0.0, NULL);
    if (fs != NSD_OK) {
      // singular with the De Saxcé Jacobian (sticking contacts near the end): the shift frozen
      for (int a = 0; a < nc; ++a) {
        const double* w2 = Wi2 + a * d * d;
        for (int i = 0; i < d; ++i) gdir[a * d + i] = 0.0;
        for (int j = 0; j < d; ++j)
          for (int i = 0; i < d; ++i)
            D[a * d * d + i + j * d] = pd[a * d + i] * w2[i + j * d] * pd[a * d + j];
      }
      fs = nsd_gfc_system_factor(&sys, 1.0, D, 0.0, NULL);
    }
    // then a growing regularisation of the diagonal (an inexact Newton step; the
    // residuals stay exact): W^-2 spans many decades near the end
    for (double shift = reg_start; fs != NSD_OK && shift <= GIPM_REG_MAX; shift *= 100.0) {
      fs = nsd_gfc_system_factor(&sys, 1.0, D, shift, shift * 100.0 > GIPM_REG_MAX ? rep : NULL);
      if (fs == NSD_OK) {
        ++regularised;
        reg_start = shift;  // the next singular matrix starts there
      }
    }
    if (fs != NSD_OK) {
      char why[sizeof rep->message];
      memcpy(why, rep->message, sizeof why);
      failed = nsd_report_fail(rep, NSD_FAILED,
                               "IPM (gfc): Newton matrix not factorised at iteration %d: %.150s",
                               rep->iterations, why);
      break;
    }

    // (4) predictor: rc = -lambda o lambda
    for (int a = 0; a < nc; ++a) {
      jordan_prod(d, lam + a * d, lam + a * d, rc + a * d);
      for (int i = 0; i < d; ++i) rc[a * d + i] = -rc[a * d + i];
    }
    if (newton_solve(&ipm, rc, dva, dya, dza) != NSD_OK) {
      failed = nsd_report_fail(rep, NSD_FAILED, "IPM (gfc): linear solve failed");
      break;
    }
    double gap = m > 0 ? dot(z, y, m) / nc : 0.0;
    double step_a = fmin(cone_step(d, nc, z, dza), cone_step(d, nc, y, dya)), gap_a = 0.0;
    for (int i = 0; i < m; ++i) gap_a += (z[i] + step_a * dza[i]) * (y[i] + step_a * dya[i]);
    gap_a = m > 0 ? gap_a / nc : 0.0;
    double sigma = gap > 0.0 ? pow(fmax(gap_a, 0.0) / gap, 3.0) : 0.0;
    sigma = fmin(sigma, 1.0);

    // (5) corrector: rc = -lambda o lambda - (W^-1 dz_a) o (W dy_a) + sigma gap e
    for (int a = 0; a < nc; ++a) {
      double t1[3], t2[3], t3[3];
      small_gemv(d, Wi + a * d * d, dza + a * d, t1);
      small_gemv(d, W + a * d * d, dya + a * d, t2);
      jordan_prod(d, t1, t2, t3);
      for (int i = 0; i < d; ++i) rc[a * d + i] -= t3[i];
      rc[a * d] += sigma * gap;
    }
    if (newton_solve(&ipm, rc, dv, dy, dz) != NSD_OK) {
      failed = nsd_report_fail(rep, NSD_FAILED, "IPM (gfc): linear solve failed");
      break;
    }
    double step = fmin(
        1.0, GIPM_STEP_FRACTION * fmin(cone_step(d, nc, z, dz) / 1.0, cone_step(d, nc, y, dy)));
    // keep z, y strictly inside despite round-off (halve the step until they are)
    for (int k = 0; k < 50 && !(inside(d, nc, z, dz, step) && inside(d, nc, y, dy, step)); ++k)
      step *= 0.5;
    for (int i = 0; i < n; ++i) vv[i] += step * dv[i];
    for (int i = 0; i < m; ++i) {
      z[i] += step * dz[i];
      y[i] += step * dy[i];
    }
  }

  // (6) polish when the IPM stalled or failed, or when r alone misses the tolerance: the
  //     local phase from the best r; its answer is kept when better
  use_vr = er_fresh && er <= o->tolerance;
  // (M singular: r alone cannot be checked; a converged IPM is returned as it is)
  if (m > 0 && !use_vr && !(m_singular && best <= o->tolerance) && isfinite(best) &&
      rep->iterations > 0) {
    double e = polish(problem, best_r, tm, vr, u, o, 0, rep, &sweeps, &how);
    rep->iterations += sweeps;
    if (e <= o->tolerance || e < best) {
      memcpy(best_r, tm, mm * sizeof *tm);
      use_vr = 1;
      failed = NSD_OK;
    }
  }

done:
  if (m > 0) memcpy(r, best_r, (size_t)m * sizeof *r);
  const double* vbest = use_vr ? vr : best_v;
  if (v) memcpy(v, vbest, (size_t)n * sizeof *v);
  rep->residual = nsd_gfc_error(problem, best_r, vbest, u);
  {
    nsd_gfc_system_free(&sys);
    free(block);
    if (failed != NSD_OK) return failed;
    NsdStatus fin = nsd_report_finish(rep, o->tolerance);
    if (fin != NSD_OK && regularised) {
      size_t len = strlen(rep->message);
      snprintf(rep->message + len, sizeof rep->message - len,
               "%s(IPM: %d Newton matrices regularised)", len ? " " : "", regularised);
    }
    if (fin != NSD_OK && how) {
      size_t len = strlen(rep->message);
      snprintf(rep->message + len, sizeof rep->message - len, "%s(then %d %s iterations)",
               len ? " " : "", sweeps, how);
    }
    return fin;
  }
}
