/* ADMM for the generic mechanical problem: the blocks as one convex set C, the
 * equality rows its free part.
 *
 * For symmetric positive semi-definite W (mechanical problems: W = H M^-1 H^T) the
 * problem with the cones' De Saxce term s fixed is the optimality condition of
 *   min 1/2 r^T W r + (q + s)^T r  over r in C,
 * C the product of the blocks' sets: R^k for an equality block (its condition
 * W r + q = 0 on its rows), the non-negative orthant for LCP rows, the box
 * [lower, upper] for relay rows and the Coulomb cone of the block for a cone
 * (s = mu ||u_T|| on its normal row, u = W r + q). Scaled ADMM on r = z, z in C:
 *   r' = (W + rho I)^-1 (-(q + s) + rho (z - xi)),
 *   z' = P_C(r' + xi),      xi' = xi + r' - z',
 * s refreshed from u = W z' + q after every iteration (the fixed point on the
 * De Saxce term, as the FC3D ADMM). On an equality block P_C is the identity:
 * z = r + xi there and xi stays 0, so the fixed point has W r + q = 0 on those
 * rows — no projection, no penalty: the "free set" of the equalities.
 * W + rho I is assembled once in CSC with every diagonal entry stored, analysed
 * once and refactorised only when rho changes (Cholesky; LU when the Cholesky
 * fails; LU at once for a non-symmetric W, e.g. read from a file). rho_0 = the option, else
 * the mean diagonal of W; residual balancing: when the primal residual
 * ||r' - z'|| and the dual one rho ||z' - z|| differ by more than
 * GMP_ADMM_BALANCE, rho is doubled or halved (xi rescaled), at most once every
 * GMP_ADMM_HOLD iterations. Stops when nsd_gmp_error(z) <= tolerance; the answer
 * is z (in C by construction), u = W z + q. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* CXSparse's cs.h pulls in <complex.h> (which defines the macro I) unless told not to. */
#ifndef NCOMPLEX
#define NCOMPLEX
#endif
#include <cs.h>

#include "common/solver_core.h"
#include "gmp/gmp_internal.h"
#include "nsdyn/nsd_fc.h"
#include "nsdyn/nsd_matrix.h"

#define GMP_ADMM_BALANCE 10.0
#define GMP_ADMM_HOLD 5
/* rho stays within [1/GMP_ADMM_RHO_DOWN, GMP_ADMM_RHO_UP] times its start: lower, the
 * De Saxce fixed point of the badly scaled GMP5.dat (W from 8e3 to 8e5) diverges */
#define GMP_ADMM_RHO_DOWN 1e2
#define GMP_ADMM_RHO_UP 1e6

typedef struct Admm {
  NsdGmpData d;
  NsdMatrix* a;  /* W + rho I, CSC */
  int* diag_pos; /* [n] index of the diagonal entry of column i in a->csc->x */
  double* diag;  /* [n] W_ii */
  NsdFactor* factor;
  NsdFactorKind kind;
  double *x, *z, *xi, *zold, *s, *u; /* [n] each */
} Admm;

static void admm_free(Admm* a) {
  nsd_gmpi_data_free(&a->d);
  nsd_matrix_destroy(a->a);
  nsd_factor_destroy(a->factor);
  free(a->diag_pos);
  free(a->diag);
  free(a->x);
  free(a->z);
  free(a->xi);
  free(a->zold);
  free(a->s);
  free(a->u);
}

/* W + rho I in CSC from W's rows (the diagonal stored even where W has none). */
static NsdStatus assemble(Admm* a, double rho) {
  const NsdGmpData* d = &a->d;
  const int n = d->p->n, nnz = d->row_ptr[n];
  int* ti = malloc(((size_t)nnz + (size_t)n + 1) * sizeof *ti);
  int* tj = malloc(((size_t)nnz + (size_t)n + 1) * sizeof *tj);
  double* tx = malloc(((size_t)nnz + (size_t)n + 1) * sizeof *tx);
  NsdStatus st = NSD_FAILED;
  if (ti && tj && tx) {
    int k = 0;
    for (int i = 0; i < n; ++i) {
      a->diag[i] = 0.0;
      for (int q = d->row_ptr[i]; q < d->row_ptr[i + 1]; ++q) {
        ti[k] = i;
        tj[k] = d->col[q];
        tx[k++] = d->val[q];
        if (d->col[q] == i) a->diag[i] += d->val[q];
      }
    }
    for (int i = 0; i < n; ++i) {  // summed with W's diagonal entry by the assembly
      ti[k] = tj[k] = i;
      tx[k++] = rho;
    }
    a->a = nsd_matrix_create_csc_from_triplets(n, n, k, ti, tj, tx);
    st = a->a ? NSD_OK : NSD_FAILED;
  }
  free(ti);
  free(tj);
  free(tx);
  if (st != NSD_OK) return st;
  const cs_di* c = a->a->csc;
  // CHOLMOD reads one triangle: a non-symmetric W (files) is factorised by LU
  cs_di* t = cs_di_transpose(c, 1);
  cs_di* diff = t ? cs_di_add(c, t, 1.0, -1.0) : NULL;
  if (!diff) {
    cs_di_spfree(t);
    return NSD_FAILED;
  }
  double big = 0.0, scale = 0.0;
  for (int q = 0; q < diff->p[n]; ++q) big = fmax(big, fabs(diff->x[q]));
  for (int q = 0; q < c->p[n]; ++q) scale = fmax(scale, fabs(c->x[q]));
  if (!(big <= 1e-12 * scale)) a->kind = NSD_FACTOR_LU;
  cs_di_spfree(diff);
  cs_di_spfree(t);
  for (int j = 0; j < n; ++j) {
    a->diag_pos[j] = -1;
    for (int q = c->p[j]; q < c->p[j + 1]; ++q)
      if (c->i[q] == j) a->diag_pos[j] = q;
    if (a->diag_pos[j] < 0) return NSD_FAILED;
  }
  return NSD_OK;
}

/* The factor of W + rho I: the diagonal rewritten, analysed on first use, refactorised;
 * a failed Cholesky switches to LU once. */
static NsdStatus factor(Admm* a, double rho, NsdReport* rep) {
  const int n = a->d.p->n;
  for (int i = 0; i < n; ++i) a->a->csc->x[a->diag_pos[i]] = a->diag[i] + rho;
  for (int attempt = 0; attempt < 2; ++attempt) {
    NsdStatus st = NSD_OK;
    if (!a->factor) st = nsd_factor_analyse(a->a, a->kind, &a->factor, rep);
    if (st == NSD_OK) st = nsd_factor_refactor(a->factor, a->a, rep);
    if (st == NSD_OK || a->kind == NSD_FACTOR_LU) return st;
    nsd_factor_destroy(a->factor);
    a->factor = NULL;
    a->kind = NSD_FACTOR_LU;
  }
  return NSD_FAILED;
}

/* z = P_C(y) block by block (in place). */
static void project(const NsdGmp* p, double* y) {
  for (int b = 0; b < p->n_blocks; ++b) {
    const int at = p->start[b], k = p->blocks[b].size;
    double* yb = y + at;
    switch (p->blocks[b].kind) {
      case NSD_GMP_EQUALITY:
        break;
      case NSD_GMP_LCP:
        for (int i = 0; i < k; ++i) yb[i] = yb[i] > 0.0 ? yb[i] : 0.0;
        break;
      case NSD_GMP_FC2D:
      case NSD_GMP_FC3D:
        nsd_fc_project_on_cone(k, p->blocks[b].mu, yb);
        break;
      case NSD_GMP_RELAY:
        for (int i = 0; i < k; ++i) {
          const double lo = p->lower ? p->lower[at + i] : -INFINITY;
          const double hi = p->upper ? p->upper[at + i] : INFINITY;
          yb[i] = yb[i] < lo ? lo : (yb[i] > hi ? hi : yb[i]);
        }
        break;
    }
  }
}

/* s: mu ||u_T|| on the normal row of each cone, 0 elsewhere. */
static void desaxce(const NsdGmp* p, const double* u, double* s) {
  memset(s, 0, (size_t)p->n * sizeof *s);
  for (int b = 0; b < p->n_blocks; ++b) {
    const NsdGmpBlock* bl = &p->blocks[b];
    if (bl->kind != NSD_GMP_FC2D && bl->kind != NSD_GMP_FC3D) continue;
    const int at = p->start[b];
    double t2 = 0.0;
    for (int i = 1; i < bl->size; ++i) t2 += u[at + i] * u[at + i];
    s[at] = bl->mu * sqrt(t2);
  }
}

static double norm2(const double* x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  return sqrt(s);
}

NsdStatus nsd_gmp_admm(const NsdGmp* problem, double* r, double* u, const NsdSolverOptions* options,
                       NsdReport* report) {
  NsdReport own;
  if (!report) {
    memset(&own, 0, sizeof own);
    report = &own;
  }
  NsdSolverOptions opt;
  if (nsd_gmpi_begin("admm", problem, r, u, options, &opt, report) != NSD_OK) return report->status;
  if (!(opt.admm.rho >= 0.0) || !isfinite(opt.admm.rho))
    return nsd_report_fail(report, NSD_BAD_INPUT,
                           "GMP admm: rho = %g, expected >= 0 (0: automatic)", opt.admm.rho);
  const int n = problem->n;
  Admm a;
  memset(&a, 0, sizeof a);
  a.kind = NSD_FACTOR_CHOLESKY;
  const size_t sz = (size_t)(n > 0 ? n : 1) * sizeof(double);
  NsdStatus st = nsd_gmpi_data_init(&a.d, problem, report);
  if (st != NSD_OK) {
    admm_free(&a);
    return st;
  }
  a.diag_pos = malloc((size_t)(n > 0 ? n : 1) * sizeof *a.diag_pos);
  a.diag = malloc(sz);
  a.x = malloc(sz);
  a.z = malloc(sz);
  a.xi = calloc((size_t)(n > 0 ? n : 1), sizeof(double));
  a.zold = malloc(sz);
  a.s = malloc(sz);
  a.u = malloc(sz);
  if (!a.diag_pos || !a.diag || !a.x || !a.z || !a.xi || !a.zold || !a.s || !a.u ||
      (n > 0 && assemble(&a, 0.0) != NSD_OK)) {
    admm_free(&a);
    return nsd_report_fail(report, NSD_FAILED, "GMP admm: out of memory (%d rows)", n);
  }
  if (n == 0) {
    admm_free(&a);
    report->iterations = 0;
    report->residual = 0.0;
    return nsd_report_finish(report, opt.tolerance);
  }
  // rho_0: the option, else the mean diagonal of W
  double rho = opt.admm.rho;
  if (!(rho > 0.0)) {
    double sum = 0.0;
    for (int i = 0; i < n; ++i) sum += fabs(a.diag[i]);
    rho = sum > 0.0 ? sum / n : 1.0;
  }
  const double rho0 = rho;
  if (factor(&a, rho, report) != NSD_OK) {
    admm_free(&a);
    return nsd_report_fail(report, NSD_FAILED,
                           "GMP admm: W + %g I could not be factorised (Cholesky and LU)", rho);
  }
  // start: z = the caller's r (0 unless warm starting) projected on C, s from u = W z + q
  memcpy(a.z, r, sz);
  project(problem, a.z);
  nsd_gmpi_velocity(&a.d, a.z, a.u);
  desaxce(problem, a.u, a.s);

  double err = nsd_gmpi_error(&a.d, a.z, a.u);
  int it = 0, hold = 0;
  while (err > opt.tolerance && it < opt.max_iterations) {
    ++it;
    // r' = (W + rho I)^-1 (-(q + s) + rho (z - xi))
    for (int i = 0; i < n; ++i) a.x[i] = -(problem->q[i] + a.s[i]) + rho * (a.z[i] - a.xi[i]);
    if (nsd_factor_solve(a.factor, a.x) != NSD_OK) {
      st = nsd_report_fail(report, NSD_FAILED, "GMP admm: linear solve failed (rho = %g)", rho);
      break;
    }
    // z' = P_C(r' + xi), xi' = xi + r' - z'
    memcpy(a.zold, a.z, sz);
    for (int i = 0; i < n; ++i) a.z[i] = a.x[i] + a.xi[i];
    project(problem, a.z);
    double primal = 0.0, dual = 0.0;
    for (int i = 0; i < n; ++i) {
      const double d = a.x[i] - a.z[i];
      a.xi[i] += d;
      primal += d * d;
      const double dz = a.z[i] - a.zold[i];
      dual += dz * dz;
    }
    primal = sqrt(primal);
    dual = rho * sqrt(dual);
    nsd_gmpi_velocity(&a.d, a.z, a.u);
    desaxce(problem, a.u, a.s);
    err = nsd_gmpi_error(&a.d, a.z, a.u);
    nsd_report_record(report, err);
    if (!isfinite(err) || nsd_time_up(report, opt.time_limit)) break;
    // residual balancing: rho doubled or halved, the scaled dual xi = y / rho rescaled
    if (opt.admm.adaptive && ++hold >= GMP_ADMM_HOLD && err > opt.tolerance) {
      double scale = 0.0;
      const double nxi = norm2(a.xi, n) * rho;
      if (primal > GMP_ADMM_BALANCE * dual && rho * 2.0 <= rho0 * GMP_ADMM_RHO_UP)
        scale = 2.0;
      else if (dual > GMP_ADMM_BALANCE * primal && nxi > 0.0 &&
               rho * 0.5 >= rho0 / GMP_ADMM_RHO_DOWN)
        scale = 0.5;
      if (scale > 0.0) {
        for (int i = 0; i < n; ++i) a.xi[i] /= scale;
        rho *= scale;
        hold = 0;
        if (factor(&a, rho, report) != NSD_OK) {
          st = nsd_report_fail(report, NSD_FAILED,
                               "GMP admm: W + %g I could not be factorised at iteration %d", rho,
                               it);
          break;
        }
      }
    }
  }
  memcpy(r, a.z, sz);
  memcpy(u, a.u, sz);
  report->iterations = it;
  report->residual = err;
  admm_free(&a);
  if (st != NSD_OK) return st;
  if (!isfinite(err))
    return nsd_report_fail(report, NSD_FAILED, "GMP admm: the iterate diverged at iteration %d",
                           it);
  return nsd_report_finish(report, opt.tolerance);
}
