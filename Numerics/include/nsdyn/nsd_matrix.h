/**
 * @file nsd_matrix.h
 * @brief ::NsdMatrix, one matrix type with three storages: dense column-major,
 *        sparse-block (block CSR, blocks of any size) and compressed sparse
 *        column (a CXSparse `cs_di`).
 */
#ifndef NSDYN_NSD_MATRIX_H
#define NSDYN_NSD_MATRIX_H

#include "nsd_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Storage of an ::NsdMatrix. The values match the Siconos .dat storage codes. */
typedef enum NsdStorage {
  NSD_DENSE = 0,        /**< column-major array, entry (i,j) at i + j*rows */
  NSD_SPARSE_BLOCK = 1, /**< block CSR of dense column-major blocks */
  NSD_CSC = 2           /**< compressed sparse column (CXSparse cs_di, nz = -1) */
} NsdStorage;

/**
 * Sparse-block storage (block CSR). Block row I spans rows
 * [row_end[I-1], row_end[I]) with row_end[-1] = 0; likewise for columns.
 * The blocks of block row I are k = row_ptr[I] .. row_ptr[I+1]-1, block
 * column col_index[k], values at values + value_start[k], column-major,
 * of size (block rows) x (block columns). Within a block row, col_index is
 * strictly increasing.
 */
typedef struct NsdSparseBlock {
  int n_block_rows;    /**< NR */
  int n_block_cols;    /**< NC */
  int* row_end;        /**< [NR] cumulative row counts */
  int* col_end;        /**< [NC] cumulative column counts */
  int n_blocks;        /**< stored blocks */
  int* row_ptr;        /**< [NR+1] */
  int* col_index;      /**< [n_blocks] */
  size_t* value_start; /**< [n_blocks+1] offset of each block in values */
  double* values;      /**< all blocks, one after the other */
} NsdSparseBlock;

struct cs_di_sparse; /* CXSparse's cs_di; include <suitesparse/cs.h> to use its fields */

/** One matrix, three storages; exactly one of the storage pointers is set. */
typedef struct NsdMatrix {
  NsdStorage storage;
  int rows;
  int cols;
  double* dense;            /**< NSD_DENSE: rows*cols values, column-major */
  NsdSparseBlock* sbm;      /**< NSD_SPARSE_BLOCK */
  struct cs_di_sparse* csc; /**< NSD_CSC: compressed column (nz == -1) */
} NsdMatrix;

/* ---- creation / destruction -------------------------------------------- */

/** New dense rows x cols matrix of zeros; NULL on bad sizes or no memory. */
NSD_API NsdMatrix* nsd_matrix_create_dense(int rows, int cols);

/** New dense matrix copying @p values (column-major, rows*cols). */
NSD_API NsdMatrix* nsd_matrix_create_dense_from(int rows, int cols, const double* values);

/** New dense matrix copying @p values given row by row (row-major). */
NSD_API NsdMatrix* nsd_matrix_create_dense_from_rows(int rows, int cols, const double* values);

/**
 * New CSC matrix from nnz triplets (row i[k], column j[k], value x[k]);
 * duplicates add up. NULL on indices out of range or no memory.
 */
NSD_API NsdMatrix* nsd_matrix_create_csc_from_triplets(int rows, int cols, int nnz, const int* i,
                                                       const int* j, const double* x);

/**
 * New CSC matrix copying compressed columns: p[cols+1], i[p[cols]], x[p[cols]].
 * Row indices within a column need not be sorted. NULL if inconsistent.
 */
NSD_API NsdMatrix* nsd_matrix_create_csc(int rows, int cols, const int* p, const int* i,
                                         const double* x);

/**
 * New sparse-block matrix with the given block structure and all blocks zero.
 * @param row_end [n_block_rows] strictly increasing cumulative row counts
 * @param col_end [n_block_cols] strictly increasing cumulative column counts
 * @param row_ptr [n_block_rows+1], row_ptr[0] = 0, non-decreasing
 * @param col_index [row_ptr[n_block_rows]] block columns, strictly increasing per block row
 * Returns NULL on an inconsistent structure or no memory.
 */
NSD_API NsdMatrix* nsd_matrix_create_sparse_block(int n_block_rows, int n_block_cols,
                                                  const int* row_end, const int* col_end,
                                                  const int* row_ptr, const int* col_index);

/** Deep copy; NULL on no memory. */
NSD_API NsdMatrix* nsd_matrix_copy(const NsdMatrix* a);

/** Free the matrix and everything it owns. NULL is allowed. */
NSD_API void nsd_matrix_destroy(NsdMatrix* a);

/* ---- access -------------------------------------------------------------- */

/** Entry (i,j), 0 when not stored. Out-of-range indices give 0. */
NSD_API double nsd_matrix_get(const NsdMatrix* a, int i, int j);

/** Pointer to the values of stored block k of a sparse-block matrix (column-major). */
NSD_API double* nsd_matrix_sbm_block(const NsdMatrix* a, int k);

/** Index k of the stored block (I, J) of a sparse-block matrix, or -1. */
NSD_API int nsd_matrix_sbm_find(const NsdMatrix* a, int block_row, int block_col);

/** Number of stored entries (rows*cols for dense, block sizes summed for SBM, nnz for CSC). */
NSD_API size_t nsd_matrix_nnz(const NsdMatrix* a);

/** 1 if every stored value is finite. */
NSD_API int nsd_matrix_is_finite(const NsdMatrix* a);

/**
 * Copy the size x size diagonal block starting at row and column @p start into
 * @p out (column-major, size*size). Works for every storage.
 * @return NSD_OK, or NSD_BAD_INPUT if the block is out of range.
 */
NSD_API NsdStatus nsd_matrix_diagonal_block(const NsdMatrix* a, int start, int size, double* out);

/** Diagonal entries into @p out[min(rows, cols)]. */
NSD_API void nsd_matrix_diagonal(const NsdMatrix* a, double* out);

/** Max over entries of |a_ij - a_ji|, or +inf if not square. */
NSD_API double nsd_matrix_asymmetry(const NsdMatrix* a);

/* ---- products ------------------------------------------------------------ */

/** y = alpha * A x + beta * y  (y has rows entries, x has cols entries). */
NSD_API void nsd_matrix_gemv(double alpha, const NsdMatrix* a, const double* x, double beta,
                             double* y);

/** y = alpha * A^T x + beta * y (y has cols entries, x has rows entries). */
NSD_API void nsd_matrix_gemv_t(double alpha, const NsdMatrix* a, const double* x, double beta,
                               double* y);

/** Row i of A times x: sum_j a_ij x_j. */
NSD_API double nsd_matrix_row_dot(const NsdMatrix* a, int i, const double* x);

/* ---- conversions ---------------------------------------------------------- */

/**
 * New matrix with the same entries in @p storage.
 * To NSD_SPARSE_BLOCK, @p block_size gives square blocks of that size
 * (rows and cols must be multiples of it; only non-zero blocks are stored);
 * it is ignored for the other targets. NULL on failure.
 */
NSD_API NsdMatrix* nsd_matrix_convert(const NsdMatrix* a, NsdStorage storage, int block_size);

/**
 * New CSC matrix holding a + @p shift I for square @p a (any storage), row indices sorted and
 * every diagonal entry stored: bit for bit what nsd_matrix_create_csc_from_triplets gives for
 * the stored entries of @p a (explicit zeros kept; dense: its non-zeros) followed by the
 * triplets (i, i, shift), keeping only the entries with i >= j when @p lower is 1 (the
 * triangle a sparse Cholesky reads). A sparse-block @p a is written column by column without
 * a sort. When @p asymmetry is not NULL it receives max |a_ij - a_ji| (NaN if an entry is
 * NaN), as nsd_matrix_asymmetry, found block against mirror block for a sparse-block @p a with
 * the same row and column blocks. NULL if @p a is invalid or not square, @p lower is not 0 or
 * 1, or on no memory.
 */
NSD_API NsdMatrix* nsd_matrix_create_csc_shifted(const NsdMatrix* a, double shift, int lower,
                                                 double* asymmetry);

/* ---- factorisations -------------------------------------------------------- */

/** Kind of factorisation held by an ::NsdFactor. */
typedef enum NsdFactorKind {
  NSD_FACTOR_LU = 0,      /**< dense: LAPACKE dgetrf; sparse: CXSparse cs_lu */
  NSD_FACTOR_CHOLESKY = 1 /**< dense: LAPACKE dpotrf; sparse: CHOLMOD */
} NsdFactorKind;

/** Opaque factorisation of a square matrix. */
typedef struct NsdFactor NsdFactor;

/**
 * Factorise square @p a. Dense storage uses LAPACK; sparse-block and CSC use
 * CXSparse (LU) or CHOLMOD (Cholesky). On a singular (LU) or non
 * positive-definite (Cholesky) matrix returns NSD_FAILED with a message in
 * @p report (which may be NULL) and *factor = NULL.
 */
NSD_API NsdStatus nsd_factor_create(const NsdMatrix* a, NsdFactorKind kind, NsdFactor** factor,
                                    NsdReport* report);

/**
 * Symbolic analysis of square @p a for a later nsd_factor_refactor, without
 * numeric factorisation: the pattern of the stored entries of @p a (explicit
 * zeros count as entries, values are not read) is recorded with its
 * fill-reducing ordering (sparse LU: made by the first refactor on the
 * non-zeros, with KLU — block triangular form and AMD — or, when KLU estimates
 * a dense factor, UMFPACK; sparse Cholesky: CHOLMOD symbolic factor; dense:
 * buffers only). *factor cannot solve until
 * a refactor succeeds (nsd_factor_solve returns NSD_FAILED). NSD_BAD_INPUT on
 * a bad argument, NSD_FAILED on no memory, with *factor = NULL.
 */
NSD_API NsdStatus nsd_factor_analyse(const NsdMatrix* a, NsdFactorKind kind, NsdFactor** factor,
                                     NsdReport* report);

/**
 * Numeric factorisation of @p a reusing the analysis of @p factor (made by
 * nsd_factor_create or nsd_factor_analyse): @p a must have the same size, a
 * storage of the same family (dense, or sparse-block/CSC) and, when sparse,
 * the same pattern of stored entries (explicit zeros included) as the matrix
 * analysed; its values may differ. Sparse LU keeps the ordering while the
 * non-zero pattern repeats (re-analyses when it changes) and redoes only the
 * numeric factorisation (KLU: with the previous pivot sequence when it still
 * suits the values); dense storage re-runs dgetrf/dpotrf into the
 * factor's buffers; sparse Cholesky keeps the symbolic factor (a factor from
 * nsd_factor_create, analysed on its non-zeros only, is re-analysed once on
 * the whole pattern). A CSC @p a already in canonical form (sorted, no
 * duplicates) with the recorded pattern is read in place, without allocation.
 * @return NSD_OK; NSD_BAD_INPUT (NULL argument, other size, storage or
 * pattern, non-finite entry) with the factor left as it was; NSD_FAILED
 * (singular or not positive definite, as nsd_factor_create) with the factor
 * keeping its analysis but unable to solve until a refactor succeeds. With a
 * NULL @p report the sparse LU skips the QR that names the dependent column
 * of a singular matrix (a cheaper failure for callers that retry).
 */
NSD_API NsdStatus nsd_factor_refactor(NsdFactor* factor, const NsdMatrix* a, NsdReport* report);

/**
 * Partial-pivoting threshold of the sparse LU (CXSparse) for the next
 * nsd_factor_refactor: the diagonal entry of a column is kept as pivot when
 * |a_kk| >= @p threshold max_i |a_ik|. 1 (the default) is plain partial
 * pivoting; smaller values (0.1) favour the diagonal and the fill-reducing
 * ordering, usually sparser factors, at some cost in stability. No effect on
 * the other back ends.
 * @return NSD_OK, or NSD_BAD_INPUT if @p factor is NULL or @p threshold is not in (0, 1].
 */
NSD_API NsdStatus nsd_factor_set_pivot_threshold(NsdFactor* factor, double threshold);

/**
 * Threads of the sparse Cholesky (CHOLMOD) for the next nsd_factor_refactor: 0 or 1 (the
 * default) runs it on the calling thread; more lets CHOLMOD's own OpenMP loops run, with the
 * thread count CHOLMOD was built with (CHOLMOD_OMP_NUM_THREADS, 4 in Debian's). The factors
 * are the same either way. No effect on the other back ends.
 * @return NSD_OK, or NSD_BAD_INPUT if @p factor is NULL or @p threads is negative.
 */
NSD_API NsdStatus nsd_factor_set_threads(NsdFactor* factor, int threads);

/**
 * Solve A x = b in place (@p b holds x on return). NSD_FAILED if the factor
 * holds no numeric factors (analysed only, or its last refactor failed).
 */
NSD_API NsdStatus nsd_factor_solve(const NsdFactor* factor, double* b);

/** Free a factorisation (NULL allowed). */
NSD_API void nsd_factor_destroy(NsdFactor* factor);

#ifdef __cplusplus
}
#endif
#endif
