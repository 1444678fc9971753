/*
 * One-contact Alart-Curnier and Fischer-Burmeister residuals with an element
 * of their generalized Jacobians (see fc3d_newton_internal.h). Blocks are
 * 3x3 column-major: entry (i,j) at i + 3 j.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "friction/fc3d_newton_internal.h"

/* 1/sqrt(2): the spectral vectors of the Lorentz cone are (1, -+e)/sqrt(2). */
#define FB_INV_SQRT2 0.70710678118654752440
/* Smallest eigenvalue of x o x + y o y, relative to the largest, taken as zero
 * (the point is then on the cone boundary, where that eigenvalue's term of the
 * Jacobian vanishes in the limit). */
#define FB_BOUNDARY_RATIO (4.0 * DBL_EPSILON)

void nsd_fcni_ac_local(const double* r, const double* u, double mu, double rho, double* phi,
                       double* a, double* b) {
  if (a) {
    memset(a, 0, 9 * sizeof *a);
    memset(b, 0, 9 * sizeof *b);
  }

  // normal part: r_n - P_R+(x_n), x_n = r_n - rho u_n
  const double xn = r[0] - rho * u[0];
  if (xn > 0.0) {
    phi[0] = rho * u[0];
    if (b) b[0] = rho;
  } else {
    phi[0] = r[0];
    if (a) a[0] = 1.0;
  }

  // tangential part: r_T - P_D(R)(y), radius R = mu P_R+(x_n), y = r_T - rho u_T
  const double radius = mu * (xn > 0.0 ? xn : 0.0);
  const double y1 = r[1] - rho * u[1], y2 = r[2] - rho * u[2];
  const double ny = hypot(y1, y2);
  if (radius > 0.0 && ny <= radius) {
    // sticking: the projection is the identity, phi_T = rho u_T
    phi[1] = rho * u[1];
    phi[2] = rho * u[2];
    if (b) b[4] = b[8] = rho;
    return;
  }

  // sliding (or no friction force): P = R y / |y|
  const double s = ny > 0.0 ? radius / ny : 0.0;
  const double e1 = ny > 0.0 ? y1 / ny : 0.0, e2 = ny > 0.0 ? y2 / ny : 0.0;
  phi[1] = r[1] - s * y1;
  phi[2] = r[2] - s * y2;
  if (!a) return;

  // dP/dy = s (I - e e^T); dP/dR = e with dR/dr_n = mu, dR/du_n = -mu rho when x_n > 0
  const double p11 = s * (1.0 - e1 * e1), p12 = -s * e1 * e2, p22 = s * (1.0 - e2 * e2);
  a[4] = 1.0 - p11;
  a[7] = -p12;
  a[5] = -p12;
  a[8] = 1.0 - p22;
  b[4] = rho * p11;
  b[7] = rho * p12;
  b[5] = rho * p12;
  b[8] = rho * p22;
  if (radius > 0.0) {
    a[1] = -mu * e1;
    a[2] = -mu * e2;
    b[1] = mu * rho * e1;
    b[2] = mu * rho * e2;
  }
}

/* Scalar Fischer-Burmeister function of (x, y) and its partial derivatives. */
static double fb_scalar(double x, double y, double* dx, double* dy) {
  const double s = hypot(x, y);
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
  const double nz = hypot(zb1, zb2);
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

void nsd_fcni_fb_local(const double* r, const double* u, double mu, double rho, double* phi,
                       double* a, double* b) {
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
  const double nut = hypot(u[1], u[2]);
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
