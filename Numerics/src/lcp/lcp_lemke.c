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
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcp/lcp_internal.h"

/* Ties of the lexicographic rule (see lex_min_row): relative and absolute round-off. The
 * tableau is reinverted regularly (below), so its values carry little accumulated error;
 * on degenerate 40x40 game matrices (Tests/Numerics/lcp/LcpLemkeDegenerateTest.cpp) the
 * method terminates for absolute parts from 1e-11 to 1e-9 and cycles outside. */
#define LEMKE_LEX_TIE 1e-9
#define LEMKE_LEX_ABS 1e-10
/* Right-hand sides below this times ||q||_inf are set to exactly 0 (degenerate). */
#define LEMKE_RHS_ZERO 1e-14
/* Reinversion: every this many pivots the tableau is recomputed from the original data
 * (B^-1 [I | -M | -d | q] by an LU of the basis matrix B), so that round-off does not
 * accumulate over hundreds of pivots and the lexicographic rule compares clean values.
 * Done up to this size (a reinversion costs O(n^3), about n pivots' worth). */
#define LEMKE_REINVERT_EVERY 16
#define LEMKE_REINVERT_MAX_N 1000
/* Pivot cap of a pivoting method: at least this many pivots per unknown, plus a margin. */
#define LEMKE_PIVOTS_PER_UNKNOWN 10
#define LEMKE_PIVOTS_MARGIN 100

size_t nsd_lcpi_lemke_work(int n) {
  return (size_t)n * (2 * (size_t)n + 4);
}

int nsd_lcpi_lemke_pivot_cap(int n, int max_iterations) {
  const int floor_pivots = LEMKE_PIVOTS_PER_UNKNOWN * n + LEMKE_PIVOTS_MARGIN;
  return max_iterations > floor_pivots ? max_iterations : floor_pivots;
}

/*
 * Lexicographic minimum ratio row among the candidate rows (cand[0..nc-1]), each with
 * divisor a_i > 0: the lex-min of (rhs_i, row i of B^-1) / a_i (Cottle, Pang, Stone 4.9),
 * which keeps every row lexicographically positive, so no basis repeats.
 * Two values v_i, v_b of a component tie when they differ by less than their round-off:
 * LEMKE_LEX_TIE relative, plus an absolute part for values that should be 0 (the
 * right-hand side's LEMKE_LEX_ABS * ||q||_inf, or that of the row's largest B^-1 entry,
 * divided by a_i). A candidate whose basic variable is z0 wins a tie on the ratio (z0
 * leaving ends the method at a solution). The candidate list is reused as scratch.
 */
static int lex_min_row(int n, const double* t, int ncol, const double* a, int* cand, int nc,
                       const int* basis, double qscale, double* noise) {
  const int rhs = ncol - 1;
  const int z0 = 2 * n;
  int kept = nc;

  for (int k = 0; k <= n && kept > 1; ++k) {
    const int col = k == 0 ? rhs : k - 1;
    // absolute round-off of each candidate's value in this component
    for (int c = 0; c < kept; ++c) {
      const int i = cand[c];
      const double* ti = t + (size_t)i * ncol;
      double size = qscale;
      if (k == 1) {
        size = 0.0;
        for (int j = 0; j < n; ++j) size = fmax(size, fabs(ti[j]));
      }
      if (k <= 1) noise[i] = LEMKE_LEX_ABS * size / fabs(a[i]);
    }
    int b = cand[0];
    double best = t[(size_t)b * ncol + col] / fabs(a[b]);
    for (int c = 1; c < kept; ++c) {
      const int i = cand[c];
      const double v = t[(size_t)i * ncol + col] / fabs(a[i]);
      if (v < best) {
        best = v;
        b = i;
      }
    }
    int still = 0;
    for (int c = 0; c < kept; ++c) {
      const int i = cand[c];
      const double v = t[(size_t)i * ncol + col] / fabs(a[i]);
      if (v - best <= LEMKE_LEX_TIE * fmax(fabs(v), fabs(best)) + noise[i] + noise[b])
        cand[still++] = i;
    }
    kept = still;
    if (k == 0)
      for (int c = 0; c < kept; ++c)
        if (basis[cand[c]] == z0) return cand[c];
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

/* Scratch of a reinversion (allocated on first use, NULL if that failed: then none). */
typedef struct {
  double* b;        /* basis matrix, column-major n x n, then its LU */
  double* x;        /* B^-1 [I | -M | -d | q], column-major n x ncol */
  lapack_int* ipiv; /* n */
} LemkeReinvert;

/* Recomputes the tableau B^-1 [I | -M | -d | q] of the current basis from M and q.
 * Returns 0, or -1 (tableau untouched) if B is singular to working precision or the
 * scratch cannot be allocated. */
static int reinvert(int n, const double* m, int ld, const double* q, double* t, int ncol,
                    const int* basis, double rhs_zero, LemkeReinvert* w) {
  const size_t nn = (size_t)n;
  if (!w->b) {
    w->b = malloc(nn * nn * sizeof *w->b);
    w->x = malloc(nn * (size_t)ncol * sizeof *w->x);
    w->ipiv = malloc(nn * sizeof *w->ipiv);
    if (!w->b || !w->x || !w->ipiv) {
      free(w->b);
      free(w->x);
      free(w->ipiv);
      w->b = w->x = NULL;
      w->ipiv = NULL;
      return -1;
    }
  }
  // column j of the original system [I | -M | -d | q]
  for (int j = 0; j < ncol; ++j) {
    double* xj = w->x + (size_t)j * nn;
    if (j < n) {
      memset(xj, 0, nn * sizeof *xj);
      xj[j] = 1.0;
    } else if (j < 2 * n) {
      for (int i = 0; i < n; ++i) xj[i] = -m[i + (size_t)(j - n) * (size_t)ld];
    } else if (j == 2 * n) {
      for (int i = 0; i < n; ++i) xj[i] = -1.0;
    } else {
      memcpy(xj, q, nn * sizeof *xj);
    }
  }
  for (int k = 0; k < n; ++k)
    memcpy(w->b + (size_t)k * nn, w->x + (size_t)basis[k] * nn, nn * sizeof(double));
  if (nsd_dense_lu_factor(w->b, n, w->ipiv, NULL) != 0) return -1;
  if (nsd_dense_lu_solve(w->b, n, w->ipiv, w->x, ncol) != 0) return -1;
  for (int i = 0; i < n; ++i) {
    double* ti = t + (size_t)i * ncol;
    for (int j = 0; j < ncol; ++j) ti[j] = w->x[(size_t)j * nn + (size_t)i];
    if (fabs(ti[ncol - 1]) <= rhs_zero) ti[ncol - 1] = 0.0;
  }
  // basic columns exactly unit vectors
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i) t[(size_t)i * ncol + basis[k]] = i == k ? 1.0 : 0.0;
  return 0;
}

NsdLcpiLemkeOutcome nsd_lcpi_lemke_dense(int n, const double* m, int ld, const double* q, double* z,
                                         double pivot_tolerance, int max_pivots, double deadline,
                                         int* pivots, int* entering, double* work, int* iwork) {
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
  double* noise = a + n;
  int* cand = iwork + n;

  // 2. z0 enters; the lexicographically most negative row leaves (all rows qualify)
  int e = z0;
  for (int i = 0; i < n; ++i) {
    a[i] = t[(size_t)i * ncol + e];
    cand[i] = i;
  }
  int r = lex_min_row(n, t, ncol, a, cand, n, basis, qscale, noise);

  // 3. complementary pivots until z0 leaves
  NsdLcpiLemkeOutcome outcome = NSD_LCPI_LEMKE_SOLVED;
  LemkeReinvert inv = {NULL, NULL, NULL};
  int reinversions = n <= LEMKE_REINVERT_MAX_N;
  for (;;) {
    const int leaving = basis[r];
    pivot(n, t, ncol, r, e, rhs_zero);
    basis[r] = e;
    ++*pivots;
    if (leaving == z0) break;
    if (reinversions && *pivots % LEMKE_REINVERT_EVERY == 0 &&
        reinvert(n, m, ld, q, t, ncol, basis, rhs_zero, &inv) != 0 && !inv.b)
      reinversions = 0;  // no scratch: go on without

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
    // candidate rows: entries of the entering column above the pivot tolerance relative to
    // the column's largest magnitude (an absolute threshold lets round-off on a true zero
    // through, which wins the ratio test on a degenerate row and wrecks the basis)
    double amax = 0.0;
    for (int i = 0; i < n; ++i) {
      a[i] = t[(size_t)i * ncol + e];
      amax = fmax(amax, fabs(a[i]));
    }
    const double threshold = pivot_tolerance * amax;
    int nc = 0;
    for (int i = 0; i < n; ++i)
      if (a[i] > threshold && a[i] > 0.0) cand[nc++] = i;
    if (nc == 0) {
      outcome = NSD_LCPI_LEMKE_RAY;
      *entering = e;
      break;
    }
    r = lex_min_row(n, t, ncol, a, cand, nc, basis, qscale, noise);
  }

  free(inv.b);
  free(inv.x);
  free(inv.ipiv);

  // 4. read z from the basic rows
  for (int i = 0; i < n; ++i)
    if (basis[i] >= n && basis[i] < 2 * n) z[basis[i] - n] = fmax(0.0, t[(size_t)i * ncol + rhs]);
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
static NsdStatus lemke_run(const NsdLcp* problem, double* z, double* w, const NsdSolverOptions* opt,
                           NsdReport* report, double* md, double* work, int* iwork,
                           unsigned char* mask) {
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
