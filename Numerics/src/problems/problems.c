/* Problem types: create / destroy / check, kind names, and the Siconos error
 * measures of LCP, MLCP and local friction contact (formats/README.md §3). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "friction/fc_cone.h"
#include "nsdyn/nsd_gmp.h"
#include "nsdyn/nsd_problems.h"
#include "nsdyn/nsd_rfc.h"

/* ---- small helpers ---------------------------------------------------------- */

static double* copy_vector(const double* v, int n) {
  size_t bytes = (size_t)(n > 0 ? n : 1) * sizeof(double);
  double* c = malloc(bytes);
  if (!c) return NULL;
  if (n > 0) {
    if (v)
      memcpy(c, v, (size_t)n * sizeof(double));
    else
      memset(c, 0, (size_t)n * sizeof(double));
  }
  return c;
}

static double norm2(const double* v, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += v[i] * v[i];
  return sqrt(s);
}

/* First non-finite index of v[n], or -1. */
static int first_non_finite(const double* v, int n) {
  for (int i = 0; i < n; ++i)
    if (!isfinite(v[i])) return i;
  return -1;
}

/* Checks shared by every problem: a square matrix of the given size with finite values. */
static int check_square(const NsdMatrix* M, int n, const char* what, NsdReport* rep) {
  if (!M) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "%s: matrix M is missing", what);
    return 0;
  }
  if (M->rows != n || M->cols != n) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "%s: M is %dx%d, expected %dx%d", what, M->rows, M->cols, n,
                    n);
    return 0;
  }
  if (!nsd_matrix_is_finite(M)) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "%s: M has a non-finite (NaN or inf) entry", what);
    return 0;
  }
  return 1;
}

static int check_vector(const double* v, int n, const char* what, const char* name,
                        NsdReport* rep) {
  if (n > 0 && !v) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "%s: vector %s is missing", what, name);
    return 0;
  }
  int bad = first_non_finite(v, n);
  if (bad >= 0) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "%s: %s[%d] = %g is not finite", what, name, bad, v[bad]);
    return 0;
  }
  return 1;
}

const char* nsd_kind_name(NsdProblemKind kind) {
  switch (kind) {
    case NSD_KIND_LCP:
      return "lcp";
    case NSD_KIND_MLCP:
      return "mlcp";
    case NSD_KIND_FC2D:
      return "fc2d";
    case NSD_KIND_FC3D:
      return "fc3d";
    case NSD_KIND_GFC2D:
      return "gfc2d";
    case NSD_KIND_GFC3D:
      return "gfc3d";
    case NSD_KIND_GMP:
      return "gmp";
    case NSD_KIND_RFC3D:
      return "rfc3d";
    case NSD_KIND_RFC2D:
      return "rfc2d";
    case NSD_KIND_UNKNOWN:
      break;
  }
  return "unknown";
}

NsdProblemKind nsd_kind_from_name(const char* name) {
  static const NsdProblemKind kinds[] = {NSD_KIND_LCP,  NSD_KIND_MLCP,  NSD_KIND_FC2D,
                                         NSD_KIND_FC3D, NSD_KIND_GFC2D, NSD_KIND_GFC3D,
                                         NSD_KIND_GMP,  NSD_KIND_RFC3D, NSD_KIND_RFC2D};
  if (!name) return NSD_KIND_UNKNOWN;
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k)
    if (strcmp(name, nsd_kind_name(kinds[k])) == 0) return kinds[k];
  return NSD_KIND_UNKNOWN;
}

/* ---- LCP -------------------------------------------------------------------- */

NsdLcp* nsd_lcp_create(NsdMatrix* M, const double* q) {
  if (!M) return NULL;
  NsdLcp* p = calloc(1, sizeof *p);
  if (!p) {
    nsd_matrix_destroy(M);
    return NULL;
  }
  p->n = M->rows;
  p->M = M;
  p->q = copy_vector(q, p->n);
  if (!p->q) {
    nsd_lcp_destroy(p);
    return NULL;
  }
  return p;
}

void nsd_lcp_destroy(NsdLcp* p) {
  if (!p) return;
  nsd_matrix_destroy(p->M);
  free(p->q);
  free(p);
}

int nsd_lcp_check(const NsdLcp* p, NsdReport* rep) {
  if (!p) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "LCP: problem is NULL");
    return 0;
  }
  if (p->n <= 0) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "LCP: size n = %d, expected n >= 1", p->n);
    return 0;
  }
  return check_square(p->M, p->n, "LCP", rep) && check_vector(p->q, p->n, "LCP", "q", rep);
}

double nsd_lcp_error(const NsdLcp* p, const double* z, double* w_out) {
  int n = p->n;
  double* w = w_out ? w_out : malloc((size_t)n * sizeof *w);
  if (!w) return INFINITY;
  memcpy(w, p->q, (size_t)n * sizeof *w);
  nsd_matrix_gemv(1.0, p->M, z, 1.0, w);
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    double e = z[i] - fmax(0.0, z[i] - w[i]);
    s += e * e;
  }
  double abs_err = sqrt(s), nq = norm2(p->q, n);
  if (!w_out) free(w);
  return nq > DBL_EPSILON ? abs_err / nq : abs_err;
}

/* ---- MLCP ------------------------------------------------------------------- */

/* Allocate an MLCP around M (taken) and q; rows get bounds set by the caller. */
static NsdMlcp* mlcp_alloc(NsdMatrix* M, const double* q) {
  if (!M) return NULL;
  NsdMlcp* p = calloc(1, sizeof *p);
  if (!p) {
    nsd_matrix_destroy(M);
    return NULL;
  }
  p->size = M->rows;
  p->M = M;
  int n = p->size;
  p->q = copy_vector(q, n);
  p->lb = copy_vector(NULL, n);
  p->ub = copy_vector(NULL, n);
  p->is_comp = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
  if (!p->q || !p->lb || !p->ub || !p->is_comp) {
    nsd_mlcp_destroy(p);
    return NULL;
  }
  return p;
}

/* Set row i free (equality) or complementarity, and count. */
static void mlcp_set_row(NsdMlcp* p, int i, int comp) {
  p->is_comp[i] = comp ? 1 : 0;
  p->lb[i] = comp ? 0.0 : -INFINITY;
  p->ub[i] = INFINITY;
  if (comp)
    p->n_comp++;
  else
    p->n_eq++;
}

NsdMlcp* nsd_mlcp_create(int n, int m, NsdMatrix* M, const double* q) {
  if (!M) return NULL;
  if (n < 0 || m < 0 || M->rows != n + m) {
    nsd_matrix_destroy(M);
    return NULL;
  }
  NsdMlcp* p = mlcp_alloc(M, q);
  if (!p) return NULL;
  for (int i = 0; i < n + m; ++i) mlcp_set_row(p, i, i >= n);
  return p;
}

NsdMlcp* nsd_mlcp_create_mixed(NsdMatrix* M, const double* q, const int* is_comp) {
  if (!M) return NULL;
  if (!is_comp) {
    nsd_matrix_destroy(M);
    return NULL;
  }
  NsdMlcp* p = mlcp_alloc(M, q);
  if (!p) return NULL;
  for (int i = 0; i < p->size; ++i) mlcp_set_row(p, i, is_comp[i]);
  return p;
}

NsdMlcp* nsd_mlcp_create_box(NsdMatrix* M, const double* q, const double* lb, const double* ub) {
  if (!M) return NULL;
  if (!lb || !ub) {
    nsd_matrix_destroy(M);
    return NULL;
  }
  NsdMlcp* p = mlcp_alloc(M, q);
  if (!p) return NULL;
  for (int i = 0; i < p->size; ++i) {
    p->lb[i] = lb[i];
    p->ub[i] = ub[i];
    if (lb[i] == -INFINITY && ub[i] == INFINITY) {
      p->is_comp[i] = 0;
      p->n_eq++;
    } else if (lb[i] == 0.0 && ub[i] == INFINITY) {
      p->is_comp[i] = 1;
      p->n_comp++;
    } else {
      p->is_comp[i] = -1;
    }
  }
  return p;
}

void nsd_mlcp_destroy(NsdMlcp* p) {
  if (!p) return;
  nsd_matrix_destroy(p->M);
  free(p->q);
  free(p->lb);
  free(p->ub);
  free(p->is_comp);
  free(p);
}

int nsd_mlcp_check(const NsdMlcp* p, NsdReport* rep) {
  if (!p) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "MLCP: problem is NULL");
    return 0;
  }
  if (p->size <= 0) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "MLCP: size = %d, expected >= 1", p->size);
    return 0;
  }
  if (!check_square(p->M, p->size, "MLCP", rep) || !check_vector(p->q, p->size, "MLCP", "q", rep))
    return 0;
  for (int i = 0; i < p->size; ++i) {
    if (isnan(p->lb[i]) || isnan(p->ub[i]) || p->lb[i] > p->ub[i] || p->lb[i] == INFINITY ||
        p->ub[i] == -INFINITY) {
      nsd_report_fail(rep, NSD_BAD_INPUT, "MLCP: row %d has bounds [%g, %g], expected lb <= ub", i,
                      p->lb[i], p->ub[i]);
      return 0;
    }
  }
  return 1;
}

double nsd_mlcp_error(const NsdMlcp* p, const double* z, double* w_out) {
  int n = p->size;
  double* w = w_out ? w_out : malloc((size_t)n * sizeof *w);
  if (!w) return INFINITY;
  memcpy(w, p->q, (size_t)n * sizeof *w);
  nsd_matrix_gemv(1.0, p->M, z, 1.0, w);
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    /* z - mid(lb, z - w, ub): w on free rows, the LCP natural map on complementarity rows */
    double y = fmin(p->ub[i], fmax(p->lb[i], z[i] - w[i]));
    double e = z[i] - y;
    s += e * e;
  }
  double abs_err = sqrt(s), nq = norm2(p->q, n);
  if (!w_out) free(w);
  return nq > DBL_EPSILON ? abs_err / nq : abs_err;
}

/* ---- local friction contact ------------------------------------------------- */

NsdFc* nsd_fc_create(int dim, int nc, NsdMatrix* M, const double* q, const double* mu) {
  if (!M) return NULL;
  NsdFc* p = calloc(1, sizeof *p);
  if (!p || dim < 2 || dim > 3 || nc < 0) {
    nsd_matrix_destroy(M);
    free(p);
    return NULL;
  }
  p->dim = dim;
  p->nc = nc;
  p->M = M;
  p->q = copy_vector(q, dim * nc);
  p->mu = copy_vector(mu, nc);
  if (!p->q || !p->mu) {
    nsd_fc_destroy(p);
    return NULL;
  }
  return p;
}

void nsd_fc_destroy(NsdFc* p) {
  if (!p) return;
  nsd_matrix_destroy(p->M);
  free(p->q);
  free(p->mu);
  free(p);
}

/* Friction coefficients must be finite and >= 0. */
static int check_mu(const double* mu, int nc, const char* what, NsdReport* rep) {
  if (!check_vector(mu, nc, what, "mu", rep)) return 0;
  for (int a = 0; a < nc; ++a) {
    if (mu[a] < 0.0) {
      nsd_report_fail(rep, NSD_BAD_INPUT, "%s: mu[%d] = %g, expected mu >= 0", what, a, mu[a]);
      return 0;
    }
  }
  return 1;
}

int nsd_fc_check(const NsdFc* p, NsdReport* rep) {
  if (!p) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "FC: problem is NULL");
    return 0;
  }
  if (p->dim != 2 && p->dim != 3) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "FC: dimension %d, expected 2 or 3", p->dim);
    return 0;
  }
  if (p->nc < 0) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "FC: %d contacts, expected >= 0", p->nc);
    return 0;
  }
  const char* what = p->dim == 2 ? "FC2D" : "FC3D";
  int m = p->dim * p->nc;
  return check_square(p->M, m, what, rep) && check_vector(p->q, m, what, "q", rep) &&
         check_mu(p->mu, p->nc, what, rep);
}

void nsd_fc_project_on_cone(int dim, double mu, double* y) {
  nsd_fcc_project_block(dim, mu, y);
}

double nsd_fc_error(const NsdFc* p, const double* r, double* u_out) {
  int d = p->dim, m = d * p->nc;
  double* u = u_out ? u_out : malloc((size_t)(m > 0 ? m : 1) * sizeof *u);
  if (!u) return INFINITY;
  if (m > 0) {
    memcpy(u, p->q, (size_t)m * sizeof *u);
    nsd_matrix_gemv(1.0, p->M, r, 1.0, u);
  }
  const double error = nsd_fc_siconos_error(d, p->nc, p->mu, norm2(p->q, m), r, u);
  if (!u_out) free(u);
  return error;
}

/* ---- global friction contact ------------------------------------------------ */

NsdGfc* nsd_gfc_create(int dim, int nc, NsdMatrix* M, NsdMatrix* H, const double* q,
                       const double* b, const double* mu) {
  NsdGfc* p = NULL;
  if (!M || !H || dim < 2 || dim > 3 || nc < 0 || !(p = calloc(1, sizeof *p))) {
    nsd_matrix_destroy(M);
    nsd_matrix_destroy(H);
    return NULL;
  }
  p->dim = dim;
  p->nc = nc;
  p->n = M->rows;
  p->M = M;
  p->H = H;
  p->q = copy_vector(q, p->n);
  p->b = copy_vector(b, dim * nc);
  p->mu = copy_vector(mu, nc);
  if (!p->q || !p->b || !p->mu) {
    nsd_gfc_destroy(p);
    return NULL;
  }
  return p;
}

void nsd_gfc_destroy(NsdGfc* p) {
  if (!p) return;
  nsd_matrix_destroy(p->M);
  nsd_matrix_destroy(p->H);
  free(p->q);
  free(p->b);
  free(p->mu);
  free(p);
}

int nsd_gfc_check(const NsdGfc* p, NsdReport* rep) {
  if (!p) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "GFC: problem is NULL");
    return 0;
  }
  if (p->dim != 2 && p->dim != 3) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "GFC: dimension %d, expected 2 or 3", p->dim);
    return 0;
  }
  int m = p->dim * p->nc;
  if (!check_square(p->M, p->n, "GFC", rep)) return 0;
  if (!p->H || p->H->rows != p->n || p->H->cols != m) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "GFC: H is %dx%d, expected %dx%d", p->H ? p->H->rows : 0,
                    p->H ? p->H->cols : 0, p->n, m);
    return 0;
  }
  if (!nsd_matrix_is_finite(p->H)) {
    nsd_report_fail(rep, NSD_BAD_INPUT, "GFC: H has a non-finite (NaN or inf) entry");
    return 0;
  }
  return check_vector(p->q, p->n, "GFC", "q", rep) && check_vector(p->b, m, "GFC", "b", rep) &&
         check_mu(p->mu, p->nc, "GFC", rep);
}

/* ---- any problem -------------------------------------------------------------- */

void nsd_problem_clear(NsdProblem* p) {
  if (!p) return;
  nsd_lcp_destroy(p->lcp);
  nsd_mlcp_destroy(p->mlcp);
  nsd_fc_destroy(p->fc);
  nsd_gfc_destroy(p->gfc);
  nsd_gmp_destroy(p->gmp);
  nsd_rfc_destroy(p->rfc);
  memset(p, 0, sizeof *p);
}

int nsd_problem_size(const NsdProblem* p) {
  if (!p) return 0;
  switch (p->kind) {
    case NSD_KIND_LCP:
      return p->lcp ? p->lcp->n : 0;
    case NSD_KIND_MLCP:
      return p->mlcp ? p->mlcp->size : 0;
    case NSD_KIND_FC2D:
    case NSD_KIND_FC3D:
      return p->fc ? p->fc->dim * p->fc->nc : 0;
    case NSD_KIND_GFC2D:
    case NSD_KIND_GFC3D:
      return p->gfc ? p->gfc->dim * p->gfc->nc : 0;
    case NSD_KIND_GMP:
      return p->gmp ? p->gmp->n : 0;
    case NSD_KIND_RFC3D:
    case NSD_KIND_RFC2D:
      return p->rfc ? p->rfc->dim * p->rfc->nc : 0;
    case NSD_KIND_UNKNOWN:
      break;
  }
  return 0;
}

int nsd_problem_contacts(const NsdProblem* p) {
  if (!p) return 0;
  if ((p->kind == NSD_KIND_FC2D || p->kind == NSD_KIND_FC3D) && p->fc) return p->fc->nc;
  if ((p->kind == NSD_KIND_GFC2D || p->kind == NSD_KIND_GFC3D) && p->gfc) return p->gfc->nc;
  if ((p->kind == NSD_KIND_RFC3D || p->kind == NSD_KIND_RFC2D) && p->rfc) return p->rfc->nc;
  return 0;
}
