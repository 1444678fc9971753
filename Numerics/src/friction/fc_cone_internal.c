/* Shared kernels of the first-order friction solvers: deterministic parallel
 * vector reductions, batched cone projections, natural-map residuals,
 * row-parallel products and the Delassus operator wrapper. */
#include "friction/fc_cone_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef NCOMPLEX
#define NCOMPLEX
#endif
#include <cs.h>

#ifdef _OPENMP
#include <omp.h>
#endif

/* Reductions sum chunks of at least this many entries, and at most
 * NSD_FCC_MAX_CHUNKS chunks: the partition depends on n only. */
#define NSD_FCC_CHUNK_MIN 4096
#define NSD_FCC_MAX_CHUNKS 256

int nsd_fcc_threads(int requested) {
  if (requested > 0) return requested;
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

/* Chunk length for n items: fixed by n alone. */
static int chunk_length(int n) {
  int c = (n + NSD_FCC_MAX_CHUNKS - 1) / NSD_FCC_MAX_CHUNKS;
  return c < NSD_FCC_CHUNK_MIN ? NSD_FCC_CHUNK_MIN : c;
}

/* ---- vectors ------------------------------------------------------------------ */

double nsd_fcc_dot(const double* a, const double* b, int n, int nt) {
  if (n <= 0) return 0.0;
  int len = chunk_length(n), nch = (n + len - 1) / len;
  double part[NSD_FCC_MAX_CHUNKS];
  // each chunk summed serially, by whichever thread
  NSD_FCC_PARALLEL_FOR(nt, n)
  for (int c = 0; c < nch; ++c) {
    int i0 = c * len, i1 = i0 + len < n ? i0 + len : n;
    double s = 0.0;
    for (int i = i0; i < i1; ++i) s += a[i] * b[i];
    part[c] = s;
  }
  // chunk sums added in order
  double s = 0.0;
  for (int c = 0; c < nch; ++c) s += part[c];
  return s;
}

double nsd_fcc_dot_diff(const double* a, const double* b, const double* c, const double* d,
                        int n, int nt) {
  if (n <= 0) return 0.0;
  int len = chunk_length(n), nch = (n + len - 1) / len;
  double part[NSD_FCC_MAX_CHUNKS];
  // the same fixed chunks as nsd_fcc_dot
  NSD_FCC_PARALLEL_FOR(nt, n)
  for (int k = 0; k < nch; ++k) {
    int i0 = k * len, i1 = i0 + len < n ? i0 + len : n;
    double s = 0.0;
    for (int i = i0; i < i1; ++i) s += (a[i] - (b ? b[i] : 0.0)) * (c[i] - (d ? d[i] : 0.0));
    part[k] = s;
  }
  double s = 0.0;
  for (int k = 0; k < nch; ++k) s += part[k];
  return s;
}

double nsd_fcc_norm(const double* a, int n, int nt) { return sqrt(nsd_fcc_dot(a, a, n, nt)); }

void nsd_fcc_axpby(double alpha, const double* x, double beta, const double* y, double* z, int n,
                   int nt) {
  NSD_FCC_PARALLEL_FOR(nt, n)
  for (int i = 0; i < n; ++i) z[i] = alpha * x[i] + beta * y[i];
}

void nsd_fcc_copy(const double* src, double* dst, int n, int nt) {
  if (src == dst || n <= 0) return;
  memcpy(dst, src, (size_t)n * sizeof *dst);
}

/* ---- cones ------------------------------------------------------------------- */

/* Projection of one 3D block on the cone of coefficient mu (formats/README.md §3). */
static inline void project3(double mu, double* y) {
  double t = sqrt(y[1] * y[1] + y[2] * y[2]), yn = y[0];
  if (mu * t <= -yn) {
    y[0] = y[1] = y[2] = 0.0;
  } else if (t > mu * yn) {
    double a = (mu * t + yn) / (1.0 + mu * mu);
    double s = t > 0.0 ? mu * a / t : 0.0;
    y[0] = a;
    y[1] *= s;
    y[2] *= s;
  }
}

/* The same in 2D. */
static inline void project2(double mu, double* y) {
  double t = fabs(y[1]), yn = y[0];
  if (mu * t <= -yn) {
    y[0] = y[1] = 0.0;
  } else if (t > mu * yn) {
    double a = (mu * t + yn) / (1.0 + mu * mu);
    y[0] = a;
    y[1] = y[1] > 0.0 ? mu * a : -mu * a;
  }
}

static inline void project_block(int dim, double mu, double* y) {
  if (dim == 3)
    project3(mu, y);
  else if (dim == 2)
    project2(mu, y);
  else if (y[0] < 0.0)
    y[0] = 0.0;
}

void nsd_fcc_project(int dim, int nc, const double* mu, double* y, int nt) {
  NSD_FCC_PARALLEL_FOR(nt, nc * dim)
  for (int a = 0; a < nc; ++a) project_block(dim, mu ? mu[a] : 0.0, y + (size_t)dim * a);
}

void nsd_fcc_project_step(int dim, int nc, const double* mu, const double* x, double t,
                          const double* g, double* z, int nt) {
  NSD_FCC_PARALLEL_FOR(nt, nc * dim)
  for (int a = 0; a < nc; ++a) {
    size_t o = (size_t)dim * a;
    for (int k = 0; k < dim; ++k) z[o + k] = x[o + k] - t * g[o + k];
    project_block(dim, mu ? mu[a] : 0.0, z + o);
  }
}

double nsd_fcc_natural_residual(int dim, int nc, const double* mu, const double* r,
                                const double* v, int desaxce, double q_norm, int nt) {
  int n = nc * dim;
  if (nc <= 0) return 0.0;
  int len = chunk_length(nc), nch = (nc + len - 1) / len;
  double pe[NSD_FCC_MAX_CHUNKS], pr[NSD_FCC_MAX_CHUNKS], pv[NSD_FCC_MAX_CHUNKS];
  // per chunk of contacts: sum ||e_a||^2, ||r_a||^2, ||v_a||^2
  NSD_FCC_PARALLEL_FOR(nt, n)
  for (int c = 0; c < nch; ++c) {
    int a0 = c * len, a1 = a0 + len < nc ? a0 + len : nc;
    double se = 0.0, sr = 0.0, sv = 0.0;
    for (int a = a0; a < a1; ++a) {
      const double* ra = r + (size_t)dim * a;
      const double* va = v + (size_t)dim * a;
      double m = mu ? mu[a] : 0.0, y[3];
      double shift = 0.0;
      if (desaxce && dim > 1) shift = m * (dim == 3 ? sqrt(va[1] * va[1] + va[2] * va[2]) : fabs(va[1]));
      y[0] = ra[0] - va[0] - shift;
      for (int k = 1; k < dim; ++k) y[k] = ra[k] - va[k];
      project_block(dim, m, y);
      for (int k = 0; k < dim; ++k) {
        double e = ra[k] - y[k];
        se += e * e;
        sr += ra[k] * ra[k];
        sv += va[k] * va[k];
      }
    }
    pe[c] = se;
    pr[c] = sr;
    pv[c] = sv;
  }
  double se = 0.0, sr = 0.0, sv = 0.0;
  for (int c = 0; c < nch; ++c) {
    se += pe[c];
    sr += pr[c];
    sv += pv[c];
  }
  // normalised as the Siconos error: by max(||q||, ||r||, ||v||); an
  // overflowing iterate is not "converged" (inf / inf), it has diverged
  if (!(isfinite(se) && isfinite(sr) && isfinite(sv))) return INFINITY;
  double scale = fmax(q_norm, fmax(sqrt(sr), sqrt(sv)));
  return scale > DBL_EPSILON ? sqrt(se) / scale : sqrt(se);
}

void nsd_fcc_desaxce_shift(int dim, int nc, const double* mu, const double* q, const double* u,
                           double* qs, int nt) {
  NSD_FCC_PARALLEL_FOR(nt, nc * dim)
  for (int a = 0; a < nc; ++a) {
    size_t o = (size_t)dim * a;
    double ut = dim == 3 ? sqrt(u[o + 1] * u[o + 1] + u[o + 2] * u[o + 2])
                         : (dim == 2 ? fabs(u[o + 1]) : 0.0);
    qs[o] = q[o] + (dim > 1 ? mu[a] * ut : 0.0);
    for (int k = 1; k < dim; ++k) qs[o + k] = q[o + k];
  }
}

/* ---- triplets and compressed copies ------------------------------------------- */

NsdStatus nsd_fcc_triplets(const NsdMatrix* a, int* nnz, int** ti, int** tj, double** tx) {
  size_t cap = nsd_matrix_nnz(a), k = 0;
  *ti = malloc((cap ? cap : 1) * sizeof **ti);
  *tj = malloc((cap ? cap : 1) * sizeof **tj);
  *tx = malloc((cap ? cap : 1) * sizeof **tx);
  if (!*ti || !*tj || !*tx || cap > (size_t)2147483647) {
    free(*ti);
    free(*tj);
    free(*tx);
    *ti = *tj = NULL;
    *tx = NULL;
    return NSD_FAILED;
  }
  switch (a->storage) {
    case NSD_DENSE:
      // non-zero entries only
      for (int j = 0; j < a->cols; ++j)
        for (int i = 0; i < a->rows; ++i) {
          double x = a->dense[(size_t)i + (size_t)j * (size_t)a->rows];
          if (x != 0.0) {
            (*ti)[k] = i;
            (*tj)[k] = j;
            (*tx)[k++] = x;
          }
        }
      break;
    case NSD_SPARSE_BLOCK: {
      // every entry of every stored block
      const NsdSparseBlock* s = a->sbm;
      for (int bi = 0; bi < s->n_block_rows; ++bi) {
        int r0 = bi > 0 ? s->row_end[bi - 1] : 0, h = s->row_end[bi] - r0;
        for (int b = s->row_ptr[bi]; b < s->row_ptr[bi + 1]; ++b) {
          int bj = s->col_index[b];
          int c0 = bj > 0 ? s->col_end[bj - 1] : 0, w = s->col_end[bj] - c0;
          const double* blk = s->values + s->value_start[b];
          for (int jj = 0; jj < w; ++jj)
            for (int ii = 0; ii < h; ++ii) {
              (*ti)[k] = r0 + ii;
              (*tj)[k] = c0 + jj;
              (*tx)[k++] = blk[(size_t)ii + (size_t)jj * (size_t)h];
            }
        }
      }
      break;
    }
    case NSD_CSC: {
      const cs_di* c = a->csc;
      for (int j = 0; j < c->n; ++j)
        for (int p = c->p[j]; p < c->p[j + 1]; ++p) {
          (*ti)[k] = c->i[p];
          (*tj)[k] = j;
          (*tx)[k++] = c->x[p];
        }
      break;
    }
  }
  *nnz = (int)k;
  return NSD_OK;
}

NsdStatus nsd_fcc_compress(const NsdMatrix* a, int transpose, int** ptr, int** idx,
                           double** val) {
  int nnz = 0, *ti = NULL, *tj = NULL;
  double* tx = NULL;
  *ptr = NULL;
  *idx = NULL;
  *val = NULL;
  if (nsd_fcc_triplets(a, &nnz, &ti, &tj, &tx) != NSD_OK) return NSD_FAILED;
  // primary key (rows, or columns when transposed) and secondary key
  const int* key = transpose ? tj : ti;
  const int* sub = transpose ? ti : tj;
  int nkey = transpose ? a->cols : a->rows, nsub = transpose ? a->rows : a->cols;
  int* order = malloc((size_t)(nnz ? nnz : 1) * sizeof *order);
  int* tmp = malloc((size_t)(nnz ? nnz : 1) * sizeof *tmp);
  int* cnt = calloc((size_t)(nkey > nsub ? nkey : nsub) + 1, sizeof *cnt);
  *ptr = calloc((size_t)nkey + 1, sizeof **ptr);
  *idx = malloc((size_t)(nnz ? nnz : 1) * sizeof **idx);
  *val = malloc((size_t)(nnz ? nnz : 1) * sizeof **val);
  NsdStatus status = NSD_OK;
  if (!order || !tmp || !cnt || !*ptr || !*idx || !*val) {
    status = NSD_FAILED;
  } else {
    // stable counting sort by the secondary key, then by the primary key
    for (int k = 0; k < nnz; ++k) cnt[sub[k] + 1]++;
    for (int s = 0; s < nsub; ++s) cnt[s + 1] += cnt[s];
    for (int k = 0; k < nnz; ++k) tmp[cnt[sub[k]]++] = k;
    for (int k = 0; k < nnz; ++k) (*ptr)[key[k] + 1]++;
    for (int r = 0; r < nkey; ++r) (*ptr)[r + 1] += (*ptr)[r];
    memset(cnt, 0, ((size_t)(nkey > nsub ? nkey : nsub) + 1) * sizeof *cnt);
    for (int t = 0; t < nnz; ++t) {
      int k = tmp[t], r = key[k];
      order[(*ptr)[r] + cnt[r]++] = k;
    }
    for (int p = 0; p < nnz; ++p) {
      (*idx)[p] = sub[order[p]];
      (*val)[p] = tx[order[p]];
    }
  }
  free(order);
  free(tmp);
  free(cnt);
  free(ti);
  free(tj);
  free(tx);
  if (status != NSD_OK) {
    free(*ptr);
    free(*idx);
    free(*val);
    *ptr = NULL;
    *idx = NULL;
    *val = NULL;
  }
  return status;
}

/* ---- row-parallel products --------------------------------------------------- */

NsdStatus nsd_fcc_rowop_init(NsdFccRowOp* op, const NsdMatrix* a) {
  memset(op, 0, sizeof *op);
  op->a = a;
  op->rows = a->rows;
  op->cols = a->cols;
  if (a->storage == NSD_CSC) return nsd_fcc_compress(a, 0, &op->row_ptr, &op->col_idx, &op->val);
  return NSD_OK;
}

void nsd_fcc_rowop_free(NsdFccRowOp* op) {
  if (!op) return;
  free(op->row_ptr);
  free(op->col_idx);
  free(op->val);
  memset(op, 0, sizeof *op);
}

/* Rows per task of the dense product (each task sweeps the columns once). */
#define NSD_FCC_DENSE_ROWS 64

void nsd_fcc_rowop_apply(const NsdFccRowOp* op, const double* x, double* y, int nt) {
  const NsdMatrix* a = op->a;
  if (op->row_ptr) {
    // compressed rows: one row per iteration
    NSD_FCC_PARALLEL_FOR(nt, op->rows)
    for (int i = 0; i < op->rows; ++i) {
      double s = 0.0;
      for (int p = op->row_ptr[i]; p < op->row_ptr[i + 1]; ++p) s += op->val[p] * x[op->col_idx[p]];
      y[i] = s;
    }
  } else if (a->storage == NSD_SPARSE_BLOCK) {
    // block rows: y_I = sum_J A_IJ x_J, blocks in stored order
    const NsdSparseBlock* s = a->sbm;
    NSD_FCC_PARALLEL_FOR(nt, op->rows)
    for (int bi = 0; bi < s->n_block_rows; ++bi) {
      int r0 = bi > 0 ? s->row_end[bi - 1] : 0, h = s->row_end[bi] - r0;
      double* yb = y + r0;
      for (int ii = 0; ii < h; ++ii) yb[ii] = 0.0;
      for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k) {
        int bj = s->col_index[k];
        int c0 = bj > 0 ? s->col_end[bj - 1] : 0, w = s->col_end[bj] - c0;
        const double* blk = s->values + s->value_start[k];
        for (int jj = 0; jj < w; ++jj) {
          double xj = x[c0 + jj];
          const double* col = blk + (size_t)jj * (size_t)h;
          for (int ii = 0; ii < h; ++ii) yb[ii] += col[ii] * xj;
        }
      }
    }
  } else {
    // dense column-major: tasks of NSD_FCC_DENSE_ROWS rows sweep the columns
    int rows = op->rows, cols = op->cols;
    int ntask = (rows + NSD_FCC_DENSE_ROWS - 1) / NSD_FCC_DENSE_ROWS;
    NSD_FCC_PARALLEL_FOR(nt, (long)rows * cols)
    for (int t = 0; t < ntask; ++t) {
      int i0 = t * NSD_FCC_DENSE_ROWS;
      int i1 = i0 + NSD_FCC_DENSE_ROWS < rows ? i0 + NSD_FCC_DENSE_ROWS : rows;
      for (int i = i0; i < i1; ++i) y[i] = 0.0;
      for (int j = 0; j < cols; ++j) {
        const double* col = a->dense + (size_t)j * (size_t)rows;
        double xj = x[j];
        for (int i = i0; i < i1; ++i) y[i] += col[i] * xj;
      }
    }
  }
}

/* ---- the operator N ----------------------------------------------------------- */

NsdStatus nsd_fcc_operator_init(NsdFccOperator* op, const NsdDelassus* d, int nt) {
  memset(op, 0, sizeof *op);
  op->delassus = d;
  op->nt = nt;
  if (d->assembled) return nsd_fcc_rowop_init(&op->rowop, d->assembled);
  op->v = malloc((size_t)d->n_dof * sizeof *op->v);
  op->w = malloc((size_t)d->n_dof * sizeof *op->w);
  if (!op->v || !op->w) {
    nsd_fcc_operator_free(op);
    return NSD_FAILED;
  }
  return NSD_OK;
}

void nsd_fcc_operator_apply(NsdFccOperator* op, const double* x, double* y) {
  const NsdDelassus* d = op->delassus;
  op->applications++;
  if (d->assembled) {
    nsd_fcc_rowop_apply(&op->rowop, x, y, op->nt);
    return;
  }
  // y = J (M^-1 (J^T x))
  d->apply_jt(d->user, x, op->v);
  d->apply_minv(d->user, op->v, op->w);
  d->apply_j(d->user, op->w, y);
}

void nsd_fcc_operator_free(NsdFccOperator* op) {
  if (!op) return;
  nsd_fcc_rowop_free(&op->rowop);
  free(op->v);
  free(op->w);
  op->v = op->w = NULL;
}

int nsd_fcc_delassus_check(const NsdDelassus* d, int dim, NsdReport* report) {
  if (!d) {
    nsd_report_fail(report, NSD_BAD_INPUT, "Delassus operator is NULL");
    return 0;
  }
  if (dim < 1 || dim > 3) {
    nsd_report_fail(report, NSD_BAD_INPUT, "dim = %d, expected 1 (orthant), 2 or 3", dim);
    return 0;
  }
  if (d->size < 0 || d->size % dim != 0) {
    nsd_report_fail(report, NSD_BAD_INPUT, "operator size %d is not a multiple of dim = %d",
                    d->size, dim);
    return 0;
  }
  if (d->assembled) {
    const NsdMatrix* a = d->assembled;
    if (a->rows != d->size || a->cols != d->size) {
      nsd_report_fail(report, NSD_BAD_INPUT, "assembled N is %dx%d, expected %dx%d", a->rows,
                      a->cols, d->size, d->size);
      return 0;
    }
    if (!nsd_matrix_is_finite(a)) {
      nsd_report_fail(report, NSD_BAD_INPUT, "assembled N has a non-finite entry");
      return 0;
    }
    return 1;
  }
  if (!d->apply_jt || !d->apply_minv || !d->apply_j || d->n_dof <= 0) {
    nsd_report_fail(report, NSD_BAD_INPUT,
                    "matrix-free operator needs apply_jt, apply_minv, apply_j and n_dof > 0 "
                    "(n_dof = %d)", d->n_dof);
    return 0;
  }
  return 1;
}

double nsd_fcc_max_abs(const NsdMatrix* a) {
  double m = 0.0;
  const double* v = NULL;
  size_t n = 0;
  if (a->storage == NSD_DENSE) {
    v = a->dense;
    n = (size_t)a->rows * (size_t)a->cols;
  } else if (a->storage == NSD_SPARSE_BLOCK) {
    v = a->sbm->values;
    n = a->sbm->value_start[a->sbm->n_blocks];
  } else {
    v = a->csc->x;
    n = (size_t)(a->csc->n > 0 ? a->csc->p[a->csc->n] : 0);
  }
  for (size_t k = 0; k < n; ++k) m = fmax(m, fabs(v[k]));
  return m;
}

/* Relative slack of the symmetry and semidefiniteness tests. Delassus
 * matrices written to files carry asymmetries up to 2e-3 of the largest entry
 * (the shared Capsules files); the solvers use u = M r + q as given (the
 * iteration of a monotone variational inequality), so they solve that
 * problem, and only a grossly non-symmetric M is refused. */
#define NSD_FCC_SYMMETRY_TOL 1e-2
#define NSD_FCC_MINOR_TOL 1e-12

int nsd_fcc_check_psd(const NsdMatrix* M, int dim, const char* solver, NsdReport* report) {
  double big = nsd_fcc_max_abs(M);
  double asym = nsd_matrix_asymmetry(M);
  if (!(asym <= NSD_FCC_SYMMETRY_TOL * big)) {
    nsd_report_fail(report, NSD_BAD_INPUT,
                    "%s needs M symmetric positive semidefinite: max |M_ij - M_ji| = %g "
                    "> %g * max |M_ij| = %g", solver, asym, NSD_FCC_SYMMETRY_TOL, big);
    return 0;
  }
  // principal minors of each diagonal block: 1x1, 2x2 and (dim 3) the determinant
  int n = M->rows / dim;
  for (int a = 0; a < n; ++a) {
    double B[9];
    if (nsd_matrix_diagonal_block(M, dim * a, dim, B) != NSD_OK) continue;
    double s = 0.0;
    for (int k = 0; k < dim * dim; ++k) s = fmax(s, fabs(B[k]));
    double tol1 = NSD_FCC_MINOR_TOL * s, tol2 = tol1 * s, tol3 = tol2 * s;
    int bad = 0;
    for (int i = 0; i < dim && !bad; ++i) {
      if (B[i + dim * i] < -tol1) bad = 1;
      for (int j = i + 1; j < dim && !bad; ++j)
        if (B[i + dim * i] * B[j + dim * j] - B[i + dim * j] * B[j + dim * i] < -tol2) bad = 1;
    }
    if (!bad && dim == 3) {
      double det = B[0] * (B[4] * B[8] - B[7] * B[5]) - B[3] * (B[1] * B[8] - B[7] * B[2]) +
                   B[6] * (B[1] * B[5] - B[4] * B[2]);
      if (det < -tol3) bad = 1;
    }
    if (bad) {
      nsd_report_fail(report, NSD_BAD_INPUT,
                      "%s needs M symmetric positive semidefinite: diagonal block of contact %d "
                      "is indefinite", solver, a);
      return 0;
    }
  }
  return 1;
}

double nsd_fcc_monitor_eval(NsdFccMonitor* mon, const double* x, const double* nx) {
  // residual of the convex problem at x
  nsd_fcc_axpby(1.0, nx, 1.0, mon->qs, mon->w, mon->m, mon->nt);
  mon->own = nsd_fcc_natural_residual(mon->dim, mon->nc, mon->mu, x, mon->w, 0, mon->qs_norm,
                                      mon->nt);
  double value = mon->own;
  // Siconos error of x for the Coulomb problem
  if (mon->q_true) {
    nsd_fcc_axpby(1.0, nx, 1.0, mon->q_true, mon->u, mon->m, mon->nt);
    mon->coulomb = nsd_fcc_natural_residual(mon->dim, mon->nc, mon->mu, x, mon->u, 1,
                                            mon->q_norm, mon->nt);
    value = mon->coulomb;
  }
  // keep the best iterate and its product
  if (value < mon->best_value) {
    mon->best_value = value;
    nsd_fcc_copy(x, mon->best, mon->m, mon->nt);
    nsd_fcc_copy(nx, mon->nbest, mon->m, mon->nt);
  }
  return value;
}

int nsd_fcc_time_up(const NsdReport* report, double limit) {
  return limit > 0.0 && report && nsd_wall_time() - report->start_time > limit;
}
