/* Rolling friction contact: create / destroy / check, the projection on the
 * rolling cone and the Siconos error measure (nsd_rfc.h). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/solver_core.h"
#include "rfc/rfc_internal.h"

static double* copy_or_zero(const double* v, int n) {
  double* c = calloc((size_t)(n > 0 ? n : 1), sizeof *c);
  if (c && v && n > 0) memcpy(c, v, (size_t)n * sizeof *c);
  return c;
}

static double norm2(const double* v, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += v[i] * v[i];
  return sqrt(s);
}

NsdRfc* nsd_rfc_create(int dim, int nc, NsdMatrix* M, const double* q, const double* mu,
                       const double* mu_r) {
  NsdRfc* p = NULL;
  if (!M || (dim != 3 && dim != 5) || nc < 0 || !(p = calloc(1, sizeof *p))) {
    nsd_matrix_destroy(M);
    return NULL;
  }
  p->dim = dim;
  p->nc = nc;
  p->M = M;
  p->q = copy_or_zero(q, dim * nc);
  p->mu = copy_or_zero(mu, nc);
  p->mu_r = copy_or_zero(mu_r, nc);
  if (!p->q || !p->mu || !p->mu_r) {
    nsd_rfc_destroy(p);
    return NULL;
  }
  return p;
}

void nsd_rfc_destroy(NsdRfc* p) {
  if (!p) return;
  nsd_matrix_destroy(p->M);
  free(p->q);
  free(p->mu);
  free(p->mu_r);
  free(p);
}

/* Coefficients name[nc]: present, finite, >= 0. */
static int check_coefficients(const double* c, int nc, const char* what, const char* name,
                              NsdReport* rep) {
  if (nc > 0 && !c) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "%s: vector %s is missing", what, name);
    return 0;
  }
  for (int a = 0; a < nc; ++a) {
    if (!isfinite(c[a]) || c[a] < 0.0) {
      nsd_report_fail(rep, NSD_BAD_INPUT, "%s: %s[%d] = %g, expected a finite %s >= 0", what, name,
                      a, c[a], name);
      return 0;
    }
  }
  return 1;
}

int nsd_rfc_check(const NsdRfc* p, NsdReport* rep) {
  if (!p) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "RFC: problem is NULL");
    return 0;
  }
  if (p->dim != 3 && p->dim != 5) {
    nsd_report_fail(rep, NSD_BAD_INPUT,
                    "RFC: dimension %d, expected 5 (3D rolling) or 3 (2D rolling)", p->dim);
    return 0;
  }
  const char* what = nsd_rfc_what(p->dim);
  if (p->nc < 0) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "%s: %d contacts, expected >= 0", what, p->nc);
    return 0;
  }
  const int m = p->dim * p->nc;
  if (!p->M) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "%s: matrix M is missing", what);
    return 0;
  }
  if (p->M->rows != m || p->M->cols != m) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "%s: M is %dx%d, expected %dx%d", what, p->M->rows,
                    p->M->cols, m, m);
    return 0;
  }
  if (!nsd_matrix_is_finite(p->M)) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "%s: M has a non-finite (NaN or inf) entry", what);
    return 0;
  }
  if (m > 0 && !p->q) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "%s: vector q is missing", what);
    return 0;
  }
  for (int i = 0; i < m; ++i) {
    if (!isfinite(p->q[i])) {
      nsd_report_fail(rep, NSD_BAD_INPUT, "%s: q[%d] = %g is not finite", what, i, p->q[i]);
      return 0;
    }
  }
  return check_coefficients(p->mu, p->nc, what, "mu", rep) &&
         check_coefficients(p->mu_r, p->nc, what, "mu_r", rep);
}

void nsd_rfc_project_on_cone(int dim, double mu, double mu_r, double* y) {
  const int h = (dim - 1) / 2; /* entries of the tangential and of the rolling part */
  double* yt = y + 1;
  double* yr = y + 1 + h;
  const double yn = y[0], a = norm2(yt, h), b = norm2(yr, h);

  // inside the cone: unchanged
  if (a <= mu * yn && b <= mu_r * yn) return;
  // in the polar cone: 0 (g(0) >= 0 below)
  if (-yn - mu * a - mu_r * b >= 0.0) {
    for (int i = 0; i < dim; ++i) y[i] = 0.0;
    return;
  }

  // g(t) = t - yn - mu max(0, a - mu t) - mu_r max(0, b - mu_r t) is increasing, g(0) < 0:
  // walk its linear pieces between the breakpoints a/mu and b/mu_r
  double bp[3] = {0.0, 0.0, 0.0};
  int nb = 0;
  if (mu > 0.0 && a > 0.0) bp[nb++] = a / mu;
  if (mu_r > 0.0 && b > 0.0) bp[nb++] = b / mu_r;
  if (nb == 2 && bp[0] > bp[1]) {
    const double s = bp[0];
    bp[0] = bp[1];
    bp[1] = s;
  }
  bp[nb++] = INFINITY;
  double lo = 0.0, t = 0.0;
  for (int k = 0; k < nb; ++k) {
    const double hi = bp[k];
    const double mid = isinf(hi) ? lo + 1.0 : 0.5 * (lo + hi);
    const int t_active = mu > 0.0 && a > mu * mid;
    const int r_active = mu_r > 0.0 && b > mu_r * mid;
    // on this piece g(t) = c t - (yn + mu a [T] + mu_r b [R])
    const double c = 1.0 + (t_active ? mu * mu : 0.0) + (r_active ? mu_r * mu_r : 0.0);
    const double rhs = yn + (t_active ? mu * a : 0.0) + (r_active ? mu_r * b : 0.0);
    if (isinf(hi) || c * hi - rhs >= 0.0) {
      t = fmax(rhs / c, lo);
      if (!isinf(hi)) t = fmin(t, hi);
      break;
    }
    lo = hi;
  }

  // scale the tangential and rolling parts to their radii
  const double st = a > mu * t ? (a > 0.0 ? mu * t / a : 0.0) : 1.0;
  const double sr = b > mu_r * t ? (b > 0.0 ? mu_r * t / b : 0.0) : 1.0;
  y[0] = t;
  for (int i = 0; i < h; ++i) {
    yt[i] *= st;
    yr[i] *= sr;
  }
}

double nsd_rfc_shift(int dim, double mu, double mu_r, const double* u) {
  const int h = (dim - 1) / 2;
  return mu * norm2(u + 1, h) + mu_r * norm2(u + 1 + h, h);
}

double nsd_rfc_contact_error2(int dim, double mu, double mu_r, const double* r, const double* u) {
  double w[NSD_RFC_MAX_DIM] = {0};
  for (int i = 0; i < dim; ++i) w[i] = r[i] - u[i];
  w[0] -= nsd_rfc_shift(dim, mu, mu_r, u);
  nsd_rfc_project_on_cone(dim, mu, mu_r, w);
  double s = 0.0;
  for (int i = 0; i < dim; ++i) s += (r[i] - w[i]) * (r[i] - w[i]);
  return s;
}

double nsd_rfc_error_from(const NsdRfc* p, const double* r, const double* u) {
  const int d = p->dim, m = d * p->nc;
  if (!nsd_all_finite(r, (size_t)m) || !nsd_all_finite(u, (size_t)m)) return INFINITY;
  double s = 0.0;
  for (int a = 0; a < p->nc; ++a)
    s += nsd_rfc_contact_error2(d, p->mu[a], p->mu_r[a], r + (size_t)d * a, u + (size_t)d * a);
  double norm = fmax(norm2(p->q, m), fmax(norm2(r, m), norm2(u, m)));
  const double err = sqrt(s);
  return norm > DBL_EPSILON ? err / norm : err;
}

double nsd_rfc_error(const NsdRfc* p, const double* r, double* u_out) {
  if (!p || !p->M || !r) return INFINITY;
  const int m = p->dim * p->nc;
  double* u = u_out ? u_out : calloc((size_t)(m > 0 ? m : 1), sizeof *u);
  if (!u) return INFINITY;
  if (m > 0) {
    memcpy(u, p->q, (size_t)m * sizeof *u);
    nsd_matrix_gemv(1.0, p->M, r, 1.0, u);
  }
  const double e = nsd_rfc_error_from(p, r, u);
  if (!u_out) free(u);
  return e;
}

NsdStatus nsd_rfc_begin(const char* name, const NsdRfc* p, double* r, double* u,
                        const NsdSolverOptions* options, NsdSolverOptions* opt, NsdReport* rep) {
  if (nsd_solver_begin(name, options, opt, rep) != NSD_OK) return NSD_BAD_INPUT;
  if (!nsd_rfc_check(p, rep)) return NSD_BAD_INPUT;
  const int m = p->dim * p->nc;
  if (m > 0 && (!r || !u))
    return nsd_report_fail(rep, NSD_BAD_INPUT, "rfc %s: r or u is NULL", name);
  if (opt->warm_start) {
    if (!nsd_all_finite(r, (size_t)m))
      return nsd_report_fail(rep, NSD_BAD_INPUT, "rfc %s: warm start r is not finite", name);
  } else {
    for (int i = 0; i < m; ++i) r[i] = 0.0;
  }
  return NSD_OK;
}
