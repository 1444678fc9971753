/* NsdMatrix creation, copy and destruction, plus the module's shared helpers. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/matrix_internal.h"

/* ---- shared helpers ------------------------------------------------------- */

int nsd_matrix_dense_count(int rows, int cols, size_t* count) {
  if (rows < 0 || cols < 0) return 0;
  size_t r = (size_t)rows, c = (size_t)cols;
  if (c > 0 && r > SIZE_MAX / sizeof(double) / c) return 0;
  if (count) *count = r * c;
  return 1;
}

int nsd_matrix_is_valid(const NsdMatrix* a) {
  if (!a || a->rows < 0 || a->cols < 0) return 0;
  switch (a->storage) {
    case NSD_DENSE:
      return a->dense != NULL && nsd_matrix_dense_count(a->rows, a->cols, NULL);
    case NSD_SPARSE_BLOCK: {
      const NsdSparseBlock* s = a->sbm;
      if (!s || s->n_block_rows < 0 || s->n_block_cols < 0 || s->n_blocks < 0) return 0;
      if (!s->row_ptr || !s->value_start || !s->values) return 0;
      if (s->n_block_rows > 0 && !s->row_end) return 0;
      if (s->n_block_cols > 0 && !s->col_end) return 0;
      if (s->n_blocks > 0 && !s->col_index) return 0;
      int rows = s->n_block_rows > 0 ? s->row_end[s->n_block_rows - 1] : 0;
      int cols = s->n_block_cols > 0 ? s->col_end[s->n_block_cols - 1] : 0;
      return rows == a->rows && cols == a->cols && s->row_ptr[s->n_block_rows] == s->n_blocks;
    }
    case NSD_CSC: {
      const cs_di* c = a->csc;
      if (!c || c->nz != -1 || c->m != a->rows || c->n != a->cols || !c->p) return 0;
      if (c->p[c->n] < 0) return 0;
      return c->p[c->n] == 0 || (c->i && c->x);
    }
  }
  return 0;
}

NsdMatrix* nsd_matrix_shell(NsdStorage storage, int rows, int cols) {
  NsdMatrix* a = calloc(1, sizeof *a);
  if (!a) return NULL;
  a->storage = storage;
  a->rows = rows;
  a->cols = cols;
  return a;
}

void nsd_sbm_free(NsdSparseBlock* s) {
  if (!s) return;
  free(s->row_end);
  free(s->col_end);
  free(s->row_ptr);
  free(s->col_index);
  free(s->value_start);
  free(s->values);
  free(s);
}

int nsd_sbm_locate(const int* end, int n, int i) {
  if (n <= 0 || i < 0 || i >= end[n - 1]) return -1;
  // binary search for the first b with end[b] > i
  int lo = 0, hi = n - 1;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (end[mid] > i)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

NsdMatrix* nsd_matrix_wrap_csc(cs_di* c) {
  if (!c) return NULL;
  NsdMatrix* a = nsd_matrix_shell(NSD_CSC, c->m, c->n);
  if (!a) {
    cs_di_spfree(c);
    return NULL;
  }
  a->csc = c;
  return a;
}

cs_di* nsd_csc_canonical(const cs_di* c) {
  // a double transpose sorts the row indices of every column
  cs_di* t = cs_di_transpose(c, 1);
  if (!t) return NULL;
  cs_di* s = cs_di_transpose(t, 1);
  cs_di_spfree(t);
  if (!s) return NULL;

  // duplicates are now adjacent within a column: add them up in place
  int nz = 0;
  for (int j = 0; j < s->n; ++j) {
    int begin = s->p[j], end = s->p[j + 1];
    s->p[j] = nz;
    for (int q = begin; q < end; ++q) {
      if (nz > s->p[j] && s->i[nz - 1] == s->i[q]) {
        s->x[nz - 1] += s->x[q];
      } else {
        s->i[nz] = s->i[q];
        s->x[nz] = s->x[q];
        ++nz;
      }
    }
  }
  s->p[s->n] = nz;
  return s;
}

/* ---- dense ------------------------------------------------------------------ */

NsdMatrix* nsd_matrix_create_dense(int rows, int cols) {
  size_t count;
  if (!nsd_matrix_dense_count(rows, cols, &count)) return NULL;
  NsdMatrix* a = nsd_matrix_shell(NSD_DENSE, rows, cols);
  if (!a) return NULL;
  // one element at least, so that the storage pointer is never NULL
  a->dense = calloc(count > 0 ? count : 1, sizeof(double));
  if (!a->dense) {
    free(a);
    return NULL;
  }
  return a;
}

NsdMatrix* nsd_matrix_create_dense_from(int rows, int cols, const double* values) {
  size_t count;
  if (!nsd_matrix_dense_count(rows, cols, &count) || (count > 0 && !values)) return NULL;
  NsdMatrix* a = nsd_matrix_create_dense(rows, cols);
  if (a && count > 0) memcpy(a->dense, values, count * sizeof(double));
  return a;
}

NsdMatrix* nsd_matrix_create_dense_from_rows(int rows, int cols, const double* values) {
  size_t count;
  if (!nsd_matrix_dense_count(rows, cols, &count) || (count > 0 && !values)) return NULL;
  NsdMatrix* a = nsd_matrix_create_dense(rows, cols);
  if (!a) return NULL;
  // transpose the row-major input into column-major storage
  for (size_t i = 0; i < (size_t)rows; ++i)
    for (size_t j = 0; j < (size_t)cols; ++j)
      a->dense[i + j * (size_t)rows] = values[i * (size_t)cols + j];
  return a;
}

/* ---- compressed sparse column ---------------------------------------------- */

NsdMatrix* nsd_matrix_create_csc_from_triplets(int rows, int cols, int nnz, const int* i,
                                               const int* j, const double* x) {
  if (rows < 0 || cols < 0 || nnz < 0) return NULL;
  if (nnz > 0 && (!i || !j || !x)) return NULL;
  for (int k = 0; k < nnz; ++k)
    if (i[k] < 0 || i[k] >= rows || j[k] < 0 || j[k] >= cols) return NULL;

  // triplet form, then compressed columns, then sorted with duplicates summed
  cs_di* t = cs_di_spalloc(rows, cols, nnz > 0 ? nnz : 1, 1, 1);
  if (!t) return NULL;
  if (nnz > 0) {
    memcpy(t->i, i, (size_t)nnz * sizeof(int));
    memcpy(t->p, j, (size_t)nnz * sizeof(int));
    memcpy(t->x, x, (size_t)nnz * sizeof(double));
  }
  t->nz = nnz;
  cs_di* c = cs_di_compress(t);
  cs_di_spfree(t);
  if (!c) return NULL;
  cs_di* s = nsd_csc_canonical(c);
  cs_di_spfree(c);
  return nsd_matrix_wrap_csc(s);
}

NsdMatrix* nsd_matrix_create_csc(int rows, int cols, const int* p, const int* i, const double* x) {
  if (rows < 0 || cols < 0 || !p || p[0] != 0) return NULL;
  for (int j = 0; j < cols; ++j)
    if (p[j + 1] < p[j]) return NULL;
  int nnz = p[cols];
  if (nnz > 0 && (!i || !x)) return NULL;
  for (int k = 0; k < nnz; ++k)
    if (i[k] < 0 || i[k] >= rows) return NULL;

  // canonical copy of a read-only view of the caller's arrays
  cs_di view = {
      .nzmax = nnz, .m = rows, .n = cols, .p = (int*)p, .i = (int*)i, .x = (double*)x, .nz = -1};
  return nsd_matrix_wrap_csc(nsd_csc_canonical(&view));
}

/* ---- sparse block ------------------------------------------------------------- */

/* 1 if end[0..n) is strictly increasing from a positive first value. */
static int ends_valid(const int* end, int n) {
  if (n > 0 && !end) return 0;
  for (int b = 0; b < n; ++b)
    if (end[b] <= (b > 0 ? end[b - 1] : 0)) return 0;
  return 1;
}

/* New array holding a copy of n ints (at least one element allocated); NULL on no memory. */
static int* int_copy(const int* src, int n) {
  int* dst = malloc((n > 0 ? (size_t)n : 1) * sizeof(int));
  if (dst && n > 0) memcpy(dst, src, (size_t)n * sizeof(int));
  return dst;
}

NsdMatrix* nsd_matrix_create_sparse_block(int n_block_rows, int n_block_cols, const int* row_end,
                                          const int* col_end, const int* row_ptr,
                                          const int* col_index) {
  // block structure: ends, row pointers, strictly increasing block columns
  if (n_block_rows < 0 || n_block_cols < 0 || !row_ptr || row_ptr[0] != 0) return NULL;
  if (!ends_valid(row_end, n_block_rows) || !ends_valid(col_end, n_block_cols)) return NULL;
  for (int b = 0; b < n_block_rows; ++b)
    if (row_ptr[b + 1] < row_ptr[b]) return NULL;
  int n_blocks = row_ptr[n_block_rows];
  if (n_blocks > 0 && !col_index) return NULL;
  for (int b = 0; b < n_block_rows; ++b)
    for (int k = row_ptr[b]; k < row_ptr[b + 1]; ++k) {
      if (col_index[k] < 0 || col_index[k] >= n_block_cols) return NULL;
      if (k > row_ptr[b] && col_index[k] <= col_index[k - 1]) return NULL;
    }

  // offsets of the blocks in the value array, guarding overflow
  size_t* value_start = malloc(((size_t)n_blocks + 1) * sizeof(size_t));
  if (!value_start) return NULL;
  size_t total = 0;
  for (int b = 0; b < n_block_rows; ++b) {
    size_t h = (size_t)(row_end[b] - nsd_sbm_start(row_end, b));
    for (int k = row_ptr[b]; k < row_ptr[b + 1]; ++k) {
      size_t w = (size_t)(col_end[col_index[k]] - nsd_sbm_start(col_end, col_index[k]));
      value_start[k] = total;
      if (h * w > SIZE_MAX / sizeof(double) - total) {
        free(value_start);
        return NULL;
      }
      total += h * w;
    }
  }
  value_start[n_blocks] = total;

  // allocate the structure, copy the index arrays, zero the values
  NsdSparseBlock* s = calloc(1, sizeof *s);
  NsdMatrix* a =
      nsd_matrix_shell(NSD_SPARSE_BLOCK, n_block_rows > 0 ? row_end[n_block_rows - 1] : 0,
                       n_block_cols > 0 ? col_end[n_block_cols - 1] : 0);
  if (!s || !a) {
    free(value_start);
    free(s);
    free(a);
    return NULL;
  }
  s->n_block_rows = n_block_rows;
  s->n_block_cols = n_block_cols;
  s->n_blocks = n_blocks;
  s->value_start = value_start;
  s->row_end = int_copy(row_end, n_block_rows);
  s->col_end = int_copy(col_end, n_block_cols);
  s->row_ptr = int_copy(row_ptr, n_block_rows + 1);
  s->col_index = int_copy(col_index, n_blocks);
  s->values = calloc(total > 0 ? total : 1, sizeof(double));
  if (!s->row_end || !s->col_end || !s->row_ptr || !s->col_index || !s->values) {
    nsd_sbm_free(s);
    free(a);
    return NULL;
  }
  a->sbm = s;
  return a;
}

/* ---- copy / destroy ------------------------------------------------------------ */

NsdMatrix* nsd_matrix_copy(const NsdMatrix* a) {
  if (!nsd_matrix_is_valid(a)) return NULL;
  switch (a->storage) {
    case NSD_DENSE:
      return nsd_matrix_create_dense_from(a->rows, a->cols, a->dense);
    case NSD_SPARSE_BLOCK: {
      const NsdSparseBlock* s = a->sbm;
      NsdMatrix* b = nsd_matrix_create_sparse_block(s->n_block_rows, s->n_block_cols, s->row_end,
                                                    s->col_end, s->row_ptr, s->col_index);
      if (!b) return NULL;
      // block by block: the source offsets need not be contiguous
      const NsdSparseBlock* t = b->sbm;
      for (int k = 0; k < t->n_blocks; ++k) {
        size_t size = t->value_start[k + 1] - t->value_start[k];
        if (size > 0)
          memcpy(t->values + t->value_start[k], s->values + s->value_start[k],
                 size * sizeof(double));
      }
      return b;
    }
    case NSD_CSC: {
      // exact copy: same column pointers, same order of entries
      const cs_di* c = a->csc;
      int nnz = c->p[c->n];
      cs_di* d = cs_di_spalloc(c->m, c->n, nnz > 0 ? nnz : 1, 1, 0);
      if (!d) return NULL;
      memcpy(d->p, c->p, ((size_t)c->n + 1) * sizeof(int));
      if (nnz > 0) {
        memcpy(d->i, c->i, (size_t)nnz * sizeof(int));
        memcpy(d->x, c->x, (size_t)nnz * sizeof(double));
      }
      return nsd_matrix_wrap_csc(d);
    }
  }
  return NULL;
}

void nsd_matrix_destroy(NsdMatrix* a) {
  if (!a) return;
  free(a->dense);
  nsd_sbm_free(a->sbm);
  if (a->csc) cs_di_spfree(a->csc);
  free(a);
}
