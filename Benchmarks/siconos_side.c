/* siconos_side.c: see siconos_side.h. */
#define _DEFAULT_SOURCE /* mkstemps */
#include "siconos_side.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <Friction_cst.h>

double side_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

double side_median(double* v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

const char* side_base_name(const char* path) {
  const char* b = strrchr(path, '/');
  return b ? b + 1 : path;
}

void side_format_time(double seconds, char* out, size_t size) {
  if (seconds >= 1.0)
    snprintf(out, size, "%.3g s", seconds);
  else if (seconds >= 1e-3)
    snprintf(out, size, "%.3g ms", seconds * 1e3);
  else
    snprintf(out, size, "%.2g ms", seconds * 1e3);
}

int side_option(int argc, char** argv, int* i, SideOptions* o) {
  if (*i + 1 >= argc) return 0;
  const char* name = argv[*i];
  char* end = NULL;
  if (strcmp(name, "--tol") == 0) {
    o->tol = strtod(argv[++*i], &end);
    return *end || !(o->tol > 0.0) ? -1 : 1;
  }
  if (strcmp(name, "--repeat") == 0) {
    o->repeat = (int)strtol(argv[++*i], &end, 10);
    return *end || o->repeat < 1 || o->repeat > SIDE_MAX_REPEAT ? -1 : 1;
  }
  if (strcmp(name, "--max-iter") == 0) {
    o->max_iter = (int)strtol(argv[++*i], &end, 10);
    return *end || o->max_iter < 1 ? -1 : 1;
  }
  return 0;
}

int side_parse_files(int argc, char** argv, SideOptions* o) {
  int files = 0;
  for (int i = 1; i < argc; ++i) {
    int read = side_option(argc, argv, &i, o);
    if (read < 0) return 0;
    if (read > 0) continue;
    if (strcmp(argv[i], "--table") == 0)
      o->table = 1;
    else if (argv[i][0] == '-')
      return 0;
    else
      ++files;
  }
  return files > 0;
}

int side_each_file(int argc, char** argv, const SideOptions* o,
                   int (*run)(const char* path, const SideOptions* o)) {
  int code = 0;
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '-') {
      if (strcmp(argv[i], "--table") != 0) ++i;
      continue;
    }
    if (run(argv[i], o) != 0) code = 3;
  }
  return code;
}

int side_read(const char* path, const char* what, int (*is_kind)(const NsdProblem* p),
              NsdProblem* p) {
  NsdReport rep;
  memset(p, 0, sizeof *p);
  memset(&rep, 0, sizeof rep);
  if (nsd_read_problem(path, NSD_KIND_UNKNOWN, p, &rep) == NSD_OK && is_kind(p)) return 1;
  fprintf(stderr, "%s: not %s problem nsdyn can read: %s\n", path, what,
          rep.message[0] ? rep.message : "another kind of problem");
  nsd_problem_clear(p);
  return 0;
}

static int has_suffix(const char* s, const char* suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

int side_dat(const char* path, const NsdProblem* p, const char* prefix, char* tmp, size_t tmp_size,
             const char** dat, NsdReport* rep) {
  tmp[0] = '\0';
  *dat = path;
  if (has_suffix(path, ".dat")) return 0;
  snprintf(tmp, tmp_size, "/tmp/%s_XXXXXX.dat", prefix);
  int fd = mkstemps(tmp, 4);
  if (fd < 0) return 1;
  close(fd);
  if (nsd_write_problem(tmp, p, rep) != NSD_OK) {
    unlink(tmp);
    return 2;
  }
  *dat = tmp;
  return 0;
}

int side_child(int (*work)(void* ctx, void* result), void* ctx, void* result, size_t result_size,
               const char* failed, char* note, size_t note_size) {
  int fds[2] = {-1, -1};
  fflush(stdout);
  if (result_size > 0 && pipe(fds) != 0) {
    snprintf(note, note_size, "not run (no pipe)");
    return 0;
  }
  pid_t child = fork();
  if (child == 0) {
    if (result_size > 0) close(fds[0]);
    alarm(SIDE_CHILD_SECONDS);
    int code = work(ctx, result);
    if (code == 0 && result_size > 0) {
      ssize_t w = write(fds[1], result, result_size);
      code = w == (ssize_t)result_size ? 0 : 4;
    }
    _exit(code);
  }
  ssize_t got = 0;
  if (result_size > 0) {
    close(fds[1]);
    if (child > 0) {
      for (ssize_t k; got < (ssize_t)result_size; got += k) {
        k = read(fds[0], (char*)result + got, result_size - (size_t)got);
        if (k <= 0) break;
      }
    }
    close(fds[0]);
  }
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child) {
    snprintf(note, note_size, "not run (fork failed)");
  } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
    snprintf(note, note_size, "timed out (%d s)", SIDE_CHILD_SECONDS);
  } else if (WIFSIGNALED(status)) {
    snprintf(note, note_size, "crashed (signal %d, %s)", WTERMSIG(status),
             strsignal(WTERMSIG(status)));
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || got != (ssize_t)result_size) {
    snprintf(note, note_size, "%s", failed);
  } else {
    return 1;
  }
  return 0;
}

SolverOptions* side_siconos_options(int solver, double tol, int max_iter) {
  SolverOptions* so = solver_options_create(solver);
  so->dparam[SICONOS_DPARAM_TOL] = tol;
  if (max_iter > 0) so->iparam[SICONOS_IPARAM_MAX_ITER] = max_iter;
  return so;
}

void side_siconos_finish(SolverOptions* so, int* iterations, double* reported) {
  *iterations = so->iparam[SICONOS_IPARAM_ITER_DONE];
  *reported = so->dparam[SICONOS_DPARAM_RESIDU];
  solver_options_delete(so);
}

NsdStatus side_nsd_repeat(SideSolve solve, const void* ctx, double* r, size_t m, double tol,
                          int max_iter, int repeat, const char* label, int* iterations,
                          double* reported, double* seconds) {
  double times[SIDE_MAX_REPEAT];
  NsdSolverOptions o;
  nsd_solver_options_default(&o);
  o.tolerance = tol;
  o.threads = 1;
  if (max_iter > 0) o.max_iterations = max_iter;
  NsdStatus st = NSD_OK;
  for (int k = 0; k < repeat; ++k) {
    NsdReport rep;
    memset(&rep, 0, sizeof rep);
    memset(r, 0, m * sizeof *r);
    double t0 = side_now();
    st = solve(ctx, r, &o, &rep);
    times[k] = side_now() - t0;
    *iterations = rep.iterations;
    *reported = rep.residual;
    if (st != NSD_OK && k == 0) fprintf(stderr, "%s: %s\n", label, rep.message);
  }
  *seconds = side_median(times, repeat);
  return st;
}
