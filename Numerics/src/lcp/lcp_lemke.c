/*
 * Lemke's complementary pivoting method (C. E. Lemke, "Bimatrix equilibrium
 * points and mathematical programming", Management Science 11, 1965), with the
 * lexicographic minimum ratio test that makes it finite under degeneracy
 * (Cottle, Pang, Stone, "The Linear Complementarity Problem", 1992, 4.4 and 4.9).
 *
 * Augmented system, covering vector d = (1, ..., 1) and artificial z0:
 *     w - M z - d z0 = q,   w, z, z0 >= 0,   w_i z_i = 0.
 * The dense tableau holds B^-1 [I | -M | -d | q] for the current basis B
 * (row-major, n rows of 2n+2 columns: w_1..w_n, z_1..z_n, z0, right side).
 * Its first n columns are B^-1, which the lexicographic rule compares.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcp/lcp_internal.h"

/* Two ratios closer than this (relative) are a tie for the lexicographic rule. */
#define LEMKE_LEX_TIE 1e-12
/* Right-hand sides below this times ||q||_inf are set to exactly 0 (degenerate). */
#define LEMKE_RHS_ZERO 1e-14
/* Pivot cap of a pivoting method: at least this many pivots per unknown, plus a margin. */
#define LEMKE_PIVOTS_PER_UNKNOWN 10
#define LEMKE_PIVOTS_MARGIN 100

size_t nsd_lcpi_lemke_work(int n) { return (size_t)n * (2 * (size_t)n + 3); }

int nsd_lcpi_lemke_pivot_cap(int n, int max_iterations) {
  const int floor_pivots = LEMKE_PIVOTS_PER_UNKNOWN * n + LEMKE_PIVOTS_MARGIN;
  return max_iterations > floor_pivots ? max_iterations : floor_pivots;
}

/*
 * Lexicographic minimum ratio row among the candidate rows (cand[0..nc-1]),
 * each with divisor |a_i| > 0: the lex-min of (rhs_i, B^-1 row i) / |a_i|.
 * A candidate row whose basic variable is z0 wins every tie on the first
 * component (z0 leaving ends the method at a solution).
 * The candidate list is reused as scratch.
 */
static int lex_min_row(int n, const double* t, int ncol, const double* a, int* cand, int nc,
                       const int* basis) {
  const int rhs = ncol - 1;
  const int z0 = 2 * n;

  // first component: the ratio test itself
  double best = INFINITY;
  for (int c = 0; c < nc; ++c) {
    const int i = cand[c];
    best = fmin(best, t[(size_t)i * ncol + rhs] / fabs(a[i]));
  }
  int kept = 0;
  for (int c = 0; c < nc; ++c) {
    const int i = cand[c];
    const double ratio = t[(size_t)i * ncol + rhs] / fabs(a[i]);
    if (ratio - best <= LEMKE_LEX_TIE * fmax(fabs(best), fabs(ratio))) cand[kept++] = i;
  }
  for (int c = 0; c < kept; ++c)
    if (basis[cand[c]] == z0) return cand[c];

  // ties broken by the columns of B^-1, in order (rows of B^-1 are independent)
  for (int col = 0; col < n && kept > 1; ++col) {
    best = INFINITY;
    for (int c = 0; c < kept; ++c) {
      const int i = cand[c];
      best = fmin(best, t[(size_t)i * ncol + col] / fabs(a[i]));
    }
    int still = 0;
    for (int c = 0; c < kept; ++c) {
      const int i = cand[c];
      const double v = t[(size_t)i * ncol + col] / fabs(a[i]);
      if (v - best <= LEMKE_LEX_TIE * fmax(fabs(best), fabs(v))) cand[still++] = i;
    }
    kept = still;
  }
  return cand[0];
}

/* Gauss-Jordan pivot of the row-major tableau on (r, e). */
static void pivot(int n, double* t, int ncol, int r, int e, double rhs_zero) {
  double* tr = t + (size_t)r * ncol;
  const double inv = 1.0 / tr[e];
  for (int j = 0; j < ncol; ++j) tr[j] *= inv;
  tr[e] = 1.0;
  for (int i = 0; i < n; ++i) {
    if (i == r) continue;
    double* ti = t + (size_t)i * ncol;
    const double f = ti[e];
    if (f == 0.0) continue;
    for (int j = 0; j < ncol; ++j) ti[j] -= f * tr[j];
    ti[e] = 0.0;
  }

  // round-off on a degenerate right-hand side must not break the ratio test
  for (int i = 0; i < n; ++i) {
    double* rhs = t + (size_t)i * ncol + ncol - 1;
    if (fabs(*rhs) <= rhs_zero) *rhs = 0.0;
  }
}

NsdLcpiLemkeOutcome nsd_lcpi_lemke_dense(int n, const double* m, int ld, const double* q,
                                         double* z, double pivot_tolerance, int max_pivots,
                                         double deadline, int* pivots, int* entering,
                                         double* work, int* iwork) {
  const int ncol = 2 * n + 2;
  const int z0 = 2 * n;
  const int rhs = ncol - 1;
  double* t = work;
  int* basis = iwork;
  *pivots = 0;
  *entering = -1;
  memset(z, 0, (size_t)n * sizeof *z);

  // q >= 0: z = 0 solves it
  double qscale = 0.0;
  int all_nonneg = 1;
  for (int i = 0; i < n; ++i) {
    qscale = fmax(qscale, fabs(q[i]));
    if (q[i] < 0.0) all_nonneg = 0;
  }
  if (all_nonneg) return NSD_LCPI_LEMKE_SOLVED;
  const double rhs_zero = LEMKE_RHS_ZERO * qscale;

  // 1. tableau [I | -M | -d | q] with the basis w
  memset(t, 0, (size_t)n * ncol * sizeof *t);
  for (int i = 0; i < n; ++i) {
    double* ti = t + (size_t)i * ncol;
    ti[i] = 1.0;
    for (int j = 0; j < n; ++j) ti[n + j] = -m[i + (size_t)j * (size_t)ld];
    ti[z0] = -1.0;
    ti[rhs] = q[i];
    basis[i] = i;
  }

  // the entering column follows the tableau, the candidate rows follow the basis
  double* a = work + (size_t)n * ncol;
  int* cand = iwork + n;

  // 2. z0 enters; the lexicographically most negative row leaves (all rows qualify)
  int e = z0;
  for (int i = 0; i < n; ++i) {
    a[i] = t[(size_t)i * ncol + e];
    cand[i] = i;
  }
  int r = lex_min_row(n, t, ncol, a, cand, n, basis);

  // 3. complementary pivots until z0 leaves
  NsdLcpiLemkeOutcome outcome = NSD_LCPI_LEMKE_SOLVED;
  for (;;) {
    const int leaving = basis[r];
    pivot(n, t, ncol, r, e, rhs_zero);
    basis[r] = e;
    ++*pivots;
    if (leaving == z0) break;

    // the complement of the variable that left enters
    e = leaving < n ? leaving + n : leaving - n;
    if (*pivots >= max_pivots) {
      outcome = NSD_LCPI_LEMKE_MAX_PIVOTS;
      *entering = e;
      break;
    }
    if (deadline > 0.0 && nsd_wall_time() > deadline) {
      outcome = NSD_LCPI_LEMKE_TIME_LIMIT;
      *entering = e;
      break;
    }
    int nc = 0;
    for (int i = 0; i < n; ++i) {
      a[i] = t[(size_t)i * ncol + e];
      if (a[i] > pivot_tolerance) cand[nc++] = i;
    }
    if (nc == 0) {
      outcome = NSD_LCPI_LEMKE_RAY;
      *entering = e;
      break;
    }
    r = lex_min_row(n, t, ncol, a, cand, nc, basis);
  }

  // 4. read z from the basic rows
  for (int i = 0; i < n; ++i)
    if (basis[i] >= n && basis[i] < 2 * n)
      z[basis[i] - n] = fmax(0.0, t[(size_t)i * ncol + rhs]);
  return outcome;
}

/* "w3", "z1" or "z0" for messages (variables numbered from 0 like the unknowns). */
static void variable_name(int n, int v, char* out, size_t size) {
  if (v == 2 * n)
    snprintf(out, size, "z0 (artificial)");
  else if (v >= n)
    snprintf(out, size, "z[%d]", v - n);
  else
    snprintf(out, size, "w[%d]", v);
}

/* Steps after the checks, on allocated workspace (see nsd_lcp_lemke). */
static NsdStatus lemke_run(const NsdLcp* problem, double* z, double* w,
                           const NsdSolverOptions* opt, NsdReport* report, double* md,
                           double* work, int* iwork, unsigned char* mask) {
  const int n = problem->n;

  // the pivoting itself, at most max(max_iterations, 10 n + 100) pivots
  const int max_pivots = nsd_lcpi_lemke_pivot_cap(n, opt->max_iterations);
  const double deadline = opt->time_limit > 0.0 ? report->start_time + opt->time_limit : 0.0;
  int pivots = 0, entering = -1;
  const NsdLcpiLemkeOutcome outcome =
      nsd_lcpi_lemke_dense(n, md, n, problem->q, z, opt->lemke.pivot_tolerance, max_pivots,
                           deadline, &pivots, &entering, work, iwork);
  report->iterations = pivots;

  // a complementary basis was found: re-solve it to full accuracy
  if (outcome == NSD_LCPI_LEMKE_SOLVED) {
    const double qnorm = nsd_lcpi_norm(n, problem->q);
    nsd_lcpi_polish(n, md, problem->q, qnorm, z, w, work, iwork, mask);
  }
  report->residual = nsd_lcp_error(problem, z, w);

  // the outcome, with the reason when it is not a solution
  char name[32];
  switch (outcome) {
    case NSD_LCPI_LEMKE_SOLVED:
      if (!(report->residual <= opt->tolerance))
        return nsd_report_fail(report, NSD_FAILED,
                               "complementary basis after %d pivots has error %.3e > "
                               "tolerance %.3e (ill-conditioned basis)",
                               pivots, report->residual, opt->tolerance);
      return nsd_report_finish(report, opt->tolerance);
    case NSD_LCPI_LEMKE_RAY:
      variable_name(n, entering, name, sizeof name);
      return nsd_report_fail(report, NSD_FAILED,
                             "ray termination after %d pivots: entering %s has no blocking "
                             "row (no solution, or M not copositive-plus)",
                             pivots, name);
    case NSD_LCPI_LEMKE_MAX_PIVOTS:
      return nsd_report_fail(report, NSD_MAX_ITERATIONS,
                             "pivot cap %d reached before z0 left the basis", max_pivots);
    case NSD_LCPI_LEMKE_TIME_LIMIT:
      break;
  }
  return nsd_report_fail(report, NSD_MAX_ITERATIONS, "time limit %g s reached after %d pivots",
                         opt->time_limit, pivots);
}

NsdStatus nsd_lcp_lemke(const NsdLcp* problem, double* z, double* w,
                        const NsdSolverOptions* options, NsdReport* report) {
  NsdReport own;
  if (!report) report = nsd_lcpi_own_report(&own);
  NsdSolverOptions opt;
  NsdStatus status = nsd_lcpi_begin("lemke", problem, z, w, options, &opt, report);
  if (status != NSD_OK) return status;
  if (!(opt.lemke.pivot_tolerance >= 0.0) || !isfinite(opt.lemke.pivot_tolerance))
    return nsd_report_fail(report, NSD_BAD_INPUT, "lemke.pivot_tolerance=%g, expected finite >= 0",
                           opt.lemke.pivot_tolerance);
  const int n = problem->n;

  // a warm start that already solves the LCP is returned as it is
  if (opt.warm_start) {
    report->residual = nsd_lcp_error(problem, z, w);
    if (report->residual <= opt.tolerance) return nsd_report_finish(report, opt.tolerance);
    memset(z, 0, (size_t)n * sizeof *z);
  }

  // workspace: dense M, tableau (reused for polishing), basis and candidates
  const size_t nn = (size_t)n;
  size_t nwork = nsd_lcpi_lemke_work(n);
  if (nwork < nsd_lcpi_basis_work(n) + 2 * nn) nwork = nsd_lcpi_basis_work(n) + 2 * nn;
  double* md = nsd_lcpi_dense_copy(problem->M);
  double* work = malloc(nwork * sizeof *work);
  int* iwork = malloc(2 * nn * sizeof *iwork);
  unsigned char* mask = malloc(nn);
  if (md && work && iwork && mask)
    status = lemke_run(problem, z, w, &opt, report, md, work, iwork, mask);
  else
    status = nsd_report_fail(report, NSD_FAILED, "out of memory (Lemke tableau, n=%d)", n);
  free(md);
  free(work);
  free(iwork);
  free(mask);
  return status;
}
