/* Weights of the per-contact preconditioner of APGD (see fc_apgd_metric.h). */
#include "friction/fc_apgd_metric.h"

#include <stdlib.h>

#include "friction/fc_bodies.h"
#include "friction/fc_cone_internal.h"
#include "nsdyn/nsd_matrix.h"

/* The diagonal of N into diag[m]; 1 if this operator gives it. */
static int apgd_diagonal(const NsdDelassus* d, double* diag) {
  if (d->assembled) {
    nsd_matrix_diagonal(d->assembled, diag);
    return 1;
  }
  if (nsd_fcc_factored_diagonal(d, diag)) return 1;
  const NsdRigidContacts* p = nsd_rb_operator_contacts(d);
  if (!p) return 0;
  int nc = p->n_contacts;
  double* packed = malloc((size_t)(nc > 0 ? nc : 1) * 6 * sizeof *packed);
  if (!packed) return 0;
  nsd_rb_diagonal_packed(p, NULL, NULL, packed, 1);
  for (int c = 0; c < nc; ++c) {
    diag[3 * c] = packed[6 * c];
    diag[3 * c + 1] = packed[6 * c + 3];
    diag[3 * c + 2] = packed[6 * c + 5];
  }
  free(packed);
  return 1;
}

int nsd_apgd_metric_weights(const NsdDelassus* d, int dim, int kind, double* w) {
  int m = d->size, nc = m / dim;
  if (m <= 0 || !apgd_diagonal(d, w)) return 0;
  double top = 0.0;
  for (int c = 0; c < nc; ++c) {
    double* wc = w + (size_t)dim * c;
    double tang = 0.0;
    for (int k = 1; k < dim; ++k) tang += wc[k];
    if (kind == NSD_APGD_PRECONDITIONER_BLOCK) {
      double all = (wc[0] + tang) / dim;
      for (int k = 0; k < dim; ++k) wc[k] = all;
    } else {
      for (int k = 1; k < dim; ++k) wc[k] = tang / (dim - 1);
    }
    for (int k = 0; k < dim; ++k) {
      if (!isfinite(wc[k])) return 0;
      if (wc[k] > top) top = wc[k];
    }
  }
  if (!(top > 0.0)) return 0;
  const double floor = 1e-12 * top;
  for (int i = 0; i < m; ++i)
    if (w[i] < floor) w[i] = floor;
  return 1;
}
