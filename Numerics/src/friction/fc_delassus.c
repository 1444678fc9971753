/* Matrix-free Delassus operator N = J M^-1 J^T from its factors, with
 * OpenMP products that need no write synchronisation and no copy of J's
 * values:
 *   J^T x  by ranges of columns (bodies), each range, taken by one thread,
 *          owning the entries of v = J^T x it writes. For a sparse-block J
 *          the blocks touching each range are listed once (ints only, a
 *          counting sort; none with one thread) and read in storage order,
 *          so every v entry sums its blocks by increasing block row whatever
 *          the ranges: the result does not depend on the thread count. A CSC
 *          or dense J is read in place, column by column;
 *   M^-1 v by (block) rows of M^-1;
 *   J w    by (block) rows of J (contacts); a CSC J is transposed once.
 * With a sparse-block J and a M^-1 block diagonal on J's column blocks (the
 * usual contacts x bodies layout), the operator wrapper of the solvers
 * (nsd_fcc_operator_apply) uses nsd_fcc_factored_apply: J^T and M^-1 fused
 * per range of bodies, then J per chunk of contacts, in one parallel region
 * with one n_dof workspace and no allocation. */
#include <stdlib.h>
#include <string.h>

#ifndef NCOMPLEX
#define NCOMPLEX
#endif
#include <cs.h>

#include "friction/fc_bodies.h"
#include "friction/fc_cone_internal.h"

/* Widest block column the fused product handles (M^-1 block on the stack). */
#define FUSED_MAX_WIDTH 16
/* Ranges of bodies per thread in J^T x. */
#define RANGES_PER_THREAD 4
/* Chunks of contact rows handed out at once in J w. */
#define ROW_CHUNKS_PER_GRAB 4

/* What nsd_delassus_factored keeps in NsdDelassus.user. */
typedef struct FactoredDelassus {
  const NsdMatrix* J;
  NsdFccRowOp j_rows; /* J by rows (in place unless J is CSC) */
  NsdFccRowOp minv;   /* M^-1 by rows */
  int m, n_dof, nt;
  /* J sparse-block, J^T x: the block columns (bodies) split into nr ranges of
   * about equal block counts, range r = [range_col[r], range_col[r+1]); for
   * nr > 1, the blocks touching each range in storage order (increasing
   * block row): range_block[range_ptr[r] .. range_ptr[r+1]), the first of
   * them in block row range_row0[r]. With nr = 1, all blocks in order. */
  int nr;
  int* range_col;   /* [nr + 1] */
  int* range_ptr;   /* [nr + 1], nr > 1 only */
  int* range_row0;  /* [nr], nr > 1 only */
  int* range_block; /* [n_blocks], nr > 1 only */
  /* M^-1 sparse-block with one diagonal block per column block of J */
  int fusable;
} FactoredDelassus;

/* First row (column) of block row (column) b from the cumulative ends. */
static inline int block_start(const int* ends, int b) {
  return b > 0 ? ends[b - 1] : 0;
}

/* v_bj += (block k of J, in block row bi)^T x_bi. The same additions in the
 * same order whatever the block sizes (the h = 3 case of contact rows
 * unrolled). */
static inline void add_block_jt(const NsdSparseBlock* s, int bi, int k, const double* x,
                                double* v) {
  int bj = s->col_index[k];
  int r0 = block_start(s->row_end, bi), h = s->row_end[bi] - r0;
  int c0 = block_start(s->col_end, bj), w = s->col_end[bj] - c0;
  const double* blk = s->values + s->value_start[k];
  const double* xb = x + r0;
  double* vb = v + c0;
  if (h == 3) {
    double x0 = xb[0], x1 = xb[1], x2 = xb[2];
    for (int jj = 0; jj < w; ++jj, blk += 3) vb[jj] += blk[0] * x0 + blk[1] * x1 + blk[2] * x2;
    return;
  }
  for (int jj = 0; jj < w; ++jj) {
    const double* col = blk + (size_t)jj * (size_t)h;
    double t = 0.0;
    for (int ii = 0; ii < h; ++ii) t += col[ii] * xb[ii];
    vb[jj] += t;
  }
}

/* v = J^T x on the columns of range r (zeroed first): the blocks touching
 * them, in storage order, so each entry of v sums its blocks by increasing
 * block row whatever the ranges are. */
static void range_jt(const FactoredDelassus* f, int r, const double* x, double* v) {
  const NsdSparseBlock* s = f->J->sbm;
  int c0 = block_start(s->col_end, f->range_col[r]);
  int c1 = block_start(s->col_end, f->range_col[r + 1]);
  for (int c = c0; c < c1; ++c) v[c] = 0.0;
  if (f->nr == 1) {
    for (int bi = 0; bi < s->n_block_rows; ++bi)
      for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k) add_block_jt(s, bi, k, x, v);
    return;
  }
  int bi = f->range_row0[r];
  for (int p = f->range_ptr[r]; p < f->range_ptr[r + 1]; ++p) {
    int k = f->range_block[p];
    while (s->row_ptr[bi + 1] <= k) ++bi;
    add_block_jt(s, bi, k, x, v);
  }
}

/* w_b = M^-1_bb w_b in place for the block columns [b0, b1) (fused form). */
static void range_minv(const FactoredDelassus* f, int b0, int b1, double* w) {
  const NsdSparseBlock* j = f->J->sbm;
  const NsdSparseBlock* mi = f->minv.a->sbm;
  for (int b = b0; b < b1; ++b) {
    int c0 = block_start(j->col_end, b), wd = j->col_end[b] - c0;
    double vb[FUSED_MAX_WIDTH];
    double* wb = w + c0;
    for (int ii = 0; ii < wd; ++ii) {
      vb[ii] = wb[ii];
      wb[ii] = 0.0;
    }
    // column-major wd x wd, summed as nsd_fcc_rowop_apply sums it
    const double* mb = mi->values + mi->value_start[mi->row_ptr[b]];
    for (int jj = 0; jj < wd; ++jj) {
      const double* col = mb + (size_t)jj * (size_t)wd;
      for (int ii = 0; ii < wd; ++ii) wb[ii] += col[ii] * vb[jj];
    }
  }
}

/* v[n_dof] = J^T x: each thread writes its own columns. */
static void factored_jt(void* user, const double* x, double* v) {
  const FactoredDelassus* f = user;
  const NsdMatrix* J = f->J;
  if (J->storage == NSD_SPARSE_BLOCK) {
    // ranges of bodies (a single range for small problems)
    NSD_FCC_PARALLEL_FOR_DYNAMIC(f->nt, f->nr > 1 ? NSD_FCC_PARALLEL_MIN : 0, 1)
    for (int r = 0; r < f->nr; ++r) range_jt(f, r, x, v);
  } else if (J->storage == NSD_CSC) {
    const int* p = J->csc->p;
    const int* idx = J->csc->i;
    const double* val = J->csc->x;
    NSD_FCC_PARALLEL_FOR(f->nt, f->n_dof)
    for (int j = 0; j < f->n_dof; ++j) {
      double t = 0.0;
      for (int k = p[j]; k < p[j + 1]; ++k) t += val[k] * x[idx[k]];
      v[j] = t;
    }
  } else {
    // dense column-major: column j is contiguous
    const double* a = J->dense;
    size_t m = (size_t)f->m;
    NSD_FCC_PARALLEL_FOR(f->nt, f->n_dof)
    for (int j = 0; j < f->n_dof; ++j) {
      const double* col = a + (size_t)j * m;
      double t = 0.0;
      for (size_t i = 0; i < m; ++i) t += col[i] * x[i];
      v[j] = t;
    }
  }
}

/* w = M^-1 v, by rows. */
static void factored_minv(void* user, const double* v, double* w) {
  const FactoredDelassus* f = user;
  nsd_fcc_rowop_apply(&f->minv, v, w, f->nt);
}

/* y = J w, by rows. */
static void factored_j(void* user, const double* w, double* y) {
  const FactoredDelassus* f = user;
  nsd_fcc_rowop_apply(&f->j_rows, w, y, f->nt);
}

static void factored_free(FactoredDelassus* f) {
  if (!f) return;
  nsd_fcc_rowop_free(&f->j_rows);
  nsd_fcc_rowop_free(&f->minv);
  free(f->range_col);
  free(f->range_ptr);
  free(f->range_row0);
  free(f->range_block);
  free(f);
}

/* Range of block column bj (range_col increasing, nr small). */
static int range_of(const FactoredDelassus* f, int bj) {
  int lo = 0, hi = f->nr - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (f->range_col[mid] <= bj)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/* Split J's block columns into nr ranges of about equal block counts
 * and, for nr > 1, list the blocks touching each range in storage order (a
 * counting sort by range; ints only). */
static NsdStatus build_ranges(FactoredDelassus* f) {
  const NsdSparseBlock* s = f->J->sbm;
  int nbc = s->n_block_cols, nb = s->n_blocks;
  // RANGES_PER_THREAD ranges per thread, handed out dynamically; one range
  // in all on one thread or below the size worth a fork
  int nr = f->nt > 1 ? RANGES_PER_THREAD * f->nt : 1;
  if (f->m < NSD_FCC_PARALLEL_MIN) nr = 1;
  if (nr > nbc) nr = nbc > 0 ? nbc : 1;
  f->nr = nr;
  f->range_col = calloc((size_t)nr + 1, sizeof *f->range_col);
  if (!f->range_col) return NSD_FAILED;
  // blocks per column, accumulated: cut where the count passes r * nb / nr
  {
    int* cnt = calloc((size_t)nbc + 1, sizeof *cnt);
    if (!cnt) return NSD_FAILED;
    for (int k = 0; k < nb; ++k) cnt[s->col_index[k] + 1]++;
    for (int bj = 0; bj < nbc; ++bj) cnt[bj + 1] += cnt[bj];
    int bj = 0;
    for (int r = 1; r < nr; ++r) {
      long target = (long)nb * r / nr;
      while (bj < nbc && cnt[bj] < target) ++bj;
      if (bj <= f->range_col[r - 1])
        bj = f->range_col[r - 1] + 1 < nbc ? f->range_col[r - 1] + 1 : nbc;
      f->range_col[r] = bj;
    }
    f->range_col[nr] = nbc;
    free(cnt);
  }
  if (nr == 1) return NSD_OK;
  f->range_ptr = calloc((size_t)nr + 1, sizeof *f->range_ptr);
  f->range_row0 = calloc((size_t)nr, sizeof *f->range_row0);
  f->range_block = malloc((size_t)(nb > 0 ? nb : 1) * sizeof *f->range_block);
  if (!f->range_ptr || !f->range_row0 || !f->range_block) return NSD_FAILED;
  int* rp = f->range_ptr;
  for (int k = 0; k < nb; ++k) rp[range_of(f, s->col_index[k]) + 1]++;
  for (int r = 0; r < nr; ++r) rp[r + 1] += rp[r];
  // fill in storage order, advancing rp[r] to the start of range r + 1
  for (int r = 0; r < nr; ++r) f->range_row0[r] = -1;
  for (int bi = 0; bi < s->n_block_rows; ++bi)
    for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k) {
      int r = range_of(f, s->col_index[k]);
      if (f->range_row0[r] < 0) f->range_row0[r] = bi;
      f->range_block[rp[r]++] = k;
    }
  for (int r = nr; r > 0; --r) rp[r] = rp[r - 1];
  rp[0] = 0;
  for (int r = 0; r < nr; ++r)
    if (f->range_row0[r] < 0) f->range_row0[r] = 0;
  return NSD_OK;
}

/* M^-1 sparse-block with exactly one block per block row, on the diagonal,
 * its blocks those of J's columns, no wider than FUSED_MAX_WIDTH. */
static int minv_matches_columns(const NsdMatrix* Minv, const NsdSparseBlock* j) {
  if (Minv->storage != NSD_SPARSE_BLOCK) return 0;
  const NsdSparseBlock* s = Minv->sbm;
  int nbc = j->n_block_cols;
  if (s->n_block_rows != nbc || s->n_block_cols != nbc || s->n_blocks != nbc) return 0;
  for (int b = 0; b < nbc; ++b) {
    int c0 = block_start(j->col_end, b);
    if (s->row_end[b] != j->col_end[b] || s->col_end[b] != j->col_end[b]) return 0;
    if (j->col_end[b] - c0 > FUSED_MAX_WIDTH) return 0;
    if (s->row_ptr[b + 1] - s->row_ptr[b] != 1 || s->col_index[s->row_ptr[b]] != b) return 0;
  }
  return 1;
}

NsdStatus nsd_delassus_factored(const NsdMatrix* J, const NsdMatrix* Minv, int threads,
                                NsdDelassus* op, NsdReport* report) {
  if (op) memset(op, 0, sizeof *op);
  // check the factors before allocating
  if (!op) return nsd_report_fail(report, NSD_BAD_INPUT, "Delassus: op is NULL");
  if (!J || !Minv) return nsd_report_fail(report, NSD_BAD_INPUT, "Delassus: J or M^-1 is NULL");
  if (J->rows < 0 || J->cols <= 0)
    return nsd_report_fail(report, NSD_BAD_INPUT, "Delassus: J is %dx%d", J->rows, J->cols);
  if (Minv->rows != J->cols || Minv->cols != J->cols)
    return nsd_report_fail(report, NSD_BAD_INPUT, "Delassus: M^-1 is %dx%d, expected %dx%d",
                           Minv->rows, Minv->cols, J->cols, J->cols);
  if (!nsd_matrix_is_finite(J) || !nsd_matrix_is_finite(Minv))
    return nsd_report_fail(report, NSD_BAD_INPUT, "Delassus: J or M^-1 has a non-finite entry");

  FactoredDelassus* f = calloc(1, sizeof *f);
  if (!f) return nsd_report_fail(report, NSD_FAILED, "Delassus: out of memory");
  f->J = J;
  f->m = J->rows;
  f->n_dof = J->cols;
  f->nt = nsd_fcc_threads(threads);

  // row access to J and M^-1 (in place unless CSC), column access to a
  // sparse-block J through an index of its blocks
  NsdStatus st = nsd_fcc_rowop_init(&f->j_rows, J);
  if (st == NSD_OK) st = nsd_fcc_rowop_init(&f->minv, Minv);
  if (st == NSD_OK && J->storage == NSD_SPARSE_BLOCK) {
    st = build_ranges(f);
    f->fusable = st == NSD_OK && minv_matches_columns(Minv, J->sbm);
  }
  if (st != NSD_OK) {
    factored_free(f);
    return nsd_report_fail(report, NSD_FAILED, "Delassus: out of memory indexing J (%dx%d)",
                           J->rows, J->cols);
  }

  op->size = J->rows;
  op->n_dof = J->cols;
  op->assembled = NULL;
  op->user = f;
  op->apply_jt = factored_jt;
  op->apply_minv = factored_minv;
  op->apply_j = factored_j;
  return NSD_OK;
}

void nsd_delassus_factored_free(NsdDelassus* op) {
  if (!op) return;
  // the rigid-contact operator of fc_bodies.c is freed here too (nsd_bodies.h)
  if (op->apply_jt == factored_jt)
    factored_free(op->user);
  else
    nsd_rb_operator_release(op);
  memset(op, 0, sizeof *op);
}

int nsd_fcc_factored_fusable(const NsdDelassus* d) {
  return d && !d->assembled && d->apply_jt == factored_jt && d->user &&
         ((const FactoredDelassus*)d->user)->fusable;
}

int nsd_fcc_factored_diagonal(const NsdDelassus* d, double* diag) {
  if (!nsd_fcc_factored_fusable(d)) return 0;
  const FactoredDelassus* f = d->user;
  const NsdSparseBlock* s = f->J->sbm;
  const NsdSparseBlock* mi = f->minv.a->sbm;
  memset(diag, 0, (size_t)f->m * sizeof *diag);
  // N_ii = sum over the blocks of row i of J_ib M^-1_bb J_ib^T (J and M^-1 column-major)
  for (int bi = 0; bi < s->n_block_rows; ++bi) {
    int r0 = block_start(s->row_end, bi), h = s->row_end[bi] - r0;
    for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k) {
      int bj = s->col_index[k], wd = s->col_end[bj] - block_start(s->col_end, bj);
      const double* jb = s->values + s->value_start[k];
      const double* mb = mi->values + mi->value_start[mi->row_ptr[bj]];
      for (int ii = 0; ii < h; ++ii) {
        double sum = 0.0;
        for (int a = 0; a < wd; ++a) {
          double t = 0.0;
          for (int b = 0; b < wd; ++b) t += mb[a + (size_t)b * wd] * jb[ii + (size_t)b * h];
          sum += jb[ii + (size_t)a * h] * t;
        }
        diag[r0 + ii] += sum;
      }
    }
  }
  return 1;
}

int nsd_fcc_factored_apply(const NsdDelassus* d, const double* x, double* w, double* y,
                           NsdFccRowsDone done, void* ctx) {
  const FactoredDelassus* f = d->user;
  const NsdSparseBlock* s = f->J->sbm;
  const int nbr = s->n_block_rows;
  const int len = nsd_fcc_row_chunk_length(nbr), nch = (nbr + len - 1) / len;
  int nt = f->nt;
  (void)nt;
#ifdef _OPENMP
#pragma omp parallel num_threads(nt) if (nt > 1 && f->nr > 1)
#endif
  {
    // bodies: w_b = M^-1_bb (J^T x)_b, by ranges of bodies
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
    for (int r = 0; r < f->nr; ++r) {
      range_jt(f, r, x, w);
      range_minv(f, f->range_col[r], f->range_col[r + 1], w);
    }
    // (barrier) contacts: y_a = sum_b J_ab w_b (blocks in stored order, as
    // nsd_fcc_rowop_apply), by chunks of block rows, each then handed to done
#ifdef _OPENMP
#pragma omp for schedule(dynamic, ROW_CHUNKS_PER_GRAB)
#endif
    for (int c = 0; c < nch; ++c) {
      int b0 = c * len, b1 = b0 + len < nbr ? b0 + len : nbr;
      for (int bi = b0; bi < b1; ++bi)
        nsd_fcc_block_row_apply(s, bi, w, y + block_start(s->row_end, bi));
      if (done) done(ctx, c, block_start(s->row_end, b0), block_start(s->row_end, b1));
    }
  }
  return nch;
}
