/*
 * LcpFromFile: load a problem file (Siconos .dat or FCLIB .hdf5), solve it
 * with a solver chosen by name, print the report and check the answer
 * independently.
 *
 * usage: LcpFromFile [FILE] [SOLVER]
 *   FILE defaults to the shared Siconos test problem lcp_exp_murty.dat,
 *   SOLVER to the default of the file's kind.
 */
#include <stdio.h>
#include <stdlib.h>

#include <nsdyn/numerics.h>

int main(int argc, char** argv) {
  const char* file = argc > 1 ? argv[1] : NSDYN_SHARED_DIR "/data/lcp/lcp_exp_murty.dat";
  const char* solver = argc > 2 ? argv[2] : NULL;

  /* read: the kind is detected from the file */
  NsdProblem problem = {0};
  NsdReport report = {0};
  if (nsd_read_problem(file, NSD_KIND_UNKNOWN, &problem, &report) != NSD_OK) {
    fprintf(stderr, "LcpFromFile: %s\n", report.message);
    return 3;
  }
  int n = nsd_problem_size(&problem);
  printf("%s: %s problem of size %d\n", file, nsd_kind_name(problem.kind), n);

  /* solve with default options */
  double* x = calloc((size_t)n + 1, sizeof *x);
  double* y = calloc((size_t)n + 1, sizeof *y);
  NsdSolverOptions options;
  nsd_solver_options_default(&options);
  NsdStatus status = nsd_solve(&problem, solver, x, y, &options, &report);
  printf("solver %s: %s after %d iterations, residual %.3e, %.3e s\n", report.solver,
         nsd_status_name(status), report.iterations, report.residual, report.seconds);
  if (status != NSD_OK) printf("  %s\n", report.message);

  /* the answer, checked by the problem's own error measure */
  if (status != NSD_BAD_INPUT) {
    printf("independent check: error %.3e\n", nsd_problem_error(&problem, x));
    for (int i = 0; i < n && i < 8; ++i)
      printf("  x[%d] = % .6e   y[%d] = % .6e\n", i, x[i], i, y[i]);
    if (n > 8) printf("  ... (%d more)\n", n - 8);
  }
  free(x);
  free(y);
  nsd_problem_clear(&problem);
  return status == NSD_OK ? 0 : 1;
}
