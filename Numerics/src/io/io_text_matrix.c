/* Siconos numerics .dat reader, the MATRIX section (formats/README.md section 1) in its three
 * storages: dense column-major, sparse block, CSparse text (triplets or compressed). Every size
 * is checked against NSD_IO_MAX_DIM and against what the rest of the text can still hold before
 * anything is allocated. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_gmp.h"
#include "io_text_internal.h"

static int fail_int(NsdLexer* lx, NsdField field, long expected) {
  char what[32];
  snprintf(what, sizeof what, "%ld", expected);
  return nsd_lexer_fail(lx, field, what);
}

/* ---- MATRIX, storage 0: dense column-major ------------------------------- */

static int read_dense(NsdLexer* lx, const char* m, int rows, int cols, NsdMatrix** out) {
  size_t count = nsd_mul_sat((size_t)rows, (size_t)cols);
  if (!nsd_lexer_fits(lx, count)) return nsd_lexer_fail_fits(lx, nsd_field(m, "cols"));

  // the sizes are written a second time
  int r2, c2;
  if (!nsd_lexer_int(lx, nsd_field(m, "rows (repeated)"), rows, rows, &r2)) return 0;
  if (!nsd_lexer_int(lx, nsd_field(m, "cols (repeated)"), cols, cols, &c2)) return 0;
  if (!nsd_lexer_fits(lx, count)) return nsd_lexer_fail_fits(lx, nsd_field(m, "cols (repeated)"));

  NsdMatrix* a = nsd_matrix_create_dense(rows, cols);
  if (!a) return fail_memory(lx, "a dense matrix");

  // values column by column
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i)
      if (!nsd_lexer_real(lx, nsd_field2(m, NULL, i, j), &a->dense[i + (size_t)j * rows])) {
        nsd_matrix_destroy(a);
        return 0;
      }
  *out = a;
  return 1;
}

/* ---- MATRIX, storage 1: sparse block (block CSR) ------------------------- */

typedef struct BlockKey {
  int col;
  int k;
} BlockKey;

static int compare_block_key(const void* x, const void* y) {
  const BlockKey* a = x;
  const BlockKey* b = y;
  return (a->col > b->col) - (a->col < b->col);
}

/* A sparse-block matrix with no stored block: one block row and column. */
static int empty_sbm(NsdLexer* lx, const char* m, int rows, int cols, NsdMatrix** out) {
  int nr = rows > 0 ? 1 : 0, nc = cols > 0 ? 1 : 0;
  int row_end[1] = {rows}, col_end[1] = {cols}, row_ptr[2] = {0, 0};
  NsdMatrix* a = nsd_matrix_create_sparse_block(nr, nc, row_end, col_end, row_ptr, NULL);
  if (!a) {
    char what[96];
    snprintf(what, sizeof what, "stored blocks in an empty %d x %d sparse-block matrix", rows,
             cols);
    return nsd_lexer_fail(lx, nsd_field(m, "blocks"), what);
  }
  *out = a;
  return 1;
}

static int read_sbm(NsdLexer* lx, const char* m, int rows, int cols, NsdMatrix** out) {
  int ok = 0;
  int nb = 0, nr = 0, nc = 0, f1 = 0, f2 = 0;
  int *row_end = NULL, *col_end = NULL, *row_ptr = NULL, *col_idx = NULL, *sorted = NULL,
      *slot = NULL;
  BlockKey* keys = NULL;
  NsdMatrix* a = NULL;

  // number of blocks; none means nothing else follows
  if (!nsd_lexer_int(lx, nsd_field(m, "blocks"), 0, NSD_IO_MAX_DIM, &nb)) return 0;
  if (nb == 0) return empty_sbm(lx, m, rows, cols, out);
  if (!nsd_lexer_fits(lx, nsd_mul_sat(3, (size_t)nb)))
    return nsd_lexer_fail_fits(lx, nsd_field(m, "blocks"));

  // block grid
  if (!nsd_lexer_int(lx, nsd_field(m, "blockRows"), 1, rows, &nr)) return 0;
  if (!nsd_lexer_int(lx, nsd_field(m, "blockCols"), 1, cols, &nc)) return 0;
  if ((size_t)nb > nsd_mul_sat((size_t)nr, (size_t)nc)) {
    char what[96];
    snprintf(what, sizeof what, "a block grid holding %d blocks (%d block rows)", nb, nr);
    return nsd_lexer_fail(lx, nsd_field(m, "blockCols"), what);
  }
  size_t structure = (size_t)nr + (size_t)nc + 2 + (size_t)nr + 1 + 2 * (size_t)nb;
  if (!nsd_lexer_fits(lx, structure)) return nsd_lexer_fail_fits(lx, nsd_field(m, "blockCols"));

  row_end = alloc_items((size_t)nr, sizeof *row_end);
  col_end = alloc_items((size_t)nc, sizeof *col_end);
  row_ptr = alloc_items((size_t)nr + 1, sizeof *row_ptr);
  col_idx = alloc_items((size_t)nb, sizeof *col_idx);
  if (!row_end || !col_end || !row_ptr || !col_idx) {
    fail_memory(lx, "a sparse-block structure");
    goto done;
  }

  // cumulative row and column counts, strictly increasing up to rows / cols
  for (int br = 0; br < nr; ++br) {
    int lo = br ? row_end[br - 1] + 1 : 1, hi = rows;
    if (br == nr - 1) lo = rows;
    if (!nsd_lexer_int(lx, nsd_field1(m, "rowEnd", br), lo, hi, &row_end[br])) goto done;
  }
  for (int bc = 0; bc < nc; ++bc) {
    int lo = bc ? col_end[bc - 1] + 1 : 1, hi = cols;
    if (bc == nc - 1) lo = cols;
    if (!nsd_lexer_int(lx, nsd_field1(m, "colEnd", bc), lo, hi, &col_end[bc])) goto done;
  }

  // lengths of the two index arrays
  if (!nsd_lexer_int(lx, nsd_field(m, "f1"), (long)nr + 1, (long)nr + 1, &f1)) goto done;
  if (!nsd_lexer_int(lx, nsd_field(m, "f2"), nb, nb, &f2)) goto done;

  // block row pointers: from 0 to nb, at most nc blocks per block row
  for (int br = 0; br <= nr; ++br) {
    long lo = br ? row_ptr[br - 1] : 0;
    long hi = br ? row_ptr[br - 1] + (long)nc : 0;
    if (hi > nb) hi = nb;
    if (br == nr) lo = nb;
    if (!nsd_lexer_int(lx, nsd_field1(m, "rowPtr", br), lo, hi, &row_ptr[br])) goto done;
  }

  // block columns, noting whether each block row is in increasing order
  int in_order = 1;
  long idx_line = 0;
  size_t idx_at = 0;
  for (int k = 0, br = 0; k < nb; ++k) {
    while (row_ptr[br + 1] <= k) ++br;
    if (!nsd_lexer_int(lx, nsd_field1(m, "colIdx", k), 0, nc - 1, &col_idx[k])) goto done;
    if (k == 0) {
      idx_line = lx->tok_line;
      idx_at = lx->tok_start;
    }
    if (k > row_ptr[br] && col_idx[k] <= col_idx[k - 1]) in_order = 0;
  }

  // sort each block row by block column; a block given twice is an error (in
  // order, the columns are already sorted and block k stays block k)
  if (!in_order) {
    keys = alloc_items((size_t)nb, sizeof *keys);
    sorted = alloc_items((size_t)nb, sizeof *sorted);
    slot = alloc_items((size_t)nb, sizeof *slot);
    if (!keys || !sorted || !slot) {
      fail_memory(lx, "a sparse-block structure");
      goto done;
    }
    for (int k = 0; k < nb; ++k) {
      keys[k].col = col_idx[k];
      keys[k].k = k;
    }
    for (int br = 0; br < nr; ++br) {
      int b0 = row_ptr[br], b1 = row_ptr[br + 1];
      qsort(keys + b0, (size_t)(b1 - b0), sizeof *keys, compare_block_key);
      for (int t = b0; t < b1; ++t) {
        if (t > b0 && keys[t].col == keys[t - 1].col) {
          char found[64];
          snprintf(found, sizeof found, "block column %d twice", keys[t].col);
          char what[64];
          snprintf(what, sizeof what, "distinct block columns in block row %d", br);
          nsd_lexer_fail_at(lx, idx_line, idx_at, nsd_field(m, "colIdx"), what, found);
          goto done;
        }
        sorted[t] = keys[t].col;
        slot[keys[t].k] = t;
      }
    }
  }

  // all block values must still fit in the text
  size_t values = 0;
  for (int br = 0; br < nr; ++br) {
    size_t h = (size_t)(row_end[br] - (br ? row_end[br - 1] : 0));
    for (int k = row_ptr[br]; k < row_ptr[br + 1]; ++k) {
      int bc = col_idx[k];
      size_t w = (size_t)(col_end[bc] - (bc ? col_end[bc - 1] : 0));
      values += h * w + 1;
    }
  }
  if (!nsd_lexer_fits(lx, values)) {
    nsd_lexer_fail_fits(lx, nsd_field1(m, "colIdx", nb - 1));
    goto done;
  }

  a = nsd_matrix_create_sparse_block(nr, nc, row_end, col_end, row_ptr,
                                     in_order ? col_idx : sorted);
  if (!a) {
    fail_memory(lx, "a sparse-block matrix");
    goto done;
  }

  // each block: its number, then its values column by column
  for (int k = 0, br = 0; k < nb; ++k) {
    while (row_ptr[br + 1] <= k) ++br;
    int bc = col_idx[k], dummy;
    int h = row_end[br] - (br ? row_end[br - 1] : 0);
    int w = col_end[bc] - (bc ? col_end[bc - 1] : 0);
    if (!nsd_lexer_int(lx, nsd_field1(m, "block", k), k, k, &dummy)) goto done;
    double* v = nsd_matrix_sbm_block(a, in_order ? k : slot[k]);
    for (int c = 0; c < w; ++c)
      for (int r = 0; r < h; ++r)
        if (!nsd_lexer_real(lx, nsd_field3(m, "block", k, r, c), &v[r + (size_t)c * h])) goto done;
  }
  *out = a;
  a = NULL;
  ok = 1;

done:
  nsd_matrix_destroy(a);
  free(row_end);
  free(col_end);
  free(row_ptr);
  free(col_idx);
  free(sorted);
  free(slot);
  free(keys);
  return ok;
}

/* ---- MATRIX, storage 2: CSparse text -------------------------------------- */

/* Forms of the CSparse text, by origin: 1 and 4 triplet, 2 CSC, 3 CSR. */
typedef enum SparseForm { FORM_TRIPLET, FORM_CSC, FORM_CSR } SparseForm;

/* Growable arrays of entries (index, value), plus a second index for CSR. */
typedef struct Entries {
  int* i;
  int* j;
  double* x;
  size_t size;
  size_t capacity;
} Entries;

static int entries_reserve(Entries* e, size_t n, int with_j) {
  if (n <= e->capacity) return 1;
  size_t cap = e->capacity ? e->capacity : 16;
  while (cap < n) cap = cap > SIZE_MAX / 4 ? n : 2 * cap;
  int* ni = realloc(e->i, cap * sizeof *ni);
  if (!ni) return 0;
  e->i = ni;
  if (with_j) {
    int* nj = realloc(e->j, cap * sizeof *nj);
    if (!nj) return 0;
    e->j = nj;
  }
  double* nx = realloc(e->x, cap * sizeof *nx);
  if (!nx) return 0;
  e->x = nx;
  e->capacity = cap;
  return 1;
}

static void entries_free(Entries* e) {
  free(e->i);
  free(e->j);
  free(e->x);
}

/* Split [s, s+len) into at most max whitespace-separated words. */
static int split_words(const char* s, size_t len, const char** w, size_t* wl, int max) {
  int n = 0;
  size_t k = 0;
  while (k < len && n < max) {
    while (k < len && isspace((unsigned char)s[k])) ++k;
    if (k >= len) break;
    size_t b = k;
    while (k < len && !isspace((unsigned char)s[k])) ++k;
    w[n] = s + b;
    wl[n] = k - b;
    ++n;
  }
  return n;
}

/* A header number: digits, optionally followed by one ','. */
static int parse_header_int(const char* s, size_t len, long* out) {
  if (len > 1 && s[len - 1] == ',') --len;
  return nsd_parse_long(s, len, out) && *out >= 0;
}

/* "R-by-C," into rows and columns. */
static int parse_by(const char* s, size_t len, long* r, long* c) {
  if (len > 0 && s[len - 1] == ',') --len;
  for (size_t k = 0; k + 4 <= len; ++k)
    if (memcmp(s + k, "-by-", 4) == 0)
      return nsd_parse_long(s, k, r) && nsd_parse_long(s + k + 4, len - k - 4, c) && *r >= 0 &&
             *c >= 0;
  return 0;
}

/* The header line: "[triplet: |csr: ]R-by-C, nzmax: Z nnz: K[, 1-norm: X]". */
static int read_sparse_header(NsdLexer* lx, const char* m, SparseForm form, int rows, int cols,
                              long* nzmax, long* nnz) {
  size_t start = lx->pos, stop = lx->pos;
  while (stop < lx->length && lx->text[stop] != '\n') ++stop;
  long line = lx->line;
  const char* w[8];
  size_t wl[8];
  int n = split_words(lx->text + start, stop - start, w, wl, 8);
  lx->pos = stop;

  const char* format = form == FORM_TRIPLET ? "'triplet: R-by-C, nzmax: Z nnz: K'"
                       : form == FORM_CSR   ? "'csr: R-by-C, nzmax: Z nnz: K'"
                                            : "'R-by-C, nzmax: Z nnz: K, 1-norm: X'";
  NsdField field = nsd_field(m, "header");
  char found[40];

  // optional prefix naming the form
  int k = 0;
  int is_triplet = n > 0 && wl[0] == 8 && memcmp(w[0], "triplet:", 8) == 0;
  int is_csr = n > 0 && wl[0] == 4 && memcmp(w[0], "csr:", 4) == 0;
  if ((form == FORM_TRIPLET) != is_triplet || (form == FORM_CSC && is_csr)) goto bad;
  if (is_triplet || is_csr) ++k;

  // sizes, allocation size and entry count
  long r = 0, c = 0;
  if (n < k + 5) goto bad;
  if (!parse_by(w[k], wl[k], &r, &c)) goto bad;
  if (wl[k + 1] != 6 || memcmp(w[k + 1], "nzmax:", 6) != 0) goto bad;
  if (!parse_header_int(w[k + 2], wl[k + 2], nzmax)) goto bad;
  if (wl[k + 3] != 4 || memcmp(w[k + 3], "nnz:", 4) != 0) goto bad;
  if (!parse_header_int(w[k + 4], wl[k + 4], nnz)) goto bad;
  if (r != rows || c != cols) {
    char what[64];
    snprintf(what, sizeof what, "'%d-by-%d' (the matrix size)", rows, cols);
    nsd_lexer_quote(found, sizeof found, w[k], wl[k]);
    return nsd_lexer_fail_at(lx, line, start, field, what, found);
  }
  return 1;

bad:
  if (n == 0)
    snprintf(found, sizeof found, "%s", stop >= lx->length ? "end of file" : "an empty line");
  else
    nsd_lexer_quote(found, sizeof found, lx->text + start, stop - start);
  return nsd_lexer_fail_at(lx, line, start, field, format, found);
}

/* Triplet entries "i j : x", K of them; duplicates add up. */
static int read_triplets(NsdLexer* lx, const char* m, int rows, int cols, long nnz,
                         NsdMatrix** out) {
  Entries e = {0};
  int ok = 0;
  if (!entries_reserve(&e, (size_t)nnz, 1)) {
    fail_memory(lx, "triplet entries");
    goto done;
  }
  for (long k = 0; k < nnz; ++k) {
    if (!nsd_lexer_int(lx, nsd_field1(m, "row", k), 0, rows - 1, &e.i[k])) goto done;
    if (!nsd_lexer_int(lx, nsd_field1(m, "col", k), 0, cols - 1, &e.j[k])) goto done;
    if (!nsd_lexer_word(lx, nsd_field1(m, "separator", k), ":")) goto done;
    if (!nsd_lexer_real(lx, nsd_field1(m, "value", k), &e.x[k])) goto done;
  }
  *out = nsd_matrix_create_csc_from_triplets(rows, cols, (int)nnz, e.i, e.j, e.x);
  if (!*out) {
    fail_memory(lx, "a sparse matrix");
    goto done;
  }
  ok = 1;
done:
  entries_free(&e);
  return ok;
}

/* Compressed lines "col j : locations a to b" then b-a+1 lines "i : x"
 * (CSR: "row j ..." then "column : x"). */
static int read_compressed(NsdLexer* lx, const char* m, SparseForm form, int rows, int cols,
                           long nzmax, NsdMatrix** out) {
  int csr = form == FORM_CSR;
  int outer = csr ? rows : cols, inner = csr ? cols : rows;
  const char* word = csr ? "row" : "col";
  const char* index_name = csr ? "column" : "row";
  Entries e = {0};
  int* p = alloc_items((size_t)outer + 1, sizeof *p);
  int ok = 0;
  if (!p) {
    fail_memory(lx, "column pointers");
    goto done;
  }
  p[0] = 0;
  for (int j = 0; j < outer; ++j) {
    // "col j : locations a to b"
    int jj, a, b;
    NsdField f = nsd_field1(m, word, j);
    if (!nsd_lexer_word(lx, f, word)) goto done;
    if (!nsd_lexer_int(lx, f, j, j, &jj)) goto done;
    if (!nsd_lexer_word(lx, f, ":")) goto done;
    if (!nsd_lexer_word(lx, f, "locations")) goto done;
    if (!nsd_lexer_int(lx, nsd_field1(m, "start", j), p[j], p[j], &a)) goto done;
    if (!nsd_lexer_word(lx, f, "to")) goto done;
    if (!nsd_lexer_int(lx, nsd_field1(m, "end", j), (long)a - 1, NSD_LEXER_NO_MAX, &b)) goto done;
    if ((long)b >= nzmax) {
      char what[64];
      snprintf(what, sizeof what, "an end below nzmax = %ld", nzmax);
      nsd_lexer_fail(lx, nsd_field1(m, "end", j), what);
      goto done;
    }
    size_t count = (size_t)((long)b - a + 1);
    if (!nsd_lexer_fits(lx, nsd_mul_sat(3, count))) {
      nsd_lexer_fail_fits(lx, nsd_field1(m, "end", j));
      goto done;
    }
    if (!entries_reserve(&e, (size_t)b + 1, csr)) {
      fail_memory(lx, "sparse entries");
      goto done;
    }

    // its entries "i : x"
    for (int k = a; k <= b; ++k) {
      if (!nsd_lexer_int(lx, nsd_field1(m, index_name, k), 0, inner - 1, &e.i[k])) goto done;
      if (!nsd_lexer_word(lx, nsd_field1(m, "separator", k), ":")) goto done;
      if (!nsd_lexer_real(lx, nsd_field1(m, "value", k), &e.x[k])) goto done;
      if (csr) e.j[k] = j;
    }
    p[j + 1] = b + 1;
  }

  // CSR entries become triplets (row j, column i); no entry at all is valid
  int no_index = 0;
  double no_value = 0;
  if (csr)
    *out = nsd_matrix_create_csc_from_triplets(rows, cols, p[outer], e.j ? e.j : &no_index,
                                               e.i ? e.i : &no_index, e.x ? e.x : &no_value);
  else
    *out = nsd_matrix_create_csc(rows, cols, p, e.i ? e.i : &no_index, e.x ? e.x : &no_value);
  if (!*out) {
    fail_memory(lx, "a sparse matrix");
    goto done;
  }
  ok = 1;
done:
  free(p);
  entries_free(&e);
  return ok;
}

static int read_sparse(NsdLexer* lx, const char* m, int rows, int cols, NsdMatrix** out) {
  int origin;
  if (!nsd_lexer_int(lx, nsd_field(m, "origin"), 1, 4, &origin)) return 0;
  SparseForm form = (origin == 2) ? FORM_CSC : (origin == 3) ? FORM_CSR : FORM_TRIPLET;

  // the rest of the origin line, then the banner line, are ignored
  if (!nsd_lexer_skip_line(lx) || !nsd_lexer_skip_line(lx)) {
    nsd_lexer_next(lx);
    return nsd_lexer_fail(lx, nsd_field(m, "header"), "a banner line and a header line");
  }
  long nzmax = 0, nnz = 0, line = lx->line;
  size_t at = lx->pos;
  if (!read_sparse_header(lx, m, form, rows, cols, &nzmax, &nnz)) return 0;

  // entries (triplet) or column lines (CSC, CSR) must fit in the rest
  char found[48];
  if (form == FORM_TRIPLET) {
    if (nnz > nzmax || nnz > NSD_IO_MAX_DIM || !nsd_lexer_fits(lx, nsd_mul_sat(4, (size_t)nnz))) {
      char what[96];
      snprintf(what, sizeof what, "an entry count <= nzmax = %ld that fits in the file", nzmax);
      snprintf(found, sizeof found, "'%ld'", nnz);
      return nsd_lexer_fail_at(lx, line, at, nsd_field(m, "nnz"), what, found);
    }
    return read_triplets(lx, m, rows, cols, nnz, out);
  }
  int outer = form == FORM_CSR ? rows : cols;
  if (!nsd_lexer_fits(lx, nsd_mul_sat(7, (size_t)outer))) {
    snprintf(found, sizeof found, "'%d-by-%d'", rows, cols);
    return nsd_lexer_fail_at(lx, line, at, nsd_field(m, "header"),
                             "a size that fits in the rest of the file", found);
  }
  return read_compressed(lx, m, form, rows, cols, nzmax, out);
}

/* ---- MATRIX ---------------------------------------------------------------- */

int nsd_io_read_matrix(NsdLexer* lx, const char* m, const Shape* shape, NsdMatrix** out) {
  *out = NULL;
  int storage, rows, cols;
  if (!nsd_lexer_int(lx, nsd_field(m, "storage"), 0, 2, &storage)) return 0;

  // sizes, against what the caller requires
  if (!nsd_lexer_int(lx, nsd_field(m, "rows"), 0, NSD_IO_MAX_DIM, &rows)) return 0;
  if (shape->rows >= 0 && rows != shape->rows)
    return fail_int(lx, nsd_field(m, "rows"), shape->rows);
  if (!nsd_lexer_int(lx, nsd_field(m, "cols"), 0, NSD_IO_MAX_DIM, &cols)) return 0;
  if (shape->cols >= 0 && cols != shape->cols)
    return fail_int(lx, nsd_field(m, "cols"), shape->cols);
  if (shape->square && cols != rows) {
    char what[48];
    snprintf(what, sizeof what, "%d (a square matrix)", rows);
    return nsd_lexer_fail(lx, nsd_field(m, "cols"), what);
  }
  if (!nsd_lexer_fits(lx, nsd_mul_sat(shape->per_col, (size_t)cols)))
    return nsd_lexer_fail_fits(lx, nsd_field(m, "cols"));

  switch (storage) {
    case 0:
      return read_dense(lx, m, rows, cols, out);
    case 1:
      return read_sbm(lx, m, rows, cols, out);
    default:
      return read_sparse(lx, m, rows, cols, out);
  }
}

int nsd_io_read_square_matrix(NsdLexer* lx, const char* m, size_t per_col, NsdMatrix** out) {
  Shape shape = {-1, -1, 1, per_col};
  return nsd_io_read_matrix(lx, m, &shape, out);
}

NsdStatus nsd_read_matrix_text(const char* text, size_t length, const char* name, NsdMatrix** out,
                               NsdReport* report) {
  NsdReport local;
  memset(&local, 0, sizeof local);
  if (!report) report = &local;
  nsd_report_start(report, "io");
  if (!out) return nsd_report_fail(report, NSD_BAD_INPUT, "nsd_read_matrix_text: out is NULL");
  *out = NULL;
  if (!text && length > 0)
    return nsd_report_fail(report, NSD_BAD_INPUT, "nsd_read_matrix_text: text is NULL");

  NsdLexer lx;
  nsd_lexer_init(&lx, text, length, name ? name : "<text>", report);
  Shape any = {-1, -1, 0, 0};
  if (!nsd_io_read_matrix(&lx, "M", &any, out)) return report->status;
  return NSD_OK;
}
