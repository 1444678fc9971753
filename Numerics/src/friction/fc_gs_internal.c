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

#include "friction/fc_anderson.h"
#include "friction/fc_drift.h"
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

/* 1 when every stored block M_ab has its mirror M_ba stored with M_ba = M_ab^T up
 * to rounding: |M_ab,ij - M_ba,ji| <= NSD_FCGS_SYMMETRY_TOL sqrt(w_a w_b), w_a
 * the largest diagonal entry of M_aa (a bound of the entries of a symmetric
 * positive semidefinite M). Block rows must be sorted by block column. One
 * pass over the blocks with a cursor per block row. */
#define NSD_FCGS_SYMMETRY_TOL (64.0 * DBL_EPSILON)
static int block_symmetric(const NsdFcgsOperator* op, const NsdSparseBlock* s) {
  const int d = op->dim, nc = op->nc, bs = d * d;
  for (int a = 0; a < nc; ++a)
    for (int k = s->row_ptr[a] + 1; k < s->row_ptr[a + 1]; ++k)
      if (s->col_index[k] <= s->col_index[k - 1]) return 0;
  double* wmax = malloc((size_t)(nc > 0 ? nc : 1) * sizeof *wmax);
  int* cursor = malloc((size_t)(nc > 0 ? nc : 1) * sizeof *cursor);
  if (!wmax || !cursor) {
    free(wmax);
    free(cursor);
    return 0;
  }
  for (int a = 0; a < nc; ++a) {
    const double* D = op->diag[a];
    double w = 0.0;
    for (int i = 0; i < d; ++i) w = fmax(w, fabs(D[i * (d + 1)]));
    wmax[a] = w;
    cursor[a] = s->row_ptr[a];
  }
  // each pair (a, b), a < b, is met once from block row a; the blocks below the
  // diagonal must all be the mirrors met so (counted)
  size_t lower = 0, matched = 0;
  int ok = 1;
  for (int a = 0; a < nc && ok; ++a) {
    for (int k = s->row_ptr[a]; k < s->row_ptr[a + 1] && ok; ++k) {
      const int b = s->col_index[k];
      if (b < a) {
        ++lower;
        continue;
      }
      if (b == a) continue;
      // the mirror (b, a): block rows are sorted, rows a visited in increasing order
      int t = cursor[b];
      while (t < s->row_ptr[b + 1] && s->col_index[t] < a) ++t;
      cursor[b] = t;
      if (t == s->row_ptr[b + 1] || s->col_index[t] != a) {
        ok = 0;
        break;
      }
      ++matched;
      const double* B = s->values + s->value_start[k];
      const double* C = s->values + s->value_start[t];
      const double tol = NSD_FCGS_SYMMETRY_TOL * sqrt(wmax[a] * wmax[b]);
      for (int i = 0; i < d && ok; ++i)
        for (int j = 0; j < d; ++j)
          if (!(fabs(B[i + d * j] - C[j + d * i]) <= tol)) {
            ok = 0;
            break;
          }
    }
  }
  (void)bs;
  free(wmax);
  free(cursor);
  return ok && lower == matched;
}

NsdStatus nsd_fcgs_operator_init(NsdFcgsOperator* op, const NsdFc* p, NsdReport* rep) {
  static const double zero_block[9] = {0.0};
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

  // diagonal blocks: pointers into M; a missing or repeated one gets its own copy
  op->diag = malloc((size_t)(nc > 0 ? nc : 1) * sizeof *op->diag);
  if (!op->diag) {
    nsd_fcgs_operator_free(op);
    return nsd_report_fail(rep, NSD_FAILED, "out of memory, %d contacts", nc);
  }
  int need_own = 0;
  for (int a = 0; a < nc; ++a) {
    int found = 0;
    op->diag[a] = zero_block;
    for (int k = s->row_ptr[a]; k < s->row_ptr[a + 1]; ++k)
      if (s->col_index[k] == a) {
        op->diag[a] = s->values + s->value_start[k];
        ++found;
      }
    if (found != 1) need_own = 1;
  }
  if (need_own) {
    // summed should the structure repeat one, zero when absent
    op->diag_owned = calloc((size_t)(nc > 0 ? nc : 1) * (size_t)bs, sizeof *op->diag_owned);
    if (!op->diag_owned) {
      nsd_fcgs_operator_free(op);
      return nsd_report_fail(rep, NSD_FAILED, "out of memory, %d contacts", nc);
    }
    for (int a = 0; a < nc; ++a) {
      double* D = op->diag_owned + (size_t)a * bs;
      for (int k = s->row_ptr[a]; k < s->row_ptr[a + 1]; ++k)
        if (s->col_index[k] == a)
          for (int e = 0; e < bs; ++e) D[e] += s->values[s->value_start[k] + e];
      op->diag[a] = D;
    }
  }

  // block columns: the transposed block rows when M is symmetric, else an index
  if (nc == 0 || (!need_own && block_symmetric(op, s))) {
    op->symmetric = 1;
    return NSD_OK;
  }
  op->col_ptr = calloc((size_t)nc + 1, sizeof *op->col_ptr);
  op->col_row = malloc((size_t)(nb > 0 ? nb : 1) * sizeof *op->col_row);
  op->col_block = malloc((size_t)(nb > 0 ? nb : 1) * sizeof *op->col_block);
  int* fill = malloc((size_t)(nc > 0 ? nc : 1) * sizeof *fill);
  if (!op->col_ptr || !op->col_row || !op->col_block || !fill) {
    free(fill);
    nsd_fcgs_operator_free(op);
    return nsd_report_fail(rep, NSD_FAILED, "out of memory, %d contacts", nc);
  }
  for (int k = 0; k < nb; ++k) op->col_ptr[s->col_index[k] + 1]++;
  for (int b = 0; b < nc; ++b) op->col_ptr[b + 1] += op->col_ptr[b];
  memcpy(fill, op->col_ptr, (size_t)nc * sizeof *fill);
  for (int a = 0; a < nc; ++a) {
    for (int k = s->row_ptr[a]; k < s->row_ptr[a + 1]; ++k) {
      const int slot = fill[s->col_index[k]]++;
      op->col_row[slot] = a;
      op->col_block[slot] = k;
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
  free(op->col_block);
  free((void*)op->diag);
  free(op->diag_owned);
  memset(op, 0, sizeof *op);
}

int nsd_fcgs_check_diagonal(const NsdFcgsOperator* op, const char* solver, NsdReport* rep) {
  for (int a = 0; a < op->nc; ++a) {
    const double wnn = op->diag[a][0];
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

NsdStatus nsd_fcgs_operator_checked(NsdFcgsOperator* op, const NsdFc* problem, const char* solver,
                                    NsdReport* rep) {
  const NsdStatus status = nsd_fcgs_operator_init(op, problem, rep);
  if (status != NSD_OK) return status;
  if (!nsd_fcgs_check_diagonal(op, solver, rep)) {
    nsd_fcgs_operator_free(op);
    return rep->status;
  }
  return NSD_OK;
}

NsdStatus nsd_fcgs_end(NsdStatus status, NsdReport* rep, double tolerance) {
  if (status != NSD_OK && !(rep->residual <= tolerance)) return status;
  return nsd_report_finish(rep, tolerance);
}

void nsd_fcgs_velocity(const NsdFcgsOperator* op, const double* q, const double* r, double* u) {
  const int m = op->dim * op->nc;
  if (m == 0) return;
  memcpy(u, q, (size_t)m * sizeof *u);
  nsd_matrix_gemv(1.0, op->matrix, r, 1.0, u);
}

void nsd_fcgs_column_update(const NsdFcgsOperator* op, int b, const double* dr, double* u) {
  if (op->dim == 3) {
    nsd_fcgs_column_update3(op, b, dr, u);
    return;
  }
  const NsdSparseBlock* s = op->matrix->sbm;
  if (op->symmetric) {
    // u_a += M_ba^T dr along block row b
    for (int k = s->row_ptr[b]; k < s->row_ptr[b + 1]; ++k) {
      const double* B = s->values + s->value_start[k];
      double* ua = u + (size_t)2 * s->col_index[k];
      ua[0] += B[0] * dr[0] + B[1] * dr[1];
      ua[1] += B[2] * dr[0] + B[3] * dr[1];
    }
    return;
  }
  for (int k = op->col_ptr[b]; k < op->col_ptr[b + 1]; ++k) {
    const double* B = s->values + s->value_start[op->col_block[k]];
    double* ua = u + (size_t)2 * op->col_row[k];
    // ua += B dr with B column-major 2 x 2
    ua[0] += B[0] * dr[0] + B[2] * dr[1];
    ua[1] += B[1] * dr[0] + B[3] * dr[1];
  }
}

double nsd_fcgs_norm(const double* x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  return sqrt(s);
}

/* splitmix64 step. */
static uint64_t rng_next(NsdFcgsRng* rng) {
  uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void nsd_fcgs_rng_seed(NsdFcgsRng* rng, unsigned seed) {
  rng->state = (uint64_t)seed;
}

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
                         const NsdSolverOptions* options, NsdSolverOptions* opt, NsdReport** report,
                         NsdReport* own) {
  if (!*report) {
    memset(own, 0, sizeof *own);
    *report = own;
  }
  NsdReport* rep = *report;
  // the common options, then the problem and its dimension
  if (nsd_solver_begin(name, options, opt, rep) != NSD_OK) return NSD_BAD_INPUT;
  if (!nsd_fc_check(p, rep)) return rep->status;
  if (p->dim != dim)
    return nsd_report_fail(rep, NSD_BAD_INPUT, "%s: problem of dimension %d, expected %d", name,
                           p->dim, dim);
  const int m = p->dim * p->nc;
  if (m > 0 && (!r || !u)) return nsd_report_fail(rep, NSD_BAD_INPUT, "%s: r or u is NULL", name);

  // starting point
  if (opt->warm_start) {
    if (!nsd_all_finite(r, (size_t)m))
      return nsd_report_fail(rep, NSD_BAD_INPUT, "%s: warm start r is not finite", name);
  } else {
    for (int i = 0; i < m; ++i) r[i] = 0.0;
  }
  return NSD_OK;
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
  const double det =
      b00 * (b11 * b22 - b12 * b12) - b01 * (b01 * b22 - b12 * b02) + b02 * (b01 * b12 - b11 * b02);
  const double half = fmax(-1.0, fmin(1.0, 0.5 * det));
  const double phi = acos(half) / 3.0;
  return mean + 2.0 * p * cos(phi);
}

/* After an accelerated step: each contact's r back in its cone, u corrected by the
 * block column of the change (u stays M r + q up to round-off). */
static void project_accelerated(const NsdFcgsOperator* op, const NsdFc* p, double* r, double* u) {
  const int d = op->dim;
  for (int a = 0; a < op->nc; ++a) {
    double* ra = r + (size_t)d * a;
    double before[3] = {ra[0], ra[1], d > 2 ? ra[2] : 0.0};
    nsd_fc_project_on_cone(d, p->mu[a], ra);
    double dr[3] = {ra[0] - before[0], ra[1] - before[1], d > 2 ? ra[2] - before[2] : 0.0};
    if (dr[0] != 0.0 || dr[1] != 0.0 || dr[2] != 0.0) nsd_fcgs_column_update(op, a, dr, u);
  }
}

/* The drift jump (fc_drift.h): r += t d, each contact back in its cone, u corrected by the
 * block column of each contact's change. */
static void jump(const NsdFcgsOperator* op, const NsdFc* p, double t, const double* d, double* r,
                 double* u) {
  const int dim = op->dim;
  for (int a = 0; a < op->nc; ++a) {
    double* ra = r + (size_t)dim * a;
    const double* da = d + (size_t)dim * a;
    const double before[3] = {ra[0], ra[1], dim > 2 ? ra[2] : 0.0};
    for (int k = 0; k < dim; ++k) ra[k] += t * da[k];
    nsd_fc_project_on_cone(dim, p->mu[a], ra);
    const double dr[3] = {ra[0] - before[0], ra[1] - before[1], dim > 2 ? ra[2] - before[2] : 0.0};
    if (dr[0] != 0.0 || dr[1] != 0.0 || dr[2] != 0.0) nsd_fcgs_column_update(op, a, dr, u);
  }
}

NsdStatus nsd_fcgs_iterate_sweeps(const NsdFcgsOperator* op, const NsdFc* p, double* r, double* u,
                                  const NsdSolverOptions* opt, NsdReport* rep,
                                  NsdFcgsSweep sweep_fn, const void* context) {
  const int d = op->dim, nc = op->nc, m = d * nc;
  const double omega = opt->relaxation;
  // the contact order: only a shuffled one is stored
  int* order = NULL;
  if (opt->nsgs.shuffle) {
    order = malloc((size_t)(nc > 0 ? nc : 1) * sizeof *order);
    if (!order) return nsd_report_fail(rep, NSD_FAILED, "out of memory, %d contacts", nc);
    for (int a = 0; a < nc; ++a) order[a] = a;
  }
  NsdFcgsRng rng;
  nsd_fcgs_rng_seed(&rng, opt->nsgs.seed);
  const double q_norm = nsd_fcgs_norm(p->q, m);
  // Anderson acceleration of the sweeps (fc_anderson.h): r, with u carried
  NsdFcAnderson aa;
  memset(&aa, 0, sizeof aa);
  if (opt->nsgs.anderson > 0 && nc > 0 && !nsd_fca_init(&aa, opt->nsgs.anderson, m, m, 1)) {
    nsd_fca_free(&aa);
    free(order);
    return nsd_report_fail(rep, NSD_FAILED, "out of memory, Anderson history of %d x %d",
                           opt->nsgs.anderson, m);
  }

  // the drift watch (fc_drift.h)
  NsdFcDrift drift;
  nsd_fcd_init(&drift, d, nc, opt->nsgs.drift, opt->nsgs.anderson > 0);

  // error of the starting point; at least one sweep is always done, so that a
  // starting point within a loose tolerance is still refined (as Siconos does)
  nsd_fcgs_velocity(op, p->q, r, u);
  int exact = 1; /* u = M r + q recomputed since r last changed */
  double error = nsd_fc_siconos_error(d, nc, p->mu, q_norm, r, u);
  NsdStatus status = NSD_OK;
  const int check_every = opt->pgs.check_every > 1 ? opt->pgs.check_every : 1;
  for (int sweep = 1;
       sweep <= opt->max_iterations && ((sweep == 1 && nc > 0) || !(error <= opt->tolerance));
       ++sweep) {
    if (order) nsd_fcgs_shuffle(&rng, order, nc);
    if (aa.memory) nsd_fca_before(&aa, r);
    if (sweep % check_every == 0) nsd_fcd_before(&drift, r);
    sweep_fn(context, op, p, order, omega, r, u);
    if (aa.memory && nsd_fca_after(&aa, r, u, NULL, NULL)) project_accelerated(op, p, r, u);
    exact = 0;
    rep->iterations = sweep;

    // the error of the iterate, on an exact u regularly and before stopping
    const int refreshed = sweep % NSD_FCGS_REFRESH_SWEEPS == 0;
    if (refreshed) {
      nsd_fcgs_velocity(op, p->q, r, u);
      exact = 1;
    }
    // the error every pgs.check_every sweeps and at the last one (a pass over the contacts:
    // on large piles about a tenth of a sweep's cost)
    if (sweep % check_every == 0 || sweep == opt->max_iterations) {
      error = nsd_fc_siconos_error(d, nc, p->mu, q_norm, r, u);
      if (error <= opt->tolerance && !refreshed) {
        nsd_fcgs_velocity(op, p->q, r, u);
        exact = 1;
        error = nsd_fc_siconos_error(d, nc, p->mu, q_norm, r, u);
      }
      nsd_report_record(rep, error);
      if (!isfinite(error)) {
        status = nsd_report_fail(rep, NSD_FAILED, "diverged at sweep %d (error %g)", sweep, error);
        break;
      }
      if (error <= opt->tolerance) break;
      const double* dr = NULL;
      const double t = sweep < opt->max_iterations
                           ? nsd_fcd_check(&drift, r, p->mu, NULL, error, NULL, &dr)
                           : 0.0;
      if (t > 0.0) {
        jump(op, p, t, dr, r, u);
        nsd_fcd_jumped(&drift);
        if (aa.memory) nsd_fca_reset(&aa);
      }
    }
    if (nsd_time_up(rep, opt->time_limit)) {
      status = nsd_report_fail(rep, NSD_MAX_ITERATIONS,
                               "time limit %g s reached after %d sweeps (error %.3e)",
                               opt->time_limit, sweep, error);
      break;
    }
  }
  if (!exact) {
    nsd_fcgs_velocity(op, p->q, r, u);
    error = nsd_fc_siconos_error(d, nc, p->mu, q_norm, r, u);
  }
  rep->residual = error;
  rep->drift_jumps = drift.jumps;
  nsd_fcd_free(&drift);
  nsd_fca_free(&aa);
  free(order);
  return status;
}

/* The per-contact rule of nsd_fcgs_iterate and its context. */
typedef struct RuleSweep {
  NsdFcgsRule rule;
  const void* context;
} RuleSweep;

static void rule_sweep(const void* context, const NsdFcgsOperator* op, const NsdFc* p,
                       const int* order, double omega, double* r, double* u) {
  const RuleSweep* rs = context;
  const int d = op->dim, nc = op->nc;
  for (int i = 0; i < nc; ++i) {
    const int a = order ? order[i] : i;
    double* ra = r + (size_t)d * a;
    double rnew[3], dr[3];
    rs->rule(rs->context, a, op->diag[a], p->mu[a], ra, u + (size_t)d * a, rnew);
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
}

NsdStatus nsd_fcgs_iterate(const NsdFcgsOperator* op, const NsdFc* p, double* r, double* u,
                           const NsdSolverOptions* opt, NsdReport* rep, NsdFcgsRule rule,
                           const void* context) {
  const RuleSweep rs = {rule, context};
  return nsd_fcgs_iterate_sweeps(op, p, r, u, opt, rep, rule_sweep, &rs);
}
