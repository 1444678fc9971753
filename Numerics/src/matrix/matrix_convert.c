/* Conversions between the three storages of an NsdMatrix. */
#include <limits.h>
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
