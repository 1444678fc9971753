/* Gauss-Seidel on the reduced problem (Siconos GFC3D_NSGS_WR): factorise M
 * once, form the local problem W = H^T M^-1 H, q_local = H^T M^-1 q + b
 * (nsd_gfc_reduce), solve it with the FC2D/FC3D nsgs and recover
 * v = M^-1 (q + H r). The answer is judged by the global error (nsd_gfc_error):
 * its scaling differs from the local one, so when the local tolerance was not
 * enough the local solve is resumed (warm) with a tighter tolerance. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/solver_core.h"
#include "gfc/gfc_internal.h"
#include "nsdyn/nsd_fc.h"

/* Resumed local solves at most, and the smallest local tolerance asked for. */
#define WR_MAX_ROUNDS 4
#define WR_MIN_LOCAL_TOL 1e-15

/* A relative asymmetry of M above this is refused (the files round M to 6 digits). */
#define WR_ASYMMETRY 1e-6

/* Largest |M_ii| (the scale of the symmetry check); 0 on no memory. */
static double max_abs_diagonal(const NsdMatrix* a) {
  double* d = malloc(((size_t)a->rows + 1) * sizeof *d);
  double m = 0.0;
  if (d) {
    nsd_matrix_diagonal(a, d);
    for (int i = 0; i < a->rows; ++i) m = fmax(m, fabs(d[i]));
  }
  free(d);
  return m;
}

NsdStatus nsd_gfc_nsgs_wr(const NsdGfc* p, double* r, double* u, double* v,
                          const NsdSolverOptions* options, NsdReport* report) {
  NsdReport own;
  if (!report) {
    memset(&own, 0, sizeof own);
    report = &own;
  }
  NsdSolverOptions opt;
  if (nsd_solver_begin("nsgs_wr", options, &opt, report) != NSD_OK) return NSD_BAD_INPUT;
  if (!p || !nsd_gfc_check(p, report)) {
    if (!p) nsd_report_fail(report, NSD_BAD_INPUT, "nsgs_wr: no problem given");
    report->status = NSD_BAD_INPUT;
    return NSD_BAD_INPUT;
  }
  const int m = p->dim * p->nc, n = p->n;
  if ((!r || !u) && m > 0)
    return nsd_report_fail(report, NSD_BAD_INPUT, "nsgs_wr: r and u must not be NULL");
  // M must be symmetric (a mass matrix): W = H^T M^-1 H is then symmetric
  const double asym = nsd_matrix_asymmetry(p->M), diag = max_abs_diagonal(p->M);
  if (n > 0 && !(asym <= WR_ASYMMETRY * fmax(diag, 1e-300)))
    return nsd_report_fail(report, NSD_BAD_INPUT,
                           "nsgs_wr: GFC%dD M (%d x %d) is not symmetric: max |M_ij - M_ji| = "
                           "%g (largest diagonal entry %g)",
                           p->dim, n, n, asym, diag);
  NsdGfcFactor* f = NULL;
  NsdReport fr;
  memset(&fr, 0, sizeof fr);
  if (nsd_gfc_factor_m(p, &f, &fr) != NSD_OK)
    return nsd_report_fail(report, NSD_BAD_INPUT, "nsgs_wr needs M invertible: %s", fr.message);
  NsdFc* fc = nsd_gfc_reduce_with(p, f, &fr);
  double* vv = calloc((size_t)n + 1, sizeof *vv);
  if (!fc || !vv) {
    nsd_gfc_factor_destroy(f);
    nsd_fc_destroy(fc);
    free(vv);
    return nsd_report_fail(report, NSD_FAILED, "nsgs_wr: %s",
                           fr.message[0] ? fr.message : "out of memory");
  }
  if (!opt.warm_start && m > 0) memset(r, 0, (size_t)m * sizeof *r);

  NsdSolverOptions lo = opt;
  NsdStatus local = NSD_OK;
  double err = INFINITY;
  int iterations = 0;
  char message[2 * sizeof report->message + 64] = "";
  for (int round = 0; round < WR_MAX_ROUNDS; ++round) {
    if (opt.time_limit > 0.0) {
      lo.time_limit = opt.time_limit - (nsd_wall_time() - report->start_time);
      if (lo.time_limit <= 0.0 && round > 0) break;
      if (lo.time_limit <= 0.0) lo.time_limit = 1e-12;
    }
    lo.max_iterations = opt.max_iterations - iterations;
    if (lo.max_iterations < 1) break;
    NsdReport sub;
    memset(&sub, 0, sizeof sub);
    if (report->history && report->history_length < report->history_capacity) {
      sub.history = report->history + report->history_length;
      sub.history_capacity = report->history_capacity - report->history_length;
    }
    local = m == 0        ? NSD_OK
            : p->dim == 3 ? nsd_fc3d_nsgs(fc, r, u, &lo, &sub)
                          : nsd_fc2d_nsgs(fc, r, u, &lo, &sub);
    report->history_length += sub.history_length;
    iterations += sub.iterations;
    if (local == NSD_BAD_INPUT || local == NSD_FAILED) {
      snprintf(message, sizeof message, "local %s: %s", sub.solver, sub.message);
      if (local == NSD_BAD_INPUT) break;
    }
    if (nsd_gfc_velocity_with(p, f, r, vv) != NSD_OK) {
      err = INFINITY;
      snprintf(message, sizeof message, "the solve with M gave a non-finite velocity");
      local = NSD_FAILED;
      break;
    }
    err = nsd_gfc_error(p, r, vv, u);
    if (err <= opt.tolerance || local != NSD_OK) break;
    // the local error met its tolerance, the global one did not: ask for more
    double tighter = lo.tolerance * fmax(0.01, 0.5 * opt.tolerance / err);
    if (tighter < WR_MIN_LOCAL_TOL) break;
    lo.tolerance = tighter;
    lo.warm_start = 1;
  }
  if (v && n > 0) memcpy(v, vv, (size_t)n * sizeof *v);
  nsd_gfc_factor_destroy(f);
  nsd_fc_destroy(fc);
  free(vv);

  report->iterations = iterations;
  report->residual = err;
  if (local == NSD_BAD_INPUT || (local == NSD_FAILED && !(err <= opt.tolerance))) {
    nsd_report_fail(report, local, "nsgs_wr: %s", message);
    report->seconds = nsd_wall_time() - report->start_time;
    return local;
  }
  const NsdStatus st = nsd_report_finish(report, opt.tolerance);
  if (st != NSD_OK && !report->message[0])
    snprintf(report->message, sizeof report->message,
             "nsgs_wr: global error %.3e > tolerance %.1e after %d local sweeps", err,
             opt.tolerance, iterations);
  return st;
}
