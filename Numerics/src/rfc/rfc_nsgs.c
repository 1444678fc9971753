/* Nonsmooth Gauss-Seidel for rolling friction contact (nsd_rfc_nsgs): M as
 * contact-aligned blocks (block CSR of dim x dim blocks, converted when M is
 * stored otherwise); contact a's local q is q_a + sum_{b != a} M_ab r_b, read
 * along block row a, and its local problem is solved by nsd_rfc_solve_one. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "friction/fc_gs_internal.h"
#include "rfc/rfc_internal.h"

/* 1 when M is block CSR with dim x dim blocks on every contact. */
static int contact_aligned(const NsdMatrix* M, int dim, int nc) {
  if (M->storage != NSD_SPARSE_BLOCK || !M->sbm) return 0;
  const NsdSparseBlock* s = M->sbm;
  if (s->n_block_rows != nc || s->n_block_cols != nc) return 0;
  for (int a = 0; a < nc; ++a)
    if (s->row_end[a] != dim * (a + 1) || s->col_end[a] != dim * (a + 1)) return 0;
  return 1;
}

NsdStatus nsd_rfc_nsgs(const NsdRfc* p, double* r, double* u, const NsdSolverOptions* options,
                       NsdReport* report) {
  NsdReport own;
  if (!report) {
    memset(&own, 0, sizeof own);
    report = &own;
  }
  NsdSolverOptions opt;
  NsdStatus status = nsd_rfc_begin("nsgs", p, r, u, options, &opt, report);
  if (status != NSD_OK) return status;
  const int d = p->dim, nc = p->nc, m = d * nc;
  if (nc == 0) {
    report->residual = 0.0;
    return nsd_report_finish(report, opt.tolerance);
  }

  // contact-aligned blocks and the diagonal block of each contact
  NsdMatrix* owned = NULL;
  const NsdMatrix* B = p->M;
  if (!contact_aligned(B, d, nc)) {
    owned = nsd_matrix_convert(p->M, NSD_SPARSE_BLOCK, d);
    if (!owned) return nsd_report_fail(report, NSD_FAILED, "rfc nsgs: out of memory (M blocks)");
    B = owned;
  }
  const NsdSparseBlock* s = B->sbm;
  int* diag = malloc((size_t)nc * sizeof *diag);
  int* order = malloc((size_t)nc * sizeof *order);
  if (!diag || !order) {
    free(diag);
    free(order);
    nsd_matrix_destroy(owned);
    return nsd_report_fail(report, NSD_FAILED, "rfc nsgs: out of memory, nc=%d", nc);
  }
  static const double zero_block[NSD_RFC_MAX_DIM * NSD_RFC_MAX_DIM] = {0};
  for (int a = 0; a < nc; ++a) {
    diag[a] = -1;
    for (int k = s->row_ptr[a]; k < s->row_ptr[a + 1]; ++k)
      if (s->col_index[k] == a) diag[a] = k;
    const double* W = diag[a] >= 0 ? s->values + s->value_start[diag[a]] : zero_block;
    if (!(W[0] > 0.0)) {
      status = nsd_report_fail(report, NSD_BAD_INPUT,
                               "rfc nsgs: contact %d has W_NN = %g, expected > 0 (the normal "
                               "entry of its diagonal block)",
                               a, W[0]);
      goto done;
    }
    order[a] = a;
  }

  NsdFcgsRng rng;
  nsd_fcgs_rng_seed(&rng, opt.nsgs.seed);
  const double omega = opt.relaxation;
  for (int sweep = 0; sweep < opt.max_iterations; ++sweep) {
    if (opt.nsgs.shuffle) nsd_fcgs_shuffle(&rng, order, nc);
    for (int t = 0; t < nc; ++t) {
      const int a = order[t];
      double qa[NSD_RFC_MAX_DIM] = {0}, ra[NSD_RFC_MAX_DIM] = {0};
      double* rcur = r + (size_t)d * a;
      memcpy(qa, p->q + (size_t)d * a, (size_t)d * sizeof *qa);
      for (int k = s->row_ptr[a]; k < s->row_ptr[a + 1]; ++k) {
        const int b = s->col_index[k];
        if (b == a) continue;
        const double* Mab = s->values + s->value_start[k];
        const double* rb = r + (size_t)d * b;
        for (int j = 0; j < d; ++j)
          for (int i = 0; i < d; ++i) qa[i] += Mab[i + d * j] * rb[j];
      }
      memcpy(ra, rcur, (size_t)d * sizeof *ra);
      nsd_rfc_solve_one(d, s->values + s->value_start[diag[a]], qa, p->mu[a], p->mu_r[a], ra);
      for (int i = 0; i < d; ++i) rcur[i] = omega * ra[i] + (1.0 - omega) * rcur[i];
    }
    report->iterations = sweep + 1;
    memcpy(u, p->q, (size_t)m * sizeof *u);
    nsd_matrix_gemv(1.0, p->M, r, 1.0, u);
    report->residual = nsd_rfc_error_from(p, r, u);
    nsd_report_record(report, report->residual);
    if (report->residual <= opt.tolerance) break;
    if (!isfinite(report->residual)) {
      status = nsd_report_fail(report, NSD_FAILED,
                               "rfc nsgs: the iterate is not finite at sweep %d", sweep + 1);
      goto done;
    }
    if (nsd_time_up(report, opt.time_limit)) {
      nsd_report_fail(report, NSD_MAX_ITERATIONS, "rfc nsgs: time limit %g s reached",
                      opt.time_limit);
      break;
    }
  }
  // the answer's own measure
  report->residual = nsd_rfc_error(p, r, u);
  status = nsd_report_finish(report, opt.tolerance);
done:
  free(diag);
  free(order);
  nsd_matrix_destroy(owned);
  return status;
}
