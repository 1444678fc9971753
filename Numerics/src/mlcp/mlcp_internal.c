/* Private helpers shared by the MLCP solvers: row kinds, entry checks, dense LU. */
#include "mlcp_internal.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(lapack_int) == sizeof(int), "nsdyn expects LP64 LAPACKE (32-bit lapack_int)");

MlcpRowKind mlcp_row_kind(const NsdMlcp* p, int i) {
  double lb = p->lb[i], ub = p->ub[i];
  int has_lb = isfinite(lb), has_ub = isfinite(ub);
  if (!has_lb && !has_ub) return MLCP_ROW_FREE;
  if (has_lb && !has_ub) return MLCP_ROW_LOWER;
  if (!has_lb) return MLCP_ROW_UPPER;
  return lb == ub ? MLCP_ROW_FIXED : MLCP_ROW_BOX;
}

double mlcp_mid(double lb, double x, double ub) {
  if (x < lb) return lb;
  if (x > ub) return ub;
  return x;
}

void mlcp_options(const NsdSolverOptions* options, NsdSolverOptions* out) {
  if (options)
    *out = *options;
  else
    nsd_solver_options_default(out);
}

int mlcp_begin(const NsdMlcp* p, double* z, double* w, const NsdSolverOptions* o,
               NsdReport* report) {
  if (!nsd_mlcp_check(p, report)) {
    /* a check that forgot the status still rejects */
    if (report->status == NSD_OK) nsd_report_fail(report, NSD_BAD_INPUT, "invalid MLCP");
    return 0;
  }
  if (!z || !w) {
    nsd_report_fail(report, NSD_BAD_INPUT, "%s is NULL", !z ? "z" : "w");
    return 0;
  }
  if (!(o->tolerance >= 0) || !isfinite(o->tolerance)) {
    nsd_report_fail(report, NSD_BAD_INPUT, "tolerance=%g, expected a finite value >= 0",
                    o->tolerance);
    return 0;
  }
  if (o->max_iterations < 0) {
    nsd_report_fail(report, NSD_BAD_INPUT, "max_iterations=%d, expected >= 0", o->max_iterations);
    return 0;
  }
  if (!(o->time_limit >= 0)) {
    nsd_report_fail(report, NSD_BAD_INPUT, "time_limit=%g, expected >= 0 (0: none)", o->time_limit);
    return 0;
  }

  /* starting point: the warm start or 0, projected on the box */
  for (int i = 0; i < p->size; ++i) {
    double start = 0.0;
    if (o->warm_start) {
      if (!isfinite(z[i])) {
        nsd_report_fail(report, NSD_BAD_INPUT, "warm start z[%d]=%g is not finite", i, z[i]);
        return 0;
      }
      start = z[i];
    }
    z[i] = mlcp_mid(p->lb[i], start, p->ub[i]);
  }
  return 1;
}

NsdStatus mlcp_finish(const NsdMlcp* p, const double* z, double* w, const NsdSolverOptions* o,
                      NsdReport* report) {
  report->residual = nsd_mlcp_error(p, z, w);
  return nsd_report_finish(report, o->tolerance);
}

int mlcp_time_up(const NsdSolverOptions* o, const NsdReport* report) {
  return o->time_limit > 0 && nsd_wall_time() - report->start_time > o->time_limit;
}

double* mlcp_dense_copy(const NsdMatrix* M) {
  size_t count = (size_t)M->rows * (size_t)M->cols;
  double* a = malloc((count ? count : 1) * sizeof *a);
  if (!a) return NULL;

  /* dense storage is copied as is, the others through a dense conversion */
  if (M->storage == NSD_DENSE) {
    memcpy(a, M->dense, count * sizeof *a);
    return a;
  }
  NsdMatrix* dense = nsd_matrix_convert(M, NSD_DENSE, 0);
  if (!dense) {
    free(a);
    return NULL;
  }
  memcpy(a, dense->dense, count * sizeof *a);
  nsd_matrix_destroy(dense);
  return a;
}

double mlcp_norm(const double* v, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += v[i] * v[i];
  return sqrt(s);
}

int mlcp_lu_factor(double* a, int n, int* pivots, double* rcond) {
  if (n == 0) {
    if (rcond) *rcond = 1.0;
    return 0;
  }
  double anorm = rcond ? LAPACKE_dlange(LAPACK_COL_MAJOR, '1', n, n, a, n) : 0.0;
  lapack_int info = LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, a, n, pivots);
  if (info != 0) {
    if (rcond) *rcond = 0.0;
    return (int)info;
  }
  if (rcond) {
    double rc = 0.0;
    if (LAPACKE_dgecon(LAPACK_COL_MAJOR, '1', n, a, n, anorm, &rc) != 0) rc = 0.0;
    *rcond = rc;
  }
  return 0;
}

int mlcp_lu_solve(const double* lu, int n, const int* pivots, double* b, int nrhs) {
  if (n == 0 || nrhs == 0) return 0;
  return (int)LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', n, nrhs, lu, n, pivots, b, n);
}
