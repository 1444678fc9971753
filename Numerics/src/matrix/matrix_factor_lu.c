/*
 * Sparse LU of an NsdFactor: KLU (left-looking, after a block triangular form
 * and an AMD fill-reducing ordering; refactorisation with the pivot sequence
 * kept) for sparse factors, UMFPACK (multifrontal, BLAS-3 fronts) for dense
 * ones, chosen on KLU's estimate of the factors' non-zeros per column
 * (LU_DENSE_FACTOR); CXSparse's QR names a dependent column when an LU fails.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/matrix_factor_impl.h"

/*
 * Estimated non-zeros of L + U per column (KLU's analysis) from which the sparse
 * LU is UMFPACK's: its dense frontal matrices and BLAS-3 pay off on dense
 * factors, KLU's scalar left-looking kernel and refactorisation on sparse ones.
 */
#define LU_DENSE_FACTOR 64.0

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

/* ---- sparse LU (KLU): gather, factorise ------------------------------------------- */

/* The LU scratch of f ([n] column magnitudes and row counts); 0 on no memory. */
static int lu_scratch(NsdFactor* f) {
  if (!f->row_count) f->row_count = malloc((size_t)f->n * sizeof(int));
  if (!f->colmax) f->colmax = malloc((size_t)f->n * sizeof(double));
  return f->row_count && f->colmax;
}

/* The non-zeros of s into f->values with their magnitudes; an empty column or row names itself. */
NsdStatus nsd_factor_lu_gather(const cs_di* s, NsdFactor* f, NsdReport* report) {
  int n = s->n;
  if (!lu_scratch(f))
    return nsd_report_fail(report, NSD_FAILED, "out of memory factorising a %d x %d CSC matrix", n,
                           n);
  const cs_di* c = f->values;
  nsd_factor_keep_nonzeros(s, f->values, f->colmax, f->row_count);
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

void nsd_factor_klu_release(NsdFactor* f) {
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
  nsd_factor_klu_release(f);
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
 * Numeric LU of f->values (gathered by nsd_factor_lu_gather), the analysis reused while the
 * non-zero pattern repeats. While it does, the factors are first redone with the
 * pivot sequence of the last factorisation (klu_refactor, no search), and
 * factorised afresh with partial pivoting when that sequence no longer suits the
 * values (a negligible pivot, or min/max |u_kk| fallen 1000-fold). Without a
 * report, a zero pivot is not diagnosed further.
 */
static NsdStatus umf_numeric(NsdFactor* f, NsdReport* report);

NsdStatus nsd_factor_lu_numeric(NsdFactor* f, NsdReport* report) {
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
int nsd_factor_lu_record(NsdFactor* f, const cs_di* s) {
  int n = f->n, nz = s->p[n];
  klu_control_init(f);
  return nsd_factor_record_pattern(f, s) &&
         (f->values = cs_di_spalloc(n, n, nz > 0 ? nz : 1, 1, 0)) != NULL;
}

/* LU of the stored entries s (canonical, explicit zeros kept) into f, ordering made on its
 * non-zeros. */
NsdStatus nsd_factor_sparse_lu(const cs_di* s, NsdFactor* f, NsdReport* report) {
  int n = s->n;
  if (!nsd_factor_lu_record(f, s))
    return nsd_report_fail(report, NSD_FAILED, "out of memory factorising a %d x %d CSC matrix", n,
                           n);
  NsdStatus status = nsd_factor_lu_gather(s, f, report);
  return status == NSD_OK ? nsd_factor_lu_numeric(f, report) : status;
}
