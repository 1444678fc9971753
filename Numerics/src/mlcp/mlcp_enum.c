/*
 * Direct enumeration for the box-constrained MLCP. Every bounded row is either
 * at its lower bound (w_i >= 0), at its upper bound (w_i <= 0) or basic
 * (w_i = 0, z_i inside its bounds); free rows are always basic and fixed rows
 * always at their bound. Each choice gives a linear system in the basic z,
 * solved by LU; the first choice whose solution is feasible and meets the
 * tolerance is returned.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mlcp_internal.h"

/* State of a bounded row in one enumerated case. */
enum { STATE_LOWER = 0, STATE_UPPER = 1, STATE_BASIC = 2, STATE_FIXED = 3 };

/* Cases between two looks at the clock. */
#define ENUM_CLOCK_STRIDE 256

/* Smallest relative slack of the feasibility test, for rounding (tolerance 0). */
#define ENUM_SLACK_FLOOR (64 * DBL_EPSILON)

/* Working arrays of one enumeration, freed together. */
typedef struct EnumWork {
  double* M;     /* dense copy of M, n x n */
  double* a;     /* basic block M_BB, then its LU */
  double* rhs;   /* right-hand side, then basic solution */
  double* res;   /* refinement residual */
  double* zc;    /* candidate z */
  double* wc;    /* candidate w */
  double* best;  /* best z seen */
  int* pivots;   /* LU pivots */
  int* basic;    /* indices of the basic rows */
  int* bounded;  /* indices of the bounded (non-free, non-fixed) rows */
  int* n_states; /* per bounded row: number of states (2 or 3) */
  int* states;   /* per bounded row: its allowed states */
  int* start;    /* per bounded row: starting state index */
  int* digit;    /* per bounded row: mixed-radix counter */
  int* state;    /* per row: state in the current case */
} EnumWork;

static void enum_work_free(EnumWork* k) {
  free(k->M);
  free(k->a);
  free(k->rhs);
  free(k->res);
  free(k->zc);
  free(k->wc);
  free(k->best);
  free(k->pivots);
  free(k->basic);
  free(k->bounded);
  free(k->n_states);
  free(k->states);
  free(k->start);
  free(k->digit);
  free(k->state);
}

/* Allowed states of a bounded row, the lower bound first when there is one. */
static int row_states(MlcpRowKind kind, int* out) {
  switch (kind) {
    case MLCP_ROW_LOWER:
      out[0] = STATE_LOWER;
      out[1] = STATE_BASIC;
      return 2;
    case MLCP_ROW_UPPER:
      out[0] = STATE_UPPER;
      out[1] = STATE_BASIC;
      return 2;
    default:
      out[0] = STATE_LOWER;
      out[1] = STATE_UPPER;
      out[2] = STATE_BASIC;
      return 3;
  }
}

/*
 * Solve the case given by k->state: z at bounds on the non-basic rows, M_BB z_B
 * = -(q_B + M_BN z_N) on the basic ones, with one step of iterative refinement.
 * Returns 1 if the system was solved, leaving the candidate in k->zc.
 */
static int solve_case(const NsdMlcp* p, EnumWork* k) {
  const int n = p->size;
  int nb = 0;
  for (int i = 0; i < n; ++i) {
    int s = k->state[i];
    if (s == STATE_BASIC) {
      k->basic[nb++] = i;
      k->zc[i] = 0.0;
    } else {
      k->zc[i] = s == STATE_UPPER ? p->ub[i] : p->lb[i];
    }
  }

  /* right-hand side -(q_B + M_BN z_N), with z_B = 0 in zc */
  for (int r = 0; r < nb; ++r) {
    int i = k->basic[r];
    double s = p->q[i];
    for (int j = 0; j < n; ++j)
      if (k->zc[j] != 0.0) s += k->M[i + (size_t)j * n] * k->zc[j];
    k->rhs[r] = -s;
  }

  /* factor the basic block M_BB and solve */
  for (int c = 0; c < nb; ++c)
    for (int r = 0; r < nb; ++r)
      k->a[r + (size_t)c * nb] = k->M[k->basic[r] + (size_t)k->basic[c] * n];
  if (nsd_dense_lu_factor(k->a, nb, k->pivots, NULL) != 0) return 0;
  if (nsd_dense_lu_solve(k->a, nb, k->pivots, k->rhs, 1) != 0) return 0;
  for (int r = 0; r < nb; ++r) k->zc[k->basic[r]] = k->rhs[r];

  /* one refinement step: residual of the basic rows, corrected by the same LU */
  for (int r = 0; r < nb; ++r) {
    int i = k->basic[r];
    double s = p->q[i];
    for (int j = 0; j < n; ++j) s += k->M[i + (size_t)j * n] * k->zc[j];
    k->res[r] = s;
  }
  if (nsd_dense_lu_solve(k->a, nb, k->pivots, k->res, 1) != 0) return 0;
  for (int r = 0; r < nb; ++r) k->zc[k->basic[r]] -= k->res[r];
  return 1;
}

/* 1 if the candidate respects its bounds (basic rows) and the signs of w (others). */
static int feasible(const NsdMlcp* p, const EnumWork* k, double slack) {
  const int n = p->size;
  for (int i = 0; i < n; ++i) {
    int s = k->state[i];
    double zi = k->zc[i];
    if (s == STATE_BASIC) {
      if (!(zi >= p->lb[i] - slack && zi <= p->ub[i] + slack)) return 0;
      continue;
    }
    if (s == STATE_FIXED) continue;
    double wi = p->q[i];
    for (int j = 0; j < n; ++j) wi += k->M[i + (size_t)j * n] * k->zc[j];
    if (s == STATE_LOWER && !(wi >= -slack)) return 0;
    if (s == STATE_UPPER && !(wi <= slack)) return 0;
  }
  return 1;
}

NsdStatus nsd_mlcp_enum(const NsdMlcp* problem, double* z, double* w,
                        const NsdSolverOptions* options, NsdReport* report) {
  NsdReport local = {0};
  if (!report) report = &local;
  NsdSolverOptions opt;
  // reject bad input before allocating
  if (nsd_solver_begin("mlcp_enum", options, &opt, report) != NSD_OK) return NSD_BAD_INPUT;
  if (!mlcp_begin(problem, z, w, &opt, report)) return report->status;
  const int n = problem->size;
  int n_bounded = 0;
  for (int i = 0; i < n; ++i) {
    MlcpRowKind kind = mlcp_row_kind(problem, i);
    if (kind != MLCP_ROW_FREE && kind != MLCP_ROW_FIXED) ++n_bounded;
  }
  if (n_bounded > opt.enumerative.max_size)
    return nsd_report_fail(
        report, NSD_BAD_INPUT,
        "%d bounded rows > enumerative.max_size=%d (2 or 3 cases per bounded row)", n_bounded,
        opt.enumerative.max_size);

  EnumWork k;
  memset(&k, 0, sizeof k);
  size_t nn = (size_t)(n ? n : 1), nbd = (size_t)(n_bounded ? n_bounded : 1);
  k.M = mlcp_dense_copy(problem->M);
  k.a = malloc(nn * nn * sizeof *k.a);
  k.rhs = malloc(nn * sizeof *k.rhs);
  k.res = malloc(nn * sizeof *k.res);
  k.zc = malloc(nn * sizeof *k.zc);
  k.wc = malloc(nn * sizeof *k.wc);
  k.best = malloc(nn * sizeof *k.best);
  k.pivots = malloc(nn * sizeof *k.pivots);
  k.basic = malloc(nn * sizeof *k.basic);
  k.state = malloc(nn * sizeof *k.state);
  k.bounded = malloc(nbd * sizeof *k.bounded);
  k.n_states = malloc(nbd * sizeof *k.n_states);
  k.states = malloc(3 * nbd * sizeof *k.states);
  k.start = malloc(nbd * sizeof *k.start);
  k.digit = calloc(nbd, sizeof *k.digit);
  if (!k.M || !k.a || !k.rhs || !k.res || !k.zc || !k.wc || !k.best || !k.pivots || !k.basic ||
      !k.state || !k.bounded || !k.n_states || !k.states || !k.start || !k.digit) {
    enum_work_free(&k);
    return nsd_report_fail(report, NSD_FAILED, "out of memory, n=%d", n);
  }

  // row states; the first case follows the starting point (z on a bound with w of the
  // right sign stays there, other rows are basic), later cases count away from it
  for (int i = 0, b = 0; i < n; ++i) {
    MlcpRowKind kind = mlcp_row_kind(problem, i);
    k.state[i] = kind == MLCP_ROW_FREE ? STATE_BASIC : STATE_FIXED;
    if (kind == MLCP_ROW_FREE || kind == MLCP_ROW_FIXED) continue;
    int* allowed = k.states + 3 * b;
    k.bounded[b] = i;
    k.n_states[b] = row_states(kind, allowed);
    double wi = problem->q[i];
    for (int j = 0; j < n; ++j) wi += k.M[i + (size_t)j * n] * z[j];
    int preferred = STATE_BASIC;
    if (z[i] == problem->lb[i] && wi >= 0) preferred = STATE_LOWER;
    if (z[i] == problem->ub[i] && wi <= 0) preferred = STATE_UPPER;
    k.start[b] = 0;
    for (int s = 0; s < k.n_states[b]; ++s)
      if (allowed[s] == preferred) k.start[b] = s;
    ++b;
  }
  const double scale = mlcp_norm(problem->q, n);
  const double slack = (opt.tolerance > ENUM_SLACK_FLOOR ? opt.tolerance : ENUM_SLACK_FLOOR) *
                       (scale > DBL_EPSILON ? scale : 1.0);

  // enumerate the cases with a mixed-radix counter until one solves the MLCP
  double best_error = INFINITY;
  int found = 0;
  int64_t cases = 0;
  for (;;) {
    for (int b = 0; b < n_bounded; ++b) {
      int s = (k.start[b] + k.digit[b]) % k.n_states[b];
      k.state[k.bounded[b]] = k.states[3 * b + s];
    }
    ++cases;

    /* a solved, feasible case is projected on the box and measured */
    if (solve_case(problem, &k) && feasible(problem, &k, slack)) {
      for (int i = 0; i < n; ++i) k.zc[i] = mlcp_mid(problem->lb[i], k.zc[i], problem->ub[i]);
      double error = nsd_mlcp_error(problem, k.zc, k.wc);
      if (error < best_error) {
        best_error = error;
        memcpy(k.best, k.zc, (size_t)n * sizeof *k.best);
        found = 1;
      }
      if (error <= opt.tolerance) break;
    }

    /* next case; the counter wrapping to zero means all were tried */
    int b = 0;
    while (b < n_bounded && ++k.digit[b] == k.n_states[b]) k.digit[b++] = 0;
    if (b == n_bounded) break;
    if (cases % ENUM_CLOCK_STRIDE == 0 && nsd_time_up(report, opt.time_limit)) {
      nsd_report_fail(report, NSD_MAX_ITERATIONS, "time limit %g s reached after %lld cases",
                      opt.time_limit, (long long)cases);
      break;
    }
  }
  report->iterations = cases > INT32_MAX ? INT32_MAX : (int)cases;

  // return the best candidate found, or the starting point
  if (found) memcpy(z, k.best, (size_t)n * sizeof *z);
  if (best_error > opt.tolerance && report->status == NSD_OK) {
    if (found)
      nsd_report_fail(report, NSD_FAILED,
                      "no case meets the tolerance after %lld cases; best error %.3e",
                      (long long)cases, best_error);
    else
      nsd_report_fail(report, NSD_FAILED, "no feasible case among %lld (no solution found)",
                      (long long)cases);
  }
  enum_work_free(&k);
  return mlcp_finish(problem, z, w, &opt, report);
}
