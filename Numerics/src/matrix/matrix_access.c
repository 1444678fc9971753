/* Entry access, block lookup, diagonals and summary measures of an NsdMatrix. */
#include <math.h>
#include <string.h>

#include "matrix/matrix_internal.h"

/* Larger of m and |d|, letting a NaN win so that it is not hidden. */
static double max_abs(double m, double d) {
  d = fabs(d);
  return (d > m || isnan(d)) && !isnan(m) ? d : m;
}

double nsd_matrix_get(const NsdMatrix* a, int i, int j) {
  if (!nsd_matrix_is_valid(a) || i < 0 || j < 0 || i >= a->rows || j >= a->cols) return 0.0;
  switch (a->storage) {
    case NSD_DENSE:
      return a->dense[(size_t)i + (size_t)j * (size_t)a->rows];
    case NSD_SPARSE_BLOCK: {
      const NsdSparseBlock* s = a->sbm;
      int bi = nsd_sbm_locate(s->row_end, s->n_block_rows, i);
      int bj = nsd_sbm_locate(s->col_end, s->n_block_cols, j);
      int k = nsd_matrix_sbm_find(a, bi, bj);
      if (k < 0) return 0.0;
      int r0 = nsd_sbm_start(s->row_end, bi), c0 = nsd_sbm_start(s->col_end, bj);
      size_t h = (size_t)(s->row_end[bi] - r0);
      return s->values[s->value_start[k] + (size_t)(i - r0) + (size_t)(j - c0) * h];
    }
    case NSD_CSC: {
      // sum over the column, in case the caller's arrays hold duplicates
      const cs_di* c = a->csc;
      double v = 0.0;
      for (int q = c->p[j]; q < c->p[j + 1]; ++q)
        if (c->i[q] == i) v += c->x[q];
      return v;
    }
  }
  return 0.0;
}

double* nsd_matrix_sbm_block(const NsdMatrix* a, int k) {
  if (!nsd_matrix_is_valid(a) || a->storage != NSD_SPARSE_BLOCK) return NULL;
  if (k < 0 || k >= a->sbm->n_blocks) return NULL;
  return a->sbm->values + a->sbm->value_start[k];
}

int nsd_matrix_sbm_find(const NsdMatrix* a, int block_row, int block_col) {
  if (!nsd_matrix_is_valid(a) || a->storage != NSD_SPARSE_BLOCK) return -1;
  const NsdSparseBlock* s = a->sbm;
  if (block_row < 0 || block_row >= s->n_block_rows || block_col < 0 ||
      block_col >= s->n_block_cols)
    return -1;
  // binary search in the strictly increasing block columns of the block row
  int lo = s->row_ptr[block_row], hi = s->row_ptr[block_row + 1];
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (s->col_index[mid] < block_col)
      lo = mid + 1;
    else if (s->col_index[mid] > block_col)
      hi = mid;
    else
      return mid;
  }
  return -1;
}

size_t nsd_matrix_nnz(const NsdMatrix* a) {
  if (!nsd_matrix_is_valid(a)) return 0;
  switch (a->storage) {
    case NSD_DENSE:
      return (size_t)a->rows * (size_t)a->cols;
    case NSD_SPARSE_BLOCK: {
      // summed block sizes (offsets may leave gaps, so not value_start[n_blocks])
      const NsdSparseBlock* s = a->sbm;
      size_t n = 0;
      for (int bi = 0; bi < s->n_block_rows; ++bi) {
        size_t h = (size_t)(s->row_end[bi] - nsd_sbm_start(s->row_end, bi));
        for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k)
          n += h *
               (size_t)(s->col_end[s->col_index[k]] - nsd_sbm_start(s->col_end, s->col_index[k]));
      }
      return n;
    }
    case NSD_CSC:
      return (size_t)a->csc->p[a->csc->n];
  }
  return 0;
}

int nsd_matrix_is_finite(const NsdMatrix* a) {
  if (!nsd_matrix_is_valid(a)) return 0;
  switch (a->storage) {
    case NSD_DENSE:
      return nsd_all_finite(a->dense, (size_t)a->rows * (size_t)a->cols);
    case NSD_SPARSE_BLOCK: {
      const NsdSparseBlock* s = a->sbm;
      for (int k = 0; k < s->n_blocks; ++k) {
        const double* v = s->values + s->value_start[k];
        if (!nsd_all_finite(v, s->value_start[k + 1] - s->value_start[k])) return 0;
      }
      return 1;
    }
    case NSD_CSC:
      return nsd_all_finite(a->csc->x, (size_t)a->csc->p[a->csc->n]);
  }
  return 0;
}

NsdStatus nsd_matrix_diagonal_block(const NsdMatrix* a, int start, int size, double* out) {
  if (!nsd_matrix_is_valid(a) || start < 0 || size < 0) return NSD_BAD_INPUT;
  if (start > a->rows - size || start > a->cols - size) return NSD_BAD_INPUT;
  if (size == 0) return NSD_OK;
  if (!out) return NSD_BAD_INPUT;
  int end = start + size;
  size_t n = (size_t)size;

  switch (a->storage) {
    case NSD_DENSE: {
      // copy the columns of the block one by one
      size_t rows = (size_t)a->rows;
      for (size_t j = 0; j < n; ++j)
        memcpy(out + j * n, a->dense + (size_t)start + ((size_t)start + j) * rows,
               n * sizeof(double));
      return NSD_OK;
    }
    case NSD_SPARSE_BLOCK: {
      // copy the part of every stored block that overlaps the window
      const NsdSparseBlock* s = a->sbm;
      memset(out, 0, n * n * sizeof(double));
      int first = nsd_sbm_locate(s->row_end, s->n_block_rows, start);
      int last = nsd_sbm_locate(s->row_end, s->n_block_rows, end - 1);
      for (int bi = first; bi <= last; ++bi) {
        int r0 = nsd_sbm_start(s->row_end, bi), r1 = s->row_end[bi];
        int ra = r0 > start ? r0 : start, rb = r1 < end ? r1 : end;
        for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k) {
          int bj = s->col_index[k];
          int c0 = nsd_sbm_start(s->col_end, bj), c1 = s->col_end[bj];
          int ca = c0 > start ? c0 : start, cb = c1 < end ? c1 : end;
          const double* blk = s->values + s->value_start[k];
          for (int j = ca; j < cb; ++j)
            for (int i = ra; i < rb; ++i)
              out[(size_t)(i - start) + (size_t)(j - start) * n] =
                  blk[(size_t)(i - r0) + (size_t)(j - c0) * (size_t)(r1 - r0)];
        }
      }
      return NSD_OK;
    }
    case NSD_CSC: {
      // scatter the window's entries of each column (duplicates add up)
      const cs_di* c = a->csc;
      memset(out, 0, n * n * sizeof(double));
      for (int j = start; j < end; ++j)
        for (int q = c->p[j]; q < c->p[j + 1]; ++q)
          if (c->i[q] >= start && c->i[q] < end)
            out[(size_t)(c->i[q] - start) + (size_t)(j - start) * n] += c->x[q];
      return NSD_OK;
    }
  }
  return NSD_BAD_INPUT;
}

void nsd_matrix_diagonal(const NsdMatrix* a, double* out) {
  if (!nsd_matrix_is_valid(a) || !out) return;
  int m = a->rows < a->cols ? a->rows : a->cols;
  switch (a->storage) {
    case NSD_DENSE:
      for (int d = 0; d < m; ++d) out[d] = a->dense[(size_t)d + (size_t)d * (size_t)a->rows];
      return;
    case NSD_SPARSE_BLOCK: {
      // each stored block contributes the diagonal entries it crosses
      const NsdSparseBlock* s = a->sbm;
      memset(out, 0, (size_t)m * sizeof(double));
      for (int bi = 0; bi < s->n_block_rows; ++bi) {
        int r0 = nsd_sbm_start(s->row_end, bi), r1 = s->row_end[bi];
        for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k) {
          int bj = s->col_index[k];
          int c0 = nsd_sbm_start(s->col_end, bj), c1 = s->col_end[bj];
          int lo = r0 > c0 ? r0 : c0, hi = r1 < c1 ? r1 : c1;
          const double* blk = s->values + s->value_start[k];
          for (int d = lo; d < hi; ++d)
            out[d] = blk[(size_t)(d - r0) + (size_t)(d - c0) * (size_t)(r1 - r0)];
        }
      }
      return;
    }
    case NSD_CSC: {
      const cs_di* c = a->csc;
      memset(out, 0, (size_t)m * sizeof(double));
      for (int j = 0; j < m; ++j)
        for (int q = c->p[j]; q < c->p[j + 1]; ++q)
          if (c->i[q] == j) out[j] += c->x[q];
      return;
    }
  }
}

double nsd_matrix_asymmetry(const NsdMatrix* a) {
  if (!nsd_matrix_is_valid(a) || a->rows != a->cols) return INFINITY;
  double m = 0.0;
  switch (a->storage) {
    case NSD_DENSE: {
      size_t n = (size_t)a->rows;
      for (size_t j = 0; j < n; ++j)
        for (size_t i = 0; i < j; ++i) m = max_abs(m, a->dense[i + j * n] - a->dense[j + i * n]);
      return m;
    }
    case NSD_SPARSE_BLOCK: {
      // every stored entry against its mirror (absent mirrors are zero)
      const NsdSparseBlock* s = a->sbm;
      for (int bi = 0; bi < s->n_block_rows; ++bi) {
        int r0 = nsd_sbm_start(s->row_end, bi), r1 = s->row_end[bi];
        for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k) {
          int bj = s->col_index[k];
          int c0 = nsd_sbm_start(s->col_end, bj), c1 = s->col_end[bj];
          const double* blk = s->values + s->value_start[k];
          for (int j = c0; j < c1; ++j)
            for (int i = r0; i < r1; ++i)
              m = max_abs(m, blk[(size_t)(i - r0) + (size_t)(j - c0) * (size_t)(r1 - r0)] -
                                 nsd_matrix_get(a, j, i));
        }
      }
      return m;
    }
    case NSD_CSC: {
      // merge each sorted column of A with the same column of A^T
      cs_di* c = nsd_csc_canonical(a->csc);
      cs_di* t = c ? cs_di_transpose(c, 1) : NULL;
      if (!t) {
        cs_di_spfree(c);
        return NAN;
      }
      for (int j = 0; j < c->n; ++j) {
        int p = c->p[j], pe = c->p[j + 1], q = t->p[j], qe = t->p[j + 1];
        while (p < pe || q < qe) {
          if (q >= qe || (p < pe && c->i[p] < t->i[q])) {
            m = max_abs(m, c->x[p++]);
          } else if (p >= pe || t->i[q] < c->i[p]) {
            m = max_abs(m, t->x[q++]);
          } else {
            m = max_abs(m, c->x[p++] - t->x[q++]);
          }
        }
      }
      cs_di_spfree(c);
      cs_di_spfree(t);
      return m;
    }
  }
  return INFINITY;
}
