/**
 * @file nsd_solvers.h
 * @brief Choosing a solver by name: one explicit table of every solver the
 *        library has, per problem kind.
 */
#ifndef NSDYN_NSD_SOLVERS_H
#define NSDYN_NSD_SOLVERS_H

#include "nsd_lcp.h"
#include "nsd_mlcp.h"
#include "nsd_fc.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One row of the solver table. */
typedef struct NsdSolverEntry {
  const char* name;         /**< e.g. "lemke" */
  NsdProblemKind kind;      /**< the kind it solves */
  const char* description;  /**< one line */
  NsdLcpSolver lcp;         /**< set for NSD_KIND_LCP */
  NsdMlcpSolver mlcp;       /**< set for NSD_KIND_MLCP */
  int is_default;           /**< 1 for the default solver of its kind */
  NsdFcSolver fc;           /**< set for NSD_KIND_FC2D and NSD_KIND_FC3D */
} NsdSolverEntry;

/** The table and its length. */
const NsdSolverEntry* nsd_solver_table(int* count);

/** The entry named @p name for @p kind, or NULL. */
const NsdSolverEntry* nsd_solver_find(NsdProblemKind kind, const char* name);

/** Name of the default solver of @p kind, NULL if the kind has none. */
const char* nsd_solver_default(NsdProblemKind kind);

/**
 * Solve any problem with the solver named @p name (NULL: the default of its kind).
 * @p x receives the primal unknowns (z, or r) and @p y the dual ones (w, or u);
 * both of nsd_problem_size() entries, caller-owned. An unknown name or a kind
 * without solvers gives NSD_BAD_INPUT with a message listing what exists.
 */
NsdStatus nsd_solve(const NsdProblem* problem, const char* name, double* x, double* y,
                    const NsdSolverOptions* options, NsdReport* report);

/** The problem's own error measure of @p x (see the nsd_*_error functions); -1 if unsupported. */
double nsd_problem_error(const NsdProblem* problem, const double* x);

#ifdef __cplusplus
}
#endif
#endif
