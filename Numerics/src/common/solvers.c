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
    {.name = "lemke", .kind = NSD_KIND_LCP,
     .description = "lexicographic Lemke pivoting (exact; reports ray termination)",
     .lcp = nsd_lcp_lemke, .is_default = 1},
    {.name = "nlgs", .kind = NSD_KIND_LCP,
     .description = "projected Gauss-Seidel, relaxation omega (needs M_ii > 0)",
     .lcp = nsd_lcp_nlgs},
    {.name = "pgs", .kind = NSD_KIND_LCP,
     .description = "same as nlgs (projected Gauss-Seidel)",
     .lcp = nsd_lcp_nlgs},
    {.name = "psor", .kind = NSD_KIND_LCP,
     .description = "projected SOR: nlgs with the relaxation option",
     .lcp = nsd_lcp_psor},
    {.name = "block_pgs", .kind = NSD_KIND_LCP,
     .description = "block projected Gauss-Seidel, each block solved exactly",
     .lcp = nsd_lcp_pgs_block},
    {.name = "enum", .kind = NSD_KIND_LCP,
     .description = "enumeration of complementary bases (small n)",
     .lcp = nsd_lcp_enum},
    {.name = "newton_fb", .kind = NSD_KIND_LCP,
     .description = "semismooth Newton, Fischer-Burmeister, Armijo line search",
     .lcp = nsd_lcp_newton_fb},
    {.name = "newton_min", .kind = NSD_KIND_LCP,
     .description = "semismooth Newton, min function, Armijo line search",
     .lcp = nsd_lcp_newton_min},
    {.name = "newton_min_fblsa", .kind = NSD_KIND_LCP,
     .description = "semismooth Newton, min-function direction, Fischer-Burmeister line search",
     .lcp = nsd_lcp_newton_min_fblsa},
    {.name = "lemke", .kind = NSD_KIND_MLCP,
     .description = "free rows by Schur complement, then lexicographic Lemke",
     .mlcp = nsd_mlcp_lemke, .is_default = 1},
    {.name = "enum", .kind = NSD_KIND_MLCP,
     .description = "direct: enumeration of active sets, LU per case",
     .mlcp = nsd_mlcp_enum},
    {.name = "pgs", .kind = NSD_KIND_MLCP,
     .description = "projected Gauss-Seidel over the box form",
     .mlcp = nsd_mlcp_pgs},
    {.name = "newton_fb", .kind = NSD_KIND_MLCP,
     .description = "semismooth Newton, Fischer-Burmeister on boxes",
     .mlcp = mlcp_newton_fb},
    {.name = "newton_min", .kind = NSD_KIND_MLCP,
     .description = "semismooth Newton, min/mid function on boxes",
     .mlcp = mlcp_newton_min},
    {.name = "nsgs", .kind = NSD_KIND_FC3D,
     .description = "nonsmooth Gauss-Seidel over contacts, local Alart-Curnier Newton",
     .fc = nsd_fc3d_nsgs},
    {.name = "psor", .kind = NSD_KIND_FC3D,
     .description = "projected SOR on the friction cones (one step per contact)",
     .fc = nsd_fc3d_psor},
    {.name = "apgd", .kind = NSD_KIND_FC3D,
     .description = "accelerated projected gradient (Nesterov, restart), De Saxce loop",
     .fc = nsd_fc3d_apgd},
    {.name = "bb", .kind = NSD_KIND_FC3D,
     .description = "projected gradient, Barzilai-Borwein steps, non-monotone search",
     .fc = nsd_fc3d_bb},
    {.name = "admm", .kind = NSD_KIND_FC3D,
     .description = "ADMM with adaptive penalty, De Saxce shift",
     .fc = nsd_fc3d_admm},
    {.name = "newton_ac", .kind = NSD_KIND_FC3D,
     .description = "global Alart-Curnier Newton, sparse LU, line search",
     .fc = nsd_fc3d_newton_ac, .is_default = 1},
    {.name = "newton_fb", .kind = NSD_KIND_FC3D,
     .description = "global Fischer-Burmeister Newton, sparse LU, line search",
     .fc = nsd_fc3d_newton_fb},
    {.name = "nsgs", .kind = NSD_KIND_FC2D,
     .description = "nonsmooth Gauss-Seidel, exact 2x2 local solves",
     .fc = nsd_fc2d_nsgs, .is_default = 1},
    {.name = "lemke", .kind = NSD_KIND_FC2D,
     .description = "LCP reformulation of 2D friction, lexicographic Lemke",
     .fc = nsd_fc2d_lemke},
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
                             "no solver for %s problems in this version (global friction "
                             "contact is read and written, not solved yet)",
                             nsd_kind_name(problem->kind));
    return nsd_report_fail(report, NSD_BAD_INPUT, "unknown %s solver '%s'; available: %s",
                           nsd_kind_name(problem->kind), name, names);
  }
  if (e->lcp) return e->lcp(problem->lcp, x, y, options, report);
  if (e->mlcp) return e->mlcp(problem->mlcp, x, y, options, report);
  return e->fc(problem->fc, x, y, options, report);
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
