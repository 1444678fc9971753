/*
 * Proximal-point method for the 3D local friction-contact problem
 * (nsd_fc3d_prox), after Siconos's FC3D_PROX and V. Acary, M. Brémond,
 * O. Huber, "On solving contact problems with Coulomb friction: formulations
 * and numerical comparisons", Advanced Topics in Nonsmooth Dynamics, 2018
 * (the most robust method of their comparison on rigid-body sets at 1e-8).
 *
 * Outer iteration k, from r_k: the proximal subproblem
 *   u' = (M + sigma I) r + (q - sigma r_k),  r in the cones,  Coulomb's law on (r, u')
 * (an FC3D problem whose Delassus matrix M + sigma I is regular even when M is
 * rank deficient) is solved, warm-started at r_k, by the global Alart-Curnier
 * Newton method nsd_fc3d_newton_ac (fc3d_newton.c, called as is). Its answer
 * r is then judged on the original problem by the Siconos FC3D error:
 *  - inner solve converged and the outer error dropped: r_{k+1} = r and sigma
 *    is decreased (the subproblem tends to the original one, Newton's local
 *    convergence takes over);
 *  - inner solve converged without decrease: r_{k+1} = r, sigma kept;
 *  - inner solve failed: sigma is increased (a better conditioned, closer
 *    subproblem); r is kept only if the outer error dropped.
 * sigma is relative to the mean |diagonal| of M. Stop when the outer error is
 * <= tolerance; options->max_iterations caps the total Newton steps (and the
 * outer iterations), options->time_limit the wall time.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/solver_core.h"
#include "nsdyn/nsd_fc.h"

void nsd_fc_prox_params_default(NsdFcProxParams* p) {
  if (!p) return;
  p->sigma0 = 1.0;
  p->decrease = 0.1;
  p->increase = 10.0;
  p->sigma_min = 1e-12;
  p->sigma_max = 1e10;
  p->inner_max_iterations = 50;
}

/* M + sigma I in sparse-block storage (3x3 blocks, every diagonal block
 * stored), with the original diagonal blocks kept to change sigma. */
typedef struct Shifted {
  NsdMatrix* m;
  int* diag;     /* [nc] block index of each diagonal block */
  double* diag0; /* [9 nc] original diagonal blocks */
} Shifted;

static void shifted_free(Shifted* s) {
  nsd_matrix_destroy(s->m);
  free(s->diag);
  free(s->diag0);
}

static int shifted_init(Shifted* s, const NsdMatrix* M, int nc) {
  NsdMatrix* src = nsd_matrix_convert(M, NSD_SPARSE_BLOCK, 3);
  const size_t snc = (size_t)(nc > 0 ? nc : 1);
  int* row_end = malloc(snc * sizeof(int));
  int* row_ptr = malloc((snc + 1) * sizeof(int));
  s->diag = malloc(snc * sizeof(int));
  s->diag0 = calloc(9 * snc, sizeof(double));
  int* col_index = NULL;
  int ok = src && row_end && row_ptr && s->diag && s->diag0 && src->sbm->n_block_rows == nc;
  if (ok) {
    const NsdSparseBlock* b = src->sbm;
    col_index = malloc((size_t)(b->n_blocks + nc + 1) * sizeof(int));
    ok = col_index != NULL;
    // union pattern: the blocks of M plus the missing diagonal blocks
    int n = 0;
    row_ptr[0] = 0;
    for (int i = 0; ok && i < nc; ++i) {
      row_end[i] = 3 * (i + 1);
      int placed = 0;
      for (int k = b->row_ptr[i]; k < b->row_ptr[i + 1]; ++k) {
        const int c = b->col_index[k];
        if (!placed && c >= i) {
          if (c != i) col_index[n++] = i;
          placed = 1;
        }
        col_index[n++] = c;
      }
      if (!placed) col_index[n++] = i;
      row_ptr[i + 1] = n;
    }
    if (ok) s->m = nsd_matrix_create_sparse_block(nc, nc, row_end, row_end, row_ptr, col_index);
    ok = ok && s->m != NULL;
    // copy the values, find the diagonal blocks
    for (int i = 0; ok && i < nc; ++i) {
      int kn = row_ptr[i];
      for (int k = b->row_ptr[i]; k < b->row_ptr[i + 1]; ++k) {
        while (col_index[kn] != b->col_index[k]) ++kn;
        memcpy(nsd_matrix_sbm_block(s->m, kn), nsd_matrix_sbm_block(src, k), 9 * sizeof(double));
      }
      for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k)
        if (col_index[k] == i) s->diag[i] = k;
      memcpy(s->diag0 + 9 * i, nsd_matrix_sbm_block(s->m, s->diag[i]), 9 * sizeof(double));
    }
  }
  nsd_matrix_destroy(src);
  free(row_end);
  free(row_ptr);
  free(col_index);
  return ok;
}

static void shifted_set(Shifted* s, int nc, double sigma) {
  for (int i = 0; i < nc; ++i) {
    double* blk = nsd_matrix_sbm_block(s->m, s->diag[i]);
    memcpy(blk, s->diag0 + 9 * i, 9 * sizeof(double));
    for (int j = 0; j < 3; ++j) blk[4 * j] += sigma;
  }
}

NsdStatus nsd_fc3d_prox(const NsdFc* problem, double* r, double* u, const NsdSolverOptions* options,
                        NsdReport* report) {
  return nsd_fc3d_prox_ex(problem, r, u, options, NULL, report);
}

NsdStatus nsd_fc3d_prox_ex(const NsdFc* p, double* r, double* u, const NsdSolverOptions* options,
                           const NsdFcProxParams* params, NsdReport* report) {
  const char* name = "prox";
  NsdReport own;
  if (!report) {
    memset(&own, 0, sizeof own);
    report = &own;
  }
  NsdSolverOptions opt;
  if (nsd_solver_begin(name, options, &opt, report) != NSD_OK) return NSD_BAD_INPUT;
  NsdFcProxParams prm;
  if (params)
    prm = *params;
  else
    nsd_fc_prox_params_default(&prm);

  if (!nsd_fc_check(p, report)) return report->status;
  if (p->dim != 3)
    return nsd_report_fail(report, NSD_BAD_INPUT, "%s: dimension %d, expected 3", name, p->dim);
  const int nc = p->nc, m = 3 * nc;
  if (m > 0 && (!r || !u))
    return nsd_report_fail(report, NSD_BAD_INPUT, "%s: r or u is NULL", name);
  if (!(prm.sigma0 > 0.0) || !(prm.decrease > 0.0 && prm.decrease <= 1.0) ||
      !(prm.increase >= 1.0) || !(prm.sigma_min >= 0.0) || !(prm.sigma_max >= prm.sigma0) ||
      prm.inner_max_iterations < 1 || !isfinite(prm.sigma_max * prm.increase))
    return nsd_report_fail(report, NSD_BAD_INPUT,
                           "%s: bad parameters (sigma0=%g > 0, decrease=%g in (0,1], "
                           "increase=%g >= 1, sigma_min=%g >= 0, sigma_max=%g >= sigma0, "
                           "inner_max_iterations=%d >= 1)",
                           name, prm.sigma0, prm.decrease, prm.increase, prm.sigma_min,
                           prm.sigma_max, prm.inner_max_iterations);
  if (opt.warm_start && !nsd_all_finite(r, (size_t)m))
    return nsd_report_fail(report, NSD_BAD_INPUT, "%s: warm start r has a non-finite entry", name);

  if (!opt.warm_start && m > 0) memset(r, 0, (size_t)m * sizeof *r);
  if (m == 0) {
    report->residual = 0.0;
    return nsd_report_finish(report, opt.tolerance);
  }

  // scale of sigma: mean |diagonal| of M
  const size_t bytes = (size_t)m * sizeof(double);
  double* work = malloc(4 * bytes);
  Shifted sh;
  memset(&sh, 0, sizeof sh);
  if (!work || !shifted_init(&sh, p->M, nc)) {
    free(work);
    shifted_free(&sh);
    report->residual = nsd_fc_error(p, r, u);
    nsd_report_fail(report, NSD_FAILED, "%s: out of memory for M + sigma I, nc=%d", name, nc);
    return nsd_report_finish(report, opt.tolerance);
  }
  double *qs = work, *rt = work + m, *ut = work + 2 * m, *ue = work + 3 * m;
  nsd_matrix_diagonal(p->M, ut);
  double scale = 0.0;
  for (int i = 0; i < m; ++i) scale += fabs(ut[i]);
  scale /= m;
  if (!(scale > 0.0) || !isfinite(scale)) scale = 1.0;

  NsdFc sub = {.dim = 3, .nc = nc, .M = sh.m, .q = qs, .mu = p->mu};
  double error = nsd_fc_error(p, r, u);
  nsd_report_record(report, error);
  double sigma = prm.sigma0;
  int steps = 0, outer = 0, inner_failures = 0;
  char last[256] = "";
  while (!(error <= opt.tolerance)) {
    if (steps >= opt.max_iterations || outer >= opt.max_iterations) break;
    double remaining = 0.0;
    if (opt.time_limit > 0.0) {
      remaining = opt.time_limit - (nsd_wall_time() - report->start_time);
      if (remaining <= 0.0) {
        nsd_report_fail(report, NSD_MAX_ITERATIONS,
                        "time limit %g s reached after %d proximal steps (%d Newton steps)",
                        opt.time_limit, outer, steps);
        break;
      }
    }
    ++outer;

    // subproblem around r_k: M + sigma I, q - sigma r_k
    const double s = sigma * scale;
    shifted_set(&sh, nc, s);
    for (int i = 0; i < m; ++i) qs[i] = p->q[i] - s * r[i];
    memcpy(rt, r, bytes);
    NsdSolverOptions in = opt;
    in.warm_start = 1;
    in.tolerance = fmax(0.1 * opt.tolerance, 1e-2 * error);
    in.max_iterations = prm.inner_max_iterations;
    if (in.max_iterations > opt.max_iterations - steps)
      in.max_iterations = opt.max_iterations - steps;
    in.time_limit = remaining;
    NsdReport irep;
    memset(&irep, 0, sizeof irep);
    const NsdStatus ist = nsd_fc3d_newton_ac(&sub, rt, ut, &in, &irep);
    steps += irep.iterations;
    if (ist == NSD_BAD_INPUT) {
      nsd_report_fail(report, NSD_BAD_INPUT, "%s: %s", name, irep.message);
      break;
    }

    // judge r on the original problem
    const double trial = nsd_fc_error(p, rt, ue);
    const int improved = trial < error;
    if (ist == NSD_OK || improved) {
      memcpy(r, rt, bytes);
      memcpy(u, ue, bytes);
      error = trial;
    }
    nsd_report_record(report, error);
    if (ist == NSD_OK) {
      if (improved) sigma = fmax(prm.sigma_min, sigma * prm.decrease);
    } else {
      ++inner_failures;
      snprintf(last, sizeof last, "%s", irep.message);
      sigma *= prm.increase;
      if (sigma > prm.sigma_max) {
        nsd_report_fail(report, NSD_FAILED,
                        "%s: sigma grew past %g x mean|diag M| after %d inner failures "
                        "(last: %.100s)",
                        name, prm.sigma_max, inner_failures, last);
        break;
      }
    }
    if (!isfinite(error)) {
      nsd_report_fail(report, NSD_FAILED, "%s: diverged at proximal step %d", name, outer);
      break;
    }
  }
  report->iterations = steps;
  report->residual = nsd_fc_error(p, r, u);
  if (report->status == NSD_OK && !(report->residual <= opt.tolerance))
    nsd_report_fail(report, NSD_MAX_ITERATIONS,
                    "%s: residual %.3e > tolerance %.3e after %d proximal steps, %d Newton steps "
                    "(sigma %.2e x mean|diag M|, %d inner failures)",
                    name, report->residual, opt.tolerance, outer, steps, sigma, inner_failures);
  shifted_free(&sh);
  free(work);
  return nsd_report_finish(report, opt.tolerance);
}
