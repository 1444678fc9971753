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
#define NSD_FCC_CHUNK_MIN 1024

int nsd_fcc_threads(int requested) {
  if (requested > 0) return requested;
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

int nsd_fcc_chunk_length(int n) {
  int c = (n + NSD_FCC_MAX_CHUNKS - 1) / NSD_FCC_MAX_CHUNKS;
  return c < NSD_FCC_CHUNK_MIN ? NSD_FCC_CHUNK_MIN : c;
}

/* ---- vectors ------------------------------------------------------------------ */

double nsd_fcc_dot(const double* a, const double* b, int n, int nt) {
  if (n <= 0) return 0.0;
  int len = nsd_fcc_chunk_length(n), nch = (n + len - 1) / len;
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

double nsd_fcc_dot_diff(const double* a, const double* b, const double* c, const double* d, int n,
                        int nt) {
  if (n <= 0) return 0.0;
  int len = nsd_fcc_chunk_length(n), nch = (n + len - 1) / len;
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

double nsd_fcc_norm(const double* a, int n, int nt) {
  return sqrt(nsd_fcc_dot(a, a, n, nt));
}

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

void nsd_fcc_project(int dim, int nc, const double* mu, double* y, int nt) {
  NSD_FCC_PARALLEL_FOR(nt, nc * dim)
  for (int a = 0; a < nc; ++a) nsd_fcc_project_block(dim, mu ? mu[a] : 0.0, y + (size_t)dim * a);
}

void nsd_fcc_project_step(int dim, int nc, const double* mu, const double* x, double t,
                          const double* g, double* z, int nt) {
  NSD_FCC_PARALLEL_FOR(nt, nc * dim)
  for (int a = 0; a < nc; ++a) {
    size_t o = (size_t)dim * a;
    for (int k = 0; k < dim; ++k) z[o + k] = x[o + k] - t * g[o + k];
    nsd_fcc_project_block(dim, mu ? mu[a] : 0.0, z + o);
  }
}

double nsd_fcc_natural_residual(int dim, int nc, const double* mu, const double* r, const double* v,
                                int desaxce, double q_norm, int nt) {
  if (nc <= 0) return 0.0;
  double sums[3];
  nsd_fcc_natural_sums(dim, nc, mu, r, v, desaxce, sums, nt);
  // normalised as the Siconos error: by max(||q||, ||r||, ||v||); an
  // overflowing iterate is not "converged" (inf / inf), it has diverged
  return nsd_fcc_natural_value(sums, q_norm);
}

void nsd_fcc_natural_sums(int dim, int nc, const double* mu, const double* r, const double* v,
                          int desaxce, double sums[3], int nt) {
  int n = nc * dim;
  sums[0] = sums[1] = sums[2] = 0.0;
  if (nc <= 0) return;
  int len = nsd_fcc_chunk_length(nc), nch = (nc + len - 1) / len;
  double part[NSD_FCC_MAX_CHUNKS][3];
  // per chunk of contacts: sum ||e_a||^2, ||r_a||^2, ||v_a||^2
  NSD_FCC_PARALLEL_FOR(nt, n)
  for (int c = 0; c < nch; ++c) {
    int a0 = c * len, a1 = a0 + len < nc ? a0 + len : nc;
    double s3[3] = {0.0, 0.0, 0.0};
    for (int a = a0; a < a1; ++a)
      nsd_fcc_natural_terms(dim, mu ? mu[a] : 0.0, r + (size_t)dim * a, v + (size_t)dim * a,
                            desaxce, s3);
    for (int k = 0; k < 3; ++k) part[c][k] = s3[k];
  }
  for (int c = 0; c < nch; ++c)
    for (int k = 0; k < 3; ++k) sums[k] += part[c][k];
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

/* ---- triplets ------------------------------------------------------------------ */

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

/* ---- row-parallel products --------------------------------------------------- */

NsdStatus nsd_fcc_rowop_init(NsdFccRowOp* op, const NsdMatrix* a) {
  memset(op, 0, sizeof *op);
  op->a = a;
  op->rows = a->rows;
  op->cols = a->cols;
  // rows of a CSC matrix: the columns of its transpose (no triplets)
  if (a->storage == NSD_CSC) {
    op->csr = cs_di_transpose(a->csc, 1);
    if (!op->csr) return NSD_FAILED;
  }
  return NSD_OK;
}

void nsd_fcc_rowop_free(NsdFccRowOp* op) {
  if (!op) return;
  if (op->csr) cs_di_spfree(op->csr);
  memset(op, 0, sizeof *op);
}

int nsd_fcc_row_chunk_length(int units) {
  int c = (units + NSD_FCC_MAX_CHUNKS - 1) / NSD_FCC_MAX_CHUNKS;
  return c < NSD_FCC_ROW_CHUNK_MIN ? NSD_FCC_ROW_CHUNK_MIN : c;
}

/* Units the rows of op are computed by: block rows (sparse-block), else rows. */
static int rowop_units(const NsdFccRowOp* op) {
  return op->csr || op->a->storage != NSD_SPARSE_BLOCK ? op->rows : op->a->sbm->n_block_rows;
}

/* First row of unit u. */
static int rowop_unit_row(const NsdFccRowOp* op, int u) {
  if (op->csr || op->a->storage != NSD_SPARSE_BLOCK) return u;
  return u > 0 ? op->a->sbm->row_end[u - 1] : 0;
}

/* y = A x on the units [u0, u1): each row summed in a fixed order, whatever
 * the units are grouped in. */
static void rowop_units_apply(const NsdFccRowOp* op, const double* x, double* y, int u0, int u1) {
  const NsdMatrix* a = op->a;
  if (op->csr) {
    // compressed rows
    const int* rp = op->csr->p;
    const int* ci = op->csr->i;
    const double* val = op->csr->x;
    for (int i = u0; i < u1; ++i) {
      double t = 0.0;
      for (int p = rp[i]; p < rp[i + 1]; ++p) t += val[p] * x[ci[p]];
      y[i] = t;
    }
  } else if (a->storage == NSD_SPARSE_BLOCK) {
    // block rows, one at a time
    const NsdSparseBlock* s = a->sbm;
    for (int bi = u0; bi < u1; ++bi)
      nsd_fcc_block_row_apply(s, bi, x, y + (bi > 0 ? s->row_end[bi - 1] : 0));
  } else {
    // dense column-major: the rows [u0, u1) sweep the columns
    int rows = op->rows, cols = op->cols;
    for (int i = u0; i < u1; ++i) y[i] = 0.0;
    for (int j = 0; j < cols; ++j) {
      const double* col = a->dense + (size_t)j * (size_t)rows;
      double xj = x[j];
      for (int i = u0; i < u1; ++i) y[i] += col[i] * xj;
    }
  }
}

int nsd_fcc_rowop_apply_then(const NsdFccRowOp* op, const double* x, double* y, int nt,
                             NsdFccRowsDone done, void* ctx) {
  int units = rowop_units(op);
  int len = nsd_fcc_row_chunk_length(units), nch = (units + len - 1) / len;
  long work = op->csr || op->a->storage != NSD_DENSE ? (long)op->rows : (long)op->rows * op->cols;
  // each chunk of units by one thread, then its epilogue
  NSD_FCC_PARALLEL_FOR_DYNAMIC(nt, work, 4)
  for (int c = 0; c < nch; ++c) {
    int u0 = c * len, u1 = u0 + len < units ? u0 + len : units;
    rowop_units_apply(op, x, y, u0, u1);
    if (done) done(ctx, c, rowop_unit_row(op, u0), rowop_unit_row(op, u1));
  }
  return nch;
}

void nsd_fcc_rowop_apply(const NsdFccRowOp* op, const double* x, double* y, int nt) {
  nsd_fcc_rowop_apply_then(op, x, y, nt, NULL, NULL);
}

/* ---- the operator N ----------------------------------------------------------- */

NsdStatus nsd_fcc_operator_init(NsdFccOperator* op, const NsdDelassus* d, int nt) {
  memset(op, 0, sizeof *op);
  op->delassus = d;
  op->nt = nt;
  if (d->assembled) return nsd_fcc_rowop_init(&op->rowop, d->assembled);
  // the fused factored product needs only w
  op->fused = nsd_fcc_factored_fusable(d);
  if (!op->fused) op->v = malloc((size_t)d->n_dof * sizeof *op->v);
  op->w = malloc((size_t)d->n_dof * sizeof *op->w);
  if ((!op->fused && !op->v) || !op->w) {
    nsd_fcc_operator_free(op);
    return NSD_FAILED;
  }
  return NSD_OK;
}

int nsd_fcc_operator_apply_then(NsdFccOperator* op, const double* x, double* y, NsdFccRowsDone done,
                                void* ctx) {
  const NsdDelassus* d = op->delassus;
  op->applications++;
  if (d->assembled) return nsd_fcc_rowop_apply_then(&op->rowop, x, y, op->nt, done, ctx);
  // y = J (M^-1 (J^T x))
  if (op->fused) return nsd_fcc_factored_apply(d, x, op->w, y, done, ctx);
  d->apply_jt(d->user, x, op->v);
  d->apply_minv(d->user, op->v, op->w);
  d->apply_j(d->user, op->w, y);
  // the epilogues on chunks of rows, in one more parallel loop
  int m = d->size, len = nsd_fcc_row_chunk_length(m), nch = (m + len - 1) / len;
  if (done) {
    NSD_FCC_PARALLEL_FOR(op->nt, m)
    for (int c = 0; c < nch; ++c) done(ctx, c, c * len, c * len + len < m ? c * len + len : m);
  }
  return nch;
}

void nsd_fcc_operator_apply(NsdFccOperator* op, const double* x, double* y) {
  nsd_fcc_operator_apply_then(op, x, y, NULL, NULL);
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
                    "(n_dof = %d)",
                    d->n_dof);
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

/* Position of block (bi, bj) in a sparse-block matrix (block columns
 * strictly increasing in each block row), or -1. */
static int sbm_find(const NsdSparseBlock* s, int bi, int bj) {
  int lo = s->row_ptr[bi], hi = s->row_ptr[bi + 1];
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (s->col_index[mid] < bj)
      lo = mid + 1;
    else if (s->col_index[mid] > bj)
      hi = mid;
    else
      return mid;
  }
  return -1;
}

/* Same row and column block partitions? */
static int sbm_square_blocks(const NsdSparseBlock* s) {
  if (s->n_block_rows != s->n_block_cols) return 0;
  for (int b = 0; b < s->n_block_rows; ++b)
    if (s->row_end[b] != s->col_end[b]) return 0;
  return 1;
}

/* max |M_ij - M_ji| over the stored entries of a sparse-block M with square
 * block partitions (as nsd_matrix_asymmetry, which looks every mirror entry
 * up on its own), block against mirror block, rows in parallel. */
static double sbm_asymmetry(const NsdSparseBlock* s, int nt) {
  double big = 0.0;
  int nan_seen = 0;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) if (nt > 1 && s->n_block_rows >= NSD_FCC_PARALLEL_MIN) \
    schedule(static) reduction(max                                                              \
                               : big) reduction(|                                               \
                                                : nan_seen)
#endif
  for (int bi = 0; bi < s->n_block_rows; ++bi) {
    int r0 = bi > 0 ? s->row_end[bi - 1] : 0, h = s->row_end[bi] - r0;
    for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k) {
      int bj = s->col_index[k];
      int c0 = bj > 0 ? s->col_end[bj - 1] : 0, w = s->col_end[bj] - c0;
      const double* blk = s->values + s->value_start[k];
      // the mirror block (bj, bi) is w x h; absent, it is zero
      int km = sbm_find(s, bj, bi);
      const double* mir = km >= 0 ? s->values + s->value_start[km] : NULL;
      for (int jj = 0; jj < w; ++jj)
        for (int ii = 0; ii < h; ++ii) {
          double d = fabs(blk[(size_t)ii + (size_t)jj * (size_t)h] -
                          (mir ? mir[(size_t)jj + (size_t)ii * (size_t)w] : 0.0));
          if (isnan(d))
            nan_seen = 1;
          else if (d > big)
            big = d;
        }
    }
  }
  return nan_seen ? NAN : big;
}

/* Relative slack of the symmetry and semidefiniteness tests. Delassus
 * matrices written to files carry asymmetries up to 2e-3 of the largest entry
 * (the shared Capsules files); the solvers use u = M r + q as given (the
 * iteration of a monotone variational inequality), so they solve that
 * problem, and only a grossly non-symmetric M is refused. */
#define NSD_FCC_SYMMETRY_TOL 1e-2
#define NSD_FCC_MINOR_TOL 1e-12

/* Is the dim x dim diagonal block B (column-major) indefinite, by its
 * principal minors (1x1, 2x2 and, dim 3, the determinant)? */
static int block_indefinite(const double* B, int dim) {
  double s = 0.0;
  for (int k = 0; k < dim * dim; ++k) s = fmax(s, fabs(B[k]));
  double tol1 = NSD_FCC_MINOR_TOL * s, tol2 = tol1 * s, tol3 = tol2 * s;
  for (int i = 0; i < dim; ++i) {
    if (B[i + dim * i] < -tol1) return 1;
    for (int j = i + 1; j < dim; ++j)
      if (B[i + dim * i] * B[j + dim * j] - B[i + dim * j] * B[j + dim * i] < -tol2) return 1;
  }
  if (dim == 3) {
    double det = B[0] * (B[4] * B[8] - B[7] * B[5]) - B[3] * (B[1] * B[8] - B[7] * B[2]) +
                 B[6] * (B[1] * B[5] - B[4] * B[2]);
    if (det < -tol3) return 1;
  }
  return 0;
}

int nsd_fcc_check_psd(const NsdMatrix* M, int dim, const char* solver, NsdReport* report) {
  return nsd_fcc_check_psd_threads(M, dim, solver, report, 1);
}

int nsd_fcc_check_psd_threads(const NsdMatrix* M, int dim, const char* solver, NsdReport* report,
                              int nt) {
  double big = nsd_fcc_max_abs(M);
  // sparse-block with the blocks of the contacts: blocks looked up directly
  int sbm = M->storage == NSD_SPARSE_BLOCK && sbm_square_blocks(M->sbm);
  int contact_blocks = sbm;
  for (int b = 0; contact_blocks && b < M->sbm->n_block_rows; ++b)
    if (M->sbm->row_end[b] != dim * (b + 1)) contact_blocks = 0;
  double asym = sbm ? sbm_asymmetry(M->sbm, nt) : nsd_matrix_asymmetry(M);
  if (!(asym <= NSD_FCC_SYMMETRY_TOL * big)) {
    nsd_report_fail(report, NSD_BAD_INPUT,
                    "%s needs M symmetric positive semidefinite: max |M_ij - M_ji| = %g "
                    "> %g * max |M_ij| = %g",
                    solver, asym, NSD_FCC_SYMMETRY_TOL, big);
    return 0;
  }
  // principal minors of each diagonal block; the first indefinite one is reported
  int n = M->rows / dim, first_bad = n;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) if (nt > 1 && n >= NSD_FCC_PARALLEL_MIN) schedule(static) \
    reduction(min                                                                                  \
              : first_bad)
#endif
  for (int a = 0; a < n; ++a) {
    double B[9] = {0.0};
    if (contact_blocks) {
      int k = sbm_find(M->sbm, a, a);
      if (k >= 0)
        memcpy(B, M->sbm->values + M->sbm->value_start[k], (size_t)(dim * dim) * sizeof *B);
    } else if (nsd_matrix_diagonal_block(M, dim * a, dim, B) != NSD_OK) {
      continue;
    }
    if (a < first_bad && block_indefinite(B, dim)) first_bad = a;
  }
  if (first_bad < n) {
    nsd_report_fail(report, NSD_BAD_INPUT,
                    "%s needs M symmetric positive semidefinite: diagonal block of contact %d "
                    "is indefinite",
                    solver, first_bad);
    return 0;
  }
  return 1;
}

double nsd_fcc_monitor_eval(NsdFccMonitor* mon, const double* x, const double* nx) {
  // residual of the convex problem at x
  nsd_fcc_axpby(1.0, nx, 1.0, mon->qs, mon->w, mon->m, mon->nt);
  mon->own =
      nsd_fcc_natural_residual(mon->dim, mon->nc, mon->mu, x, mon->w, 0, mon->qs_norm, mon->nt);
  double value = mon->own;
  // Siconos error of x for the Coulomb problem
  if (mon->q_true) {
    nsd_fcc_axpby(1.0, nx, 1.0, mon->q_true, mon->u, mon->m, mon->nt);
    mon->coulomb =
        nsd_fcc_natural_residual(mon->dim, mon->nc, mon->mu, x, mon->u, 1, mon->q_norm, mon->nt);
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
