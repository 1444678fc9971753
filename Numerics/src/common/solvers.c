/* The solver table: every solver of the library, by problem kind and name.
 * One explicit table (it also drives `nsdyn solve --list-solvers`). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/solver_core.h"
#include "nsdyn/nsd_options.h"
#include "nsdyn/nsd_solvers.h"

/* MLCP Newton with each merit, so that both can be chosen by name. */
static NsdStatus mlcp_newton_with(NsdNewtonMerit merit, const NsdMlcp* p, double* z, double* w,
                                  const NsdSolverOptions* options, NsdReport* report) {
  NsdSolverOptions o;
  if (options)
    o = *options;
  else
    nsd_solver_options_default(&o);
  o.newton.merit = merit;
  return nsd_mlcp_newton(p, z, w, &o, report);
}
static NsdStatus mlcp_newton_fb(const NsdMlcp* p, double* z, double* w, const NsdSolverOptions* o,
                                NsdReport* r) {
  return mlcp_newton_with(NSD_MERIT_FISCHER_BURMEISTER, p, z, w, o, r);
}
static NsdStatus mlcp_newton_min(const NsdMlcp* p, double* z, double* w, const NsdSolverOptions* o,
                                 NsdReport* r) {
  return mlcp_newton_with(NSD_MERIT_MIN, p, z, w, o, r);
}

/* GFC "auto": the candidates of nsd_auto_plan in turn; v (nullable) from the answer. */
static NsdStatus gfc_auto(const NsdGfc* p, double* r, double* u, double* v,
                          const NsdSolverOptions* options, NsdReport* report) {
  NsdProblem prob = {.kind = p && p->dim == 2 ? NSD_KIND_GFC2D : NSD_KIND_GFC3D, .gfc = (NsdGfc*)p};
  NsdStatus st = nsd_solve_auto(&prob, r, u, options, NULL, report);
  if (v && st != NSD_BAD_INPUT && nsd_gfc_velocity(p, r, v, NULL) != NSD_OK && p->n > 0)
    memset(v, 0, (size_t)p->n * sizeof *v);
  return st;
}

static const NsdSolverEntry kTable[] = {
    {.name = "lemke",
     .kind = NSD_KIND_LCP,
     .options = "lemke",
     .direct = 1,
     .warm_start = 0,
     .description = "lexicographic Lemke pivoting (exact; reports ray termination)",
     .lcp = nsd_lcp_lemke},
    {.name = "pgs",
     .kind = NSD_KIND_LCP,
     .options = "relax pgs",
     .direct = 0,
     .warm_start = 1,
     .description = "projected Gauss-Seidel, over-relaxed by omega (PSOR; needs M_ii > 0)",
     .lcp = nsd_lcp_pgs},
    {.name = "nlgs",
     .kind = NSD_KIND_LCP,
     .options = "relax pgs",
     .direct = 0,
     .warm_start = 1,
     .description = "another name for pgs (Siconos's NLGS)",
     .lcp = nsd_lcp_nlgs,
     .alias_of = "pgs"},
    {.name = "psor",
     .kind = NSD_KIND_LCP,
     .options = "relax pgs",
     .direct = 0,
     .warm_start = 1,
     .description = "another name for pgs (Siconos's PSOR: set relaxation)",
     .lcp = nsd_lcp_psor,
     .alias_of = "pgs"},
    {.name = "block_pgs",
     .kind = NSD_KIND_LCP,
     .options = "relax pgs block",
     .direct = 0,
     .warm_start = 1,
     .description = "block projected Gauss-Seidel, each block solved exactly",
     .lcp = nsd_lcp_pgs_block},
    {.name = "enum",
     .kind = NSD_KIND_LCP,
     .options = "enum",
     .direct = 1,
     .warm_start = 0,
     .description = "enumeration of complementary bases (small n)",
     .lcp = nsd_lcp_enum},
    {.name = "newton_fb",
     .kind = NSD_KIND_LCP,
     .options = "newton",
     .direct = 0,
     .warm_start = 1,
     .description = "semismooth Newton, Fischer-Burmeister, Armijo line search",
     .lcp = nsd_lcp_newton_fb},
    {.name = "newton_min",
     .kind = NSD_KIND_LCP,
     .options = "newton",
     .direct = 0,
     .warm_start = 1,
     .description = "semismooth Newton, min function, Armijo line search",
     .lcp = nsd_lcp_newton_min},
    {.name = "newton_min_fblsa",
     .kind = NSD_KIND_LCP,
     .options = "newton",
     .direct = 0,
     .warm_start = 1,
     .description = "semismooth Newton, min-function direction, Fischer-Burmeister line search",
     .lcp = nsd_lcp_newton_min_fblsa},
    {.name = "auto",
     .kind = NSD_KIND_LCP,
     .options = "*",
     .direct = 0,
     .warm_start = 1,
     .description = "by size: lemke, newton_fb, enum/newton_min; falls back on failure",
     .lcp = nsd_lcp_auto,
     .is_default = 1},
    {.name = "lemke",
     .kind = NSD_KIND_MLCP,
     .options = "lemke",
     .direct = 1,
     .warm_start = 0,
     .description = "free rows by Schur complement, then lexicographic Lemke",
     .mlcp = nsd_mlcp_lemke},
    {.name = "enum",
     .kind = NSD_KIND_MLCP,
     .options = "enum",
     .direct = 1,
     .warm_start = 0,
     .description = "direct: enumeration of active sets, LU per case",
     .mlcp = nsd_mlcp_enum},
    {.name = "pgs",
     .kind = NSD_KIND_MLCP,
     .options = "relax pgs",
     .direct = 0,
     .warm_start = 1,
     .description = "projected Gauss-Seidel over the box form",
     .mlcp = nsd_mlcp_pgs},
    {.name = "newton_fb",
     .kind = NSD_KIND_MLCP,
     .options = "newton",
     .direct = 0,
     .warm_start = 1,
     .description = "semismooth Newton, Fischer-Burmeister on boxes",
     .mlcp = mlcp_newton_fb},
    {.name = "newton_min",
     .kind = NSD_KIND_MLCP,
     .options = "newton",
     .direct = 0,
     .warm_start = 1,
     .description = "semismooth Newton, min/mid function on boxes",
     .mlcp = mlcp_newton_min},
    {.name = "auto",
     .kind = NSD_KIND_MLCP,
     .options = "*",
     .direct = 0,
     .warm_start = 1,
     .description = "by size: lemke, newton_fb, enum/newton_min; falls back on failure",
     .mlcp = nsd_mlcp_auto,
     .is_default = 1},
    {.name = "nsgs",
     .kind = NSD_KIND_FC3D,
     .options = "relax gs local pgs anderson drift",
     .direct = 0,
     .warm_start = 1,
     .description = "nonsmooth Gauss-Seidel over contacts, local Alart-Curnier Newton",
     .fc = nsd_fc3d_nsgs},
    {.name = "psor",
     .kind = NSD_KIND_FC3D,
     .options = "relax gs pgs anderson drift",
     .direct = 0,
     .warm_start = 1,
     .description = "projected SOR on the friction cones (one step per contact)",
     .fc = nsd_fc3d_psor},
    {.name = "apgd",
     .kind = NSD_KIND_FC3D,
     .options = "apgd",
     .direct = 0,
     .warm_start = 1,
     .description =
         "accelerated projected gradient (Nesterov, restart), De Saxce loop: the Coulomb answer",
     .fc = nsd_fc3d_apgd},
    {.name = "apgd_ccp",
     .kind = NSD_KIND_FC3D,
     .options = "apgd",
     .direct = 0,
     .warm_start = 1,
     .description = "APGD on the cone complementarity relaxation only (its own residual; "
                    "the message gives the Coulomb error)",
     .fc = nsd_fc3d_apgd_ccp},
    {.name = "bb",
     .kind = NSD_KIND_FC3D,
     .options = "bb",
     .direct = 0,
     .warm_start = 1,
     .description = "projected gradient, Barzilai-Borwein steps, non-monotone search",
     .fc = nsd_fc3d_bb},
    {.name = "admm",
     .kind = NSD_KIND_FC3D,
     .options = "admm",
     .direct = 0,
     .warm_start = 1,
     .description = "ADMM with adaptive penalty, De Saxce shift",
     .fc = nsd_fc3d_admm},
    {.name = "newton_ac",
     .kind = NSD_KIND_FC3D,
     .options = "newton",
     .direct = 0,
     .warm_start = 1,
     .description = "global Alart-Curnier Newton, sparse LU, line search",
     .fc = nsd_fc3d_newton_ac},
    {.name = "newton_fb",
     .kind = NSD_KIND_FC3D,
     .options = "newton",
     .direct = 0,
     .warm_start = 1,
     .description = "global Fischer-Burmeister Newton, sparse LU, line search",
     .fc = nsd_fc3d_newton_fb},
    {.name = "prox",
     .kind = NSD_KIND_FC3D,
     .options = "newton",
     .direct = 0,
     .warm_start = 1,
     .description = "proximal point on M + sigma I, inner Alart-Curnier Newton (robust)",
     .fc = nsd_fc3d_prox},
    {.name = "auto",
     .kind = NSD_KIND_FC3D,
     .options = "*",
     .direct = 0,
     .warm_start = 1,
     .description = "by size/tolerance: newton_ac, prox, nsgs (or nsgs first); fallback",
     .fc = nsd_fc3d_auto,
     .is_default = 1},
    {.name = "nsgs",
     .kind = NSD_KIND_FC2D,
     .options = "relax anderson drift",
     .direct = 0,
     .warm_start = 1,
     .description = "nonsmooth Gauss-Seidel, exact 2x2 local solves",
     .fc = nsd_fc2d_nsgs,
     .is_default = 1},
    {.name = "lemke",
     .kind = NSD_KIND_FC2D,
     .options = "lemke",
     .direct = 1,
     .warm_start = 0,
     .description = "LCP reformulation of 2D friction, lexicographic Lemke",
     .fc = nsd_fc2d_lemke},
    /* Rolling friction contact (nsd_rfc.h). */
    {.name = "nsgs",
     .kind = NSD_KIND_RFC3D,
     .options = "relax gs",
     .direct = 0,
     .warm_start = 1,
     .description = "nonsmooth Gauss-Seidel over contacts, exact local 5x5 Newton solves",
     .rfc = nsd_rfc_nsgs,
     .is_default = 1},
    {.name = "pg",
     .kind = NSD_KIND_RFC3D,
     .options = "",
     .direct = 0,
     .warm_start = 1,
     .description = "accelerated projected gradient on the rolling cones, De Saxce fixed point",
     .rfc = nsd_rfc_pg},
    {.name = "nsgs",
     .kind = NSD_KIND_RFC2D,
     .options = "relax gs",
     .direct = 0,
     .warm_start = 1,
     .description = "nonsmooth Gauss-Seidel over contacts, exact local 3x3 Newton solves",
     .rfc = nsd_rfc_nsgs,
     .is_default = 1},
    {.name = "pg",
     .kind = NSD_KIND_RFC2D,
     .options = "",
     .direct = 0,
     .warm_start = 1,
     .description = "accelerated projected gradient on the rolling cones, De Saxce fixed point",
     .rfc = nsd_rfc_pg},
    {.name = "nsgs",
     .kind = NSD_KIND_GMP,
     .options = "local lemke",
     .direct = 0,
     .warm_start = 1,
     .description = "Gauss-Seidel over blocks: equalities by LU, LCP blocks by Lemke, cones by "
                    "the FC local solvers",
     .gmp = nsd_gmp_nsgs},
    {.name = "newton",
     .kind = NSD_KIND_GMP,
     .options = "newton merit",
     .direct = 0,
     .warm_start = 1,
     .description = "global Newton: Alart-Curnier cones, FB (or min) LCP rows, equality rows; "
                    "sparse LU, line search",
     .gmp = nsd_gmp_newton,
     .is_default = 1},
    {.name = "admm",
     .kind = NSD_KIND_GMP,
     .options = "admm",
     .direct = 0,
     .warm_start = 1,
     .description = "ADMM over the blocks as one convex set (equalities free, cones with the "
                    "De Saxce fixed point); W + rho I factorised once per rho",
     .gmp = nsd_gmp_admm},
    /* Global friction contact (issue 27). nsgs_wr is the default for now: the ADMM/IPM
     * rows (gfc_admm.c, gfc_ipm.c) may take is_default over; keep one default per kind. */
    {.name = "nsgs_wr",
     .kind = NSD_KIND_GFC3D,
     .options = "relax gs local pgs anderson drift",
     .direct = 0,
     .warm_start = 1,
     .description = "reduce to W = H^T M^-1 H (sparse factor of M), FC3D nsgs, v = M^-1 (q + H r)",
     .gfc = nsd_gfc_nsgs_wr,
     .is_default = 1},
    {.name = "nsgs_wr",
     .kind = NSD_KIND_GFC2D,
     .options = "relax anderson drift",
     .direct = 0,
     .warm_start = 1,
     .description = "reduce to W = H^T M^-1 H (sparse factor of M), FC2D nsgs, v = M^-1 (q + H r)",
     .gfc = nsd_gfc_nsgs_wr,
     .is_default = 1},
    {.name = "auto",
     .kind = NSD_KIND_GFC3D,
     .options = "*",
     .direct = 0,
     .warm_start = 1,
     .description = "nsgs_wr, then admm, then ipm (those in this table); falls back on failure",
     .gfc = gfc_auto},
    {.name = "auto",
     .kind = NSD_KIND_GFC2D,
     .options = "*",
     .direct = 0,
     .warm_start = 1,
     .description = "nsgs_wr, then admm, then ipm (those in this table); falls back on failure",
     .gfc = gfc_auto},
    {.name = "admm",
     .kind = NSD_KIND_GFC3D,
     .options = "admm",
     .direct = 0,
     .warm_start = 1,
     .description = "ADMM on M, H sparse (M + rho H H^T factorised once per rho), De Saxce shift; "
                    "M may be singular",
     .gfc = nsd_gfc_admm},
    {.name = "admm",
     .kind = NSD_KIND_GFC2D,
     .options = "admm",
     .direct = 0,
     .warm_start = 1,
     .description = "ADMM on M, H sparse (M + rho H H^T factorised once per rho), De Saxce shift; "
                    "M may be singular",
     .gfc = nsd_gfc_admm},
    {.name = "ipm",
     .kind = NSD_KIND_GFC3D,
     .options = "",
     .direct = 0,
     .warm_start = 0,
     .description = "interior point, Mehrotra predictor-corrector, Nesterov-Todd cones, De Saxce "
                    "shift in the Newton step; mu > 0",
     .gfc = nsd_gfc_ipm},
    {.name = "ipm",
     .kind = NSD_KIND_GFC2D,
     .options = "",
     .direct = 0,
     .warm_start = 0,
     .description = "interior point, Mehrotra predictor-corrector, Nesterov-Todd cones, De Saxce "
                    "shift in the Newton step; mu > 0",
     .gfc = nsd_gfc_ipm},
};

const NsdSolverEntry* nsd_solver_table(int* count) {
  if (count) *count = (int)(sizeof kTable / sizeof kTable[0]);
  return kTable;
}

const NsdSolverEntry* nsd_solver_find(NsdProblemKind kind, const char* name) {
  int n;
  const NsdSolverEntry* t = nsd_solver_table(&n);
  for (int k = 0; k < n; ++k)
    if (t[k].kind == kind && name && strcmp(t[k].name, name) == 0) return &t[k];
  return NULL;
}

const char* nsd_solver_default(NsdProblemKind kind) {
  int n;
  const NsdSolverEntry* t = nsd_solver_table(&n);
  for (int k = 0; k < n; ++k)
    if (t[k].kind == kind && t[k].is_default) return t[k].name;
  return NULL;
}

/* Comma-separated names of the solvers of a kind, into buf. */
static void list_names(NsdProblemKind kind, char* buf, size_t size) {
  int n;
  const NsdSolverEntry* t = nsd_solver_table(&n);
  size_t used = 0;
  buf[0] = '\0';
  for (int k = 0; k < n && used < size; ++k) {
    if (t[k].kind != kind) continue;
    int w = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", t[k].name);
    if (w < 0) break;
    used += (size_t)w;
  }
}

NsdStatus nsd_solve(const NsdProblem* problem, const char* name, double* x, double* y,
                    const NsdSolverOptions* options, NsdReport* report) {
  if (!problem || problem->kind == NSD_KIND_UNKNOWN) {
    nsd_report_start(report, name ? name : "");
    return nsd_report_fail(report, NSD_BAD_INPUT, "no problem given");
  }
  if (!name) name = nsd_solver_default(problem->kind);
  const NsdSolverEntry* e = name ? nsd_solver_find(problem->kind, name) : NULL;
  if (!e) {
    char names[256];
    list_names(problem->kind, names, sizeof names);
    nsd_report_start(report, name ? name : "");
    if (!names[0])
      return nsd_report_fail(report, NSD_BAD_INPUT, "no solver for %s problems in this version",
                             nsd_kind_name(problem->kind));
    return nsd_report_fail(report, NSD_BAD_INPUT, "unknown %s solver '%s'; available: %s",
                           nsd_kind_name(problem->kind), name, names);
  }
  // an option set away from its default that this solver does not read is a mistake
  if (options && nsd_options_check_solver(options, e, NULL) != NSD_OK) {
    nsd_report_start(report, e->name);
    return nsd_options_check_solver(options, e, report);
  }
  if (e->lcp) return e->lcp(problem->lcp, x, y, options, report);
  if (e->mlcp) return e->mlcp(problem->mlcp, x, y, options, report);
  if (e->gmp) return e->gmp(problem->gmp, x, y, options, report);
  if (e->rfc) return e->rfc(problem->rfc, x, y, options, report);
  if (e->gfc) return e->gfc(problem->gfc, x, y, NULL, options, report);
  return e->fc(problem->fc, x, y, options, report);
}

double nsd_problem_error(const NsdProblem* p, const double* x) {
  if (!p) return -1.0;
  switch (p->kind) {
    case NSD_KIND_LCP:
      return nsd_lcp_error(p->lcp, x, NULL);
    case NSD_KIND_MLCP:
      return nsd_mlcp_error(p->mlcp, x, NULL);
    case NSD_KIND_FC2D:
    case NSD_KIND_FC3D:
      return nsd_fc_error(p->fc, x, NULL);
    case NSD_KIND_GMP:
      return nsd_gmp_error(p->gmp, x, NULL);
    case NSD_KIND_RFC3D:
    case NSD_KIND_RFC2D:
      return nsd_rfc_error(p->rfc, x, NULL);
    case NSD_KIND_GFC2D:
    case NSD_KIND_GFC3D:
      return nsd_gfc_error_of_reaction(p->gfc, x);
    default:
      return -1.0;
  }
}

/* ---- auto ------------------------------------------------------------------- */

/* FC3D: contacts and density from which nsgs goes first (see nsd_auto_plan). */
#define AUTO_FC_LARGE_NC 3000
#define AUTO_FC_LOOSE_TOL 1e-6
#define AUTO_FC_DENSE 0.3
/* LCP/MLCP: size up to which pivoting goes first. */
#define AUTO_LCP_SMALL 1000

int nsd_auto_plan(const NsdProblem* p, const NsdSolverOptions* options, const char** names,
                  int capacity) {
  NsdSolverOptions o;
  if (options)
    o = *options;
  else
    nsd_solver_options_default(&o);
  const char* plan[NSD_AUTO_MAX_CANDIDATES] = {NULL};
  int n = 0;
  if (!p) return 0;
  if (p->kind == NSD_KIND_FC3D && p->fc) {
    const double m = 3.0 * p->fc->nc;
    const double nnz = p->fc->M ? (double)nsd_matrix_nnz(p->fc->M) : 0.0;
    const int large = p->fc->nc >= AUTO_FC_LARGE_NC &&
                      (o.tolerance >= AUTO_FC_LOOSE_TOL || nnz > AUTO_FC_DENSE * m * m);
    if (large) {
      plan[n++] = "nsgs";
      plan[n++] = "newton_ac";
      plan[n++] = "prox";
    } else {
      plan[n++] = "newton_ac";
      plan[n++] = "prox";
      plan[n++] = "nsgs";
    }
  } else if ((p->kind == NSD_KIND_GFC2D || p->kind == NSD_KIND_GFC3D) && p->gfc) {
    // the reduction first (exact where M is invertible), then the global methods when present
    static const char* const gfc_order[] = {"nsgs_wr", "admm", "ipm"};
    for (int k = 0; k < 3; ++k)
      if (nsd_solver_find(p->kind, gfc_order[k])) plan[n++] = gfc_order[k];
  } else if ((p->kind == NSD_KIND_LCP && p->lcp) || (p->kind == NSD_KIND_MLCP && p->mlcp)) {
    const int size = p->kind == NSD_KIND_LCP ? p->lcp->n : p->mlcp->size;
    if (size <= AUTO_LCP_SMALL) {
      plan[n++] = "lemke";
      plan[n++] = "newton_fb";
      plan[n++] = size <= o.enumerative.max_size ? "enum" : "newton_min";
    } else {
      plan[n++] = "newton_fb";
      plan[n++] = "newton_min";
      plan[n++] = "lemke";
    }
  }
  if (n > capacity) n = capacity;
  for (int k = 0; k < n; ++k) names[k] = plan[k];
  return n;
}

/* Append printf-style text to buf[size]. */
static void append(char* buf, size_t size, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void append(char* buf, size_t size, const char* format, ...) {
  const size_t used = strlen(buf);
  if (used + 1 >= size) return;
  va_list args;
  va_start(args, format);
  vsnprintf(buf + used, size - used, format, args);
  va_end(args);
}

NsdStatus nsd_solve_auto(const NsdProblem* problem, double* x, double* y,
                         const NsdSolverOptions* options, const NsdAutoParams* params,
                         NsdReport* report) {
  NsdReport own;
  if (!report) {
    memset(&own, 0, sizeof own);
    report = &own;
  }
  NsdSolverOptions opt;
  if (nsd_solver_begin("auto", options, &opt, report) != NSD_OK) return NSD_BAD_INPUT;
  if (!problem || problem->kind == NSD_KIND_UNKNOWN)
    return nsd_report_fail(report, NSD_BAD_INPUT, "auto: no problem given");

  const char* plan[NSD_AUTO_MAX_CANDIDATES] = {NULL};
  int count = 0;
  if (params && params->candidates[0]) {
    while (count < NSD_AUTO_MAX_CANDIDATES && params->candidates[count]) {
      plan[count] = params->candidates[count];
      ++count;
    }
  } else {
    count = nsd_auto_plan(problem, &opt, plan, NSD_AUTO_MAX_CANDIDATES);
  }
  if (count == 0)
    return nsd_report_fail(report, NSD_BAD_INPUT, "auto: no automatic choice for %s problems",
                           nsd_kind_name(problem->kind));
  for (int k = 0; k < count; ++k)
    if (!nsd_solver_find(problem->kind, plan[k]) || strcmp(plan[k], "auto") == 0)
      return nsd_report_fail(report, NSD_BAD_INPUT, "auto: no %s solver '%s' to try",
                             nsd_kind_name(problem->kind), plan[k]);

  const int n = nsd_problem_size(problem);
  const size_t bytes = (size_t)(n > 0 ? n : 1) * sizeof(double);
  double* buf = malloc(3 * bytes);
  if (!buf) return nsd_report_fail(report, NSD_FAILED, "auto: out of memory, n=%d", n);
  double *x0 = buf, *xb = buf + (n > 0 ? n : 1), *yb = xb + (n > 0 ? n : 1);
  if (n > 0 && x) memcpy(x0, x, (size_t)n * sizeof(double));

  char tried[256] = "";
  const char* best_name = NULL;
  double best = INFINITY;
  NsdStatus best_status = NSD_BAD_INPUT;
  int iterations = 0, all_bad_input = 1, converged = 0, timed_out = 0;
  for (int k = 0; k < count && !converged; ++k) {
    NsdSolverOptions so = opt;
    if (opt.time_limit > 0.0) {
      so.time_limit = opt.time_limit - (nsd_wall_time() - report->start_time);
      if (so.time_limit <= 0.0) {
        // the first candidate always runs (stopped by its own clock), so that an
        // answer and its residual are returned
        if (k > 0) {
          timed_out = 1;
          break;
        }
        so.time_limit = 1e-12;
      }
    }
    if (k == 0 && params && params->first_max_iterations > 0)
      so.max_iterations = params->first_max_iterations;
    if (n > 0 && x && k > 0) memcpy(x, x0, (size_t)n * sizeof(double));
    // each candidate gets the options it reads (auto accepts every option)
    nsd_options_restrict(&so, nsd_solver_find(problem->kind, plan[k]));
    // FC3D Gauss-Seidel accelerated (NSD_AUTO_ANDERSON) unless the caller chose a memory
    if (problem->kind == NSD_KIND_FC3D && strcmp(plan[k], "nsgs") == 0 && so.nsgs.anderson == 0)
      so.nsgs.anderson = NSD_AUTO_ANDERSON;

    NsdReport stage;
    memset(&stage, 0, sizeof stage);
    if (report->history && report->history_length < report->history_capacity) {
      stage.history = report->history + report->history_length;
      stage.history_capacity = report->history_capacity - report->history_length;
    }
    const NsdStatus st = nsd_solve(problem, plan[k], x, y, &so, &stage);
    report->history_length += stage.history_length;
    iterations += stage.iterations;
    append(tried, sizeof tried, "%s%s %s (%d it, %.2e)", k ? "; " : "", plan[k],
           nsd_status_name(st), stage.iterations, stage.residual);
    if (st != NSD_BAD_INPUT) all_bad_input = 0;
    converged = st == NSD_OK;
    // keep the converged answer, or else the smallest residual
    if (converged || (st != NSD_BAD_INPUT && (best_name == NULL || stage.residual < best))) {
      best = stage.residual;
      best_name = plan[k];
      best_status = st;
      if (!converged && n > 0 && x && y) {
        memcpy(xb, x, (size_t)n * sizeof(double));
        memcpy(yb, y, (size_t)n * sizeof(double));
      }
    }
    if (st == NSD_OK) break;
    if (opt.time_limit > 0.0 && nsd_wall_time() - report->start_time >= opt.time_limit) {
      timed_out = k + 1 < count;
      break;
    }
  }

  report->iterations = iterations;
  if (best_name) {
    snprintf(report->solver, sizeof report->solver, "auto:%s", best_name);
    if (!converged && n > 0 && x && y) {
      memcpy(x, xb, (size_t)n * sizeof(double));
      memcpy(y, yb, (size_t)n * sizeof(double));
    }
    report->residual = best;
  } else {
    if (n > 0 && x) memcpy(x, x0, (size_t)n * sizeof(double));
    report->residual = INFINITY;
  }
  free(buf);

  if (converged) {
    nsd_report_finish(report, INFINITY);
    report->status = NSD_OK;
    snprintf(report->message, sizeof report->message, "auto tried: %s", tried);
    return NSD_OK;
  }
  const NsdStatus status = all_bad_input                        ? NSD_BAD_INPUT
                           : timed_out || best_status == NSD_OK ? NSD_MAX_ITERATIONS
                                                                : best_status;
  nsd_report_fail(report, status, "auto%s: no candidate converged; tried: %s",
                  timed_out ? " (time limit reached)" : "", tried);
  report->seconds = nsd_wall_time() - report->start_time;
  return status;
}

NsdStatus nsd_fc3d_auto(const NsdFc* p, double* r, double* u, const NsdSolverOptions* options,
                        NsdReport* report) {
  NsdProblem prob = {.kind = NSD_KIND_FC3D, .fc = (NsdFc*)p};
  return nsd_solve_auto(&prob, r, u, options, NULL, report);
}

NsdStatus nsd_lcp_auto(const NsdLcp* p, double* z, double* w, const NsdSolverOptions* options,
                       NsdReport* report) {
  NsdProblem prob = {.kind = NSD_KIND_LCP, .lcp = (NsdLcp*)p};
  return nsd_solve_auto(&prob, z, w, options, NULL, report);
}

NsdStatus nsd_mlcp_auto(const NsdMlcp* p, double* z, double* w, const NsdSolverOptions* options,
                        NsdReport* report) {
  NsdProblem prob = {.kind = NSD_KIND_MLCP, .mlcp = (NsdMlcp*)p};
  return nsd_solve_auto(&prob, z, w, options, NULL, report);
}
