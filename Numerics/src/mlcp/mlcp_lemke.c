/*
 * Mixed LCP by Schur complement and Lemke. With the free rows F (variables u)
 * and the complementarity rows L (variables v, shifted by their lower bounds),
 *   A u + C v + a = 0,   w_L = D u + B v + b,   0 <= v _|_ w_L >= 0,
 * u = -A^{-1}(C v + a) leaves the LCP in v with matrix B - D A^{-1} C and
 * vector b - D A^{-1} a, solved by nsd_lcp_lemke; u is then recovered.
 * Rows may come in any order: F and L are index lists. Lemke starts from its
 * own basis, so a warm start is not used.
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "mlcp_internal.h"
#include "nsdyn/nsd_lcp.h"

/* Working arrays, freed together. */
typedef struct LemkeWork {
  double* M;      /* dense copy of M */
  double* qs;     /* q + M z0 with z0 the lower bounds of the L rows */
  double* A;      /* A = M_FF, then its LU */
  double* X;      /* [A^{-1} C | A^{-1} a], nf x (nc + 1) */
  double* S;      /* Schur complement B - D A^{-1} C, nc x nc */
  double* s;      /* b - D A^{-1} a */
  double* v;      /* LCP solution */
  double* wv;     /* LCP w */
  double* r;      /* refinement residual */
  int* pivots;    /* LU pivots of A */
  int* free_rows; /* F */
  int* comp_rows; /* L */
} LemkeWork;

static void lemke_work_free(LemkeWork* k) {
  free(k->M);
  free(k->qs);
  free(k->A);
  free(k->X);
  free(k->S);
  free(k->s);
  free(k->v);
  free(k->wv);
  free(k->r);
  free(k->pivots);
  free(k->free_rows);
  free(k->comp_rows);
}

/* Solve the LCP (S, s) with nsd_lcp_lemke into k->v; report->iterations gets its pivots. */
static NsdStatus solve_schur_lcp(LemkeWork* k, int nc, const NsdSolverOptions* opt,
                                 NsdReport* report) {
  NsdMatrix* S = nsd_matrix_create_dense_from(nc, nc, k->S);
  NsdLcp* lcp = S ? nsd_lcp_create(S, k->s) : NULL;
  if (!lcp) /* nsd_lcp_create destroys S when it fails */
    return nsd_report_fail(report, NSD_FAILED, "out of memory building the Schur LCP, n=%d", nc);
  NsdSolverOptions lopt = *opt;
  lopt.warm_start = 0;
  NsdReport lrep = {0};
  NsdStatus st = nsd_lcp_lemke(lcp, k->v, k->wv, &lopt, &lrep);
  nsd_lcp_destroy(lcp);
  report->iterations = lrep.iterations;
  if (st == NSD_FAILED || st == NSD_BAD_INPUT)
    return nsd_report_fail(report, NSD_FAILED, "Lemke on the %dx%d Schur complement: %s", nc, nc,
                           lrep.message);
  if (st == NSD_MAX_ITERATIONS && lrep.residual > opt->tolerance)
    return nsd_report_fail(report, NSD_MAX_ITERATIONS, "Lemke on the %dx%d Schur complement: %s",
                           nc, nc, lrep.message);
  return NSD_OK;
}

NsdStatus nsd_mlcp_lemke(const NsdMlcp* problem, double* z, double* w,
                         const NsdSolverOptions* options, NsdReport* report) {
  NsdReport local = {0};
  if (!report) report = &local;
  NsdSolverOptions opt;
  // reject bad input (general boxes among them) before allocating
  if (nsd_solver_begin("mlcp_lemke", options, &opt, report) != NSD_OK) return NSD_BAD_INPUT;
  if (!mlcp_begin(problem, z, w, &opt, report)) return report->status;
  const int n = problem->size;
  int nf = 0, nc = 0;
  for (int i = 0; i < n; ++i) {
    MlcpRowKind kind = mlcp_row_kind(problem, i);
    if (kind == MLCP_ROW_FREE)
      ++nf;
    else if (kind == MLCP_ROW_LOWER)
      ++nc;
    else
      return nsd_report_fail(report, NSD_BAD_INPUT,
                             "row %d has bounds [%g, %g]; mlcp_lemke takes free rows and "
                             "rows [lb, +inf) only",
                             i, problem->lb[i], problem->ub[i]);
  }

  LemkeWork k;
  memset(&k, 0, sizeof k);
  size_t nn = (size_t)(n ? n : 1), f1 = (size_t)(nf ? nf : 1), c1 = (size_t)(nc ? nc : 1);
  k.M = mlcp_dense_copy(problem->M);
  k.qs = malloc(nn * sizeof *k.qs);
  k.A = malloc(f1 * f1 * sizeof *k.A);
  k.X = malloc(f1 * (c1 + 1) * sizeof *k.X);
  k.S = malloc(c1 * c1 * sizeof *k.S);
  k.s = malloc(c1 * sizeof *k.s);
  k.v = calloc(c1, sizeof *k.v);
  k.wv = calloc(c1, sizeof *k.wv);
  k.r = malloc(f1 * sizeof *k.r);
  k.pivots = malloc(f1 * sizeof *k.pivots);
  k.free_rows = malloc(f1 * sizeof *k.free_rows);
  k.comp_rows = malloc(c1 * sizeof *k.comp_rows);
  if (!k.M || !k.qs || !k.A || !k.X || !k.S || !k.s || !k.v || !k.wv || !k.r || !k.pivots ||
      !k.free_rows || !k.comp_rows) {
    lemke_work_free(&k);
    return nsd_report_fail(report, NSD_FAILED, "out of memory, n=%d", n);
  }
  const double* M = k.M;

  // index lists F and L; shift v = z_L - lb_L, so qs = q + M_{:,L} lb_L
  for (int i = 0, f = 0, c = 0; i < n; ++i) {
    if (mlcp_row_kind(problem, i) == MLCP_ROW_FREE)
      k.free_rows[f++] = i;
    else
      k.comp_rows[c++] = i;
  }
  for (int i = 0; i < n; ++i) {
    double s = problem->q[i];
    for (int c = 0; c < nc; ++c) {
      int j = k.comp_rows[c];
      if (problem->lb[j] != 0.0) s += M[i + (size_t)j * n] * problem->lb[j];
    }
    k.qs[i] = s;
  }

  // factor A = M_FF and form X = [A^{-1} C | A^{-1} a]
  NsdStatus status = NSD_OK;
  for (int c = 0; c < nf; ++c)
    for (int r = 0; r < nf; ++r)
      k.A[r + (size_t)c * nf] = M[k.free_rows[r] + (size_t)k.free_rows[c] * n];
  double rcond = 1.0;
  if (nf > 0 && (nsd_dense_lu_factor(k.A, nf, k.pivots, &rcond) != 0 || !(rcond > DBL_EPSILON))) {
    status = nsd_report_fail(report, NSD_FAILED,
                             "the %dx%d block of the free rows (A) is singular (rcond %.1e); "
                             "mlcp_lemke needs it invertible",
                             nf, nf, rcond);
  }
  if (status == NSD_OK && nf > 0) {
    for (int c = 0; c < nc; ++c)
      for (int r = 0; r < nf; ++r)
        k.X[r + (size_t)c * nf] = M[k.free_rows[r] + (size_t)k.comp_rows[c] * n];
    for (int r = 0; r < nf; ++r) k.X[r + (size_t)nc * nf] = k.qs[k.free_rows[r]];
    if (nsd_dense_lu_solve(k.A, nf, k.pivots, k.X, nc + 1) != 0)
      status = nsd_report_fail(report, NSD_FAILED, "LU solve with the free-row block failed");
  }

  // Schur complement S = B - D X_C and s = b - D X_a; then Lemke on (S, s)
  if (status == NSD_OK && nc > 0) {
    for (int cj = 0; cj <= nc; ++cj) {
      for (int ri = 0; ri < nc; ++ri) {
        int i = k.comp_rows[ri];
        double s = cj < nc ? M[i + (size_t)k.comp_rows[cj] * n] : k.qs[i];
        for (int f = 0; f < nf; ++f)
          s -= M[i + (size_t)k.free_rows[f] * n] * k.X[f + (size_t)cj * nf];
        if (cj < nc)
          k.S[ri + (size_t)cj * nc] = s;
        else
          k.s[ri] = s;
      }
    }
    status = solve_schur_lcp(&k, nc, &opt, report);
  }

  // recover z: z_L = lb + v, u = -(X_C v + X_a), refined once with the LU of A
  // (also after a pivot cap, whose v may still give a small MLCP error)
  if (status == NSD_OK || status == NSD_MAX_ITERATIONS) {
    for (int c = 0; c < nc; ++c) {
      int j = k.comp_rows[c];
      z[j] = problem->lb[j] + (k.v[c] > 0 ? k.v[c] : 0.0);
    }
    for (int f = 0; f < nf; ++f) {
      double s = k.X[f + (size_t)nc * nf];
      for (int c = 0; c < nc; ++c) s += k.X[f + (size_t)c * nf] * k.v[c];
      z[k.free_rows[f]] = -s;
    }
    if (nf > 0) {
      for (int f = 0; f < nf; ++f) {
        int i = k.free_rows[f];
        double s = problem->q[i];
        for (int j = 0; j < n; ++j) s += M[i + (size_t)j * n] * z[j];
        k.r[f] = s;
      }
      if (nsd_dense_lu_solve(k.A, nf, k.pivots, k.r, 1) == 0)
        for (int f = 0; f < nf; ++f) z[k.free_rows[f]] -= k.r[f];
    }
  }

  lemke_work_free(&k);
  return mlcp_finish(problem, z, w, &opt, report);
}
