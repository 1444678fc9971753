/*
 * Projected SOR on the friction cones, in the style of the Chrono solvers
 * (one projected step per contact per sweep, A. Tasora, M. Anitescu 2011):
 *   r_a <- Pi_K(r_a - omega / g_a (u_a + mu_a ||u_T,a|| e_n)),
 * with u_a = (M r + q)_a kept current during the sweep and
 * g_a = lambda_max(W_aa), the largest eigenvalue of the contact's diagonal
 * block (so that each step is a contractive projected-gradient step on the
 * block). The De Saxce term mu ||u_T|| e_n makes the fixed points the
 * Coulomb solutions (the Siconos error), not those of the cone
 * complementarity relaxation. omega = options->relaxation.
 */
#include <math.h>
#include <stdlib.h>

#include "friction/fc_gs_internal.h"

/* One projected step for contact a with step 1 / g_a (relaxation is applied by the sweep). */
static void psor_rule(const void* context, int a, const double* W, double mu, const double* ra,
                      const double* ua, double* rnew) {
  (void)W;
  const double* inv_g = context;
  const double t = inv_g[a];
  const double ut = sqrt(ua[1] * ua[1] + ua[2] * ua[2]);
  rnew[0] = ra[0] - t * (ua[0] + mu * ut);
  rnew[1] = ra[1] - t * ua[1];
  rnew[2] = ra[2] - t * ua[2];
  nsd_fc_project_on_cone(3, mu, rnew);
}

NsdStatus nsd_fc3d_psor(const NsdFc* problem, double* r, double* u, const NsdSolverOptions* options,
                        NsdReport* report) {
  NsdReport own;
  NsdSolverOptions opt;
  NsdStatus status = nsd_fcgs_begin("psor", 3, problem, r, u, options, &opt, &report, &own);
  if (status != NSD_OK) return status;

  // the block operator; every diagonal block needs W_nn > 0
  NsdFcgsOperator op;
  status = nsd_fcgs_operator_checked(&op, problem, "psor", report);
  if (status != NSD_OK) return status;

  // the step of each contact, 1 / lambda_max(W_aa) (>= W_nn > 0)
  const int nc = problem->nc;
  double* inv_g = malloc((size_t)(nc > 0 ? nc : 1) * sizeof *inv_g);
  if (!inv_g) {
    nsd_fcgs_operator_free(&op);
    return nsd_report_fail(report, NSD_FAILED, "out of memory, %d contacts", nc);
  }
  for (int a = 0; a < nc; ++a) inv_g[a] = 1.0 / nsd_fcgs_block_lambda_max(3, op.diag[a]);

  // sweeps, then the error of the returned r
  status = nsd_fcgs_iterate(&op, problem, r, u, &opt, report, psor_rule, inv_g);
  free(inv_g);
  nsd_fcgs_operator_free(&op);
  // report->residual: the Siconos error of (r, u = M r + q), from the sweeps
  return nsd_fcgs_end(status, report, opt.tolerance);
}
