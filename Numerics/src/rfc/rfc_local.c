/* The one-contact rolling friction problem solved to machine precision
 * (nsd_rfc_solve_one): semismooth Newton on the natural map with De Saxcé's
 * change of velocity, F(r) = r - P_K(r - rho û(r)), û = W r + q + s(u) e_N,
 * s(u) = mu ||u_T|| + mu_r ||u_R||; projected fixed point when Newton stalls. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "rfc/rfc_internal.h"

#define D NSD_RFC_MAX_DIM
#define NEWTON_STEPS 60
#define FIXED_POINT_STEPS 40
#define LINE_SEARCH_STEPS 40
#define ARMIJO_SIGMA 1e-4
#define LOCAL_TOLERANCE 1e-14

static double norm_n(const double* v, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += v[i] * v[i];
  return sqrt(s);
}

/* u = W r + q (column-major W). */
static void velocity(int d, const double* W, const double* q, const double* r, double* u) {
  for (int i = 0; i < d; ++i) u[i] = q[i];
  for (int j = 0; j < d; ++j)
    for (int i = 0; i < d; ++i) u[i] += W[i + d * j] * r[j];
}

/* F(r) into F, and z = r - rho û into z (both d entries). */
static void natural_map(int d, const double* W, const double* q, double mu, double mu_r, double rho,
                        const double* r, double* z, double* F) {
  double u[D] = {0};
  velocity(d, W, q, r, u);
  u[0] += nsd_rfc_shift(d, mu, mu_r, u);
  for (int i = 0; i < d; ++i) z[i] = r[i] - rho * u[i];
  double p[D] = {0};
  memcpy(p, z, (size_t)d * sizeof *p);
  nsd_rfc_project_on_cone(d, mu, mu_r, p);
  for (int i = 0; i < d; ++i) F[i] = r[i] - p[i];
}

/* An element P[d x d] (row-major) of the generalized Jacobian of P_K at z. A part whose
 * coefficient is 0 (mu = 0: r_T = 0, mu_r = 0: r_R = 0) is projected on {0}: its rows are
 * zero in every regime, so that J = I - P G has identity rows there and Newton eliminates
 * those unknowns (dr = -r) while solving the others against the coupled rows of W. */
static void projection_jacobian(int d, double mu, double mu_r, const double* z, double* P) {
  const int h = (d - 1) / 2;
  const double* zt = z + 1;
  const double* zr = z + 1 + h;
  const double zn = z[0], a = norm_n(zt, h), b = norm_n(zr, h);
  memset(P, 0, (size_t)(d * d) * sizeof *P);
  if (a <= mu * zn && b <= mu_r * zn) {
    P[0] = 1.0;
    for (int i = 0; i < h; ++i) {
      if (mu > 0.0) P[(1 + i) * d + 1 + i] = 1.0;
      if (mu_r > 0.0) P[(1 + h + i) * d + 1 + h + i] = 1.0;
    }
    return;
  }
  if (-zn - mu * a - mu_r * b >= 0.0) return;

  double p[D] = {0};
  memcpy(p, z, (size_t)d * sizeof *p);
  nsd_rfc_project_on_cone(d, mu, mu_r, p);
  const double t = p[0];
  const int ta = mu > 0.0 && a > mu * t && a > 0.0; /* tangential part on its boundary */
  const int ra = mu_r > 0.0 && b > mu_r * t && b > 0.0;
  const double c = 1.0 + (ta ? mu * mu : 0.0) + (ra ? mu_r * mu_r : 0.0);
  double st[2] = {0.0, 0.0}, sr[2] = {0.0, 0.0};
  for (int i = 0; i < h; ++i) {
    st[i] = ta ? zt[i] / a : 0.0;
    sr[i] = ra ? zr[i] / b : 0.0;
  }
  // dt/dz
  double dt[D] = {0};
  dt[0] = 1.0 / c;
  for (int i = 0; i < h; ++i) {
    dt[1 + i] = ta ? mu * st[i] / c : 0.0;
    dt[1 + h + i] = ra ? mu_r * sr[i] / c : 0.0;
  }
  for (int j = 0; j < d; ++j) P[j] = dt[j];
  // a part x = k t z/|z| on the boundary (k = mu or mu_r), else x = z
  for (int part = 0; part < 2; ++part) {
    const int active = part ? ra : ta;
    const int o = 1 + part * h;
    const double k = part ? mu_r : mu, nz = part ? b : a;
    const double* s = part ? sr : st;
    if (!(k > 0.0)) continue; /* projected on {0}: zero rows */
    for (int i = 0; i < h; ++i) {
      if (!active) {
        P[(o + i) * d + o + i] = 1.0;
        continue;
      }
      for (int j = 0; j < d; ++j) P[(o + i) * d + j] = k * s[i] * dt[j];
      for (int j = 0; j < h; ++j)
        P[(o + i) * d + o + j] += k * t / nz * ((i == j ? 1.0 : 0.0) - s[i] * s[j]);
    }
  }
}

/* Solve A x = b (A row-major d x d, overwritten) by partial pivoting; 0 if singular. */
static int solve_dense(int d, double* A, double* b) {
  for (int k = 0; k < d; ++k) {
    int piv = k;
    for (int i = k + 1; i < d; ++i)
      if (fabs(A[i * d + k]) > fabs(A[piv * d + k])) piv = i;
    if (!(fabs(A[piv * d + k]) > 1e-300)) return 0;
    if (piv != k) {
      for (int j = 0; j < d; ++j) {
        const double s = A[k * d + j];
        A[k * d + j] = A[piv * d + j];
        A[piv * d + j] = s;
      }
      const double s = b[k];
      b[k] = b[piv];
      b[piv] = s;
    }
    for (int i = k + 1; i < d; ++i) {
      const double f = A[i * d + k] / A[k * d + k];
      for (int j = k; j < d; ++j) A[i * d + j] -= f * A[k * d + j];
      b[i] -= f * b[k];
    }
  }
  for (int k = d - 1; k >= 0; --k) {
    double s = b[k];
    for (int j = k + 1; j < d; ++j) s -= A[k * d + j] * b[j];
    b[k] = s / A[k * d + k];
  }
  for (int k = 0; k < d; ++k)
    if (!isfinite(b[k])) return 0;
  return 1;
}

/* The Newton direction dr = -J^{-1} F at r; 0 when J is singular. */
static int newton_direction(int d, const double* W, const double* q, double mu, double mu_r,
                            double rho, const double* r, const double* z, const double* F,
                            double* dr) {
  const int h = (d - 1) / 2;
  double u[D] = {0};
  velocity(d, W, q, r, u);
  // dû/dr = W + e_N (mu s_T^T W_T + mu_r s_R^T W_R), s = unit sliding / rolling directions
  const double nt = norm_n(u + 1, h), nr = norm_n(u + 1 + h, h);
  double G[D * D] = {0}; /* row-major dz/dr = I - rho dû/dr */
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j) G[i * d + j] = W[i + d * j];
  for (int j = 0; j < d; ++j) {
    double add = 0.0;
    for (int i = 0; i < h; ++i) {
      if (nt > 0.0) add += mu * u[1 + i] / nt * W[1 + i + d * j];
      if (nr > 0.0) add += mu_r * u[1 + h + i] / nr * W[1 + h + i + d * j];
    }
    G[j] += add;
  }
  for (int i = 0; i < d * d; ++i) G[i] = -rho * G[i];
  for (int i = 0; i < d; ++i) G[i * d + i] += 1.0;
  // J = I - P G
  double P[D * D] = {0}, J[D * D] = {0};
  projection_jacobian(d, mu, mu_r, z, P);
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j) {
      double s = 0.0;
      for (int k = 0; k < d; ++k) s += P[i * d + k] * G[k * d + j];
      J[i * d + j] = (i == j ? 1.0 : 0.0) - s;
    }
  for (int i = 0; i < d; ++i) dr[i] = -F[i];
  return solve_dense(d, J, dr);
}

double nsd_rfc_solve_one(int d, const double* W, const double* q, double mu, double mu_r,
                         double* r) {
  // the contact opens: r = 0 with û = q + s e_N in the dual cone (q_N >= 0)
  if (q[0] >= 0.0) {
    for (int i = 0; i < d; ++i) r[i] = 0.0;
    return 0.0;
  }
  double wmax = 0.0;
  for (int i = 0; i < d; ++i) wmax = fmax(wmax, W[i + d * i]);
  const double rho = wmax > 0.0 ? 1.0 / wmax : 1.0;
  const double tol = LOCAL_TOLERANCE * fmax(1.0, norm_n(q, d));

  // start: the current r, or the normal impulse alone when r is not in the cone
  double z[D] = {0}, F[D] = {0};
  {
    double p[D] = {0};
    memcpy(p, r, (size_t)d * sizeof *p);
    nsd_rfc_project_on_cone(d, mu, mu_r, p);
    int inside = 1;
    for (int i = 0; i < d; ++i) inside = inside && p[i] == r[i] && isfinite(r[i]);
    if (!inside || r[0] <= 0.0) {
      for (int i = 0; i < d; ++i) r[i] = 0.0;
      r[0] = W[0] > 0.0 ? -q[0] / W[0] : 0.0;
    }
  }
  natural_map(d, W, q, mu, mu_r, rho, r, z, F);
  double f = norm_n(F, d);

  int fixed_left = FIXED_POINT_STEPS * 25; /* fallback budget over the whole solve */
  for (int it = 0; it < NEWTON_STEPS && f > tol; ++it) {
    double dr[D] = {0}, rt[D] = {0}, zt[D] = {0}, Ft[D] = {0};
    int moved = 0;
    if (newton_direction(d, W, q, mu, mu_r, rho, r, z, F, dr)) {
      double alpha = 1.0;
      for (int ls = 0; ls < LINE_SEARCH_STEPS; ++ls, alpha *= 0.5) {
        for (int i = 0; i < d; ++i) rt[i] = r[i] + alpha * dr[i];
        natural_map(d, W, q, mu, mu_r, rho, rt, zt, Ft);
        const double ft = norm_n(Ft, d);
        if (ft * ft <= (1.0 - 2.0 * ARMIJO_SIGMA * alpha) * f * f) {
          memcpy(r, rt, (size_t)d * sizeof *r);
          memcpy(z, zt, (size_t)d * sizeof *z);
          memcpy(F, Ft, (size_t)d * sizeof *F);
          moved = ft < f;
          f = ft;
          break;
        }
      }
    }
    if (moved) continue;
    if (f <= 1e3 * tol) break; /* machine precision: ||F|| no longer decreases */
    // Newton stalled: projected fixed-point steps r <- P_K(z), keeping the best point
    if (fixed_left <= 0) break;
    double best[D] = {0};
    memcpy(best, r, (size_t)d * sizeof *best);
    double fbest = f;
    for (int k = 0; k < FIXED_POINT_STEPS && fixed_left > 0; ++k, --fixed_left) {
      for (int i = 0; i < d; ++i) r[i] -= F[i];
      natural_map(d, W, q, mu, mu_r, rho, r, z, F);
      f = norm_n(F, d);
      if (f < fbest) {
        fbest = f;
        memcpy(best, r, (size_t)d * sizeof *best);
      }
      if (f <= tol) break;
    }
    if (fbest < f) {
      memcpy(r, best, (size_t)d * sizeof *r);
      natural_map(d, W, q, mu, mu_r, rho, r, z, F);
      f = fbest;
    }
  }
  return f;
}
