// peridynamics_solvers: the steppers of a peridynamic body on one step of a large block
// (issue 28): successive substitution vs Newton–CHOLMOD vs explicit velocity Verlet.
//
//   peridynamics_solvers [--n N] [--newton-n M] [--threads T] [--tolerance TOL]
//                        [--steps-factor K] [--theta THETA] [--csv FILE]
//
// A PMB block of N³ points (default 47: 103,823 points; Δx = 1 mm, δ = 3Δx, E = 1 GPa,
// ρ = 2000 kg/m³, surface correction on) in a perturbed state (smooth displacements of
// 1e-3 Δx and velocities of 0.1 m/s: low modes) takes one implicit step of
// h = K explicit stable steps (K = 10 by default) with θ (default 1/2).
// Accuracy matching: the two implicit methods minimise the same step energy Φ to the same
// relative residual (TOL, default 1e-6), and the line reports the largest difference of
// their end positions relative to the largest displacement of the step; velocity Verlet
// covers the same interval h with the steps its stability allows (ceil(h / (0.9 h_stable)));
// its end positions and those of the θ-step are compared with a reference (Verlet at a
// quarter of the stable step) so that the time-discretisation errors are on the same line.
// Newton runs on a block of M³ points when M is given (its factor grows much faster than
// the body: CHOLMOD's fill of a 3D lattice with 122 neighbours per point).
// Output: one line per method (iterations, seconds, bond updates per second and per core,
// Φ decrease, error) and the memory per bond: body arrays (memoryPerBond) and, for Newton,
// the tangent blocks and the matrix.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "nsdyn/BondBasedMaterial.hpp"
#include "nsdyn/NewtonCholmod.hpp"
#include "nsdyn/PeridynamicGenerators.hpp"
#include "nsdyn/SuccessiveSubstitution.hpp"
#include "nsdyn/VelocityVerlet.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

using namespace nsdyn;

namespace {

struct Args {
  int n = 47, newtonN = 0, threads = 0;
  double tolerance = 1e-6, stepsFactor = 10.0, theta = 0.5;
  std::string csv;
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "peridynamics_solvers: %s\nusage: peridynamics_solvers [--n N] [--newton-n M] "
               "[--threads T] [--tolerance TOL] [--steps-factor K] [--theta THETA] "
               "[--csv FILE]\n",
               why);
  std::exit(2);
}

Args parse(int argc, char** argv) {
  Args a;
  for (int k = 1; k < argc; ++k) {
    const std::string s = argv[k];
    if (k + 1 >= argc) usage(("missing value after " + s).c_str());
    const char* v = argv[++k];
    if (s == "--n")
      a.n = std::atoi(v);
    else if (s == "--newton-n")
      a.newtonN = std::atoi(v);
    else if (s == "--threads")
      a.threads = std::atoi(v);
    else if (s == "--tolerance")
      a.tolerance = std::atof(v);
    else if (s == "--steps-factor")
      a.stepsFactor = std::atof(v);
    else if (s == "--theta")
      a.theta = std::atof(v);
    else if (s == "--csv")
      a.csv = v;
    else
      usage(("unknown option " + s).c_str());
  }
  if (a.n < 4 || a.newtonN < 0 || a.tolerance <= 0 || a.stepsFactor <= 0) usage("bad option value");
  return a;
}

std::unique_ptr<PeridynamicBody> makeBlock(int n, int threads) {
  PeridynamicBodyOptions o;
  o.name = "block";
  o.spacing = 1e-3;
  o.horizon = 3e-3;
  o.density = 2000.0;
  o.threads = threads;
  PeridynamicElasticity e;
  e.youngModulus = 1e9;
  e.poissonRatio = 0.25;
  const double half = 0.5 * n * o.spacing;
  auto b =
      peridynamics::box({0, 0, 0}, {half, half, half}, o, std::make_shared<BondBasedMaterial>(e));
  // smooth fields over the block (s in [0, 1] per axis): the low modes an implicit step of
  // 10 stable steps resolves
  for (std::size_t i = 0; i < b->size(); ++i) {
    double s[3];
    for (int k = 0; k < 3; ++k) s[k] = (b->X[3 * i + k] + half) / (2.0 * half);
    const double bump = std::sin(M_PI * s[0]) * std::sin(M_PI * s[1]) * std::sin(M_PI * s[2]);
    for (int k = 0; k < 3; ++k) {
      b->x[3 * i + k] += 1e-3 * o.spacing * bump * std::cos(M_PI * s[(k + 1) % 3]);
      b->v[3 * i + k] = 0.1 * std::sin(M_PI * (s[k] + s[(k + 2) % 3]));
    }
  }
  return b;
}

double maxAbsDiff(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0.0;
  for (std::size_t q = 0; q < a.size(); ++q) d = std::max(d, std::abs(a[q] - b[q]));
  return d;
}

// Verlet over [0, h] in k equal steps from the body's state; end positions into x.
double verletRun(VelocityVerlet& verlet, const PeridynamicBody& start, double h, int k, int threads,
                 std::vector<double>& x, std::size_t& bondUpdates) {
  PeridynamicBody body = start;
  PeridynamicStepOptions so;
  so.h = h / k;
  so.threads = threads;
  std::vector<double> xn(body.x.size()), vn(body.v.size());
  const auto t0 = std::chrono::steady_clock::now();
  for (int s = 0; s < k; ++s) {
    bondUpdates += verlet.freeStep(body, so, xn.data(), vn.data()).bondUpdates;
    body.x.swap(xn);
    body.v.swap(vn);
  }
  x = body.x;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
#ifdef _OPENMP
  const int cores = args.threads > 0 ? args.threads : omp_get_max_threads();
#else
  const int cores = 1;
#endif
  FILE* csv = args.csv.empty() ? nullptr : std::fopen(args.csv.c_str(), "w");
  if (!args.csv.empty() && !csv) {
    std::fprintf(stderr, "peridynamics_solvers: cannot write %s\n", args.csv.c_str());
    return 4;
  }
  if (csv)
    std::fprintf(csv,
                 "method,points,bonds,threads,iterations,seconds,bond_updates,"
                 "updates_per_s_per_core,phi_start,phi_end,residual,error\n");
  auto report = [&](const char* method, const PeridynamicBody& b, int it, double seconds,
                    std::size_t updates, double phi0, double phi1, double residual, double error) {
    const double rate = updates / seconds / cores;
    std::printf(
        "%-13s %8zu points %10zu bonds: %5d iterations %8.3f s  %6.1f M bond "
        "updates/s/core  Phi %.4e -> %.4e  residual %.1e  error %.2e\n",
        method, b.size(), b.bondCount(), it, seconds, rate / 1e6, phi0, phi1, residual, error);
    if (csv)
      std::fprintf(csv, "%s,%zu,%zu,%d,%d,%.6f,%zu,%.6e,%.9e,%.9e,%.3e,%.3e\n", method, b.size(),
                   b.bondCount(), cores, it, seconds, updates, rate, phi0, phi1, residual, error);
  };

  auto t0 = std::chrono::steady_clock::now();
  auto body = makeBlock(args.n, args.threads);
  const double build = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double hStable = VelocityVerlet::stableStep(*body);
  const double h = args.stepsFactor * hStable;
  std::printf(
      "block %d^3: %zu points, %zu directed bonds (%.1f per point), built in %.2f s; "
      "%d threads; stable step %.3e s, h = %.3e s, theta %.2f, tolerance %.0e\n",
      args.n, body->size(), body->bondCount(), double(body->bondCount()) / body->size(), build,
      cores, hStable, h, args.theta, args.tolerance);
  std::printf(
      "memory: body bond arrays %zu bytes per directed bond (neighbour, length, factor, "
      "flag)%s\n",
      PeridynamicBody::memoryPerBond(), body->reverse.empty() ? "" : " + 4 (reverse index)");

  PeridynamicStepOptions so;
  so.h = h;
  so.theta = args.theta;
  so.tolerance = args.tolerance;
  so.maxIterations = 100000;
  so.threads = args.threads;
  const std::size_t n3 = 3 * body->size();
  std::vector<double> xs(n3), vs(n3), xj(n3), vj(n3), xn(n3), vn(n3);

  // Reference: Verlet at a quarter of the stable step over [0, h].
  VelocityVerlet verlet;
  std::vector<double> xref, xv;
  std::size_t refUpdates = 0;
  const int refSteps = static_cast<int>(std::ceil(4.0 * args.stepsFactor));
  verletRun(verlet, *body, h, refSteps, args.threads, xref, refUpdates);
  double move = 0.0;
  for (std::size_t q = 0; q < n3; ++q) move = std::max(move, std::abs(xref[q] - body->x[q]));
  std::printf("reference: Verlet, %d steps of h/%d; largest displacement over the step %.3e m\n",
              refSteps, refSteps, move);

  SuccessiveSubstitution ss;
  auto r = ss.freeStep(*body, so, xs.data(), vs.data());
  report("substitution", *body, r.iterations, r.seconds, r.bondUpdates, r.energyStart, r.energyEnd,
         r.residual, maxAbsDiff(xs, xref) / move);
  so.accelerate = false;
  SuccessiveSubstitution jacobi;
  r = jacobi.freeStep(*body, so, xj.data(), vj.data());
  report("jacobi", *body, r.iterations, r.seconds, r.bondUpdates, r.energyStart, r.energyEnd,
         r.residual, maxAbsDiff(xj, xref) / move);
  so.accelerate = true;

  std::size_t vUpdates = 0;
  const int vSteps = static_cast<int>(std::ceil(args.stepsFactor / 0.9));
  const double vSeconds = verletRun(verlet, *body, h, vSteps, args.threads, xv, vUpdates);
  report("verlet", *body, vSteps, vSeconds, vUpdates, 0.0, 0.0, 0.0, maxAbsDiff(xv, xref) / move);

  // Newton (on a smaller block when asked).
  std::unique_ptr<PeridynamicBody> small;
  const PeridynamicBody* nb = body.get();
  if (args.newtonN > 0 && args.newtonN != args.n) {
    small = makeBlock(args.newtonN, args.threads);
    nb = small.get();
  }
  NewtonCholmod newton;
  std::vector<double> xw(3 * nb->size()), vw(3 * nb->size());
  r = newton.freeStep(*nb, so, xw.data(), vw.data());
  double error = -1.0;
  if (nb == body.get()) {
    error = maxAbsDiff(xw, xref) / move;
    std::printf(
        "newton vs substitution: largest position difference %.2e of the largest "
        "displacement\n",
        maxAbsDiff(xw, xs) / move);
  }
  report("newton", *nb, r.iterations, r.seconds, r.bondUpdates, r.energyStart, r.energyEnd,
         r.residual, error);
  std::printf(
      "memory: Newton adds 72 bytes per directed bond (tangent blocks), the CSC lower "
      "triangle (54 bytes per directed bond: values and row indices; 108 while a copy "
      "is refactored) and the Cholesky factor\n");
  if (csv) std::fclose(csv);
  return 0;
}
