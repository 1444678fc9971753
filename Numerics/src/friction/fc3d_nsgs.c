/*
 * Nonsmooth Gauss-Seidel for 3D frictional contact (M. Jean, J. J. Moreau,
 * "Unilaterality and dry friction in the dynamics of rigid body collections",
 * 1992; M. Jean, "The non-smooth contact dynamics method", CMAME 177, 1999).
 * Each sweep visits the contacts (in order or shuffled); for contact a,
 *   1. its local problem is u_a = W_aa r_a + q_a,loc with
 *      q_a,loc = q_a + sum_{b != a} W_ab r_b = u_a - W_aa r_a (u is kept current);
 *   2. the one-contact problem is solved (fc_local.c: closed forms, then the
 *      local solver of options->nsgs for a sliding contact);
 *   3. the answer is relaxed, r_a <- omega r_a,new + (1 - omega) r_a.
 * The Siconos FC3D error of the iterate is computed after every sweep.
 */
#include <string.h>

#include "friction/fc_gs_internal.h"
#include "friction/fc_local.h"

/* Step 1-2 for one contact. */
static void nsgs_rule(const void* context, int a, const double* W, double mu, const double* ra,
                      const double* ua, double* rnew) {
  (void)a;
  const NsdFcLocalParams* params = context;
  // q_loc = u_a - W_aa r_a
  double qloc[3];
  for (int i = 0; i < 3; ++i) qloc[i] = ua[i] - (W[i] * ra[0] + W[i + 3] * ra[1] + W[i + 6] * ra[2]);
  memcpy(rnew, ra, 3 * sizeof *rnew);
  nsd_fcl_solve3(params, W, qloc, mu, rnew);
}

NsdStatus nsd_fc3d_nsgs(const NsdFc* problem, double* r, double* u,
                        const NsdSolverOptions* options, NsdReport* report) {
  NsdReport own;
  if (!report) {
    memset(&own, 0, sizeof own);
    report = &own;
  }
  NsdSolverOptions opt;
  NsdStatus status = nsd_fcgs_begin("nsgs", 3, problem, r, u, options, &opt, report);
  if (status != NSD_OK) return status;

  // the local solver's settings
  const NsdFcLocalSolver local = opt.nsgs.local_solver;
  if (local != NSD_FC_LOCAL_PROJECTION && local != NSD_FC_LOCAL_AC_NEWTON &&
      local != NSD_FC_LOCAL_FB_NEWTON)
    return nsd_report_fail(report, NSD_BAD_INPUT, "nsgs.local_solver=%d, unknown", (int)local);
  if (!(opt.nsgs.local_tolerance >= 0.0))
    return nsd_report_fail(report, NSD_BAD_INPUT, "nsgs.local_tolerance=%g, expected >= 0",
                           opt.nsgs.local_tolerance);
  if (opt.nsgs.local_max_iterations < 1)
    return nsd_report_fail(report, NSD_BAD_INPUT, "nsgs.local_max_iterations=%d, expected >= 1",
                           opt.nsgs.local_max_iterations);
  const NsdFcLocalParams params = {local, opt.nsgs.local_tolerance,
                                   opt.nsgs.local_max_iterations};

  // the block operator; every diagonal block needs W_nn > 0
  NsdFcgsOperator op;
  status = nsd_fcgs_operator_init(&op, problem, report);
  if (status != NSD_OK) return status;
  if (!nsd_fcgs_check_diagonal(&op, "nsgs", report)) {
    nsd_fcgs_operator_free(&op);
    return report->status;
  }

  // sweeps, then the error of the returned r
  status = nsd_fcgs_iterate(&op, problem, r, u, &opt, report, nsgs_rule, &params);
  nsd_fcgs_operator_free(&op);
  report->residual = nsd_fc_error(problem, r, u);
  if (status != NSD_OK && !(report->residual <= opt.tolerance)) return status;
  return nsd_report_finish(report, opt.tolerance);
}
