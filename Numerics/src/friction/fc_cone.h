/*
 * The Coulomb cone and the Siconos friction-contact error, once for the whole
 * library (private): the projection of one contact on its cone (behind the
 * public nsd_fc_project_on_cone, the local solvers, NSGS/PSOR and the cone
 * solvers), and the natural-map error with De Saxce's change of velocity
 * (behind nsd_fc_error, NSGS, Lemke FC2D, the local solvers and the
 * thread-parallel nsd_fcc_natural_residual of the first-order solvers).
 */
#ifndef NSDYN_FC_CONE_H
#define NSDYN_FC_CONE_H

#include <float.h>
#include <math.h>
#include <stddef.h>

/** Projection of one block y[dim] on the cone of coefficient mu (dim 1: on [0, inf)). */
static inline void nsd_fcc_project_block(int dim, double mu, double* y) {
  if (dim == 3) {
    double t = sqrt(y[1] * y[1] + y[2] * y[2]), yn = y[0];
    if (mu * t <= -yn) {
      y[0] = y[1] = y[2] = 0.0;
    } else if (t > mu * yn) {
      double a = (mu * t + yn) / (1.0 + mu * mu);
      double s = t > 0.0 ? mu * a / t : 0.0;
      y[0] = a;
      y[1] *= s;
      y[2] *= s;
    }
  } else if (dim == 2) {
    double t = fabs(y[1]), yn = y[0];
    if (mu * t <= -yn) {
      y[0] = y[1] = 0.0;
    } else if (t > mu * yn) {
      double a = (mu * t + yn) / (1.0 + mu * mu);
      y[0] = a;
      y[1] = y[1] > 0.0 ? mu * a : -mu * a;
    }
  } else if (y[0] < 0.0) {
    y[0] = 0.0;
  }
}

/**
 * Natural-map terms of one contact (see nsd_fcc_natural_residual): adds
 * ||e_a||^2, ||r_a||^2 and ||v_a||^2 to s[0], s[1], s[2].
 */
static inline void nsd_fcc_natural_terms(int dim, double mu, const double* ra, const double* va,
                                         int desaxce, double s[3]) {
  double y[3], shift = 0.0;
  if (desaxce && dim > 1)
    shift = mu * (dim == 3 ? sqrt(va[1] * va[1] + va[2] * va[2]) : fabs(va[1]));
  y[0] = ra[0] - va[0] - shift;
  for (int k = 1; k < dim; ++k) y[k] = ra[k] - va[k];
  nsd_fcc_project_block(dim, mu, y);
  for (int k = 0; k < dim; ++k) {
    double e = ra[k] - y[k];
    s[0] += e * e;
    s[1] += ra[k] * ra[k];
    s[2] += va[k] * va[k];
  }
}

/**
 * The natural-map residual from the sums of nsd_fcc_natural_terms:
 * sqrt(se) / max(q_norm, sqrt(sr), sqrt(sv)), unscaled when that maximum is
 * <= DBL_EPSILON; +inf when a sum is not finite (a diverged iterate).
 */
static inline double nsd_fcc_natural_value(const double s[3], double q_norm) {
  if (!(isfinite(s[0]) && isfinite(s[1]) && isfinite(s[2]))) return INFINITY;
  // the largest of the three, all finite here (fmax is a libm call: this runs per local solve)
  const double sr = sqrt(s[1]), sv = sqrt(s[2]);
  double scale = q_norm > sr ? q_norm : sr;
  if (sv > scale) scale = sv;
  return scale > DBL_EPSILON ? sqrt(s[0]) / scale : sqrt(s[0]);
}

/**
 * The Siconos FC2D/FC3D error (formats/README.md §3) of r[dim*nc] given its
 * velocity u = M r + q (not recomputed) and ||q||: the natural map with De
 * Saxce's change of velocity, summed over the contacts in order and normalised
 * by max(||q||, ||r||, ||u||) (nsd_fcc_natural_value).
 */
static inline double nsd_fc_siconos_error(int dim, int nc, const double* mu, double q_norm,
                                          const double* r, const double* u) {
  double s[3] = {0.0, 0.0, 0.0};
  for (int a = 0; a < nc; ++a)
    nsd_fcc_natural_terms(dim, mu ? mu[a] : 0.0, r + (size_t)dim * a, u + (size_t)dim * a, 1, s);
  return nsd_fcc_natural_value(s, q_norm);
}

#endif
