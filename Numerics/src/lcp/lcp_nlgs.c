/*
 * Projected Gauss-Seidel (NLGS) and projected successive over-relaxation
 * (PSOR; C. W. Cryer, "The solution of a quadratic programming problem using
 * systematic overrelaxation", SIAM J. Control 9, 1971; Cottle, Pang, Stone
 * 1992, 5.2). One sweep updates, for i = 1..n in order,
 *     w_i = (M z + q)_i,   z_i <- max(0, z_i - omega w_i / M_ii),
 * using the z_j already updated in the same sweep. It converges for symmetric
 * positive definite M and omega in (0,2), and needs M_ii > 0 in any case.
 */
#include <math.h>
#include <stdlib.h>

#include "lcp/lcp_internal.h"

/* One solver, "pgs"; "nlgs" and "psor" are its other names (the report carries the name used). */
static NsdStatus projected_gauss_seidel(const char* name, const NsdLcp* problem, double* z,
                                        double* w, const NsdSolverOptions* options,
                                        NsdReport* report) {
  NsdReport own;
  if (!report) report = nsd_lcpi_own_report(&own);
  NsdSolverOptions opt;
  NsdStatus status = nsd_lcpi_begin(name, problem, z, w, options, &opt, report);
  if (status != NSD_OK) return status;
  const double omega = opt.relaxation;  // in (0, 2): nsd_lcpi_begin checked it
  if (opt.pgs.check_every < 1)
    return nsd_report_fail(report, NSD_BAD_INPUT, "pgs.check_every=%d, expected >= 1",
                           opt.pgs.check_every);
  const int n = problem->n;

  // the diagonal, which must be positive
  double* diag = malloc((n > 0 ? (size_t)n : 1) * sizeof *diag);
  if (!diag) return nsd_report_fail(report, NSD_FAILED, "out of memory, n=%d", n);
  nsd_matrix_diagonal(problem->M, diag);
  for (int i = 0; i < n; ++i)
    if (!(diag[i] > 0.0)) {
      status = nsd_report_fail(report, NSD_BAD_INPUT, "M[%d][%d]=%g: %s needs a positive diagonal",
                               i, i, diag[i], name);
      free(diag);
      return status;
    }

  // a warm start may already be a solution
  double error = nsd_lcp_error(problem, z, w);
  if (!(error <= opt.tolerance)) {
    // sweeps, with the full error every check_every of them
    for (int sweep = 1; sweep <= opt.max_iterations; ++sweep) {
      for (int i = 0; i < n; ++i) {
        const double wi = nsd_matrix_row_dot(problem->M, i, z) + problem->q[i];
        const double zi = z[i] - omega * wi / diag[i];
        z[i] = zi > 0.0 ? zi : 0.0;
      }
      report->iterations = sweep;

      if (sweep % opt.pgs.check_every == 0 || sweep == opt.max_iterations) {
        error = nsd_lcp_error(problem, z, w);
        nsd_report_record(report, error);
        if (!isfinite(error)) {
          status =
              nsd_report_fail(report, NSD_FAILED, "diverged at sweep %d (error %g)", sweep, error);
          break;
        }
        if (error <= opt.tolerance) break;
      }
      if (nsd_time_up(report, opt.time_limit)) {
        status = nsd_report_fail(report, NSD_MAX_ITERATIONS,
                                 "time limit %g s reached after %d sweeps", opt.time_limit, sweep);
        break;
      }
    }
  }

  // the returned z, its w and its error
  report->residual = nsd_lcp_error(problem, z, w);
  free(diag);
  if (status != NSD_OK) {
    if (report->residual <= opt.tolerance) return nsd_report_finish(report, opt.tolerance);
    return status;
  }
  return nsd_report_finish(report, opt.tolerance);
}

NsdStatus nsd_lcp_pgs(const NsdLcp* problem, double* z, double* w, const NsdSolverOptions* options,
                      NsdReport* report) {
  return projected_gauss_seidel("pgs", problem, z, w, options, report);
}

NsdStatus nsd_lcp_nlgs(const NsdLcp* problem, double* z, double* w, const NsdSolverOptions* options,
                       NsdReport* report) {
  return projected_gauss_seidel("nlgs", problem, z, w, options, report);
}

NsdStatus nsd_lcp_psor(const NsdLcp* problem, double* z, double* w, const NsdSolverOptions* options,
                       NsdReport* report) {
  return projected_gauss_seidel("psor", problem, z, w, options, report);
}
