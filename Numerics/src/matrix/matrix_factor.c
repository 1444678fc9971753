/*
 * LU and Cholesky factorisations of square NsdMatrix: LAPACK for dense storage,
 * KLU (left-looking sparse LU after a block triangular form and an AMD
 * fill-reducing ordering; refactorisation with the pivot sequence kept) and
 * CHOLMOD (supernodal Cholesky, AMD ordering) for sparse-block and CSC
 * storage, and UMFPACK (multifrontal, BLAS-3 fronts) for the LU of matrices whose factors
 * are dense: the choice is made on KLU's estimate of the factors' non-zeros per
 * column (LU_DENSE_FACTOR). Measured on Newton Jacobians of friction contact
 * (newton_ac, one thread): a Capsules file (675 unknowns, factor ~14 entries per
 * column) 9.8 ms with KLU, 33 ms with UMFPACK (its numeric phase searches pivots
 * every time); a Kapla tower step (1,656 unknowns, ~240 per column) 0.38 s with
 * UMFPACK, 1.21 s with KLU. CXSparse only names a dependent column when an LU fails.
 *
 * Besides the exact failures the libraries report (zero pivot, non-positive
 * leading minor), a factorisation is refused when a pivot is negligible:
 *  - LU: |u_kk| <= n eps max_i |a_ik| (relative to the column it came from);
 *  - Cholesky: l_kk^2 (or d_kk for an LDL' factor) <= n eps a_kk, a measure
 *    unchanged by symmetric diagonal scaling.
 * Cholesky reads the lower triangle only. Columns in messages are 0-based.
 *
 * nsd_factor_analyse and nsd_factor_refactor split the work for a sequence of
 * matrices with one sparsity pattern (Newton iterations): the pattern of the
 * stored entries (explicit zeros included) is recorded once; CHOLMOD makes
 * its fill-reducing ordering and symbolic factor of that pattern once, KLU
 * of the non-zeros of the first refactor and again only when the non-zero
 * pattern changes (a Newton Jacobian's blocks vanish with inactive contacts,
 * and a factor of the stored pattern would carry their zeros); each refactor
 * checks the pattern and otherwise redoes only the numeric factorisation, so
 * its cost follows the factor's non-zeros.
 *
 * This file holds the entry points (create, analyse, refactor, solve, destroy
 * and the queries of matrix_factor_internal.h); the factorisations are in
 * matrix_factor_dense.c (LAPACK), matrix_factor_lu.c (KLU, UMFPACK, CXSparse)
 * and matrix_factor_cholesky.c (CHOLMOD), the sparsity patterns in
 * matrix_factor_pattern.c, the NsdFactor they share in matrix_factor_impl.h.
 */
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/matrix_factor_impl.h"
#include "matrix/matrix_factor_internal.h"

/*
 * Default partial-pivoting threshold of the sparse LU: a candidate is kept as
 * pivot when |a_ik| >= threshold max_i |a_ik| (1: plain partial pivoting).
 */
#define LU_PIVOT_THRESHOLD 1.0

/* ---- public entry points -------------------------------------------------------- */

/* Checks shared by nsd_factor_create and nsd_factor_analyse. */
static NsdStatus check_square(const NsdMatrix* a, NsdFactorKind kind, NsdFactor** factor,
                              NsdReport* report) {
  if (!factor) return nsd_report_fail(report, NSD_BAD_INPUT, "factor is NULL");
  *factor = NULL;
  if (!a) return nsd_report_fail(report, NSD_BAD_INPUT, "matrix is NULL");
  if (!nsd_matrix_is_valid(a))
    return nsd_report_fail(report, NSD_BAD_INPUT, "matrix storage %d is inconsistent",
                           (int)a->storage);
  if (kind != NSD_FACTOR_LU && kind != NSD_FACTOR_CHOLESKY)
    return nsd_report_fail(report, NSD_BAD_INPUT, "kind=%d, not a factorisation kind", (int)kind);
  if (a->rows != a->cols)
    return nsd_report_fail(report, NSD_BAD_INPUT, "matrix is %d x %d, not square", a->rows,
                           a->cols);
  return NSD_OK;
}

/* New factor shell for a, back end picked by storage. */
static NsdFactor* factor_shell(const NsdMatrix* a, NsdFactorKind kind) {
  NsdFactor* f = calloc(1, sizeof *f);
  if (!f) return NULL;
  f->kind = kind;
  f->n = a->rows;
  if (f->n == 0)
    f->backend = BACKEND_EMPTY;
  else if (a->storage == NSD_DENSE)
    f->backend = BACKEND_LAPACK;
  else
    f->backend = kind == NSD_FACTOR_LU ? BACKEND_SPARSE_LU : BACKEND_CHOLMOD;
  f->factored = f->backend == BACKEND_EMPTY;
  f->pivot_threshold = LU_PIVOT_THRESHOLD;
  return f;
}

NsdStatus nsd_factor_create(const NsdMatrix* a, NsdFactorKind kind, NsdFactor** factor,
                            NsdReport* report) {
  // reject bad input before any work
  NsdStatus status = check_square(a, kind, factor, report);
  if (status != NSD_OK) return status;
  if (!nsd_matrix_is_finite(a))
    return nsd_report_fail(report, NSD_BAD_INPUT, "matrix has a non-finite entry");

  NsdFactor* f = factor_shell(a, kind);
  if (!f) return nsd_report_fail(report, NSD_FAILED, "out of memory");

  // factorise with the back end of the storage
  if (f->backend == BACKEND_LAPACK) {
    status = kind == NSD_FACTOR_LU ? nsd_factor_dense_lu(a, f, report)
                                   : nsd_factor_dense_cholesky(a, f, report);
  } else if (f->backend != BACKEND_EMPTY) {
    cs_di* s = nsd_factor_stored_cs(a);
    if (!s)
      status = nsd_report_fail(report, NSD_FAILED,
                               "out of memory converting a %d x %d matrix to CSC", f->n, f->n);
    else
      status = kind == NSD_FACTOR_LU ? nsd_factor_sparse_lu(s, f, report)
                                     : nsd_factor_sparse_cholesky(s, f, report);
    cs_di_spfree(s);
  }

  if (status != NSD_OK) {
    nsd_factor_destroy(f);
    return status;
  }
  f->factored = 1;
  *factor = f;
  return NSD_OK;
}

/* 1 if every column of c holds strictly increasing row indices (canonical: sorted, no
 * duplicates), as nsd_matrix_create_csc_shifted and the other constructors leave it. */
static int cs_is_canonical(const cs_di* c) {
  for (int j = 0; j < c->n; ++j)
    for (int q = c->p[j] + 1; q < c->p[j + 1]; ++q)
      if (c->i[q] <= c->i[q - 1]) return 0;
  return 1;
}

NsdStatus nsd_factor_analyse(const NsdMatrix* a, NsdFactorKind kind, NsdFactor** factor,
                             NsdReport* report) {
  NsdStatus status = check_square(a, kind, factor, report);
  if (status != NSD_OK) return status;
  NsdFactor* f = factor_shell(a, kind);
  if (!f) return nsd_report_fail(report, NSD_FAILED, "out of memory");

  // dense: the buffers only; sparse: pattern, then ordering or symbolic factor of all its entries
  int n = f->n;
  if (f->backend == BACKEND_LAPACK) {
    f->dense = malloc((size_t)n * (size_t)n * sizeof(double));
    f->colmax = malloc((size_t)n * sizeof(double));
    f->ipiv = kind == NSD_FACTOR_LU ? malloc((size_t)n * sizeof(int)) : NULL;
    if (!f->dense || !f->colmax || (kind == NSD_FACTOR_LU && !f->ipiv))
      status =
          nsd_report_fail(report, NSD_FAILED, "out of memory for a dense %d x %d factor", n, n);
  } else if (f->backend != BACKEND_EMPTY) {
    // a canonical CSC is read in place, any other storage copied in canonical order
    cs_di* copy = a->storage == NSD_CSC && cs_is_canonical(a->csc) ? NULL : nsd_factor_stored_cs(a);
    const cs_di* s = copy ? copy : a->storage == NSD_CSC ? a->csc : NULL;
    int nz = s ? s->p[n] : 0;
    int ok = s && (kind == NSD_FACTOR_LU
                       ? nsd_factor_lu_record(f, s)
                       : nsd_factor_record_pattern(f, s) &&
                             (f->values = cs_di_spalloc(n, n, nz > 0 ? nz : 1, 1, 0)) != NULL);
    if (!ok) {
      status =
          nsd_report_fail(report, NSD_FAILED, "out of memory analysing a %d x %d matrix", n, n);
    } else if (kind == NSD_FACTOR_LU) {
      // the ordering is made on the first refactor's non-zeros (lu_symbolic)
    } else {
      status = nsd_factor_chol_analyse(s, f, report);
      f->chol_full = 1;
    }
    cs_di_spfree(copy);
  }

  if (status != NSD_OK) {
    nsd_factor_destroy(f);
    return status;
  }
  *factor = f;
  return NSD_OK;
}

NsdStatus nsd_factor_refactor(NsdFactor* f, const NsdMatrix* a, NsdReport* report) {
  // reject bad input before any work; the factor keeps its analysis
  if (!f) return nsd_report_fail(report, NSD_BAD_INPUT, "factor is NULL");
  if (!a) return nsd_report_fail(report, NSD_BAD_INPUT, "matrix is NULL");
  if (!nsd_matrix_is_valid(a))
    return nsd_report_fail(report, NSD_BAD_INPUT, "matrix storage %d is inconsistent",
                           (int)a->storage);
  if (a->rows != f->n || a->cols != f->n)
    return nsd_report_fail(report, NSD_BAD_INPUT, "matrix is %d x %d, the factor %d x %d", a->rows,
                           a->cols, f->n, f->n);
  if (f->backend == BACKEND_EMPTY) return NSD_OK;
  if ((f->backend == BACKEND_LAPACK) != (a->storage == NSD_DENSE))
    return nsd_report_fail(report, NSD_BAD_INPUT, "matrix storage %d differs from the analysed one",
                           (int)a->storage);
  if (!nsd_matrix_is_finite(a))
    return nsd_report_fail(report, NSD_BAD_INPUT, "matrix has a non-finite entry");

  if (f->backend == BACKEND_LAPACK) {
    f->factored = 0;
    NsdStatus status = f->kind == NSD_FACTOR_LU ? nsd_factor_dense_lu(a, f, report)
                                                : nsd_factor_dense_cholesky(a, f, report);
    f->factored = status == NSD_OK;
    return status;
  }

  // the stored entries in canonical order: a's own CSC when it already is that pattern
  cs_di* copy = NULL;
  const cs_di* s = a->storage == NSD_CSC ? a->csc : NULL;
  if (!s || !nsd_factor_pattern_matches(f, s)) {
    s = copy = nsd_factor_stored_cs(a);
    if (!copy)
      return nsd_report_fail(report, NSD_FAILED, "out of memory converting a %d x %d matrix", f->n,
                             f->n);
    if (!nsd_factor_pattern_matches(f, copy)) {
      cs_di_spfree(copy);
      return nsd_report_fail(
          report, NSD_BAD_INPUT,
          "sparsity pattern differs from the analysed one (%d stored entries, expected %d)",
          (int)nsd_matrix_nnz(a), f->pattern_p[f->n]);
    }
  }

  // numeric factorisation only, the analysis kept (CHOLMOD re-analyses once if made on fewer
  // entries)
  f->factored = 0;
  NsdStatus status;
  if (f->backend == BACKEND_SPARSE_LU) {
    status = nsd_factor_lu_gather(s, f, report);
    if (status == NSD_OK) status = nsd_factor_lu_numeric(f, report);
  } else {
    status = NSD_OK;
    if (!f->chol_full) {
      status = nsd_factor_chol_analyse(s, f, report);
      f->chol_full = status == NSD_OK;
    }
    if (status == NSD_OK) status = nsd_factor_chol_numeric(s, f, report);
  }
  cs_di_spfree(copy);
  f->factored = status == NSD_OK;
  return status;
}

NsdStatus nsd_factor_set_pivot_threshold(NsdFactor* f, double threshold) {
  if (!f || !(threshold > 0.0 && threshold <= 1.0)) return NSD_BAD_INPUT;
  f->pivot_threshold = threshold;
  f->klu.tol = threshold;
  f->umf_control[UMFPACK_PIVOT_TOLERANCE] = threshold;
  f->umf_control[UMFPACK_SYM_PIVOT_TOLERANCE] = threshold;
  return NSD_OK;
}

NsdStatus nsd_factor_set_threads(NsdFactor* f, int threads) {
  if (!f || threads < 0) return NSD_BAD_INPUT;
  f->threads = threads;
  return NSD_OK;
}

NsdStatus nsd_factor_solve(const NsdFactor* f, double* b) {
  if (!f || (f->n > 0 && !b)) return NSD_BAD_INPUT;
  if (!f->factored) return NSD_FAILED;
  int n = f->n;
  switch (f->backend) {
    case BACKEND_EMPTY:
      return NSD_OK;

    case BACKEND_LAPACK: {
      lapack_int info =
          f->kind == NSD_FACTOR_LU
              ? LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', n, 1, f->dense, n, f->ipiv, b, n)
              : LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', n, 1, f->dense, n, b, n);
      return info == 0 ? NSD_OK : NSD_FAILED;
    }

    case BACKEND_SPARSE_LU: {
      if (!f->use_umf) {
        // klu_solve writes the factor's workspace: the factor is not shared between threads
        klu_common common = f->klu;
        return klu_solve(f->klu_sym, f->klu_num, n, 1, b, &common) ? NSD_OK : NSD_FAILED;
      }
      double* w = malloc(6 * (size_t)n * sizeof(double));
      int* wi = malloc((size_t)n * sizeof(int));
      NsdStatus status = NSD_FAILED;
      if (w && wi) {
        const cs_di* c = f->values;
        int st = umfpack_di_wsolve(UMFPACK_A, c->p, c->i, c->x, w, b, f->umf_numeric,
                                   f->umf_control, NULL, wi, w + n);
        if (st == UMFPACK_OK) {
          memcpy(b, w, (size_t)n * sizeof(double));
          status = NSD_OK;
        }
      }
      free(w);
      free(wi);
      return status;
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
      nsd_factor_chol_common_start(&cc);
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
  free(f->colmax);
  free(f->row_count);
  free(f->pattern_p);
  free(f->pattern_i);
  free(f->sym_p);
  free(f->sym_i);
  cs_di_spfree(f->values);
  nsd_factor_klu_release(f);
  if (f->chol) {
    cholmod_common cc;
    nsd_factor_chol_common_start(&cc);
    cholmod_free_factor(&f->chol, &cc);
    cholmod_finish(&cc);
  }
  free(f);
}

long long nsd_factor_nnz(const NsdFactor* f) {
  if (!f || !f->factored) return -1;
  long long n = f->n;
  switch (f->backend) {
    case BACKEND_EMPTY:
      return 0;
    case BACKEND_LAPACK:
      return f->kind == NSD_FACTOR_LU ? n * n : n * (n + 1) / 2;
    case BACKEND_SPARSE_LU: {
      if (!f->use_umf)
        // L (unit diagonal counted), U (diagonal counted) and the off-diagonal blocks of the
        // block triangular form: the diagonal once
        return (long long)f->klu_num->lnz + (long long)f->klu_num->unz +
               (long long)f->klu_num->nzoff - n;
      int lnz = 0, unz = 0, nr = 0, ncol = 0, udiag = 0;
      if (umfpack_di_get_lunz(&lnz, &unz, &nr, &ncol, &udiag, f->umf_numeric) != UMFPACK_OK)
        return -1;
      return (long long)lnz + (long long)unz - n;
    }
    case BACKEND_CHOLMOD: {
      const cholmod_factor* l = f->chol;
      if (!l->is_super) {
        long long nz = 0;
        const int* cnt = l->nz;
        for (int j = 0; j < f->n; ++j) nz += cnt[j];
        return nz;
      }
      // supernodal: a dense lower trapezoid of nsrow x nscol per supernode
      const int *super = l->super, *pi = l->pi;
      long long nz = 0;
      for (size_t k = 0; k < l->nsuper; ++k) {
        long long ncols = super[k + 1] - super[k], nrows = pi[k + 1] - pi[k];
        nz += ncols * nrows - ncols * (ncols - 1) / 2;
      }
      return nz;
    }
  }
  return -1;
}

const char* nsd_factor_backend_name(const NsdFactor* f) {
  if (!f) return "none";
  switch (f->backend) {
    case BACKEND_EMPTY:
      return "empty";
    case BACKEND_LAPACK:
      return f->kind == NSD_FACTOR_LU ? "LAPACK dgetrf" : "LAPACK dpotrf";
    case BACKEND_SPARSE_LU:
      return f->use_umf ? "UMFPACK" : "KLU";
    case BACKEND_CHOLMOD:
      return "CHOLMOD";
  }
  return "none";
}
