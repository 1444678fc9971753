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
