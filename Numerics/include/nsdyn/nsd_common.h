/**
 * @file nsd_common.h
 * @brief Status codes, solver options and the solve report shared by every
 *        nsdyn Numerics function.
 *
 * Conventions of the whole C library:
 *  - types are `Nsd*`, functions `nsd_*`, constants `NSD_*`;
 *  - the library never prints, exits or aborts: every failure is a status
 *    plus a message in a caller-owned ::NsdReport;
 *  - arrays passed in are owned by the caller unless a function says it
 *    takes ownership.
 */
#ifndef NSDYN_NSD_COMMON_H
#define NSDYN_NSD_COMMON_H

#include <stddef.h>
#include "nsd_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Outcome of a solve or of any library call that can fail. */
typedef enum NsdStatus {
  NSD_OK = 0,         /**< success; for a solver: converged to tolerance */
  NSD_MAX_ITERATIONS, /**< stopped at max_iterations or at the time limit */
  NSD_FAILED,         /**< ray termination, singular pivot, out of memory, ... */
  NSD_BAD_INPUT       /**< input rejected before any work was done */
} NsdStatus;

/** Short lower-case name of a status: "converged", "max_iterations",
 *  "failed", "bad_input". Never NULL. */
NSD_API const char* nsd_status_name(NsdStatus status);

/** Merit function used by the semismooth Newton LCP/MLCP solvers. */
typedef enum NsdNewtonMerit {
  NSD_MERIT_FISCHER_BURMEISTER = 0, /**< phi(a,b) = a + b - sqrt(a^2 + b^2) */
  NSD_MERIT_MIN = 1,                /**< phi(a,b) = min(a, b) */
  NSD_MERIT_ALART_CURNIER = 2       /**< friction contact: Alart-Curnier augmented Lagrangian */
} NsdNewtonMerit;

/** Local (one-contact) solver of the friction-contact NSGS. */
typedef enum NsdFcLocalSolver {
  NSD_FC_LOCAL_PROJECTION =
      0, /**< r <- Pi_K(r - rho (W r + q_local)) fixed point, rho from the block */
  NSD_FC_LOCAL_AC_NEWTON = 1, /**< Alart-Curnier local Newton with line search (exact) */
  NSD_FC_LOCAL_FB_NEWTON = 2  /**< Fischer-Burmeister local Newton with line search */
} NsdFcLocalSolver;

/**
 * Options of every solver. Fill with nsd_solver_options_default() and change
 * the fields you need; solver-specific fields are nested under the solver's
 * name. Options are inputs only: results go to ::NsdReport.
 */
typedef struct NsdSolverOptions {
  int max_iterations; /**< iteration cap (sweeps, pivots, Newton steps); default 1000.
                           Pivoting solvers (Lemke) use max(max_iterations, 10 n + 100) pivots. */
  double tolerance;   /**< on the Siconos error measure of the problem; default 1e-8 */
  double relaxation;  /**< omega in (0,2) for NLGS/PSOR/PGS; default 1.0 */
  int warm_start;     /**< 1: start from the z (or r) given; 0: start from 0; default 0 */
  int threads;        /**< OpenMP threads for solvers that use them; 0: runtime default */
  double time_limit;  /**< seconds of wall time, 0 = none; on expiry status is
                           NSD_MAX_ITERATIONS; default 0 */

  /** Lexicographic Lemke. */
  struct {
    double pivot_tolerance; /**< smallest pivot accepted, relative to the largest magnitude
                               in the entering column; default 1e-10 */
  } lemke;

  /** Projected Gauss-Seidel / NLGS / PSOR / block PGS. */
  struct {
    int block_size;  /**< block size of block PGS (each block solved exactly
                          by enumeration of its own LCP); default 3 */
    int check_every; /**< compute the full error every k sweeps; default 1 */
  } pgs;

  /** Enumerative solver. */
  struct {
    int max_size; /**< refuse problems larger than this (2^n cases); default 25 */
  } enumerative;

  /** Semismooth Newton (LCP/MLCP). */
  struct {
    NsdNewtonMerit merit; /**< default NSD_MERIT_FISCHER_BURMEISTER */
    int max_line_search;  /**< Armijo backtracking steps; default 40 */
    double armijo_sigma;  /**< sufficient-decrease constant; default 1e-4 */
    double step_shrink;   /**< backtracking factor in (0,1); default 0.5 */
  } newton;

  /** Nonsmooth Gauss-Seidel over contacts (friction contact). */
  struct {
    NsdFcLocalSolver local_solver; /**< default NSD_FC_LOCAL_AC_NEWTON */
    double local_tolerance;        /**< one-contact residual; default 1e-14 */
    int local_max_iterations;      /**< one-contact Newton steps; default 20 */
    int shuffle;                   /**< 1: contacts in a new random order each sweep; default 0 */
    unsigned seed;                 /**< seed of the shuffle; default 1 */
    int anderson; /**< Anderson acceleration of the sweeps: differences kept (0: off, the plain
                       sweeps; 1..64); default 0. doc/design.md "Anderson acceleration of the
                     sweeps" */
    int drift;    /**< 1: a drift of the sweeps along a null direction of W (flat error, equal
                       changes of r) is ended by a jump to the first cone boundary ahead; default
                       1. doc/design.md "The sweeps' drift" */
  } nsgs;

  /** Accelerated projected gradient (friction contact). */
  struct {
    int max_backtracks;   /**< Lipschitz backtracking per iteration; default 20 */
    int adaptive_restart; /**< 1: restart momentum when the gradient says so; default 1 */
    /** Per-contact metric of the projected step: 0 none (Euclidean), 1 block (one weight
     *  per contact), 2 cone (normal and tangential weights); default 2. See doc/apgd.md. */
    int preconditioner;
    /** 1: a drift of the iterates along a null direction of W (flat error, the same direction
     *  of change, W d ~ 0) is ended by a jump to the first cone boundary downhill; default 1.
     *  doc/design.md "The sweeps' drift" */
    int drift;
  } apgd;

  /** Projected gradient with Barzilai-Borwein steps (friction contact). */
  struct {
    int memory;   /**< non-monotone line-search window; default 10 */
    double sigma; /**< sufficient-decrease constant; default 1e-4 */
  } bb;

  /** ADMM with adaptive penalty (friction contact). */
  struct {
    double rho;   /**< initial penalty; 0: from the Delassus diagonal; default 0 */
    int adaptive; /**< 1: residual balancing of rho; default 1 */
  } admm;
} NsdSolverOptions;

/** Fill @p options with the documented defaults. */
NSD_API void nsd_solver_options_default(NsdSolverOptions* options);

/**
 * What a solve did. Caller-owned; the solver writes every field except the
 * history buffer, which the caller may provide (history = NULL: not recorded).
 */
typedef struct NsdReport {
  NsdStatus status;     /**< see ::NsdStatus */
  int iterations;       /**< sweeps / pivots / Newton steps done */
  double residual;      /**< the problem's Siconos error measure of the returned solution */
  double seconds;       /**< wall time of the solve */
  char solver[32];      /**< name of the solver that ran */
  char message[256];    /**< why, when status != NSD_OK (empty otherwise) */
  double* history;      /**< Nullable, caller-owned: residual per iteration */
  int history_capacity; /**< length of @c history */
  int history_length;   /**< entries written to @c history */
  double start_time;    /**< internal: clock at nsd_report_start */
  int drift_jumps;      /**< drift jumps taken (options nsgs.drift, apgd.drift) */
} NsdReport;

/** Reset @p report (keeping the caller's history buffer) and start its clock. */
NSD_API void nsd_report_start(NsdReport* report, const char* solver);

/** Set status and a printf-style message; returns @p status. @p report may be NULL. */
NSD_API NsdStatus nsd_report_fail(NsdReport* report, NsdStatus status, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/** Record @p residual at the current iteration in the history, if any. */
NSD_API void nsd_report_record(NsdReport* report, double residual);

/** Stop the clock; status = NSD_OK if residual <= tolerance, else keeps a
 *  failure status already set, else NSD_MAX_ITERATIONS. Returns the status. */
NSD_API NsdStatus nsd_report_finish(NsdReport* report, double tolerance);

/** Wall-clock seconds from an arbitrary origin (monotonic). */
NSD_API double nsd_wall_time(void);

/** 1 if all @p n values are finite, 0 otherwise (NULL with n > 0 is not finite). */
NSD_API int nsd_all_finite(const double* values, size_t n);

#ifdef __cplusplus
}
#endif
#endif
