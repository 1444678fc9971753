/* The factorisation of M used by the global friction-contact solvers: M split
 * into the connected components of its graph (a block-diagonal mass matrix has
 * one per body), each factorised alone with the library's factorisations
 * (LAPACK for small components, CHOLMOD or KLU for large ones), so that
 * M^-1 h for a column h of H costs only the components h touches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/solver_core.h"
#include "gfc/gfc_internal.h"
#include "matrix/matrix_internal.h"

/* Union-find root with path halving. */
static int find_root(int* parent, int i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

/* Components of the graph of canonical c (n x n): fills f->component, start, rows. */
static int split_components(const cs_di* c, NsdGfcFactor* f) {
  const int n = f->n;
  int* parent = malloc(((size_t)n + 1) * sizeof *parent);
  int* label = malloc(((size_t)n + 1) * sizeof *label);
  if (!parent || !label) {
    free(parent);
    free(label);
    return 0;
  }
  for (int i = 0; i < n; ++i) parent[i] = i;
  for (int j = 0; j < n; ++j)
    for (int k = c->p[j]; k < c->p[j + 1]; ++k) {
      int a = find_root(parent, c->i[k]), b = find_root(parent, j);
      if (a != b) parent[a < b ? b : a] = a < b ? a : b;
    }
  // number the components by their smallest row
  int count = 0;
  for (int i = 0; i < n; ++i) label[i] = -1;
  for (int i = 0; i < n; ++i) {
    int r = find_root(parent, i);
    if (label[r] < 0) label[r] = count++;
    f->component[i] = label[r];
  }
  free(parent);
  free(label);
  f->n_components = count;
  f->start = calloc((size_t)count + 1, sizeof *f->start);
  if (!f->start) return 0;
  for (int i = 0; i < n; ++i) ++f->start[f->component[i] + 1];
  for (int k = 0; k < count; ++k) f->start[k + 1] += f->start[k];
  int* fill = malloc(((size_t)count + 1) * sizeof *fill);
  if (!fill) return 0;
  memcpy(fill, f->start, (size_t)count * sizeof *fill);
  for (int i = 0; i < n; ++i) f->rows[fill[f->component[i]]++] = i;
  free(fill);
  return 1;
}

/* M restricted to the rows of component k (dense when small, else CSC). */
static NsdMatrix* component_matrix(const cs_di* c, const NsdGfcFactor* f, int k, int* local) {
  const int s = f->start[k], size = f->start[k + 1] - s;
  for (int t = 0; t < size; ++t) local[f->rows[s + t]] = t;
  if (size <= GFC_DENSE_COMPONENT) {
    NsdMatrix* a = nsd_matrix_create_dense(size, size);
    if (!a) return NULL;
    for (int t = 0; t < size; ++t) {
      const int j = f->rows[s + t];
      for (int e = c->p[j]; e < c->p[j + 1]; ++e)
        a->dense[(size_t)local[c->i[e]] + (size_t)t * (size_t)size] += c->x[e];
    }
    return a;
  }
  int nnz = 0;
  for (int t = 0; t < size; ++t) nnz += c->p[f->rows[s + t] + 1] - c->p[f->rows[s + t]];
  int* p = malloc(((size_t)size + 1) * sizeof *p);
  int* i = malloc(((size_t)nnz + 1) * sizeof *i);
  double* x = malloc(((size_t)nnz + 1) * sizeof *x);
  NsdMatrix* a = NULL;
  if (p && i && x) {
    int at = 0;
    for (int t = 0; t < size; ++t) {
      const int j = f->rows[s + t];
      p[t] = at;
      for (int e = c->p[j]; e < c->p[j + 1]; ++e) {
        i[at] = local[c->i[e]];
        x[at++] = c->x[e];
      }
    }
    p[size] = at;
    a = nsd_matrix_create_csc(size, size, p, i, x);
  }
  free(p);
  free(i);
  free(x);
  return a;
}

/* Cholesky, else LU, of one matrix; the LU's message in @p why on failure. */
static NsdFactor* factor_one(const NsdMatrix* a, char* why, size_t size) {
  NsdFactor* f = NULL;
  if (nsd_factor_create(a, NSD_FACTOR_CHOLESKY, &f, NULL) == NSD_OK) return f;
  NsdReport lu;
  memset(&lu, 0, sizeof lu);
  if (nsd_factor_create(a, NSD_FACTOR_LU, &f, &lu) == NSD_OK) return f;
  snprintf(why, size, "%s", lu.message[0] ? lu.message : "singular");
  return NULL;
}

void nsd_gfc_factor_destroy(NsdGfcFactor* f) {
  if (!f) return;
  if (f->parts)
    for (int k = 0; k < f->n_components; ++k) nsd_factor_destroy(f->parts[k]);
  free(f->parts);
  free(f->component);
  free(f->start);
  free(f->rows);
  free(f->work);
  free(f);
}

NsdStatus nsd_gfc_factor_m(const NsdGfc* p, NsdGfcFactor** factor, NsdReport* report) {
  *factor = NULL;
  if (!p || !p->M) return nsd_report_fail(report, NSD_BAD_INPUT, "GFC: problem or M is NULL");
  const int n = p->n;
  NsdGfcFactor* f = calloc(1, sizeof *f);
  cs_di* c = nsd_matrix_to_cs(p->M);
  int* local = malloc(((size_t)n + 1) * sizeof *local);
  int ok = f && c && local;
  if (ok) {
    f->n = n;
    f->component = malloc(((size_t)n + 1) * sizeof *f->component);
    f->rows = malloc(((size_t)n + 1) * sizeof *f->rows);
    ok = f->component && f->rows && split_components(c, f);
  }
  int largest = 0;
  for (int k = 0; ok && k < f->n_components; ++k)
    if (f->start[k + 1] - f->start[k] > largest) largest = f->start[k + 1] - f->start[k];
  if (ok) {
    f->parts = calloc((size_t)f->n_components + 1, sizeof *f->parts);
    f->work = malloc(((size_t)largest + 1) * sizeof *f->work);
    ok = f->parts && f->work;
  }
  char why[256] = "";
  int bad = -1;
  for (int k = 0; ok && k < f->n_components; ++k) {
    // one component: the whole M as it is stored (no copy)
    NsdMatrix* a = f->n_components == 1 ? NULL : component_matrix(c, f, k, local);
    if (f->n_components > 1 && !a) {
      ok = 0;
      break;
    }
    f->parts[k] = factor_one(a ? a : p->M, why, sizeof why);
    nsd_matrix_destroy(a);
    if (!f->parts[k]) bad = k;
    ok = f->parts[k] != NULL;
  }
  cs_di_spfree(c);
  free(local);
  if (ok) {
    *factor = f;
    return NSD_OK;
  }
  NsdStatus st;
  if (bad < 0)
    st = nsd_report_fail(report, NSD_FAILED, "GFC: out of memory factorising M (%d x %d)", n, n);
  else if (f->n_components == 1)
    st = nsd_report_fail(report, NSD_FAILED,
                         "GFC: M (%d x %d) is not positive definite and cannot be factorised (%s)",
                         n, n, why);
  else
    st = nsd_report_fail(report, NSD_FAILED,
                         "GFC: M (%d x %d) is not positive definite and cannot be factorised: "
                         "its diagonal block of %d row(s) from row %d (%s)",
                         n, n, f->start[bad + 1] - f->start[bad], f->rows[f->start[bad]], why);
  nsd_gfc_factor_destroy(f);
  return st;
}

NsdStatus nsd_gfc_factor_solve_part(const NsdGfcFactor* f, int k, double* b) {
  return nsd_factor_solve(f->parts[k], b);
}

NsdStatus nsd_gfc_factor_solve(const NsdGfcFactor* f, double* b) {
  if (f->n_components == 1) return nsd_factor_solve(f->parts[0], b);
  for (int k = 0; k < f->n_components; ++k) {
    const int s = f->start[k], size = f->start[k + 1] - s;
    for (int t = 0; t < size; ++t) f->work[t] = b[f->rows[s + t]];
    if (nsd_factor_solve(f->parts[k], f->work) != NSD_OK) return NSD_FAILED;
    for (int t = 0; t < size; ++t) b[f->rows[s + t]] = f->work[t];
  }
  return NSD_OK;
}
