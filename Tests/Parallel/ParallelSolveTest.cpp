// MPI test of the distributed friction-contact solve (run by ctest under mpirun -np 1, 2, 3;
// doc/parallel.md "Distributed solve").
//   test_parallel_solve check   a settled-looking pile: 10 x 10 x 8 spheres (radius 5 cm) on a
//                               cubic lattice overlapping by 2 mm, jittered by up to 0.5 mm,
//                               the bottom layer fixed, small random velocities; one contact
//                               problem (free velocity v + h g, h = 1e-3, mu = 0.1) solved by
//                               DistributedContactProblem (APGD over the ranks) at tolerance
//                               1e-10; rank 0 solves the same global problem on one process
//                               (MPI_COMM_SELF) and compares the impulses and the velocity
//                               changes (1e-8 of their largest magnitude; bit for bit on one
//                               rank, with and without the reduction hooks); the global
//                               Siconos error at exit <= the tolerance, the report the same on
//                               every rank; a warm-started re-solve takes few iterations; a
//                               bad inverse mass on one rank makes every rank throw.
//                               Prints "hash=<16 hex>" (rank 0) over the gathered impulses and
//                               velocity changes, for the rerun comparison.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "parallel_pile.hpp"
#include "parallel_test_support.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/nsd_fc.h"
#include "nsdyn/parallel/Collective.hpp"
#include "nsdyn/parallel/Decomposition.hpp"
#include "nsdyn/parallel/DistributedContactProblem.hpp"
#include "nsdyn/parallel/DistributedDetector.hpp"

using nsdyn::parallel::BodyArrays;
using nsdyn::parallel::Decomposition;
using nsdyn::parallel::DistributedContactProblem;
using nsdyn::parallel::DistributedDetector;

namespace {

int g_rank = 0, g_size = 1, g_failures = 0;
using namespace nsdyn::test::parallel;  // the pile: kRadius, ..., Scene, makeScene
constexpr double kTolerance = 1e-10;

void check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "FAIL (rank %d): %s\n", g_rank, what.c_str());
    ++g_failures;
  }
}

BodyArrays slice(const BodyArrays& all) { return nsdyn::test::parallel::slice(all, g_rank, g_size); }
using nsdyn::test::parallel::fnv;

// One contact or one body on the wire.
struct ContactWire {
  std::int64_t key[3];
  double r[3];
};
struct BodyWire {
  std::int64_t id;
  double dv[6];
};


struct Solved {
  std::vector<ContactWire> contacts;  // rank 0: all, sorted by key
  std::vector<BodyWire> bodies;       // rank 0: all, sorted by id
  NsdReport report{};
  double seconds = 0.0;  // slowest rank
  int warmIterations = 0;
  double warmResidual = 0.0;
  std::size_t neighbours = 0;
  std::size_t fewestContacts = 0;  // over the ranks
};

NsdSolverOptions solverOptions() {
  NsdSolverOptions o;
  nsd_solver_options_default(&o);
  o.tolerance = kTolerance;
  o.max_iterations = 50000;
  o.threads = 1;
  return o;
}

// The scene over the ranks of comm: partition, detection, build, solve, gather to its rank 0.
Solved solveOver(MPI_Comm comm, const Scene& scene, const BodyArrays& initial) {
  Decomposition::Options options;
  options.halo = kRadius + kMargin + 1e-3;
  Decomposition d(comm, options);
  d.partition(initial);
  nsdyn::ContactDetectorOptions detection;
  detection.margin = kMargin;
  detection.breakingDistance = kMargin;
  detection.threads = 1;
  DistributedDetector detector(detection);
  detector.detect(d);
  std::vector<double> inverseMass, freeVelocity;
  for (std::size_t k = 0; k < d.owned().size(); ++k) {
    const std::size_t id = static_cast<std::size_t>(d.owned().id[k]);
    inverseMass.push_back(scene.inverseMass[id]);
    freeVelocity.insert(freeVelocity.end(),
                        scene.freeVelocity.begin() + static_cast<std::ptrdiff_t>(6 * id),
                        scene.freeVelocity.begin() + static_cast<std::ptrdiff_t>(6 * id + 6));
  }
  DistributedContactProblem problem(comm);
  problem.build(d, detector, inverseMass, freeVelocity, kMu);
  Solved out;
  out.neighbours = problem.neighbours();
  unsigned long count = problem.size(), fewest = 0;
  MPI_Allreduce(&count, &fewest, 1, MPI_UNSIGNED_LONG, MPI_MIN, comm);
  out.fewestContacts = fewest;
  NsdSolverOptions o = solverOptions();
  MPI_Barrier(comm);
  const auto t0 = std::chrono::steady_clock::now();
  const NsdStatus status = problem.solve(o, out.report);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  MPI_Allreduce(&seconds, &out.seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
  check(status == NSD_OK,
        std::string("distributed APGD: ") + nsd_status_name(status) + " " + out.report.message);
  check(out.report.residual <= kTolerance,
        "Siconos error at exit " + std::to_string(out.report.residual) + " > tolerance");
  // the same report on every rank
  double mine[2] = {static_cast<double>(out.report.iterations), out.report.residual}, lo[2], hi[2];
  MPI_Allreduce(mine, lo, 2, MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(mine, hi, 2, MPI_DOUBLE, MPI_MAX, comm);
  check(lo[0] == hi[0] && lo[1] == hi[1], "the report differs between ranks");

  std::vector<ContactWire> contacts;
  for (std::size_t c = 0; c < problem.size(); ++c) {
    ContactWire w{};
    for (int i = 0; i < 3; ++i) {
      w.key[i] = problem.keys()[c][static_cast<std::size_t>(i)];
      w.r[i] = problem.impulses()[3 * c + static_cast<std::size_t>(i)];
    }
    contacts.push_back(w);
  }
  std::vector<BodyWire> bodies;
  for (std::size_t k = 0; k < d.owned().size(); ++k) {
    BodyWire b{};
    b.id = d.owned().id[k];
    for (int i = 0; i < 6; ++i)
      b.dv[i] = problem.velocityChange()[6 * k + static_cast<std::size_t>(i)];
    bodies.push_back(b);
  }
  out.contacts = gatherToRoot(contacts, comm);
  out.bodies = gatherToRoot(bodies, comm);
  std::sort(out.contacts.begin(), out.contacts.end(),
            [](const ContactWire& a, const ContactWire& b) {
              return std::lexicographical_compare(a.key, a.key + 3, b.key, b.key + 3);
            });
  std::sort(out.bodies.begin(), out.bodies.end(),
            [](const BodyWire& a, const BodyWire& b) { return a.id < b.id; });

  // warm start: the same problem again, from the impulses just found (by key)
  problem.build(d, detector, inverseMass, freeVelocity, kMu);
  o.warm_start = 1;
  NsdReport warm{};
  const NsdStatus warmStatus = problem.solve(o, warm);
  check(warmStatus == NSD_OK && warm.residual <= kTolerance, "warm-started re-solve failed");
  out.warmIterations = warm.iterations;
  out.warmResidual = warm.residual;

  // on one rank the hooks change nothing: the same solve without them, bit for bit
  int size = 1;
  MPI_Comm_size(comm, &size);
  if (size == 1) {
    problem.build(d, detector, inverseMass, freeVelocity, kMu);
    NsdDelassus op = problem.delassus();
    op.reduce_sum = nullptr;
    op.reduce_max = nullptr;
    std::vector<double> r(problem.size() * 3 + 3, 0.0), u(problem.size() * 3 + 3, 0.0);
    NsdSolverOptions cold = solverOptions();
    NsdReport plain{};
    nsd_fc3d_apgd_operator(&op, problem.q().data(), problem.mu().data(), r.data(), u.data(), &cold,
                           &plain);
    check(plain.iterations == out.report.iterations && plain.residual == out.report.residual,
          "one rank: the solve with the reduction hooks differs from the one without");
    bool same = true;
    for (std::size_t c = 0; c < problem.size(); ++c)
      for (int i = 0; i < 3; ++i)
        same = same && r[3 * c + static_cast<std::size_t>(i)] == contacts[c].r[i];
    check(same, "one rank: impulses with and without the reduction hooks differ");
  }

  // a fault on the last rank only: every rank throws the same nsdyn::Error, none hangs
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<double> bad = inverseMass;
  if (rank == size - 1 && !bad.empty()) bad[0] = -1.0;
  std::string message;
  try {
    problem.build(d, detector, bad, freeVelocity, kMu);
  } catch (const nsdyn::Error& e) {
    message = e.what();
  }
  check(message.find("inverse mass not finite and >= 0") != std::string::npos,
        "a bad inverse mass on one rank: \"" + message + "\" instead of the collective error");
  return out;
}

double maxAbs(const double* v, std::size_t n) {
  double m = 0.0;
  for (std::size_t i = 0; i < n; ++i) m = std::max(m, std::fabs(v[i]));
  return m;
}

}  // namespace

// Solves the scene over the ranks and on one process (rank 0), compares; returns the hash
// folded with this scene's gathered results (rank 0).
std::uint64_t runScene(const Scene& scene, bool isolated, std::uint64_t hash) {
  const Solved dist = solveOver(MPI_COMM_WORLD, scene, slice(scene.bodies));
  std::size_t neighbours = dist.neighbours, maxNeighbours = 0;
  MPI_Allreduce(&neighbours, &maxNeighbours, 1, MPI_UNSIGNED_LONG, MPI_MAX, MPI_COMM_WORLD);
  if (g_rank == 0) {
    hash = fnv(hash, dist.contacts.data(), dist.contacts.size() * sizeof(ContactWire));
    hash = fnv(hash, dist.bodies.data(), dist.bodies.size() * sizeof(BodyWire));
    // the same global problem on one process
    const Solved ref = solveOver(MPI_COMM_SELF, scene, scene.bodies);
    check(dist.contacts.size() == ref.contacts.size(),
          std::to_string(dist.contacts.size()) + " contacts over the ranks, " +
              std::to_string(ref.contacts.size()) + " on one process");
    check(dist.bodies.size() == ref.bodies.size(), "body count differs");
    double rScale = 0.0, rDiff = 0.0, vScale = 0.0, vDiff = 0.0;
    bool keys = true;
    for (std::size_t c = 0; c < std::min(dist.contacts.size(), ref.contacts.size()); ++c) {
      keys =
          keys && std::equal(dist.contacts[c].key, dist.contacts[c].key + 3, ref.contacts[c].key);
      rScale = std::max(rScale, maxAbs(ref.contacts[c].r, 3));
      for (int i = 0; i < 3; ++i)
        rDiff = std::max(rDiff, std::fabs(dist.contacts[c].r[i] - ref.contacts[c].r[i]));
    }
    for (std::size_t b = 0; b < std::min(dist.bodies.size(), ref.bodies.size()); ++b) {
      keys = keys && dist.bodies[b].id == ref.bodies[b].id;
      vScale = std::max(vScale, maxAbs(ref.bodies[b].dv, 6));
      for (int i = 0; i < 6; ++i)
        vDiff = std::max(vDiff, std::fabs(dist.bodies[b].dv[i] - ref.bodies[b].dv[i]));
    }
    check(keys, "contact keys or body ids differ from the single-process problem");
    check(rDiff <= 1e-8 * rScale, "impulses differ from the single-process solve by " +
                                      std::to_string(rDiff / rScale) + " (relative)");
    check(vDiff <= 1e-8 * vScale, "velocity changes differ from the single-process solve by " +
                                      std::to_string(vDiff / vScale) + " (relative)");
    if (g_size == 1)
      check(rDiff == 0.0 && vDiff == 0.0, "one rank: not bit-identical to the one-process solve");
    std::printf(
        "np %d, %s: %zu bodies, %zu contacts (fewest on a rank %zu), up to %lu neighbour "
        "ranks; distributed APGD "
        "%d iterations, error %.3e, %.3f s; one process %d iterations, %.3f s; "
        "warm re-solve %d iterations, error %.3e; max difference impulses %.2e, "
        "velocity changes %.2e (relative)\n",
        g_size, isolated ? "pile + isolated bodies" : "pile", scene.bodies.size(),
        dist.contacts.size(), dist.fewestContacts, maxNeighbours, dist.report.iterations,
        dist.report.residual, dist.seconds, ref.report.iterations, ref.seconds, dist.warmIterations,
        dist.warmResidual, rScale > 0.0 ? rDiff / rScale : rDiff,
        vScale > 0.0 ? vDiff / vScale : vDiff);
  }
  return hash;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  int status = 0;
  try {
    std::uint64_t hash = 1469598103934665603ull;
    for (bool isolated : {false, true}) hash = runScene(makeScene(isolated), isolated, hash);
    int failures = g_failures, all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (g_rank == 0) {
      std::printf("hash=%016llx\n", static_cast<unsigned long long>(hash));
      std::printf("np %d: %s, %d failures\n", g_size, all == 0 ? "OK" : "FAILED", all);
    }
    status = all == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    status = nsdyn::parallel::reportError(MPI_COMM_WORLD, e);
  }
  MPI_Finalize();
  return status;
}
