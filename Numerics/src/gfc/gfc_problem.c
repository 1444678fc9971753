/* The global friction-contact problem (nsd_gfc.h): the Siconos error, the
 * velocity v = M^-1 (q + H r) and the reduction to the local problem
 * W = H^T M^-1 H, all through one factorisation of M by components (gfc_factor.c). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/solver_core.h"
#include "friction/fc_cone.h"
#include "gfc/gfc_internal.h"
#include "matrix/matrix_internal.h"

/* The scales below which Siconos's gfc3d error leaves a term unscaled. */
#define GFC_MIN_SCALE 1.4901161193847656e-08 /* sqrt(DBL_EPSILON) */

static double norm2(const double* x, size_t n) {
  double s = 0.0;
  for (size_t i = 0; i < n; ++i) s += x[i] * x[i];
  return sqrt(s);
}

double nsd_gfc_error_parts(const NsdGfc* p, const double* r, const double* v, double* u_out,
                           double* primal, double* comp) {
  if (primal) *primal = INFINITY;
  if (comp) *comp = INFINITY;
  if (!p || !v || (!r && p->nc > 0)) return INFINITY;
  const size_t n = (size_t)(p->n > 0 ? p->n : 0), m = (size_t)p->dim * (size_t)p->nc;
  double* hr = calloc(n + 1, sizeof *hr);
  double* mv = calloc(n + 1, sizeof *mv);
  double* u = u_out ? u_out : calloc(m + 1, sizeof *u);
  double e = INFINITY;
  if (hr && mv && u) {
    // equilibrium: q + H r - M v, scaled by max(||q||, ||M v||, ||H r||)
    if (m > 0) nsd_matrix_gemv(1.0, p->H, r, 0.0, hr);
    if (n > 0) nsd_matrix_gemv(1.0, p->M, v, 0.0, mv);
    const double nq = norm2(p->q, n), nhr = norm2(hr, n), nmv = norm2(mv, n);
    double s = 0.0;
    for (size_t i = 0; i < n; ++i) {
      const double d = p->q[i] + hr[i] - mv[i];
      s += d * d;
    }
    double ep = sqrt(s);
    const double scale = fmax(nq, fmax(nmv, nhr));
    if (scale > GFC_MIN_SCALE) ep /= scale;
    // Coulomb: natural map with De Saxce's change on u = H^T v + b, over max(||u||, ||r||)
    if (m > 0) {
      memcpy(u, p->b, m * sizeof *u);
      nsd_matrix_gemv_t(1.0, p->H, v, 1.0, u);
    }
    double t[3] = {0.0, 0.0, 0.0};
    for (int a = 0; a < p->nc; ++a)
      nsd_fcc_natural_terms(p->dim, p->mu[a], r + (size_t)p->dim * a, u + (size_t)p->dim * a, 1, t);
    double ec = sqrt(t[0]);
    const double cscale = fmax(sqrt(t[1]), sqrt(t[2]));
    if (cscale > GFC_MIN_SCALE) ec /= cscale;
    if (primal) *primal = isfinite(ep) ? ep : INFINITY;
    if (comp) *comp = isfinite(ec) ? ec : INFINITY;
    e = ep + ec;
    if (!isfinite(e)) e = INFINITY;
  }
  free(hr);
  free(mv);
  if (!u_out) free(u);
  return e;
}

double nsd_gfc_error(const NsdGfc* problem, const double* r, const double* v, double* u_out) {
  return nsd_gfc_error_parts(problem, r, v, u_out, NULL, NULL);
}

NsdStatus nsd_gfc_velocity_with(const NsdGfc* p, const NsdGfcFactor* factor, const double* r,
                                double* v) {
  const size_t n = (size_t)p->n;
  if (n == 0) return NSD_OK;
  memcpy(v, p->q, n * sizeof *v);
  if (p->nc > 0) nsd_matrix_gemv(1.0, p->H, r, 1.0, v);
  if (nsd_gfc_factor_solve(factor, v) != NSD_OK) return NSD_FAILED;
  return nsd_all_finite(v, n) ? NSD_OK : NSD_FAILED;
}

NsdStatus nsd_gfc_velocity(const NsdGfc* problem, const double* r, double* v, NsdReport* report) {
  if (!problem || !v || (!r && problem->nc > 0))
    return nsd_report_fail(report, NSD_BAD_INPUT, "GFC velocity: NULL argument");
  NsdGfcFactor* f = NULL;
  NsdStatus st = nsd_gfc_factor_m(problem, &f, report);
  if (st != NSD_OK) return st;
  st = nsd_gfc_velocity_with(problem, f, r, v);
  nsd_gfc_factor_destroy(f);
  if (st != NSD_OK)
    return nsd_report_fail(report, NSD_FAILED, "GFC: the solve with M gave a non-finite velocity");
  return NSD_OK;
}

double nsd_gfc_error_of_reaction(const NsdGfc* problem, const double* r) {
  if (!problem) return INFINITY;
  double* v = calloc((size_t)(problem->n > 0 ? problem->n : 0) + 1, sizeof *v);
  double e = INFINITY;
  if (v && nsd_gfc_velocity(problem, r, v, NULL) == NSD_OK) e = nsd_gfc_error(problem, r, v, NULL);
  free(v);
  return e;
}

/* ---- reduction ---------------------------------------------------------------- */

/* Triplets of W, grown by doubling. */
typedef struct Triplets {
  int *i, *j;
  double* x;
  size_t count, capacity;
} Triplets;

static int triplets_push(Triplets* t, int i, int j, double x) {
  if (t->count == t->capacity) {
    const size_t cap = t->capacity ? 2 * t->capacity : 1024;
    int* ni = realloc(t->i, cap * sizeof *ni);
    if (ni) t->i = ni;
    int* nj = realloc(t->j, cap * sizeof *nj);
    if (nj) t->j = nj;
    double* nx = realloc(t->x, cap * sizeof *nx);
    if (nx) t->x = nx;
    if (!ni || !nj || !nx) return 0;
    t->capacity = cap;
  }
  t->i[t->count] = i;
  t->j[t->count] = j;
  t->x[t->count] = x;
  ++t->count;
  return 1;
}

/* W as triplets: column c of W is H^T (M^-1 H(:, c)). M^-1 h is solved on the components of
 * M that the rows of h touch only, and each of its non-zero rows adds its row of H (column
 * of Ht) into W(:, c). */
static int reduce_columns(const NsdGfc* p, const NsdGfcFactor* f, const cs_di* hc, const cs_di* ht,
                          Triplets* t) {
  const int n = p->n, m = p->dim * p->nc, nk = f->n_components;
  int largest = 0;
  for (int k = 0; k < nk; ++k)
    if (f->start[k + 1] - f->start[k] > largest) largest = f->start[k + 1] - f->start[k];
  double* x = calloc((size_t)largest + 1, sizeof *x);
  double* w = calloc((size_t)m + 1, sizeof *w);
  int* mark = malloc(((size_t)m + 1) * sizeof *mark);
  int* touched = malloc(((size_t)m + 1) * sizeof *touched);
  int* seen = malloc(((size_t)nk + 1) * sizeof *seen);
  int* comps = malloc(((size_t)nk + 1) * sizeof *comps);
  int* position = malloc(((size_t)n + 1) * sizeof *position);
  int ok = x && w && mark && touched && seen && comps && position;
  if (ok) {
    for (int k = 0; k < m; ++k) mark[k] = -1;
    for (int k = 0; k < nk; ++k) {
      seen[k] = -1;
      for (int r = f->start[k]; r < f->start[k + 1]; ++r) position[f->rows[r]] = r - f->start[k];
    }
  }
  for (int c = 0; ok && c < m; ++c) {
    int ncomp = 0, nt = 0;
    for (int e = hc->p[c]; e < hc->p[c + 1]; ++e) {
      const int k = f->component[hc->i[e]];
      if (seen[k] != c) {
        seen[k] = c;
        comps[ncomp++] = k;
      }
    }
    for (int q = 0; ok && q < ncomp; ++q) {
      const int k = comps[q], s = f->start[k], size = f->start[k + 1] - s;
      memset(x, 0, (size_t)size * sizeof *x);
      for (int e = hc->p[c]; e < hc->p[c + 1]; ++e)
        if (f->component[hc->i[e]] == k) x[position[hc->i[e]]] += hc->x[e];
      if (nsd_gfc_factor_solve_part(f, k, x) != NSD_OK) {
        ok = 0;
        break;
      }
      for (int l = 0; l < size; ++l) {
        const double xi = x[l];
        if (xi == 0.0) continue;
        const int i = f->rows[s + l];
        for (int e = ht->p[i]; e < ht->p[i + 1]; ++e) {
          const int row = ht->i[e];
          if (mark[row] != c) {
            mark[row] = c;
            w[row] = 0.0;
            touched[nt++] = row;
          }
          w[row] += ht->x[e] * xi;
        }
      }
    }
    for (int k = 0; k < nt && ok; ++k) ok = triplets_push(t, touched[k], c, w[touched[k]]);
  }
  free(x);
  free(w);
  free(mark);
  free(touched);
  free(seen);
  free(comps);
  free(position);
  return ok;
}

NsdFc* nsd_gfc_reduce_with(const NsdGfc* p, const NsdGfcFactor* f, NsdReport* report) {
  const int n = p->n, d = p->dim, m = p->dim * p->nc;
  cs_di* hc = nsd_matrix_to_cs(p->H);
  cs_di* ht = hc ? cs_di_transpose(hc, 1) : NULL;
  Triplets t = {NULL, NULL, NULL, 0, 0};
  double* ql = calloc((size_t)m + 1, sizeof *ql);
  double* y = calloc((size_t)n + 1, sizeof *y);
  NsdFc* fc = NULL;
  int ok = hc && ht && ql && y && reduce_columns(p, f, hc, ht, &t);
  if (ok) {
    // q_local = H^T M^-1 q + b
    memcpy(y, p->q, (size_t)n * sizeof *y);
    ok = n == 0 || nsd_gfc_factor_solve(f, y) == NSD_OK;
    if (ok && m > 0) {
      memcpy(ql, p->b, (size_t)m * sizeof *ql);
      nsd_matrix_gemv_t(1.0, p->H, y, 1.0, ql);
    }
  }
  NsdMatrix* wc = NULL;
  NsdMatrix* w = NULL;
  if (ok) {
    wc = nsd_matrix_create_csc_from_triplets(m, m, (int)t.count, t.i, t.j, t.x);
    w = wc && m > 0 ? nsd_matrix_convert(wc, NSD_SPARSE_BLOCK, d) : NULL;
    if (m == 0) {
      w = wc;
      wc = NULL;
    }
    if (w) fc = nsd_fc_create(d, p->nc, w, ql, p->mu);  // takes w
  }
  nsd_matrix_destroy(wc);
  free(t.i);
  free(t.j);
  free(t.x);
  free(ql);
  free(y);
  cs_di_spfree(hc);
  cs_di_spfree(ht);
  if (!fc)
    nsd_report_fail(report, NSD_FAILED,
                    "GFC: out of memory (or a failed solve) reducing to W = H^T M^-1 H "
                    "(n=%d, %d contacts)",
                    n, p->nc);
  return fc;
}

NsdFc* nsd_gfc_reduce(const NsdGfc* problem, NsdReport* report) {
  if (!problem || !nsd_gfc_check(problem, report)) return NULL;
  NsdGfcFactor* f = NULL;
  if (nsd_gfc_factor_m(problem, &f, report) != NSD_OK) return NULL;
  NsdFc* fc = nsd_gfc_reduce_with(problem, f, report);
  nsd_gfc_factor_destroy(f);
  return fc;
}
