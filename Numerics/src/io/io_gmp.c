/* The generic mechanical problem in the Siconos .dat format (formats/README.md,
 * "Generic mechanical"; Siconos genericMechanical_newFromFile): W as a
 * sparse-block matrix whose diagonal blocks are the sub-problems, q, then per
 * block its kind (0 LCP, 2 equality, 3 FC2D, 4 FC3D) and, for a cone, mu. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "io_gmp.h"
#include "io_private.h"

/* ---- reading ------------------------------------------------------------------- */

/* The storage flag of W must be 1 (sparse-block): peek at it without consuming. */
static int check_storage(NsdLexer* lx) {
  NsdLexer peek = *lx;
  int storage = 0;
  if (!nsd_lexer_int(&peek, nsd_field("W", "storage"), 0, 2, &storage)) {
    lx->error_at = peek.error_at;
    return 0;
  }
  if (storage != NSD_SPARSE_BLOCK) {
    nsd_lexer_fail(&peek, nsd_field("W", "storage"),
                   "1 (a sparse-block W, whose diagonal blocks are the sub-problems)");
    lx->error_at = peek.error_at;
    return 0;
  }
  return 1;
}

/* The block kind of block b: 0, 2, 3 or 4, of the size its kind needs. */
static int read_kind(NsdLexer* lx, int b, int size, NsdGmpBlockKind* kind) {
  NsdField f = nsd_field1(NULL, "kind", b);
  long v = -1;
  if (!nsd_lexer_next(lx) || !nsd_parse_long(lx->text + lx->tok_start, lx->tok_len, &v) ||
      (v != NSD_GMP_LCP && v != NSD_GMP_EQUALITY && v != NSD_GMP_FC2D && v != NSD_GMP_FC3D))
    return nsd_lexer_fail(lx, f, "0 (LCP), 2 (equality), 3 (FC2D) or 4 (FC3D)");
  const int want = v == NSD_GMP_FC3D ? 3 : v == NSD_GMP_FC2D ? 2 : 0;
  if (want && size != want) {
    char what[96];
    snprintf(what, sizeof what, "a kind for a block of %d rows (%s needs %d)", size,
             v == NSD_GMP_FC3D ? "FC3D" : "FC2D", want);
    return nsd_lexer_fail(lx, f, what);
  }
  *kind = (NsdGmpBlockKind)v;
  return 1;
}

/* 1 when only white space is left after the last token read. */
static int at_end(const NsdLexer* lx) {
  for (size_t k = lx->pos; k < lx->length; ++k)
    if (!isspace((unsigned char)lx->text[k])) return 0;
  return 1;
}

int nsd_io_parse_gmp(NsdLexer* lx, NsdProblem* out) {
  int ok = 0;
  NsdMatrix* W = NULL;
  double* q = NULL;
  NsdGmpBlock* blocks = NULL;
  if (!check_storage(lx)) return 0;
  const long w_line = lx->line;
  if (!nsd_io_read_square_matrix(lx, "W", 1, &W)) return 0;

  // the diagonal blocks: the block rows, with the same partition of the columns
  const NsdSparseBlock* s = W->sbm;
  const int n = W->rows, nb = n > 0 ? s->n_block_rows : 0;
  int same = s->n_block_rows == s->n_block_cols;
  for (int k = 0; same && k < s->n_block_rows; ++k) same = s->row_end[k] == s->col_end[k];
  if (!same) {
    nsd_report_fail(lx->report, NSD_BAD_INPUT,
                    "%s:%ld: W: expected the same block partition of rows and columns (square "
                    "diagonal blocks, one per sub-problem), found %d block rows and %d block "
                    "columns of other sizes",
                    lx->name, w_line, s->n_block_rows, s->n_block_cols);
    lx->error_at = lx->pos;
    goto done;
  }

  q = malloc((size_t)(n > 0 ? n : 1) * sizeof *q);
  blocks = calloc((size_t)(nb > 0 ? nb : 1), sizeof *blocks);
  if (!q || !blocks) {
    nsd_report_fail(lx->report, NSD_FAILED, "%s:%ld: out of memory for q", lx->name, lx->line);
    goto done;
  }
  for (int i = 0; i < n; ++i)
    if (!nsd_lexer_real(lx, nsd_field1(NULL, "q", i), &q[i])) goto done;

  // per block: its kind, and mu for a cone
  for (int b = 0; b < nb; ++b) {
    blocks[b].size = s->row_end[b] - (b ? s->row_end[b - 1] : 0);
    if (!read_kind(lx, b, blocks[b].size, &blocks[b].kind)) goto done;
    if (blocks[b].kind == NSD_GMP_FC2D || blocks[b].kind == NSD_GMP_FC3D) {
      NsdField f = nsd_field1(NULL, "mu", b);
      if (!nsd_lexer_real(lx, f, &blocks[b].mu)) goto done;
      if (blocks[b].mu < 0) {
        nsd_lexer_fail(lx, f, "a real >= 0");
        goto done;
      }
    }
  }
  if (!at_end(lx)) {
    char what[96];
    snprintf(what, sizeof what,
             "the end of the file (W has %d diagonal blocks, each with its kind)", nb);
    nsd_lexer_next(lx);
    nsd_lexer_fail(lx, nsd_field(NULL, "end"), what);
    goto done;
  }

  NsdGmp* gmp = nsd_gmp_create(W, q, nb, blocks);
  W = NULL;
  if (!gmp) {
    nsd_report_fail(lx->report, NSD_FAILED, "%s: out of memory for the problem", lx->name);
    goto done;
  }
  if (!nsd_gmp_check(gmp, lx->report)) {
    char message[sizeof lx->report->message];
    memcpy(message, lx->report->message, sizeof message);
    nsd_report_fail(lx->report, NSD_BAD_INPUT, "%s: %s", lx->name, message);
    lx->error_at = lx->pos;
    nsd_gmp_destroy(gmp);
    goto done;
  }
  out->kind = NSD_KIND_GMP;
  out->gmp = gmp;
  ok = 1;
done:
  nsd_matrix_destroy(W);
  free(q);
  free(blocks);
  return ok;
}

/* ---- writing ------------------------------------------------------------------- */

/* 1 if W is sparse-block with the problem's blocks as its partition. */
static int has_block_partition(const NsdGmp* p) {
  if (p->W->storage != NSD_SPARSE_BLOCK || !p->W->sbm) return 0;
  const NsdSparseBlock* s = p->W->sbm;
  if (s->n_block_rows != p->n_blocks || s->n_block_cols != p->n_blocks) return 0;
  for (int b = 0; b < p->n_blocks; ++b)
    if (s->row_end[b] != p->start[b + 1] || s->col_end[b] != p->start[b + 1]) return 0;
  return 1;
}

/* W as a sparse-block matrix on the problem's partition: the blocks holding a
 * non-zero entry, and every diagonal block. */
static NsdMatrix* to_blocks(const NsdGmp* p) {
  const int n = p->n, nb = p->n_blocks;
  int* block_of = malloc((size_t)(n > 0 ? n : 1) * sizeof *block_of);
  unsigned char* used = calloc((size_t)(nb > 0 ? nb : 1) * (size_t)(nb > 0 ? nb : 1), 1);
  int* row_ptr = calloc((size_t)nb + 1, sizeof *row_ptr);
  int* col_index =
      malloc((size_t)(nb > 0 ? nb : 1) * (size_t)(nb > 0 ? nb : 1) * sizeof *col_index);
  NsdMatrix* a = NULL;
  if (!block_of || !used || !row_ptr || !col_index) goto done;
  for (int b = 0; b < nb; ++b)
    for (int i = p->start[b]; i < p->start[b + 1]; ++i) block_of[i] = b;
  for (int b = 0; b < nb; ++b) used[(size_t)b * nb + b] = 1;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if (nsd_matrix_get(p->W, i, j) != 0.0) used[(size_t)block_of[i] * nb + block_of[j]] = 1;
  int count = 0;
  for (int bi = 0; bi < nb; ++bi) {
    for (int bj = 0; bj < nb; ++bj)
      if (used[(size_t)bi * nb + bj]) col_index[count++] = bj;
    row_ptr[bi + 1] = count;
  }
  a = nsd_matrix_create_sparse_block(nb, nb, p->start + 1, p->start + 1, row_ptr, col_index);
  if (!a) goto done;
  for (int bi = 0; bi < nb; ++bi)
    for (int k = row_ptr[bi]; k < row_ptr[bi + 1]; ++k) {
      const int bj = col_index[k], h = p->blocks[bi].size, w = p->blocks[bj].size;
      double* v = nsd_matrix_sbm_block(a, k);
      for (int c = 0; c < w; ++c)
        for (int r = 0; r < h; ++r)
          v[r + (size_t)c * h] = nsd_matrix_get(p->W, p->start[bi] + r, p->start[bj] + c);
    }
done:
  free(block_of);
  free(used);
  free(row_ptr);
  free(col_index);
  return a;
}

int nsd_io_gmp_writable(const NsdGmp* p, NsdReport* report) {
  for (int b = 0; b < p->n_blocks; ++b)
    if (p->blocks[b].kind == NSD_GMP_RELAY) {
      nsd_report_fail(report, NSD_BAD_INPUT,
                      "GMP block %d is a relay block: the GMP file format has no bounds "
                      "(kinds 0, 2, 3, 4 only)",
                      b);
      return 0;
    }
  return 1;
}

NsdStatus nsd_io_write_gmp(FILE* f, const NsdGmp* p, NsdReport* report) {
  if (!nsd_io_gmp_writable(p, report)) return NSD_BAD_INPUT;
  NsdMatrix* a = has_block_partition(p) ? p->W : to_blocks(p);
  if (!a)
    return nsd_report_fail(report, NSD_FAILED, "out of memory writing a GMP of size %d", p->n);
  NsdReport local;
  memset(&local, 0, sizeof local);
  NsdStatus st = nsd_write_matrix_stream(f, a, &local);
  if (a != p->W) nsd_matrix_destroy(a);
  if (st != NSD_OK) return nsd_report_fail(report, st, "%s", local.message);
  for (int i = 0; i < p->n; ++i) fprintf(f, "%.17g\n", p->q[i]);
  for (int b = 0; b < p->n_blocks; ++b) {
    fprintf(f, "%d\n", (int)p->blocks[b].kind);
    if (p->blocks[b].kind == NSD_GMP_FC2D || p->blocks[b].kind == NSD_GMP_FC3D)
      fprintf(f, "%.17g\n", p->blocks[b].mu);
  }
  return NSD_OK;
}
