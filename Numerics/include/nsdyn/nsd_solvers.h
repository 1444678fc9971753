/**
 * @file nsd_solvers.h
 * @brief Choosing a solver by name: one explicit table of every solver the
 *        library has, per problem kind.
 */
#ifndef NSDYN_NSD_SOLVERS_H
#define NSDYN_NSD_SOLVERS_H

#include "nsd_fc.h"
#include "nsd_gfc.h"
#include "nsd_gmp.h"
#include "nsd_lcp.h"
#include "nsd_mlcp.h"
#include "nsd_rfc.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One row of the solver table. */
typedef struct NsdSolverEntry {
  const char* name;        /**< e.g. "lemke" */
  NsdProblemKind kind;     /**< the kind it solves */
  const char* description; /**< one line */
  NsdLcpSolver lcp;        /**< set for NSD_KIND_LCP */
  NsdMlcpSolver mlcp;      /**< set for NSD_KIND_MLCP */
  int is_default;          /**< 1 for the default solver of its kind */
  NsdFcSolver fc;          /**< set for NSD_KIND_FC2D and NSD_KIND_FC3D */
  /** Option tags it reads (space-separated, see NsdOptionEntry::tag); "*": every option
   *  (solvers that hand the options on, like auto). */
  const char* options;
  int direct;     /**< 1: pivoting or enumeration, exact in finitely many steps */
  int warm_start; /**< 1: starts from the x given when options->warm_start is set */
  /** NULL for a solver's own name; else the name of the solver this row is another name for
   *  (kept so that existing inputs keep working; it runs the same code, and reports and error
   *  messages carry the name the caller used). */
  const char* alias_of;
  NsdGmpSolver gmp; /**< set for NSD_KIND_GMP */
  NsdRfcSolver rfc; /**< set for NSD_KIND_RFC3D and NSD_KIND_RFC2D */
  NsdGfcSolver gfc; /**< set for NSD_KIND_GFC2D and NSD_KIND_GFC3D (v not returned: NULL) */
} NsdSolverEntry;

/** The table and its length. */
NSD_API const NsdSolverEntry* nsd_solver_table(int* count);

/** The entry named @p name for @p kind, or NULL. */
NSD_API const NsdSolverEntry* nsd_solver_find(NsdProblemKind kind, const char* name);

/** Name of the default solver of @p kind, NULL if the kind has none. */
NSD_API const char* nsd_solver_default(NsdProblemKind kind);

/**
 * Solve any problem with the solver named @p name (NULL: the default of its kind).
 * @p x receives the primal unknowns (z, or r) and @p y the dual ones (w, or u);
 * both of nsd_problem_size() entries, caller-owned. An unknown name or a kind
 * without solvers gives NSD_BAD_INPUT with a message listing what exists.
 */
NSD_API NsdStatus nsd_solve(const NsdProblem* problem, const char* name, double* x, double* y,
                            const NsdSolverOptions* options, NsdReport* report);

/* ---- auto: choice by size and structure, with fallback -------------------- */

/** Most candidates an auto plan holds. */
#define NSD_AUTO_MAX_CANDIDATES 4

/** Anderson memory "auto" gives the Gauss-Seidel sweeps it runs (FC3D nsgs, the scene
 *  engine's body-velocity NSGS) when options->nsgs.anderson is 0: on piles and stacks the
 *  accelerated sweeps reach a tolerance in far fewer sweeps (doc/design.md "Anderson
 *  acceleration of the sweeps"); an explicit nsgs.anderson > 0 is kept. */
#define NSD_AUTO_ANDERSON 5

/** Parameters of nsd_solve_auto (zero-initialised = the defaults). */
typedef struct NsdAutoParams {
  /** Solvers to try, in order, by table name, NULL-terminated; candidates[0] NULL:
   *  the plan of nsd_auto_plan. */
  const char* candidates[NSD_AUTO_MAX_CANDIDATES];
  /** > 0: iteration cap of the first candidate only (a budget for the first try,
   *  or a deterministic way to make it fail); 0: options->max_iterations. */
  int first_max_iterations;
} NsdAutoParams;

/**
 * The solvers "auto" tries for @p problem with @p options (NULL: defaults), best
 * first, into names[capacity]; returns their count (0 if the kind has no auto).
 * FC3D (nc contacts, nnz stored entries of M, tolerance tol):
 *   nc >= 3000 and (tol >= 1e-6 or nnz > 0.3 (3 nc)^2): nsgs, newton_ac, prox;
 *   otherwise: newton_ac, prox, nsgs (prox is the robust fallback).
 *   The nsgs candidate runs with Anderson acceleration (NSD_AUTO_ANDERSON differences
 *   unless options->nsgs.anderson > 0).
 * LCP/MLCP of size n: n <= 1000: lemke, newton_fb, then enum when n <=
 * options->enumerative.max_size, else newton_min; larger: newton_fb,
 * newton_min, lemke.
 */
NSD_API int nsd_auto_plan(const NsdProblem* problem, const NsdSolverOptions* options,
                          const char** names, int capacity);

/**
 * Solve with the candidates of @p params (NULL or no candidates: nsd_auto_plan)
 * one after the other, each from the caller's start point (x when
 * options->warm_start, else 0), until one converges or options->time_limit
 * (seconds from the start of this call, shared by all candidates) runs out;
 * returns the converged answer or else the one with the smallest residual.
 * report->solver is "auto:NAME" for the solver whose answer is returned,
 * report->iterations the sum over the candidates tried, report->history (if
 * any) their histories one after the other, and report->message lists what was
 * tried and how each ended, also on success.
 */
NSD_API NsdStatus nsd_solve_auto(const NsdProblem* problem, double* x, double* y,
                                 const NsdSolverOptions* options, const NsdAutoParams* params,
                                 NsdReport* report);

/** The "auto" entries of the table: nsd_solve_auto with the default plan. */
NSD_API NsdStatus nsd_fc3d_auto(const NsdFc* problem, double* r, double* u,
                                const NsdSolverOptions* options, NsdReport* report);
NSD_API NsdStatus nsd_lcp_auto(const NsdLcp* problem, double* z, double* w,
                               const NsdSolverOptions* options, NsdReport* report);
NSD_API NsdStatus nsd_mlcp_auto(const NsdMlcp* problem, double* z, double* w,
                                const NsdSolverOptions* options, NsdReport* report);

/** The problem's own error measure of @p x (see the nsd_*_error functions); -1 if unsupported. */
NSD_API double nsd_problem_error(const NsdProblem* problem, const double* x);

#ifdef __cplusplus
}
#endif
#endif
