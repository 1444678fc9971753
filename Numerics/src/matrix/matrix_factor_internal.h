/*
 * Private queries on an NsdFactor (matrix_factor.c; not installed), for the
 * solvers' reports, the benchmarks and the tests that check that a
 * fill-reducing ordering is used.
 */
#ifndef NSDYN_MATRIX_FACTOR_INTERNAL_H
#define NSDYN_MATRIX_FACTOR_INTERNAL_H

#include "nsdyn/nsd_matrix.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Non-zeros held by the numeric factors of @p factor: nnz(L) + nnz(U) - n for
 * an LU (KLU, off-diagonal blocks of its block triangular form included; n*n dense), nnz(L) for a
 * Cholesky (CHOLMOD, a supernode counted as its dense lower trapezoid; n(n+1)/2 dense); -1 when no
 * numeric factor is held.
 */
long long nsd_factor_nnz(const NsdFactor* factor);

/** The library that holds the factors: "KLU", "CHOLMOD", "LAPACK dgetrf", ... */
const char* nsd_factor_backend_name(const NsdFactor* factor);

#ifdef __cplusplus
}
#endif
#endif
