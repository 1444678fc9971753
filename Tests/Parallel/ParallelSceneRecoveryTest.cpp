// MPI test of the scene engine's overlap recovery over ranks (SceneEngineRecovery.cpp with
// MpiSceneExchange), run by ctest under mpirun -np 1, 2, 3. The scene: a tall lattice of
// 3 x 3 x 10 spheres of radius 5 cm (mass 1) at rest on a floor, every contact (the floor's
// and the lattice's, in x, y and z) overlapping by 30 % of the radius, mu 0.5, e 0,
// h = 1e-3, the velocity problem to 1e-11 and the pseudo-impulses to 1e-12, recovery speed
// 1 m/s, 60 steps. Every rank builds the whole scene and steps its part; rank 0 also steps
// it as one process. Checked: after every 5th step every body gathered once, positions and
// orientations within 1e-8 of the one-process run (one rank: the same bits); the kinetic
// energy of every step ≤ 1e-6 J; at the end no overlap deeper than the slop (1 % of the
// radius) on either run; on several ranks, bodies touched by the recovery's contacts of two
// ranks (the pseudo-velocities exchanged) at some step.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/HalfSpaceShape.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/SphereShape.hpp"
#include "nsdyn/nsd_options.h"
#include "nsdyn/parallel/MpiSceneExchange.hpp"
#include "parallel_test_support.hpp"

using nsdyn::SceneEngine;
using nsdyn::parallel::MpiSceneExchange;

namespace {

int g_rank = 0, g_size = 1, g_failures = 0;
constexpr int kSteps = 60, kSide = 3, kLayers = 10;
constexpr double kRadius = 0.05, kOverlap = 0.3 * kRadius, kTolerance = 1e-8;

void check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "FAIL (rank %d): %s\n", g_rank, what.c_str());
    ++g_failures;
  }
}

SceneEngine::Options options() {
  SceneEngine::Options o;
  o.h = 1e-3;
  o.solver = "nsgs";
  nsd_solver_options_default(&o.solverOptions);
  o.solverOptions.tolerance = 1e-11;
  o.solverOptions.max_iterations = 200000;
  o.contacts.detection.threads = 1;
  o.recovery.enabled = true;
  o.recovery.maxSpeed = 1.0;
  o.recovery.tolerance = 1e-12;
  o.recovery.iterations = 100000;
  return o;
}

void build(SceneEngine& engine) {
  engine.setDefaultMaterial({0.5, 0.0});
  using nsdyn::ShapeInstance;
  engine.addStatic(
      {ShapeInstance{std::make_shared<nsdyn::HalfSpaceShape>(nsdyn::Shape::Vec3{0, 0, 1}, 0.0)}});
  const nsdyn::SP::Shape sphere = std::make_shared<nsdyn::SphereShape>(kRadius);
  const double pitch = 2.0 * kRadius - kOverlap;
  for (int k = 0; k < kLayers; ++k)
    for (int i = 0; i < kSide; ++i)
      for (int j = 0; j < kSide; ++j) {
        nsdyn::BodySpec spec;
        spec.name = "s";
        spec.shapes = {ShapeInstance{sphere}};
        spec.mass = 1.0;
        spec.position = {pitch * i, pitch * j, kRadius - kOverlap + pitch * k};
        engine.addBody(spec);
      }
}

/// Dynamic bodies' positions and orientations (7 per body) by global id, on rank 0.
std::vector<double> gather(const nsdyn::BodyStore& store, std::size_t& count) {
  std::vector<long long> mine;
  std::vector<double> q;
  for (std::size_t b = 0; b < store.size(); ++b) {
    if (store.isStatic[b] || store.ghost[b]) continue;
    mine.push_back(store.id[b]);
    q.insert(q.end(), &store.q[7 * b], &store.q[7 * b] + 7);
  }
  const auto ids = nsdyn::test::parallel::gatherToRoot(mine, MPI_COMM_WORLD);
  const auto all = nsdyn::test::parallel::gatherToRoot(q, MPI_COMM_WORLD);
  count = ids.size();
  std::vector<double> sorted(all.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const std::size_t at = static_cast<std::size_t>(ids[i] - 1);  // id 0: the floor
    if (7 * at + 7 <= sorted.size())
      std::copy(all.begin() + static_cast<std::ptrdiff_t>(7 * i),
                all.begin() + static_cast<std::ptrdiff_t>(7 * i + 7),
                sorted.begin() + static_cast<std::ptrdiff_t>(7 * at));
  }
  return sorted;
}

/// The deepest overlap of the contacts detected at the engine's next step start.
double deepest(const SceneEngine& e) {
  double d = 0.0;
  for (std::size_t c = 0; c < e.contacts().size(); ++c) d = std::max(d, -e.contacts().gap[c]);
  return d;
}

int run() {
  SceneEngine engine(options());
  build(engine);
  auto exchange = std::make_shared<MpiSceneExchange>(MPI_COMM_WORLD);
  engine.setExchange(exchange);
  std::unique_ptr<SceneEngine> single;
  if (g_rank == 0) {
    single = std::make_unique<SceneEngine>(options());
    build(*single);
  }
  double dx = 0.0, dq = 0.0, ke = 0.0, keSingle = 0.0;
  long long split = 0, recovered = 0;
  for (int step = 1; step <= kSteps; ++step) {
    const SceneEngine::StepReport& r = engine.step();
    check(r.status == NSD_OK, "step " + std::to_string(step) + ": the solve did not converge");
    ke = std::max(ke, r.kineticEnergy);
    long long counts[2] = {static_cast<long long>(exchange->statistics().splitBodies),
                           static_cast<long long>(r.recovered)};
    MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    split += counts[0];
    recovered += counts[1];
    if (single) keSingle = std::max(keSingle, single->step().kineticEnergy);
    if (step % 5 != 0) continue;
    std::size_t count = 0;
    const std::vector<double> q = gather(engine.bodies(), count);
    if (g_rank != 0) continue;
    const std::size_t dynamic = static_cast<std::size_t>(kSide * kSide * kLayers);
    check(count == dynamic, "step " + std::to_string(step) + ": " + std::to_string(count) +
                                " bodies gathered for " + std::to_string(dynamic));
    std::vector<double> whole;
    for (std::size_t b = 0; b < single->bodies().size(); ++b)
      if (!single->bodies().isStatic[b])
        whole.insert(whole.end(), &single->bodies().q[7 * b], &single->bodies().q[7 * b] + 7);
    if (whole.size() != q.size()) continue;
    for (std::size_t k = 0; k < q.size(); k += 7) {
      for (std::size_t i = 0; i < 3; ++i) dx = std::max(dx, std::fabs(q[k + i] - whole[k + i]));
      for (std::size_t i = 3; i < 7; ++i) dq = std::max(dq, std::fabs(q[k + i] - whole[k + i]));
    }
    if (g_size == 1)
      check(std::memcmp(q.data(), whole.data(), q.size() * sizeof(double)) == 0,
            "step " + std::to_string(step) + ": one rank differs from one process");
  }
  // the overlaps at the end (the contacts of one more step's start)
  engine.step();
  double deep = deepest(engine);
  MPI_Allreduce(MPI_IN_PLACE, &deep, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const double slop = 0.01 * kRadius;
  check(deep <= slop * (1.0 + 1e-6), "overlap left over the ranks: " + std::to_string(deep));
  check(ke <= 1e-6, "kinetic energy over the ranks " + std::to_string(ke) + " J");
  check(recovered > 0, "no contact in the recovery's problem");
  if (g_rank == 0) {
    single->step();
    const double deepSingle = deepest(*single);
    check(deepSingle <= slop * (1.0 + 1e-6),
          "overlap left on one process: " + std::to_string(deepSingle));
    check(keSingle <= 1e-6, "kinetic energy on one process " + std::to_string(keSingle) + " J");
    check(dx <= kTolerance, "positions differ from one process by " + std::to_string(dx) + " m");
    check(dq <= kTolerance, "orientations differ from one process by " + std::to_string(dq));
    if (g_size > 1)
      check(split > 0, "no body touched by the contacts of two ranks: nothing exchanged");
    std::printf(
        "recovery, %d ranks: vs one process max |dx| %.3e m, |dq| %.3e; largest KE %.3e J (one "
        "process %.3e J); overlap left %.3e m (slop %.3e m); %lld contacts recovered, %lld "
        "bodies touched by several ranks summed over the steps\n",
        g_size, dx, dq, ke, keSingle, deep, slop, recovered, split);
  }
  int failures = g_failures;
  MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return failures > 0 ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  int rc = 5;
  try {
    rc = run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %d: %s\n", g_rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 5);
  }
  MPI_Finalize();
  return rc;
}
