/*
 * Shared machinery of the friction-contact Gauss-Seidel solvers: the
 * contact-aligned block operator (with a block-column index, so that a change
 * of one contact's reaction updates u = M r + q by one block column), the
 * Siconos error of a known (r, u), a seeded contact order and the common
 * start of the solvers.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "friction/fc_gs_internal.h"

/* 1 when M is sparse-block with one dim x dim block row and column per contact. */
static int contact_aligned(const NsdMatrix* M, int dim, int nc) {
  if (M->storage != NSD_SPARSE_BLOCK || !M->sbm) return 0;
  const NsdSparseBlock* s = M->sbm;
  if (s->n_block_rows != nc || s->n_block_cols != nc) return 0;
  for (int a = 0; a < nc; ++a)
    if (s->row_end[a] != dim * (a + 1) || s->col_end[a] != dim * (a + 1)) return 0;
  return 1;
}

NsdStatus nsd_fcgs_operator_init(NsdFcgsOperator* op, const NsdFc* p, NsdReport* rep) {
  memset(op, 0, sizeof *op);
  const int dim = p->dim, nc = p->nc, bs = dim * dim;
  op->dim = dim;
  op->nc = nc;

  // the contact-aligned sparse-block matrix: M itself or a converted copy
  if (nc == 0 || contact_aligned(p->M, dim, nc)) {
    op->matrix = p->M;
  } else {
    op->owned = nsd_matrix_convert(p->M, NSD_SPARSE_BLOCK, dim);
    if (!op->owned || !contact_aligned(op->owned, dim, nc)) {
      nsd_fcgs_operator_free(op);
      return nsd_report_fail(rep, NSD_FAILED,
                             "cannot convert M (%dx%d) to %dx%d blocks: out of memory", p->M->rows,
                             p->M->cols, dim, dim);
    }
    op->matrix = op->owned;
  }
  const NsdSparseBlock* s = op->matrix->sbm;
  const int nb = nc > 0 ? s->row_ptr[nc] : 0;

  // block-column index (a transposed block CSR holding pointers to the values)
  op->col_ptr = calloc((size_t)nc + 1, sizeof *op->col_ptr);
  op->col_row = malloc((size_t)(nb > 0 ? nb : 1) * sizeof *op->col_row);
  op->col_values = malloc((size_t)(nb > 0 ? nb : 1) * sizeof *op->col_values);
  op->diag = calloc((size_t)(nc > 0 ? nc : 1) * (size_t)bs, sizeof *op->diag);
  int* fill = malloc((size_t)(nc > 0 ? nc : 1) * sizeof *fill);
  if (!op->col_ptr || !op->col_row || !op->col_values || !op->diag || !fill) {
    free(fill);
    nsd_fcgs_operator_free(op);
    return nsd_report_fail(rep, NSD_FAILED, "out of memory, %d contacts", nc);
  }
  for (int k = 0; k < nb; ++k) op->col_ptr[s->col_index[k] + 1]++;
  for (int b = 0; b < nc; ++b) op->col_ptr[b + 1] += op->col_ptr[b];
  memcpy(fill, op->col_ptr, (size_t)nc * sizeof *fill);
  for (int a = 0; a < nc; ++a) {
    for (int k = s->row_ptr[a]; k < s->row_ptr[a + 1]; ++k) {
      const int b = s->col_index[k];
      const int slot = fill[b]++;
      op->col_row[slot] = a;
      op->col_values[slot] = s->values + s->value_start[k];
      // diagonal blocks, summed should the structure repeat one
      if (b == a)
        for (int e = 0; e < bs; ++e) op->diag[(size_t)a * bs + e] += s->values[s->value_start[k] + e];
    }
  }
  free(fill);
  return NSD_OK;
}

void nsd_fcgs_operator_free(NsdFcgsOperator* op) {
  if (!op) return;
  nsd_matrix_destroy(op->owned);
  free(op->col_ptr);
  free(op->col_row);
  free((void*)op->col_values);
  free(op->diag);
  memset(op, 0, sizeof *op);
}

int nsd_fcgs_check_diagonal(const NsdFcgsOperator* op, const char* solver, NsdReport* rep) {
  const int bs = op->dim * op->dim;
  for (int a = 0; a < op->nc; ++a) {
    const double wnn = op->diag[(size_t)a * bs];
    if (!(wnn > 0.0)) {
      nsd_report_fail(rep, NSD_BAD_INPUT,
                      "contact %d: normal diagonal entry W_aa[0][0] = M[%d][%d] = %g <= 0; %s "
                      "needs a positive normal entry in every diagonal block",
                      a, op->dim * a, op->dim * a, wnn, solver);
      return 0;
    }
  }
  return 1;
}

void nsd_fcgs_velocity(const NsdFcgsOperator* op, const double* q, const double* r, double* u) {
  const int m = op->dim * op->nc;
  if (m == 0) return;
  memcpy(u, q, (size_t)m * sizeof *u);
  nsd_matrix_gemv(1.0, op->matrix, r, 1.0, u);
}

void nsd_fcgs_column_update(const NsdFcgsOperator* op, int b, const double* dr, double* u) {
  const int d = op->dim;
  for (int k = op->col_ptr[b]; k < op->col_ptr[b + 1]; ++k) {
    const double* B = op->col_values[k];
    double* ua = u + (size_t)d * op->col_row[k];
    // ua += B dr with B column-major d x d
    if (d == 3) {
      ua[0] += B[0] * dr[0] + B[3] * dr[1] + B[6] * dr[2];
      ua[1] += B[1] * dr[0] + B[4] * dr[1] + B[7] * dr[2];
      ua[2] += B[2] * dr[0] + B[5] * dr[1] + B[8] * dr[2];
    } else {
      ua[0] += B[0] * dr[0] + B[2] * dr[1];
      ua[1] += B[1] * dr[0] + B[3] * dr[1];
    }
  }
}

double nsd_fcgs_norm(const double* x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  return sqrt(s);
}

double nsd_fcgs_error(int dim, int nc, const double* mu, double q_norm, const double* r,
                      const double* u) {
  const int m = dim * nc;
  double s = 0.0;
  for (int a = 0; a < nc; ++a) {
    const double* ra = r + dim * a;
    const double* ua = u + dim * a;
    const double ut = dim == 3 ? hypot(ua[1], ua[2]) : fabs(ua[1]);
    // y = r - (u + mu ||u_T|| e_n), e = r - Pi(y)
    double y[3];
    y[0] = ra[0] - ua[0] - mu[a] * ut;
    for (int k = 1; k < dim; ++k) y[k] = ra[k] - ua[k];
    nsd_fc_project_on_cone(dim, mu[a], y);
    for (int k = 0; k < dim; ++k) {
      const double e = ra[k] - y[k];
      s += e * e;
    }
  }
  const double scale = fmax(q_norm, fmax(nsd_fcgs_norm(r, m), nsd_fcgs_norm(u, m)));
  return scale > DBL_EPSILON ? sqrt(s) / scale : sqrt(s);
}

/* splitmix64 step. */
static uint64_t rng_next(NsdFcgsRng* rng) {
  uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void nsd_fcgs_rng_seed(NsdFcgsRng* rng, unsigned seed) { rng->state = (uint64_t)seed; }

void nsd_fcgs_shuffle(NsdFcgsRng* rng, int* order, int n) {
  for (int i = n - 1; i > 0; --i) {
    // j uniform in [0, i] (the modulo bias is below 2^-32 for any int n)
    const int j = (int)(rng_next(rng) % (uint64_t)(i + 1));
    const int t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
}

NsdStatus nsd_fcgs_begin(const char* name, int dim, const NsdFc* p, double* r, double* u,
                         const NsdSolverOptions* options, NsdSolverOptions* opt,
                         NsdReport* rep) {
  nsd_report_start(rep, name);
  if (options)
    *opt = *options;
  else
    nsd_solver_options_default(opt);

  // the problem, then its dimension
  if (!nsd_fc_check(p, rep)) return rep->status;
  if (p->dim != dim)
    return nsd_report_fail(rep, NSD_BAD_INPUT, "%s: problem of dimension %d, expected %d", name,
                           p->dim, dim);
  const int m = p->dim * p->nc;
  if (m > 0 && (!r || !u))
    return nsd_report_fail(rep, NSD_BAD_INPUT, "%s: r or u is NULL", name);

  // generic options
  if (opt->max_iterations < 0)
    return nsd_report_fail(rep, NSD_BAD_INPUT, "max_iterations=%d, expected >= 0",
                           opt->max_iterations);
  if (!(opt->tolerance >= 0.0))
    return nsd_report_fail(rep, NSD_BAD_INPUT, "tolerance=%g, expected >= 0", opt->tolerance);
  if (!(opt->relaxation > 0.0 && opt->relaxation < 2.0))
    return nsd_report_fail(rep, NSD_BAD_INPUT, "relaxation=%g, not in (0,2)", opt->relaxation);
  if (!(opt->time_limit >= 0.0))
    return nsd_report_fail(rep, NSD_BAD_INPUT, "time_limit=%g, expected >= 0", opt->time_limit);

  // starting point
  if (opt->warm_start) {
    if (!nsd_all_finite(r, (size_t)m))
      return nsd_report_fail(rep, NSD_BAD_INPUT, "%s: warm start r is not finite", name);
  } else {
    for (int i = 0; i < m; ++i) r[i] = 0.0;
  }
  return NSD_OK;
}

int nsd_fcgs_time_over(const NsdSolverOptions* opt, const NsdReport* rep) {
  return opt->time_limit > 0.0 && nsd_wall_time() - rep->start_time > opt->time_limit;
}

double nsd_fcgs_block_lambda_max(int dim, const double* W) {
  if (dim == 2) {
    const double a = W[0], d = W[3], b = 0.5 * (W[1] + W[2]);
    const double h = 0.5 * (a - d);
    return 0.5 * (a + d) + sqrt(h * h + b * b);
  }
  // symmetric part
  const double a00 = W[0], a11 = W[4], a22 = W[8];
  const double a01 = 0.5 * (W[1] + W[3]), a02 = 0.5 * (W[2] + W[6]), a12 = 0.5 * (W[5] + W[7]);
  const double p1 = a01 * a01 + a02 * a02 + a12 * a12;
  if (p1 == 0.0) return fmax(a00, fmax(a11, a22));
  // shift by the mean eigenvalue, scale, and solve the cubic by its angle
  const double mean = (a00 + a11 + a22) / 3.0;
  const double d0 = a00 - mean, d1 = a11 - mean, d2 = a22 - mean;
  const double p = sqrt((d0 * d0 + d1 * d1 + d2 * d2 + 2.0 * p1) / 6.0);
  const double b00 = d0 / p, b11 = d1 / p, b22 = d2 / p;
  const double b01 = a01 / p, b02 = a02 / p, b12 = a12 / p;
  const double det = b00 * (b11 * b22 - b12 * b12) - b01 * (b01 * b22 - b12 * b02) +
                     b02 * (b01 * b12 - b11 * b02);
  const double half = fmax(-1.0, fmin(1.0, 0.5 * det));
  const double phi = acos(half) / 3.0;
  return mean + 2.0 * p * cos(phi);
}

NsdStatus nsd_fcgs_iterate(const NsdFcgsOperator* op, const NsdFc* p, double* r, double* u,
                           const NsdSolverOptions* opt, NsdReport* rep, NsdFcgsRule rule,
                           const void* context) {
  const int d = op->dim, nc = op->nc, m = d * nc, bs = d * d;
  const double omega = opt->relaxation;
  int* order = malloc((size_t)(nc > 0 ? nc : 1) * sizeof *order);
  if (!order) return nsd_report_fail(rep, NSD_FAILED, "out of memory, %d contacts", nc);
  for (int a = 0; a < nc; ++a) order[a] = a;
  NsdFcgsRng rng;
  nsd_fcgs_rng_seed(&rng, opt->nsgs.seed);
  const double q_norm = nsd_fcgs_norm(p->q, m);

  // error of the starting point; at least one sweep is always done, so that a
  // starting point within a loose tolerance is still refined (as Siconos does)
  nsd_fcgs_velocity(op, p->q, r, u);
  double error = nsd_fcgs_error(d, nc, p->mu, q_norm, r, u);
  NsdStatus status = NSD_OK;
  for (int sweep = 1; sweep <= opt->max_iterations && ((sweep == 1 && nc > 0) || !(error <= opt->tolerance));
       ++sweep) {
    // one sweep over the contacts
    if (opt->nsgs.shuffle) nsd_fcgs_shuffle(&rng, order, nc);
    for (int i = 0; i < nc; ++i) {
      const int a = order[i];
      double* ra = r + (size_t)d * a;
      double rnew[3], dr[3];
      rule(context, a, op->diag + (size_t)a * bs, p->mu[a], ra, u + (size_t)d * a, rnew);
      // relaxation, kept in the cone
      if (omega != 1.0) {
        for (int k = 0; k < d; ++k) rnew[k] = omega * rnew[k] + (1.0 - omega) * ra[k];
        if (omega > 1.0) nsd_fc_project_on_cone(d, p->mu[a], rnew);
      }
      // apply the change and its effect on every velocity
      int changed = 0;
      for (int k = 0; k < d; ++k) {
        dr[k] = rnew[k] - ra[k];
        changed |= dr[k] != 0.0;
      }
      if (changed) {
        for (int k = 0; k < d; ++k) ra[k] = rnew[k];
        nsd_fcgs_column_update(op, a, dr, u);
      }
    }
    rep->iterations = sweep;

    // the error of the iterate, on an exact u regularly and before stopping
    const int refreshed = sweep % NSD_FCGS_REFRESH_SWEEPS == 0;
    if (refreshed) nsd_fcgs_velocity(op, p->q, r, u);
    error = nsd_fcgs_error(d, nc, p->mu, q_norm, r, u);
    if (error <= opt->tolerance && !refreshed) {
      nsd_fcgs_velocity(op, p->q, r, u);
      error = nsd_fcgs_error(d, nc, p->mu, q_norm, r, u);
    }
    nsd_report_record(rep, error);
    if (!isfinite(error)) {
      status = nsd_report_fail(rep, NSD_FAILED, "diverged at sweep %d (error %g)", sweep, error);
      break;
    }
    if (error <= opt->tolerance) break;
    if (nsd_fcgs_time_over(opt, rep)) {
      status = nsd_report_fail(rep, NSD_MAX_ITERATIONS,
                               "time limit %g s reached after %d sweeps (error %.3e)",
                               opt->time_limit, sweep, error);
      break;
    }
  }
  nsd_fcgs_velocity(op, p->q, r, u);
  free(order);
  return status;
}
