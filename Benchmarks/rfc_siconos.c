/* rfc_siconos: rolling friction contact files (RFC3D / RFC2D, the Siconos rolling .dat layout)
 * solved by Siconos 4.4 (Debian's libsiconos-numerics: SICONOS_ROLLING_FRICTION_3D_NSGS, on
 * the M of its reader and on a dense copy, as it aborts on the former; _3D_ADMM and _2D_NSGS;
 * default options, the tolerance given) and by nsdyn's
 * RFC solvers ("nsgs", "pg" through nsd_solve), side by side, timed the same way (wall clock
 * around the solver call only, from r = 0, the median of --repeat runs). Every returned r is
 * then measured twice: with nsdyn's nsd_rfc_error (normalised by max(||q||, ||r||, ||u||))
 * and with Siconos's own rolling_fc3d/2d_compute_error (passed ||q||: its 3D measure then
 * normalises by max(||q||, ||r||, ||u||) too, its 2D one by ||q|| alone), next to the error
 * each library reports.
 *
 * usage: rfc_siconos [--tol X] [--repeat N] [--max-iter N] [--table] FILE...
 * Output: one line per file and solver:
 *   FILE contacts=NC LIB_SOLVER iterations=I seconds=S reported=E nsd_error=E2
 *   siconos_error=E3 |r|=N1 |u|=N2 info=K   (N1, N2: norms of the returned r and of M r + q)
 * or, with --table, Markdown rows
 *   | file | contacts | solver | iterations | nsd_rfc_error | Siconos measure | reported | time |
 * Each Siconos solver runs in a child process (reported as "crashed (signal N)" when it aborts,
 * "timed out" after SIDE_CHILD_SECONDS, siconos_side.h).
 * exit status: 0 every file read, 2 usage error, 3 a file could not be read. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nsdyn/numerics.h>

#include <Friction_cst.h>
#include <NonSmoothDrivers.h>
#include <NumericsMatrix.h>
#include <RollingFrictionContactProblem.h>
#include <SolverOptions.h>
#include <rolling_fc3d_compute_error.h>

#include "siconos_side.h"

/* Siconos 4.4's rolling_fc2d_compute_error.h reuses the include guard of the 3D header
 * (rolling_fc3d_compute_error_H), so it cannot be included next to it: its one function is
 * declared here, as that header declares it. */
int rolling_fc2d_compute_error(RollingFrictionContactProblem* problem, double* z, double* w,
                               double tolerance, SolverOptions* options, double norm,
                               double* error);

static int table; /* --table: Markdown rows */

static double siconos_measure(const char* dat, const double* r, double tol);

typedef struct Outcome {
  int iterations, info;
  double seconds;        /* median over the repeats */
  double reported;       /* the library's own error */
  double nsd;            /* nsd_rfc_error of the returned r */
  double sic;            /* Siconos's rolling_fc*_compute_error of the returned r, norm ||q|| */
  double norm_r, norm_u; /* ||r|| and ||M r + q|| of the returned r */
} Outcome;

static double norm2(const double* x, size_t m) {
  double s = 0.0;
  for (size_t i = 0; i < m; ++i) s += x[i] * x[i];
  return sqrt(s);
}

/* Both measures and the norms of the returned r (u overwritten with M r + q). */
static void measure(const char* dat, const NsdRfc* p, const double* r, double* u, double tol,
                    Outcome* out) {
  const size_t m = (size_t)p->dim * (size_t)p->nc;
  out->nsd = nsd_rfc_error(p, r, u);
  out->sic = siconos_measure(dat, r, tol);
  out->norm_r = norm2(r, m);
  out->norm_u = norm2(u, m);
}

static int usage(void) {
  fprintf(stderr, "usage: rfc_siconos [--tol X] [--repeat N] [--max-iter N] [--table] FILE...\n");
  return 2;
}

/* Siconos's measure of r (u recomputed by Siconos from M r + q), passed ||q|| as its solvers
 * do; -1 when Siconos cannot read the file. */
static double siconos_measure(const char* dat, const double* r, double tol) {
  RollingFrictionContactProblem* sp = rollingFrictionContact_new_from_filename(dat);
  if (!sp) return -1.0;
  const size_t m = (size_t)sp->dimension * (size_t)sp->numberOfContacts;
  double* z = calloc(m + 1, sizeof *z);
  double* w = calloc(m + 1, sizeof *w);
  double norm_q = 0.0, error = -1.0;
  if (z && w) {
    memcpy(z, r, m * sizeof *z);
    for (size_t i = 0; i < m; ++i) norm_q += sp->q[i] * sp->q[i];
    norm_q = sqrt(norm_q);
    if (sp->dimension == 5)
      rolling_fc3d_compute_error(sp, z, w, tol, NULL, norm_q, &error);
    else
      rolling_fc2d_compute_error(sp, z, w, tol, NULL, norm_q, &error);
  }
  free(z);
  free(w);
  rollingFrictionContactProblem_free(sp);
  return error;
}

/* M as a dense matrix, in place: Siconos 4.4's 3D rolling NSGS aborts on the sparse-block M
 * its reader builds (an assert(0) in NM_extract_diag_block5). 0 on no memory. */
static int make_dense(RollingFrictionContactProblem* sp) {
  const int n = sp->M->size0;
  NumericsMatrix* d = NM_create(NM_DENSE, n, n);
  if (!d) return 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      d->matrix0[(size_t)j * (size_t)n + (size_t)i] = NM_get_value(sp->M, i, j);
  NM_free(sp->M);
  sp->M = d;
  return 1;
}

/* One Siconos solver from r = 0, --repeat times, each on a problem read afresh (M made dense
 * when @p dense, outside the timing). */
static void run_siconos(const char* dat, const NsdRfc* p, int solver, int dense, double tol,
                        int max_iter, int repeat, double* r, double* u, Outcome* out) {
  const size_t m = (size_t)p->dim * (size_t)p->nc;
  double times[SIDE_MAX_REPEAT];
  for (int k = 0; k < repeat; ++k) {
    RollingFrictionContactProblem* sp = rollingFrictionContact_new_from_filename(dat);
    if (!sp || (dense && !make_dense(sp))) _exit(3);
    SolverOptions* so = side_siconos_options(solver, tol, max_iter);
    memset(r, 0, m * sizeof *r);
    memset(u, 0, m * sizeof *u);
    double t0 = side_now();
    out->info = p->dim == 5 ? rolling_fc3d_driver(sp, r, u, so) : rolling_fc2d_driver(sp, r, u, so);
    times[k] = side_now() - t0;
    side_siconos_finish(so, &out->iterations, &out->reported);
    rollingFrictionContactProblem_free(sp);
  }
  out->seconds = side_median(times, repeat);
  measure(dat, p, r, u, tol, out);
}

/* What an nsdyn solver solves. */
typedef struct NsdSolve {
  const NsdProblem* problem;
  const char* solver;
  double* u;
} NsdSolve;

static NsdStatus solve_rfc(const void* ctx, double* r, const NsdSolverOptions* o, NsdReport* rep) {
  const NsdSolve* c = ctx;
  return nsd_solve(c->problem, c->solver, r, c->u, o, rep);
}

/* One nsdyn solver through nsd_solve from r = 0, one thread, --repeat times. */
static void run_nsd(const char* dat, const NsdProblem* problem, const char* solver, double tol,
                    int max_iter, int repeat, double* r, double* u, Outcome* out) {
  const NsdRfc* p = problem->rfc;
  const size_t m = (size_t)p->dim * (size_t)p->nc;
  NsdSolve c = {problem, solver, u};
  char label[48];
  snprintf(label, sizeof label, "  nsd %s", solver);
  out->info = (int)side_nsd_repeat(solve_rfc, &c, r, m, tol, max_iter, repeat, label,
                                   &out->iterations, &out->reported, &out->seconds);
  measure(dat, p, r, u, tol, out);
}

/* A row without figures (crashed, timed out, no such solver). */
static void print_note(const char* path, int nc, const char* name, const char* note) {
  if (table)
    printf("| %s | %d | %s | %s | | | | |\n", side_base_name(path), nc, name, note);
  else
    printf("%s contacts=%d %-16s %s\n", path, nc, name, note);
}

static void print(const char* path, int nc, const char* name, const Outcome* o) {
  if (table) {
    char t[32];
    side_format_time(o->seconds, t, sizeof t);
    printf("| %s | %d | %s | %d%s | %.2g | %.2g | %.2g | %s |\n", side_base_name(path), nc, name,
           o->iterations, o->info ? " (not converged)" : "", o->nsd, o->sic, o->reported, t);
    return;
  }
  printf(
      "%s contacts=%d %-16s iterations=%d seconds=%.6f reported=%.3e nsd_error=%.3e "
      "siconos_error=%.3e |r|=%.3e |u|=%.3e info=%d\n",
      path, nc, name, o->iterations, o->seconds, o->reported, o->nsd, o->sic, o->norm_r, o->norm_u,
      o->info);
}

/* What a Siconos child solves. */
typedef struct SiconosSolve {
  const char* path;
  const NsdRfc* p;
  int solver, dense, max_iter, repeat;
  double tol;
  double *r, *u;
  const char* name;
} SiconosSolve;

/* In the child: the solver's row, printed. */
static int siconos_work(void* ctx, void* result) {
  (void)result;
  const SiconosSolve* c = ctx;
  // Siconos's failed assertions print on stderr; the row says "crashed"
  if (!freopen("/dev/null", "w", stderr)) return 5;
  Outcome o = {0, 0, 0, 0, 0, 0, 0, 0};
  run_siconos(c->path, c->p, c->solver, c->dense, c->tol, c->max_iter, c->repeat, c->r, c->u, &o);
  print(c->path, c->p->nc, c->name, &o);
  fflush(stdout);
  return 0;
}

/* Siconos's rolling solvers for the file's dimension, each in a child process (a crash or an
 * abort of the library must not end the comparison). */
static void run_siconos_all(const char* path, const NsdRfc* p, double tol, int max_iter, int repeat,
                            double* r, double* u) {
  static const struct {
    int dim, id, dense;
    const char* name;
    const char* table_name;
  } sic[] = {
      {5, SICONOS_ROLLING_FRICTION_3D_NSGS, 0, "siconos_nsgs", "Siconos NSGS"},
      {5, SICONOS_ROLLING_FRICTION_3D_NSGS, 1, "siconos_nsgs_dense", "Siconos NSGS, dense M"},
      {5, SICONOS_ROLLING_FRICTION_3D_ADMM, 0, "siconos_admm", "Siconos ADMM"},
      {3, SICONOS_ROLLING_FRICTION_2D_NSGS, 0, "siconos_nsgs", "Siconos NSGS"},
  };
  for (size_t k = 0; k < sizeof sic / sizeof sic[0]; ++k) {
    if (sic[k].dim != p->dim) continue;
    const char* name = table ? sic[k].table_name : sic[k].name;
    SiconosSolve c = {path, p, sic[k].id, sic[k].dense, max_iter, repeat, tol, r, u, name};
    char note[64];
    if (!side_child(siconos_work, &c, NULL, 0, "Siconos's reader failed", note, sizeof note))
      print_note(path, p->nc, name, note);
  }
}

static int is_rfc(const NsdProblem* p) {
  return p->rfc != NULL;
}

/* Every solver on one file; 0, or 3 when the file cannot be read. */
static int run_file(const char* path, const SideOptions* opt) {
  const double tol = opt->tol;
  const int max_iter = opt->max_iter, repeat = opt->repeat;
  NsdProblem problem;
  if (!side_read(path, "a rolling friction", is_rfc, &problem)) return 3;
  const NsdRfc* p = problem.rfc;
  RollingFrictionContactProblem* sp = rollingFrictionContact_new_from_filename(path);
  if (!sp || sp->dimension != p->dim || sp->numberOfContacts != p->nc) {
    fprintf(stderr, "%s: Siconos's reader failed or disagrees with nsdyn's\n", path);
    if (sp) rollingFrictionContactProblem_free(sp);
    nsd_problem_clear(&problem);
    return 3;
  }
  rollingFrictionContactProblem_free(sp);
  const size_t m = (size_t)p->dim * (size_t)p->nc;
  double* r = calloc(m + 1, sizeof *r);
  double* u = calloc(m + 1, sizeof *u);
  int code = 0;
  if (!r || !u) {
    fprintf(stderr, "%s: out of memory\n", path);
    code = 3;
  } else {
    run_siconos_all(path, p, tol, max_iter, repeat, r, u);
    static const char* const ours[] = {"nsgs", "pg"};
    for (size_t k = 0; k < sizeof ours / sizeof ours[0]; ++k) {
      char name[32];
      snprintf(name, sizeof name, "%s%s", table ? "nsdyn " : "nsd_", ours[k]);
      Outcome o = {0, 0, 0, 0, 0, 0, 0, 0};
      run_nsd(path, &problem, ours[k], tol, max_iter, repeat, r, u, &o);
      print(path, p->nc, name, &o);
    }
  }
  free(r);
  free(u);
  nsd_problem_clear(&problem);
  return code;
}

int main(int argc, char** argv) {
  SideOptions opt = {1e-8, 5, 0, 0};
  if (!side_parse_files(argc, argv, &opt)) return usage();
  table = opt.table;
  if (table) {
    printf(
        "| file | contacts | solver | iterations | nsd_rfc_error | Siconos measure | reported | "
        "time |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
  }
  return side_each_file(argc, argv, &opt, run_file);
}
