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
 * The Siconos FC3D error of the iterate is computed after every sweep (from
 * the u kept current: O(nc), no product with M).
 *
 * The sweep is inlined here: the diagonal block is read in place in M, the
 * closed forms (take-off, stick by cofactors) are tried first without any
 * local error evaluation, and only a sliding contact calls the local solver.
 */
#include <math.h>

#include "friction/fc_gs_internal.h"
#include "friction/fc_local.h"

/* One sweep: steps 1-3 for every contact, u kept current by block columns. */
static void nsgs_sweep(const void* context, const NsdFcgsOperator* op, const NsdFc* p,
                       const int* order, double omega, double* r, double* u) {
  const NsdFcLocalParams* params = context;
  const int nc = op->nc;
  const double* mu = p->mu;
  for (int i = 0; i < nc; ++i) {
    const int a = order ? order[i] : i;
    const double* W = op->diag[a];
    double* ra = r + (size_t)3 * a;
    const double* ua = u + (size_t)3 * a;
    const double r0 = ra[0], r1 = ra[1], r2 = ra[2];
    // q_loc = u_a - W_aa r_a
    double qloc[3], rnew[3];
    for (int k = 0; k < 3; ++k) qloc[k] = ua[k] - (W[k] * r0 + W[k + 3] * r1 + W[k + 6] * r2);
    if (qloc[0] >= 0.0 && mu[a] != 0.0) {
      // take-off, the commonest closed form
      rnew[0] = rnew[1] = rnew[2] = 0.0;
    } else if (!nsd_fcl_closed_form3(W, qloc, mu[a], rnew)) {
      rnew[0] = r0;
      rnew[1] = r1;
      rnew[2] = r2;
      nsd_fcl_sliding3(params, W, qloc, mu[a], rnew);
    }
    // relaxation, kept in the cone
    if (omega != 1.0) {
      const double rold[3] = {r0, r1, r2};
      for (int k = 0; k < 3; ++k) rnew[k] = omega * rnew[k] + (1.0 - omega) * rold[k];
      if (omega > 1.0) nsd_fc_project_on_cone(3, mu[a], rnew);
    }
    // apply the change and its effect on every velocity
    const double dr[3] = {rnew[0] - r0, rnew[1] - r1, rnew[2] - r2};
    if (dr[0] != 0.0 || dr[1] != 0.0 || dr[2] != 0.0) {
      ra[0] = rnew[0];
      ra[1] = rnew[1];
      ra[2] = rnew[2];
      nsd_fcgs_column_update3(op, a, dr, u);
    }
  }
}

NsdStatus nsd_fc3d_nsgs(const NsdFc* problem, double* r, double* u, const NsdSolverOptions* options,
                        NsdReport* report) {
  NsdReport own;
  NsdSolverOptions opt;
  NsdStatus status = nsd_fcgs_begin("nsgs", 3, problem, r, u, options, &opt, &report, &own);
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
  const NsdFcLocalParams params = {local, opt.nsgs.local_tolerance, opt.nsgs.local_max_iterations};

  // the block operator; every diagonal block needs W_nn > 0
  NsdFcgsOperator op;
  status = nsd_fcgs_operator_checked(&op, problem, "nsgs", report);
  if (status != NSD_OK) return status;

  // sweeps, then the error of the returned r
  status = nsd_fcgs_iterate_sweeps(&op, problem, r, u, &opt, report, nsgs_sweep, &params);
  nsd_fcgs_operator_free(&op);
  // report->residual: the Siconos error of (r, u = M r + q), from the sweeps
  return nsd_fcgs_end(status, report, opt.tolerance);
}
