/*
 * LU and Cholesky factorisations of square NsdMatrix: LAPACK for dense storage,
 * CXSparse (LU) and CHOLMOD (Cholesky) for sparse-block and CSC storage.
 *
 * Besides the exact failures the libraries report (zero pivot, non-positive
 * leading minor), a factorisation is refused when a pivot is negligible:
 *  - LU: |u_kk| <= n eps max_i |a_ik| (relative to the column it came from);
 *  - Cholesky: l_kk^2 (or d_kk for an LDL' factor) <= n eps a_kk, a measure
 *    unchanged by symmetric diagonal scaling.
 * Cholesky reads the lower triangle only. Columns in messages are 0-based.
 */
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cholmod.h>

#include "matrix/matrix_internal.h"

/** Back end holding the factors. */
typedef enum FactorBackend {
  BACKEND_EMPTY,    /* 0 x 0 matrix: nothing to solve */
  BACKEND_LAPACK,   /* dense LU (dgetrf) or Cholesky (dpotrf, lower) */
  BACKEND_CXSPARSE, /* sparse LU with partial pivoting */
  BACKEND_CHOLMOD   /* sparse Cholesky, LL' or LDL' */
} FactorBackend;

struct NsdFactor {
  NsdFactorKind kind;
  FactorBackend backend;
  int n;
  double* dense;       /* LAPACK: n x n factors, column-major */
  int* ipiv;           /* LAPACK LU: row interchanges (1-based) */
  cs_dis* symbolic;    /* CXSparse: fill-reducing column ordering q */
  cs_din* numeric;     /* CXSparse: L, U, row permutation pinv */
  cholmod_factor* chol; /* CHOLMOD: L with its permutation */
};

/* Negligible-pivot factor: n times the machine epsilon. */
static double pivot_tolerance(int n) { return (double)n * DBL_EPSILON; }

/* ---- dense (LAPACK) ------------------------------------------------------- */

/* LU of the dense matrix a into f; reports the first negligible pivot. */
static NsdStatus dense_lu(const NsdMatrix* a, NsdFactor* f, NsdReport* report) {
  int n = a->rows;
  size_t nn = (size_t)n * (size_t)n;
  double* colmax = malloc((size_t)n * sizeof(double));
  f->dense = malloc(nn * sizeof(double));
  f->ipiv = malloc((size_t)n * sizeof(int));
  if (!colmax || !f->dense || !f->ipiv) {
    free(colmax);
    return nsd_report_fail(report, NSD_FAILED, "out of memory factorising a dense %d x %d matrix", n, n);
  }

  // column magnitudes, the scale of each pivot
  memcpy(f->dense, a->dense, nn * sizeof(double));
  for (int j = 0; j < n; ++j) {
    colmax[j] = 0.0;
    for (int i = 0; i < n; ++i) colmax[j] = fmax(colmax[j], fabs(f->dense[(size_t)i + (size_t)j * n]));
  }

  // P A = L U with partial pivoting; row interchanges keep U's column k as A's column k
  lapack_int info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, f->dense, n, f->ipiv);
  NsdStatus status = NSD_OK;
  if (info < 0) {
    status = nsd_report_fail(report, NSD_FAILED, "dgetrf rejected argument %d", (int)-info);
  } else {
    for (int k = 0; k < n; ++k) {
      double u = f->dense[(size_t)k + (size_t)k * n], tol = pivot_tolerance(n) * colmax[k];
      if (!(fabs(u) > tol)) {
        status = nsd_report_fail(report, NSD_FAILED,
                                 "singular matrix: LU pivot of column %d is %g (|u| <= %g)", k, u, tol);
        break;
      }
    }
  }
  free(colmax);
  return status;
}

/* Cholesky A = L L^T of the dense matrix a (lower triangle) into f. */
static NsdStatus dense_cholesky(const NsdMatrix* a, NsdFactor* f, NsdReport* report) {
  int n = a->rows;
  size_t nn = (size_t)n * (size_t)n;
  f->dense = malloc(nn * sizeof(double));
  if (!f->dense)
    return nsd_report_fail(report, NSD_FAILED, "out of memory factorising a dense %d x %d matrix", n, n);
  memcpy(f->dense, a->dense, nn * sizeof(double));

  // exact failure: the leading minor of order info is not positive
  lapack_int info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, f->dense, n);
  if (info < 0) return nsd_report_fail(report, NSD_FAILED, "dpotrf rejected argument %d", (int)-info);
  if (info > 0)
    return nsd_report_fail(report, NSD_FAILED,
                           "matrix not positive definite: pivot of column %d is not positive", (int)info - 1);

  // numerical failure: a pivot l_kk^2 negligible against a_kk
  for (int k = 0; k < n; ++k) {
    double l = f->dense[(size_t)k + (size_t)k * n], akk = a->dense[(size_t)k + (size_t)k * n];
    double tol = pivot_tolerance(n) * akk;
    if (!(l * l > tol))
      return nsd_report_fail(report, NSD_FAILED,
                             "matrix not positive definite: pivot of column %d is %g (<= %g)", k, l * l,
                             tol);
  }
  return NSD_OK;
}

/* ---- sparse LU (CXSparse) ---------------------------------------------------- */

/**
 * Column of canonical CSC c that a sparse QR finds the most dependent on the
 * columns before it (smallest |r_kk| relative to the column's largest entry),
 * to name it when cs_di_lu stops on a zero pivot; -1 if the QR cannot be done.
 */
static int dependent_column(const cs_di* c, const double* colmax) {
  cs_dis* s = cs_di_sqr(3, c, 1);
  cs_din* qr = s ? cs_di_qr(c, s) : NULL;
  int col = -1;
  if (qr) {
    // r_kk is the last entry of R's column k, which is A's column q[k]
    const cs_di* r = qr->U;
    double worst = INFINITY;
    for (int k = 0; k < c->n; ++k) {
      int j = s->q ? s->q[k] : k;
      double ratio = fabs(r->x[r->p[k + 1] - 1]) / colmax[j];
      if (ratio < worst) {
        worst = ratio;
        col = j;
      }
    }
  }
  cs_di_nfree(qr);
  cs_di_sfree(s);
  return col;
}

/* LU of canonical CSC c (no explicit zeros) into f. */
static NsdStatus sparse_lu(const cs_di* c, NsdFactor* f, NsdReport* report) {
  int n = c->n;

  // structurally singular: an empty column or an empty row names itself
  int* row_count = calloc((size_t)n, sizeof(int));
  double* colmax = calloc((size_t)n, sizeof(double));
  if (!row_count || !colmax) {
    free(row_count);
    free(colmax);
    return nsd_report_fail(report, NSD_FAILED, "out of memory factorising a %d x %d CSC matrix", n, n);
  }
  for (int j = 0; j < n; ++j)
    for (int q = c->p[j]; q < c->p[j + 1]; ++q) {
      ++row_count[c->i[q]];
      colmax[j] = fmax(colmax[j], fabs(c->x[q]));
    }
  NsdStatus status = NSD_OK;
  for (int k = 0; k < n && status == NSD_OK; ++k) {
    if (c->p[k + 1] == c->p[k])
      status = nsd_report_fail(report, NSD_FAILED, "singular matrix: column %d is zero", k);
    else if (row_count[k] == 0)
      status = nsd_report_fail(report, NSD_FAILED, "singular matrix: row %d is zero", k);
  }
  free(row_count);
  if (status != NSD_OK) {
    free(colmax);
    return status;
  }

  // AMD ordering of A + A^T, then LU with partial pivoting (threshold 1)
  f->symbolic = cs_di_sqr(1, c, 0);
  f->numeric = f->symbolic ? cs_di_lu(c, f->symbolic, 1.0) : NULL;
  if (!f->symbolic) {
    status = nsd_report_fail(report, NSD_FAILED, "out of memory ordering a %d x %d CSC matrix", n, n);
  } else if (!f->numeric) {
    int col = dependent_column(c, colmax);
    if (col >= 0)
      status = nsd_report_fail(report, NSD_FAILED,
                               "singular matrix: no non-zero LU pivot; column %d depends on the others",
                               col);
    else
      status = nsd_report_fail(report, NSD_FAILED,
                               "singular matrix: cs_di_lu found no non-zero pivot (n = %d), "
                               "or ran out of memory",
                               n);
  } else {
    // the pivot of step k is the last entry of U's column k, from A's column q[k]
    const cs_di* u = f->numeric->U;
    for (int k = 0; k < n; ++k) {
      int col = f->symbolic->q ? f->symbolic->q[k] : k;
      double piv = u->x[u->p[k + 1] - 1], tol = pivot_tolerance(n) * colmax[col];
      if (!(fabs(piv) > tol)) {
        status = nsd_report_fail(report, NSD_FAILED,
                                 "singular matrix: LU pivot of column %d is %g (|u| <= %g)", col, piv, tol);
        break;
      }
    }
  }
  free(colmax);
  return status;
}

/* ---- sparse Cholesky (CHOLMOD) ------------------------------------------------- */

/* Start a CHOLMOD workspace that never prints and always orders with AMD. */
static void chol_common_start(cholmod_common* cc) {
  cholmod_start(cc);
  cc->print = 0;
  cc->error_handler = NULL;
  cc->nmethods = 1;
  cc->method[0].ordering = CHOLMOD_AMD;
}

/* Pivot of column j (in factor order) of a numeric CHOLMOD factor: l_jj^2 or d_jj. */
static double cholmod_pivot(const cholmod_factor* l, int j) {
  const double* x = l->x;
  if (!l->is_super) {
    // simplicial: the diagonal entry comes first in each column
    double d = x[((const int*)l->p)[j]];
    return l->is_ll ? d * d : d;
  }
  // supernodal (always LL'): dense column blocks of nsrow rows
  const int* super = l->super;
  const int* pi = l->pi;
  const int* px = l->px;
  int lo = 0, hi = (int)l->nsuper - 1;
  while (lo < hi) {
    int mid = lo + (hi - lo + 1) / 2;
    if (super[mid] <= j)
      lo = mid;
    else
      hi = mid - 1;
  }
  int nsrow = pi[lo + 1] - pi[lo], off = j - super[lo];
  double d = x[(size_t)px[lo] + (size_t)off + (size_t)off * (size_t)nsrow];
  return d * d;
}

/* Cholesky of canonical CSC c (lower triangle read) into f. */
static NsdStatus sparse_cholesky(const cs_di* c, NsdFactor* f, NsdReport* report) {
  int n = c->n;
  double* diag = calloc((size_t)n, sizeof(double));
  if (!diag)
    return nsd_report_fail(report, NSD_FAILED, "out of memory factorising a %d x %d CSC matrix", n, n);
  for (int j = 0; j < n; ++j)
    for (int q = c->p[j]; q < c->p[j + 1]; ++q)
      if (c->i[q] == j) diag[j] = c->x[q];

  // a CHOLMOD view of c, symmetric with its lower triangle stored
  cholmod_sparse view;
  memset(&view, 0, sizeof view);
  view.nrow = (size_t)n;
  view.ncol = (size_t)n;
  view.nzmax = (size_t)c->p[n];
  view.p = c->p;
  view.i = c->i;
  view.x = c->x;
  view.stype = -1;
  view.itype = CHOLMOD_INT;
  view.xtype = CHOLMOD_REAL;
  view.dtype = CHOLMOD_DOUBLE;
  view.sorted = 1;
  view.packed = 1;

  // symbolic analysis, then numeric factorisation
  cholmod_common cc;
  chol_common_start(&cc);
  NsdStatus status = NSD_OK;
  f->chol = cholmod_analyze(&view, &cc);
  if (!f->chol) {
    status = nsd_report_fail(report, NSD_FAILED, "CHOLMOD analysis failed (status %d)", cc.status);
  } else if (!cholmod_factorize(&view, f->chol, &cc) || cc.status < CHOLMOD_OK) {
    status = nsd_report_fail(report, NSD_FAILED, "CHOLMOD factorisation failed (status %d)", cc.status);
  } else if (cc.status == CHOLMOD_NOT_POSDEF) {
    int col = ((const int*)f->chol->Perm)[f->chol->minor];
    status = nsd_report_fail(report, NSD_FAILED,
                             "matrix not positive definite: pivot of column %d is not positive", col);
  } else {
    // numerical failure: a pivot negligible (or negative, for LDL') against a_jj
    const int* perm = f->chol->Perm;
    for (int j = 0; j < n; ++j) {
      double piv = cholmod_pivot(f->chol, j), tol = pivot_tolerance(n) * diag[perm[j]];
      if (!(piv > tol) || !(tol > 0.0)) {
        status = nsd_report_fail(report, NSD_FAILED,
                                 "matrix not positive definite: pivot of column %d is %g (<= %g)",
                                 perm[j], piv, tol);
        break;
      }
    }
  }
  cholmod_finish(&cc);
  free(diag);
  return status;
}

/* ---- public entry points -------------------------------------------------------- */

NsdStatus nsd_factor_create(const NsdMatrix* a, NsdFactorKind kind, NsdFactor** factor,
                            NsdReport* report) {
  // reject bad input before any work
  if (!factor) return nsd_report_fail(report, NSD_BAD_INPUT, "factor is NULL");
  *factor = NULL;
  if (!a) return nsd_report_fail(report, NSD_BAD_INPUT, "matrix is NULL");
  if (!nsd_matrix_is_valid(a))
    return nsd_report_fail(report, NSD_BAD_INPUT, "matrix storage %d is inconsistent", (int)a->storage);
  if (kind != NSD_FACTOR_LU && kind != NSD_FACTOR_CHOLESKY)
    return nsd_report_fail(report, NSD_BAD_INPUT, "kind=%d, not a factorisation kind", (int)kind);
  if (a->rows != a->cols)
    return nsd_report_fail(report, NSD_BAD_INPUT, "matrix is %d x %d, not square", a->rows, a->cols);
  if (!nsd_matrix_is_finite(a))
    return nsd_report_fail(report, NSD_BAD_INPUT, "matrix has a non-finite entry");

  NsdFactor* f = calloc(1, sizeof *f);
  if (!f) return nsd_report_fail(report, NSD_FAILED, "out of memory");
  f->kind = kind;
  f->n = a->rows;

  // pick the back end by storage
  NsdStatus status = NSD_OK;
  if (f->n == 0) {
    f->backend = BACKEND_EMPTY;
  } else if (a->storage == NSD_DENSE) {
    f->backend = BACKEND_LAPACK;
    status = kind == NSD_FACTOR_LU ? dense_lu(a, f, report) : dense_cholesky(a, f, report);
  } else {
    f->backend = kind == NSD_FACTOR_LU ? BACKEND_CXSPARSE : BACKEND_CHOLMOD;
    cs_di* c = nsd_matrix_to_cs(a);
    if (!c)
      status = nsd_report_fail(report, NSD_FAILED, "out of memory converting a %d x %d matrix to CSC",
                               f->n, f->n);
    else
      status = kind == NSD_FACTOR_LU ? sparse_lu(c, f, report) : sparse_cholesky(c, f, report);
    cs_di_spfree(c);
  }

  if (status != NSD_OK) {
    nsd_factor_destroy(f);
    return status;
  }
  *factor = f;
  return NSD_OK;
}

NsdStatus nsd_factor_solve(const NsdFactor* f, double* b) {
  if (!f || (f->n > 0 && !b)) return NSD_BAD_INPUT;
  int n = f->n;
  switch (f->backend) {
    case BACKEND_EMPTY: return NSD_OK;

    case BACKEND_LAPACK: {
      lapack_int info = f->kind == NSD_FACTOR_LU
                            ? LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', n, 1, f->dense, n, f->ipiv, b, n)
                            : LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', n, 1, f->dense, n, b, n);
      return info == 0 ? NSD_OK : NSD_FAILED;
    }

    case BACKEND_CXSPARSE: {
      // x = Q U^-1 L^-1 P b
      double* w = malloc((size_t)n * sizeof(double));
      if (!w) return NSD_FAILED;
      cs_di_ipvec(f->numeric->pinv, b, w, n);
      cs_di_lsolve(f->numeric->L, w);
      cs_di_usolve(f->numeric->U, w);
      cs_di_ipvec(f->symbolic->q, w, b, n);
      free(w);
      return NSD_OK;
    }

    case BACKEND_CHOLMOD: {
      // a private workspace per call keeps the factor read-only and thread-safe
      cholmod_dense rhs;
      memset(&rhs, 0, sizeof rhs);
      rhs.nrow = (size_t)n;
      rhs.ncol = 1;
      rhs.nzmax = (size_t)n;
      rhs.d = (size_t)n;
      rhs.x = b;
      rhs.xtype = CHOLMOD_REAL;
      rhs.dtype = CHOLMOD_DOUBLE;
      cholmod_common cc;
      chol_common_start(&cc);
      cholmod_dense* x = cholmod_solve(CHOLMOD_A, f->chol, &rhs, &cc);
      NsdStatus status = x ? NSD_OK : NSD_FAILED;
      if (x) memcpy(b, x->x, (size_t)n * sizeof(double));
      cholmod_free_dense(&x, &cc);
      cholmod_finish(&cc);
      return status;
    }
  }
  return NSD_BAD_INPUT;
}

void nsd_factor_destroy(NsdFactor* f) {
  if (!f) return;
  free(f->dense);
  free(f->ipiv);
  cs_di_nfree(f->numeric);
  cs_di_sfree(f->symbolic);
  if (f->chol) {
    cholmod_common cc;
    chol_common_start(&cc);
    cholmod_free_factor(&f->chol, &cc);
    cholmod_finish(&cc);
  }
  free(f);
}
