/*
 * Nonsmooth Gauss-Seidel over the blocks of a generic mechanical problem
 * (nsd_gmp_nsgs, nsd_gmp.h). Each block b is solved in turn on its local
 * problem W_bb r_b + q_b, q_b = q_b + sum_{c != b} W_bc r_c (the rows of W
 * times r less the diagonal block's part):
 *  - equality: r_b = -W_bb^-1 q_b by the LAPACK LU of W_bb, factorised once;
 *  - LCP: lexicographic Lemke on (W_bb, q_b) (lcp_internal.h), in closed form
 *    for one row;
 *  - cones: the one-contact solvers of the FC NSGS (fc_local.h): closed forms,
 *    then Alart-Curnier (or the chosen) local Newton for a sliding 3D contact,
 *    the exact enumeration of the four regimes in 2D;
 *  - relay: the clamp of -q_b / W_bb for one row, projected Gauss-Seidel over
 *    the block's rows otherwise.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "friction/fc_local.h"
#include "gmp/gmp_internal.h"
#include "lcp/lcp_internal.h"
#include "matrix/dense_lu.h"

/* Reciprocal condition number under which an equality block counts as singular. */
#define GMP_NSGS_SINGULAR_RCOND 1e-14

/* The state of one solve. */
typedef struct Nsgs {
  NsdGmpData d;
  double* lu;         /* LU factors of the equality blocks (at the offsets of d.diag) */
  int* pivots;        /* [n] pivots of those LUs, at the first row of each block */
  double* ql;         /* [max_size] local q */
  double* keep;       /* [max_size] an LCP block's r before Lemke */
  double* lemke_work; /* nsd_lcpi_lemke_work(max_size) */
  int* lemke_iwork;   /* [2 max_size] */
  int lemke_failures; /* LCP blocks Lemke did not solve in the last sweep */
  int last_failed;    /* the last such block */
} Nsgs;

static void nsgs_free(Nsgs* s) {
  nsd_gmpi_data_free(&s->d);
  free(s->lu);
  free(s->pivots);
  free(s->ql);
  free(s->keep);
  free(s->lemke_work);
  free(s->lemke_iwork);
}

/* Allocate, factorise the equality blocks and check the cones' normal entries. */
static NsdStatus nsgs_init(Nsgs* s, const NsdGmp* p, NsdReport* report) {
  memset(s, 0, sizeof *s);
  NsdStatus st = nsd_gmpi_data_init(&s->d, p, report);
  if (st != NSD_OK) return st;
  const int m = s->d.max_size > 0 ? s->d.max_size : 1;
  const size_t diag_total =
      p->n_blocks > 0 ? s->d.diag_at[p->n_blocks - 1] + (size_t)p->blocks[p->n_blocks - 1].size *
                                                            (size_t)p->blocks[p->n_blocks - 1].size
                      : 1;
  s->lu = malloc((diag_total > 0 ? diag_total : 1) * sizeof *s->lu);
  s->pivots = malloc((size_t)(p->n > 0 ? p->n : 1) * sizeof *s->pivots);
  s->ql = malloc((size_t)m * sizeof *s->ql);
  s->keep = malloc((size_t)m * sizeof *s->keep);
  s->lemke_work = malloc(nsd_lcpi_lemke_work(m) * sizeof *s->lemke_work);
  s->lemke_iwork = malloc(2 * (size_t)m * sizeof *s->lemke_iwork);
  if (!s->lu || !s->pivots || !s->ql || !s->keep || !s->lemke_work || !s->lemke_iwork)
    return nsd_report_fail(report, NSD_FAILED, "GMP nsgs: out of memory, n=%d", p->n);

  for (int b = 0; b < p->n_blocks; ++b) {
    const int k = p->blocks[b].size, at = p->start[b];
    const double* w = s->d.diag + s->d.diag_at[b];
    const char* kind = nsd_gmp_block_kind_name(p->blocks[b].kind);
    if (p->blocks[b].kind == NSD_GMP_EQUALITY) {
      double* lu = s->lu + s->d.diag_at[b];
      memcpy(lu, w, (size_t)k * (size_t)k * sizeof *lu);
      double rcond = 0.0;
      if (nsd_dense_lu_factor(lu, k, s->pivots + at, &rcond) != 0 ||
          !(rcond > GMP_NSGS_SINGULAR_RCOND))
        return nsd_report_fail(report, NSD_FAILED,
                               "GMP nsgs: block %d (%s, rows %d..%d): W_bb is singular "
                               "(reciprocal condition %.3g)",
                               b, kind, at, at + k - 1, rcond);
    } else if (p->blocks[b].kind == NSD_GMP_RELAY) {
      for (int i = 0; i < k; ++i)
        if (!(w[i + (size_t)i * k] > 0.0))
          return nsd_report_fail(report, NSD_FAILED,
                                 "GMP nsgs: block %d (relay, rows %d..%d): W_ii = %g at row %d, "
                                 "expected > 0",
                                 b, at, at + k - 1, w[i + (size_t)i * k], at + i);
    } else if ((p->blocks[b].kind == NSD_GMP_FC3D || p->blocks[b].kind == NSD_GMP_FC2D) &&
               !(w[0] > 0.0)) {
      return nsd_report_fail(report, NSD_FAILED,
                             "GMP nsgs: block %d (%s, rows %d..%d): W_nn = %g, expected > 0", b,
                             kind, at, at + k - 1, w[0]);
    }
  }
  return NSD_OK;
}

/* The local q of block b at the current r. */
static void local_q(const Nsgs* s, int b, const double* r, double* ql) {
  const NsdGmp* p = s->d.p;
  const int k = p->blocks[b].size, at = p->start[b];
  const double* w = s->d.diag + s->d.diag_at[b];
  for (int i = 0; i < k; ++i) {
    double v = p->q[at + i] + nsd_gmpi_row_dot(&s->d, at + i, r);
    for (int c = 0; c < k; ++c) v -= w[i + (size_t)c * k] * r[at + c];
    ql[i] = v;
  }
}

/* Solve the LCP block b on (W_bb, ql) into rb; 0 when Lemke did not solve it (rb kept). */
static int solve_lcp_block(Nsgs* s, int b, const NsdSolverOptions* opt, double* rb) {
  const NsdGmp* p = s->d.p;
  const int k = p->blocks[b].size;
  const double* w = s->d.diag + s->d.diag_at[b];
  if (k == 1 && w[0] > 0.0) {
    rb[0] = s->ql[0] < 0.0 ? -s->ql[0] / w[0] : 0.0;
    return 1;
  }
  int pivots = 0, entering = -1;
  const NsdLcpiLemkeOutcome out = nsd_lcpi_lemke_dense(
      k, w, k, s->ql, rb, opt->lemke.pivot_tolerance, nsd_lcpi_lemke_pivot_cap(k, 0), 0.0, &pivots,
      &entering, s->lemke_work, s->lemke_iwork);
  return out == NSD_LCPI_LEMKE_SOLVED;
}

/* Solve the relay block b on (W_bb, ql) into rb: a clamp per row, swept until the
 * largest change is below local_tolerance (one pass for one row). */
static void solve_relay_block(const Nsgs* s, int b, const NsdSolverOptions* opt, double* rb) {
  const NsdGmp* p = s->d.p;
  const int k = p->blocks[b].size, at = p->start[b];
  const double* w = s->d.diag + s->d.diag_at[b];
  const int passes =
      k == 1 ? 1 : (opt->nsgs.local_max_iterations > 0 ? opt->nsgs.local_max_iterations : 100);
  for (int pass = 0; pass < passes; ++pass) {
    double change = 0.0;
    for (int i = 0; i < k; ++i) {
      double v = s->ql[i];
      for (int c = 0; c < k; ++c)
        if (c != i) v += w[i + (size_t)c * k] * rb[c];
      const double x = fmin(p->upper[at + i], fmax(p->lower[at + i], -v / w[i + (size_t)i * k]));
      change = fmax(change, fabs(x - rb[i]));
      rb[i] = x;
    }
    if (change <= opt->nsgs.local_tolerance * (1.0 + fabs(rb[0]))) break;
  }
}

/* One sweep over the blocks. */
static void sweep(Nsgs* s, const NsdFcLocalParams* params, const NsdSolverOptions* opt, double* r) {
  const NsdGmp* p = s->d.p;
  s->lemke_failures = 0;
  for (int b = 0; b < p->n_blocks; ++b) {
    const int k = p->blocks[b].size, at = p->start[b];
    const double* w = s->d.diag + s->d.diag_at[b];
    double* rb = r + at;
    local_q(s, b, r, s->ql);
    switch (p->blocks[b].kind) {
      case NSD_GMP_EQUALITY:
        for (int i = 0; i < k; ++i) rb[i] = -s->ql[i];
        nsd_dense_lu_solve(s->lu + s->d.diag_at[b], k, s->pivots + at, rb, 1);
        break;
      case NSD_GMP_LCP:
        memcpy(s->keep, rb, (size_t)k * sizeof *rb);
        if (!solve_lcp_block(s, b, opt, rb)) {
          ++s->lemke_failures;
          s->last_failed = b;
          memcpy(rb, s->keep, (size_t)k * sizeof *rb);
        }
        break;
      case NSD_GMP_FC3D:
        nsd_fcl_solve3(params, w, s->ql, p->blocks[b].mu, rb);
        break;
      case NSD_GMP_FC2D:
        nsd_fcl_solve2(w, s->ql, p->blocks[b].mu, rb);
        break;
      case NSD_GMP_RELAY:
        solve_relay_block(s, b, opt, rb);
        break;
    }
  }
}

NsdStatus nsd_gmp_nsgs(const NsdGmp* problem, double* r, double* u, const NsdSolverOptions* options,
                       NsdReport* report) {
  NsdReport own;
  if (!report) {
    memset(&own, 0, sizeof own);
    report = &own;
  }
  NsdSolverOptions opt;
  if (nsd_gmpi_begin("nsgs", problem, r, u, options, &opt, report) != NSD_OK) return report->status;
  const NsdFcLocalParams params = {opt.nsgs.local_solver, opt.nsgs.local_tolerance,
                                   opt.nsgs.local_max_iterations};

  Nsgs s;
  NsdStatus st = nsgs_init(&s, problem, report);
  if (st != NSD_OK) {
    nsgs_free(&s);
    return st;
  }

  // sweeps until the Siconos GMP error of (r, u = W r + q) is below tolerance
  double err = INFINITY;
  int it = 0;
  while (it < opt.max_iterations) {
    sweep(&s, &params, &opt, r);
    ++it;
    nsd_gmpi_velocity(&s.d, r, u);
    err = nsd_gmpi_error(&s.d, r, u);
    nsd_report_record(report, err);
    if (err <= opt.tolerance || !isfinite(err) || nsd_time_up(report, opt.time_limit)) break;
  }
  if (it == 0) nsd_gmpi_velocity(&s.d, r, u);
  report->iterations = it;
  report->residual = err;
  if (!isfinite(err))
    nsd_report_fail(report, NSD_FAILED, "GMP nsgs: the iterate diverged at sweep %d", it);
  else if (err > opt.tolerance && s.lemke_failures > 0)
    nsd_report_fail(report, NSD_FAILED,
                    "GMP nsgs: Lemke did not solve %d LCP block(s) in the last sweep (the last "
                    "block %d); error %.3e",
                    s.lemke_failures, s.last_failed, err);
  nsgs_free(&s);
  return nsd_report_finish(report, opt.tolerance);
}
