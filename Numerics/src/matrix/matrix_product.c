/* Matrix-vector products y = alpha op(A) x + beta y, and single-row products. */
#include <cblas.h>
#include <string.h>

#include "matrix/matrix_internal.h"

/* y = beta * y over n entries; beta == 0 overwrites y, ignoring what it held (even NaN). */
static void scale(double beta, double* y, int n) {
  if (beta == 1.0 || n == 0) return;
  if (beta == 0.0) {
    memset(y, 0, (size_t)n * sizeof(double));
    return;
  }
  for (int i = 0; i < n; ++i) y[i] *= beta;
}

/**
 * Common part of gemv and gemv_t: checks the arguments (y of length ny, x of
 * length nx, NULL allowed only for length 0), applies beta, and tells whether
 * alpha A x remains to be added.
 */
static int gemv_prologue(double alpha, const double* x, int nx, double beta, double* y, int ny) {
  if ((nx > 0 && !x) || (ny > 0 && !y)) return 0;
  scale(beta, y, ny);
  return alpha != 0.0 && nx > 0 && ny > 0;
}

void nsd_matrix_gemv(double alpha, const NsdMatrix* a, const double* x, double beta, double* y) {
  if (!nsd_matrix_is_valid(a)) return;
  if (!gemv_prologue(alpha, x, a->cols, beta, y, a->rows)) return;

  switch (a->storage) {
    case NSD_DENSE:
      cblas_dgemv(CblasColMajor, CblasNoTrans, a->rows, a->cols, alpha, a->dense, a->rows, x, 1,
                  1.0, y, 1);
      return;
    case NSD_SPARSE_BLOCK: {
      // y[rows of I] += alpha * A_IJ x[cols of J], one block at a time
      const NsdSparseBlock* s = a->sbm;
      for (int bi = 0; bi < s->n_block_rows; ++bi) {
        int r0 = nsd_sbm_start(s->row_end, bi);
        size_t h = (size_t)(s->row_end[bi] - r0);
        double* yb = y + r0;
        for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k) {
          int c0 = nsd_sbm_start(s->col_end, s->col_index[k]);
          size_t w = (size_t)(s->col_end[s->col_index[k]] - c0);
          const double* blk = s->values + s->value_start[k];
          for (size_t jj = 0; jj < w; ++jj) {
            double t = alpha * x[(size_t)c0 + jj];
            const double* col = blk + jj * h;
            for (size_t ii = 0; ii < h; ++ii) yb[ii] += col[ii] * t;
          }
        }
      }
      return;
    }
    case NSD_CSC: {
      // column by column: y += (alpha x_j) A(:,j)
      const cs_di* c = a->csc;
      for (int j = 0; j < c->n; ++j) {
        double t = alpha * x[j];
        for (int q = c->p[j]; q < c->p[j + 1]; ++q) y[c->i[q]] += c->x[q] * t;
      }
      return;
    }
  }
}

void nsd_matrix_gemv_t(double alpha, const NsdMatrix* a, const double* x, double beta, double* y) {
  if (!nsd_matrix_is_valid(a)) return;
  if (!gemv_prologue(alpha, x, a->rows, beta, y, a->cols)) return;

  switch (a->storage) {
    case NSD_DENSE:
      cblas_dgemv(CblasColMajor, CblasTrans, a->rows, a->cols, alpha, a->dense, a->rows, x, 1, 1.0,
                  y, 1);
      return;
    case NSD_SPARSE_BLOCK: {
      // y[cols of J] += alpha * A_IJ^T x[rows of I], one block at a time
      const NsdSparseBlock* s = a->sbm;
      for (int bi = 0; bi < s->n_block_rows; ++bi) {
        int r0 = nsd_sbm_start(s->row_end, bi);
        size_t h = (size_t)(s->row_end[bi] - r0);
        const double* xb = x + r0;
        for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k) {
          int c0 = nsd_sbm_start(s->col_end, s->col_index[k]);
          size_t w = (size_t)(s->col_end[s->col_index[k]] - c0);
          const double* blk = s->values + s->value_start[k];
          for (size_t jj = 0; jj < w; ++jj) {
            const double* col = blk + jj * h;
            double t = 0.0;
            for (size_t ii = 0; ii < h; ++ii) t += col[ii] * xb[ii];
            y[(size_t)c0 + jj] += alpha * t;
          }
        }
      }
      return;
    }
    case NSD_CSC: {
      // y_j += alpha A(:,j) . x
      const cs_di* c = a->csc;
      for (int j = 0; j < c->n; ++j) {
        double t = 0.0;
        for (int q = c->p[j]; q < c->p[j + 1]; ++q) t += c->x[q] * x[c->i[q]];
        y[j] += alpha * t;
      }
      return;
    }
  }
}

double nsd_matrix_row_dot(const NsdMatrix* a, int i, const double* x) {
  if (!nsd_matrix_is_valid(a) || i < 0 || i >= a->rows || (a->cols > 0 && !x)) return 0.0;
  double sum = 0.0;
  switch (a->storage) {
    case NSD_DENSE: {
      size_t rows = (size_t)a->rows;
      for (size_t j = 0; j < (size_t)a->cols; ++j) sum += a->dense[(size_t)i + j * rows] * x[j];
      return sum;
    }
    case NSD_SPARSE_BLOCK: {
      // row i - r0 of every block in block row I
      const NsdSparseBlock* s = a->sbm;
      int bi = nsd_sbm_locate(s->row_end, s->n_block_rows, i);
      int r0 = nsd_sbm_start(s->row_end, bi);
      size_t h = (size_t)(s->row_end[bi] - r0);
      for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k) {
        int c0 = nsd_sbm_start(s->col_end, s->col_index[k]);
        size_t w = (size_t)(s->col_end[s->col_index[k]] - c0);
        const double* row = s->values + s->value_start[k] + (size_t)(i - r0);
        for (size_t jj = 0; jj < w; ++jj) sum += row[jj * h] * x[(size_t)c0 + jj];
      }
      return sum;
    }
    case NSD_CSC: {
      // every column may hold row i: scan them all
      const cs_di* c = a->csc;
      for (int j = 0; j < c->n; ++j)
        for (int q = c->p[j]; q < c->p[j + 1]; ++q)
          if (c->i[q] == i) sum += c->x[q] * x[j];
      return sum;
    }
  }
  return 0.0;
}
