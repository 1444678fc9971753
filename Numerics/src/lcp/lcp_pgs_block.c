/*
 * Block projected Gauss-Seidel (block NLGS; Cottle, Pang, Stone 1992, 5.2 for
 * the point method, of which this is the block-splitting form). Rows are
 * grouped in blocks I: the diagonal blocks of a sparse-block M, else
 * options->pgs.block_size consecutive rows (the last block may be smaller).
 * One sweep solves, for each block in order, the small LCP
 *     0 <= z_I _|_ M_II z_I + (q_I + sum_{J != I} M_IJ z_J) >= 0
 * exactly, with the other blocks at their latest values, then relaxes:
 * z_I <- max(0, omega z_I^new + (1 - omega) z_I^old).
 * Small blocks are solved by enumeration of their bases (the previous active
 * set first), larger ones by Lemke's method.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lcp/lcp_internal.h"

/* Blocks up to this size are solved by enumeration (2^size bases at worst). */
#define BLOCK_ENUM_MAX 10
/* Feasibility slack of a block basis, relative to max(||q_I||_inf, M scale * ||z_I||_inf). */
#define BLOCK_FEASIBILITY_TOL 1e-12
/* Pivot tolerance of Lemke on a block. */
#define BLOCK_LEMKE_PIVOT_TOL                                        \
  1e-10 /* relative to the entering column, as lemke.pivot_tolerance \
         */

/* One diagonal block: its rows [start, start + size) and its matrix. */
typedef struct Block {
  int start, size;
  double* m; /* size x size, column-major */
} Block;

/* Blocks and scratch of one solve. */
typedef struct Workspace {
  Block* blocks;
  int nblocks;
  double* mstore;         /* all block matrices */
  double *work, *ql, *zl; /* block solver scratch, local q and z */
  int* iwork;
  unsigned char* flags;
} Workspace;

/*
 * Solve the block LCP (m, ql) of size b exactly into zl; zl holds the previous
 * values on entry (their support is tried first). Returns 0, or 1 when no
 * solution was found.
 */
static int solve_block(int b, const double* m, const double* ql, double* zl, double* work,
                       int* iwork, unsigned char* flags) {
  // q_I >= 0: z_I = 0
  double qinf = 0.0, zinf = 0.0, minf = 0.0;
  int all_nonneg = 1;
  for (int i = 0; i < b; ++i) {
    qinf = fmax(qinf, fabs(ql[i]));
    zinf = fmax(zinf, fabs(zl[i]));
    if (ql[i] < 0.0) all_nonneg = 0;
  }
  if (all_nonneg) {
    memset(zl, 0, (size_t)b * sizeof *zl);
    return 0;
  }
  for (int k = 0; k < b * b; ++k) minf = fmax(minf, fabs(m[k]));
  const double feas_tol = BLOCK_FEASIBILITY_TOL * fmax(qinf, minf * zinf);

  // enumeration: the previous support first, then every mask
  if (b <= BLOCK_ENUM_MAX) {
    uint64_t guess = 0;
    for (int i = 0; i < b; ++i)
      if (zl[i] > 0.0) guess |= (uint64_t)1 << i;
    if (nsd_lcpi_enum_try(b, m, b, ql, guess, feas_tol, zl, work, iwork, flags)) return 0;
    const uint64_t count = (uint64_t)1 << b;
    for (uint64_t mask = 0; mask < count; ++mask)
      if (mask != guess && nsd_lcpi_enum_try(b, m, b, ql, mask, feas_tol, zl, work, iwork, flags))
        return 0;
  }

  // Lemke: exact on a complementary basis, or ray termination
  int pivots = 0, entering = -1;
  return nsd_lcpi_lemke_dense(b, m, b, ql, zl, BLOCK_LEMKE_PIVOT_TOL,
                              nsd_lcpi_lemke_pivot_cap(b, 0), 0.0, &pivots, &entering, work,
                              iwork) != NSD_LCPI_LEMKE_SOLVED;
}

/* The sweeps, on allocated workspace (see nsd_lcp_pgs_block). */
static NsdStatus sweeps(const NsdLcp* problem, double* z, double* w, const NsdSolverOptions* opt,
                        NsdReport* report, const Workspace* ws) {
  const NsdMatrix* M = problem->M;
  const double omega = opt->relaxation;

  // a warm start may already be a solution
  double error = nsd_lcp_error(problem, z, w);
  for (int sweep = 1; sweep <= opt->max_iterations && !(error <= opt->tolerance); ++sweep) {
    report->iterations = sweep;
    for (int I = 0; I < ws->nblocks; ++I) {
      const Block* blk = &ws->blocks[I];
      const int b = blk->size;
      double* zI = z + blk->start;

      // local q: (M z + q)_I - M_II z_I, with the other blocks at their latest values
      for (int i = 0; i < b; ++i) {
        const int row = blk->start + i;
        double s = nsd_matrix_row_dot(M, row, z) + problem->q[row];
        for (int j = 0; j < b; ++j) s -= blk->m[i + (size_t)j * (size_t)b] * zI[j];
        ws->ql[i] = s;
        ws->zl[i] = zI[i];
      }

      // the block's LCP, exactly; then the relaxation
      if (solve_block(b, blk->m, ws->ql, ws->zl, ws->work, ws->iwork, ws->flags)) {
        report->residual = nsd_lcp_error(problem, z, w);
        return nsd_report_fail(report, NSD_FAILED,
                               "block %d (rows %d..%d) has no LCP solution found at sweep %d", I,
                               blk->start, blk->start + b - 1, sweep);
      }
      for (int i = 0; i < b; ++i) {
        const double v = omega * ws->zl[i] + (1.0 - omega) * zI[i];
        zI[i] = v > 0.0 ? v : 0.0;
      }
    }

    // the full error every check_every sweeps
    if (sweep % opt->pgs.check_every == 0 || sweep == opt->max_iterations) {
      error = nsd_lcp_error(problem, z, w);
      nsd_report_record(report, error);
      if (!isfinite(error)) {
        report->residual = error;
        return nsd_report_fail(report, NSD_FAILED, "diverged at sweep %d (error %g)", sweep, error);
      }
    }
    if (!(error <= opt->tolerance) && nsd_time_up(report, opt->time_limit)) {
      report->residual = nsd_lcp_error(problem, z, w);
      return nsd_report_fail(report, NSD_MAX_ITERATIONS, "time limit %g s reached after %d sweeps",
                             opt->time_limit, sweep);
    }
  }

  // the returned z, its w and its error
  report->residual = nsd_lcp_error(problem, z, w);
  return nsd_report_finish(report, opt->tolerance);
}

NsdStatus nsd_lcp_pgs_block(const NsdLcp* problem, double* z, double* w,
                            const NsdSolverOptions* options, NsdReport* report) {
  NsdReport own;
  if (!report) report = nsd_lcpi_own_report(&own);
  NsdSolverOptions opt;
  NsdStatus status = nsd_lcpi_begin("pgs_block", problem, z, w, options, &opt, report);
  if (status != NSD_OK) return status;
  if (opt.pgs.check_every < 1)
    return nsd_report_fail(report, NSD_BAD_INPUT, "pgs.check_every=%d, expected >= 1",
                           opt.pgs.check_every);
  const int n = problem->n;
  const NsdMatrix* M = problem->M;

  // the block structure: the diagonal blocks of a sparse-block M, else fixed size
  const NsdSparseBlock* sbm = M->storage == NSD_SPARSE_BLOCK ? M->sbm : NULL;
  int use_sbm = sbm != NULL && sbm->n_block_rows == sbm->n_block_cols;
  for (int I = 0; use_sbm && I < sbm->n_block_rows; ++I)
    if (sbm->row_end[I] != sbm->col_end[I]) use_sbm = 0;
  if (!use_sbm && opt.pgs.block_size < 1)
    return nsd_report_fail(report, NSD_BAD_INPUT, "pgs.block_size=%d, expected >= 1",
                           opt.pgs.block_size);
  const int size = opt.pgs.block_size;
  Workspace ws = {0};
  ws.nblocks = use_sbm ? sbm->n_block_rows : n / size + (n % size != 0);
  ws.blocks = calloc((size_t)ws.nblocks, sizeof *ws.blocks);
  if (!ws.blocks) return nsd_report_fail(report, NSD_FAILED, "out of memory, n=%d", n);

  // block rows, and the largest block for the scratch sizes
  size_t total = 0;
  int bmax = 0;
  for (int I = 0; I < ws.nblocks; ++I) {
    const int start = use_sbm ? (I == 0 ? 0 : sbm->row_end[I - 1]) : I * size;
    const int end = use_sbm ? sbm->row_end[I] : (n - start > size ? start + size : n);
    ws.blocks[I].start = start;
    ws.blocks[I].size = end - start;
    total += (size_t)ws.blocks[I].size * (size_t)ws.blocks[I].size;
    if (ws.blocks[I].size > bmax) bmax = ws.blocks[I].size;
  }
  const size_t bb = (size_t)bmax;
  size_t nwork = nsd_lcpi_lemke_work(bmax);
  if (nwork < nsd_lcpi_basis_work(bmax)) nwork = nsd_lcpi_basis_work(bmax);
  ws.mstore = malloc(total * sizeof *ws.mstore);
  ws.work = malloc(nwork * sizeof *ws.work);
  ws.ql = malloc(bb * sizeof *ws.ql);
  ws.zl = malloc(bb * sizeof *ws.zl);
  ws.iwork = malloc(2 * bb * sizeof *ws.iwork);
  ws.flags = malloc(bb);

  // the diagonal blocks, copied once
  if (ws.mstore && ws.work && ws.ql && ws.zl && ws.iwork && ws.flags) {
    total = 0;
    for (int I = 0; I < ws.nblocks; ++I) {
      ws.blocks[I].m = ws.mstore + total;
      nsd_matrix_diagonal_block(M, ws.blocks[I].start, ws.blocks[I].size, ws.blocks[I].m);
      total += (size_t)ws.blocks[I].size * (size_t)ws.blocks[I].size;
    }
    status = sweeps(problem, z, w, &opt, report, &ws);
  } else {
    status = nsd_report_fail(report, NSD_FAILED, "out of memory, n=%d", n);
  }
  free(ws.blocks);
  free(ws.mstore);
  free(ws.work);
  free(ws.ql);
  free(ws.zl);
  free(ws.iwork);
  free(ws.flags);
  return status;
}
