// MPI test of the distributed time stepping (run by ctest under mpirun -np 1, 2, 3;
// doc/parallel.md "Time stepping over the ranks").
//   test_parallel_scene check [solver]
//       a pile falling into a box: 250 spheres (radius 5 cm +- 10 %, 2,500 kg/m3) on a
//       lattice 1 mm apart over the floor of a box of planes, mu 0.3, e 0, h = 2e-3, 100
//       steps, the friction-contact problem at tolerance 1e-10 (apgd, or the solver given:
//       nsgs, the distributed NSGS against the Kernel's single-process NSGS).
//       Every rank loads the same model file (nsdyn::io::XmlLoader) and steps it with
//       DistributedScene; rank 0 also steps the Kernel's single-process run of the same file
//       (TimeStepping + ContactManager). Checked every step: the global count of kept and of
//       active contacts equal the single-process counts; every 10 steps the bodies gathered
//       on rank 0: each id exactly once, positions within 1e-8 x the sphere diameter of
//       the single-process positions, velocities within 1e-6 m/s. Prints "hash=" over the
//       final gathered state (bit-identical reruns) and the time per step.
//   test_parallel_scene bad box      a scene with a box particle: every rank exits 1, rank 0
//                                    prints the message naming the body.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "parallel_test_support.hpp"
#include "nsdyn/ContactManager.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/MoreauJeanOSI.hpp"
#include "nsdyn/NewtonEulerDS.hpp"
#include "nsdyn/OneStepNSProblem.hpp"
#include "nsdyn/Simulation.hpp"
#include "nsdyn/io/XmlLoader.hpp"
#include "nsdyn/parallel/Collective.hpp"
#include "nsdyn/parallel/DistributedScene.hpp"
#include "nsdyn/parallel/SceneSpecFromKernel.hpp"

using nsdyn::parallel::BodyArrays;
using nsdyn::parallel::DistributedScene;
using nsdyn::parallel::SceneState;

namespace {

int g_rank = 0, g_size = 1, g_failures = 0;
constexpr int kSteps = 100;
constexpr double kDiameter = 0.1;

void check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "FAIL (rank %d): %s\n", g_rank, what.c_str());
    ++g_failures;
  }
}

std::string pileXml(const std::string& particle, const std::string& solver, int count = 180) {
  return R"(<?xml version="1.0"?>
<nsdyn version="1" name="MpiPile">
  <model>
    <scene gravity="0 0 -9.81">
      <ContactManager>
        <material mu="0.1" restitution="0"/>
      </ContactManager>
      <container lower="0 0 0" upper="0.6 0.6 1.2" planes="true"/>
      <randomPacking count=")" + std::to_string(count) + R"(" seed="7">
        <particle kind=")" + particle + R"(" radius="0.05" size-spread="0.1" density="2500"/>
        <region lower="0 0 0" upper="0.6 0.6 1.2"/>
      </randomPacking>
    </scene>
  </model>
  <simulation type="TimeStepping" t0="0" T="1" h="4e-3">
    <MoreauJeanOSI theta="0.5"/>
    <FrictionContact dim="3" solver=")" + solver + R"(">
      <options tolerance="1e-10" max-iterations="200000"/>
    </FrictionContact>
  </simulation>
</nsdyn>
)";
}

struct Gathered {
  std::vector<std::int64_t> id;
  std::vector<double> state;  // kWidth per body
};

// The owned bodies of every rank on rank 0, sorted by id.
Gathered gather(const BodyArrays& owned, MPI_Comm comm) {
  const int n = static_cast<int>(owned.size());
  std::vector<int> counts(static_cast<std::size_t>(g_size)), offsets(static_cast<std::size_t>(g_size));
  MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  int total = 0;
  for (int p = 0; p < g_size; ++p) {
    offsets[static_cast<std::size_t>(p)] = total;
    total += counts[static_cast<std::size_t>(p)];
  }
  Gathered g;
  std::vector<long long> ids(static_cast<std::size_t>(total));
  std::vector<long long> mine(owned.id.begin(), owned.id.end());
  MPI_Gatherv(mine.data(), n, MPI_LONG_LONG, ids.data(), counts.data(), offsets.data(), MPI_LONG_LONG, 0, comm);
  std::vector<int> dc(counts), doff(offsets);
  for (int p = 0; p < g_size; ++p) {
    dc[static_cast<std::size_t>(p)] *= SceneState::kWidth;
    doff[static_cast<std::size_t>(p)] *= SceneState::kWidth;
  }
  std::vector<double> st(static_cast<std::size_t>(total) * SceneState::kWidth);
  MPI_Gatherv(owned.data.data(), n * SceneState::kWidth, MPI_DOUBLE, st.data(), dc.data(), doff.data(), MPI_DOUBLE,
              0, comm);
  if (g_rank != 0) return g;
  std::vector<std::size_t> order(static_cast<std::size_t>(total));
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ids[a] < ids[b]; });
  for (std::size_t k : order) {
    g.id.push_back(ids[k]);
    g.state.insert(g.state.end(), st.begin() + static_cast<std::ptrdiff_t>(k * SceneState::kWidth),
                   st.begin() + static_cast<std::ptrdiff_t>((k + 1) * SceneState::kWidth));
  }
  return g;
}

int runCheck(const std::string& solver) {
  const std::string xml = pileXml("sphere", solver);
  nsdyn::io::XmlLoader loader;
  // every rank loads the file; rank 0 also steps the single-process run of a second copy
  auto model = loader.loadString(xml, "mpi-pile.xml");
  std::unique_ptr<nsdyn::io::LoadedModel> single;
  if (g_rank == 0) single = loader.loadString(xml, "mpi-pile.xml");
  const auto& osi = *model->simulation->integrators().front();
  nsdyn::parallel::DistributedSceneSpec spec = nsdyn::parallel::sceneSpecFrom(
      *model->scene->contacts, model->scene->gravity, model->t0, model->h, osi.theta(), g_rank, g_size, "mpi-pile.xml");
  spec.solver = solver;
  spec.solverOptions = model->simulation->oneStepNSProblem()->options();
  spec.threads = 1;
  const std::size_t dynamicBodies = [&] {
    std::size_t n = 0;
    for (const auto& b : model->scene->contacts->bodies()) n += b.isStatic() ? 0 : 1;
    return n;
  }();
  DistributedScene scene(MPI_COMM_WORLD, std::move(spec));

  double maxDx = 0.0, maxDv = 0.0, seconds = 0.0, singleSeconds = 0.0;
  long iterations = 0;
  std::uint64_t bytes = 0, migrated = 0;
  for (int k = 1; k <= kSteps; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    const DistributedScene::StepReport& r = scene.step();
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    iterations += r.solver.iterations;
    bytes += r.bytesSent;
    migrated += r.migrated;
    check(r.status == NSD_OK, "step " + std::to_string(k) + ": solver status " + std::to_string(r.status) +
                                  ", residual " + std::to_string(r.solver.residual));
    check(r.active == 0 || r.solver.residual <= 1e-10, "step " + std::to_string(k) + ": error at exit " +
                                                           std::to_string(r.solver.residual));
    // the single-process step and its counts
    long counts[2] = {0, 0};
    if (g_rank == 0) {
      const auto s0 = std::chrono::steady_clock::now();
      single->simulation->computeOneStep();
      single->simulation->nextStep();
      singleSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
      counts[0] = static_cast<long>(single->scene->contacts->statistics().contacts);
      counts[1] = static_cast<long>(single->scene->contacts->statistics().active);
    }
    MPI_Bcast(counts, 2, MPI_LONG, 0, MPI_COMM_WORLD);
    check(static_cast<long>(r.contacts) == counts[0] && static_cast<long>(r.active) == counts[1],
          "step " + std::to_string(k) + ": contacts " + std::to_string(r.contacts) + " (active " +
              std::to_string(r.active) + "), single process " + std::to_string(counts[0]) + " (" +
              std::to_string(counts[1]) + ")");
    if (k % 10 != 0) continue;
    Gathered g = gather(scene.owned(), MPI_COMM_WORLD);
    if (g_rank != 0) continue;
    check(g.id.size() == dynamicBodies, "step " + std::to_string(k) + ": " + std::to_string(g.id.size()) +
                                            " bodies gathered, " + std::to_string(dynamicBodies) + " expected");
    for (std::size_t b = 1; b < g.id.size(); ++b) check(g.id[b] != g.id[b - 1], "body " + std::to_string(g.id[b]) + " twice");
    const auto& bodies = single->scene->contacts->bodies();
    for (std::size_t b = 0; b < g.id.size(); ++b) {
      const auto& ds = *bodies[static_cast<std::size_t>(g.id[b])].body();
      const double* st = &g.state[b * SceneState::kWidth];
      for (int i = 0; i < 3; ++i) {
        maxDx = std::max(maxDx, std::fabs(st[SceneState::kQ + i] - ds.q()(static_cast<std::size_t>(i))));
        maxDv = std::max(maxDv, std::fabs(st[SceneState::kV + i] - ds.velocity()(static_cast<std::size_t>(i))));
      }
    }
  }
  Gathered g = gather(scene.owned(), MPI_COMM_WORLD);
  if (g_rank == 0) {
    std::uint64_t h = 1469598103934665603ull;
    h = nsdyn::test::parallel::fnv(h, g.id.data(), g.id.size() * sizeof(std::int64_t));
    h = nsdyn::test::parallel::fnv(h, g.state.data(), g.state.size() * sizeof(double));
    const auto& last = scene.lastReport();
    std::printf("ranks %d, solver %s: %d steps, %.3f s (%.2f ms/step; single process %.2f ms/step), %ld solver "
                "iterations, last step %llu contacts (%llu active), %llu migrations, %.1f kB sent/step\n",
                g_size, solver.c_str(), kSteps, seconds, 1e3 * seconds / kSteps, 1e3 * singleSeconds / kSteps,
                iterations, static_cast<unsigned long long>(last.contacts),
                static_cast<unsigned long long>(last.active), static_cast<unsigned long long>(migrated),
                1e-3 * static_cast<double>(bytes) / kSteps);
    std::printf("largest difference from the single-process run: position %.3e m (%.3e diameters), velocity %.3e m/s\n",
                maxDx, maxDx / kDiameter, maxDv);
    check(maxDx <= 1e-8 * kDiameter, "positions differ from the single-process run by " + std::to_string(maxDx / kDiameter) +
                                         " diameters (1e-8 allowed)");
    check(maxDv <= 1e-6, "velocities differ from the single-process run by " + std::to_string(maxDv));
    std::printf("hash=%016llx\n", static_cast<unsigned long long>(h));
  }
  int failures = g_failures, all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return all == 0 ? 0 : 1;
}

int runBad(const std::string& what) {
  try {
    const std::string xml = pileXml(what == "box" ? "box" : "sphere", "apgd", 20);
    nsdyn::io::XmlLoader loader;
    auto model = loader.loadString(xml, "mpi-pile.xml");
    std::string fault;
    nsdyn::parallel::DistributedSceneSpec spec;
    try {
      spec = nsdyn::parallel::sceneSpecFrom(*model->scene->contacts, model->scene->gravity, model->t0, model->h, 0.5,
                                            g_rank, g_size, "mpi-pile.xml");
    } catch (const std::exception& e) {
      fault = e.what();
    }
    nsdyn::parallel::throwIfAnyFault(MPI_COMM_WORLD, fault);
    DistributedScene scene(MPI_COMM_WORLD, std::move(spec));
    scene.step();
    return 0;
  } catch (const std::exception& e) {
    return nsdyn::parallel::reportError(MPI_COMM_WORLD, e);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  const std::string mode = argc > 1 ? argv[1] : "check";
  int rc = 0;
  if (mode == "check") {
    try {
      rc = runCheck(argc > 2 ? argv[2] : "apgd");
    } catch (const std::exception& e) {
      rc = nsdyn::parallel::reportError(MPI_COMM_WORLD, e);
    }
  } else if (mode == "bad") {
    rc = runBad(argc > 2 ? argv[2] : "");
  } else {
    if (g_rank == 0) std::fprintf(stderr, "usage: test_parallel_scene check [solver] | bad box\n");
    rc = 2;
  }
  MPI_Finalize();
  return rc;
}
