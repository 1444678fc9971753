/* fc3d_siconos_side: one FC3D problem solved by Siconos's ADMM (Debian's
 * libsiconos-numerics, SICONOS_FRICTION_3D_ADMM with its default options and
 * the tolerance given) and by nsdyn's admm, side by side in one process, and
 * timed the same way (wall clock around the solver call only, from r = 0; the
 * libraries run in turn, --repeat times each, default 5, and the median is
 * printed). Both reactions are then measured with nsdyn's Siconos error
 * (nsd_fc_error), next to what each library reports.
 *
 * usage: fc3d_siconos_side FILE [--tol X] [--repeat N] [--max-iter N]
 *   FILE: a Siconos .dat FC3D file (read by Siconos's reader and by nsdyn's)
 *   or an FCLIB .hdf5 (Debian's Siconos has no FCLIB: nsdyn reads it and
 *   writes a temporary .dat for Siconos's reader).
 * Output: one line per library, then the ratios:
 *   siconos_admm iterations=I seconds=S reported_error=E nsd_error=E2
 *   nsd_admm     iterations=I seconds=S reported_error=E nsd_error=E2
 *   ratio        seconds(nsd/siconos)=R iterations(nsd/siconos)=R
 * exit status: 0 both solved to the tolerance (by nsd_fc_error, with a 1.5x
 * slack for Siconos, whose own error test is on its last reaction), 1 one did
 * not, 2 usage error, 3 the file could not be read. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nsdyn/numerics.h>

#include <FrictionContactProblem.h>
#include <Friction_cst.h>
#include <NonSmoothDrivers.h>
#include <SolverOptions.h>

#include "siconos_side.h"

typedef struct Outcome {
  int iterations;
  double seconds;  /* one run's, then the median over the repeats */
  double reported; /* the library's own error */
  double nsd;      /* nsd_fc_error of the returned reaction */
} Outcome;

static int usage(void) {
  fprintf(stderr, "usage: fc3d_siconos_side FILE [--tol X] [--repeat N] [--max-iter N]\n");
  return 2;
}

/* Siconos's ADMM from r = 0 into r, u: its info; *out gets iterations, own error, time. */
static int run_siconos(FrictionContactProblem* sp, double tol, int max_iter, double* r, double* u,
                       int m, Outcome* out) {
  SolverOptions* so = side_siconos_options(SICONOS_FRICTION_3D_ADMM, tol, max_iter);
  memset(r, 0, (size_t)m * sizeof *r);
  memset(u, 0, (size_t)m * sizeof *u);
  double t0 = side_now();
  int info = fc3d_driver(sp, r, u, so);
  out->seconds = side_now() - t0;
  side_siconos_finish(so, &out->iterations, &out->reported);
  return info;
}

typedef struct NsdAdmm {
  const NsdFc* fc;
  double* u;
} NsdAdmm;

static NsdStatus solve_admm(const void* ctx, double* r, const NsdSolverOptions* o, NsdReport* rep) {
  const NsdAdmm* a = ctx;
  return nsd_fc3d_admm(a->fc, r, a->u, o, rep);
}

/* nsdyn's admm from r = 0 (one thread) into r, u: 0 converged, 1 not. */
static int run_nsd(const NsdFc* fc, double tol, int max_iter, double* r, double* u, Outcome* out) {
  NsdAdmm a = {fc, u};
  NsdStatus st = side_nsd_repeat(solve_admm, &a, r, (size_t)(3 * fc->nc), tol, max_iter, 1,
                                 "nsd admm", &out->iterations, &out->reported, &out->seconds);
  return st == NSD_OK ? 0 : 1;
}

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const char* path = argv[1];
  SideOptions opt = {1e-8, 5, 0, 0};
  for (int i = 2; i < argc; ++i)
    if (side_option(argc, argv, &i, &opt) <= 0) return usage();
  const double tol = opt.tol;
  const int repeat = opt.repeat, max_iter = opt.max_iter;

  NsdProblem p;
  NsdReport rep;
  memset(&p, 0, sizeof p);
  memset(&rep, 0, sizeof rep);
  if (nsd_read_problem(path, NSD_KIND_FC3D, &p, &rep) != NSD_OK || !p.fc || p.fc->dim != 3) {
    fprintf(stderr, "%s: not an FC3D problem nsdyn can read: %s\n", path, rep.message);
    nsd_problem_clear(&p);
    return 3;
  }

  // Siconos reads .dat only: an FCLIB file goes through a temporary .dat
  char tmp[64] = "";
  const char* dat = path;
  int made = side_dat(path, &p, "fc3d_siconos_side", tmp, sizeof tmp, &dat, &rep);
  if (made != 0) {
    if (made == 1)
      fprintf(stderr, "%s: no temporary file for Siconos's reader\n", path);
    else
      fprintf(stderr, "%s: %s\n", tmp, rep.message);
    nsd_problem_clear(&p);
    return 3;
  }
  FrictionContactProblem* sp = frictionContact_new_from_filename(dat);
  if (tmp[0]) unlink(tmp);
  if (!sp || sp->dimension != 3 || sp->numberOfContacts != p.fc->nc) {
    fprintf(stderr, "%s: Siconos's reader failed\n", path);
    if (sp) frictionContactProblem_free(sp);
    nsd_problem_clear(&p);
    return 3;
  }

  // the two libraries in turn, so that a change of the machine's load touches both
  int m = 3 * p.fc->nc;
  double* r = calloc((size_t)m + 1, sizeof *r);
  double* u = calloc((size_t)m + 1, sizeof *u);
  double ts[SIDE_MAX_REPEAT], tn[SIDE_MAX_REPEAT];
  Outcome s = {0}, n = {0};
  int info_s = -1, info_n = -1;
  for (int k = 0; r && u && k < repeat; ++k) {
    info_s = run_siconos(sp, tol, max_iter, r, u, m, &s);
    s.nsd = nsd_fc_error(p.fc, r, u);
    ts[k] = s.seconds;
    info_n = run_nsd(p.fc, tol, max_iter, r, u, &n);
    n.nsd = nsd_fc_error(p.fc, r, u);
    tn[k] = n.seconds;
  }
  free(r);
  free(u);
  if (info_s < 0 && info_n < 0) {
    fprintf(stderr, "%s: out of memory\n", path);
    frictionContactProblem_free(sp);
    nsd_problem_clear(&p);
    return 3;
  }
  s.seconds = side_median(ts, repeat);
  n.seconds = side_median(tn, repeat);
  printf("file %s contacts=%d tol=%g repeat=%d (median time)\n", path, p.fc->nc, tol, repeat);
  printf("siconos_admm iterations=%d seconds=%.6f reported_error=%.3e nsd_error=%.3e info=%d\n",
         s.iterations, s.seconds, s.reported, s.nsd, info_s);
  printf("nsd_admm     iterations=%d seconds=%.6f reported_error=%.3e nsd_error=%.3e info=%d\n",
         n.iterations, n.seconds, n.reported, n.nsd, info_n);
  printf("ratio        seconds(nsd/siconos)=%.3f iterations(nsd/siconos)=%.3f\n",
         s.seconds > 0 ? n.seconds / s.seconds : NAN,
         s.iterations > 0 ? (double)n.iterations / s.iterations : NAN);
  frictionContactProblem_free(sp);
  nsd_problem_clear(&p);
  return (n.nsd <= tol && s.nsd <= 1.5 * tol) ? 0 : 1;
}
