/*
 * The Fischer-Burmeister map and its Jacobian (see fc_maps.h; the
 * Alart-Curnier map and nsd_fcm_jacobian are inline there). Blocks are 3x3
 * column-major: entry (i,j) at i + 3 j.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "friction/fc_maps.h"

/* 1/sqrt(2): the spectral vectors of the Lorentz cone are (1, -+e)/sqrt(2). */
#define FB_INV_SQRT2 0.70710678118654752440
/* Smallest eigenvalue of x o x + y o y, relative to the largest, taken as zero
 * (the point is then on the cone boundary, where that eigenvalue's term of the
 * Jacobian vanishes in the limit). */
#define FB_BOUNDARY_RATIO (4.0 * DBL_EPSILON)

/* Scalar Fischer-Burmeister function of (x, y) and its partial derivatives. */
static double fb_scalar(double x, double y, double* dx, double* dy) {
  const double s = nsd_fcm_norm2(x, y);
  if (s > 0.0) {
    *dx = 1.0 - x / s;
    *dy = 1.0 - y / s;
  } else {
    // at (0,0): the gradient along the direction (1,1)
    *dx = *dy = 1.0 - FB_INV_SQRT2;
  }
  return x + y > 0.0 ? 2.0 * x * y / (x + y + s) : x + y - s;
}

/*
 * Second-order-cone Fischer-Burmeister function in R^3, phi = x + y - w with
 * w = sqrt(z), z = x o x + y o y, and (nullable) jx, jy = I - L_w^-1 L_x,
 * I - L_w^-1 L_y (3x3 column-major), L_v = [v0 vb^T; vb v0 I] the arrow matrix.
 * Spectral form: z = l1 c1 + l2 c2, l1,2 = z0 -+ |zb|, and
 * L_w^-1 = u1 u1^T / sqrt(l1) + u2 u2^T / sqrt(l2) + (I - e e^T)_bar / w0,
 * u1,2 = (1, -+e)/sqrt(2), e = zb/|zb|.
 */
static void fb_cone(const double* x, const double* y, double* phi, double* jx, double* jy) {
  const double z0 =
      x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + y[0] * y[0] + y[1] * y[1] + y[2] * y[2];
  const double zb1 = 2.0 * (x[0] * x[1] + y[0] * y[1]);
  const double zb2 = 2.0 * (x[0] * x[2] + y[0] * y[2]);
  const double nz = nsd_fcm_norm2(zb1, zb2);
  const double e1 = nz > 0.0 ? zb1 / nz : 1.0, e2 = nz > 0.0 ? zb2 / nz : 0.0;

  // spectral square root of z
  const double l1 = fmax(z0 - nz, 0.0), l2 = z0 + nz;
  const double s1 = sqrt(l1), s2 = sqrt(l2);
  const double w0 = 0.5 * (s1 + s2), wb = 0.5 * (s2 - s1);
  phi[0] = x[0] + y[0] - w0;
  phi[1] = x[1] + y[1] - wb * e1;
  phi[2] = x[2] + y[2] - wb * e2;
  if (!jx) return;

  if (!(w0 > 0.0)) {
    // x = y = 0: the Jacobian along the direction x = y = (1, 0, 0)
    memset(jx, 0, 9 * sizeof *jx);
    memset(jy, 0, 9 * sizeof *jy);
    jx[0] = jx[4] = jx[8] = jy[0] = jy[4] = jy[8] = 1.0 - FB_INV_SQRT2;
    return;
  }

  // L_w^-1 (symmetric), the u1 term dropped on the cone boundary
  double li[9];
  const double u1[3] = {FB_INV_SQRT2, -FB_INV_SQRT2 * e1, -FB_INV_SQRT2 * e2};
  const double u2[3] = {FB_INV_SQRT2, FB_INV_SQRT2 * e1, FB_INV_SQRT2 * e2};
  const double c1 = l1 > FB_BOUNDARY_RATIO * l2 ? 1.0 / s1 : 0.0, c2 = 1.0 / s2;
  const double ev[3] = {0.0, e1, e2};
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) {
      double v = c1 * u1[i] * u1[j] + c2 * u2[i] * u2[j];
      if (i > 0 && j > 0) v += ((i == j ? 1.0 : 0.0) - ev[i] * ev[j]) / w0;
      li[i + 3 * j] = v;
    }

  // J = I - L_w^-1 L_v for v = x and v = y
  for (int which = 0; which < 2; ++which) {
    const double* v = which == 0 ? x : y;
    double* jac = which == 0 ? jx : jy;
    const double lv[9] = {v[0], v[1], v[2], v[1], v[0], 0.0, v[2], 0.0, v[0]};
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) {
        double s = 0.0;
        for (int k = 0; k < 3; ++k) s += li[i + 3 * k] * lv[k + 3 * j];
        jac[i + 3 * j] = (i == j ? 1.0 : 0.0) - s;
      }
  }
}

void nsd_fcm_fb(const double* r, const double* u, double mu, double rho, double* phi, double* a,
                double* b) {
  if (a) {
    memset(a, 0, 9 * sizeof *a);
    memset(b, 0, 9 * sizeof *b);
  }

  // frictionless contact: Signorini by the scalar FB function, r_T = 0
  if (!(mu > 0.0)) {
    double dx, dy;
    phi[0] = fb_scalar(r[0], rho * u[0], &dx, &dy);
    phi[1] = r[1];
    phi[2] = r[2];
    if (a) {
      a[0] = dx;
      b[0] = rho * dy;
      a[4] = a[8] = 1.0;
    }
    return;
  }

  // images in the Lorentz cone: x = D r, y = rho E u_hat
  const double s = sqrt(mu);
  const double nut = nsd_fcm_norm2(u[1], u[2]);
  const double t1 = nut > 0.0 ? u[1] / nut : 0.0, t2 = nut > 0.0 ? u[2] / nut : 0.0;
  const double x[3] = {s * r[0], r[1] / s, r[2] / s};
  const double y[3] = {rho * (u[0] + mu * nut) / s, rho * s * u[1], rho * s * u[2]};
  if (!a) {
    fb_cone(x, y, phi, NULL, NULL);
    return;
  }
  double jx[9], jy[9];
  fb_cone(x, y, phi, jx, jy);

  // chain rule: a = Jx D, D = diag(s, 1/s, 1/s);
  // b = Jy rho E (I + mu e_n (0, t)), E = diag(1/s, s, s)
  const double dr[3] = {s, 1.0 / s, 1.0 / s};
  const double g[9] = {rho / s,           0.0, 0.0,    rho * mu * t1 / s, rho * s, 0.0,
                       rho * mu * t2 / s, 0.0, rho * s};
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) {
      a[i + 3 * j] = jx[i + 3 * j] * dr[j];
      double v = 0.0;
      for (int k = 0; k < 3; ++k) v += jy[i + 3 * k] * g[k + 3 * j];
      b[i + 3 * j] = v;
    }
}
