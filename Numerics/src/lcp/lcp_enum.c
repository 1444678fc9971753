/*
 * Enumeration of complementary bases (Cottle, Pang, Stone, "The Linear
 * Complementarity Problem", 1992, 1.4: every solution sits on a complementary
 * basis). A basis is a set a of indices with z_a basic (w_a = 0) and z_b = 0
 * elsewhere: solve M_aa z_a = -q_a by LU and accept it when z_a >= 0 and
 * w_b = M_ba z_a + q_b >= 0 within a small tolerance, then polish it. All 2^n
 * bases are tried in the order of their bit masks (z = 0 first), after a
 * first guess: the support of the warm start, else {i : q_i < 0}.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lcp/lcp_internal.h"

/* Feasibility slack of an accepted basis, relative to max(1, ||q||_inf). */
#define ENUM_FEASIBILITY_TOL 1e-12
/* The time limit is checked every 1024 bases: when (bases tried & this) == 0. */
#define ENUM_CLOCK_MASK 1023

/* The search, on allocated workspace (see nsd_lcp_enum). */
static NsdStatus enum_run(const NsdLcp* problem, double* z, double* w, const NsdSolverOptions* opt,
                          NsdReport* report, const double* md, double* work, int* iwork,
                          unsigned char* flags) {
  const int n = problem->n;
  const double* q = problem->q;
  const double qnorm = nsd_lcpi_norm(n, q);
  double qinf = 0.0;
  for (int i = 0; i < n; ++i) qinf = fmax(qinf, fabs(q[i]));
  const double feas_tol = ENUM_FEASIBILITY_TOL * fmax(1.0, qinf);

  // first guess: the warm start's support, else the rows with q_i < 0
  uint64_t guess = 0;
  for (int i = 0; i < n; ++i)
    if (opt->warm_start ? z[i] > 0.0 : q[i] < 0.0) guess |= (uint64_t)1 << i;

  // try bases until one solves the LCP to tolerance
  const uint64_t count = (uint64_t)1 << n;
  int found = 0, tried = 0, timed_out = 0;
  for (uint64_t k = 0; k <= count && !found && !timed_out; ++k) {
    const uint64_t mask = k == 0 ? guess : k - 1;
    if (k > 0 && mask == guess) continue;
    ++tried;
    if (nsd_lcpi_enum_try(n, md, n, q, mask, feas_tol, z, work, iwork, flags)) {
      const double err = nsd_lcpi_polish(n, md, q, qnorm, z, w, work, iwork, flags);
      found = err <= opt->tolerance;
    }
    timed_out = !found && (tried & ENUM_CLOCK_MASK) == 0 && nsd_time_up(report, opt->time_limit);
  }
  report->iterations = tried;
  if (found) {
    report->residual = nsd_lcp_error(problem, z, w);
    return nsd_report_finish(report, opt->tolerance);
  }

  // no basis gave a solution (or the time ran out): z = 0 and its error
  memset(z, 0, (size_t)n * sizeof *z);
  report->residual = nsd_lcp_error(problem, z, w);
  if (timed_out)
    return nsd_report_fail(report, NSD_MAX_ITERATIONS,
                           "time limit %g s reached after %d of %llu bases", opt->time_limit, tried,
                           (unsigned long long)count);
  return nsd_report_fail(report, NSD_FAILED,
                         "none of the %d complementary bases gives a solution (no solution, "
                         "or only on singular bases)",
                         tried);
}

NsdStatus nsd_lcp_enum(const NsdLcp* problem, double* z, double* w, const NsdSolverOptions* options,
                       NsdReport* report) {
  NsdReport own;
  if (!report) report = nsd_lcpi_own_report(&own);
  NsdSolverOptions opt;
  NsdStatus status = nsd_lcpi_begin("enum", problem, z, w, options, &opt, report);
  if (status != NSD_OK) return status;
  const int n = problem->n;
  const int limit = opt.enumerative.max_size < NSD_LCPI_ENUM_HARD_MAX ? opt.enumerative.max_size
                                                                      : NSD_LCPI_ENUM_HARD_MAX;
  if (n > limit)
    return nsd_report_fail(report, NSD_BAD_INPUT,
                           "n=%d exceeds enumerative.max_size=%d (at most %d; 2^n bases)", n,
                           opt.enumerative.max_size, NSD_LCPI_ENUM_HARD_MAX);

  // workspace: dense M, basis solves and polishing
  const size_t nn = (size_t)n;
  double* md = nsd_lcpi_dense_copy(problem->M);
  double* work = malloc((nsd_lcpi_basis_work(n) + 2 * nn) * sizeof *work);
  int* iwork = malloc(2 * nn * sizeof *iwork);
  unsigned char* flags = malloc(nn);
  if (md && work && iwork && flags)
    status = enum_run(problem, z, w, &opt, report, md, work, iwork, flags);
  else
    status = nsd_report_fail(report, NSD_FAILED, "out of memory (enumeration, n=%d)", n);
  free(md);
  free(work);
  free(iwork);
  free(flags);
  return status;
}
