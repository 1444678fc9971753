/* The generic mechanical problem: create / destroy / check, the Siconos error
 * (gmp_compute_error's measure, nsd_gmp.h) and what its solvers share. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* CXSparse's cs.h pulls in <complex.h> (which defines the macro I) unless told not to. */
#ifndef NCOMPLEX
#define NCOMPLEX
#endif
#include <cs.h>

#include "common/solver_core.h"
#include "friction/fc_cone.h"
#include "gmp/gmp_internal.h"

const char* nsd_gmp_block_kind_name(NsdGmpBlockKind kind) {
  switch (kind) {
    case NSD_GMP_LCP:
      return "lcp";
    case NSD_GMP_EQUALITY:
      return "equality";
    case NSD_GMP_FC2D:
      return "fc2d";
    case NSD_GMP_FC3D:
      return "fc3d";
    case NSD_GMP_RELAY:
      return "relay";
  }
  return "unknown";
}

NsdGmp* nsd_gmp_create(NsdMatrix* W, const double* q, int n_blocks, const NsdGmpBlock* blocks) {
  if (!W) return NULL;
  NsdGmp* p = calloc(1, sizeof *p);
  const int n = W->rows > 0 ? W->rows : 0, nb = n_blocks > 0 ? n_blocks : 0;
  if (p) {
    p->n = n;
    p->n_blocks = nb;
    p->W = W;
    p->q = calloc((size_t)(n > 0 ? n : 1), sizeof *p->q);
    p->blocks = calloc((size_t)(nb > 0 ? nb : 1), sizeof *p->blocks);
    p->start = calloc((size_t)nb + 1, sizeof *p->start);
  }
  if (!p || !p->q || !p->blocks || !p->start) {
    if (p) {
      free(p->q);
      free(p->blocks);
      free(p->start);
      free(p);
    }
    nsd_matrix_destroy(W);
    return NULL;
  }
  if (q && n > 0) memcpy(p->q, q, (size_t)n * sizeof *q);
  if (blocks && nb > 0) memcpy(p->blocks, blocks, (size_t)nb * sizeof *blocks);
  // first rows; a negative size is kept for nsd_gmp_check to name (the sum saturates)
  long long at = 0;
  for (int b = 0; b < nb; ++b) {
    p->start[b] = (int)(at < 0 ? 0 : at > n ? n : at);
    at += p->blocks[b].size;
  }
  p->start[nb] = (int)(at < 0 ? 0 : at > n ? n : at);
  return p;
}

void nsd_gmp_destroy(NsdGmp* p) {
  if (!p) return;
  nsd_matrix_destroy(p->W);
  free(p->q);
  free(p->lower);
  free(p->upper);
  free(p->blocks);
  free(p->start);
  free(p);
}

NsdStatus nsd_gmp_set_bounds(NsdGmp* p, const double* lower, const double* upper) {
  if (!p || !lower || !upper) return NSD_BAD_INPUT;
  const size_t n = (size_t)(p->n > 0 ? p->n : 1);
  if (!p->lower) p->lower = malloc(n * sizeof *p->lower);
  if (!p->upper) p->upper = malloc(n * sizeof *p->upper);
  if (!p->lower || !p->upper) return NSD_FAILED;
  if (p->n > 0) {
    memcpy(p->lower, lower, (size_t)p->n * sizeof *lower);
    memcpy(p->upper, upper, (size_t)p->n * sizeof *upper);
  }
  return NSD_OK;
}

/* The bounds of relay block b: set, no NaN, lower <= upper; 0 with a message if not. */
static int check_bounds(const NsdGmp* p, int b, NsdReport* rep) {
  if (!p->lower || !p->upper) {
    nsd_report_fail(rep, NSD_BAD_INPUT,
                    "GMP: block %d (relay): no bounds (nsd_gmp_set_bounds was not called)", b);
    return 0;
  }
  for (int i = p->start[b]; i < p->start[b + 1]; ++i)
    if (isnan(p->lower[i]) || isnan(p->upper[i]) || !(p->lower[i] <= p->upper[i])) {
      nsd_report_fail(rep, NSD_BAD_INPUT,
                      "GMP: block %d (relay): row %d has bounds [%g, %g], expected lower <= upper",
                      b, i, p->lower[i], p->upper[i]);
      return 0;
    }
  return 1;
}

int nsd_gmp_check(const NsdGmp* p, NsdReport* rep) {
  if (!p) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "GMP: problem is NULL");
    return 0;
  }
  if (p->n_blocks < 0 || (p->n_blocks > 0 && (!p->blocks || !p->start))) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "GMP: n_blocks = %d without blocks", p->n_blocks);
    return 0;
  }
  long long sum = 0;
  for (int b = 0; b < p->n_blocks; ++b) {
    const NsdGmpBlock* k = &p->blocks[b];
    const char* name = nsd_gmp_block_kind_name(k->kind);
    if (strcmp(name, "unknown") == 0) {
      nsd_report_fail(rep, NSD_BAD_INPUT,
                      "GMP: block %d: kind %d, expected 0 (lcp), 2 (equality), 3 (fc2d), 4 "
                      "(fc3d) or 9 (relay)",
                      b, (int)k->kind);
      return 0;
    }
    const int want = k->kind == NSD_GMP_FC3D ? 3 : k->kind == NSD_GMP_FC2D ? 2 : 0;
    if (k->size < 1 || (want && k->size != want)) {
      if (want)
        nsd_report_fail(rep, NSD_BAD_INPUT, "GMP: block %d (%s): size %d, expected %d", b, name,
                        k->size, want);
      else
        nsd_report_fail(rep, NSD_BAD_INPUT, "GMP: block %d (%s): size %d, expected >= 1", b, name,
                        k->size);
      return 0;
    }
    if (want && !(isfinite(k->mu) && k->mu >= 0.0)) {
      nsd_report_fail(rep, NSD_BAD_INPUT, "GMP: block %d (%s): mu = %g, expected finite >= 0", b,
                      name, k->mu);
      return 0;
    }
    sum += k->size;
  }
  if (!p->W) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "GMP: matrix W is missing");
    return 0;
  }
  if (sum == p->n)
    for (int b = 0; b < p->n_blocks; ++b)
      if (p->blocks[b].kind == NSD_GMP_RELAY && !check_bounds(p, b, rep)) return 0;
  if (sum != p->n || p->W->rows != p->n || p->W->cols != p->n) {
    nsd_report_fail(rep, NSD_BAD_INPUT,
                    "GMP: the %d block sizes add up to %lld, W is %dx%d (expected the sum)",
                    p->n_blocks, sum, p->W->rows, p->W->cols);
    return 0;
  }
  if (!nsd_matrix_is_finite(p->W)) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "GMP: W has a non-finite (NaN or inf) entry");
    return 0;
  }
  if (p->n > 0 && !p->q) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "GMP: vector q is missing");
    return 0;
  }
  for (int i = 0; i < p->n; ++i)
    if (!isfinite(p->q[i])) {
      nsd_report_fail(rep, NSD_BAD_INPUT, "GMP: q[%d] = %g is not finite", i, p->q[i]);
      return 0;
    }
  return 1;
}

/* ---- data of the solvers ------------------------------------------------------ */

void nsd_gmpi_data_free(NsdGmpData* d) {
  free(d->row_ptr);
  free(d->col);
  free(d->val);
  free(d->diag);
  free(d->diag_at);
  memset(d, 0, sizeof *d);
}

NsdStatus nsd_gmpi_data_init(NsdGmpData* d, const NsdGmp* p, NsdReport* report) {
  memset(d, 0, sizeof *d);
  d->p = p;
  const int n = p->n, nb = p->n_blocks;

  // W by rows: the CSC form of any storage, transposed by counting
  NsdMatrix* csc = p->W->storage == NSD_CSC ? p->W : nsd_matrix_convert(p->W, NSD_CSC, 0);
  const cs_di* c = csc ? (const cs_di*)csc->csc : NULL;
  const int nnz = c ? c->p[n] : 0;
  d->row_ptr = calloc((size_t)n + 1, sizeof *d->row_ptr);
  d->col = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *d->col);
  d->val = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *d->val);
  size_t diag_total = 0;
  d->diag_at = malloc((size_t)(nb > 0 ? nb : 1) * sizeof *d->diag_at);
  for (int b = 0; b < nb; ++b) {
    const size_t s = (size_t)p->blocks[b].size;
    if (d->diag_at) d->diag_at[b] = diag_total;
    diag_total += s * s;
    if (p->blocks[b].size > d->max_size) d->max_size = p->blocks[b].size;
  }
  d->diag = malloc((diag_total > 0 ? diag_total : 1) * sizeof *d->diag);
  if (!c || !d->row_ptr || !d->col || !d->val || !d->diag_at || !d->diag) {
    if (csc != p->W) nsd_matrix_destroy(csc);
    nsd_gmpi_data_free(d);
    return nsd_report_fail(report, NSD_FAILED, "GMP: out of memory, n=%d", n);
  }
  for (int k = 0; k < nnz; ++k) ++d->row_ptr[c->i[k] + 1];
  for (int i = 0; i < n; ++i) d->row_ptr[i + 1] += d->row_ptr[i];
  int* next = malloc((size_t)(n > 0 ? n : 1) * sizeof *next);
  if (!next) {
    if (csc != p->W) nsd_matrix_destroy(csc);
    nsd_gmpi_data_free(d);
    return nsd_report_fail(report, NSD_FAILED, "GMP: out of memory, n=%d", n);
  }
  memcpy(next, d->row_ptr, (size_t)n * sizeof *next);
  for (int j = 0; j < n; ++j)
    for (int k = c->p[j]; k < c->p[j + 1]; ++k) {
      const int at = next[c->i[k]]++;
      d->col[at] = j;
      d->val[at] = c->x[k];
    }
  free(next);
  if (csc != p->W) nsd_matrix_destroy(csc);

  // the diagonal blocks, dense
  for (int b = 0; b < nb; ++b)
    nsd_matrix_diagonal_block(p->W, p->start[b], p->blocks[b].size, d->diag + d->diag_at[b]);
  return NSD_OK;
}

double nsd_gmpi_row_dot(const NsdGmpData* d, int i, const double* x) {
  double s = 0.0;
  for (int k = d->row_ptr[i]; k < d->row_ptr[i + 1]; ++k) s += d->val[k] * x[d->col[k]];
  return s;
}

void nsd_gmpi_velocity(const NsdGmpData* d, const double* r, double* u) {
  for (int i = 0; i < d->p->n; ++i) u[i] = d->p->q[i] + nsd_gmpi_row_dot(d, i, r);
}

double nsd_gmpi_error(const NsdGmpData* d, const double* r, const double* u) {
  const NsdGmp* p = d->p;
  for (int i = 0; i < p->n; ++i)
    if (!isfinite(r[i]) || !isfinite(u[i])) return INFINITY;
  double err = 0.0;
  for (int b = 0; b < p->n_blocks; ++b) {
    const int s = p->blocks[b].size, at = p->start[b];
    const double *rb = r + at, *ub = u + at, *wbb = d->diag + d->diag_at[b];
    if (p->blocks[b].kind == NSD_GMP_EQUALITY) {
      for (int i = 0; i < s; ++i) err = fmax(err, fabs(ub[i]));
      continue;
    }
    // the local q: u_b less the diagonal block's part
    double qn = 0.0;
    for (int i = 0; i < s; ++i) {
      double qi = ub[i];
      for (int k = 0; k < s; ++k) qi -= wbb[i + (size_t)k * s] * rb[k];
      qn += qi * qi;
    }
    double local = 0.0;
    if (p->blocks[b].kind == NSD_GMP_LCP) {
      for (int i = 0; i < s; ++i) {
        const double e = rb[i] - fmax(0.0, rb[i] - ub[i]);
        local += e * e;
      }
    } else if (p->blocks[b].kind == NSD_GMP_RELAY) {
      for (int i = 0; i < s; ++i) {
        const double e = rb[i] - fmin(p->upper[at + i], fmax(p->lower[at + i], rb[i] - ub[i]));
        local += e * e;
      }
    } else {
      double sums[3] = {0.0, 0.0, 0.0};
      nsd_fcc_natural_terms(s, p->blocks[b].mu, rb, ub, 1, sums);
      local = sums[0];
    }
    err = fmax(err, sqrt(local) / (1.0 + sqrt(qn)));
  }
  return err;
}

double nsd_gmp_error(const NsdGmp* p, const double* r, double* u_out) {
  if (!p || !r || !nsd_gmp_check(p, NULL)) return INFINITY;
  NsdGmpData d;
  if (nsd_gmpi_data_init(&d, p, NULL) != NSD_OK) return INFINITY;
  double* u = u_out ? u_out : malloc((size_t)(p->n > 0 ? p->n : 1) * sizeof *u);
  double err = INFINITY;
  if (u) {
    nsd_gmpi_velocity(&d, r, u);
    err = nsd_gmpi_error(&d, r, u);
    if (u != u_out) free(u);
  }
  nsd_gmpi_data_free(&d);
  return err;
}

NsdStatus nsd_gmpi_begin(const char* name, const NsdGmp* p, double* r, double* u,
                         const NsdSolverOptions* options, NsdSolverOptions* opt,
                         NsdReport* report) {
  if (nsd_solver_begin(name, options, opt, report) != NSD_OK) return NSD_BAD_INPUT;
  if (!nsd_gmp_check(p, report)) {
    if (report && report->status == NSD_OK) report->status = NSD_BAD_INPUT;
    return NSD_BAD_INPUT;
  }
  if (!r || !u)
    return nsd_report_fail(report, NSD_BAD_INPUT, "%s is NULL (n=%d)", !r ? "r" : "u", p->n);
  if (opt->warm_start) {
    for (int i = 0; i < p->n; ++i)
      if (!isfinite(r[i]))
        return nsd_report_fail(report, NSD_BAD_INPUT, "warm start r[%d]=%g is not finite", i, r[i]);
  } else if (p->n > 0) {
    memset(r, 0, (size_t)p->n * sizeof *r);
  }
  return NSD_OK;
}
