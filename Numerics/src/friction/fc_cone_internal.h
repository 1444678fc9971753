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

#include <stddef.h>

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
#else
#define NSD_FCC_PARALLEL_FOR(nt, n)
#endif

/** Loops shorter than this run on one thread (fork/join costs more). */
#define NSD_FCC_PARALLEL_MIN 2048

/** Thread count to use: @p requested if > 0, else the OpenMP default (1 without OpenMP). */
NSD_FCC_INTERNAL int nsd_fcc_threads(int requested);

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
NSD_FCC_INTERNAL double nsd_fcc_natural_residual(int dim, int nc, const double* mu,
                                                 const double* r, const double* v,
                                                 int desaxce, double q_norm, int nt);

/**
 * De Saxcé shift from the velocity u: qs = q + mu_a ||u_Ta|| e_n per contact
 * (qs = q for dim 1).
 */
NSD_FCC_INTERNAL void nsd_fcc_desaxce_shift(int dim, int nc, const double* mu, const double* q,
                                            const double* u, double* qs, int nt);

/* ---- row-parallel matrix products -------------------------------------------- */

/**
 * y = A x with rows split between threads (no write conflicts, each row summed
 * in a fixed order). Sparse-block and dense matrices are used in place; a CSC
 * matrix is copied once into compressed rows.
 */
typedef struct NsdFccRowOp {
  const NsdMatrix* a; /**< the matrix (SBM or dense used in place) */
  int rows, cols;
  int* row_ptr;       /**< owned CSR copy (CSC input only), else NULL */
  int* col_idx;
  double* val;
} NsdFccRowOp;

/** Set up @p op for @p a (any storage). NSD_FAILED on no memory. */
NSD_FCC_INTERNAL NsdStatus nsd_fcc_rowop_init(NsdFccRowOp* op, const NsdMatrix* a);

/** y[rows] = A x[cols]. */
NSD_FCC_INTERNAL void nsd_fcc_rowop_apply(const NsdFccRowOp* op, const double* x, double* y,
                                          int nt);

/** Free what nsd_fcc_rowop_init allocated. */
NSD_FCC_INTERNAL void nsd_fcc_rowop_free(NsdFccRowOp* op);

/**
 * Entries of @p a as triplets (row, column, value), every stored entry
 * (zeros of stored blocks included). Arrays are malloc'ed, caller frees;
 * NSD_FAILED on no memory.
 */
NSD_FCC_INTERNAL NsdStatus nsd_fcc_triplets(const NsdMatrix* a, int* nnz, int** ti, int** tj,
                                            double** tx);

/**
 * Compressed rows (transpose = 0) or compressed columns (transpose = 1) of
 * @p a as three malloc'ed arrays: ptr[rows+1] (or [cols+1]), idx, val.
 * Within a row (column) the entries are in increasing column (row) order.
 */
NSD_FCC_INTERNAL NsdStatus nsd_fcc_compress(const NsdMatrix* a, int transpose, int** ptr,
                                            int** idx, double** val);

/* ---- the operator N of a friction problem ------------------------------------ */

/**
 * y = N x for an ::NsdDelassus: the assembled matrix through a row-parallel
 * product, or the three callbacks with two n_dof workspaces. Counts the
 * applications.
 */
typedef struct NsdFccOperator {
  const NsdDelassus* delassus;
  NsdFccRowOp rowop; /**< assembled form */
  double* v;         /**< [n_dof] J^T x (matrix-free form) */
  double* w;         /**< [n_dof] M^-1 J^T x */
  int nt;
  long applications; /**< products done so far */
} NsdFccOperator;

/** Set up for @p d (validated by the caller). NSD_FAILED on no memory. */
NSD_FCC_INTERNAL NsdStatus nsd_fcc_operator_init(NsdFccOperator* op, const NsdDelassus* d, int nt);

/** y = N x. */
NSD_FCC_INTERNAL void nsd_fcc_operator_apply(NsdFccOperator* op, const double* x, double* y);

NSD_FCC_INTERNAL void nsd_fcc_operator_free(NsdFccOperator* op);

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
 * entry (files carry rounded Delassus matrices), and every dim x dim diagonal block positive semidefinite (all its
 * principal minors >= -1e-12 relative). 1 if so, else 0 with NSD_BAD_INPUT.
 */
NSD_FCC_INTERNAL int nsd_fcc_check_psd(const NsdMatrix* M, int dim, const char* solver,
                                       NsdReport* report);

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
  const double* qs;     /**< [m] linear term of the convex problem */
  double qs_norm;
  const double* q_true; /**< Nullable: [m] q of the Coulomb problem */
  double q_norm;
  double* w;            /**< [m] workspace: N x + qs */
  double* u;            /**< [m] workspace: N x + q_true */
  double* best;         /**< [m] best iterate */
  double* nbest;        /**< [m] N best */
  double best_value;    /**< its measure (+inf before the first) */
  double own, coulomb;  /**< measures of the last iterate evaluated */
} NsdFccMonitor;

/**
 * Evaluate x (product nx = N x): sets own (and coulomb), keeps x as the best
 * if it improves; returns the measure the best is chosen by.
 */
NSD_FCC_INTERNAL double nsd_fcc_monitor_eval(NsdFccMonitor* mon, const double* x,
                                             const double* nx);

/** Time limit reached? (limit <= 0: never). */
NSD_FCC_INTERNAL int nsd_fcc_time_up(const NsdReport* report, double limit);

#endif
