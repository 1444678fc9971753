/* Matrix-free Delassus operator N = J M^-1 J^T from its factors, with
 * OpenMP products that need no write synchronisation:
 *   J^T x  by columns of J (a compressed-column copy: each thread owns the
 *          entries of v = J^T x it writes, i.e. whole bodies' velocities);
 *   M^-1 v by (block) rows of M^-1;
 *   J w    by (block) rows of J (contacts).
 * Each entry is summed in a fixed order, so results do not depend on the
 * thread count. */
#include <stdlib.h>
#include <string.h>

#ifndef NCOMPLEX
#define NCOMPLEX
#endif
#include <cs.h>

#include "friction/fc_cone_internal.h"

/* What nsd_delassus_factored keeps in NsdDelassus.user. */
typedef struct FactoredDelassus {
  NsdFccRowOp j_rows;  /* J by rows */
  NsdFccRowOp minv;    /* M^-1 by rows */
  int n_dof;
  const int* jt_ptr;   /* columns of J: [n_dof+1] */
  const int* jt_idx;   /* row indices */
  const double* jt_val;
  int* own_ptr;        /* the compressed-column copy, when J is not CSC */
  int* own_idx;
  double* own_val;
  int nt;
} FactoredDelassus;

/* v[n_dof] = J^T x: column j of J against x, one column per iteration. */
static void factored_jt(void* user, const double* x, double* v) {
  const FactoredDelassus* f = user;
  const int* p = f->jt_ptr;
  const int* idx = f->jt_idx;
  const double* val = f->jt_val;
  NSD_FCC_PARALLEL_FOR(f->nt, f->n_dof)
  for (int j = 0; j < f->n_dof; ++j) {
    double s = 0.0;
    for (int k = p[j]; k < p[j + 1]; ++k) s += val[k] * x[idx[k]];
    v[j] = s;
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
  free(f->own_ptr);
  free(f->own_idx);
  free(f->own_val);
  free(f);
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
  f->n_dof = J->cols;
  f->nt = nsd_fcc_threads(threads);

  // row access to J and M^-1 (in place unless CSC)
  NsdStatus st = nsd_fcc_rowop_init(&f->j_rows, J);
  if (st == NSD_OK) st = nsd_fcc_rowop_init(&f->minv, Minv);

  // column access to J: the CSC itself, or a compressed-column copy
  if (st == NSD_OK && J->storage == NSD_CSC) {
    f->jt_ptr = J->csc->p;
    f->jt_idx = J->csc->i;
    f->jt_val = J->csc->x;
  } else if (st == NSD_OK) {
    st = nsd_fcc_compress(J, 1, &f->own_ptr, &f->own_idx, &f->own_val);
    f->jt_ptr = f->own_ptr;
    f->jt_idx = f->own_idx;
    f->jt_val = f->own_val;
  }
  if (st != NSD_OK) {
    factored_free(f);
    return nsd_report_fail(report, NSD_FAILED, "Delassus: out of memory copying J (%dx%d)",
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
  if (op->apply_jt == factored_jt) factored_free(op->user);
  memset(op, 0, sizeof *op);
}
