/* ADMM for FC3D with an adaptive penalty (S. Boyd, N. Parikh, E. Chu,
 * B. Peleato, J. Eckstein, "Distributed optimization and statistical learning
 * via the alternating direction method of multipliers", Foundations and
 * Trends in Machine Learning 3(1), 2011, §3.1 scaled form, §3.4.1 residual
 * balancing, here on the relative residuals of §3.3.1). The convex problem
 *   min 1/2 r^T M r + qs^T r + I_K(z)  subject to  r = z,
 * with qs = q + s e_n and the De Saxcé shift s = mu ||u_T|| updated at every
 * iteration from u = M z + q (Acary, Cadoux, Lemaréchal, Malick, ZAMM 2011),
 * so that a fixed point is a Coulomb solution:
 *   r' = (M + rho I)^-1 (-qs + rho (z - xi)),
 *   z' = Pi_K(r' + xi),
 *   xi' = xi + r' - z'.
 * M + rho I is factorised by Cholesky (CHOLMOD, or LAPACK for dense M; LU
 * when M is not symmetric up to round-off, as in files with rounded entries) and
 * refactorised when rho changes. The returned reaction is the best z (it lies
 * in the cones). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "friction/fc_cone_internal.h"

/* Residual balancing (Boyd et al. 2011, eq. 3.13): rho is multiplied or
 * divided by ADMM_RHO_FACTOR when one residual exceeds ADMM_BALANCE times
 * the other. */
#define ADMM_BALANCE 10.0
#define ADMM_RHO_FACTOR 2.0
/* M is factorised by Cholesky when max |M_ij - M_ji| is below this fraction
 * of max |M_ij| (round-off of an assembled J M^-1 J^T), by LU otherwise. */
#define ADMM_SYMMETRY_ROUNDOFF 1e-13


/* M + rho I as a new matrix: dense stays dense, the rest becomes CSC from the
 * triplets of M with the diagonal appended (duplicates add up). */
typedef struct Shifted {
  const NsdMatrix* M;
  int symmetric;    /* M exactly symmetric */
  int nnz;          /* triplets of M, then m diagonal entries */
  int *ti, *tj;
  double* tx;
} Shifted;

static NsdStatus shifted_init(Shifted* s, const NsdMatrix* M) {
  memset(s, 0, sizeof *s);
  s->M = M;
  s->symmetric = nsd_matrix_asymmetry(M) <= ADMM_SYMMETRY_ROUNDOFF * nsd_fcc_max_abs(M);
  if (M->storage == NSD_DENSE) return NSD_OK;
  int nnz = 0, *ti = NULL, *tj = NULL, m = M->rows;
  double* tx = NULL;
  if (nsd_fcc_triplets(M, &nnz, &ti, &tj, &tx) != NSD_OK) return NSD_FAILED;
  s->ti = realloc(ti, ((size_t)nnz + (size_t)m) * sizeof *ti);
  s->tj = realloc(tj, ((size_t)nnz + (size_t)m) * sizeof *tj);
  s->tx = realloc(tx, ((size_t)nnz + (size_t)m) * sizeof *tx);
  if (!s->ti || !s->tj || !s->tx) {
    free(s->ti ? s->ti : ti);
    free(s->tj ? s->tj : tj);
    free(s->tx ? s->tx : tx);
    memset(s, 0, sizeof *s);
    return NSD_FAILED;
  }
  for (int i = 0; i < m; ++i) {
    s->ti[nnz + i] = i;
    s->tj[nnz + i] = i;
  }
  s->nnz = nnz;
  return NSD_OK;
}

static void shifted_free(Shifted* s) {
  free(s->ti);
  free(s->tj);
  free(s->tx);
}

/* Factor of M + rho I into *factor (previous one destroyed): Cholesky when M
 * is symmetric up to round-off, else LU, so the r-update uses M as given. */
static NsdStatus shifted_factor(Shifted* s, double rho, NsdFactor** factor, NsdReport* rep) {
  int m = s->M->rows;
  NsdMatrix* a = NULL;
  if (s->M->storage == NSD_DENSE) {
    a = nsd_matrix_create_dense_from(m, m, s->M->dense);
    if (a)
      for (int i = 0; i < m; ++i) a->dense[(size_t)i + (size_t)i * (size_t)m] += rho;
  } else {
    for (int i = 0; i < m; ++i) s->tx[s->nnz + i] = rho;
    a = nsd_matrix_create_csc_from_triplets(m, m, s->nnz + m, s->ti, s->tj, s->tx);
  }
  nsd_factor_destroy(*factor);
  *factor = NULL;
  if (!a) return nsd_report_fail(rep, NSD_FAILED, "ADMM: out of memory forming M + rho I");
  NsdStatus st = nsd_factor_create(a, s->symmetric ? NSD_FACTOR_CHOLESKY : NSD_FACTOR_LU, factor, rep);
  nsd_matrix_destroy(a);
  return st;
}

NsdStatus nsd_fc3d_admm(const NsdFc* problem, double* r, double* u,
                        const NsdSolverOptions* options, NsdReport* report) {
  NsdReport local;
  NsdReport* rep = report ? report : &local;
  if (!report) local.history = NULL;
  nsd_report_start(rep, "admm");
  NsdSolverOptions defaults;
  if (!options) nsd_solver_options_default(&defaults);
  const NsdSolverOptions* o = options ? options : &defaults;

  // reject bad input before allocating
  if (!nsd_fc_check(problem, rep)) return rep->status;
  if (problem->dim != 3)
    return nsd_report_fail(rep, NSD_BAD_INPUT, "ADMM (fc3d): dimension %d, expected 3",
                           problem->dim);
  if (!(o->tolerance >= 0.0) || o->max_iterations < 0)
    return nsd_report_fail(rep, NSD_BAD_INPUT, "ADMM: tolerance = %g, max_iterations = %d",
                           o->tolerance, o->max_iterations);
  if (!(o->admm.rho >= 0.0) || !isfinite(o->admm.rho))
    return nsd_report_fail(rep, NSD_BAD_INPUT, "ADMM: rho = %g, expected >= 0 (0: automatic)",
                           o->admm.rho);
  int nc = problem->nc, m = 3 * nc;
  if (m > 0 && (!r || !u)) return nsd_report_fail(rep, NSD_BAD_INPUT, "ADMM: r or u is NULL");
  if (o->warm_start && !nsd_all_finite(r, (size_t)m))
    return nsd_report_fail(rep, NSD_BAD_INPUT, "ADMM: warm-start r is not finite");
  if (!nsd_fcc_check_psd(problem->M, 3, "ADMM", rep)) return rep->status;
  if (m == 0) {
    rep->residual = 0.0;
    return nsd_report_finish(rep, o->tolerance);
  }

  // workspace: x (r'), z, xi, Mz, qs, z_old and the monitor's four vectors
  int nt = nsd_fcc_threads(o->threads);
  const double* mu = problem->mu;
  double* block = malloc(10 * (size_t)m * sizeof *block);
  NsdFccRowOp mop;
  Shifted sh;
  int have_mop = 0, have_sh = 0;
  if (block && nsd_fcc_rowop_init(&mop, problem->M) == NSD_OK) have_mop = 1;
  if (have_mop && shifted_init(&sh, problem->M) == NSD_OK) have_sh = 1;
  if (!have_sh) {
    if (have_mop) nsd_fcc_rowop_free(&mop);
    free(block);
    return nsd_report_fail(rep, NSD_FAILED, "ADMM: out of memory, m = %d", m);
  }
  double *x = block, *z = x + m, *xi = z + m, *mz = xi + m, *qs = mz + m, *zold = qs + m;
  NsdFccMonitor mon = {.dim = 3, .nc = nc, .m = m, .nt = nt, .mu = mu, .qs = qs,
                       .q_true = problem->q, .w = zold + m, .u = zold + 2 * m,
                       .best = zold + 3 * m, .nbest = zold + 4 * m, .best_value = INFINITY};
  mon.q_norm = nsd_fcc_norm(problem->q, m, nt);

  // rho_0: the option, else the mean diagonal of M
  double rho = o->admm.rho;
  if (!(rho > 0.0)) {
    nsd_matrix_diagonal(problem->M, mon.w);
    double sum = 0.0;
    for (int i = 0; i < m; ++i) sum += mon.w[i];
    rho = sum > 0.0 ? sum / m : 1.0;
  }
  NsdFactor* factor = NULL;
  if (shifted_factor(&sh, rho, &factor, rep) != NSD_OK) {
    char why[sizeof rep->message];
    memcpy(why, rep->message, sizeof why);
    nsd_fcc_rowop_free(&mop);
    shifted_free(&sh);
    free(block);
    return nsd_report_fail(rep, NSD_BAD_INPUT,
                           "ADMM needs M positive semidefinite: M + %g I could not be factorised "
                           "(%.160s)", rho, why);
  }

  // start: z_0 = Pi_K(r) or 0, xi_0 = 0
  if (o->warm_start) {
    memcpy(z, r, (size_t)m * sizeof *z);
    nsd_fcc_project(3, nc, mu, z, nt);
  } else {
    memset(z, 0, (size_t)m * sizeof *z);
  }
  memset(xi, 0, (size_t)m * sizeof *xi);
  nsd_fcc_rowop_apply(&mop, z, mz, nt);

  NsdStatus failed = NSD_OK;
  for (;;) {
    // (1) De Saxcé shift from u = M z + q, Siconos error of z, best iterate
    nsd_fcc_axpby(1.0, mz, 1.0, problem->q, mon.u, m, nt);
    nsd_fcc_desaxce_shift(3, nc, mu, problem->q, mon.u, qs, nt);
    mon.qs_norm = nsd_fcc_norm(qs, m, nt);
    double value = nsd_fcc_monitor_eval(&mon, z, mz);
    if (rep->iterations > 0) nsd_report_record(rep, value);
    if (!isfinite(value)) {
      failed = nsd_report_fail(rep, NSD_FAILED, "ADMM: non-finite iterate after %d iterations",
                               rep->iterations);
      break;
    }
    if (mon.best_value <= o->tolerance || rep->iterations >= o->max_iterations) break;
    if (nsd_fcc_time_up(rep, o->time_limit)) {
      nsd_report_fail(rep, NSD_MAX_ITERATIONS, "ADMM: time limit %g s reached", o->time_limit);
      break;
    }
    rep->iterations++;

    // (2) r' = (M + rho I)^-1 (-qs + rho (z - xi))
    for (int i = 0; i < m; ++i) x[i] = -qs[i] + rho * (z[i] - xi[i]);
    if (nsd_factor_solve(factor, x) != NSD_OK) {
      failed = nsd_report_fail(rep, NSD_FAILED, "ADMM: linear solve failed (rho = %g)", rho);
      break;
    }

    // (3) z' = Pi_K(r' + xi), (4) xi' = xi + r' - z'
    memcpy(zold, z, (size_t)m * sizeof *z);
    nsd_fcc_axpby(1.0, x, 1.0, xi, z, m, nt);
    nsd_fcc_project(3, nc, mu, z, nt);
    double prim2 = 0.0, dual2 = 0.0;
    for (int i = 0; i < m; ++i) {
      double p = x[i] - z[i], d = z[i] - zold[i];
      xi[i] += p;
      prim2 += p * p;
      dual2 += d * d;
    }
    nsd_fcc_rowop_apply(&mop, z, mz, nt);

    // (5) residual balancing on relative residuals (Boyd et al. 2011, §3.3.1
    //     and §3.4.1): primal ||r' - z'|| / max(||r'||, ||z'||), dual
    //     rho ||z' - z|| / ||rho xi'||; the scaled dual xi = y / rho is
    //     rescaled with rho
    if (o->admm.adaptive) {
      double nx = nsd_fcc_norm(x, m, nt), nz = nsd_fcc_norm(z, m, nt);
      double nxi = nsd_fcc_norm(xi, m, nt);
      double prim = sqrt(prim2) / fmax(fmax(nx, nz), DBL_MIN);
      double dual = rho * sqrt(dual2) / fmax(rho * nxi, DBL_MIN), scale = 0.0;
      if (prim > ADMM_BALANCE * dual)
        scale = ADMM_RHO_FACTOR;
      else if (dual > ADMM_BALANCE * prim)
        scale = 1.0 / ADMM_RHO_FACTOR;
      if (scale > 0.0) {
        rho *= scale;
        for (int i = 0; i < m; ++i) xi[i] /= scale;
        if (shifted_factor(&sh, rho, &factor, rep) != NSD_OK) {
          failed = nsd_report_fail(rep, NSD_FAILED,
                                   "ADMM: M + %g I could not be factorised after %d iterations",
                                   rho, rep->iterations);
          break;
        }
      }
    }
  }

  // return the best z with the library's own Siconos error
  memcpy(r, mon.best, (size_t)m * sizeof *r);
  nsd_factor_destroy(factor);
  nsd_fcc_rowop_free(&mop);
  shifted_free(&sh);
  free(block);
  rep->residual = nsd_fc_error(problem, r, u);
  if (failed != NSD_OK) return failed;
  return nsd_report_finish(rep, o->tolerance);
}
