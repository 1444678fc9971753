// MPI tests of nsdyn::parallel (run by ctest under mpirun -np 1, 2, 3; doc/parallel.md).
// Decomposition alone (the scene engine over ranks has its own tests: ParallelSceneEngineTest,
// which compares the contacts summed over the ranks with the one-process ones every step).
//   test_parallel check       (a) partition + migration lose and duplicate no body, also after
//                             a shift across the cuts, a forced and an automatic repartition
//                             and steps of small moves; each owned centre in its subdomain;
//                             (b) the ghosts are copies of other ranks' bodies near this
//                             subdomain, and none needed is missing; the guards throw the same
//                             nsdyn::Error on every rank; prints "hash=<16 hex>" (rank 0) over
//                             the distribution and the ghosts, for the rerun comparison.
//   test_parallel bad <case>  few | halo | nan: the faulty call uncaught, as a program
//                             would: rank 0 prints the error, every rank exits 1.
#include <mpi.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "nsdyn/Error.hpp"
#include "nsdyn/SceneGenerators.hpp"
#include "nsdyn/SphereShape.hpp"
#include "nsdyn/parallel/Collective.hpp"
#include "nsdyn/parallel/Decomposition.hpp"
#include "parallel_test_support.hpp"

using nsdyn::parallel::BodyArrays;
using nsdyn::parallel::Decomposition;

namespace {

int g_rank = 0, g_size = 1, g_failures = 0;
bool g_print = true;  // rank 0 reports (the first run of the scenario)
constexpr std::size_t kBodies = 2000;
constexpr double kRadius = 0.05;
constexpr double kMargin = 0.5 * kRadius;  // the halo covers contacts up to a gap of 2.5 cm

void check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "FAIL (rank %d): %s\n", g_rank, what.c_str());
    ++g_failures;
  }
}

// The whole scene, identical on every rank: a seeded random packing of spheres (radius
// 5 cm ± 20 %) in a 1.8 m cube; body k has global id k.
BodyArrays scene() {
  nsdyn::scenes::ParticleSpec grain;
  grain.radius = kRadius;
  grain.sizeSpread = 0.2;
  const auto specs = nsdyn::scenes::randomPacking(grain, {{0, 0, 0}, {1.8, 1.8, 1.8}}, kBodies, 7);
  BodyArrays all;
  for (std::size_t k = 0; k < specs.size(); ++k) {
    const auto& sphere = static_cast<const nsdyn::SphereShape&>(*specs[k].shapes[0].shape);
    all.push_back(static_cast<std::int64_t>(k), specs[k].position[0], specs[k].position[1],
                  specs[k].position[2], sphere.radius());
  }
  return all;
}

BodyArrays slice(const BodyArrays& all) {
  return nsdyn::test::parallel::slice(all, g_rank, g_size);
}
using nsdyn::test::parallel::fnv;

// Rank 0: every rank's owned ids, in rank order (empty elsewhere).
std::vector<std::int64_t> gatherOwned(const Decomposition& d, std::vector<int>& counts) {
  int n = static_cast<int>(d.owned().size());
  counts.assign(static_cast<std::size_t>(g_size), 0);
  MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> offsets(static_cast<std::size_t>(g_size), 0);
  int total = 0;
  for (int p = 0; p < g_size; ++p) {
    offsets[static_cast<std::size_t>(p)] = total;
    total += counts[static_cast<std::size_t>(p)];
  }
  std::vector<std::int64_t> ids(g_rank == 0 ? static_cast<std::size_t>(total) : 0);
  MPI_Gatherv(d.owned().id.data(), n, MPI_INT64_T, ids.data(), counts.data(), offsets.data(),
              MPI_INT64_T, 0, MPI_COMM_WORLD);
  return ids;
}

// (a) every input id owned by exactly one rank, each owned centre inside its subdomain.
void checkOwnership(const Decomposition& d, const BodyArrays& all, const std::string& when,
                    std::uint64_t& hash) {
  for (std::size_t k = 0; k < d.owned().size(); ++k)
    if (d.ownerOf({d.owned().x[k], d.owned().y[k], d.owned().z[k]}) != g_rank) {
      check(false,
            when + ": body " + std::to_string(d.owned().id[k]) + " owned outside its subdomain");
      break;
    }
  std::vector<int> counts;
  std::vector<std::int64_t> ids = gatherOwned(d, counts);
  if (g_rank != 0) return;
  hash = fnv(hash, counts.data(), counts.size() * sizeof(int));
  hash = fnv(hash, ids.data(), ids.size() * sizeof(std::int64_t));
  std::sort(ids.begin(), ids.end());
  check(ids.size() == all.size(), when + ": " + std::to_string(ids.size()) +
                                      " bodies owned over the ranks, expected " +
                                      std::to_string(all.size()));
  check(std::adjacent_find(ids.begin(), ids.end()) == ids.end(), when + ": a body owned twice");
  check(ids == all.id, when + ": the owned ids differ from the input ids");
  std::string line = when + ": owned per rank";
  for (int c : counts) line += " " + std::to_string(c);
  if (g_print) std::printf("%s\n", line.c_str());
}

// Every rank's owned bodies, on every rank, in rank order, with their owner.
struct Everyone {
  BodyArrays bodies;
  std::vector<int> owner;
};

Everyone gatherEveryone(const Decomposition& d) {
  const BodyArrays& mine = d.owned();
  int n = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(g_size)),
      offsets(static_cast<std::size_t>(g_size));
  MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  int total = 0;
  for (int p = 0; p < g_size; ++p) {
    offsets[static_cast<std::size_t>(p)] = total;
    total += counts[static_cast<std::size_t>(p)];
  }
  Everyone e;
  const std::size_t all = static_cast<std::size_t>(total);
  e.bodies.id.resize(all);
  e.bodies.x.resize(all);
  e.bodies.y.resize(all);
  e.bodies.z.resize(all);
  e.bodies.radius.resize(all);
  MPI_Allgatherv(mine.id.data(), n, MPI_INT64_T, e.bodies.id.data(), counts.data(), offsets.data(),
                 MPI_INT64_T, MPI_COMM_WORLD);
  std::vector<double> BodyArrays::*const arrays[] = {&BodyArrays::x, &BodyArrays::y, &BodyArrays::z,
                                                     &BodyArrays::radius};
  for (auto a : arrays)
    MPI_Allgatherv((mine.*a).data(), n, MPI_DOUBLE, (e.bodies.*a).data(), counts.data(),
                   offsets.data(), MPI_DOUBLE, MPI_COMM_WORLD);
  for (int p = 0; p < g_size; ++p)
    e.owner.insert(e.owner.end(), static_cast<std::size_t>(counts[static_cast<std::size_t>(p)]), p);
  return e;
}

// (b) the ghosts: each a copy of another rank's body (the same record, ghostOwners() its
// owner) whose box centre ± (radius + halo) meets this rank's subdomain; and every body of
// another rank whose box contains the centre of a body owned here is a ghost here (what
// complete detection needs: the rule of doc/parallel.md "Ghosts within a halo").
void checkGhosts(const Decomposition& d, const std::string& when, std::uint64_t& hash) {
  const Everyone e = gatherEveryone(d);
  const BodyArrays& g = d.ghosts();
  const double halo = d.options().halo;
  const std::array<double, 6> box = d.subdomain(g_rank);
  constexpr double kTie = 1e-9;  // no decision on a face (Zoltan's box test is inclusive)
  std::vector<std::size_t> at(e.bodies.size());
  for (std::size_t k = 0; k < at.size(); ++k) at[k] = k;
  std::sort(at.begin(), at.end(),
            [&](std::size_t a, std::size_t b) { return e.bodies.id[a] < e.bodies.id[b]; });
  check(g.size() == d.ghostOwners().size(), when + ": ghostOwners() not aligned with ghosts()");
  check(std::is_sorted(g.id.begin(), g.id.end()), when + ": ghosts not sorted by id");
  for (std::size_t k = 0; k < g.size() && k < d.ghostOwners().size(); ++k) {
    const auto it =
        std::lower_bound(at.begin(), at.end(), g.id[k],
                         [&](std::size_t i, std::int64_t id) { return e.bodies.id[i] < id; });
    if (it == at.end() || e.bodies.id[*it] != g.id[k]) {
      check(false, when + ": ghost " + std::to_string(g.id[k]) + " owned by no rank");
      break;
    }
    const std::size_t i = *it;
    if (e.owner[i] == g_rank || d.ghostOwners()[k] != e.owner[i] || g.x[k] != e.bodies.x[i] ||
        g.y[k] != e.bodies.y[i] || g.z[k] != e.bodies.z[i] || g.radius[k] != e.bodies.radius[i]) {
      check(false,
            when + ": ghost " + std::to_string(g.id[k]) + " is not the copy of its owner's body");
      break;
    }
    const double r = g.radius[k] + halo + kTie;
    const double c[3] = {g.x[k], g.y[k], g.z[k]};
    bool meets = true;
    for (int a = 0; a < 3; ++a)
      meets = meets && c[a] + r >= box[static_cast<std::size_t>(a)] &&
              c[a] - r <= box[static_cast<std::size_t>(a) + 3];
    if (!meets) {
      check(false, when + ": ghost " + std::to_string(g.id[k]) + " far from this subdomain");
      break;
    }
  }
  const BodyArrays& o = d.owned();
  std::size_t missing = 0;
  for (std::size_t i = 0; i < e.bodies.size(); ++i) {
    if (e.owner[i] == g_rank) continue;
    const double r = e.bodies.radius[i] + halo - kTie;
    bool needed = false;
    for (std::size_t k = 0; k < o.size() && !needed; ++k)
      needed = std::abs(o.x[k] - e.bodies.x[i]) < r && std::abs(o.y[k] - e.bodies.y[i]) < r &&
               std::abs(o.z[k] - e.bodies.z[i]) < r;
    if (needed && !std::binary_search(g.id.begin(), g.id.end(), e.bodies.id[i])) ++missing;
  }
  check(missing == 0, when + ": " + std::to_string(missing) + " bodies missing from the ghosts");
  unsigned long long ghosts = g.size(), ghostsAll = 0;
  MPI_Allreduce(&ghosts, &ghostsAll, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (g_size > 1) check(ghostsAll > 0, when + ": no ghost (test scene too easy)");
  const std::vector<std::int64_t> ids = nsdyn::test::parallel::gatherToRoot(g.id, MPI_COMM_WORLD);
  if (g_rank != 0) return;
  hash = fnv(hash, ids.data(), ids.size() * sizeof(std::int64_t));
  if (g_print) std::printf("%s: %llu ghosts over the ranks\n", when.c_str(), ghostsAll);
}

BodyArrays shifted(const BodyArrays& b, double dx, double dy, double dz) {
  BodyArrays s = b;
  for (std::size_t k = 0; k < s.size(); ++k) {
    s.x[k] += dx;
    s.y[k] += dy;
    s.z[k] += dz;
  }
  return s;
}

// The whole scenario; returns rank 0's hash (0 elsewhere).
std::uint64_t scenario(bool print) {
  g_print = print;
  const BodyArrays all = scene();
  Decomposition::Options o;
  o.halo = 0.06 + kMargin;     // the largest radius (0.05 · 1.2) + the margin
  o.imbalanceThreshold = 1e9;  // migrate() by point assignment only; repartition when asked
  Decomposition d(MPI_COMM_WORLD, o);
  std::uint64_t hash = 1469598103934665603ull;
  double migrateSeconds = 0.0;

  auto t0 = std::chrono::steady_clock::now();
  d.partition(slice(all));
  migrateSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  checkOwnership(d, all, "partition", hash);
  checkGhosts(d, "partition", hash);

  // Everything moves by 0.9 m in x, −0.6 m in y (half the scene: across the cuts).
  const double dx = 0.9, dy = -0.6, dz = 0.3;
  const BodyArrays moved = shifted(all, dx, dy, dz);
  t0 = std::chrono::steady_clock::now();
  d.migrate(shifted(d.owned(), dx, dy, dz));
  migrateSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  unsigned long long sent = d.statistics().migrated, sentAll = 0;
  MPI_Allreduce(&sent, &sentAll, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (g_size > 1) check(sentAll > 0, "migrate: no body changed rank after the shift");
  if (g_rank == 0 && print) std::printf("migrate: %llu bodies changed rank\n", sentAll);
  checkOwnership(d, moved, "migrate", hash);
  checkGhosts(d, "migrate", hash);

  // Back again, with a repartition (new cuts).
  t0 = std::chrono::steady_clock::now();
  d.migrate(shifted(d.owned(), -dx, -dy, -dz), true);
  migrateSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const BodyArrays back = shifted(moved, -dx, -dy, -dz);
  checkOwnership(d, back, "rebalance", hash);
  checkGhosts(d, "rebalance", hash);
  check(d.statistics().partitions == 2, "rebalance: expected 2 partitions");

  // Automatic rebalance: the default threshold (1.25) is passed after the shift for 2 and 3 ranks.
  Decomposition::Options autoOptions = o;
  autoOptions.imbalanceThreshold = Decomposition::Options().imbalanceThreshold;
  Decomposition automatic(MPI_COMM_WORLD, autoOptions);
  automatic.partition(slice(all));
  automatic.migrate(shifted(automatic.owned(), dx, dy, dz));
  checkOwnership(automatic, moved, "automatic rebalance", hash);
  checkGhosts(automatic, "automatic rebalance", hash);
  check(automatic.statistics().partitions == (g_size > 1 ? 2u : 1u),
        "automatic rebalance: wrong partition count " +
            std::to_string(automatic.statistics().partitions));
  check(automatic.statistics().imbalance <= autoOptions.imbalanceThreshold,
        "automatic rebalance: still imbalanced");

  // Steps of small deterministic moves (up to 3 cm per axis, from the id and the step):
  // migration each step, ownership and ghosts checked each step.
  BodyArrays current = moved;
  for (int step = 1; step <= 4; ++step) {
    auto wiggle = [step](std::int64_t id, int axis) {
      const std::uint64_t h = fnv(
          1469598103934665603ull ^ static_cast<std::uint64_t>(step * 3 + axis), &id, sizeof(id));
      return 0.03 * (static_cast<double>(h >> 11) * 0x1.0p-53 * 2.0 - 1.0);
    };
    auto move = [&](BodyArrays b) {
      for (std::size_t k = 0; k < b.size(); ++k) {
        b.x[k] += wiggle(b.id[k], 0);
        b.y[k] += wiggle(b.id[k], 1);
        b.z[k] += wiggle(b.id[k], 2);
      }
      return b;
    };
    current = move(current);
    automatic.migrate(move(automatic.owned()));
    const std::string when = "step " + std::to_string(step);
    checkOwnership(automatic, current, when, hash);
    checkGhosts(automatic, when, hash);
  }
  if (g_rank == 0 && print)
    std::printf(
        "np %d: partition and migrations %.3f s (rank 0, decomposition d), imbalance %.3f, "
        "ghosts sent %zu\n",
        g_size, migrateSeconds, d.statistics().imbalance, d.statistics().ghostsSent);
  return g_rank == 0 ? hash : 0;
}

// A guard: the call throws nsdyn::Error on every rank with the same message containing @p text.
template <class F>
void expectCollectiveError(const std::string& name, const std::string& text, F call) {
  std::string message;
  try {
    call();
  } catch (const nsdyn::Error& e) {
    message = e.what();
  }
  check(message.find(text) != std::string::npos,
        name + ": expected an error with \"" + text + "\", got \"" + message + "\"");
  const std::uint64_t h = fnv(1469598103934665603ull, message.data(), message.size());
  std::uint64_t lo = 0, hi = 0;
  MPI_Allreduce(&h, &lo, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&h, &hi, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  check(lo == hi, name + ": the ranks threw different messages");
  if (g_rank == 0) std::printf("guard %s: \"%s\"\n", name.c_str(), message.c_str());
}

// The faulty inputs, shared by the in-process checks and `bad`.
void badCall(const std::string& which) {
  const BodyArrays all = scene();
  Decomposition::Options o;
  o.halo = 0.06 + kMargin;
  if (which == "few") {
    BodyArrays few;  // size − 1 bodies, all on rank 0
    if (g_rank == 0)
      for (int k = 0; k + 1 < g_size; ++k) few.append(all, static_cast<std::size_t>(k));
    Decomposition d(MPI_COMM_WORLD, o);
    d.partition(few);
  } else if (which == "halo") {
    o.halo = 0.03;  // below the largest radius 0.06
    Decomposition d(MPI_COMM_WORLD, o);
    d.partition(slice(all));
  } else if (which == "nan") {
    BodyArrays mine = slice(all);
    if (g_rank == g_size - 1) mine.y[mine.size() / 2] = std::numeric_limits<double>::quiet_NaN();
    Decomposition d(MPI_COMM_WORLD, o);
    d.partition(mine);
  } else {
    throw nsdyn::Error("test_parallel: unknown bad case " + which);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  const std::string mode = argc > 1 ? argv[1] : "check";
  int status = 0;
  try {
    if (mode == "bad") {
      badCall(argc > 2 ? argv[2] : "");
      if (g_rank == 0)
        std::fprintf(stderr, "test_parallel: bad %s did not throw\n", argc > 2 ? argv[2] : "");
      status = 0;  // the ctest script expects a failure: a success here fails it
    } else {
      const auto t0 = std::chrono::steady_clock::now();
      const std::uint64_t first = scenario(true);
      const std::uint64_t second = scenario(false);
      if (g_rank == 0) check(first == second, "two runs of the scenario in one process differ");
      expectCollectiveError("few", "fewer bodies than ranks", [] { badCall("few"); });
      expectCollectiveError("halo", "smaller than the largest bounding radius",
                            [] { badCall("halo"); });
      expectCollectiveError("nan", "not finite", [] { badCall("nan"); });
      int failures = g_failures, all = 0;
      MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      if (g_rank == 0) {
        std::printf("hash=%016llx\n", static_cast<unsigned long long>(first));
        std::printf("np %d: %s, %d failures, %.2f s\n", g_size, all == 0 ? "OK" : "FAILED", all,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      }
      status = all == 0 ? 0 : 1;
    }
  } catch (const std::exception& e) {
    status = nsdyn::parallel::reportError(MPI_COMM_WORLD, e);
  }
  MPI_Finalize();
  return status;
}
