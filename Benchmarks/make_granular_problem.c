/* make_granular_problem: write an FC3D problem with about N contacts (spheres
 * of random radii stacked on a lattice under gravity, see granular.h) as a
 * Siconos .dat file, the Delassus matrix in sparse-block storage (3 x 3 blocks).
 *
 * usage: make_granular_problem N OUT.dat [--seed S] [--layers L] [--mu MU]
 *                              [--radius-spread S]
 * Prints a one-line summary (lattice, bodies, contacts, Delassus blocks,
 * largest gap, largest tilt of a normal from its lattice axis, time) on stderr. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "granular.h"

static int usage(void) {
  fprintf(stderr,
          "usage: make_granular_problem N OUT.dat [--seed S] [--layers L] [--mu MU]\n"
          "                             [--radius-spread S]\n"
          "  N             target number of contacts (>= 1)\n"
          "  --seed S      random seed, default 1\n"
          "  --layers L    layers of spheres, default 4\n"
          "  --mu MU       friction coefficient, default 0.3\n"
          "  --radius-spread S  alternating radius amplitude / radius in [0,0.2], default 0.05\n");
  return 2;
}

/* Parse a whole string as a long long / double; 0 on garbage. */
static int parse_ll(const char* s, long long* out) {
  char* end = NULL;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno || end == s || *end) return 0;
  *out = v;
  return 1;
}

static int parse_double(const char* s, double* out) {
  char* end = NULL;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end) return 0;
  *out = v;
  return 1;
}

int main(int argc, char** argv) {
  GranularParams params;
  granular_params_default(&params);
  const char* output = NULL;
  int have_n = 0;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    int has_value = i + 1 < argc;
    long long iv = 0;
    double dv = 0;
    if (!strcmp(a, "--seed") && has_value && parse_ll(argv[i + 1], &iv) && iv >= 0) {
      params.seed = (unsigned long long)iv;
      ++i;
    } else if (!strcmp(a, "--layers") && has_value && parse_ll(argv[i + 1], &iv) && iv > 0 &&
               iv < 1000) {
      params.layers = (int)iv;
      ++i;
    } else if (!strcmp(a, "--mu") && has_value && parse_double(argv[i + 1], &dv)) {
      params.mu = dv;
      ++i;
    } else if (!strcmp(a, "--radius-spread") && has_value && parse_double(argv[i + 1], &dv)) {
      params.radius_spread = dv;
      ++i;
    } else if (a[0] != '-' && !have_n) {
      if (!parse_ll(a, &iv) || iv < 1 || iv > 50000000) {
        fprintf(stderr, "make_granular_problem: N = %s: expected an integer in [1, 5e7]\n", a);
        return 2;
      }
      params.contacts = (int)iv;
      have_n = 1;
    } else if (a[0] != '-' && !output) {
      output = a;
    } else {
      fprintf(stderr, "make_granular_problem: unexpected argument %s\n", a);
      return usage();
    }
  }
  if (!have_n || !output) return usage();

  // scene, then the assembled problem
  double start = nsd_wall_time();
  NsdReport report;
  memset(&report, 0, sizeof report);
  GranularScene* scene = NULL;
  if (granular_build(&params, &scene, &report) != NSD_OK) {
    fprintf(stderr, "make_granular_problem: %s\n", report.message);
    return 1;
  }
  NsdFc* fc = granular_fc(scene);
  if (!fc) {
    fprintf(stderr, "make_granular_problem: out of memory assembling N (%d contacts)\n",
            scene->n_contacts);
    granular_destroy(scene);
    return 1;
  }
  double built = nsd_wall_time() - start;

  // write it
  NsdProblem problem;
  memset(&problem, 0, sizeof problem);
  problem.kind = NSD_KIND_FC3D;
  problem.fc = fc;
  NsdStatus st = nsd_write_problem(output, &problem, &report);
  if (st != NSD_OK)
    fprintf(stderr, "make_granular_problem: %s\n", report.message);
  else
    fprintf(
        stderr,
        "make_granular_problem: %s: %d x %d x %d spheres, %d bodies, %d contacts, "
        "%d Delassus blocks, largest gap %.3g m, largest normal tilt %.1f deg, built in %.3f s\n",
        output, scene->nx, scene->ny, scene->layers, scene->n_bodies, scene->n_contacts,
        fc->M->sbm->n_blocks, scene->max_gap, scene->max_tilt_deg, built);
  nsd_problem_clear(&problem);
  granular_destroy(scene);
  return st == NSD_OK ? 0 : 1;
}
