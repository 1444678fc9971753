/* Private helpers shared by the MLCP solvers (not installed, not exported). */
#ifndef NSDYN_MLCP_INTERNAL_H
#define NSDYN_MLCP_INTERNAL_H

#include "common/solver_core.h"
#include "matrix/dense_lu.h"
#include "nsdyn/nsd_mlcp.h"

#if defined(__GNUC__)
#define MLCP_PRIVATE __attribute__((visibility("hidden")))
#else
#define MLCP_PRIVATE
#endif

/* Kind of a row, from its bounds (finer than NsdMlcp.is_comp). */
typedef enum MlcpRowKind {
  MLCP_ROW_FREE = 0, /* (-inf, +inf): w_i = 0 */
  MLCP_ROW_LOWER,    /* [lb, +inf) */
  MLCP_ROW_UPPER,    /* (-inf, ub] */
  MLCP_ROW_BOX,      /* [lb, ub], both finite, lb < ub */
  MLCP_ROW_FIXED     /* lb == ub: z_i fixed, w_i unconstrained */
} MlcpRowKind;

/* Kind of row i of @p p. */
MLCP_PRIVATE MlcpRowKind mlcp_row_kind(const NsdMlcp* p, int i);

/* mid(lb, x, ub) = min(max(x, lb), ub), for lb <= ub (infinities allowed). */
MLCP_PRIVATE double mlcp_mid(double lb, double x, double ub);

/*
 * Common entry checks of every MLCP solver: the problem (nsd_mlcp_check), the
 * z and w pointers, tolerance and iteration cap, a finite warm start. Sets the
 * starting point: the warm start (when options->warm_start) or 0, projected on
 * the box. Returns 1 to go on, 0 with NSD_BAD_INPUT in @p report.
 */
MLCP_PRIVATE int mlcp_begin(const NsdMlcp* p, double* z, double* w, const NsdSolverOptions* o,
                            NsdReport* report);

/* w = M z + q, residual = nsd_mlcp_error(z), then nsd_report_finish. */
MLCP_PRIVATE NsdStatus mlcp_finish(const NsdMlcp* p, const double* z, double* w,
                                   const NsdSolverOptions* o, NsdReport* report);

/* New column-major dense copy of the square matrix M (size*size); NULL on no memory. */
MLCP_PRIVATE double* mlcp_dense_copy(const NsdMatrix* M);

/* Euclidean norm of v[n]. */
MLCP_PRIVATE double mlcp_norm(const double* v, int n);

#endif
