/**
 * @file fc_gs_internal.h
 * @brief Private helpers of the friction-contact Gauss-Seidel family
 *        (fc3d NSGS, fc3d PSOR, fc2d NSGS): the contact-aligned block
 *        operator with its column (transposed) index for incremental velocity
 *        updates, the error measure from a known (r, u), the seeded contact
 *        order and the common start of the solvers. Not installed.
 *
 * The Gauss-Seidel solvers keep u = M r + q up to date: after contact b
 * changes by dr_b, u += M_{:,b} dr_b (one block column). The velocity of the
 * next contact is then read, not recomputed, and the full error of the
 * iterate costs O(dim nc) per sweep. u is recomputed from scratch regularly
 * and always before convergence is declared.
 */
#ifndef NSDYN_FC_GS_INTERNAL_H
#define NSDYN_FC_GS_INTERNAL_H

#include <stdint.h>

#include "common/solver_core.h"
#include "friction/fc_cone.h"
#include "nsdyn/nsd_fc.h"

#if defined(__GNUC__)
#define NSD_FCGS_INTERNAL __attribute__((visibility("hidden")))
#else
#define NSD_FCGS_INTERNAL
#endif

/** Sweeps between two exact recomputations of u = M r + q. */
#define NSD_FCGS_REFRESH_SWEEPS 64

/**
 * M seen as nc x nc blocks of dim x dim (block row a = contact a), with a way
 * to read each block column and the diagonal blocks.
 *
 * A block column b is read either as the transposed block row b (when M is
 * symmetric to rounding, M_ab = M_ba^T: no index is needed and the blocks are
 * read in storage order) or through a block-column index (int32 rows and
 * block numbers).
 */
typedef struct NsdFcgsOperator {
  int dim;                 /**< 2 or 3 */
  int nc;                  /**< contacts */
  const NsdMatrix* matrix; /**< contact-aligned sparse-block M (the problem's or owned) */
  NsdMatrix* owned;        /**< Nullable: the converted copy when M was not contact-aligned */
  int symmetric;           /**< 1: block column b is read as the transposed block row b */
  int* col_ptr;            /**< Nullable (symmetric): [nc+1] blocks of block column b */
  int* col_row;            /**< Nullable (symmetric): [stored blocks] block row of each */
  int* col_block;          /**< Nullable (symmetric): [stored blocks] sbm block number of each */
  const double** diag;     /**< [nc] diagonal block M_aa of each contact, column-major */
  double* diag_owned;      /**< Nullable: zero or summed diagonal blocks diag points into */
} NsdFcgsOperator;

/** Values (dim x dim, column-major) of stored block k of the operator's matrix. */
static inline const double* nsd_fcgs_block(const NsdFcgsOperator* op, int k) {
  const NsdSparseBlock* s = op->matrix->sbm;
  return s->values + s->value_start[k];
}

/**
 * Build the operator of @p problem (dim and nc taken from it): uses M when it is
 * a sparse-block matrix with dim x dim blocks per contact, else a converted copy.
 * Returns NSD_OK or NSD_FAILED (no memory) with a message in @p report.
 */
NSD_FCGS_INTERNAL NsdStatus nsd_fcgs_operator_init(NsdFcgsOperator* op, const NsdFc* problem,
                                                   NsdReport* report);

/** Free what nsd_fcgs_operator_init allocated (safe on a zeroed struct). */
NSD_FCGS_INTERNAL void nsd_fcgs_operator_free(NsdFcgsOperator* op);

/**
 * Reject contacts whose diagonal block has a normal entry <= 0 (or not finite):
 * 1 if all are positive, else 0 with NSD_BAD_INPUT naming the first such contact.
 */
NSD_FCGS_INTERNAL int nsd_fcgs_check_diagonal(const NsdFcgsOperator* op, const char* solver,
                                              NsdReport* report);

/** u = M r + q. */
NSD_FCGS_INTERNAL void nsd_fcgs_velocity(const NsdFcgsOperator* op, const double* q,
                                         const double* r, double* u);

/** u += M_{:,b} dr (block column b; dr has dim entries). */
NSD_FCGS_INTERNAL void nsd_fcgs_column_update(const NsdFcgsOperator* op, int b, const double* dr,
                                              double* u);

/** nsd_fcgs_column_update for dim 3, inlined in the sweeps. */
static inline void nsd_fcgs_column_update3(const NsdFcgsOperator* op, int b, const double* dr,
                                           double* u) {
  const NsdSparseBlock* s = op->matrix->sbm;
  const double d0 = dr[0], d1 = dr[1], d2 = dr[2];
  if (op->symmetric) {
    // M_ab = M_ba^T: walk block row b in storage order, u_a += M_ba^T dr
    for (int k = s->row_ptr[b]; k < s->row_ptr[b + 1]; ++k) {
      const double* B = s->values + s->value_start[k];
      double* ua = u + (size_t)3 * s->col_index[k];
      ua[0] += B[0] * d0 + B[1] * d1 + B[2] * d2;
      ua[1] += B[3] * d0 + B[4] * d1 + B[5] * d2;
      ua[2] += B[6] * d0 + B[7] * d1 + B[8] * d2;
    }
    return;
  }
  for (int k = op->col_ptr[b]; k < op->col_ptr[b + 1]; ++k) {
    const double* B = s->values + s->value_start[op->col_block[k]];
    double* ua = u + (size_t)3 * op->col_row[k];
    ua[0] += B[0] * d0 + B[3] * d1 + B[6] * d2;
    ua[1] += B[1] * d0 + B[4] * d1 + B[7] * d2;
    ua[2] += B[2] * d0 + B[5] * d1 + B[8] * d2;
  }
}

/** Euclidean norm of x[n]. */
NSD_FCGS_INTERNAL double nsd_fcgs_norm(const double* x, int n);

/** Small seeded generator (splitmix64, Steele, Lea, Flood 2014) for contact orders. */
typedef struct NsdFcgsRng {
  uint64_t state;
} NsdFcgsRng;

/** Seed the generator. */
NSD_FCGS_INTERNAL void nsd_fcgs_rng_seed(NsdFcgsRng* rng, unsigned seed);

/** Uniform random permutation of order[n] in place (Fisher-Yates). */
NSD_FCGS_INTERNAL void nsd_fcgs_shuffle(NsdFcgsRng* rng, int* order, int n);

/**
 * Common start of the Gauss-Seidel solvers: *report NULL becomes @p own (zeroed),
 * then start *report under @p name, copy @p options (defaults when NULL) into
 * @p opt, check the problem and its dimension (@p dim), the output pointers,
 * the generic options, then set r = 0 unless warm starting (a warm start must
 * be finite). Returns NSD_OK or the failure already recorded in *report.
 */
NSD_FCGS_INTERNAL NsdStatus nsd_fcgs_begin(const char* name, int dim, const NsdFc* problem,
                                           double* r, double* u, const NsdSolverOptions* options,
                                           NsdSolverOptions* opt, NsdReport** report,
                                           NsdReport* own);

/**
 * The block operator of a sweeping solver: nsd_fcgs_operator_init, then
 * nsd_fcgs_check_diagonal (@p solver names the solver in its message).
 * NSD_OK with @p op for the caller to free, else the failure recorded in
 * @p report and nothing to free.
 */
NSD_FCGS_INTERNAL NsdStatus nsd_fcgs_operator_checked(NsdFcgsOperator* op, const NsdFc* problem,
                                                      const char* solver, NsdReport* report);

/**
 * Common end of the sweeping solvers, report->residual set: @p status (the
 * sweeps') when it is a failure and the residual misses @p tolerance, else
 * nsd_report_finish.
 */
NSD_FCGS_INTERNAL NsdStatus nsd_fcgs_end(NsdStatus status, NsdReport* report, double tolerance);

/**
 * Per-contact rule of a Gauss-Seidel sweep: from contact a's reaction r_a, its
 * current velocity u_a = (M r + q)_a and diagonal block W_aa (column-major),
 * write the new reaction (before relaxation) to r_new.
 */
typedef void (*NsdFcgsRule)(const void* context, int a, const double* W_aa, double mu,
                            const double* r_a, const double* u_a, double* r_new);

/**
 * One whole sweep of a Gauss-Seidel solver: visit the contacts in @p order
 * (NULL: 0 .. nc-1), update each r_a (relaxed with @p omega, kept in the cone)
 * and keep u = M r + q current by block columns.
 */
typedef void (*NsdFcgsSweep)(const void* context, const NsdFcgsOperator* op, const NsdFc* p,
                             const int* order, double omega, double* r, double* u);

/**
 * nsd_fcgs_iterate with a whole-sweep callback instead of a per-contact rule
 * (for solvers that inline their contact update).
 */
NSD_FCGS_INTERNAL NsdStatus nsd_fcgs_iterate_sweeps(const NsdFcgsOperator* op, const NsdFc* problem,
                                                    double* r, double* u,
                                                    const NsdSolverOptions* opt, NsdReport* report,
                                                    NsdFcgsSweep sweep, const void* context);

/**
 * Sweeps of a Gauss-Seidel solver (Jean & Moreau's nonsmooth Gauss-Seidel
 * pattern): contacts in order, or in a new seeded random order each sweep
 * (opt->nsgs.shuffle, seed), each updated by @p rule, relaxed
 * r_a <- omega r_new + (1 - omega) r_a (projected back on the cone when
 * omega > 1), with u updated by the block column. After every sweep the
 * Siconos error of (r, u) is recorded; convergence is confirmed with u
 * recomputed exactly. Stops at opt->tolerance, opt->max_iterations sweeps or
 * opt->time_limit. On return u = M r + q (recomputed, or exact already) and
 * report->residual holds the Siconos error of (r, u). Returns NSD_OK, or the
 * failure recorded in @p report (divergence, time limit, no memory);
 * report->iterations holds the sweeps done.
 */
NSD_FCGS_INTERNAL NsdStatus nsd_fcgs_iterate(const NsdFcgsOperator* op, const NsdFc* problem,
                                             double* r, double* u, const NsdSolverOptions* opt,
                                             NsdReport* report, NsdFcgsRule rule,
                                             const void* context);

/**
 * Largest eigenvalue of the symmetric part of the dim x dim block W
 * (column-major), in closed form (dim 2: quadratic; dim 3: trigonometric
 * solution of the characteristic cubic, O. K. Smith 1961).
 */
NSD_FCGS_INTERNAL double nsd_fcgs_block_lambda_max(int dim, const double* W);

#endif
