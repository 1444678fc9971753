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
 * Accelerated with restart (T. Goldstein, B. O'Donoghue, S. Setzer,
 * R. Baraniuk, "Fast alternating direction optimization methods", SIAM J.
 * Imaging Sci. 7(3), 2014, Alg. 8, as Siconos's fc3d_admm): the r-update
 * starts from the extrapolated z_hat, xi_hat; the momentum is dropped (restart)
 * when the combined residual ||z' - z_hat||^2 + ||xi' - xi_hat||^2 does not
 * decrease by ADMM_RESTART_ETA, and whenever rho changes; it is switched
 * off for good when the best error stalls ADMM_STALL iterations.
 * M + rho I is assembled once in CSC (written from M's blocks without a sort; the lower
 * triangle only for a Cholesky) or dense, its pattern analysed once
 * (CHOLMOD supernodal Cholesky with an AMD ordering; UMFPACK LU when M is not
 * symmetric up to round-off, as in files with rounded entries; LAPACK for
 * dense M) and only refactorised numerically when rho changes (a change decided
 * by an iteration is made only when the next one runs: none is spent on the
 * iterate that meets the tolerance; a badly scaled rho_0 is corrected by one
 * large search step, see ADMM_RHO_SEARCH_STEP, foreseen on a large M before the first
 * factorisation, see ADMM_PROBE_CG). Should a
 * factorisation fail, the Cholesky falls back to LU, then rho is raised
 * (a proximal regularisation of a rank-deficient or indefinite M), and the
 * report's message says so. The returned reaction is the best z (it lies
 * in the cones). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CXSparse's cs.h pulls in <complex.h> (which defines the macro I) unless told not to. */
#ifndef NCOMPLEX
#define NCOMPLEX
#endif
#include <cs.h>

#include "friction/fc_cone_internal.h"

/* Residual balancing (Boyd et al. 2011, eq. 3.13): when one relative
 * residual exceeds ADMM_BALANCE times the other, rho is multiplied by the
 * square root of their ratio (as OSQP, Stellato et al., Math. Prog. Comp.
 * 2020, §5.2) capped to ADMM_RHO_MAX_STEP (2: Boyd's factor; larger steps,
 * 10 to 1e3, cut the refactorisations of a badly scaled rho_0 further, 14 to 4
 * iterations on a Kapla tower, but with the acceleration they stall a random
 * rank-deficient test problem at 3e-6). */
#define ADMM_BALANCE 10.0
#define ADMM_RHO_MAX_STEP 2.0
/* Search phase: until a change of rho goes against the previous ones, a lopsided ratio
 * (one relative residual ADMM_RHO_SEARCH_RATIO times the other, or the other zero) moves
 * rho by the square root of the ratio up to ADMM_RHO_SEARCH_STEP, so that a badly scaled
 * rho_0 costs one refactorisation instead of one per factor 2. On a 552-contact Kapla tower
 * the cones are never active along the way (primal residual 0): rho_0 = mean diagonal (566)
 * is ~1e4 too large and took 14 iterations with 13 refactorisations; with the search, 6 and
 * 1. Only downwards: upwards, the first iteration from z = 0 often reports a zero dual
 * residual (z stays 0), and a search step there took GFC3D_TwoRods1 from 219 to 805
 * iterations. Ratios below ADMM_RHO_SEARCH_RATIO keep the steps of 2 (larger ones, sqrt of ratios
 * of 10 to 100, stall the random rank-deficient problem of FcAdmmTest at 3e-6). */
#define ADMM_RHO_SEARCH_STEP 1e4
#define ADMM_RHO_SEARCH_RATIO 1e4
/* After a search step rho is kept this many iterations before the residuals are balanced
 * again: a refactorisation costs ~50 iterations on the tower (8-10 ms against 0.15 ms), and
 * with a hold of 3 the tower took a second search step (and refactorisation) one iteration
 * before converging at the first one's rho. */
#define ADMM_RHO_SEARCH_HOLD 10
/* The search step of the first iteration is foreseen before the first factorisation, so that
 * M + rho I is factorised once for the searched rho instead of twice, on a sparse M of at least
 * ADMM_PROBE_MIN_NNZ stored entries (below, a factorisation costs less than the probe): the
 * first iterate r' = (M + rho_0 I)^-1 (-qs) from z = 0 is estimated by ADMM_PROBE_CG
 * Jacobi-preconditioned conjugate gradient steps and its residuals compared as the iteration
 * would. On the 552-contact Kapla tower one step already gives a ratio of 3e8 (exact: a zero
 * primal residual), 5 steps cost 0.4 ms and save a 1.9 ms refactorisation; on every shared
 * FC3D file the ratio is below 1 (or the dual residual zero), far from ADMM_RHO_SEARCH_RATIO. */
#define ADMM_PROBE_MIN_NNZ 50000
#define ADMM_PROBE_CG 5
/* rho stays within [ADMM_RHO_RANGE^-1, ADMM_RHO_RANGE] times the mean diagonal of M. */
#define ADMM_RHO_RANGE 1e10
/* M is factorised by Cholesky when max |M_ij - M_ji| is below this fraction
 * of max |M_ij| (round-off of an assembled J M^-1 J^T), by LU otherwise. */
#define ADMM_SYMMETRY_ROUNDOFF 1e-13
/* Restart of the acceleration when the combined residual does not decrease by this factor. */
#define ADMM_RESTART_ETA 0.999
/* The acceleration is switched off when the best error has not improved for this many iterations.
 */
#define ADMM_STALL 100
/* Regularisation of a failed factorisation: rho multiplied by this, at most this many times. */
#define ADMM_REG_GROWTH 10.0
#define ADMM_REG_TRIES 6

/* M + rho I, assembled once: dense stays dense, the rest becomes CSC with every
 * diagonal entry stored; a change of rho rewrites the diagonal only. */
typedef struct Shifted {
  const NsdMatrix* M;
  NsdMatrix* a;  /* M + rho I */
  double* diag;  /* [m] diagonal of M */
  int* diag_pos; /* [m] position of a_ii in a's values (CSC) */
  NsdFactorKind kind;
  NsdFactor* factor;
  int analysed;   /* factor holds the analysis of a's pattern for kind */
  int threads;    /* of the sparse Cholesky: options->threads when > 1, else 1 */
  int fallbacks;  /* Cholesky -> LU switches and rho raises made */
  char note[160]; /* what the fallbacks were */
} Shifted;

/* The CSC of M + rho I into s->a (replacing any), written column by column from M's blocks:
 * its lower triangle (all a Cholesky reads: half the entries for CHOLMOD to transpose and
 * analyse) or all of it (LU); the position of each diagonal entry recorded. *asym, when
 * asked, receives max |M_ij - M_ji|. */
static NsdStatus shifted_csc(Shifted* s, double rho, int lower, double* asym) {
  nsd_matrix_destroy(s->a);
  s->a = nsd_matrix_create_csc_shifted(s->M, rho, lower, asym);
  if (!s->a) return NSD_FAILED;
  const cs_di* c = s->a->csc;
  for (int j = 0; j < c->n; ++j) {
    // the diagonal entry, stored in every column, by a binary search of its sorted rows
    int lo = c->p[j], hi = c->p[j + 1] - 1;
    while (lo < hi) {
      int mid = lo + (hi - lo) / 2;
      if (c->i[mid] < j)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo > hi || c->i[lo] != j) return NSD_FAILED;
    s->diag_pos[j] = lo;
  }
  return NSD_OK;
}

static NsdStatus shifted_init(Shifted* s, const NsdMatrix* M, double rho) {
  memset(s, 0, sizeof *s);
  s->M = M;
  int m = M->rows;
  s->diag = malloc((size_t)(m > 0 ? m : 1) * sizeof *s->diag);
  s->diag_pos = malloc((size_t)(m > 0 ? m : 1) * sizeof *s->diag_pos);
  if (!s->diag || !s->diag_pos) return NSD_FAILED;
  nsd_matrix_diagonal(M, s->diag);
  double asym = 0.0;
  if (M->storage == NSD_DENSE) {
    asym = nsd_matrix_asymmetry(M);
    s->a = nsd_matrix_create_dense_from(m, m, M->dense);
    if (!s->a) return NSD_FAILED;
    for (int i = 0; i < m; ++i) s->diag_pos[i] = i + i * m;
  } else if (shifted_csc(s, rho, 1, &asym) != NSD_OK) {
    return NSD_FAILED;
  }
  int symmetric = asym <= ADMM_SYMMETRY_ROUNDOFF * nsd_fcc_max_abs(M);
  s->kind = symmetric ? NSD_FACTOR_CHOLESKY : NSD_FACTOR_LU;
  if (!symmetric && M->storage != NSD_DENSE) return shifted_csc(s, rho, 0, NULL);
  return NSD_OK;
}

static void shifted_free(Shifted* s) {
  nsd_factor_destroy(s->factor);
  nsd_matrix_destroy(s->a);
  free(s->diag);
  free(s->diag_pos);
}

/* Factor of M + rho I with the kind of s: the pattern analysed on first use,
 * then the values only. */
static NsdStatus shifted_try(Shifted* s, double rho, NsdReport* rep) {
  int m = s->M->rows;
  double* x = s->M->storage == NSD_DENSE ? s->a->dense : s->a->csc->x;
  for (int i = 0; i < m; ++i) x[s->diag_pos[i]] = s->diag[i] + rho;
  if (!s->analysed) {
    NsdStatus st = nsd_factor_analyse(s->a, s->kind, &s->factor, rep);
    if (st != NSD_OK) return st;
    nsd_factor_set_threads(s->factor, s->threads);
    s->analysed = 1;
  }
  return nsd_factor_refactor(s->factor, s->a, rep);
}

/* Factor of M + rho I; on failure, Cholesky falls back to LU, then rho is
 * raised (*rho updated; the caller rescales its dual). */
static NsdStatus shifted_factor(Shifted* s, double* rho, NsdReport* rep) {
  NsdStatus st = shifted_try(s, *rho, rep);
  if (st == NSD_OK) return st;
  char why[sizeof rep->message];
  memcpy(why, rep->message, sizeof why);
  if (s->kind == NSD_FACTOR_CHOLESKY) {
    nsd_factor_destroy(s->factor);
    s->factor = NULL;
    s->analysed = 0;
    s->kind = NSD_FACTOR_LU;
    ++s->fallbacks;
    // the LU reads the whole matrix, the Cholesky had its lower triangle
    st = s->M->storage == NSD_DENSE || shifted_csc(s, *rho, 0, NULL) == NSD_OK
             ? shifted_try(s, *rho, rep)
             : nsd_report_fail(rep, NSD_FAILED, "out of memory assembling M + %g I", *rho);
    if (st == NSD_OK) {
      snprintf(s->note, sizeof s->note, "Cholesky of M + %g I failed (%.60s), LU used", *rho, why);
      return st;
    }
  }
  double r = *rho;
  for (int k = 0; k < ADMM_REG_TRIES && st != NSD_OK; ++k) {
    r *= ADMM_REG_GROWTH;
    ++s->fallbacks;
    st = shifted_try(s, r, rep);
  }
  if (st == NSD_OK) {
    snprintf(s->note, sizeof s->note, "M + %g I singular (%.60s): regularised, rho = %g", *rho, why,
             r);
    *rho = r;
  }
  return st;
}

/* The ratio dual / primal relative residual of the first iteration from z = 0 at rho (see
 * ADMM_PROBE_CG), its r' estimated in x; 0 when the iteration would not lower rho (the dual
 * residual not the larger) or qs = 0. w holds 4 m doubles of workspace. */
static double probe_first_ratio(const NsdFc* problem, NsdFccRowOp* mop, const double* diag,
                                double rho, double* qs, double* x, double* w, int nt) {
  int m = 3 * problem->nc;
  double *res = w, *dir = w + m, *adir = w + 2 * m, *z = w + 3 * m;
  // qs at u = M 0 + q, then (M + rho I) x = -qs from x = 0
  nsd_fcc_desaxce_shift(3, problem->nc, problem->mu, problem->q, problem->q, qs, nt);
  double rz = 0.0;
  for (int i = 0; i < m; ++i) {
    x[i] = 0.0;
    res[i] = -qs[i];
    dir[i] = res[i] / (diag[i] + rho);
    rz += res[i] * dir[i];
  }
  if (!(rz > 0.0)) return 0.0;
  for (int k = 0; k < ADMM_PROBE_CG && rz > 0.0; ++k) {
    nsd_fcc_rowop_apply(mop, dir, adir, nt);
    double da = 0.0;
    for (int i = 0; i < m; ++i) {
      adir[i] += rho * dir[i];
      da += dir[i] * adir[i];
    }
    if (!(da > 0.0)) break;
    double alpha = rz / da, rz_new = 0.0;
    for (int i = 0; i < m; ++i) {
      x[i] += alpha * dir[i];
      res[i] -= alpha * adir[i];
      rz_new += res[i] * res[i] / (diag[i] + rho);
    }
    for (int i = 0; i < m; ++i) dir[i] = res[i] / (diag[i] + rho) + rz_new / rz * dir[i];
    rz = rz_new;
  }
  // z' = Pi_K(r'), xi' = r' - z'; the residuals of step (6) of the iteration
  memcpy(z, x, (size_t)m * sizeof *z);
  nsd_fcc_project(3, problem->nc, problem->mu, z, nt);
  double p2 = 0.0;
  for (int i = 0; i < m; ++i) p2 += (x[i] - z[i]) * (x[i] - z[i]);
  double nx = nsd_fcc_norm(x, m, nt), nz = nsd_fcc_norm(z, m, nt);
  double prim = sqrt(p2) / fmax(fmax(nx, nz), DBL_MIN);
  double dual = nz / fmax(sqrt(p2), DBL_MIN);
  return isfinite(dual) && dual > prim ? dual / fmax(prim, DBL_MIN) : 0.0;
}

NsdStatus nsd_fc3d_admm(const NsdFc* problem, double* r, double* u, const NsdSolverOptions* options,
                        NsdReport* report) {
  NsdReport local;
  NsdReport* rep = report ? report : &local;
  if (!report) local.history = NULL;
  NsdSolverOptions opts;
  if (nsd_solver_begin("admm", options, &opts, rep) != NSD_OK) return NSD_BAD_INPUT;
  const NsdSolverOptions* o = &opts;

  // reject bad input before allocating
  if (!nsd_fc_check(problem, rep)) return rep->status;
  if (problem->dim != 3)
    return nsd_report_fail(rep, NSD_BAD_INPUT, "ADMM (fc3d): dimension %d, expected 3",
                           problem->dim);
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

  // workspace: x (r'), z, xi, Mz, qs, z_old, the monitor's four vectors, then
  // xi_old, z_hat, xi_hat
  int nt = nsd_fcc_threads(o->threads);
  const double* mu = problem->mu;
  double* block = malloc(13 * (size_t)m * sizeof *block);
  NsdFccRowOp mop;
  Shifted sh;
  int have_mop = 0, have_sh = 0;
  if (block && nsd_fcc_rowop_init(&mop, problem->M) == NSD_OK) have_mop = 1;
  if (have_mop) {
    if (shifted_init(&sh, problem->M, 1.0) == NSD_OK) {
      have_sh = 1;
      sh.threads = o->threads > 1 ? o->threads : 1;
    } else
      shifted_free(&sh);
  }
  if (!have_sh) {
    if (have_mop) nsd_fcc_rowop_free(&mop);
    free(block);
    return nsd_report_fail(rep, NSD_FAILED, "ADMM: out of memory, m = %d", m);
  }
  double *x = block, *z = x + m, *xi = z + m, *mz = xi + m, *qs = mz + m, *zold = qs + m;
  double *xiold = zold + 5 * m, *zh = xiold + m, *xih = zh + m;
  NsdFccMonitor mon = {.dim = 3,
                       .nc = nc,
                       .m = m,
                       .nt = nt,
                       .mu = mu,
                       .qs = qs,
                       .q_true = problem->q,
                       .w = zold + m,
                       .u = zold + 2 * m,
                       .best = zold + 3 * m,
                       .nbest = zold + 4 * m,
                       .best_value = INFINITY};
  mon.q_norm = nsd_fcc_norm(problem->q, m, nt);

  // rho_0: the option, else the mean diagonal of M
  double rho = o->admm.rho;
  if (!(rho > 0.0)) {
    double sum = 0.0;
    for (int i = 0; i < m; ++i) sum += sh.diag[i];
    rho = sum > 0.0 ? sum / m : 1.0;
  }
  double rho0 = rho, rho_scale = 0.0;
  for (int i = 0; i < m; ++i) rho_scale += fabs(sh.diag[i]);
  rho_scale = rho_scale > 0.0 ? rho_scale / m : 1.0;
  // the first iteration's search step foreseen (see ADMM_PROBE_CG), M + rho I factorised once
  int probed = 0;
  if (o->admm.adaptive && !o->warm_start && problem->M->storage != NSD_DENSE &&
      nsd_matrix_nnz(problem->M) >= ADMM_PROBE_MIN_NNZ) {
    double ratio = probe_first_ratio(problem, &mop, sh.diag, rho, qs, x, zold, nt);
    if (ratio >= ADMM_RHO_SEARCH_RATIO) {
      double scale = fmax(sqrt(1.0 / ratio), 1.0 / ADMM_RHO_SEARCH_STEP);
      rho = fmax(rho * scale, rho_scale / ADMM_RHO_RANGE);
      probed = 1;
    }
  }
  if (shifted_factor(&sh, &rho, rep) != NSD_OK) {
    char why[sizeof rep->message];
    memcpy(why, rep->message, sizeof why);
    nsd_fcc_rowop_free(&mop);
    shifted_free(&sh);
    free(block);
    return nsd_report_fail(rep, NSD_BAD_INPUT,
                           "ADMM needs M positive semidefinite: M + %g I could not be factorised "
                           "(%.160s)",
                           probed ? rho : rho0, why);
  }

  // start: z_0 = Pi_K(r) or 0, xi_0 = 0, no momentum
  if (o->warm_start) {
    memcpy(z, r, (size_t)m * sizeof *z);
    nsd_fcc_project(3, nc, mu, z, nt);
  } else {
    memset(z, 0, (size_t)m * sizeof *z);
  }
  memset(xi, 0, (size_t)m * sizeof *xi);
  memcpy(zh, z, (size_t)m * sizeof *z);
  memset(xih, 0, (size_t)m * sizeof *xih);
  double tau = 1.0, combined_old = INFINITY, best_seen = INFINITY;
  int accelerate = 1, best_iteration = 0;
  int hold = 0;
  double rho_next = 0.0; /* > 0: the rho the next iteration refactorises for */
  int rho_search = 0;    /* 0: no change of rho yet, +1/-1: searching upwards/downwards, 2: done */
  if (probed) {
    // as after the search step the first iteration would have taken
    rho_search = -1;
    hold = ADMM_RHO_SEARCH_HOLD;
  }
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
    // safeguard: momentum that has not improved the best error for a while is dropped for good
    if (mon.best_value < best_seen) {
      best_seen = mon.best_value;
      best_iteration = rep->iterations;
    } else if (accelerate && rep->iterations - best_iteration > ADMM_STALL) {
      accelerate = 0;
      tau = 1.0;
      memcpy(zh, z, (size_t)m * sizeof *z);
      memcpy(xih, xi, (size_t)m * sizeof *xi);
    }
    if (nsd_time_up(rep, o->time_limit)) {
      nsd_report_fail(rep, NSD_MAX_ITERATIONS, "ADMM: time limit %g s reached", o->time_limit);
      break;
    }
    // a change of rho decided by the last iteration is applied only now that the iterate
    // did not meet the tolerance (a refactorisation saved on the last iteration): the scaled
    // dual xi = y / rho is rescaled with rho, the momentum dropped, M + rho I refactorised
    if (rho_next > 0.0) {
      double rho_new = rho_next;
      rho_next = 0.0;
      if (shifted_factor(&sh, &rho_new, rep) != NSD_OK) {
        failed = nsd_report_fail(rep, NSD_FAILED,
                                 "ADMM: M + %g I could not be factorised after %d iterations",
                                 rho_new, rep->iterations);
        break;
      }
      for (int i = 0; i < m; ++i) xi[i] *= rho / rho_new;
      rho = rho_new;
      tau = 1.0;
      combined_old = INFINITY;
      memcpy(zh, z, (size_t)m * sizeof *z);
      memcpy(xih, xi, (size_t)m * sizeof *xi);
    }
    rep->iterations++;

    // (2) r' = (M + rho I)^-1 (-qs + rho (z_hat - xi_hat))
    for (int i = 0; i < m; ++i) x[i] = -qs[i] + rho * (zh[i] - xih[i]);
    if (nsd_factor_solve(sh.factor, x) != NSD_OK) {
      failed = nsd_report_fail(rep, NSD_FAILED, "ADMM: linear solve failed (rho = %g)", rho);
      break;
    }

    // (3) z' = Pi_K(r' + xi_hat), (4) xi' = xi_hat + r' - z'
    memcpy(zold, z, (size_t)m * sizeof *z);
    memcpy(xiold, xi, (size_t)m * sizeof *xi);
    nsd_fcc_axpby(1.0, x, 1.0, xih, z, m, nt);
    nsd_fcc_project(3, nc, mu, z, nt);
    double prim2 = 0.0, dual2 = 0.0;
    for (int i = 0; i < m; ++i) {
      double p = x[i] - z[i], d = z[i] - zh[i];
      xi[i] = xih[i] + p;
      prim2 += p * p;
      dual2 += d * d;
    }
    nsd_fcc_rowop_apply(&mop, z, mz, nt);

    // (5) acceleration (Goldstein et al. 2014, Alg. 8): extrapolate while the
    //     combined residual ||z' - z_hat||^2 + ||xi' - xi_hat||^2 decreases, else restart
    double combined = dual2 + prim2;
    if (accelerate && combined < ADMM_RESTART_ETA * combined_old) {
      double tau_new = 0.5 * (1.0 + sqrt(1.0 + 4.0 * tau * tau)), beta = (tau - 1.0) / tau_new;
      for (int i = 0; i < m; ++i) {
        zh[i] = z[i] + beta * (z[i] - zold[i]);
        xih[i] = xi[i] + beta * (xi[i] - xiold[i]);
      }
      tau = tau_new;
      combined_old = combined;
    } else {
      tau = 1.0;
      memcpy(zh, z, (size_t)m * sizeof *z);
      memcpy(xih, xi, (size_t)m * sizeof *xi);
      combined_old = combined;
    }

    // (6) residual balancing on relative residuals (Boyd et al. 2011, §3.3.1
    //     and §3.4.1): primal ||r' - z'|| / max(||r'||, ||z'||), dual
    //     rho ||z' - z_hat|| / ||rho xi'||; the scaled dual xi = y / rho is
    //     rescaled with rho, the momentum dropped, M + rho I refactorised
    if (hold > 0)
      --hold;
    else if (o->admm.adaptive) {
      double nx = nsd_fcc_norm(x, m, nt), nz = nsd_fcc_norm(z, m, nt);
      double nxi = nsd_fcc_norm(xi, m, nt);
      double prim = sqrt(prim2) / fmax(fmax(nx, nz), DBL_MIN);
      double dual = rho * sqrt(dual2) / fmax(rho * nxi, DBL_MIN), scale = 0.0;
      if (prim > ADMM_BALANCE * dual || dual > ADMM_BALANCE * prim) {
        int up = prim > dual ? 1 : -1;
        if (rho_search == 0) rho_search = up;
        if (rho_search != 2 && rho_search != up) rho_search = 2;
        // a search step only downwards and for a lopsided ratio (the dual residual 1e4 times
        // the primal one, or the primal zero)
        double ratio = up > 0 ? prim / fmax(dual, DBL_MIN) : dual / fmax(prim, DBL_MIN);
        double cap = rho_search == -1 && ratio >= ADMM_RHO_SEARCH_RATIO ? ADMM_RHO_SEARCH_STEP
                                                                        : ADMM_RHO_MAX_STEP;
        scale = fmin(fmax(sqrt(prim / fmax(dual, DBL_MIN)), 1.0 / cap), cap);
      }
      double rho_new =
          fmin(fmax(rho * scale, rho_scale / ADMM_RHO_RANGE), rho_scale * ADMM_RHO_RANGE);
      if (scale > 0.0 && rho_new != rho) {
        rho_next = rho_new;
        if (scale > ADMM_RHO_MAX_STEP || scale < 1.0 / ADMM_RHO_MAX_STEP)
          hold = ADMM_RHO_SEARCH_HOLD;
      }
    }
  }

  // return the best z with the library's own Siconos error; a fallback is reported
  memcpy(r, mon.best, (size_t)m * sizeof *r);
  nsd_fcc_rowop_free(&mop);
  char note[sizeof sh.note];
  memcpy(note, sh.note, sizeof note);
  shifted_free(&sh);
  free(block);
  rep->residual = nsd_fc_error(problem, r, u);
  if (failed != NSD_OK) return failed;
  NsdStatus st = nsd_report_finish(rep, o->tolerance);
  if (note[0]) {
    size_t len = strlen(rep->message);
    snprintf(rep->message + len, sizeof rep->message - len, "%s(ADMM: %s)", len ? " " : "", note);
  }
  return st;
}
