/**
 * @file matrix_internal.h
 * @brief Private helpers shared by the files of the matrix module (not installed).
 *
 * They are shared between the files of the module but hidden from the
 * library's exported symbols; they are not part of the public API.
 */
#ifndef NSDYN_MATRIX_INTERNAL_H
#define NSDYN_MATRIX_INTERNAL_H

#include <stddef.h>

/* CXSparse's cs.h pulls in <complex.h> (which defines the macro I) unless told not to. */
#ifndef NCOMPLEX
#define NCOMPLEX
#endif
#include <cs.h>

#include "nsdyn/nsd_matrix.h"

/* Visible to every file of the module, not exported from the shared library. */
#if defined(__GNUC__)
#define NSD_MATRIX_INTERNAL __attribute__((visibility("hidden")))
#else
#define NSD_MATRIX_INTERNAL
#endif

/**
 * Number of entries of a dense rows x cols matrix in @p count.
 * @return 1, or 0 if a size is negative or rows*cols*sizeof(double) overflows size_t.
 */
NSD_MATRIX_INTERNAL int nsd_matrix_dense_count(int rows, int cols, size_t* count);

/**
 * 1 if @p a is non-NULL and its storage is consistent with its sizes
 * (storage pointer set, CSC in compressed form of the right shape, SBM
 * block ends matching rows and cols). O(1): block contents are not scanned.
 */
NSD_MATRIX_INTERNAL int nsd_matrix_is_valid(const NsdMatrix* a);

/** New zero-filled NsdMatrix shell (no storage attached); NULL on no memory. */
NSD_MATRIX_INTERNAL NsdMatrix* nsd_matrix_shell(NsdStorage storage, int rows, int cols);

/** Free a sparse-block structure and its arrays (NULL allowed). */
NSD_MATRIX_INTERNAL void nsd_sbm_free(NsdSparseBlock* s);

/**
 * Block row (or block column) holding row (or column) @p i, given the
 * cumulative ends @p end[n]: the first b with end[b] > i. -1 if out of range.
 */
NSD_MATRIX_INTERNAL int nsd_sbm_locate(const int* end, int n, int i);

/** First row (or column) of block b, given the cumulative ends. */
static inline int nsd_sbm_start(const int* end, int b) {
  return b > 0 ? end[b - 1] : 0;
}

/**
 * Wrap a compressed-column cs_di (ownership taken) into a new NSD_CSC matrix.
 * On failure frees @p c and returns NULL.
 */
NSD_MATRIX_INTERNAL NsdMatrix* nsd_matrix_wrap_csc(cs_di* c);

/**
 * Canonical copy of compressed-column @p c: duplicates summed, row indices
 * sorted within each column (explicit zeros kept). NULL on no memory.
 */
NSD_MATRIX_INTERNAL cs_di* nsd_csc_canonical(const cs_di* c);

/**
 * Canonical CSC of @p a whatever its storage, holding only entries that are
 * not exactly zero (a NaN counts as non-zero). NULL on no memory or bad input.
 */
NSD_MATRIX_INTERNAL cs_di* nsd_matrix_to_cs(const NsdMatrix* a);

#endif
