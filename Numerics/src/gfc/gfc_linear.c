/* The sparse system M + alpha H D H^T of the global friction-contact ADMM and
 * interior-point solvers (gfc_solver_internal.h). D is stored in CSC with
 * every entry of its dim x dim diagonal blocks (zeros included), so that the
 * products H D H^T made by CXSparse (cs_multiply keeps structural zeros) and
 * the sum with M (cs_add) have the same pattern at every call: the pattern is
 * analysed once (CHOLMOD with AMD, or the LU of nsd_factor_refactor) and only
 * the numeric factorisation is redone. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef NCOMPLEX
#define NCOMPLEX
#endif
#include <cs.h>

#include "common/solver_core.h"
#include "gfc/gfc_solver_internal.h"

/* M is factorised by Cholesky when max |M_ij - M_ji| is below this fraction of
 * max |M_ij| (round-off of an assembled matrix), by LU otherwise. */
#define GFC_SYMMETRY_ROUNDOFF 1e-13

double nsd_gfc_norm(const double* x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  return sqrt(s);
}

double nsd_gfc_reaction_check(const NsdGfc* p, const double* r, double* v_r, int* m_singular) {
  if (*m_singular) return INFINITY;
  if (nsd_gfc_velocity(p, r, v_r, NULL) != NSD_OK) {
    *m_singular = 1;
    return INFINITY;
  }
  return nsd_gfc_error(p, r, v_r, NULL);
}

NsdStatus nsd_gfc_solver_check(const NsdGfc* p, const double* r, const double* u,
                               const NsdSolverOptions* o, const char* solver, NsdReport* report) {
  if (!nsd_gfc_check(p, report)) return NSD_BAD_INPUT;
  int m = p->dim * p->nc;
  if (m > 0 && (!r || !u))
    return nsd_report_fail(report, NSD_BAD_INPUT, "%s: r or u is NULL", solver);
  if (o->warm_start && m > 0 && !nsd_all_finite(r, (size_t)m))
    return nsd_report_fail(report, NSD_BAD_INPUT, "%s: warm-start r is not finite", solver);
  return NSD_OK;
}

NsdReport* nsd_gfc_solver_begin(const char* name, const char* solver, const NsdGfc* p,
                                const double* r, const double* u, const NsdSolverOptions* options,
                                NsdSolverOptions* opts, NsdReport* report, NsdReport* local) {
  NsdReport* rep = report ? report : local;
  if (!report) local->history = NULL;
  if (nsd_solver_begin(name, options, opts, rep) != NSD_OK) return NULL;
  if (nsd_gfc_solver_check(p, r, u, opts, solver, rep) != NSD_OK) return NULL;
  return rep;
}

double* nsd_gfc_solver_workspace(const NsdGfc* p, size_t doubles, NsdGfcSystem* s,
                                 const char* solver, NsdReport* report) {
  double* block = malloc(doubles * sizeof *block);
  NsdStatus st = block ? nsd_gfc_system_init(s, p, report) : NSD_FAILED;
  if (st != NSD_OK) {
    if (block) nsd_gfc_system_free(s);
    free(block);
    nsd_report_fail(report, NSD_FAILED, "%s: out of memory (n = %d, m = %d)", solver, p->n,
                    p->dim * p->nc);
    return NULL;
  }
  return block;
}

static double max_abs(const cs_di* a) {
  double v = 0.0;
  for (int k = 0; k < a->p[a->n]; ++k) v = fmax(v, fabs(a->x[k]));
  return v;
}

NsdStatus nsd_gfc_system_init(NsdGfcSystem* s, const NsdGfc* p, NsdReport* report) {
  memset(s, 0, sizeof *s);
  s->n = p->n;
  s->dim = p->dim;
  s->nc = p->nc;
  s->m = p->dim * p->nc;
  s->M = nsd_matrix_convert(p->M, NSD_CSC, 0);
  s->H = nsd_matrix_convert(p->H, NSD_CSC, 0);
  if (s->M && s->H) s->Ht = cs_transpose((const cs_di*)s->H->csc, 1);
  int dim = s->dim, m = s->m;
  if (s->Ht) s->D = cs_spalloc(m, m, m > 0 ? m * dim : 1, 1, 0);
  if (s->D) s->I = cs_spalloc(s->n, s->n, s->n > 0 ? s->n : 1, 1, 0);
  if (!s->I)
    return nsd_report_fail(report, NSD_FAILED, "GFC: out of memory (n = %d, %d contacts)", s->n,
                           s->nc);
  for (int j = 0; j <= s->n; ++j) s->I->p[j] = j;
  for (int j = 0; j < s->n; ++j) {
    s->I->i[j] = j;
    s->I->x[j] = 1.0;
  }
  for (int j = 0; j <= m; ++j) s->D->p[j] = j * dim;
  for (int j = 0; j < m; ++j)
    for (int k = 0; k < dim; ++k) s->D->i[j * dim + k] = (j / dim) * dim + k;
  const cs_di* Mc = (const cs_di*)s->M->csc;
  s->kind = nsd_matrix_asymmetry(s->M) <= GFC_SYMMETRY_ROUNDOFF * max_abs(Mc) ? NSD_FACTOR_CHOLESKY
                                                                              : NSD_FACTOR_LU;
  return NSD_OK;
}

void nsd_gfc_system_free(NsdGfcSystem* s) {
  nsd_factor_destroy(s->factor);
  nsd_matrix_destroy(s->M);
  nsd_matrix_destroy(s->H);
  cs_spfree(s->Ht);
  cs_spfree(s->D);
  cs_spfree(s->I);
  memset(s, 0, sizeof *s);
}

/* Analyse (first call) and factorise a with the kind of s. */
static NsdStatus factor_with_kind(NsdGfcSystem* s, const NsdMatrix* a, NsdReport* report) {
  if (!s->factor) {
    NsdStatus st = nsd_factor_analyse(a, s->kind, &s->factor, report);
    if (st != NSD_OK) return st;
  }
  return nsd_factor_refactor(s->factor, a, report);
}

NsdStatus nsd_gfc_system_factor(NsdGfcSystem* s, double alpha, const double* blocks, double shift,
                                NsdReport* report) {
  int dim = s->dim, m = s->m;
  double* dx = s->D->x;
  if (blocks) {
    memcpy(dx, blocks, (size_t)m * (size_t)dim * sizeof *dx);
  } else {
    memset(dx, 0, (size_t)m * (size_t)dim * sizeof *dx);
    for (int j = 0; j < m; ++j) dx[j * dim + j % dim] = 1.0;
  }
  cs_di* hd = cs_multiply((const cs_di*)s->H->csc, s->D);
  cs_di* hdh = hd ? cs_multiply(hd, s->Ht) : NULL;
  cs_di* a0 = hdh ? cs_add((const cs_di*)s->M->csc, hdh, 1.0, alpha) : NULL;
  double dmax = 0.0;
  for (int j = 0; a0 && shift != 0.0 && j < a0->n; ++j)
    for (int k = a0->p[j]; k < a0->p[j + 1]; ++k)
      if (a0->i[k] == j) dmax = fmax(dmax, fabs(a0->x[k]));
  // + shift max|a_jj| I, the diagonal always stored
  cs_di* a = a0 ? cs_add(a0, s->I, 1.0, shift * dmax) : NULL;
  cs_spfree(hd);
  cs_spfree(hdh);
  cs_spfree(a0);
  if (!a) return nsd_report_fail(report, NSD_FAILED, "GFC: out of memory assembling M + H D H^T");
  NsdMatrix wrap = {.storage = NSD_CSC, .rows = s->n, .cols = s->n, .csc = (void*)a};
  NsdStatus st = factor_with_kind(s, &wrap, report);
  if (st == NSD_BAD_INPUT) {
    // a pattern the analysis does not know (cannot happen by construction): analyse anew
    nsd_factor_destroy(s->factor);
    s->factor = NULL;
    st = factor_with_kind(s, &wrap, report);
  }
  if (st != NSD_OK && s->kind == NSD_FACTOR_CHOLESKY) {
    nsd_factor_destroy(s->factor);
    s->factor = NULL;
    s->kind = NSD_FACTOR_LU;
    s->lu_fallback = 1;
    st = factor_with_kind(s, &wrap, report);
  }
  cs_spfree(a);
  return st;
}

NsdStatus nsd_gfc_system_solve(const NsdGfcSystem* s, double* x) {
  if (s->n == 0) return NSD_OK;
  return nsd_factor_solve(s->factor, x);
}
