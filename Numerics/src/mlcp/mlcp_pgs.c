/* Projected Gauss-Seidel (with relaxation) for the box-constrained MLCP. */
#include <math.h>
#include <stdlib.h>

#include "mlcp_internal.h"

NsdStatus nsd_mlcp_pgs(const NsdMlcp* problem, double* z, double* w,
                       const NsdSolverOptions* options, NsdReport* report) {
  NsdReport local = {0};
  if (!report) report = &local;
  NsdSolverOptions opt;
  // reject bad input before allocating
  if (nsd_solver_begin("mlcp_pgs", options, &opt, report) != NSD_OK) return NSD_BAD_INPUT;
  if (!mlcp_begin(problem, z, w, &opt, report)) return report->status;
  const double omega = opt.relaxation;

  const int n = problem->size;
  double* diag = malloc((size_t)(n ? n : 1) * sizeof *diag);
  if (!diag) return nsd_report_fail(report, NSD_FAILED, "out of memory, n=%d", n);
  nsd_matrix_diagonal(problem->M, diag);

  // each pivot must be usable: nonzero on a free row, positive on a bounded one
  for (int i = 0; i < n; ++i) {
    MlcpRowKind kind = mlcp_row_kind(problem, i);
    if (kind == MLCP_ROW_FIXED) continue;
    if (kind == MLCP_ROW_FREE && diag[i] == 0) {
      free(diag);
      return nsd_report_fail(report, NSD_BAD_INPUT,
                             "M[%d][%d]=0 on free row %d; PGS needs a nonzero diagonal", i, i, i);
    }
    if (kind != MLCP_ROW_FREE && !(diag[i] > 0)) {
      double mii = diag[i];
      free(diag);
      return nsd_report_fail(report, NSD_BAD_INPUT,
                             "M[%d][%d]=%g on bounded row %d; PGS needs a positive diagonal", i, i,
                             mii, i);
    }
  }

  // sweep z_i <- mid(lb_i, z_i - omega w_i / M_ii, ub_i) until the error is small
  const int check_every = opt.pgs.check_every > 0 ? opt.pgs.check_every : 1;
  double error = nsd_mlcp_error(problem, z, w);
  for (int sweep = 1; sweep <= opt.max_iterations && error > opt.tolerance; ++sweep) {
    for (int i = 0; i < n; ++i) {
      if (mlcp_row_kind(problem, i) == MLCP_ROW_FIXED) continue;
      double wi = nsd_matrix_row_dot(problem->M, i, z) + problem->q[i];
      z[i] = mlcp_mid(problem->lb[i], z[i] - omega * wi / diag[i], problem->ub[i]);
    }
    report->iterations = sweep;

    /* full error every check_every sweeps, and at the last one */
    if (sweep % check_every == 0 || sweep == opt.max_iterations) {
      error = nsd_mlcp_error(problem, z, w);
      nsd_report_record(report, error);
      if (!isfinite(error)) {
        nsd_report_fail(report, NSD_FAILED, "diverged: error %g at sweep %d", error, sweep);
        break;
      }
    }
    if (error > opt.tolerance && nsd_time_up(report, opt.time_limit)) {
      nsd_report_fail(report, NSD_MAX_ITERATIONS, "time limit %g s reached after %d sweeps",
                      opt.time_limit, sweep);
      break;
    }
  }

  free(diag);
  return mlcp_finish(problem, z, w, &opt, report);
}
