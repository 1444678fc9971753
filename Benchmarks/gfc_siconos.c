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
 * when it aborts, "timed out" after SIDE_CHILD_SECONDS of siconos_side.h), after an untimed
 * warm-up solve in the same child when n <= WARMUP_MAX_N (Spheres, n = 12000, is too large for
 * two: Siconos's NSGS_WR keeps 10 GB).
 * exit status: 0 every file read, 2 usage error, 3 a file could not be read. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nsdyn/numerics.h>

#include <Friction_cst.h>
#include <GlobalFrictionContactProblem.h>
#include <NonSmoothDrivers.h>
#include <SolverOptions.h>

#include "siconos_side.h"

/* the largest n with an untimed warm-up solve in each Siconos child */
#define WARMUP_MAX_N 5000

static int table; /* --table: Markdown rows */

typedef struct Outcome {
  int iterations, info;
  double seconds;  /* median over the repeats */
  double reported; /* the library's own error */
  double nsd;      /* nsd_gfc_error of the returned (r, v) */
  double nsd_r;    /* nsd_gfc_error_of_reaction: r alone, v recovered from it */
} Outcome;

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
  SolverOptions* so = side_siconos_options(solver, tol, max_iter);
  memset(r, 0, m * sizeof *r);
  memset(u, 0, m * sizeof *u);
  memset(v, 0, n * sizeof *v);
  double t0 = side_now();
  out->info = gfc3d_driver(sp, r, u, v, so);
  out->seconds = side_now() - t0;
  side_siconos_finish(so, &out->iterations, &out->reported);
  globalFrictionContact_free(sp);
  out->nsd = nsd_gfc_error(g, r, v, NULL);
  out->nsd_r = nsd_gfc_error_of_reaction(g, r);
}

/* What a Siconos child solves. */
typedef struct SiconosSolve {
  const char* dat;
  const NsdGfc* g;
  int solver, max_iter;
  double tol;
  double *r, *u, *v;
} SiconosSolve;

/* In the child: the solve (after a warm-up one when n <= WARMUP_MAX_N) into the Outcome @p out. */
static int siconos_work(void* ctx, void* out) {
  const SiconosSolve* c = ctx;
  // Siconos's IPM prints every iteration on stdout: silenced
  int quiet = open("/dev/null", O_WRONLY);
  if (quiet >= 0) dup2(quiet, STDOUT_FILENO);
  Outcome o = {0, 0, 0, 0, 0, 0};
  if (c->g->n <= WARMUP_MAX_N)
    run_siconos(c->dat, c->g, c->solver, c->tol, c->max_iter, c->r, c->u, c->v, &o);
  run_siconos(c->dat, c->g, c->solver, c->tol, c->max_iter, c->r, c->u, c->v, &o);
  *(Outcome*)out = o;
  return 0;
}

/* What an nsdyn solver solves. */
typedef struct NsdSolve {
  NsdGfcSolver solver;
  const NsdGfc* g;
  double *u, *v;
} NsdSolve;

static NsdStatus solve_gfc(const void* ctx, double* r, const NsdSolverOptions* o, NsdReport* rep) {
  const NsdSolve* c = ctx;
  return c->solver(c->g, r, c->u, c->v, o, rep);
}

/* One nsdyn solver from r = 0, one thread, --repeat times. */
static void run_nsd(const NsdGfc* g, NsdGfcSolver solver, double tol, int max_iter, int repeat,
                    double* r, double* u, double* v, Outcome* out) {
  const size_t m = (size_t)g->dim * (size_t)g->nc;
  NsdSolve c = {solver, g, u, v};
  out->info = (int)side_nsd_repeat(solve_gfc, &c, r, m, tol, max_iter, repeat, "  nsd",
                                   &out->iterations, &out->reported, &out->seconds);
  out->nsd = nsd_gfc_error(g, r, v, NULL);
  out->nsd_r = nsd_gfc_error_of_reaction(g, r);
}

/* A row without figures (not run, crashed, timed out, no such solver). */
static void print_note(const char* path, const NsdGfc* g, const char* name, const char* note) {
  if (table)
    printf("| %s | %d | %s | %s | | | |\n", side_base_name(path), g->nc, name, note);
  else
    printf("%s contacts=%d n=%d %-16s %s\n", path, g->nc, g->n, name, note);
}

static void print(const char* path, const NsdGfc* g, const char* name, const Outcome* o) {
  if (table) {
    char t[32];
    side_format_time(o->seconds, t, sizeof t);
    printf("| %s | %d | %s | %d%s | %.2g | %.2g | %s |\n", side_base_name(path), g->nc, name,
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
  char tmp[64];
  const char* dat = path;
  if (side_dat(path, p, "gfc_siconos", tmp, sizeof tmp, &dat, &rep) != 0) {
    fprintf(stderr, "%s: no temporary .dat for Siconos's reader: %s\n", path, rep.message);
    return 3;
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
    double times[SIDE_MAX_REPEAT];
    Outcome o = {0, 0, 0, 0, 0, 0};
    SiconosSolve c = {dat, g, sic[k].id, max_iter, tol, r, u, v};
    char note[96] = "";
    int done = 0;
    for (; done < repeat; ++done) {
      if (!side_child(siconos_work, &c, &o, sizeof o, "no result (Siconos's reader failed?)", note,
                      sizeof note))
        break;
      times[done] = o.seconds;
    }
    if (done < repeat) {
      print_note(path, g, name, note);
    } else {
      o.seconds = side_median(times, repeat);
      print(path, g, name, &o);
    }
  }
  if (tmp[0]) unlink(tmp);
  return 0;
}

static int is_gfc(const NsdProblem* p) {
  return p->gfc != NULL;
}

/* Every solver on one file; 0, or 3 when the file cannot be read. */
static int run_file(const char* path, const SideOptions* opt) {
  const double tol = opt->tol;
  const int max_iter = opt->max_iter, repeat = opt->repeat;
  NsdProblem p;
  if (!side_read(path, "a GFC", is_gfc, &p)) return 3;
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
  SideOptions opt = {1e-8, 3, 0, 0};
  if (!side_parse_files(argc, argv, &opt)) return usage();
  table = opt.table;
  if (table) {
    printf("| file | contacts | solver | iterations | error (r, v) | error (r alone) | time |\n");
    printf("|---|---|---|---|---|---|---|\n");
  }
  return side_each_file(argc, argv, &opt, run_file);
}
