/* gfc_siconos: global friction-contact (GFC3D) files solved by Siconos 4.4 (Debian's
 * libsiconos-numerics: SICONOS_GLOBAL_FRICTION_3D_NSGS_WR, _ADMM and _IPM, default options
 * and the tolerance given) and by nsdyn's GFC solvers (nsgs_wr, admm, ipm), side by side,
 * timed the same way (wall clock around the solver call only, the median of --repeat runs).
 * Every answer (r, v) is then measured with nsdyn's nsd_gfc_error (Siconos's
 * gfc3d_compute_error measure), next to the error each library reports.
 *
 * usage: gfc_siconos [--tol X] [--repeat N] [--max-iter N] [--table] FILE...
 *   FILE: a Siconos GFC3D/GFC2D .dat file or an FCLIB global .hdf5 (Debian's Siconos has no
 *   FCLIB: nsdyn reads it and writes a temporary .dat for Siconos's reader). Siconos 4.4 has
 *   no GFC2D solver: 2D files get nsdyn's rows only.
 * Output: one line per file and solver:
 *   FILE contacts=NC n=N LIB_SOLVER iterations=I seconds=S reported=E nsd_error=E2
 *   nsd_error_r=E3 info=K   (E2: of (r, v) returned; E3: of r, v = M^-1 (q + H r))
 * or, with --table, Markdown rows
 *   | file | contacts | solver | iterations | error (r, v) | error (r alone) | time |
 * Each Siconos solve runs in a child process of its own (reported as "crashed (signal N)"
 * when it aborts, "timed out" after CHILD_SECONDS), after an untimed warm-up solve in the
 * same child when n <= WARMUP_MAX_N (Spheres, n = 12000, is too large for two: Siconos's
 * NSGS_WR keeps 10 GB).
 * exit status: 0 every file read, 2 usage error, 3 a file could not be read. */
#define _DEFAULT_SOURCE /* mkstemps */
#include <fcntl.h>
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
#include <GlobalFrictionContactProblem.h>
#include <NonSmoothDrivers.h>
#include <SolverOptions.h>

#define MAX_REPEAT 50
/* the largest n with an untimed warm-up solve in each Siconos child */
#define WARMUP_MAX_N 5000
/* a Siconos child still running after this is killed and reported as timed out */
#define CHILD_SECONDS 300

static int table; /* --table: Markdown rows */

typedef struct Outcome {
  int iterations, info;
  double seconds;  /* median over the repeats */
  double reported; /* the library's own error */
  double nsd;      /* nsd_gfc_error of the returned (r, v) */
  double nsd_r;    /* nsd_gfc_error_of_reaction: r alone, v recovered from it */
} Outcome;

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

static int has_suffix(const char* s, const char* suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int usage(void) {
  fprintf(stderr, "usage: gfc_siconos [--tol X] [--repeat N] [--max-iter N] [--table] FILE...\n");
  return 2;
}

/* One Siconos solve from r = 0 on the problem read from @p dat (in a child process of its
 * own: Siconos's NSGS_WR changes its problem, so that a second solve of it ends in SIGFPE, and
 * does not free what it allocates, 10 GB on Spheres). */
static void run_siconos(const char* dat, const NsdGfc* g, int solver, double tol, int max_iter,
                        double* r, double* u, double* v, Outcome* out) {
  const size_t m = (size_t)g->dim * (size_t)g->nc, n = (size_t)g->n;
  GlobalFrictionContactProblem* sp = globalFrictionContact_new_from_filename(dat);
  if (!sp) _exit(3);
  SolverOptions* so = solver_options_create(solver);
  so->dparam[SICONOS_DPARAM_TOL] = tol;
  if (max_iter > 0) so->iparam[SICONOS_IPARAM_MAX_ITER] = max_iter;
  memset(r, 0, m * sizeof *r);
  memset(u, 0, m * sizeof *u);
  memset(v, 0, n * sizeof *v);
  double t0 = now();
  out->info = gfc3d_driver(sp, r, u, v, so);
  out->seconds = now() - t0;
  out->iterations = so->iparam[SICONOS_IPARAM_ITER_DONE];
  out->reported = so->dparam[SICONOS_DPARAM_RESIDU];
  solver_options_delete(so);
  globalFrictionContact_free(sp);
  out->nsd = nsd_gfc_error(g, r, v, NULL);
  out->nsd_r = nsd_gfc_error_of_reaction(g, r);
}

/* One Siconos solve in a child process; 1 with @p out filled, else 0 with @p note set. */
static int siconos_child(const char* dat, const NsdGfc* g, int solver, double tol, int max_iter,
                         double* r, double* u, double* v, Outcome* out, char* note,
                         size_t note_size) {
  int fds[2];
  fflush(stdout);
  if (pipe(fds) != 0) {
    snprintf(note, note_size, "not run (no pipe)");
    return 0;
  }
  pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    alarm(CHILD_SECONDS);
    // Siconos's IPM prints every iteration on stdout: silenced
    int quiet = open("/dev/null", O_WRONLY);
    if (quiet >= 0) dup2(quiet, STDOUT_FILENO);
    Outcome o = {0, 0, 0, 0, 0, 0};
    if (g->n <= WARMUP_MAX_N) run_siconos(dat, g, solver, tol, max_iter, r, u, v, &o);
    run_siconos(dat, g, solver, tol, max_iter, r, u, v, &o);
    ssize_t w = write(fds[1], &o, sizeof o);
    _exit(w == (ssize_t)sizeof o ? 0 : 4);
  }
  close(fds[1]);
  ssize_t got = 0;
  if (child > 0) {
    for (ssize_t k; got < (ssize_t)sizeof *out; got += k) {
      k = read(fds[0], (char*)out + got, sizeof *out - (size_t)got);
      if (k <= 0) break;
    }
  }
  close(fds[0]);
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child) {
    snprintf(note, note_size, "not run (fork failed)");
  } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
    snprintf(note, note_size, "timed out (%d s)", CHILD_SECONDS);
  } else if (WIFSIGNALED(status)) {
    snprintf(note, note_size, "crashed (signal %d, %s)", WTERMSIG(status),
             strsignal(WTERMSIG(status)));
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || got != (ssize_t)sizeof *out) {
    snprintf(note, note_size, "no result (Siconos's reader failed?)");
  } else {
    return 1;
  }
  return 0;
}

/* One nsdyn solver from r = 0, one thread, --repeat times. */
static void run_nsd(const NsdGfc* g, NsdGfcSolver solver, double tol, int max_iter, int repeat,
                    double* r, double* u, double* v, Outcome* out) {
  const size_t m = (size_t)g->dim * (size_t)g->nc;
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
    NsdStatus st = solver(g, r, u, v, &o, &rep);
    times[k] = now() - t0;
    out->iterations = rep.iterations;
    out->reported = rep.residual;
    out->info = (int)st;
    if (st != NSD_OK && k == 0) fprintf(stderr, "  nsd: %s\n", rep.message);
  }
  out->seconds = median(times, repeat);
  out->nsd = nsd_gfc_error(g, r, v, NULL);
  out->nsd_r = nsd_gfc_error_of_reaction(g, r);
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

/* A row without figures (not run, crashed, timed out, no such solver). */
static void print_note(const char* path, const NsdGfc* g, const char* name, const char* note) {
  if (table)
    printf("| %s | %d | %s | %s | | | |\n", base_name(path), g->nc, name, note);
  else
    printf("%s contacts=%d n=%d %-16s %s\n", path, g->nc, g->n, name, note);
}

static void print(const char* path, const NsdGfc* g, const char* name, const Outcome* o) {
  if (table) {
    char t[32];
    format_time(o->seconds, t, sizeof t);
    printf("| %s | %d | %s | %d%s | %.2g | %.2g | %s |\n", base_name(path), g->nc, name,
           o->iterations, o->info ? " (not converged)" : "", o->nsd, o->nsd_r, t);
    return;
  }
  printf(
      "%s contacts=%d n=%d %-16s iterations=%d seconds=%.6f reported=%.3e nsd_error=%.3e "
      "nsd_error_r=%.3e info=%d\n",
      path, g->nc, g->n, name, o->iterations, o->seconds, o->reported, o->nsd, o->nsd_r, o->info);
}

/* Siconos's NSGS_WR, ADMM and IPM on a GFC3D problem, each solve in a child process: Debian's
 * build aborts on some inputs (an assertion in its MUMPS path for sparse M), which must not
 * end the comparison. 0, or 3 when Siconos cannot read the problem. */
static int run_siconos_all(const char* path, NsdProblem* p, double tol, int max_iter, int repeat,
                           double* r, double* u, double* v) {
  const NsdGfc* g = p->gfc;
  NsdReport rep;
  memset(&rep, 0, sizeof rep);
  // Siconos reads .dat only (and picks its reader by the extension)
  char tmp[64] = "";
  const char* dat = path;
  if (!has_suffix(path, ".dat")) {
    snprintf(tmp, sizeof tmp, "/tmp/gfc_siconos_XXXXXX.dat");
    int fd = mkstemps(tmp, 4);
    if (fd < 0 || (close(fd), nsd_write_problem(tmp, p, &rep)) != NSD_OK) {
      fprintf(stderr, "%s: no temporary .dat for Siconos's reader: %s\n", path, rep.message);
      if (fd >= 0) unlink(tmp);
      return 3;
    }
    dat = tmp;
  }
  GlobalFrictionContactProblem* sp = globalFrictionContact_new_from_filename(dat);
  if (!sp || sp->dimension != 3 || sp->numberOfContacts != g->nc) {
    fprintf(stderr, "%s: Siconos's reader failed\n", path);
    if (sp) globalFrictionContact_free(sp);
    if (tmp[0]) unlink(tmp);
    return 3;
  }
  globalFrictionContact_free(sp);
  static const struct {
    int id;
    const char* name;
  } sic[] = {{SICONOS_GLOBAL_FRICTION_3D_NSGS_WR, "siconos_nsgs_wr"},
             {SICONOS_GLOBAL_FRICTION_3D_ADMM, "siconos_admm"},
             {SICONOS_GLOBAL_FRICTION_3D_IPM, "siconos_ipm"}};
  static const char* const table_names[] = {"Siconos NSGS_WR", "Siconos ADMM", "Siconos IPM"};
  for (size_t k = 0; k < sizeof sic / sizeof sic[0]; ++k) {
    const char* name = table ? table_names[k] : sic[k].name;
    double times[MAX_REPEAT];
    Outcome o = {0, 0, 0, 0, 0, 0};
    char note[96] = "";
    int done = 0;
    for (; done < repeat; ++done) {
      if (!siconos_child(dat, g, sic[k].id, tol, max_iter, r, u, v, &o, note, sizeof note)) break;
      times[done] = o.seconds;
    }
    if (done < repeat) {
      print_note(path, g, name, note);
    } else {
      o.seconds = median(times, repeat);
      print(path, g, name, &o);
    }
  }
  if (tmp[0]) unlink(tmp);
  return 0;
}

/* Every solver on one file; 0, or 3 when the file cannot be read. */
static int run_file(const char* path, double tol, int max_iter, int repeat) {
  NsdProblem p;
  NsdReport rep;
  memset(&p, 0, sizeof p);
  memset(&rep, 0, sizeof rep);
  if (nsd_read_problem(path, NSD_KIND_UNKNOWN, &p, &rep) != NSD_OK || !p.gfc) {
    fprintf(stderr, "%s: not a GFC problem nsdyn can read: %s\n", path,
            rep.message[0] ? rep.message : "another kind of problem");
    nsd_problem_clear(&p);
    return 3;
  }
  const NsdGfc* g = p.gfc;
  double* r = calloc((size_t)g->dim * (size_t)g->nc + 1, sizeof *r);
  double* u = calloc((size_t)g->dim * (size_t)g->nc + 1, sizeof *u);
  double* v = calloc((size_t)g->n + 1, sizeof *v);
  int code = 0;
  if (!r || !u || !v) {
    fprintf(stderr, "%s: out of memory\n", path);
    code = 3;
  } else if (g->dim == 3) {
    code = run_siconos_all(path, &p, tol, max_iter, repeat, r, u, v);
  } else {
    print_note(path, g, "Siconos (all)", "no GFC2D solver in Siconos 4.4");
  }
  static const char* const ours[] = {"nsgs_wr", "admm", "ipm"};
  for (size_t k = 0; code == 0 && k < sizeof ours / sizeof ours[0]; ++k) {
    const NsdSolverEntry* e =
        nsd_solver_find(g->dim == 3 ? NSD_KIND_GFC3D : NSD_KIND_GFC2D, ours[k]);
    char name[32];
    snprintf(name, sizeof name, "%s%s", table ? "" : "nsd_", ours[k]);
    if (!e || !e->gfc) {
      print_note(path, g, name, "not in this build");
      continue;
    }
    Outcome o = {0, 0, 0, 0, 0, 0};
    run_nsd(g, e->gfc, tol, max_iter, repeat, r, u, v, &o);
    print(path, g, name, &o);
  }
  free(r);
  free(u);
  free(v);
  nsd_problem_clear(&p);
  return code;
}

int main(int argc, char** argv) {
  double tol = 1e-8;
  int repeat = 3, max_iter = 0, files = 0, code = 0;
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
    printf("| file | contacts | solver | iterations | error (r, v) | error (r alone) | time |\n");
    printf("|---|---|---|---|---|---|---|\n");
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
