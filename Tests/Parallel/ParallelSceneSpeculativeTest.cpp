// MPI test of the scene engine's speculative contacts over ranks (SceneEngineOptions::
// speculativeContacts with MpiSceneExchange), run by ctest under mpirun -np 1, 2, 3. The scene:
// 3 x 3 columns of 6 spheres of radius 0.1 m (mass 1), 0.2 m apart in height, dropped on a
// floor at h = 1/60 (mu 0.5, e 0): each sphere lands at up to 4 m/s on the one below, where
// the usual contact rule would let it sink up to h U / 2 (3 cm). The velocity problem to
// 1e-10, no overlap recovery, 90 steps. Every rank builds the whole scene and steps its part;
// rank 0 also steps it as one process. Checked: every step converged; speculative contacts
// in the problem at some step (summed over the ranks); on several ranks, bodies touched by
// the contacts of two ranks; after every 5th step the bodies gathered once, positions and
// orientations within 1e-7 of the one-process run (one rank: the same bits); the deepest
// overlap of any step start under 1 mm on both runs (the landings stopped at the surface),
// and at the end the columns at rest (kinetic energy under 1e-6 J).
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
constexpr int kSteps = 90, kSide = 3, kLayers = 6;
constexpr double kRadius = 0.1, kGap = 0.2, kTolerance = 1e-7, kDeepest = 1e-3;

void check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "FAIL (rank %d): %s\n", g_rank, what.c_str());
    ++g_failures;
  }
}

SceneEngine::Options options() {
  SceneEngine::Options o;
  o.h = 1.0 / 60.0;
  o.solver = "nsgs";
  nsd_solver_options_default(&o.solverOptions);
  o.solverOptions.tolerance = 1e-10;
  o.solverOptions.max_iterations = 200000;
  o.contacts.detection.threads = 1;
  o.recovery.enabled = false;
  o.speculativeContacts = true;
  return o;
}

void build(SceneEngine& engine) {
  engine.setDefaultMaterial({0.5, 0.0});
  using nsdyn::ShapeInstance;
  engine.addStatic(
      {ShapeInstance{std::make_shared<nsdyn::HalfSpaceShape>(nsdyn::Shape::Vec3{0, 0, 1}, 0.0)}});
  const nsdyn::SP::Shape sphere = std::make_shared<nsdyn::SphereShape>(kRadius);
  const double pitch = 2.0 * kRadius + kGap;
  for (int k = 0; k < kLayers; ++k)
    for (int i = 0; i < kSide; ++i)
      for (int j = 0; j < kSide; ++j) {
        nsdyn::BodySpec spec;
        spec.name = "s";
        spec.shapes = {ShapeInstance{sphere}};
        spec.mass = 1.0;
        // 1 cm between neighbouring columns: the columns do not touch
        spec.position = {(2.0 * kRadius + 0.01) * i, (2.0 * kRadius + 0.01) * j,
                         kRadius + kGap + pitch * k};
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
  double dx = 0.0, dq = 0.0, deep = 0.0, deepSingle = 0.0, ke = 0.0, keSingle = 0.0;
  long long split = 0, speculative = 0, speculativeSingle = 0;
  for (int step = 1; step <= kSteps; ++step) {
    const SceneEngine::StepReport& r = engine.step();
    check(r.status == NSD_OK, "step " + std::to_string(step) + ": the solve did not converge");
    ke = r.kineticEnergy;
    double d = nsdyn::test::parallel::deepestOverlap(engine);
    MPI_Allreduce(MPI_IN_PLACE, &d, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    deep = std::max(deep, d);
    long long counts[2] = {static_cast<long long>(exchange->statistics().splitBodies),
                           static_cast<long long>(r.speculative)};
    MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    split += counts[0];
    speculative += counts[1];
    if (single) {
      const SceneEngine::StepReport& s = single->step();
      check(s.status == NSD_OK,
            "one process, step " + std::to_string(step) + ": the solve did not converge");
      keSingle = s.kineticEnergy;
      speculativeSingle += static_cast<long long>(s.speculative);
      deepSingle = std::max(deepSingle, nsdyn::test::parallel::deepestOverlap(*single));
    }
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
  check(speculative > 0, "no speculative contact in the problem over the ranks");
  check(deep <= kDeepest, "deepest overlap over the ranks " + std::to_string(deep) + " m");
  check(ke <= 1e-6, "kinetic energy at the end over the ranks " + std::to_string(ke) + " J");
  if (g_rank == 0) {
    check(speculativeSingle == speculative,
          "speculative contacts: " + std::to_string(speculative) + " over the ranks, " +
              std::to_string(speculativeSingle) + " on one process");
    check(deepSingle <= kDeepest,
          "deepest overlap on one process " + std::to_string(deepSingle) + " m");
    check(keSingle <= 1e-6,
          "kinetic energy at the end on one process " + std::to_string(keSingle) + " J");
    check(dx <= kTolerance, "positions differ from one process by " + std::to_string(dx) + " m");
    check(dq <= kTolerance, "orientations differ from one process by " + std::to_string(dq));
    if (g_size > 1)
      check(split > 0, "no body touched by the contacts of two ranks: nothing exchanged");
    std::printf(
        "speculative contacts, %d ranks: vs one process max |dx| %.3e m, |dq| %.3e; deepest "
        "overlap %.3e m (one process %.3e m); KE at the end %.3e J (one process %.3e J); %lld "
        "speculative contacts over the steps (one process %lld); %lld bodies touched by "
        "several ranks summed over the steps\n",
        g_size, dx, dq, deep, deepSingle, ke, keSingle, speculative, speculativeSingle, split);
  }
  return nsdyn::test::parallel::agreedExit(g_failures, MPI_COMM_WORLD);
}

}  // namespace

int main(int argc, char** argv) {
  return nsdyn::test::parallel::mpiTestMain(argc, argv, g_rank, g_size, run);
}
