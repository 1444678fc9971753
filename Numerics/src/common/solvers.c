/* The solver table: every solver of the library, by problem kind and name.
 * One explicit table (it also drives `nsdyn solve --list-solvers`). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsdyn/nsd_solvers.h"

/* MLCP Newton with each merit, so that both can be chosen by name. */
static NsdStatus mlcp_newton_with(NsdNewtonMerit merit, const NsdMlcp* p, double* z, double* w,
                                  const NsdSolverOptions* options, NsdReport* report) {
  NsdSolverOptions o;
  if (options) o = *options;
  else nsd_solver_options_default(&o);
  o.newton.merit = merit;
  return nsd_mlcp_newton(p, z, w, &o, report);
}
static NsdStatus mlcp_newton_fb(const NsdMlcp* p, double* z, double* w,
                                const NsdSolverOptions* o, NsdReport* r) {
  return mlcp_newton_with(NSD_MERIT_FISCHER_BURMEISTER, p, z, w, o, r);
}
static NsdStatus mlcp_newton_min(const NsdMlcp* p, double* z, double* w,
                                 const NsdSolverOptions* o, NsdReport* r) {
  return mlcp_newton_with(NSD_MERIT_MIN, p, z, w, o, r);
}

static const NsdSolverEntry kTable[] = {
    {"lemke", NSD_KIND_LCP, "lexicographic Lemke pivoting (exact; reports ray termination)",
     nsd_lcp_lemke, NULL, 1},
    {"nlgs", NSD_KIND_LCP, "projected Gauss-Seidel, relaxation omega (needs M_ii > 0)",
     nsd_lcp_nlgs, NULL, 0},
    {"pgs", NSD_KIND_LCP, "same as nlgs (projected Gauss-Seidel)", nsd_lcp_nlgs, NULL, 0},
    {"psor", NSD_KIND_LCP, "projected SOR: nlgs with the relaxation option", nsd_lcp_psor, NULL,
     0},
    {"block_pgs", NSD_KIND_LCP, "block projected Gauss-Seidel, each block solved exactly",
     nsd_lcp_pgs_block, NULL, 0},
    {"enum", NSD_KIND_LCP, "enumeration of complementary bases (small n)", nsd_lcp_enum, NULL,
     0},
    {"newton_fb", NSD_KIND_LCP, "semismooth Newton, Fischer-Burmeister, Armijo line search",
     nsd_lcp_newton_fb, NULL, 0},
    {"newton_min", NSD_KIND_LCP, "semismooth Newton, min function, Armijo line search",
     nsd_lcp_newton_min, NULL, 0},
    {"lemke", NSD_KIND_MLCP, "free rows by Schur complement, then lexicographic Lemke", NULL,
     nsd_mlcp_lemke, 1},
    {"enum", NSD_KIND_MLCP, "direct: enumeration of active sets, LU per case", NULL,
     nsd_mlcp_enum, 0},
    {"pgs", NSD_KIND_MLCP, "projected Gauss-Seidel over the box form", NULL, nsd_mlcp_pgs, 0},
    {"newton_fb", NSD_KIND_MLCP, "semismooth Newton, Fischer-Burmeister on boxes", NULL,
     mlcp_newton_fb, 0},
    {"newton_min", NSD_KIND_MLCP, "semismooth Newton, min/mid function on boxes", NULL,
     mlcp_newton_min, 0},
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
      return nsd_report_fail(report, NSD_BAD_INPUT,
                             "no solver for %s problems in this version (friction-contact "
                             "solvers are not built yet)",
                             nsd_kind_name(problem->kind));
    return nsd_report_fail(report, NSD_BAD_INPUT, "unknown %s solver '%s'; available: %s",
                           nsd_kind_name(problem->kind), name, names);
  }
  if (e->lcp) return e->lcp(problem->lcp, x, y, options, report);
  return e->mlcp(problem->mlcp, x, y, options, report);
}

double nsd_problem_error(const NsdProblem* p, const double* x) {
  if (!p) return -1.0;
  switch (p->kind) {
    case NSD_KIND_LCP: return nsd_lcp_error(p->lcp, x, NULL);
    case NSD_KIND_MLCP: return nsd_mlcp_error(p->mlcp, x, NULL);
    case NSD_KIND_FC2D:
    case NSD_KIND_FC3D: return nsd_fc_error(p->fc, x, NULL);
    default: return -1.0;
  }
}
