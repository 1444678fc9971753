/*
 * Local Alart-Curnier and Fischer-Burmeister maps of one 3D contact and an
 * element of their generalized Jacobians (not installed). One implementation
 * serves the global Newton solvers of fc3d_newton.c, which assemble
 * J = diag(a) + diag(b) M over all contacts, and the one-contact Newton of the
 * Gauss-Seidel local solver (fc_local.c), which forms J = a + b W with
 * nsd_fcm_jacobian.
 *
 * For a contact with reaction r (normal first), velocity u, friction
 * coefficient mu and scales rho > 0, a map fills
 *   phi[3]  the residual, zero exactly when (r, u) satisfy Coulomb's law;
 *   a[9], b[9]  (nullable together) 3x3 column-major blocks (entry (i,j) at
 *   i + 3 j) with d phi = a dr + b du, an element of the generalized Jacobian.
 *
 * The Alart-Curnier map and nsd_fcm_jacobian are inline: they run once or more
 * per sliding contact and sweep of Gauss-Seidel, where calling them in another
 * file cost about 6 % of the NSGS time on the Capsules problems. The
 * Fischer-Burmeister map is in fc_maps.c.
 */
#ifndef NSDYN_FC_MAPS_H
#define NSDYN_FC_MAPS_H

#include <math.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* sqrt(x^2 + y^2): contact magnitudes are far from overflow and underflow,
 * where hypot's care costs several times more. */
static inline double nsd_fcm_norm2(double x, double y) {
  return sqrt(x * x + y * y);
}

/**
 * Alart-Curnier map (Alart & Curnier, CMAME 92, 1991), normal scale rho_n and
 * tangential scale rho_t:
 *   phi_n = r_n - max(0, r_n - rho_n u_n),
 *   phi_T = r_T - P_D(R) (r_T - rho_t u_T),  R = mu max(0, r_n - rho_n u_n),
 * P_D(R) the projection on the disc of radius R. On the kinks: the tangential
 * part is taken as sticking (P = identity) only when R > 0 and
 * |r_T - rho_t u_T| <= R (the tie goes to sticking); with R = 0 the disc is
 * the point 0, P = 0 and d phi_T / d r_T = I, even at r_T = rho_t u_T. The
 * normal kink r_n = rho_n u_n counts as inactive (phi_n = r_n).
 */
static inline void nsd_fcm_ac(const double* r, const double* u, double mu, double rho_n,
                              double rho_t, double* phi, double* a, double* b) {
  if (a) {
    memset(a, 0, 9 * sizeof *a);
    memset(b, 0, 9 * sizeof *b);
  }

  // normal part: r_n - P_R+(x_n), x_n = r_n - rho_n u_n
  const double xn = r[0] - rho_n * u[0];
  if (xn > 0.0) {
    phi[0] = rho_n * u[0];
    if (b) b[0] = rho_n;
  } else {
    phi[0] = r[0];
    if (a) a[0] = 1.0;
  }

  // tangential part: r_T - P_D(R)(y), radius R = mu P_R+(x_n), y = r_T - rho_t u_T
  const double radius = mu * (xn > 0.0 ? xn : 0.0);
  const double y1 = r[1] - rho_t * u[1], y2 = r[2] - rho_t * u[2];
  const double ny = nsd_fcm_norm2(y1, y2);
  if (radius > 0.0 && ny <= radius) {
    // sticking: the projection is the identity, phi_T = rho_t u_T
    phi[1] = rho_t * u[1];
    phi[2] = rho_t * u[2];
    if (b) b[4] = b[8] = rho_t;
    return;
  }

  // sliding (or no friction force, R = 0: P = 0): P = R y / |y|
  const double s = ny > 0.0 ? radius / ny : 0.0;
  const double e1 = ny > 0.0 ? y1 / ny : 0.0, e2 = ny > 0.0 ? y2 / ny : 0.0;
  phi[1] = r[1] - s * y1;
  phi[2] = r[2] - s * y2;
  if (!a) return;

  // dP/dy = s (I - e e^T); dP/dR = e with dR/dr_n = mu, dR/du_n = -mu rho_n when x_n > 0
  const double p11 = s * (1.0 - e1 * e1), p12 = -s * e1 * e2, p22 = s * (1.0 - e2 * e2);
  a[4] = 1.0 - p11;
  a[7] = -p12;
  a[5] = -p12;
  a[8] = 1.0 - p22;
  b[4] = rho_t * p11;
  b[7] = rho_t * p12;
  b[5] = rho_t * p12;
  b[8] = rho_t * p22;
  if (radius > 0.0) {
    a[1] = -mu * e1;
    a[2] = -mu * e2;
    b[1] = mu * rho_n * e1;
    b[2] = mu * rho_n * e2;
  }
}

/**
 * Fischer-Burmeister map of the second-order cone (Fukushima, Luo, Tseng, SIAM
 * J. Optim. 12, 2001) on the Lorentz-cone images of r in K_mu and of
 * u_hat = u + mu ||u_T|| e_n in its dual: with s = sqrt(mu),
 *   x = (s r_n, r_T / s),  y = rho (u_hat_n / s, s u_hat_T),
 *   phi = x + y - (x o x + y o y)^(1/2)   (Jordan product o, spectral square root).
 * The sqrt(mu) scaling makes both cones the self-dual Lorentz cone with
 * balanced components; the Jacobian is formed from the spectral decomposition
 * (no 3x3 solve). For mu = 0: phi = (fb(r_n, rho u_n), r_T), scalar FB.
 */
void nsd_fcm_fb(const double* r, const double* u, double mu, double rho, double* phi, double* a,
                double* b);

/** J = a + b W (3x3 column-major): the Jacobian of phi(r, W r + q) in r. */
static inline void nsd_fcm_jacobian(const double* a, const double* b, const double* W, double* J) {
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i)
      J[i + 3 * j] =
          a[i + 3 * j] + b[i] * W[3 * j] + b[i + 3] * W[1 + 3 * j] + b[i + 6] * W[2 + 3 * j];
}

#ifdef __cplusplus
}
#endif
#endif
