/*
 * The NsdFactor held by the matrix_factor*.c files and the functions they share
 * (internal to Numerics, never exported: no NSD_API). matrix_factor.c holds the
 * entry points, matrix_factor_dense.c the LAPACK factors, matrix_factor_pattern.c
 * the recorded sparsity patterns, matrix_factor_lu.c the sparse LU (KLU, UMFPACK,
 * CXSparse) and matrix_factor_cholesky.c the sparse Cholesky (CHOLMOD).
 */
#ifndef NSDYN_MATRIX_FACTOR_IMPL_H
#define NSDYN_MATRIX_FACTOR_IMPL_H

#include <float.h>

#include <cholmod.h>
#include <klu.h>
#include <umfpack.h>

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
  int threads;            /* CHOLMOD: > 1 lets its OpenMP loops run (nsd_factor_set_threads) */
};

/* Negligible-pivot factor: n times the machine epsilon. */
static inline double pivot_tolerance(int n) {
  return (double)n * DBL_EPSILON;
}

/* ---- dense (LAPACK), matrix_factor_dense.c ---- */

/* LU of the dense matrix a into f; reports the first negligible pivot. */
NsdStatus nsd_factor_dense_lu(const NsdMatrix* a, NsdFactor* f, NsdReport* report);
/* Cholesky A = L L^T of the dense matrix a (lower triangle) into f. */
NsdStatus nsd_factor_dense_cholesky(const NsdMatrix* a, NsdFactor* f, NsdReport* report);

/* ---- sparse patterns, matrix_factor_pattern.c ---- */

/* Canonical CSC of sparse a with all its stored entries (explicit zeros kept); NULL on no memory.
 */
cs_di* nsd_factor_stored_cs(const NsdMatrix* a);
/* Record the pattern of canonical c in f. */
int nsd_factor_record_pattern(NsdFactor* f, const cs_di* c);
/* 1 if the columns of c (p, i) are exactly the recorded pattern. */
int nsd_factor_pattern_matches(const NsdFactor* f, const cs_di* c);
/* The non-zero entries of CSC s into out (see matrix_factor_pattern.c). */
void nsd_factor_keep_nonzeros(const cs_di* s, cs_di* out, double* colmax, int* row_count);

/* ---- sparse LU (KLU, UMFPACK), matrix_factor_lu.c ---- */

/* The non-zeros of s into f->values with their magnitudes; an empty column or row names itself. */
NsdStatus nsd_factor_lu_gather(const cs_di* s, NsdFactor* f, NsdReport* report);
/* Numeric LU of f->values (gathered by nsd_factor_lu_gather), the analysis reused while the
 * non-zero pattern repeats. */
NsdStatus nsd_factor_lu_numeric(NsdFactor* f, NsdReport* report);
/* Record the stored pattern of s (canonical, explicit zeros kept) and a value buffer for it. */
int nsd_factor_lu_record(NsdFactor* f, const cs_di* s);
/* LU of the stored entries s (canonical, explicit zeros kept) into f, ordering made on its
 * non-zeros. */
NsdStatus nsd_factor_sparse_lu(const cs_di* s, NsdFactor* f, NsdReport* report);
/* Frees the KLU and UMFPACK analyses and factors of f. */
void nsd_factor_klu_release(NsdFactor* f);

/* ---- sparse Cholesky (CHOLMOD), matrix_factor_cholesky.c ---- */

/* Start a CHOLMOD workspace that never prints and always orders with AMD. */
void nsd_factor_chol_common_start(cholmod_common* cc);
/* Symbolic analysis of the pattern of canonical c into f->chol (replacing any). */
NsdStatus nsd_factor_chol_analyse(const cs_di* c, NsdFactor* f, NsdReport* report);
/* Numeric Cholesky of canonical c (lower triangle read) with the analysis f->chol. */
NsdStatus nsd_factor_chol_numeric(const cs_di* c, NsdFactor* f, NsdReport* report);
/* Cholesky of the stored entries s (canonical) into f, analysis made on its non-zeros. */
NsdStatus nsd_factor_sparse_cholesky(const cs_di* s, NsdFactor* f, NsdReport* report);

#endif
