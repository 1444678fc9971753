/*
 * Global nonsmooth Newton methods for the 3D local friction-contact problem,
 * on the equation Phi(r) = 0 with Phi_alpha(r) = phi(r_alpha, u_alpha, mu_alpha,
 * rho_alpha), u = M r + q:
 *  - nsd_fc3d_newton_ac: phi the Alart-Curnier function (P. Alart, A. Curnier,
 *    "A mixed formulation for frictional contact problems prone to Newton like
 *    solution methods", CMAME 92, 1991), solved by the generalized Newton method
 *    of P. Christensen, A. Klarbring, J.-S. Pang, N. Stromberg, "Formulation and
 *    comparison of algorithms for frictional contact problems", IJNME 42, 1998;
 *  - nsd_fc3d_newton_fb: phi the Fischer-Burmeister function of the
 *    second-order cone (M. Fukushima, Z.-Q. Luo, P. Tseng, "Smoothing functions
 *    for second-order-cone complementarity problems", SIAM J. Optim. 12, 2001).
 * rho_alpha = scale / ||M_alpha,alpha||_F balances r and u in each contact.
 * Each iteration, with theta = 1/2 ||Phi||^2:
 *   1. J = diag(A) + diag(B) M, an element of the generalized Jacobian of Phi,
 *      assembled in CSC on the 3x3 block pattern of M, and grad theta = J^T Phi;
 *   2. Newton direction J d = -Phi by sparse LU (UMFPACK, multifrontal): the
 *      fill-reducing ordering and symbolic analysis of J's pattern are made
 *      once (nsd_factor_analyse), each iteration only refactors the values
 *      (nsd_factor_refactor), so the cost follows the factors' non-zeros;
 *   3. if J is singular, d is not a descent direction of theta, or the line
 *      search fails along d, the direction of (J + eps I) d = -Phi with eps
 *      = |Phi| growing (a Levenberg-Marquardt-like regularisation, also a
 *      proximal step on the rank-deficient Delassus matrices of real scenes);
 *      as a last resort the steepest-descent direction -grad theta;
 *   4. non-monotone Armijo backtracking (Grippo, Lampariello, Lucidi 1986):
 *      theta(r + t d) <= max of the last few theta + sigma t grad.d;
 *   5. stop when the Siconos FC3D error (nsd_fc_error) is below tolerance.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* CXSparse's cs.h pulls in <complex.h> (which defines the macro I) unless told not to. */
#ifndef NCOMPLEX
#define NCOMPLEX
#endif
#include <cs.h>

#include "common/solver_core.h"
#include "friction/fc3d_newton_internal.h"
#include "friction/fc_maps.h"
#include "matrix/matrix_factor_internal.h"
#include "nsdyn/nsd_fc.h"

/* Descent test of step 3 (De Luca, Facchinei, Kanzow 1996): grad.d <= -c |d|^p. */
#define NEWTON_DESCENT_C 1e-12
#define NEWTON_DESCENT_P 2.1
/* Regularisations of step 3: eps = max(FIRST, PHI |Phi|) GROWTH^k, k = 0 .. TRIES-1. */
#define NEWTON_REG_FIRST 1e-10
#define NEWTON_REG_PHI 1.0
#define NEWTON_REG_GROWTH 10.0
#define NEWTON_REG_TRIES 8
/* rho_alpha = scale / ||M_alpha,alpha||_F, scales tuned on the shared problems
 * (Alart-Curnier converges for scales 0.05..20, Fischer-Burmeister for 4..12). */
#define NEWTON_AC_RHO_SCALE 1.0
#define NEWTON_FB_RHO_SCALE 5.0
/* Partial-pivoting thresholds of the sparse LU (nsd_factor_set_pivot_threshold),
 * the faster on the Capsules problems of the shared set: the Fischer-Burmeister
 * Jacobian keeps sparser factors when its diagonal is preferred, the
 * Alart-Curnier one (zero or small diagonal entries on sticking and sliding
 * contacts) when pivoting is plain. */
#define NEWTON_AC_PIVOT 1.0
#define NEWTON_FB_PIVOT 0.1
/* Non-monotone window of step 4 (1 would be the monotone Armijo rule). */
#define NEWTON_NONMONOTONE 5

/** The residual of one contact and its Jacobian blocks (see fc_maps.h), one rho per contact. */
typedef void (*LocalFunction)(const double* r, const double* u, double mu, double rho, double* phi,
                              double* a, double* b);

/* Alart-Curnier with rho_n = rho_t = rho (the global solver's per-contact scale). */
static void ac_local(const double* r, const double* u, double mu, double rho, double* phi,
                     double* a, double* b) {
  nsd_fcm_ac(r, u, mu, rho, rho, phi, a, b);
}

/** Allocated state of one solve. */
typedef struct Workspace {
  int nc, m;
  NsdMatrix* sbm;   /* M with 3x3 blocks */
  NsdMatrix* jac;   /* J in CSC, pattern of the blocks of M plus the diagonal */
  NsdFactor* lu;    /* LU of J: ordering of the pattern made once, values each iteration */
  int* col_start;   /* [nc+1] first entry of each block column */
  int* entry_block; /* [entries] block of sbm, -1 for an added diagonal block */
  int* entry_row;   /* [entries] block row of the entry */
  int* diag_entry;  /* [nc] entry of the diagonal block of each block column */
  double* rho;      /* [nc] */
  double* a;        /* [9 nc] blocks A at r */
  double* b;        /* [9 nc] blocks B at r */
  double* vec;      /* 7 vectors of m doubles, named below */
  double *phi, *phit, *d, *md, *grad, *rt, *ut;
  double history[NEWTON_NONMONOTONE]; /* last theta values */
} Workspace;

static void workspace_free(Workspace* w) {
  nsd_matrix_destroy(w->sbm);
  nsd_matrix_destroy(w->jac);
  nsd_factor_destroy(w->lu);
  free(w->col_start);
  free(w->entry_block);
  free(w->entry_row);
  free(w->diag_entry);
  free(w->rho);
  free(w->a);
  free(w->b);
  free(w->vec);
}

/* Position in the CSC values of entry (i, j) of the block listed as entry e of block column c. */
static size_t value_position(const Workspace* w, int c, int e, int i, int j) {
  const int first = w->col_start[c], nb = w->col_start[c + 1] - first;
  return (size_t)9 * (size_t)first + (size_t)j * 3 * (size_t)nb + 3 * (size_t)(e - first) +
         (size_t)i;
}

/* The 3x3 block structure of M, the CSC pattern of J and the per-contact rho. */
static NsdStatus workspace_init(Workspace* w, const NsdFc* p, double rho_scale, double pivot,
                                NsdReport* report) {
  const int nc = p->nc, m = 3 * nc;
  const size_t sm = (size_t)(m > 0 ? m : 1), snc = (size_t)(nc > 0 ? nc : 1);
  w->nc = nc;
  w->m = m;

  // M with 3x3 blocks, one block row per contact
  w->sbm = nsd_matrix_convert(p->M, NSD_SPARSE_BLOCK, 3);
  w->col_start = calloc(snc + 1, sizeof(int));
  w->diag_entry = malloc(snc * sizeof(int));
  w->rho = malloc(snc * sizeof(double));
  w->a = malloc(9 * snc * sizeof(double));
  w->b = malloc(9 * snc * sizeof(double));
  w->vec = calloc(7 * sm, sizeof(double));
  if (!w->sbm || !w->col_start || !w->diag_entry || !w->rho || !w->a || !w->b || !w->vec)
    return nsd_report_fail(report, NSD_FAILED, "out of memory for a Newton workspace, nc=%d", nc);
  double* v = w->vec;
  double** named[] = {&w->phi, &w->phit, &w->d, &w->md, &w->grad, &w->rt, &w->ut};
  for (size_t k = 0; k < sizeof named / sizeof named[0]; ++k) *named[k] = v + k * sm;

  const NsdSparseBlock* s = w->sbm->sbm;
  if (s->n_block_rows != nc || s->n_block_cols != nc)
    return nsd_report_fail(report, NSD_FAILED, "M has %d x %d blocks of 3x3, expected %d x %d",
                           s->n_block_rows, s->n_block_cols, nc, nc);

  // blocks per block column, with the diagonal block added where M has none
  for (int row = 0; row < nc; ++row) {
    int has_diag = 0;
    for (int k = s->row_ptr[row]; k < s->row_ptr[row + 1]; ++k) {
      ++w->col_start[s->col_index[k] + 1];
      has_diag |= s->col_index[k] == row;
    }
    if (!has_diag) ++w->col_start[row + 1];
  }
  for (int c = 0; c < nc; ++c) w->col_start[c + 1] += w->col_start[c];
  const int entries = w->col_start[nc];
  w->entry_block = malloc((size_t)(entries > 0 ? entries : 1) * sizeof(int));
  w->entry_row = malloc((size_t)(entries > 0 ? entries : 1) * sizeof(int));
  int* next = malloc(snc * sizeof(int));
  if (!w->entry_block || !w->entry_row || !next) {
    free(next);
    return nsd_report_fail(report, NSD_FAILED, "out of memory for a Newton workspace, nc=%d", nc);
  }

  // the entries of each block column in increasing block row
  memcpy(next, w->col_start, snc * sizeof(int));
  for (int row = 0; row < nc; ++row) {
    int has_diag = 0;
    for (int k = s->row_ptr[row]; k < s->row_ptr[row + 1]; ++k) {
      const int c = s->col_index[k];
      if (c == row) {
        has_diag = 1;
        w->diag_entry[c] = next[c];
      }
      w->entry_block[next[c]] = k;
      w->entry_row[next[c]++] = row;
    }
    if (!has_diag) {
      w->diag_entry[row] = next[row];
      w->entry_block[next[row]] = -1;
      w->entry_row[next[row]++] = row;
    }
  }
  free(next);

  // the scalar CSC pattern: column 3c+j lists rows 3I+i of its blocks in order
  const size_t nnz = (size_t)9 * (size_t)entries;
  int* cp = malloc(sm * sizeof(int) + sizeof(int));
  int* ci = malloc((nnz > 0 ? nnz : 1) * sizeof(int));
  double* cx = calloc(nnz > 0 ? nnz : 1, sizeof(double));
  if (!cp || !ci || !cx) {
    free(cp);
    free(ci);
    free(cx);
    return nsd_report_fail(report, NSD_FAILED, "out of memory for a %d x %d Jacobian", m, m);
  }
  cp[0] = 0;
  for (int c = 0; c < nc; ++c)
    for (int j = 0; j < 3; ++j) {
      const int nb = w->col_start[c + 1] - w->col_start[c];
      cp[3 * c + j + 1] = cp[3 * c + j] + 3 * nb;
      for (int e = w->col_start[c]; e < w->col_start[c + 1]; ++e)
        for (int i = 0; i < 3; ++i) ci[value_position(w, c, e, i, j)] = 3 * w->entry_row[e] + i;
    }
  w->jac = nsd_matrix_create_csc(m, m, cp, ci, cx);
  int same = w->jac != NULL;
  if (same && m > 0) {
    // the canonical copy keeps sorted unique entries where they were
    const cs_di* j = w->jac->csc;
    same = memcmp(j->p, cp, sm * sizeof(int) + sizeof(int)) == 0 &&
           memcmp(j->i, ci, nnz * sizeof(int)) == 0;
  }
  free(cp);
  free(ci);
  free(cx);
  if (!same) return nsd_report_fail(report, NSD_FAILED, "could not build the Jacobian pattern");

  // fill-reducing ordering of the whole pattern, kept for every iteration
  if (nsd_factor_analyse(w->jac, NSD_FACTOR_LU, &w->lu, report) != NSD_OK) return report->status;
  nsd_factor_set_pivot_threshold(w->lu, pivot);

  // rho_alpha = rho_scale / ||M_alpha,alpha||_F (rho_scale for a zero block)
  for (int c = 0; c < nc; ++c) {
    const int k = w->entry_block[w->diag_entry[c]];
    double f = 0.0;
    if (k >= 0) {
      const double* blk = nsd_matrix_sbm_block(w->sbm, k);
      for (int t = 0; t < 9; ++t) f += blk[t] * blk[t];
    }
    f = sqrt(f);
    w->rho[c] = rho_scale * (f > 0.0 && isfinite(1.0 / f) ? 1.0 / f : 1.0);
  }
  return NSD_OK;
}

/* Phi (and, if a is non-NULL, the blocks A and B) at (r, u); returns theta = 1/2 |Phi|^2. */
static double evaluate(const Workspace* w, const NsdFc* p, LocalFunction fn, const double* r,
                       const double* u, double* phi, double* a, double* b) {
  double theta = 0.0;
  for (int c = 0; c < w->nc; ++c) {
    fn(r + 3 * c, u + 3 * c, p->mu[c], w->rho[c], phi + 3 * c, a ? a + 9 * c : NULL,
       a ? b + 9 * c : NULL);
    for (int i = 0; i < 3; ++i) theta += phi[3 * c + i] * phi[3 * c + i];
  }
  return 0.5 * theta;
}

/* Values of J = diag(A) + diag(B) M into the CSC pattern, then grad = J^T Phi. */
static void assemble(Workspace* w) {
  const cs_di* jc = w->jac->csc;
  double* x = jc->x;
  for (int c = 0; c < w->nc; ++c)
    for (int e = w->col_start[c]; e < w->col_start[c + 1]; ++e) {
      const int row = w->entry_row[e], k = w->entry_block[e];
      const double* bb = w->b + 9 * row;
      const double* mk = k >= 0 ? nsd_matrix_sbm_block(w->sbm, k) : NULL;
      for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) {
          double v = row == c ? w->a[9 * row + i + 3 * j] : 0.0;
          if (mk)
            for (int l = 0; l < 3; ++l) v += bb[i + 3 * l] * mk[l + 3 * j];
          x[value_position(w, c, e, i, j)] = v;
        }
    }
  for (int j = 0; j < w->m; ++j) {
    double g = 0.0;
    for (int q = jc->p[j]; q < jc->p[j + 1]; ++q) g += x[q] * w->phi[jc->i[q]];
    w->grad[j] = g;
  }
}

/* Add delta to the diagonal of J. */
static void shift_diagonal(Workspace* w, double delta) {
  double* x = w->jac->csc->x;
  for (int c = 0; c < w->nc; ++c)
    for (int i = 0; i < 3; ++i) x[value_position(w, c, w->diag_entry[c], i, i)] += delta;
}

/* d = -J^-1 Phi with the current values of J (numeric LU only); 1 on success.
 * No report: a singular J is only retried, regularised, so it is not diagnosed. */
static int newton_direction(Workspace* w) {
  if (nsd_factor_refactor(w->lu, w->jac, NULL) != NSD_OK) return 0;
  for (int i = 0; i < w->m; ++i) w->d[i] = -w->phi[i];
  return nsd_factor_solve(w->lu, w->d) == NSD_OK && nsd_all_finite(w->d, (size_t)w->m);
}

static double dot(int n, const double* x, const double* y) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += x[i] * y[i];
  return s;
}

/*
 * Non-monotone Armijo backtracking along w->d from (r, u); on success the trial
 * point rt holds the accepted point and 1 is returned.
 */
static int line_search(Workspace* w, const NsdFc* p, LocalFunction fn, const double* r,
                       const double* u, double reference, double slope,
                       const NsdSolverOptions* opt) {
  const int m = w->m;
  nsd_matrix_gemv(1.0, w->sbm, w->d, 0.0, w->md);
  double t = 1.0;
  for (int ls = 0; ls < opt->newton.max_line_search; ++ls) {
    for (int i = 0; i < m; ++i) {
      w->rt[i] = r[i] + t * w->d[i];
      w->ut[i] = u[i] + t * w->md[i];
    }
    const double theta_t = evaluate(w, p, fn, w->rt, w->ut, w->phit, NULL, NULL);
    if (theta_t <= reference + opt->newton.armijo_sigma * t * slope) return 1;
    t *= opt->newton.step_shrink;
  }
  return 0;
}

/* The iterations of both methods on an initialised workspace. */
static void newton_run(Workspace* w, const NsdFc* p, LocalFunction fn, double* r, double* u,
                       const NsdSolverOptions* opt, NsdReport* report) {
  const int m = w->m;
  const size_t bytes = (size_t)m * sizeof(double);

  // initial point: its error, Phi, A, B and theta
  double error = nsd_fc_error(p, r, u);
  double theta = evaluate(w, p, fn, r, u, w->phi, w->a, w->b);
  for (int k = 0; k < NEWTON_NONMONOTONE; ++k) w->history[k] = theta;
  nsd_report_record(report, error);

  for (int iter = 1; iter <= opt->max_iterations && !(error <= opt->tolerance); ++iter) {
    // 1. J and grad theta = J^T Phi
    assemble(w);
    double reference = w->history[0];
    for (int k = 1; k < NEWTON_NONMONOTONE; ++k) reference = fmax(reference, w->history[k]);

    // 2.-4. Newton, then regularised Newton directions, each with its line search
    int accepted = 0;
    double shift = 0.0;
    for (int attempt = 0; attempt <= NEWTON_REG_TRIES && !accepted; ++attempt) {
      const double eps = attempt == 0 ? 0.0
                                      : fmax(NEWTON_REG_FIRST, NEWTON_REG_PHI * sqrt(2.0 * theta)) *
                                            pow(NEWTON_REG_GROWTH, attempt - 1);
      shift_diagonal(w, eps - shift);
      shift = eps;
      if (!newton_direction(w)) continue;
      const double slope = dot(m, w->grad, w->d);
      const double dnorm = sqrt(dot(m, w->d, w->d));
      if (!(slope <= -NEWTON_DESCENT_C * pow(dnorm, NEWTON_DESCENT_P))) continue;
      accepted = line_search(w, p, fn, r, u, reference, slope, opt);
    }
    shift_diagonal(w, -shift);

    // last resort: steepest descent on theta
    if (!accepted) {
      for (int i = 0; i < m; ++i) w->d[i] = -w->grad[i];
      const double slope = -dot(m, w->grad, w->grad);
      if (slope < 0.0) accepted = line_search(w, p, fn, r, u, theta, slope, opt);
    }
    report->iterations = iter;
    if (!accepted) {
      nsd_report_fail(report, NSD_FAILED,
                      "line search failed at iteration %d (theta %.3e, error %.3e): no "
                      "decrease along Newton, regularised Newton or gradient directions",
                      iter, theta, error);
      break;
    }

    // 5. move; u recomputed exactly by the error measure
    memcpy(r, w->rt, bytes);
    error = nsd_fc_error(p, r, u);
    nsd_report_record(report, error);
    if (!isfinite(error)) {
      nsd_report_fail(report, NSD_FAILED, "diverged at iteration %d", iter);
      break;
    }
    theta = evaluate(w, p, fn, r, u, w->phi, w->a, w->b);
    memmove(w->history + 1, w->history, (NEWTON_NONMONOTONE - 1) * sizeof(double));
    w->history[0] = theta;
    if (!(error <= opt->tolerance) && opt->time_limit > 0.0 &&
        nsd_wall_time() - report->start_time > opt->time_limit) {
      nsd_report_fail(report, NSD_MAX_ITERATIONS, "time limit %g s reached after %d iterations",
                      opt->time_limit, iter);
      break;
    }
  }
  report->residual = error;
}

/* Checks, workspace, iterations and report shared by both methods. */
static NsdStatus newton_solve(const char* name, LocalFunction fn, double rho_scale, double pivot,
                              const NsdFc* p, double* r, double* u, const NsdSolverOptions* options,
                              NsdReport* report) {
  NsdReport own;
  if (!report) {
    memset(&own, 0, sizeof own);
    report = &own;
  }
  NsdSolverOptions opt;
  if (nsd_solver_begin(name, options, &opt, report) != NSD_OK) return NSD_BAD_INPUT;

  // reject bad input before allocating
  if (!nsd_fc_check(p, report)) return report->status;
  if (p->dim != 3)
    return nsd_report_fail(report, NSD_BAD_INPUT, "%s: dimension %d, expected 3", name, p->dim);
  const int m = 3 * p->nc;
  if (m > 0 && (!r || !u))
    return nsd_report_fail(report, NSD_BAD_INPUT, "%s: r or u is NULL", name);
  if (opt.newton.max_line_search < 1)
    return nsd_report_fail(report, NSD_BAD_INPUT, "%s: newton.max_line_search=%d, expected >= 1",
                           name, opt.newton.max_line_search);
  if (!(opt.newton.armijo_sigma > 0.0 && opt.newton.armijo_sigma < 1.0))
    return nsd_report_fail(report, NSD_BAD_INPUT, "%s: newton.armijo_sigma=%g, not in (0,1)", name,
                           opt.newton.armijo_sigma);
  if (!(opt.newton.step_shrink > 0.0 && opt.newton.step_shrink < 1.0))
    return nsd_report_fail(report, NSD_BAD_INPUT, "%s: newton.step_shrink=%g, not in (0,1)", name,
                           opt.newton.step_shrink);
  if (opt.warm_start && !nsd_all_finite(r, (size_t)m))
    return nsd_report_fail(report, NSD_BAD_INPUT, "%s: warm start r has a non-finite entry", name);

  // start point; no contact, nothing to solve
  if (!opt.warm_start && m > 0) memset(r, 0, (size_t)m * sizeof *r);
  if (m == 0) {
    report->residual = 0.0;
    return nsd_report_finish(report, opt.tolerance);
  }

  // workspace, iterations
  Workspace w;
  memset(&w, 0, sizeof w);
  if (workspace_init(&w, p, rho_scale, pivot, report) == NSD_OK) {
    newton_run(&w, p, fn, r, u, &opt, report);
  } else {
    report->residual = nsd_fc_error(p, r, u);
  }
  workspace_free(&w);
  return nsd_report_finish(report, opt.tolerance);
}

NsdStatus nsd_fc3d_newton_ac(const NsdFc* problem, double* r, double* u,
                             const NsdSolverOptions* options, NsdReport* report) {
  return newton_solve("newton_ac", ac_local, NEWTON_AC_RHO_SCALE, NEWTON_AC_PIVOT, problem, r, u,
                      options, report);
}

NsdStatus nsd_fc3d_newton_fb(const NsdFc* problem, double* r, double* u,
                             const NsdSolverOptions* options, NsdReport* report) {
  return newton_solve("newton_fb", nsd_fcm_fb, NEWTON_FB_RHO_SCALE, NEWTON_FB_PIVOT, problem, r, u,
                      options, report);
}

int nsd_fcni_factor_stats(const NsdFc* problem, int fb, const double* r, long long* nnz_m,
                          long long* nnz_jac, long long* nnz_factor) {
  if (!problem || problem->dim != 3) return NSD_BAD_INPUT;
  NsdReport report;
  memset(&report, 0, sizeof report);
  Workspace w;
  memset(&w, 0, sizeof w);
  NsdStatus status = workspace_init(&w, problem, fb ? NEWTON_FB_RHO_SCALE : NEWTON_AC_RHO_SCALE,
                                    fb ? NEWTON_FB_PIVOT : NEWTON_AC_PIVOT, &report);
  if (status == NSD_OK) {
    const int m = w.m;
    double* rr = calloc((size_t)(m > 0 ? m : 1), sizeof(double));
    double* uu = calloc((size_t)(m > 0 ? m : 1), sizeof(double));
    if (!rr || !uu) {
      status = NSD_FAILED;
    } else {
      if (r) memcpy(rr, r, (size_t)m * sizeof(double));
      nsd_matrix_gemv(1.0, w.sbm, rr, 0.0, uu);
      for (int i = 0; i < m; ++i) uu[i] += problem->q[i];
      evaluate(&w, problem, fb ? nsd_fcm_fb : ac_local, rr, uu, w.phi, w.a, w.b);
      assemble(&w);
      if (nnz_m) *nnz_m = (long long)nsd_matrix_nnz(problem->M);
      if (nnz_jac) *nnz_jac = (long long)w.jac->csc->p[m];
      status = nsd_factor_refactor(w.lu, w.jac, &report);
      if (nnz_factor) *nnz_factor = status == NSD_OK ? nsd_factor_nnz(w.lu) : -1;
    }
    free(rr);
    free(uu);
  }
  workspace_free(&w);
  return (int)status;
}
