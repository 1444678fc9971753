/* Conversions between the three storages of an NsdMatrix, and a + shift I as CSC. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/matrix_internal.h"

/* ---- to compressed sparse column ------------------------------------------- */

/* Canonical CSC of a dense matrix, only its non-zero entries. */
static cs_di* dense_to_cs(const NsdMatrix* a) {
  size_t rows = (size_t)a->rows, nnz = 0;
  for (size_t q = 0; q < rows * (size_t)a->cols; ++q) nnz += a->dense[q] != 0.0;
  if (nnz > INT_MAX) return NULL;

  cs_di* c = cs_di_spalloc(a->rows, a->cols, nnz > 0 ? (int)nnz : 1, 1, 0);
  if (!c) return NULL;
  // columns in order, rows in order: sorted, no duplicates
  int nz = 0;
  for (int j = 0; j < a->cols; ++j) {
    c->p[j] = nz;
    const double* col = a->dense + (size_t)j * rows;
    for (int i = 0; i < a->rows; ++i)
      if (col[i] != 0.0) {
        c->i[nz] = i;
        c->x[nz++] = col[i];
      }
  }
  c->p[a->cols] = nz;
  return c;
}

/* Canonical CSC of a sparse-block matrix, only its non-zero entries. */
static cs_di* sbm_to_cs(const NsdMatrix* a) {
  const NsdSparseBlock* s = a->sbm;
  int* next = calloc((size_t)a->cols + 1, sizeof(int));
  if (!next) return NULL;

  // count the non-zero entries of each column
  size_t nnz = 0;
  for (int bi = 0; bi < s->n_block_rows; ++bi) {
    int r0 = nsd_sbm_start(s->row_end, bi);
    size_t h = (size_t)(s->row_end[bi] - r0);
    for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k) {
      int c0 = nsd_sbm_start(s->col_end, s->col_index[k]), c1 = s->col_end[s->col_index[k]];
      const double* blk = s->values + s->value_start[k];
      for (int j = c0; j < c1; ++j)
        for (size_t ii = 0; ii < h; ++ii)
          if (blk[ii + (size_t)(j - c0) * h] != 0.0) {
            ++next[j];
            ++nnz;
          }
    }
  }
  if (nnz > INT_MAX) {
    free(next);
    return NULL;
  }
  cs_di* c = cs_di_spalloc(a->rows, a->cols, nnz > 0 ? (int)nnz : 1, 1, 0);
  if (!c) {
    free(next);
    return NULL;
  }

  // column pointers; next[j] becomes the insertion point of column j
  int sum = 0;
  for (int j = 0; j < a->cols; ++j) {
    c->p[j] = sum;
    sum += next[j];
    next[j] = c->p[j];
  }
  c->p[a->cols] = sum;

  // fill block row after block row, so that rows come sorted in every column
  for (int bi = 0; bi < s->n_block_rows; ++bi) {
    int r0 = nsd_sbm_start(s->row_end, bi);
    size_t h = (size_t)(s->row_end[bi] - r0);
    for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k) {
      int c0 = nsd_sbm_start(s->col_end, s->col_index[k]), c1 = s->col_end[s->col_index[k]];
      const double* blk = s->values + s->value_start[k];
      for (int j = c0; j < c1; ++j)
        for (size_t ii = 0; ii < h; ++ii) {
          double v = blk[ii + (size_t)(j - c0) * h];
          if (v != 0.0) {
            c->i[next[j]] = r0 + (int)ii;
            c->x[next[j]++] = v;
          }
        }
    }
  }
  free(next);
  return c;
}

/* Canonical copy of a CSC matrix without its explicit zeros. */
static cs_di* csc_to_cs(const NsdMatrix* a) {
  cs_di* c = nsd_csc_canonical(a->csc);
  if (!c) return NULL;
  int nz = 0;
  for (int j = 0; j < c->n; ++j) {
    int begin = c->p[j], end = c->p[j + 1];
    c->p[j] = nz;
    for (int q = begin; q < end; ++q)
      if (c->x[q] != 0.0) {
        c->i[nz] = c->i[q];
        c->x[nz++] = c->x[q];
      }
  }
  c->p[c->n] = nz;
  return c;
}

cs_di* nsd_matrix_to_cs(const NsdMatrix* a) {
  if (!nsd_matrix_is_valid(a)) return NULL;
  switch (a->storage) {
    case NSD_DENSE:
      return dense_to_cs(a);
    case NSD_SPARSE_BLOCK:
      return sbm_to_cs(a);
    case NSD_CSC:
      return csc_to_cs(a);
  }
  return NULL;
}

/* ---- to dense ------------------------------------------------------------------- */

/* New dense matrix with the entries of a sparse-block or CSC matrix. */
static NsdMatrix* sparse_to_dense(const NsdMatrix* a) {
  NsdMatrix* d = nsd_matrix_create_dense(a->rows, a->cols);
  if (!d) return NULL;
  size_t rows = (size_t)a->rows;
  if (a->storage == NSD_SPARSE_BLOCK) {
    // copy each block's columns into place
    const NsdSparseBlock* s = a->sbm;
    for (int bi = 0; bi < s->n_block_rows; ++bi) {
      int r0 = nsd_sbm_start(s->row_end, bi);
      size_t h = (size_t)(s->row_end[bi] - r0);
      for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k) {
        int c0 = nsd_sbm_start(s->col_end, s->col_index[k]), c1 = s->col_end[s->col_index[k]];
        const double* blk = s->values + s->value_start[k];
        for (int j = c0; j < c1; ++j)
          memcpy(d->dense + (size_t)r0 + (size_t)j * rows, blk + (size_t)(j - c0) * h,
                 h * sizeof(double));
      }
    }
  } else {
    // scatter the columns (duplicates add up)
    const cs_di* c = a->csc;
    for (int j = 0; j < c->n; ++j)
      for (int q = c->p[j]; q < c->p[j + 1]; ++q)
        d->dense[(size_t)c->i[q] + (size_t)j * rows] += c->x[q];
  }
  return d;
}

/* ---- to sparse block ------------------------------------------------------------- */

/**
 * New sparse-block matrix with square blocks of size bs holding the canonical
 * CSC matrix @p c: a block is stored when it holds an entry of c.
 */
static NsdMatrix* cs_to_sbm(const cs_di* c, int bs) {
  int nr = c->m / bs, nc = c->n / bs;
  int* row_end = malloc(((size_t)nr + 1) * sizeof(int));
  int* col_end = malloc(((size_t)nc + 1) * sizeof(int));
  int* row_ptr = calloc((size_t)nr + 1, sizeof(int));
  int* mark = malloc(((size_t)nr + 1) * sizeof(int));
  int* next = malloc(((size_t)nr + 1) * sizeof(int));
  int* col_index = NULL;
  NsdMatrix* a = NULL;
  if (!row_end || !col_end || !row_ptr || !mark || !next) goto done;
  for (int b = 0; b < nr; ++b) row_end[b] = (b + 1) * bs;
  for (int b = 0; b < nc; ++b) col_end[b] = (b + 1) * bs;

  // pass 1: count the distinct blocks of each block row, block column by block column
  for (int b = 0; b < nr; ++b) mark[b] = -1;
  for (int bj = 0; bj < nc; ++bj)
    for (int j = bj * bs; j < (bj + 1) * bs; ++j)
      for (int q = c->p[j]; q < c->p[j + 1]; ++q) {
        int bi = c->i[q] / bs;
        if (mark[bi] != bj) {
          mark[bi] = bj;
          ++row_ptr[bi + 1];
        }
      }
  for (int b = 0; b < nr; ++b) row_ptr[b + 1] += row_ptr[b];

  // pass 2: block columns in increasing order give sorted col_index per block row
  col_index = malloc(((size_t)row_ptr[nr] + 1) * sizeof(int));
  if (!col_index) goto done;
  for (int b = 0; b < nr; ++b) {
    mark[b] = -1;
    next[b] = row_ptr[b];
  }
  for (int bj = 0; bj < nc; ++bj)
    for (int j = bj * bs; j < (bj + 1) * bs; ++j)
      for (int q = c->p[j]; q < c->p[j + 1]; ++q) {
        int bi = c->i[q] / bs;
        if (mark[bi] != bj) {
          mark[bi] = bj;
          col_index[next[bi]++] = bj;
        }
      }

  // allocate the structure, then drop every entry into its block
  a = nsd_matrix_create_sparse_block(nr, nc, row_end, col_end, row_ptr, col_index);
  if (!a) goto done;
  for (int j = 0; j < c->n; ++j)
    for (int q = c->p[j]; q < c->p[j + 1]; ++q) {
      int k = nsd_matrix_sbm_find(a, c->i[q] / bs, j / bs);
      a->sbm->values[a->sbm->value_start[k] + (size_t)(c->i[q] % bs) +
                     (size_t)(j % bs) * (size_t)bs] = c->x[q];
    }

done:
  free(row_end);
  free(col_end);
  free(row_ptr);
  free(mark);
  free(next);
  free(col_index);
  return a;
}

/* ---- dispatch ----------------------------------------------------------------- */

NsdMatrix* nsd_matrix_convert(const NsdMatrix* a, NsdStorage storage, int block_size) {
  if (!nsd_matrix_is_valid(a)) return NULL;
  switch (storage) {
    case NSD_DENSE:
      return a->storage == NSD_DENSE ? nsd_matrix_copy(a) : sparse_to_dense(a);
    case NSD_CSC:
      return nsd_matrix_wrap_csc(nsd_matrix_to_cs(a));
    case NSD_SPARSE_BLOCK: {
      if (block_size <= 0 || a->rows % block_size != 0 || a->cols % block_size != 0) return NULL;
      cs_di* c = nsd_matrix_to_cs(a);
      if (!c) return NULL;
      NsdMatrix* b = cs_to_sbm(c, block_size);
      cs_di_spfree(c);
      return b;
    }
  }
  return NULL;
}

/* ---- a + shift I, compressed column ---------------------------------------------- */

/* |d| into the running maximum m; a NaN sticks (as nsd_matrix_asymmetry). */
static double shifted_max_abs(double m, double d) {
  d = fabs(d);
  return (d > m || isnan(d)) && !isnan(m) ? d : m;
}

/* Index of block column bj in block row bi of s (strictly increasing columns), or -1. */
static int sbm_row_find(const NsdSparseBlock* s, int bi, int bj) {
  int lo = s->row_ptr[bi], hi = s->row_ptr[bi + 1] - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (s->col_index[mid] == bj) return mid;
    if (s->col_index[mid] < bj)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

/* max |a_ij - a_ji| of sparse-block s whose row and column blocks are the same: each stored
 * block against its mirror block (found by a binary search of its block row), an absent
 * mirror being zero. */
static double sbm_block_asymmetry(const NsdSparseBlock* s) {
  double m = 0.0;
  for (int bi = 0; bi < s->n_block_rows; ++bi) {
    int h = s->row_end[bi] - nsd_sbm_start(s->row_end, bi);
    for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k) {
      int bj = s->col_index[k], w = s->col_end[bj] - nsd_sbm_start(s->col_end, bj);
      int km = sbm_row_find(s, bj, bi);
      const double* blk = s->values + s->value_start[k];
      const double* mir = km >= 0 ? s->values + s->value_start[km] : NULL;
      for (int jj = 0; jj < w; ++jj)
        for (int ii = 0; ii < h; ++ii)
          m = shifted_max_abs(m, blk[(size_t)ii + (size_t)jj * (size_t)h] -
                                     (mir ? mir[(size_t)jj + (size_t)ii * (size_t)w] : 0.0));
    }
  }
  return m;
}

/* max |c_ij - c_ji| of square canonical c: each entry against its mirror, found by a binary
 * search of the mirror's column (absent: zero); the diagonal skipped when asked (as
 * nsd_matrix_asymmetry does for a dense matrix). */
static double cs_asymmetry(const cs_di* c, int skip_diagonal) {
  double m = 0.0;
  for (int j = 0; j < c->n; ++j)
    for (int q = c->p[j]; q < c->p[j + 1]; ++q) {
      int i = c->i[q], lo = c->p[i], hi = c->p[i + 1] - 1;
      if (skip_diagonal && i == j) continue;
      double mirror = 0.0;
      while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (c->i[mid] == j) {
          mirror = c->x[mid];
          break;
        }
        if (c->i[mid] < j)
          lo = mid + 1;
        else
          hi = mid - 1;
      }
      m = shifted_max_abs(m, c->x[q] - mirror);
    }
  return m;
}

/* Canonical c with shift added to its diagonal, every diagonal entry stored (a new one holding
 * shift where c has none); only its lower triangle (i >= j) when lower is 1. */
static cs_di* cs_add_diagonal(const cs_di* c, double shift, int lower) {
  int n = c->n, nz = c->p[n];
  if (nz > INT_MAX - n) return NULL;
  cs_di* d = cs_di_spalloc(n, n, nz + n > 0 ? nz + n : 1, 1, 0);
  if (!d) return NULL;
  int k = 0;
  for (int j = 0; j < n; ++j) {
    d->p[j] = k;
    int q = c->p[j], end = c->p[j + 1];
    for (; q < end && c->i[q] < j; ++q)
      if (!lower) {
        d->i[k] = c->i[q];
        d->x[k++] = c->x[q];
      }
    d->i[k] = j;
    d->x[k++] = q < end && c->i[q] == j ? c->x[q++] + shift : shift;
    for (; q < end; ++q, ++k) {
      d->i[k] = c->i[q];
      d->x[k] = c->x[q];
    }
  }
  d->p[n] = k;
  return d;
}

/* CSC of sparse-block a + shift I written block row after block row (rows come sorted in every
 * column): every stored entry (only those with i >= j when lower is 1), explicit zeros kept, the
 * diagonal always stored. NULL on no memory, or when a block row repeats a block column. */
static cs_di* sbm_shifted_cs(const NsdMatrix* a, double shift, int lower) {
  const NsdSparseBlock* s = a->sbm;
  int n = a->cols;
  for (int bi = 0; bi < s->n_block_rows; ++bi)
    for (int k = s->row_ptr[bi] + 1; k < s->row_ptr[bi + 1]; ++k)
      if (s->col_index[k] <= s->col_index[k - 1]) return NULL;
  // next[j]: entries of column j, then its insertion point; inside[i]: 1 when a stored block
  // holds a_ii
  int* next = calloc(2 * (size_t)n + 1, sizeof(int));
  if (!next) return NULL;
  int* inside = next + n + 1;
  size_t nnz = 0;
  for (int bi = 0; bi < s->n_block_rows; ++bi) {
    int r0 = nsd_sbm_start(s->row_end, bi), r1 = s->row_end[bi];
    for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k) {
      int c0 = nsd_sbm_start(s->col_end, s->col_index[k]), c1 = s->col_end[s->col_index[k]];
      for (int j = c0; j < c1; ++j) {
        int top = lower && j > r0 ? j : r0;  // first row kept in column j
        if (top < r1) {
          next[j] += r1 - top;
          nnz += (size_t)(r1 - top);
        }
      }
      for (int i = c0 > r0 ? c0 : r0; i < (c1 < r1 ? c1 : r1); ++i) inside[i] = 1;
    }
  }
  for (int i = 0; i < n; ++i) next[i] += !inside[i];
  nnz += (size_t)n;
  cs_di* c = nnz <= INT_MAX ? cs_di_spalloc(n, n, nnz > 0 ? (int)nnz : 1, 1, 0) : NULL;
  if (!c) {
    free(next);
    return NULL;
  }
  int sum = 0;
  for (int j = 0; j < n; ++j) {
    c->p[j] = sum;
    sum += next[j];
    next[j] = c->p[j];
  }
  c->p[n] = sum;

  // block row after block row; a diagonal entry outside the stored blocks goes in with its row
  for (int bi = 0; bi < s->n_block_rows; ++bi) {
    int r0 = nsd_sbm_start(s->row_end, bi), r1 = s->row_end[bi];
    size_t h = (size_t)(r1 - r0);
    for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k) {
      int c0 = nsd_sbm_start(s->col_end, s->col_index[k]), c1 = s->col_end[s->col_index[k]];
      const double* blk = s->values + s->value_start[k];
      for (int j = c0; j < c1; ++j) {
        size_t top = lower && j > r0 ? (size_t)(j - r0) : 0;  // first row kept in column j
        if (top >= h) continue;
        const double* col = blk + (size_t)(j - c0) * h;
        int q = next[j];
        for (size_t ii = top; ii < h; ++ii, ++q) {
          c->i[q] = r0 + (int)ii;
          c->x[q] = col[ii];
        }
        if (j >= r0 && j < r1) c->x[next[j] + (j - r0) - (int)top] += shift;
        next[j] = q;
      }
    }
    for (int i = r0; i < r1; ++i)
      if (!inside[i]) {
        c->i[next[i]] = i;
        c->x[next[i]++] = shift;
      }
  }
  free(next);
  return c;
}

NsdMatrix* nsd_matrix_create_csc_shifted(const NsdMatrix* a, double shift, int lower,
                                         double* asymmetry) {
  if (!nsd_matrix_is_valid(a) || a->rows != a->cols || (lower != 0 && lower != 1)) return NULL;
  // a sparse-block a with the same row and column blocks has its symmetry read block against
  // mirror block
  const NsdSparseBlock* s = a->sbm;
  int same = a->storage == NSD_SPARSE_BLOCK && s->n_block_rows == s->n_block_cols &&
             (s->n_block_rows == 0 ||
              memcmp(s->row_end, s->col_end, (size_t)s->n_block_rows * sizeof(int)) == 0);
  double asym = 0.0;
  cs_di* c = NULL;
  if (a->storage == NSD_SPARSE_BLOCK) {
    c = sbm_shifted_cs(a, shift, lower);
    if (c && asymmetry)
      asym = same ? sbm_block_asymmetry(s) : lower ? nsd_matrix_asymmetry(a) : cs_asymmetry(c, 0);
  } else {
    // canonical stored entries (dense: the non-zeros), then the diagonal merged in
    cs_di* b = a->storage == NSD_CSC ? nsd_csc_canonical(a->csc) : dense_to_cs(a);
    c = b ? cs_add_diagonal(b, shift, lower) : NULL;
    if (c && asymmetry) asym = cs_asymmetry(b, a->storage == NSD_DENSE);
    cs_di_spfree(b);
  }
  if (!c) return NULL;
  if (asymmetry) *asymmetry = asym;
  return nsd_matrix_wrap_csc(c);
}
