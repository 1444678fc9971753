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
    const nsdyn::test::parallel::Compared c = nsdyn::test::parallel::compareWithOne(
        engine.bodies(), single.get(), dx, dq, MPI_COMM_WORLD);
    if (g_rank != 0) continue;
    const std::size_t dynamic = static_cast<std::size_t>(kSide * kSide * kLayers);
    check(c.gathered == dynamic, "step " + std::to_string(step) + ": " +
                                     std::to_string(c.gathered) + " bodies gathered for " +
                                     std::to_string(dynamic));
    check(g_size != 1 || c.sameBits,
          "step " + std::to_string(step) + ": one rank differs from one process");
  }
  // the overlaps at the end (the contacts of one more step's start)
  engine.step();
  double deep = nsdyn::test::parallel::deepestOverlap(engine);
  MPI_Allreduce(MPI_IN_PLACE, &deep, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const double slop = 0.01 * kRadius;
  check(deep <= slop * (1.0 + 1e-6), "overlap left over the ranks: " + std::to_string(deep));
  check(ke <= 1e-6, "kinetic energy over the ranks " + std::to_string(ke) + " J");
  check(recovered > 0, "no contact in the recovery's problem");
  if (g_rank == 0) {
    single->step();
    const double deepSingle = nsdyn::test::parallel::deepestOverlap(*single);
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
  return nsdyn::test::parallel::agreedExit(g_failures, MPI_COMM_WORLD);
}

}  // namespace

int main(int argc, char** argv) {
  return nsdyn::test::parallel::mpiTestMain(argc, argv, g_rank, g_size, run);
}
