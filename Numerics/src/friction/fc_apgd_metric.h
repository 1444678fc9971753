/*
 * The per-contact preconditioner of APGD (fc3d_apgd.c, option
 * apgd.preconditioner): the projected gradient step taken in the metric of a
 * diagonal D = diag(d_n, d_t, d_t) per contact built from the diagonal of the
 * Delassus operator N, instead of the Euclidean one:
 *   g' = argmin_{x in K} g^T (x - y) + L/2 (x - y)^T D (x - y)
 *      = Pi^D_K(y - t D^-1 g),  t = 1/L, L a Lipschitz constant of N in D's metric.
 * Because both tangential weights of a contact are equal, D^(1/2) maps the cone
 * of coefficient mu onto the cone of coefficient mu sqrt(d_t / d_n): the
 * projection in D's metric is the Euclidean projection of D^(1/2) x on that
 * cone, mapped back (exact, closed form). Private.
 */
#ifndef NSDYN_FC_APGD_METRIC_H
#define NSDYN_FC_APGD_METRIC_H

#include <math.h>

#include "friction/fc_cone.h"
#include "nsdyn/nsd_fc.h"

#if defined(__GNUC__)
#define NSD_APGD_INTERNAL __attribute__((visibility("hidden")))
#else
#define NSD_APGD_INTERNAL
#endif

/** Values of apgd.preconditioner. */
enum {
  NSD_APGD_PRECONDITIONER_NONE = 0,  /* Euclidean metric (Mazhar et al. 2015) */
  NSD_APGD_PRECONDITIONER_BLOCK = 1, /* one weight per contact: the trace of its block / dim */
  NSD_APGD_PRECONDITIONER_CONE = 2   /* d_n = N_nn, d_t = mean of the tangential diagonal */
};

/**
 * The weights of D into w[m] (m = d->size, dim per contact, both tangential rows
 * of a contact equal) for @p kind (NSD_APGD_PRECONDITIONER_BLOCK or _CONE), from
 * the diagonal of N: read from an assembled N, or computed from the factors of
 * nsd_delassus_factored (sparse-block J, block-diagonal M^-1) or of
 * nsd_rigid_contacts_operator. Weights below 1e-12 of the largest are raised to
 * it. Returns 1, or 0 when the diagonal cannot be had from this operator (other
 * callbacks) or is not positive: the caller then keeps the Euclidean metric.
 */
NSD_APGD_INTERNAL int nsd_apgd_metric_weights(const NsdDelassus* d, int dim, int kind, double* w);

/**
 * out[dim] = Pi^D_K(y - t D^-1 g) for one contact of coefficient @p mu with the
 * weights w[dim] (w[1] = w[2]); out may alias y.
 */
static inline void nsd_apgd_metric_step(int dim, double mu, const double* w, const double* y,
                                        const double* g, double t, double* out) {
  double x[3], s[3];
  for (int k = 0; k < dim; ++k) {
    s[k] = sqrt(w[k]);
    // x~ = D^(1/2) (y - t D^-1 g) = s y - t g / s
    x[k] = s[k] * y[k] - t * g[k] / s[k];
  }
  nsd_fcc_project_block(dim, dim > 1 ? mu * s[1] / s[0] : 0.0, x);
  for (int k = 0; k < dim; ++k) out[k] = x[k] / s[k];
}

#endif
