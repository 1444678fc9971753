/*
 * Sparsity patterns of the sparse factors: the canonical CSC of a matrix's
 * stored entries (explicit zeros kept), the pattern an NsdFactor records at
 * its analysis and checks at each refactor, and the non-zeros gathered for a
 * numeric factorisation.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/matrix_factor_impl.h"

/* ---- sparse patterns -------------------------------------------------------------- */

/* Canonical CSC with every stored entry of sparse-block s (explicit zeros kept). */
static cs_di* sbm_stored_cs(const NsdSparseBlock* s, int rows, int cols) {
  int* next = calloc((size_t)cols + 1, sizeof(int));
  if (!next) return NULL;
  for (int bi = 0; bi < s->n_block_rows; ++bi) {
    int h = s->row_end[bi] - nsd_sbm_start(s->row_end, bi);
    for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k)
      for (int j = nsd_sbm_start(s->col_end, s->col_index[k]); j < s->col_end[s->col_index[k]]; ++j)
        next[j] += h;
  }
  int nnz = 0;
  for (int j = 0; j < cols; ++j) nnz += next[j];
  cs_di* c = cs_di_spalloc(rows, cols, nnz > 0 ? nnz : 1, 1, 0);
  if (!c) {
    free(next);
    return NULL;
  }
  int sum = 0;
  for (int j = 0; j < cols; ++j) {
    c->p[j] = sum;
    sum += next[j];
    next[j] = c->p[j];
  }
  c->p[cols] = sum;

  // block row after block row: rows come sorted in every column
  for (int bi = 0; bi < s->n_block_rows; ++bi) {
    int r0 = nsd_sbm_start(s->row_end, bi), h = s->row_end[bi] - r0;
    for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k) {
      int c0 = nsd_sbm_start(s->col_end, s->col_index[k]), c1 = s->col_end[s->col_index[k]];
      const double* blk = s->values + s->value_start[k];
      for (int j = c0; j < c1; ++j)
        for (int ii = 0; ii < h; ++ii) {
          c->i[next[j]] = r0 + ii;
          c->x[next[j]++] = blk[(size_t)ii + (size_t)(j - c0) * (size_t)h];
        }
    }
  }
  free(next);
  return c;
}

/* Canonical CSC of sparse a with all its stored entries (explicit zeros kept); NULL on no memory.
 */
cs_di* nsd_factor_stored_cs(const NsdMatrix* a) {
  return a->storage == NSD_CSC ? nsd_csc_canonical(a->csc)
                               : sbm_stored_cs(a->sbm, a->rows, a->cols);
}

/* Record the pattern of canonical c in f. */
int nsd_factor_record_pattern(NsdFactor* f, const cs_di* c) {
  int n = f->n, nz = c->p[n];
  f->pattern_p = malloc(((size_t)n + 1) * sizeof(int));
  f->pattern_i = malloc((size_t)(nz > 0 ? nz : 1) * sizeof(int));
  if (!f->pattern_p || !f->pattern_i) return 0;
  memcpy(f->pattern_p, c->p, ((size_t)n + 1) * sizeof(int));
  if (nz > 0) memcpy(f->pattern_i, c->i, (size_t)nz * sizeof(int));
  return 1;
}

/* 1 if the columns of c (p, i) are exactly the recorded pattern. */
int nsd_factor_pattern_matches(const NsdFactor* f, const cs_di* c) {
  int n = f->n, nz = f->pattern_p[n];
  return c->m == n && c->n == n && memcmp(c->p, f->pattern_p, ((size_t)n + 1) * sizeof(int)) == 0 &&
         (nz == 0 || memcmp(c->i, f->pattern_i, (size_t)nz * sizeof(int)) == 0);
}

/*
 * The non-zero entries of CSC s into out (capacity at least nnz(s)), in the
 * same order; with colmax (and row_count) non-NULL, also the largest |a_ij| of
 * each column and the non-zero count of each row.
 */
void nsd_factor_keep_nonzeros(const cs_di* s, cs_di* out, double* colmax, int* row_count) {
  int nz = 0;
  if (row_count) memset(row_count, 0, (size_t)s->m * sizeof(int));
  for (int j = 0; j < s->n; ++j) {
    out->p[j] = nz;
    double big = 0.0;
    for (int q = s->p[j]; q < s->p[j + 1]; ++q) {
      double v = s->x[q];
      if (v != 0.0) {
        out->i[nz] = s->i[q];
        out->x[nz++] = v;
        big = fabs(v) > big ? fabs(v) : big;
        if (row_count) ++row_count[s->i[q]];
      }
    }
    if (colmax) colmax[j] = big;
  }
  out->p[s->n] = nz;
}
