// MPI test of the scene engine over ranks (nsdyn::SceneEngine + MpiSceneExchange), run by
// ctest under mpirun -np 1, 2, 3 (doc/parallel.md "SceneEngine over ranks"). The scene: a
// mixed pile of 144 bodies (spheres, boxes, capsules, cylinders, convex hulls; small random
// tilts, a swirl of 3 rad/s so that bodies and their contacts cross the ranks' cuts) in 4
// layers over the floor of a box of half-spaces, mu 0.3, e 0, h = 1e-3, 100 steps, the
// problem solved to 1e-11. Every rank builds the whole scene and steps its part with
// MpiSceneExchange (repartition every 25 steps); rank 0 also steps it as one process.
//   test_parallel_engine check apgd|nsgs
//       every step starts from the one-process state (broadcast, written into every rank's
//       owned bodies and ghosts): after each step the kept, active and warm-started contacts
//       summed over the ranks equal the one-process counts, every body is gathered once,
//       positions and orientations within 1e-8 of the one-process step (on one rank: the
//       same bits), every solve converged; bodies, contact memory and bodies touched by the
//       contacts of several ranks (shared: NSGS in stages) do cross ranks.
//   test_parallel_engine free apgd|nsgs
//       free-running: on one rank the one-process run bit for bit; on several, positions
//       within 1e-8 m of it, or 10 x the pile's own sensitivity (one process at tolerance
//       1e-12 against 1e-11) when that is larger; prints the figures and "hash=" over the
//       final gathered state (reruns: RunTwice.cmake).
//   test_parallel_engine threads apgd|nsgs
//       the free run with 1 and with 2 OpenMP threads per rank: the same bits.
//   test_parallel_engine stages nsgs
//       NSGS in stages over the coloured ranks on a tall lattice (8 x 8 x 20 spheres) settling
//       from rest: sweeps within 1.3 x of one process's (mass splitting needed 1.40 x on 2
//       ranks, 1.73 x on 3), 2 colours on 2 ranks; prints "hash=" (reruns: RunTwice.cmake).
//   nsgs_anderson in place of a solver: NSGS with Anderson acceleration (nsgs.anderson 5),
//       its coefficients from sums over the ranks; in stages mode solved to 1e-10 and the
//       end state compared with one process's (within 1e-8).
//   test_parallel_engine drift nsgs|nsgs_anderson|apgd
//       4 capsules rolling across a plane with the loaded contacts kept, NSGS to 1e-14: the
//       sweeps' drift ended by jumps the ranks agree on; every step converges, the end state
//       within 1e-10 of one process's (one rank: the same bits).
//   test_parallel_engine bad extra-body
//       the last rank adds one body more: every rank throws the same error, rank 0 prints it.
//   test_parallel_engine bench apgd|nsgs [n layers steps [single]]
//       not a test: ms/step on the MPI benchmark pile (Benchmarks/mpi/pile.xml, 40 x 40 x 20
//       spheres by default); "single": the plain engine, no exchange.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "mixed_pile.hpp"
#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/CapsuleShape.hpp"
#include "nsdyn/HalfSpaceShape.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/SphereShape.hpp"
#include "nsdyn/nsd_options.h"
#include "nsdyn/parallel/Collective.hpp"
#include "nsdyn/parallel/MpiSceneExchange.hpp"
#include "parallel_test_support.hpp"

using nsdyn::SceneEngine;
using nsdyn::parallel::MpiSceneExchange;
using nsdyn::test::parallel::buildPile;
using nsdyn::test::parallel::takeWholeState;

namespace {

int g_rank = 0, g_size = 1, g_failures = 0;
constexpr int kSteps = 100;
constexpr double kTolerance = 1e-8;

void check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "FAIL (rank %d): %s\n", g_rank, what.c_str());
    ++g_failures;
  }
}

SceneEngine::Options engineOptions(const std::string& solver, int threads) {
  SceneEngine::Options o;
  o.h = 1e-3;
  nsd_solver_options_default(&o.solverOptions);
  // "nsgs_anderson": NSGS with Anderson acceleration over 5 differences (nsgs.anderson)
  o.solver = solver == "nsgs_anderson" ? "nsgs" : solver;
  if (solver == "nsgs_anderson") o.solverOptions.nsgs.anderson = 5;
  o.solverOptions.tolerance = 1e-11;
  o.solverOptions.max_iterations = 200000;
  o.contacts.detection.threads = threads;
  // compared with one process: the overlap recovery runs on one process only
  o.recovery.enabled = false;
  return o;
}

/// The dynamic bodies owned by every rank on rank 0, by global id: 7 q then 6 v per body;
/// their ids in @p ids (rank 0; empty elsewhere).
std::vector<double> gatherState(const nsdyn::BodyStore& store, std::vector<long long>& ids) {
  std::vector<long long> mine;
  std::vector<double> state;
  for (std::size_t b = 0; b < store.size(); ++b) {
    if (store.isStatic[b] || store.ghost[b]) continue;
    mine.push_back(store.id[b]);
    state.insert(state.end(), &store.q[7 * b], &store.q[7 * b] + 7);
    state.insert(state.end(), &store.v[6 * b], &store.v[6 * b] + 6);
  }
  const std::vector<long long> allIds = nsdyn::test::parallel::gatherToRoot(mine, MPI_COMM_WORLD);
  const std::vector<double> all = nsdyn::test::parallel::gatherToRoot(state, MPI_COMM_WORLD);
  ids.clear();
  if (g_rank != 0) return {};
  std::vector<std::size_t> order(allIds.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return allIds[a] < allIds[b]; });
  std::vector<double> sorted;
  for (std::size_t i : order) {
    ids.push_back(allIds[i]);
    sorted.insert(sorted.end(), all.begin() + static_cast<std::ptrdiff_t>(13 * i),
                  all.begin() + static_cast<std::ptrdiff_t>(13 * i + 13));
  }
  return sorted;
}

/// The same layout from a one-process engine (every dynamic body, in id order).
std::vector<double> wholeState(const nsdyn::BodyStore& store) {
  std::vector<double> state;
  for (std::size_t b = 0; b < store.size(); ++b) {
    if (store.isStatic[b]) continue;
    state.insert(state.end(), &store.q[7 * b], &store.q[7 * b] + 7);
    state.insert(state.end(), &store.v[6 * b], &store.v[6 * b] + 6);
  }
  return state;
}

/// Largest differences of positions (m) and of orientations (quaternion components).
void difference(const std::vector<double>& a, const std::vector<double>& b, double& dx,
                double& dq) {
  dx = dq = 0.0;
  for (std::size_t k = 0; k + 13 <= a.size() && k + 13 <= b.size(); k += 13) {
    for (std::size_t i = 0; i < 3; ++i) dx = std::max(dx, std::fabs(a[k + i] - b[k + i]));
    for (std::size_t i = 3; i < 7; ++i) dq = std::max(dq, std::fabs(a[k + i] - b[k + i]));
  }
}

enum class Mode {
  Alone,  ///< the distributed run only
  Free,   ///< and, on rank 0, the one-process run and a second one at tolerance 1e-12 (the
          ///< pile's own sensitivity), each free-running
  Synced  ///< and, on rank 0, the one-process run, whose state every rank takes before each
          ///< step: each step compared from the same start
};

struct Figures {
  std::uint64_t hash = 0;
  double msPerStep = 0.0;
};

Figures run(const std::string& solver, int threads, Mode mode) {
  const SceneEngine::Options options = engineOptions(solver, threads);
  SceneEngine engine(options);
  buildPile(engine, false);
  MpiSceneExchange::Options xo;
  xo.rebalanceEvery = 25;
  xo.skin = mode == Mode::Synced ? 0.0 : -1.0;  // synced: migrate after every step; else when moved
  auto exchange = std::make_shared<MpiSceneExchange>(MPI_COMM_WORLD, xo);
  engine.setExchange(exchange);
  std::unique_ptr<SceneEngine> single, probe;
  if (mode != Mode::Alone && g_rank == 0) {
    single = std::make_unique<SceneEngine>(options);
    buildPile(*single, false);
  }
  if (mode == Mode::Free && g_rank == 0) {
    SceneEngine::Options tighter = options;
    tighter.solverOptions.tolerance = 1e-12;
    probe = std::make_unique<SceneEngine>(tighter);
    buildPile(*probe, false);
  }
  std::size_t wholeSize = engine.bodies().size(), dynamic = 0;
  for (std::size_t b = 0; b < wholeSize; ++b) dynamic += engine.bodies().isStatic[b] ? 0 : 1;

  double maxDx = 0.0, maxDq = 0.0, probeDx = 0.0, probeDq = 0.0, seconds = 0.0, worst = 0.0;
  long long migrated = 0, moved = 0, shared = 0, split = 0, maxContacts = 0, iterations = 0,
            countMismatch = 0;
  std::vector<long long> ids;
  std::vector<double> state;
  for (int step = 1; step <= kSteps; ++step) {
    if (mode == Mode::Synced && step > 1) {
      takeWholeState(engine, single.get(), wholeSize, g_rank);  // owned and ghosts alike
    }
    MPI_Barrier(MPI_COMM_WORLD);
    const auto t0 = std::chrono::steady_clock::now();
    const SceneEngine::StepReport& r = engine.step();
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const MpiSceneExchange::Statistics& xs = exchange->statistics();
    long long counts[7] = {
        static_cast<long long>(r.contacts),     static_cast<long long>(r.active),
        static_cast<long long>(r.warmStarted),  static_cast<long long>(xs.migrated),
        static_cast<long long>(xs.memoryMoved), static_cast<long long>(xs.sharedBodies),
        static_cast<long long>(xs.splitBodies)};
    MPI_Allreduce(MPI_IN_PLACE, counts, 7, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    migrated += counts[3];
    moved += counts[4];
    shared += counts[5];
    split += counts[6];
    maxContacts = std::max(maxContacts, counts[0]);
    iterations += r.solver.iterations;
    worst = std::max(worst, r.solver.residual);
    check(r.status == NSD_OK, "step " + std::to_string(step) + ": the solve did not converge (" +
                                  std::string(r.solver.message) + ")");
    if (probe) probe->step();
    if (single) {
      const SceneEngine::StepReport& s = single->step();
      check(s.status == NSD_OK,
            "one process, step " + std::to_string(step) + ": the solve did not converge");
      if (counts[0] != static_cast<long long>(s.contacts) ||
          counts[1] != static_cast<long long>(s.active) ||
          counts[2] != static_cast<long long>(s.warmStarted)) {
        ++countMismatch;
        // free-running, the runs may part after a bifurcation of the pile; same start: never
        check(mode == Mode::Free && g_size > 1,
              "step " + std::to_string(step) + ": contacts " + std::to_string(counts[0]) +
                  " / active " + std::to_string(counts[1]) + " / warm-started " +
                  std::to_string(counts[2]) + " over the ranks, one process " +
                  std::to_string(s.contacts) + " / " + std::to_string(s.active) + " / " +
                  std::to_string(s.warmStarted));
      }
    }
    if (mode != Mode::Synced && step % 10 != 0 && step != kSteps) continue;
    state = gatherState(engine.bodies(), ids);
    if (g_rank != 0) continue;
    bool each = ids.size() == dynamic;
    for (std::size_t i = 0; each && i < ids.size(); ++i)
      each = ids[i] == static_cast<long long>(5 + i);
    check(each, "step " + std::to_string(step) + ": " + std::to_string(ids.size()) +
                    " bodies gathered for " + std::to_string(dynamic) + ", each id once expected");
    if (!single || !each) continue;
    const std::vector<double> whole = wholeState(single->bodies());
    double dx = 0.0, dq = 0.0;
    difference(state, whole, dx, dq);
    maxDx = std::max(maxDx, dx);
    maxDq = std::max(maxDq, dq);
    if (probe) {
      difference(wholeState(probe->bodies()), whole, dx, dq);
      probeDx = std::max(probeDx, dx);
      probeDq = std::max(probeDq, dq);
    }
    if (g_size == 1)
      check(std::memcmp(state.data(), whole.data(), state.size() * sizeof(double)) == 0,
            "step " + std::to_string(step) + ": one rank differs from one process");
  }
  Figures result;
  if (g_rank == 0)
    result.hash = nsdyn::test::parallel::fnv(1469598103934665603ull, state.data(),
                                             state.size() * sizeof(double));
  double slowest = seconds;
  MPI_Allreduce(MPI_IN_PLACE, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  result.msPerStep = 1e3 * slowest / kSteps;
  if (mode != Mode::Alone && g_rank == 0) {
    if (mode == Mode::Synced) {
      check(maxDx <= kTolerance,
            "positions after a step differ from one process by " + std::to_string(maxDx) + " m");
      check(maxDq <= kTolerance,
            "orientations after a step differ from one process by " + std::to_string(maxDq));
    } else {
      // free-running: within 1e-8 m, or 10 x the pile's own sensitivity to the solver tolerance
      const double bound = std::max(kTolerance, 10.0 * probeDx);
      check(maxDx <= bound, "free-running positions differ from one process by " +
                                std::to_string(maxDx) + " m (bound " + std::to_string(bound) +
                                " m)");
    }
    if (g_size > 1)
      check(migrated > 0 && moved > 0 && split > 0,
            "no body, no contact memory moved between ranks, or no body touched by the contacts of "
            "two ranks");
    std::printf(
        "%s, %s, %d ranks: %lld contacts at most, %lld iterations, largest residual %.3e; vs one "
        "process: "
        "max |dx| %.3e m, max |dq| %.3e%s, count mismatches %lld",
        solver.c_str(),
        mode == Mode::Synced ? "each step from the one-process state" : "free-running", g_size,
        maxContacts, iterations, worst, maxDx, maxDq, mode == Mode::Synced ? " (per step)" : "",
        countMismatch);
    if (probe)
      std::printf(" (one process at tolerance 1e-12 vs 1e-11: max |dx| %.3e m, |dq| %.3e)", probeDx,
                  probeDq);
    std::printf(
        "; %lld bodies migrated in %d of %d steps, %lld memory entries moved, sums over the steps "
        "of %lld "
        "bodies touched by another rank's contacts and %lld by the contacts of several ranks; %d "
        "partitions; "
        "%.2f ms/step\n",
        migrated, static_cast<int>(exchange->statistics().migrations), kSteps, moved, shared, split,
        static_cast<int>(exchange->statistics().partitions), result.msPerStep);
  }
  return result;
}

int finish(int rc) {
  int failures = g_failures;
  MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return rc != 0 ? rc : (failures > 0 ? 1 : 0);
}

/// The MPI benchmark pile (Benchmarks/mpi/pile.xml): n x n x layers spheres of radius 5 cm
/// (2,500 kg/m3) on a touching cubic lattice in a box of planes, mu 0.3, e 0, h = 1e-3, the
/// solver to 1e-4, warm started, 1 thread per rank; 2 steps to start, then @p steps timed.
/// @p single: the plain engine (one process, no exchange).
void buildLattice(SceneEngine& engine, int n, int layers) {
  engine.setDefaultMaterial({0.3, 0.0});
  const double r = 0.05, L = 2.0 * r * n, H = 2.0 * r * layers;
  using nsdyn::ShapeInstance;
  const auto plane = [&](nsdyn::Shape::Vec3 normal, double d) {
    engine.addStatic({ShapeInstance{std::make_shared<nsdyn::HalfSpaceShape>(normal, d)}});
  };
  plane({0.0, 0.0, 1.0}, 0.0);
  plane({1.0, 0.0, 0.0}, 0.0);
  plane({-1.0, 0.0, 0.0}, -L);
  plane({0.0, 1.0, 0.0}, 0.0);
  plane({0.0, -1.0, 0.0}, -L);
  (void)H;
  const nsdyn::SP::Shape sphere = std::make_shared<nsdyn::SphereShape>(r);
  for (int k = 0; k < layers; ++k)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        nsdyn::BodySpec spec;
        spec.name = "s";
        spec.shapes = {ShapeInstance{sphere}};
        spec.density = 2500.0;
        spec.position = {r + 2.0 * r * i, r + 2.0 * r * j, r + 2.0 * r * k};
        engine.addBody(spec);
      }
}

SceneEngine::Options latticeOptions(const std::string& solver) {
  SceneEngine::Options o = engineOptions(solver, 1);
  o.solverOptions.tolerance = 1e-4;
  o.solverOptions.max_iterations = 20000;
  return o;
}

int runBench(const std::string& solver, int n, int layers, int steps, bool single) {
  SceneEngine engine(latticeOptions(solver));
  buildLattice(engine, n, layers);
  std::shared_ptr<MpiSceneExchange> exchange;
  if (!single) {
    exchange = std::make_shared<MpiSceneExchange>(MPI_COMM_WORLD);
    engine.setExchange(exchange);
  }
  double phase[7] = {0.0, 0.0, 0.0, 0.0,
                     0.0, 0.0, 0.0};  // total, detect, contacts, solve, update, halo, afterStep
  long long contacts = 0, iterations = 0, split = 0;
  double worst = 0.0;
  for (int step = -1; step <= steps; ++step) {
    MPI_Barrier(MPI_COMM_WORLD);
    const auto t0 = std::chrono::steady_clock::now();
    const SceneEngine::StepReport& rep = engine.step();
    const double total =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (step < 1) continue;
    double p[7] = {total,
                   rep.detectSeconds,
                   rep.contactSeconds + rep.freeSeconds,
                   rep.solveSeconds,
                   rep.updateSeconds,
                   exchange ? exchange->statistics().haloSeconds : 0.0,
                   exchange ? exchange->statistics().afterStepSeconds : 0.0};
    MPI_Allreduce(MPI_IN_PLACE, p, 7, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    for (int i = 0; i < 7; ++i) phase[i] += p[i];
    long long c[3] = {static_cast<long long>(rep.contacts), 0, 0};
    if (exchange) {
      c[1] = static_cast<long long>(exchange->statistics().splitBodies);
      c[2] = static_cast<long long>(exchange->statistics().owned);
    }
    MPI_Allreduce(MPI_IN_PLACE, c, 3, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    contacts = std::max(contacts, c[0]);
    split = std::max(split, c[1]);
    iterations += rep.solver.iterations;
    worst = std::max(worst, rep.solver.residual);
  }
  if (g_rank == 0)
    std::printf(
        "bench %s %s, %d rank(s): %d spheres, %lld contacts, %lld bodies split at most, %.1f "
        "iterations/step, "
        "largest error %.2e; ms/step %.1f (slowest rank: detect %.1f, contacts %.1f, solve %.1f, "
        "update+migrate %.1f; of which neighbour exchanges %.1f, afterStep %.1f; %d migrations; "
        "%d NSGS colours)\n",
        solver.c_str(), single ? "one process" : "MpiSceneExchange", g_size, n * n * layers,
        contacts, split, static_cast<double>(iterations) / steps, worst, 1e3 * phase[0] / steps,
        1e3 * phase[1] / steps, 1e3 * phase[2] / steps, 1e3 * phase[3] / steps,
        1e3 * phase[4] / steps, 1e3 * phase[5] / steps, 1e3 * phase[6] / steps,
        exchange ? static_cast<int>(exchange->statistics().migrations) : 0,
        exchange ? exchange->statistics().colours : 1);
  return 0;
}

/// NSGS in stages over the ranks: the tall lattice of the MPI benchmark, 8 x 8 x 20 spheres,
/// settling from rest (2 steps, tolerance 1e-4), where mass splitting needed 1.40 x (2 ranks)
/// and 1.73 x (3 ranks) the sweeps of one process: the distributed sweeps within 1.3 x of one
/// process's (rank 0 runs it too), the ranks coloured (2 ranks: 2 colours), every solve
/// converged; prints "hash=" over the final gathered state (reruns: RunTwice.cmake).
/// The lattice's options in stages mode: tolerance 1e-4 (plain NSGS), 1e-10 with the
/// acceleration, whose sweeps are few enough to compare the states to round-off.
SceneEngine::Options stagesOptions(const std::string& solver) {
  SceneEngine::Options o = latticeOptions(solver);
  if (solver == "nsgs_anderson") o.solverOptions.tolerance = 1e-10;
  return o;
}

int runStages(const std::string& solver) {
  const int n = 8, layers = 20, steps = 2;
  long long single = 0;
  std::vector<double> whole;  // the one-process state at the end (rank 0)
  if (g_rank == 0) {
    SceneEngine one(stagesOptions(solver));
    buildLattice(one, n, layers);
    for (int step = 1; step <= steps; ++step) {
      const SceneEngine::StepReport& r = one.step();
      check(r.status == NSD_OK, "one process, step " + std::to_string(step) + ": no convergence");
      single += r.solver.iterations;
    }
    whole = wholeState(one.bodies());
  }
  MPI_Bcast(&single, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  SceneEngine engine(stagesOptions(solver));
  buildLattice(engine, n, layers);
  auto exchange = std::make_shared<MpiSceneExchange>(MPI_COMM_WORLD);
  engine.setExchange(exchange);
  long long iterations = 0, boundary = 0;
  int colours = 1;  // the most colours of the ranks at a step
  for (int step = 1; step <= steps; ++step) {
    const SceneEngine::StepReport& r = engine.step();
    check(r.status == NSD_OK, "step " + std::to_string(step) + ": the solve did not converge (" +
                                  std::string(r.solver.message) + ")");
    iterations += r.solver.iterations;
    colours = std::max(colours, exchange->statistics().colours);
    long long b = static_cast<long long>(exchange->statistics().boundaryContacts);
    MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    boundary += b;
  }
  std::vector<long long> ids;
  const std::vector<double> state = gatherState(engine.bodies(), ids);
  if (g_rank == 0) {
    // the end state against one process's: at 1e-10 (the accelerated sweeps) the parts reach
    // the lattice's answer within 1e-8
    double dx = 0.0, dq = 0.0;
    difference(state, whole, dx, dq);
    check(state.size() == whole.size() && (solver != "nsgs_anderson" || (dx <= 1e-8 && dq <= 1e-8)),
          "end state against one process: |dx| " + std::to_string(dx) + " m, |dq| " +
              std::to_string(dq));
    const double ratio = static_cast<double>(iterations) / static_cast<double>(single);
    check(ratio <= 1.3, "sweeps over the ranks " + std::to_string(iterations) + ", one process " +
                            std::to_string(single) + ": ratio " + std::to_string(ratio) + " > 1.3");
    check(g_size == 1 ? iterations == single : boundary > 0,
          "no boundary contact over several ranks, or one rank differs from one process");
    check(g_size != 2 || colours == 2,
          "2 ranks: " + std::to_string(colours) + " colours, 2 expected");
    check(g_size != 1 || colours == 1,
          "1 rank: " + std::to_string(colours) + " colours, 1 expected");
    std::printf(
        "%s in stages, %d ranks, %d colours: %lld sweeps (one process %lld, ratio "
        "%.3f), %lld boundary contacts over the steps; end state vs one process: |dx| %.3e m, "
        "|dq| %.3e\n",
        solver.c_str(), g_size, colours, iterations, single, ratio, boundary, dx, dq);
    const std::uint64_t hash = nsdyn::test::parallel::fnv(1469598103934665603ull, state.data(),
                                                          state.size() * sizeof(double));
    std::printf("hash=%016llx\n", static_cast<unsigned long long>(hash));
  }
  return finish(0);
}

/// The sweeps' drift over the ranks (solverOptions.nsgs.drift): 4 capsules lying across a
/// plane 1 m apart, pushed obliquely, loaded contacts kept, NSGS or APGD to 1e-14 (SceneDriftTest's
/// capsule, 4 times): the warm-started sweeps drift along the null direction of each
/// capsule's two contacts until the jump, whose length the ranks agree on (reduce_max). Every
/// step converges on every rank, every rank takes the same jumps (at least one) and the end
/// state is the one-process run's within 1e-10 (one rank: the same bits).
void buildCapsules(SceneEngine& engine) {
  engine.setDefaultMaterial(nsdyn::ContactMaterial{0.3, 0.0});
  nsdyn::ShapeInstance plane;
  plane.shape = std::make_shared<nsdyn::HalfSpaceShape>(nsdyn::Shape::Vec3{0, 0, 1}, 0.0);
  engine.addStatic({plane});
  nsdyn::ShapeInstance capsule;
  capsule.shape = std::make_shared<nsdyn::CapsuleShape>(0.04, 0.12);
  const double half = M_PI / 4;
  for (int k = 0; k < 4; ++k) {
    nsdyn::BodySpec s;
    s.shapes = {capsule};
    s.density = 1000.0;
    s.position = {1.0 * k, -0.3, 0.04};
    s.orientation = {std::cos(half), 0.5 * std::sin(half), std::sqrt(0.75) * std::sin(half), 0.0};
    s.velocity = {0.2, 0.9, 0.0, 0.0, 0.0, 0.0};
    engine.addBody(s);
  }
}

SceneEngine::Options driftOptions(const std::string& solver) {
  SceneEngine::Options o = engineOptions(solver, 1);
  o.h = 0.005;
  o.solverOptions.tolerance = 1e-14;
  o.solverOptions.max_iterations = 1000;
  o.contacts.keepLoadedContacts = true;
  return o;
}

int runDrift(const std::string& solver) {
  const int steps = 200;
  std::vector<double> whole;
  if (g_rank == 0) {
    SceneEngine one(driftOptions(solver));
    buildCapsules(one);
    for (int step = 1; step <= steps; ++step)
      check(one.step().status == NSD_OK, "one process, step " + std::to_string(step));
    whole = wholeState(one.bodies());
  }
  SceneEngine engine(driftOptions(solver));
  buildCapsules(engine);
  engine.setExchange(std::make_shared<MpiSceneExchange>(MPI_COMM_WORLD));
  long long jumps = 0;
  for (int step = 1; step <= steps; ++step) {
    const SceneEngine::StepReport& r = engine.step();
    check(r.status == NSD_OK, "step " + std::to_string(step) + ": the solve did not converge (" +
                                  std::string(r.solver.message) + ")");
    jumps += r.solver.drift_jumps;
  }
  // every rank takes every jump (their length agreed)
  long long fewest = jumps;
  MPI_Allreduce(MPI_IN_PLACE, &jumps, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &fewest, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  std::vector<long long> ids;
  const std::vector<double> state = gatherState(engine.bodies(), ids);
  if (g_rank == 0) {
    double dx = 0.0, dq = 0.0;
    difference(state, whole, dx, dq);
    const bool same = state.size() == whole.size() &&
                      std::memcmp(state.data(), whole.data(), state.size() * sizeof(double)) == 0;
    check(state.size() == whole.size() && dx <= 1e-10 && dq <= 1e-10 && (g_size > 1 || same),
          "end state against one process: |dx| " + std::to_string(dx) + " m, |dq| " +
              std::to_string(dq));
    check(jumps >= 1 && fewest == jumps, "drift jumps: " + std::to_string(fewest) + " to " +
                                             std::to_string(jumps) + " on the ranks");
    std::printf(
        "%s drift, %d ranks: %lld jumps on every rank; end state vs one process: |dx| "
        "%.3e m, |dq| %.3e\n",
        solver.c_str(), g_size, jumps, dx, dq);
  }
  return finish(0);
}

int runBad() {
  SceneEngine engine(engineOptions("nsgs", 1));
  buildPile(engine, g_rank == g_size - 1 && g_size > 1);
  engine.setExchange(std::make_shared<MpiSceneExchange>(MPI_COMM_WORLD));
  try {
    engine.step();
  } catch (const std::exception& e) {
    return nsdyn::parallel::reportError(MPI_COMM_WORLD, e);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  const std::string mode = argc > 1 ? argv[1] : "check";
  const std::string solver = argc > 2 ? argv[2] : "apgd";
  int rc = 0;
  try {
    if (mode == "check" || mode == "free") {
      const Figures f = run(solver, 1, mode == "check" ? Mode::Synced : Mode::Free);
      if (g_rank == 0) std::printf("hash=%016llx\n", static_cast<unsigned long long>(f.hash));
      rc = finish(0);
    } else if (mode == "threads") {
      const Figures one = run(solver, 1, Mode::Alone);
      const Figures two = run(solver, 2, Mode::Alone);
      if (g_rank == 0) {
        check(one.hash == two.hash, "1 and 2 threads per rank differ");
        std::printf("1 thread: hash %016llx, %.2f ms/step; 2 threads: hash %016llx, %.2f ms/step\n",
                    static_cast<unsigned long long>(one.hash), one.msPerStep,
                    static_cast<unsigned long long>(two.hash), two.msPerStep);
      }
      rc = finish(0);
    } else if (mode == "bench") {
      const int n = argc > 3 ? std::atoi(argv[3]) : 40, layers = argc > 4 ? std::atoi(argv[4]) : 20;
      const int steps = argc > 5 ? std::atoi(argv[5]) : 10;
      rc = runBench(solver, n, layers, steps, argc > 6 && std::string(argv[6]) == "single");
    } else if (mode == "stages") {
      rc = runStages(solver);
    } else if (mode == "drift") {
      rc = runDrift(solver);
    } else if (mode == "bad") {
      rc = runBad();
    } else {
      if (g_rank == 0)
        std::fprintf(
            stderr,
            "usage: test_parallel_engine check|free|threads apgd|nsgs|nsgs_anderson | stages "
            "nsgs|nsgs_anderson | drift nsgs|nsgs_anderson|apgd | bad "
            "extra-body | "
            "bench apgd|nsgs "
            "[n layers steps [single]]\n");
      rc = 2;
    }
  } catch (const std::exception& e) {
    rc = nsdyn::parallel::reportError(MPI_COMM_WORLD, e);
  }
  MPI_Finalize();
  return rc;
}
