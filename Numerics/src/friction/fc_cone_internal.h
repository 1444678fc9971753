/**
 * @file fc_cone_internal.h
 * @brief Private helpers of the first-order friction solvers (APGD, BB, ADMM):
 *        batched cone projections, natural-map residuals, thread-count
 *        independent vector reductions, row-parallel matrix products and the
 *        operator N x used by the solvers. Not installed.
 *
 * Determinism: every reduction (dot products, norms, residuals) sums fixed
 * chunks whose boundaries depend only on the vector length, then adds the
 * chunk sums in order, so results are identical whatever the thread count.
 * Row-parallel products give each row to one thread, summed in a fixed order.
 */
#ifndef NSDYN_FC_CONE_INTERNAL_H
#define NSDYN_FC_CONE_INTERNAL_H

#include <float.h>
#include <math.h>
#include <stddef.h>

#include "common/solver_core.h"
#include "friction/fc_cone.h"
#include "nsdyn/nsd_fc.h"

#if defined(__GNUC__)
#define NSD_FCC_INTERNAL __attribute__((visibility("hidden")))
#else
#define NSD_FCC_INTERNAL
#endif

/* OpenMP "parallel for" with a thread count and a size threshold below which
 * the loop runs serially (the pragma vanishes when OpenMP is off). */
#define NSD_FCC_PRAGMA(x) _Pragma(#x)
#ifdef _OPENMP
#define NSD_FCC_PARALLEL_FOR(nt, n) \
  NSD_FCC_PRAGMA(omp parallel for num_threads(nt) if ((nt) > 1 && (n) >= NSD_FCC_PARALLEL_MIN) schedule(static))
#define NSD_FCC_PARALLEL_FOR_DYNAMIC(nt, n, chunk) \
  NSD_FCC_PRAGMA(omp parallel for num_threads(nt) if ((nt) > 1 && (n) >= NSD_FCC_PARALLEL_MIN) schedule(dynamic, chunk))
#else
#define NSD_FCC_PARALLEL_FOR(nt, n)
#define NSD_FCC_PARALLEL_FOR_DYNAMIC(nt, n, chunk)
#endif
/* The dynamic form hands out iterations in groups of chunk as threads free
 * up: the heavy passes use it, so that a thread delayed by the machine (a
 * shared or oversubscribed one) does not hold the others at the join. What
 * each iteration computes never depends on the thread that runs it. */

/** Loops shorter than this run on one thread (fork/join costs more). */
#define NSD_FCC_PARALLEL_MIN 2048

/** Thread count to use: @p requested if > 0, else the OpenMP default (1 without OpenMP). */
NSD_FCC_INTERNAL int nsd_fcc_threads(int requested);

/** Reductions sum at most this many chunks (see nsd_fcc_chunk_length). */
#define NSD_FCC_MAX_CHUNKS 256

/**
 * Length of the chunks a reduction over @p n items sums separately (the last
 * one may be shorter): a function of n alone, so that the chunk sums, added
 * in order, do not depend on the thread count. At most NSD_FCC_MAX_CHUNKS chunks.
 */
NSD_FCC_INTERNAL int nsd_fcc_chunk_length(int n);

/* ---- vectors (all thread-count independent) ---------------------------------- */

/** sum_i a_i b_i, by fixed chunks summed in order. */
NSD_FCC_INTERNAL double nsd_fcc_dot(const double* a, const double* b, int n, int nt);

/** sum_i (a_i - b_i)(c_i - d_i); b or d may be NULL (taken as 0). */
NSD_FCC_INTERNAL double nsd_fcc_dot_diff(const double* a, const double* b, const double* c,
                                         const double* d, int n, int nt);

/** Euclidean norm of a. */
NSD_FCC_INTERNAL double nsd_fcc_norm(const double* a, int n, int nt);

/** z = alpha x + beta y (z may alias x or y). */
NSD_FCC_INTERNAL void nsd_fcc_axpby(double alpha, const double* x, double beta, const double* y,
                                    double* z, int n, int nt);

/** dst = src. */
NSD_FCC_INTERNAL void nsd_fcc_copy(const double* src, double* dst, int n, int nt);

/* ---- cones ------------------------------------------------------------------- */

/**
 * Project y (nc blocks of dim entries, normal first) on the product of cones in
 * place: dim 2 or 3, Coulomb cones of coefficients mu[nc]; dim 1, the positive
 * orthant (mu unused, may be NULL).
 */
NSD_FCC_INTERNAL void nsd_fcc_project(int dim, int nc, const double* mu, double* y, int nt);

/**
 * z = Pi_K(x - t g) for the product of cones (batched projection step).
 */
NSD_FCC_INTERNAL void nsd_fcc_project_step(int dim, int nc, const double* mu, const double* x,
                                           double t, const double* g, double* z, int nt);

/**
 * Natural-map residual of (r, v) over the product of cones:
 *   e_a = r_a - Pi_K(r_a - v_a - desaxce * mu_a ||v_Ta|| e_n),
 * returned as sqrt(sum ||e_a||^2) / max(q_norm, ||r||, ||v||), unscaled when
 * that maximum is <= DBL_EPSILON (the normalisation of formats/README.md §3).
 * With desaxce = 1 and v = M r + q this is the Siconos FC error; with
 * desaxce = 0 and v = N r + q it is the residual of the cone complementarity
 * problem. For dim 1 (orthant) e_i = r_i - max(0, r_i - v_i).
 */
NSD_FCC_INTERNAL double nsd_fcc_natural_residual(int dim, int nc, const double* mu, const double* r,
                                                 const double* v, int desaxce, double q_norm,
                                                 int nt);

/**
 * The sums of nsd_fcc_natural_residual before normalisation: sums[0] = sum ||e_a||^2,
 * sums[1] = ||r||^2, sums[2] = ||v||^2 (by fixed chunks added in order; zeros for
 * nc <= 0). nsd_fcc_natural_value(sums, q_norm) is the residual; the APGD operator
 * path adds the sums of the parts of a distributed problem in between.
 */
NSD_FCC_INTERNAL void nsd_fcc_natural_sums(int dim, int nc, const double* mu, const double* r,
                                           const double* v, int desaxce, double sums[3], int nt);

/**
 * De Saxcé shift from the velocity u: qs = q + mu_a ||u_Ta|| e_n per contact
 * (qs = q for dim 1). u may be qs itself (each contact reads u before writing).
 */
NSD_FCC_INTERNAL void nsd_fcc_desaxce_shift(int dim, int nc, const double* mu, const double* q,
                                            const double* u, double* qs, int nt);

/* ---- row-parallel matrix products -------------------------------------------- */

/**
 * y = A x with rows split between threads (no write conflicts, each row summed
 * in a fixed order). Sparse-block and dense matrices are used in place; a CSC
 * matrix is transposed once (CXSparse cs_transpose: its columns are the rows
 * of A, in increasing column order; no triplet copy).
 */
typedef struct NsdFccRowOp {
  const NsdMatrix* a; /**< the matrix (SBM or dense used in place) */
  int rows, cols;
  struct cs_di_sparse* csr; /**< owned A^T in CSC, i.e. A in CSR (CSC input only) */
} NsdFccRowOp;

/** Set up @p op for @p a (any storage). NSD_FAILED on no memory. */
NSD_FCC_INTERNAL NsdStatus nsd_fcc_rowop_init(NsdFccRowOp* op, const NsdMatrix* a);

/** y[rows] = A x[cols]. */
NSD_FCC_INTERNAL void nsd_fcc_rowop_apply(const NsdFccRowOp* op, const double* x, double* y,
                                          int nt);

/**
 * Work on the rows [r0, r1) of a product y = A x, chunk number @p chunk,
 * called as soon as those rows are final, by the thread that computed them
 * (see nsd_fcc_rowop_apply_then): one parallel region for the product and,
 * say, a reduction over y.
 */
typedef void (*NsdFccRowsDone)(void* ctx, int chunk, int r0, int r1);

/** Smallest chunk of rows (or block rows) of the row-chunked products. */
#define NSD_FCC_ROW_CHUNK_MIN 16

/**
 * Chunk length for row-chunked products over @p units rows or block rows:
 * a function of units alone, at most NSD_FCC_MAX_CHUNKS chunks.
 */
NSD_FCC_INTERNAL int nsd_fcc_row_chunk_length(int units);

/**
 * y = S_bi. x for block row @p bi of the sparse-block @p s, y pointing at the
 * block row's first row: y_I = sum_J S_IJ x_J, blocks in stored order, 3-row
 * (contact) blocks unrolled with the same additions. The one summation order
 * of every product over a sparse-block matrix here (nsd_fcc_rowop_apply and the
 * fused Delassus product of fc_delassus.c), so that they agree to the bit.
 */
static inline void nsd_fcc_block_row_apply(const NsdSparseBlock* s, int bi, const double* x,
                                           double* y) {
  const int r0 = bi > 0 ? s->row_end[bi - 1] : 0, h = s->row_end[bi] - r0;
  if (h == 3) {
    double y0 = 0.0, y1 = 0.0, y2 = 0.0;
    for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k) {
      const int bj = s->col_index[k];
      const int c0 = bj > 0 ? s->col_end[bj - 1] : 0, w = s->col_end[bj] - c0;
      const double* blk = s->values + s->value_start[k];
      const double* xb = x + c0;
      for (int jj = 0; jj < w; ++jj, blk += 3) {
        const double xj = xb[jj];
        y0 += blk[0] * xj;
        y1 += blk[1] * xj;
        y2 += blk[2] * xj;
      }
    }
    y[0] = y0;
    y[1] = y1;
    y[2] = y2;
    return;
  }
  for (int ii = 0; ii < h; ++ii) y[ii] = 0.0;
  for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k) {
    const int bj = s->col_index[k];
    const int c0 = bj > 0 ? s->col_end[bj - 1] : 0, w = s->col_end[bj] - c0;
    const double* blk = s->values + s->value_start[k];
    for (int jj = 0; jj < w; ++jj) {
      const double xj = x[c0 + jj];
      const double* col = blk + (size_t)jj * (size_t)h;
      for (int ii = 0; ii < h; ++ii) y[ii] += col[ii] * xj;
    }
  }
}

/**
 * y = A x by chunks of block rows (sparse-block) or rows (else) of
 * nsd_fcc_row_chunk_length, calling @p done (nullable) on each chunk once
 * computed. The chunks depend on A alone, not on the thread count; returns
 * their number.
 */
NSD_FCC_INTERNAL int nsd_fcc_rowop_apply_then(const NsdFccRowOp* op, const double* x, double* y,
                                              int nt, NsdFccRowsDone done, void* ctx);

/** Free what nsd_fcc_rowop_init allocated. */
NSD_FCC_INTERNAL void nsd_fcc_rowop_free(NsdFccRowOp* op);

/**
 * Entries of @p a as triplets (row, column, value), every stored entry
 * (zeros of stored blocks included). Arrays are malloc'ed, caller frees;
 * NSD_FAILED on no memory.
 */
NSD_FCC_INTERNAL NsdStatus nsd_fcc_triplets(const NsdMatrix* a, int* nnz, int** ti, int** tj,
                                            double** tx);

/* ---- the operator N of a friction problem ------------------------------------ */

/**
 * y = N x for an ::NsdDelassus: the assembled matrix through a row-parallel
 * product; an operator of nsd_delassus_factored through its fused product
 * (nsd_fcc_factored_apply, one n_dof workspace); else the three callbacks with
 * two n_dof workspaces. Counts the applications.
 */
typedef struct NsdFccOperator {
  const NsdDelassus* delassus;
  NsdFccRowOp rowop; /**< assembled form */
  double* v;         /**< [n_dof] J^T x (callbacks only), else NULL */
  double* w;         /**< [n_dof] M^-1 J^T x (matrix-free form) */
  int fused;         /**< 1: nsd_fcc_factored_apply */
  int nt;
  long applications; /**< products done so far */
} NsdFccOperator;

/** Set up for @p d (validated by the caller). NSD_FAILED on no memory. */
NSD_FCC_INTERNAL NsdStatus nsd_fcc_operator_init(NsdFccOperator* op, const NsdDelassus* d, int nt);

/** y = N x. */
NSD_FCC_INTERNAL void nsd_fcc_operator_apply(NsdFccOperator* op, const double* x, double* y);

/**
 * y = N x, then @p done (nullable) on each chunk of rows of y, in the
 * parallel region of the product for the assembled and fused factored forms
 * (one more parallel loop for callbacks). The chunks depend on the operator
 * alone, not on the thread count; returns their number (<= NSD_FCC_MAX_CHUNKS).
 */
NSD_FCC_INTERNAL int nsd_fcc_operator_apply_then(NsdFccOperator* op, const double* x, double* y,
                                                 NsdFccRowsDone done, void* ctx);

NSD_FCC_INTERNAL void nsd_fcc_operator_free(NsdFccOperator* op);

/**
 * Whether @p d was made by nsd_delassus_factored with a form that
 * nsd_fcc_factored_apply computes in one pass (sparse-block J, M^-1 block
 * diagonal on J's column blocks). Defined in fc_delassus.c.
 */
NSD_FCC_INTERNAL int nsd_fcc_factored_fusable(const NsdDelassus* d);

/**
 * The diagonal of N = J M^-1 J^T into diag[m] for such an operator (returns 1),
 * else 0 and nothing written. Defined in fc_delassus.c.
 */
NSD_FCC_INTERNAL int nsd_fcc_factored_diagonal(const NsdDelassus* d, double* diag);

/**
 * y = J M^-1 J^T x for such an operator, in one parallel region: per range of
 * body block columns (one per thread), w_b = M^-1_bb sum_a J_ab^T x_a, then
 * per chunk of contact block rows (nsd_fcc_row_chunk_length), y_a = sum_b
 * J_ab w_b followed by @p done (nullable) on the chunk. Each entry is summed
 * in a fixed order: the result does not depend on the thread count. w[n_dof]
 * is the caller's workspace; the thread count is the operator's. Returns the
 * number of chunks.
 */
NSD_FCC_INTERNAL int nsd_fcc_factored_apply(const NsdDelassus* d, const double* x, double* w,
                                            double* y, NsdFccRowsDone done, void* ctx);

/**
 * Check that @p d can be used: size > 0 multiple of dim, the assembled matrix
 * square of that size and finite, or all callbacks set and n_dof > 0.
 * 1 if so, else 0 with NSD_BAD_INPUT in @p report.
 */
NSD_FCC_INTERNAL int nsd_fcc_delassus_check(const NsdDelassus* d, int dim, NsdReport* report);

/** Largest |a_ij| over the stored entries of @p a. */
NSD_FCC_INTERNAL double nsd_fcc_max_abs(const NsdMatrix* a);

/**
 * Checks for solvers that minimise 1/2 r^T M r + q^T r (they need M symmetric
 * positive semidefinite): M symmetric up to a relative 1e-2 of its largest
 * entry (files carry rounded Delassus matrices), and every dim x dim diagonal block positive
 * semidefinite (all its principal minors >= -1e-12 relative). 1 if so, else 0 with NSD_BAD_INPUT.
 */
NSD_FCC_INTERNAL int nsd_fcc_check_psd(const NsdMatrix* M, int dim, const char* solver,
                                       NsdReport* report);

/** The same on @p nt threads (nsd_fcc_check_psd: one). */
NSD_FCC_INTERNAL int nsd_fcc_check_psd_threads(const NsdMatrix* M, int dim, const char* solver,
                                               NsdReport* report, int nt);

/* ---- iterate monitor (residuals, best iterate) --------------------------------- */

/**
 * Residuals of the iterates of a first-order solver and the best one so far.
 * The solver minimises 1/2 x^T N x + qs^T x over the cones (qs = q plus the
 * De Saxcé shift, or q itself). Two measures of an iterate x with product N x:
 *  - own: natural-map residual of the cone complementarity problem,
 *    ||x - Pi_K(x - (N x + qs))|| / max(||qs||, ||x||, ||N x + qs||)
 *    (the projected-gradient map with unit step, normalised as Siconos);
 *  - coulomb (when q_true is set): the Siconos FC error of x, with
 *    u = N x + q_true and the De Saxcé term.
 * The best iterate is the one with the smallest coulomb measure when q_true is
 * set, else the smallest own measure.
 */
typedef struct NsdFccMonitor {
  int dim, nc, m, nt;
  const double* mu;
  const double* qs; /**< [m] linear term of the convex problem */
  double qs_norm;
  const double* q_true; /**< Nullable: [m] q of the Coulomb problem */
  double q_norm;
  double* w;           /**< [m] workspace: N x + qs */
  double* u;           /**< [m] workspace: N x + q_true */
  double* best;        /**< [m] best iterate */
  double* nbest;       /**< [m] N best */
  double best_value;   /**< its measure (+inf before the first) */
  double own, coulomb; /**< measures of the last iterate evaluated */
} NsdFccMonitor;

/**
 * Evaluate x (product nx = N x): sets own (and coulomb), keeps x as the best
 * if it improves; returns the measure the best is chosen by.
 */
NSD_FCC_INTERNAL double nsd_fcc_monitor_eval(NsdFccMonitor* mon, const double* x, const double* nx);

#endif
