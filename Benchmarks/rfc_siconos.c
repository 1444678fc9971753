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
 * "timed out" after CHILD_SECONDS).
 * exit status: 0 every file read, 2 usage error, 3 a file could not be read. */
#define _DEFAULT_SOURCE
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nsdyn/numerics.h>

#include <Friction_cst.h>
#include <NonSmoothDrivers.h>
#include <NumericsMatrix.h>
#include <RollingFrictionContactProblem.h>
#include <SolverOptions.h>
#include <rolling_fc3d_compute_error.h>

/* Siconos 4.4's rolling_fc2d_compute_error.h reuses the include guard of the 3D header
 * (rolling_fc3d_compute_error_H), so it cannot be included next to it: its one function is
 * declared here, as that header declares it. */
int rolling_fc2d_compute_error(RollingFrictionContactProblem* problem, double* z, double* w,
                               double tolerance, SolverOptions* options, double norm,
                               double* error);

#define MAX_REPEAT 50
/* a Siconos child still running after this is killed and reported as timed out */
#define CHILD_SECONDS 300

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

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static double median(double* v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
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
  double times[MAX_REPEAT];
  for (int k = 0; k < repeat; ++k) {
    RollingFrictionContactProblem* sp = rollingFrictionContact_new_from_filename(dat);
    if (!sp || (dense && !make_dense(sp))) _exit(3);
    SolverOptions* so = solver_options_create(solver);
    so->dparam[SICONOS_DPARAM_TOL] = tol;
    if (max_iter > 0) so->iparam[SICONOS_IPARAM_MAX_ITER] = max_iter;
    memset(r, 0, m * sizeof *r);
    memset(u, 0, m * sizeof *u);
    double t0 = now();
    out->info = p->dim == 5 ? rolling_fc3d_driver(sp, r, u, so) : rolling_fc2d_driver(sp, r, u, so);
    times[k] = now() - t0;
    out->iterations = so->iparam[SICONOS_IPARAM_ITER_DONE];
    out->reported = so->dparam[SICONOS_DPARAM_RESIDU];
    solver_options_delete(so);
    rollingFrictionContactProblem_free(sp);
  }
  out->seconds = median(times, repeat);
  measure(dat, p, r, u, tol, out);
}

/* One nsdyn solver through nsd_solve from r = 0, one thread, --repeat times. */
static void run_nsd(const char* dat, const NsdProblem* problem, const char* solver, double tol,
                    int max_iter, int repeat, double* r, double* u, Outcome* out) {
  const NsdRfc* p = problem->rfc;
  const size_t m = (size_t)p->dim * (size_t)p->nc;
  double times[MAX_REPEAT];
  NsdSolverOptions o;
  nsd_solver_options_default(&o);
  o.tolerance = tol;
  o.threads = 1;
  if (max_iter > 0) o.max_iterations = max_iter;
  for (int k = 0; k < repeat; ++k) {
    NsdReport rep;
    memset(&rep, 0, sizeof rep);
    memset(r, 0, m * sizeof *r);
    double t0 = now();
    NsdStatus st = nsd_solve(problem, solver, r, u, &o, &rep);
    times[k] = now() - t0;
    out->iterations = rep.iterations;
    out->reported = rep.residual;
    out->info = (int)st;
    if (st != NSD_OK && k == 0) fprintf(stderr, "  nsd %s: %s\n", solver, rep.message);
  }
  out->seconds = median(times, repeat);
  measure(dat, p, r, u, tol, out);
}

static const char* base_name(const char* path) {
  const char* b = strrchr(path, '/');
  return b ? b + 1 : path;
}

/* "1.2 ms"-style time */
static void format_time(double seconds, char* out, size_t size) {
  if (seconds >= 1.0)
    snprintf(out, size, "%.3g s", seconds);
  else if (seconds >= 1e-3)
    snprintf(out, size, "%.3g ms", seconds * 1e3);
  else
    snprintf(out, size, "%.2g ms", seconds * 1e3);
}

/* A row without figures (crashed, timed out, no such solver). */
static void print_note(const char* path, int nc, const char* name, const char* note) {
  if (table)
    printf("| %s | %d | %s | %s | | | | |\n", base_name(path), nc, name, note);
  else
    printf("%s contacts=%d %-16s %s\n", path, nc, name, note);
}

static void print(const char* path, int nc, const char* name, const Outcome* o) {
  if (table) {
    char t[32];
    format_time(o->seconds, t, sizeof t);
    printf("| %s | %d | %s | %d%s | %.2g | %.2g | %.2g | %s |\n", base_name(path), nc, name,
           o->iterations, o->info ? " (not converged)" : "", o->nsd, o->sic, o->reported, t);
    return;
  }
  printf(
      "%s contacts=%d %-16s iterations=%d seconds=%.6f reported=%.3e nsd_error=%.3e "
      "siconos_error=%.3e |r|=%.3e |u|=%.3e info=%d\n",
      path, nc, name, o->iterations, o->seconds, o->reported, o->nsd, o->sic, o->norm_r, o->norm_u,
      o->info);
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
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
      alarm(CHILD_SECONDS);
      // Siconos's failed assertions print on stderr; the row says "crashed"
      if (!freopen("/dev/null", "w", stderr)) _exit(5);
      Outcome o = {0, 0, 0, 0, 0, 0, 0, 0};
      run_siconos(path, p, sic[k].id, sic[k].dense, tol, max_iter, repeat, r, u, &o);
      print(path, p->nc, name, &o);
      fflush(stdout);
      _exit(0);
    }
    int status = 0;
    char note[64];
    if (child < 0 || waitpid(child, &status, 0) != child) {
      print_note(path, p->nc, name, "not run (fork failed)");
    } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
      snprintf(note, sizeof note, "timed out (%d s)", CHILD_SECONDS);
      print_note(path, p->nc, name, note);
    } else if (WIFSIGNALED(status)) {
      snprintf(note, sizeof note, "crashed (signal %d, %s)", WTERMSIG(status),
               strsignal(WTERMSIG(status)));
      print_note(path, p->nc, name, note);
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      print_note(path, p->nc, name, "Siconos's reader failed");
    }
  }
}

/* Every solver on one file; 0, or 3 when the file cannot be read. */
static int run_file(const char* path, double tol, int max_iter, int repeat) {
  NsdProblem problem;
  NsdReport rep;
  memset(&problem, 0, sizeof problem);
  memset(&rep, 0, sizeof rep);
  if (nsd_read_problem(path, NSD_KIND_UNKNOWN, &problem, &rep) != NSD_OK || !problem.rfc) {
    fprintf(stderr, "%s: not a rolling friction problem nsdyn can read: %s\n", path,
            rep.message[0] ? rep.message : "another kind of problem");
    nsd_problem_clear(&problem);
    return 3;
  }
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
  double tol = 1e-8;
  int repeat = 5, max_iter = 0, files = 0, code = 0;
  for (int i = 1; i < argc; ++i) {
    char* end = NULL;
    if (strcmp(argv[i], "--tol") == 0 && i + 1 < argc) {
      tol = strtod(argv[++i], &end);
      if (*end || !(tol > 0.0)) return usage();
    } else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      repeat = (int)strtol(argv[++i], &end, 10);
      if (*end || repeat < 1 || repeat > MAX_REPEAT) return usage();
    } else if (strcmp(argv[i], "--max-iter") == 0 && i + 1 < argc) {
      max_iter = (int)strtol(argv[++i], &end, 10);
      if (*end || max_iter < 1) return usage();
    } else if (strcmp(argv[i], "--table") == 0) {
      table = 1;
    } else if (argv[i][0] == '-') {
      return usage();
    } else {
      ++files;
    }
  }
  if (files == 0) return usage();
  if (table) {
    printf(
        "| file | contacts | solver | iterations | nsd_rfc_error | Siconos measure | reported | "
        "time |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
  }
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '-') {
      if (strcmp(argv[i], "--table") != 0) ++i;
      continue;
    }
    if (run_file(argv[i], tol, max_iter, repeat) != 0) code = 3;
  }
  return code;
}
