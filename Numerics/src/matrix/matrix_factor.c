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
 */
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cholmod.h>
#include <klu.h>
#include <umfpack.h>

#include "matrix/matrix_factor_internal.h"
#include "matrix/matrix_internal.h"

/** Back end holding the factors. */
typedef enum FactorBackend {
  BACKEND_EMPTY,     /* 0 x 0 matrix: nothing to solve */
  BACKEND_LAPACK,    /* dense LU (dgetrf) or Cholesky (dpotrf, lower) */
  BACKEND_SPARSE_LU, /* sparse LU with threshold partial pivoting: KLU or UMFPACK (use_umf) */
  BACKEND_CHOLMOD    /* sparse Cholesky, LL' or LDL' */
} FactorBackend;

struct NsdFactor {
  NsdFactorKind kind;
  FactorBackend backend;
  int n;
  int factored;          /* 1 while numeric factors are held (nsd_factor_solve needs them) */
  double* dense;         /* LAPACK: n x n factors, column-major; UMFPACK: [n] pivots u_kk */
  int* ipiv;             /* LAPACK LU: row interchanges (1-based); UMFPACK: [2n] P, Q */
  double* colmax;        /* [n] scratch: largest |a_ij| of each column */
  int* row_count;        /* [n] scratch: stored non-zeros of each row (sparse LU) */
  int* pattern_p;        /* sparse: recorded pattern, canonical CSC column pointers [n+1] */
  int* pattern_i;        /* sparse: its row indices [pattern_p[n]] (explicit zeros included) */
  cs_di* values;         /* sparse: non-zeros of the matrix factorised, capacity pattern_p[n] */
  klu_symbolic* klu_sym; /* KLU: ordering and block triangular form of sym_p, sym_i */
  int* sym_p;            /* KLU: the non-zero pattern analysed, CSC column pointers [n+1] */
  int* sym_i;            /* KLU: its row indices [sym_nz] */
  int sym_nz;
  klu_numeric* klu_num; /* KLU: L, U, pivots (of the pattern sym_p, sym_i) */
  double klu_rcond;     /* KLU: min/max |u_kk| of the last factorisation with pivoting */
  klu_common klu;       /* KLU: controls (and statistics of the last call) */
  int use_umf;          /* sparse LU by UMFPACK (dense factors) rather than KLU */
  int engine_chosen;    /* use_umf decided (at the first analysis) */
  void* umf_symbolic;   /* UMFPACK: ordering and symbolic analysis of sym_p, sym_i */
  void* umf_numeric;    /* UMFPACK: L, U, permutations */
  double umf_control[UMFPACK_CONTROL];
  cholmod_factor* chol;   /* CHOLMOD: L with its permutation */
  int chol_full;          /* CHOLMOD: analysis made on the whole recorded pattern */
  double pivot_threshold; /* KLU: partial-pivoting threshold in (0, 1] */
};

/* Negligible-pivot factor: n times the machine epsilon. */
static double pivot_tolerance(int n) {
  return (double)n * DBL_EPSILON;
}

/*
 * Default partial-pivoting threshold of the sparse LU: a candidate is kept as
 * pivot when |a_ik| >= threshold max_i |a_ik| (1: plain partial pivoting).
 */
#define LU_PIVOT_THRESHOLD 1.0

/*
 * Estimated non-zeros of L + U per column (KLU's analysis) from which the sparse
 * LU is UMFPACK's: its dense frontal matrices and BLAS-3 pay off on dense
 * factors, KLU's scalar left-looking kernel and refactorisation on sparse ones.
 */
#define LU_DENSE_FACTOR 64.0

/* ---- dense (LAPACK) ------------------------------------------------------- */

/* LU of the dense matrix a into f; reports the first negligible pivot. */
static NsdStatus dense_lu(const NsdMatrix* a, NsdFactor* f, NsdReport* report) {
  int n = a->rows;
  size_t nn = (size_t)n * (size_t)n;
  if (!f->colmax) f->colmax = malloc((size_t)n * sizeof(double));
  if (!f->dense) f->dense = malloc(nn * sizeof(double));
  if (!f->ipiv) f->ipiv = malloc((size_t)n * sizeof(int));
  double* colmax = f->colmax;
  if (!colmax || !f->dense || !f->ipiv)
    return nsd_report_fail(report, NSD_FAILED, "out of memory factorising a dense %d x %d matrix",
                           n, n);

  // column magnitudes, the scale of each pivot
  memcpy(f->dense, a->dense, nn * sizeof(double));
  for (int j = 0; j < n; ++j) {
    colmax[j] = 0.0;
    for (int i = 0; i < n; ++i)
      colmax[j] = fmax(colmax[j], fabs(f->dense[(size_t)i + (size_t)j * n]));
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
        status =
            nsd_report_fail(report, NSD_FAILED,
                            "singular matrix: LU pivot of column %d is %g (|u| <= %g)", k, u, tol);
        break;
      }
    }
  }
  return status;
}

/* Cholesky A = L L^T of the dense matrix a (lower triangle) into f. */
static NsdStatus dense_cholesky(const NsdMatrix* a, NsdFactor* f, NsdReport* report) {
  int n = a->rows;
  size_t nn = (size_t)n * (size_t)n;
  if (!f->dense) f->dense = malloc(nn * sizeof(double));
  if (!f->dense)
    return nsd_report_fail(report, NSD_FAILED, "out of memory factorising a dense %d x %d matrix",
                           n, n);
  memcpy(f->dense, a->dense, nn * sizeof(double));

  // exact failure: the leading minor of order info is not positive
  lapack_int info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, f->dense, n);
  if (info < 0)
    return nsd_report_fail(report, NSD_FAILED, "dpotrf rejected argument %d", (int)-info);
  if (info > 0)
    return nsd_report_fail(report, NSD_FAILED,
                           "matrix not positive definite: pivot of column %d is not positive",
                           (int)info - 1);

  // numerical failure: a pivot l_kk^2 negligible against a_kk
  for (int k = 0; k < n; ++k) {
    double l = f->dense[(size_t)k + (size_t)k * n], akk = a->dense[(size_t)k + (size_t)k * n];
    double tol = pivot_tolerance(n) * akk;
    if (!(l * l > tol))
      return nsd_report_fail(report, NSD_FAILED,
                             "matrix not positive definite: pivot of column %d is %g (<= %g)", k,
                             l * l, tol);
  }
  return NSD_OK;
}

/* ---- sparse LU (CXSparse) ---------------------------------------------------- */

/**
 * Column of canonical CSC c that a sparse QR finds the most dependent on the
 * columns before it (smallest |r_kk| relative to the column's largest entry),
 * to name it when the LU stops on a zero pivot; -1 if the QR cannot be done.
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
static cs_di* stored_cs(const NsdMatrix* a) {
  return a->storage == NSD_CSC ? nsd_csc_canonical(a->csc)
                               : sbm_stored_cs(a->sbm, a->rows, a->cols);
}

/* Record the pattern of canonical c in f. */
static int record_pattern(NsdFactor* f, const cs_di* c) {
  int n = f->n, nz = c->p[n];
  f->pattern_p = malloc(((size_t)n + 1) * sizeof(int));
  f->pattern_i = malloc((size_t)(nz > 0 ? nz : 1) * sizeof(int));
  if (!f->pattern_p || !f->pattern_i) return 0;
  memcpy(f->pattern_p, c->p, ((size_t)n + 1) * sizeof(int));
  if (nz > 0) memcpy(f->pattern_i, c->i, (size_t)nz * sizeof(int));
  return 1;
}

/* 1 if the columns of c (p, i) are exactly the recorded pattern. */
static int pattern_matches(const NsdFactor* f, const cs_di* c) {
  int n = f->n, nz = f->pattern_p[n];
  return c->m == n && c->n == n && memcmp(c->p, f->pattern_p, ((size_t)n + 1) * sizeof(int)) == 0 &&
         (nz == 0 || memcmp(c->i, f->pattern_i, (size_t)nz * sizeof(int)) == 0);
}

/*
 * The non-zero entries of CSC s into out (capacity at least nnz(s)), in the
 * same order; with colmax (and row_count) non-NULL, also the largest |a_ij| of
 * each column and the non-zero count of each row.
 */
static void keep_nonzeros(const cs_di* s, cs_di* out, double* colmax, int* row_count) {
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

/* ---- sparse LU (KLU): gather, factorise ------------------------------------------- */

/* The LU scratch of f ([n] column magnitudes and row counts); 0 on no memory. */
static int lu_scratch(NsdFactor* f) {
  if (!f->row_count) f->row_count = malloc((size_t)f->n * sizeof(int));
  if (!f->colmax) f->colmax = malloc((size_t)f->n * sizeof(double));
  return f->row_count && f->colmax;
}

/* The non-zeros of s into f->values with their magnitudes; an empty column or row names itself. */
static NsdStatus lu_gather(const cs_di* s, NsdFactor* f, NsdReport* report) {
  int n = s->n;
  if (!lu_scratch(f))
    return nsd_report_fail(report, NSD_FAILED, "out of memory factorising a %d x %d CSC matrix", n,
                           n);
  const cs_di* c = f->values;
  keep_nonzeros(s, f->values, f->colmax, f->row_count);
  for (int k = 0; k < n; ++k) {
    if (c->p[k + 1] == c->p[k])
      return nsd_report_fail(report, NSD_FAILED, "singular matrix: column %d is zero", k);
    if (f->row_count[k] == 0)
      return nsd_report_fail(report, NSD_FAILED, "singular matrix: row %d is zero", k);
  }
  return NSD_OK;
}

/* KLU controls: row scaling off (pivots compared with the columns of A as given),
 * threshold partial pivoting, AMD ordering, block triangular form. */
static void klu_control_init(NsdFactor* f) {
  klu_defaults(&f->klu);
  f->klu.scale = 0;
  f->klu.tol = f->pivot_threshold;
  f->klu.ordering = 0; /* AMD */
  f->klu.btf = 1;
}

/* UMFPACK controls: row scaling off, threshold partial pivoting, no iterative refinement
 * (the solvers refine themselves). */
static void umf_control_init(NsdFactor* f) {
  umfpack_di_defaults(f->umf_control);
  f->umf_control[UMFPACK_SCALE] = UMFPACK_SCALE_NONE;
  f->umf_control[UMFPACK_IRSTEP] = 0;
  f->umf_control[UMFPACK_PIVOT_TOLERANCE] = f->pivot_threshold;
  f->umf_control[UMFPACK_SYM_PIVOT_TOLERANCE] = f->pivot_threshold;
}

static void klu_release(NsdFactor* f) {
  if (f->klu_num) klu_free_numeric(&f->klu_num, &f->klu);
  if (f->klu_sym) klu_free_symbolic(&f->klu_sym, &f->klu);
  f->klu_num = NULL;
  f->klu_sym = NULL;
  if (f->umf_numeric) umfpack_di_free_numeric(&f->umf_numeric);
  if (f->umf_symbolic) umfpack_di_free_symbolic(&f->umf_symbolic);
}

/*
 * The KLU analysis (block triangular form, AMD ordering) of the non-zero
 * pattern of f->values, kept while that pattern does not change: the values
 * of Newton Jacobians vanish on whole blocks (inactive contacts), and
 * factorising the recorded pattern would then pay for entries that are zero.
 */
static NsdStatus lu_symbolic(NsdFactor* f, NsdReport* report) {
  const cs_di* c = f->values;
  int n = f->n, nz = c->p[n];
  if ((f->klu_sym || f->umf_symbolic) && f->sym_nz == nz &&
      memcmp(f->sym_p, c->p, ((size_t)n + 1) * sizeof(int)) == 0 &&
      (nz == 0 || memcmp(f->sym_i, c->i, (size_t)nz * sizeof(int)) == 0))
    return NSD_OK;
  klu_release(f);
  if (!f->sym_p) f->sym_p = malloc(((size_t)n + 1) * sizeof(int));
  if (!f->sym_i)
    f->sym_i = malloc((size_t)(f->pattern_p[n] > 0 ? f->pattern_p[n] : 1) * sizeof(int));
  if (!f->sym_p || !f->sym_i)
    return nsd_report_fail(report, NSD_FAILED, "out of memory analysing a %d x %d matrix", n, n);
  // the engine is chosen at the first analysis, on KLU's estimate of the factors: the
  // patterns of one factor's later matrices differ by vanishing blocks only
  if (!f->engine_chosen || !f->use_umf) {
    f->klu_sym = klu_analyze(n, c->p, c->i, &f->klu);
    if (!f->klu_sym)
      return nsd_report_fail(report, NSD_FAILED, "KLU analysis of a %d x %d matrix failed (%d)", n,
                             n, f->klu.status);
    if (!f->engine_chosen)
      f->use_umf = (f->klu_sym->lnz + f->klu_sym->unz) > LU_DENSE_FACTOR * (double)n;
    f->engine_chosen = 1;
    if (f->use_umf) klu_free_symbolic(&f->klu_sym, &f->klu);
  }
  if (f->use_umf) {
    umf_control_init(f);
    const int st =
        umfpack_di_symbolic(n, n, c->p, c->i, c->x, &f->umf_symbolic, f->umf_control, NULL);
    if (st != UMFPACK_OK) {
      f->umf_symbolic = NULL;
      return nsd_report_fail(report, NSD_FAILED, "UMFPACK analysis of a %d x %d matrix failed (%d)",
                             n, n, st);
    }
  }
  memcpy(f->sym_p, c->p, ((size_t)n + 1) * sizeof(int));
  if (nz > 0) memcpy(f->sym_i, c->i, (size_t)nz * sizeof(int));
  f->sym_nz = nz;
  return NSD_OK;
}

/* A zero pivot reported by KLU or UMFPACK: the dependent column named when there is a
 * report to write it in (the QR behind it is not free). */
static NsdStatus singular_failure(const NsdFactor* f, NsdReport* report) {
  const int col = report ? dependent_column(f->values, f->colmax) : -1;
  if (col >= 0)
    return nsd_report_fail(report, NSD_FAILED,
                           "singular matrix: no non-zero LU pivot; column %d depends on the others",
                           col);
  return nsd_report_fail(report, NSD_FAILED, "singular matrix: zero LU pivot (n = %d)", f->n);
}

/* The first pivot that is negligible against the column it came from (-1: none). */
static int negligible_pivot(const NsdFactor* f, double* pivot) {
  const double* udiag = (const double*)f->klu_num->Udiag;
  const int* q = f->klu_sym->Q;
  for (int k = 0; k < f->n; ++k) {
    const int col = q[k];
    if (!(fabs(udiag[k]) > pivot_tolerance(f->n) * f->colmax[col])) {
      *pivot = udiag[k];
      return col;
    }
  }
  return -1;
}

/* min/max |u_kk| of the held factors */
static double lu_rcond(NsdFactor* f) {
  return klu_rcond(f->klu_sym, f->klu_num, &f->klu) ? f->klu.rcond : 0.0;
}

/*
 * Numeric LU of f->values (gathered by lu_gather), the analysis reused while the
 * non-zero pattern repeats. While it does, the factors are first redone with the
 * pivot sequence of the last factorisation (klu_refactor, no search), and
 * factorised afresh with partial pivoting when that sequence no longer suits the
 * values (a negligible pivot, or min/max |u_kk| fallen 1000-fold). Without a
 * report, a zero pivot is not diagnosed further.
 */
static NsdStatus umf_numeric(NsdFactor* f, NsdReport* report);

static NsdStatus lu_numeric(NsdFactor* f, NsdReport* report) {
  int n = f->n;
  const int had_symbolic = f->klu_sym != NULL;
  NsdStatus status = lu_symbolic(f, report);
  if (status != NSD_OK) return status;
  if (f->use_umf) return umf_numeric(f, report);
  cs_di* c = f->values;
  double pivot = 0.0;
  if (had_symbolic && f->klu_num && f->klu_sym &&
      klu_refactor(c->p, c->i, c->x, f->klu_sym, f->klu_num, &f->klu) &&
      negligible_pivot(f, &pivot) < 0 && lu_rcond(f) >= 1e-3 * f->klu_rcond)
    return NSD_OK;
  if (f->klu_num) klu_free_numeric(&f->klu_num, &f->klu);
  f->klu_num = klu_factor(c->p, c->i, c->x, f->klu_sym, &f->klu);
  if (!f->klu_num || f->klu.status == KLU_SINGULAR) {
    if (f->klu_num) klu_free_numeric(&f->klu_num, &f->klu);
    if (f->klu.status == KLU_SINGULAR || f->klu.status == KLU_OK) {
      return singular_failure(f, report);
    }
    return nsd_report_fail(report, NSD_FAILED, "KLU factorisation failed (%d), n = %d",
                           f->klu.status, n);
  }
  const int col = negligible_pivot(f, &pivot);
  if (col >= 0)
    return nsd_report_fail(report, NSD_FAILED,
                           "singular matrix: LU pivot of column %d is %g (|u| <= %g)", col, pivot,
                           pivot_tolerance(n) * f->colmax[col]);
  f->klu_rcond = lu_rcond(f);
  return NSD_OK;
}

/* UMFPACK's numeric LU of f->values on its analysis (dense factors). */
static NsdStatus umf_numeric(NsdFactor* f, NsdReport* report) {
  int n = f->n;
  if (f->umf_numeric) umfpack_di_free_numeric(&f->umf_numeric);
  f->umf_numeric = NULL;
  const cs_di* c = f->values;
  int st =
      umfpack_di_numeric(c->p, c->i, c->x, f->umf_symbolic, &f->umf_numeric, f->umf_control, NULL);
  if (st == UMFPACK_WARNING_singular_matrix) {
    return singular_failure(f, report);
  }
  if (st != UMFPACK_OK) {
    if (f->umf_numeric) umfpack_di_free_numeric(&f->umf_numeric);
    f->umf_numeric = NULL;
    return nsd_report_fail(report, NSD_FAILED, "UMFPACK factorisation failed (%d), n = %d", st, n);
  }
  // the pivot of step k is U's diagonal entry k, from A's column Q[k]
  if (!f->ipiv) f->ipiv = malloc(2 * (size_t)n * sizeof(int));
  if (!f->dense) f->dense = malloc((size_t)n * sizeof(double));
  if (!f->ipiv || !f->dense)
    return nsd_report_fail(report, NSD_FAILED, "out of memory factorising a %d x %d CSC matrix", n,
                           n);
  int* q = f->ipiv + n;
  int do_recip = 0;
  st = umfpack_di_get_numeric(NULL, NULL, NULL, NULL, NULL, NULL, f->ipiv, q, f->dense, &do_recip,
                              NULL, f->umf_numeric);
  if (st != UMFPACK_OK)
    return nsd_report_fail(report, NSD_FAILED, "UMFPACK could not return its pivots (%d)", st);
  for (int k = 0; k < n; ++k) {
    int col = q[k];
    double piv = f->dense[k], tol = pivot_tolerance(n) * f->colmax[col];
    if (!(fabs(piv) > tol))
      return nsd_report_fail(report, NSD_FAILED,
                             "singular matrix: LU pivot of column %d is %g (|u| <= %g)", col, piv,
                             tol);
  }
  return NSD_OK;
}

/* Record the stored pattern of s (canonical, explicit zeros kept) and a value buffer for it. */
static int lu_record(NsdFactor* f, const cs_di* s) {
  int n = f->n, nz = s->p[n];
  klu_control_init(f);
  return record_pattern(f, s) && (f->values = cs_di_spalloc(n, n, nz > 0 ? nz : 1, 1, 0)) != NULL;
}

/* LU of the stored entries s (canonical, explicit zeros kept) into f, ordering made on its
 * non-zeros. */
static NsdStatus sparse_lu(const cs_di* s, NsdFactor* f, NsdReport* report) {
  int n = s->n;
  if (!lu_record(f, s))
    return nsd_report_fail(report, NSD_FAILED, "out of memory factorising a %d x %d CSC matrix", n,
                           n);
  NsdStatus status = lu_gather(s, f, report);
  return status == NSD_OK ? lu_numeric(f, report) : status;
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

/* A CHOLMOD view of canonical c, symmetric with its lower triangle read. */
static cholmod_sparse chol_view(const cs_di* c) {
  cholmod_sparse view;
  memset(&view, 0, sizeof view);
  view.nrow = (size_t)c->m;
  view.ncol = (size_t)c->n;
  view.nzmax = (size_t)c->p[c->n];
  view.p = c->p;
  view.i = c->i;
  view.x = c->x;
  view.stype = -1;
  view.itype = CHOLMOD_INT;
  view.xtype = CHOLMOD_REAL;
  view.dtype = CHOLMOD_DOUBLE;
  view.sorted = 1;
  view.packed = 1;
  return view;
}

/* Symbolic analysis of the pattern of canonical c into f->chol (replacing any). */
static NsdStatus chol_analyse(const cs_di* c, NsdFactor* f, NsdReport* report) {
  cholmod_sparse view = chol_view(c);
  cholmod_common cc;
  chol_common_start(&cc);
  if (f->chol) cholmod_free_factor(&f->chol, &cc);
  f->chol = cholmod_analyze(&view, &cc);
  NsdStatus status = f->chol ? NSD_OK
                             : nsd_report_fail(report, NSD_FAILED,
                                               "CHOLMOD analysis failed (status %d)", cc.status);
  cholmod_finish(&cc);
  return status;
}

/* Numeric Cholesky of canonical c (lower triangle read) with the analysis f->chol. */
static NsdStatus chol_numeric(const cs_di* c, NsdFactor* f, NsdReport* report) {
  int n = c->n;
  if (!f->colmax) f->colmax = malloc((size_t)n * sizeof(double));
  double* diag = f->colmax;
  if (!diag)
    return nsd_report_fail(report, NSD_FAILED, "out of memory factorising a %d x %d CSC matrix", n,
                           n);
  for (int j = 0; j < n; ++j) {
    diag[j] = 0.0;
    for (int q = c->p[j]; q < c->p[j + 1]; ++q)
      if (c->i[q] == j) diag[j] = c->x[q];
  }

  cholmod_sparse view = chol_view(c);
  cholmod_common cc;
  chol_common_start(&cc);
  NsdStatus status = NSD_OK;
  if (!cholmod_factorize(&view, f->chol, &cc) || cc.status < CHOLMOD_OK) {
    status =
        nsd_report_fail(report, NSD_FAILED, "CHOLMOD factorisation failed (status %d)", cc.status);
  } else if (cc.status == CHOLMOD_NOT_POSDEF) {
    int col = ((const int*)f->chol->Perm)[f->chol->minor];
    status =
        nsd_report_fail(report, NSD_FAILED,
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
  return status;
}

/* Cholesky of the stored entries s (canonical) into f, analysis made on its non-zeros. */
static NsdStatus sparse_cholesky(const cs_di* s, NsdFactor* f, NsdReport* report) {
  int n = s->n, nz = s->p[n];
  if (!record_pattern(f, s) || !(f->values = cs_di_spalloc(n, n, nz > 0 ? nz : 1, 1, 0)))
    return nsd_report_fail(report, NSD_FAILED, "out of memory factorising a %d x %d CSC matrix", n,
                           n);
  keep_nonzeros(s, f->values, NULL, NULL);
  NsdStatus status = chol_analyse(f->values, f, report);
  return status == NSD_OK ? chol_numeric(f->values, f, report) : status;
}

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
    status = kind == NSD_FACTOR_LU ? dense_lu(a, f, report) : dense_cholesky(a, f, report);
  } else if (f->backend != BACKEND_EMPTY) {
    cs_di* s = stored_cs(a);
    if (!s)
      status = nsd_report_fail(report, NSD_FAILED,
                               "out of memory converting a %d x %d matrix to CSC", f->n, f->n);
    else
      status = kind == NSD_FACTOR_LU ? sparse_lu(s, f, report) : sparse_cholesky(s, f, report);
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
    cs_di* s = stored_cs(a);
    int nz = s ? s->p[n] : 0;
    int ok = s && (kind == NSD_FACTOR_LU
                       ? lu_record(f, s)
                       : record_pattern(f, s) &&
                             (f->values = cs_di_spalloc(n, n, nz > 0 ? nz : 1, 1, 0)) != NULL);
    if (!ok) {
      status =
          nsd_report_fail(report, NSD_FAILED, "out of memory analysing a %d x %d matrix", n, n);
    } else if (kind == NSD_FACTOR_LU) {
      // the ordering is made on the first refactor's non-zeros (lu_symbolic)
    } else {
      status = chol_analyse(s, f, report);
      f->chol_full = 1;
    }
    cs_di_spfree(s);
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
    NsdStatus status =
        f->kind == NSD_FACTOR_LU ? dense_lu(a, f, report) : dense_cholesky(a, f, report);
    f->factored = status == NSD_OK;
    return status;
  }

  // the stored entries in canonical order: a's own CSC when it already is that pattern
  cs_di* copy = NULL;
  const cs_di* s = a->storage == NSD_CSC ? a->csc : NULL;
  if (!s || !pattern_matches(f, s)) {
    s = copy = stored_cs(a);
    if (!copy)
      return nsd_report_fail(report, NSD_FAILED, "out of memory converting a %d x %d matrix", f->n,
                             f->n);
    if (!pattern_matches(f, copy)) {
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
    status = lu_gather(s, f, report);
    if (status == NSD_OK) status = lu_numeric(f, report);
  } else {
    status = NSD_OK;
    if (!f->chol_full) {
      status = chol_analyse(s, f, report);
      f->chol_full = status == NSD_OK;
    }
    if (status == NSD_OK) status = chol_numeric(s, f, report);
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
  free(f->colmax);
  free(f->row_count);
  free(f->pattern_p);
  free(f->pattern_i);
  free(f->sym_p);
  free(f->sym_i);
  cs_di_spfree(f->values);
  klu_release(f);
  if (f->chol) {
    cholmod_common cc;
    chol_common_start(&cc);
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
