/*
 * LcpObstacle: an elastic string pressed onto an obstacle, as an LCP built in
 * code and solved by three nsdyn solvers side by side.
 *
 * A string of unit tension on [0, 1], fixed at both ends, carries a uniform
 * downward load f and cannot go below the obstacle g(x). With n interior
 * nodes, spacing h = 1/(n+1) and the finite-difference stiffness
 * K = tridiag(-1, 2, -1)/h^2, the displacement u satisfies
 *   z = u - g >= 0,  w = K u - f >= 0,  z _|_ w,
 * i.e. the LCP  w = K z + (K g - f). Where the string touches the obstacle,
 * w is the contact pressure times h.
 *
 * usage: LcpObstacle [--nodes N] [--output DIR] [--no-plot]
 * writes DIR/LcpObstacle.csv (x,obstacle,u_lemke,u_psor,u_newton_fb,pressure),
 *        DIR/LcpObstacle_convergence.csv (iteration,psor,newton_fb) and
 *        DIR/LcpObstacle.png (gnuplot) unless --no-plot; DIR is created.
 * exit status (README.md, "Exit status"): 0 all three solvers converged, 1 a solver
 * did not, 2 usage error, 4 the results could not be written, 5 out of memory.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <sys/types.h>

#include <nsdyn/numerics.h>

#include "../../apps/exit_status.hpp"

#define MAX_HISTORY 5000

static const double kLoad = -10.0; /* uniform load f (downward) */

/* Obstacle height below the string: a shallow bowl. */
static double obstacle(double x) {
  return -0.2 + 0.4 * (x - 0.5) * (x - 0.5);
}

/* Build the LCP of the obstacle problem with n interior nodes (K stored CSC). */
static NsdLcp* build_obstacle_lcp(int n) {
  double h = 1.0 / (n + 1), k = 1.0 / (h * h);
  int nnz = 3 * n - 2;
  int* ri = malloc((size_t)nnz * sizeof *ri);
  int* ci = malloc((size_t)nnz * sizeof *ci);
  double* v = malloc((size_t)nnz * sizeof *v);
  double* g = malloc((size_t)n * sizeof *g);
  double* q = malloc((size_t)n * sizeof *q);
  NsdLcp* lcp = NULL;
  if (ri && ci && v && g && q) {
    /* stiffness triplets */
    int t = 0;
    for (int i = 0; i < n; ++i) {
      ri[t] = i;
      ci[t] = i;
      v[t++] = 2.0 * k;
      if (i > 0) {
        ri[t] = i;
        ci[t] = i - 1;
        v[t++] = -k;
      }
      if (i + 1 < n) {
        ri[t] = i;
        ci[t] = i + 1;
        v[t++] = -k;
      }
    }
    NsdMatrix* K = nsd_matrix_create_csc_from_triplets(n, n, nnz, ri, ci, v);
    /* q = K g - f */
    for (int i = 0; i < n; ++i) g[i] = obstacle((i + 1) * h);
    if (K) {
      for (int i = 0; i < n; ++i) q[i] = -kLoad;
      nsd_matrix_gemv(1.0, K, g, 1.0, q);
      lcp = nsd_lcp_create(K, q);
    }
  }
  free(ri);
  free(ci);
  free(v);
  free(g);
  free(q);
  return lcp;
}

/* mkdir -p DIR; 0 on success, else errno is set. */
static int make_directories(const char* dir) {
  char partial[4096];
  size_t len = strlen(dir);
  if (len == 0) return 0;
  if (len >= sizeof partial) {
    errno = ENAMETOOLONG;
    return -1;
  }
  for (size_t i = 1; i <= len; ++i) {
    if (dir[i] != '/' && dir[i] != '\0') continue;
    memcpy(partial, dir, i);
    partial[i] = '\0';
    if (mkdir(partial, 0755) != 0 && errno != EEXIST) return -1;
  }
  struct stat st;
  if (stat(dir, &st) != 0) return -1;
  if (!S_ISDIR(st.st_mode)) {
    errno = ENOTDIR;
    return -1;
  }
  return 0;
}

/* Solve with one named solver, recording its residual history. */
static int run_solver(const NsdLcp* lcp, const char* name, double* z, double* history,
                      int* history_length) {
  NsdProblem p = {0};
  p.kind = NSD_KIND_LCP;
  p.lcp = (NsdLcp*)lcp;
  NsdSolverOptions opt;
  nsd_solver_options_default(&opt);
  opt.max_iterations = MAX_HISTORY;
  if (strcmp(name, "psor") == 0) opt.relaxation = 1.9;
  double* w = malloc((size_t)lcp->n * sizeof *w);
  if (!w) return 0;
  NsdReport rep = {0};
  rep.history = history;
  rep.history_capacity = history ? MAX_HISTORY : 0;
  NsdStatus st = nsd_solve(&p, name, z, w, &opt, &rep);
  printf("  %-10s %-15s %5d iterations  residual %.2e  %.2e s%s%s\n", name, nsd_status_name(st),
         rep.iterations, rep.residual, rep.seconds, rep.message[0] ? "  " : "", rep.message);
  if (history_length) *history_length = rep.history_length;
  free(w);
  return st == NSD_OK;
}

int main(int argc, char** argv) {
  int n = 199, plot = 1;
  const char* out_dir = ".";
  for (int a = 1; a < argc; ++a) {
    if (!strcmp(argv[a], "--nodes") && a + 1 < argc) {
      char* end = NULL;
      long v = strtol(argv[++a], &end, 10);
      n = (end == argv[a] || *end || v < INT_MIN || v > INT_MAX) ? 0 : (int)v;
    } else if (!strcmp(argv[a], "--output") && a + 1 < argc)
      out_dir = argv[++a];
    else if (!strcmp(argv[a], "--no-plot"))
      plot = 0;
    else {
      fprintf(stderr, "usage: LcpObstacle [--nodes N] [--output DIR] [--no-plot]\n");
      return NSDYN_EXIT_USAGE;
    }
  }
  if (n < 3 || n > 100000) {
    fprintf(stderr, "LcpObstacle: --nodes: expected a number of nodes in 3..100000\n");
    return NSDYN_EXIT_USAGE;
  }
  /* the results folder first: a folder that cannot be made must not cost the solves */
  if (make_directories(out_dir) != 0) {
    fprintf(stderr, "LcpObstacle: --output %s: cannot create the folder (%s)\n", out_dir,
            strerror(errno));
    return NSDYN_EXIT_IO;
  }

  NsdLcp* lcp = build_obstacle_lcp(n);
  if (!lcp) {
    fprintf(stderr, "LcpObstacle: out of memory\n");
    return NSDYN_EXIT_INTERNAL;
  }
  printf("LcpObstacle: string on an obstacle, %d nodes, LCP of size %d\n", n, n);

  /* solve with three solvers */
  double* z[3];
  double* hist[2];
  int hlen[2] = {0, 0};
  for (int s = 0; s < 3; ++s) z[s] = calloc((size_t)n, sizeof(double));
  hist[0] = calloc(MAX_HISTORY, sizeof(double));
  hist[1] = calloc(MAX_HISTORY, sizeof(double));
  double* w = malloc((size_t)n * sizeof *w);
  if (!(z[0] && z[1] && z[2] && hist[0] && hist[1] && w)) {
    fprintf(stderr, "LcpObstacle: out of memory\n");
    return NSDYN_EXIT_INTERNAL;
  }
  int ok = 1;
  ok &= run_solver(lcp, "lemke", z[0], NULL, NULL);
  ok &= run_solver(lcp, "psor", z[1], hist[0], &hlen[0]);
  ok &= run_solver(lcp, "newton_fb", z[2], hist[1], &hlen[1]);

  /* contacts and agreement, whatever happens to the files */
  int contacts = 0;
  double max_diff = 0.0;
  for (int i = 0; i < n; ++i) {
    if (z[0][i] <= 1e-12) ++contacts;
    for (int s = 1; s < 3; ++s) max_diff = fmax(max_diff, fabs(z[s][i] - z[0][i]));
  }
  printf("LcpObstacle: %d nodes touch the obstacle; max |z_solver - z_lemke| = %.2e\n", contacts,
         max_diff);

  /* results: displacement u = z + g, pressure w (from Lemke's z) */
  char path[4096], conv[4096], png[4096];
  snprintf(path, sizeof path, "%s/LcpObstacle.csv", out_dir);
  snprintf(conv, sizeof conv, "%s/LcpObstacle_convergence.csv", out_dir);
  snprintf(png, sizeof png, "%s/LcpObstacle.png", out_dir);
  /* the results are written even when a solver failed: they show where */
  const char* failed_path = NULL;
  FILE* f = fopen(path, "w");
  if (!f) failed_path = path;
  FILE* fc = f ? fopen(conv, "w") : NULL;
  if (f && !fc) failed_path = conv;
  int write_errno = errno;
  if (f && fc) {
    double h = 1.0 / (n + 1);
    nsd_lcp_error(lcp, z[0], w);
    fprintf(f, "x,obstacle,u_lemke,u_psor,u_newton_fb,pressure\n");
    fprintf(f, "0,%.10g,0,0,0,0\n", obstacle(0.0));
    for (int i = 0; i < n; ++i) {
      double x = (i + 1) * h, g = obstacle(x);
      fprintf(f, "%.10g,%.10g,%.10g,%.10g,%.10g,%.10g\n", x, g, z[0][i] + g, z[1][i] + g,
              z[2][i] + g, w[i] / h);
    }
    fprintf(f, "1,%.10g,0,0,0,0\n", obstacle(1.0));
    fprintf(fc, "iteration,psor,newton_fb\n");
    int hmax = hlen[0] > hlen[1] ? hlen[0] : hlen[1];
    for (int k = 0; k < hmax; ++k) {
      fprintf(fc, "%d,", k + 1);
      if (k < hlen[0]) fprintf(fc, "%.6e", hist[0][k]);
      fprintf(fc, ",");
      if (k < hlen[1]) fprintf(fc, "%.6e", hist[1][k]);
      fprintf(fc, "\n");
    }
  }
  int written = f && fc;
  if (f && (ferror(f) | fclose(f))) {
    written = 0;
    if (!failed_path) {
      failed_path = path;
      write_errno = errno;
    }
  }
  if (fc && (ferror(fc) | fclose(fc))) {
    written = 0;
    if (!failed_path) {
      failed_path = conv;
      write_errno = errno;
    }
  }
  free(w);

  /* plot with gnuplot: the string and the obstacle, and the convergence */
  int plotted = 0, have_gnuplot = 0;
  if (written && plot) have_gnuplot = system("command -v gnuplot > /dev/null 2>&1") == 0;
  if (written && plot && have_gnuplot) {
    char cmd[16384];
    snprintf(cmd, sizeof cmd,
             "gnuplot -e \"set terminal pngcairo size 1000,450 noenhanced; set output '%s';"
             " set datafile separator ','; set multiplot layout 1,2;"
             " set title 'string on an obstacle'; set xlabel 'x'; set ylabel 'height';"
             " plot '%s' using 1:2 with lines lw 2 title 'obstacle',"
             " '' using 1:3 with lines lw 2 title 'string (lemke)',"
             " '' using 1:4 every 8 with points pt 6 title 'psor';"
             " set title 'convergence'; set xlabel 'iteration'; set ylabel 'LCP error';"
             " set logscale y; set format y '%%.0e';"
             " plot '%s' using 1:2 with lines title 'psor (omega 1.9)',"
             " '' using 1:3 with linespoints title 'newton_fb'; unset multiplot\" 2>&1",
             png, path, conv);
    plotted = system(cmd) == 0;
  }

  if (written) {
    printf("results: %s\n         %s\n", path, conv);
    if (plotted)
      printf("plot:    %s\n", png);
    else if (plot && !have_gnuplot)
      printf("plot:    not drawn (gnuplot is not installed)\n");
    else if (plot)
      printf("plot:    not drawn (gnuplot failed)\n");
  } else {
    fprintf(stderr, "LcpObstacle: cannot write %s (%s); no results written\n", failed_path,
            strerror(write_errno));
  }
  if (!ok) fprintf(stderr, "LcpObstacle: a solver did not converge (see above)\n");
  for (int s = 0; s < 3; ++s) free(z[s]);
  free(hist[0]);
  free(hist[1]);
  nsd_lcp_destroy(lcp);
  if (!written) return NSDYN_EXIT_IO;
  return ok ? NSDYN_EXIT_OK : NSDYN_EXIT_FAILED;
}
