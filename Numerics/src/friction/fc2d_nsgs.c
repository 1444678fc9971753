/*
 * Nonsmooth Gauss-Seidel for 2D frictional contact (Jean & Moreau). Each sweep
 * visits the contacts; contact a's local problem u_a = W_aa r_a + q_a,loc,
 * q_a,loc = u_a - W_aa r_a (u kept current), is solved exactly by enumerating
 * its regimes (take-off, stick, slide forwards, slide backwards; fc_local.c),
 * then relaxed with omega = options->relaxation. The Siconos FC2D error of the
 * iterate is computed after every sweep.
 */
#include "friction/fc_gs_internal.h"
#include "friction/fc_local.h"

/* The exact 2x2 local solve of contact a. */
static void nsgs2_rule(const void* context, int a, const double* W, double mu, const double* ra,
                       const double* ua, double* rnew) {
  (void)context;
  (void)a;
  const double qloc[2] = {ua[0] - (W[0] * ra[0] + W[2] * ra[1]),
                          ua[1] - (W[1] * ra[0] + W[3] * ra[1])};
  nsd_fcl_solve2(W, qloc, mu, rnew);
}

NsdStatus nsd_fc2d_nsgs(const NsdFc* problem, double* r, double* u, const NsdSolverOptions* options,
                        NsdReport* report) {
  NsdReport own;
  NsdSolverOptions opt;
  NsdStatus status = nsd_fcgs_begin("nsgs", 2, problem, r, u, options, &opt, &report, &own);
  if (status != NSD_OK) return status;

  // the block operator; every diagonal block needs W_nn > 0
  NsdFcgsOperator op;
  status = nsd_fcgs_operator_checked(&op, problem, "fc2d nsgs", report);
  if (status != NSD_OK) return status;

  // sweeps, then the error of the returned r
  status = nsd_fcgs_iterate(&op, problem, r, u, &opt, report, nsgs2_rule, NULL);
  nsd_fcgs_operator_free(&op);
  report->residual = nsd_fc_error(problem, r, u);
  return nsd_fcgs_end(status, report, opt.tolerance);
}
