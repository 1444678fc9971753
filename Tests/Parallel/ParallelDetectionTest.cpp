// MPI tests of nsdyn::parallel (run by ctest under mpirun -np 1, 2, 3; doc/parallel.md).
//   test_parallel check       (a) partition + migration lose and duplicate no body, also after
//                             a shift across the cuts; (b) the contacts gathered over the ranks
//                             equal the single-process detection, bit for bit; the guards throw
//                             the same nsdyn::Error on every rank; prints "hash=<16 hex>" (rank 0)
//                             over the distribution and the contacts, for the rerun comparison.
//   test_parallel bad <case>  few | halo | nan | detector-halo: the faulty call uncaught, as a
//                             program would: rank 0 prints the error, every rank exits 1.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "parallel_test_support.hpp"
#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/ContactDetector.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/SceneGenerators.hpp"
#include "nsdyn/SphereShape.hpp"
#include "nsdyn/parallel/Collective.hpp"
#include "nsdyn/parallel/Decomposition.hpp"
#include "nsdyn/parallel/DistributedDetector.hpp"

using nsdyn::parallel::BodyArrays;
using nsdyn::parallel::Decomposition;
using nsdyn::parallel::DistributedContact;
using nsdyn::parallel::DistributedDetector;

namespace {

int g_rank = 0, g_size = 1, g_failures = 0;
bool g_print = true;  // rank 0 reports (the first run of the scenario)
constexpr std::size_t kBodies = 2000;
constexpr double kRadius = 0.05;
constexpr double kMargin = 0.5 * kRadius;  // contacts up to a gap of 2.5 cm

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

BodyArrays slice(const BodyArrays& all) { return nsdyn::test::parallel::slice(all, g_rank, g_size); }
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

// A contact on the wire: ids, shapes, features, points, normal, gap.
struct Wire {
  std::int64_t idA, idB;
  std::int32_t shapeA, shapeB, featureA, featureB;
  double pa[3], pb[3], n[3], gap;
};

Wire toWire(std::int64_t a, std::int64_t b, const nsdyn::DetectedContact& c) {
  Wire w{};
  w.idA = a;
  w.idB = b;
  w.shapeA = c.shapeA;
  w.shapeB = c.shapeB;
  w.featureA = c.featureA;
  w.featureB = c.featureB;
  for (int i = 0; i < 3; ++i) {
    w.pa[i] = c.pointA[static_cast<std::size_t>(i)];
    w.pb[i] = c.pointB[static_cast<std::size_t>(i)];
    w.n[i] = c.normal[static_cast<std::size_t>(i)];
  }
  w.gap = c.gap;
  return w;
}

bool wireLess(const Wire& a, const Wire& b) {
  if (a.idA != b.idA) return a.idA < b.idA;
  if (a.idB != b.idB) return a.idB < b.idB;
  if (a.shapeA != b.shapeA) return a.shapeA < b.shapeA;
  if (a.shapeB != b.shapeB) return a.shapeB < b.shapeB;
  if (a.featureA != b.featureA) return a.featureA < b.featureA;
  return a.featureB < b.featureB;
}

// One process over all bodies (ids = indices): the reference set.
std::vector<Wire> reference(const BodyArrays& all) {
  std::vector<nsdyn::BodyShapes> bodies;
  bodies.reserve(all.size());
  for (std::size_t k = 0; k < all.size(); ++k)
    bodies.push_back(
        nsdyn::makeBody({nsdyn::ShapeInstance{std::make_shared<nsdyn::SphereShape>(all.radius[k])}},
                        1.0, {all.x[k], all.y[k], all.z[k]}));
  nsdyn::ContactDetectorOptions o;
  o.margin = kMargin;
  o.breakingDistance = kMargin;
  nsdyn::ContactDetector detector(std::move(bodies), o);
  std::vector<Wire> out;
  for (const auto& c : detector.detect())
    out.push_back(toWire(all.id[static_cast<std::size_t>(c.bodyA)],
                         all.id[static_cast<std::size_t>(c.bodyB)], c));
  std::sort(out.begin(), out.end(), wireLess);
  return out;
}

// (b) the contacts over the ranks, gathered, equal the single-process ones (each pair once).
void checkContacts(const Decomposition& d, DistributedDetector& detector, const BodyArrays& all,
                   const std::string& when, std::uint64_t& hash, double& detectSeconds) {
  MPI_Barrier(MPI_COMM_WORLD);
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<DistributedContact>& mine = detector.detect(d);
  detectSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<Wire> local;
  unsigned long long across = 0,
                     acrossAll = 0;  // contacts with body B a ghost (pairs across subdomains)
  for (const auto& c : mine) {
    local.push_back(toWire(c.idA, c.idB, c.contact));
    if (!std::binary_search(d.owned().id.begin(), d.owned().id.end(), c.idB)) ++across;
  }
  MPI_Allreduce(&across, &acrossAll, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (g_size > 1)
    check(acrossAll > 0, when + ": no contact across subdomains (test scene too easy)");
  int bytes = static_cast<int>(local.size() * sizeof(Wire));
  std::vector<int> counts(static_cast<std::size_t>(g_size)),
      offsets(static_cast<std::size_t>(g_size));
  MPI_Gather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (int p = 0; p < g_size; ++p) {
    offsets[static_cast<std::size_t>(p)] = total;
    total += counts[static_cast<std::size_t>(p)];
  }
  std::vector<Wire> gathered(g_rank == 0 ? static_cast<std::size_t>(total) / sizeof(Wire) : 0);
  MPI_Gatherv(local.data(), bytes, MPI_BYTE, gathered.data(), counts.data(), offsets.data(),
              MPI_BYTE, 0, MPI_COMM_WORLD);
  if (g_rank != 0) return;
  std::sort(gathered.begin(), gathered.end(), wireLess);
  const std::vector<Wire> ref = reference(all);
  check(gathered.size() == detector.globalCount(),
        when + ": globalCount() differs from the gathered count");
  check(gathered.size() == ref.size(), when + ": " + std::to_string(gathered.size()) +
                                           " contacts over the ranks, single process " +
                                           std::to_string(ref.size()));
  check(!ref.empty(), when + ": no contact in the reference (test scene too sparse)");
  bool same = gathered.size() == ref.size();
  for (std::size_t i = 0; same && i < ref.size(); ++i)
    same = std::memcmp(&gathered[i], &ref[i], sizeof(Wire)) == 0;
  check(same, when + ": the contacts over the ranks differ from the single-process ones");
  hash = fnv(hash, gathered.data(), gathered.size() * sizeof(Wire));
  if (g_print)
    std::printf("%s: %zu contacts over the ranks (%llu across subdomains), single process %zu\n",
                when.c_str(), gathered.size(), acrossAll, ref.size());
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
  nsdyn::ContactDetectorOptions co;
  co.margin = kMargin;
  co.breakingDistance = kMargin;
  co.threads = 1;
  DistributedDetector detector(co);
  std::uint64_t hash = 1469598103934665603ull;
  double migrateSeconds = 0.0, detectSeconds = 0.0;

  auto t0 = std::chrono::steady_clock::now();
  d.partition(slice(all));
  migrateSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  checkOwnership(d, all, "partition", hash);
  checkContacts(d, detector, all, "partition", hash, detectSeconds);

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
  checkContacts(d, detector, moved, "migrate", hash, detectSeconds);

  // Back again, with a repartition (new cuts).
  t0 = std::chrono::steady_clock::now();
  d.migrate(shifted(d.owned(), -dx, -dy, -dz), true);
  migrateSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const BodyArrays back = shifted(moved, -dx, -dy, -dz);
  checkOwnership(d, back, "rebalance", hash);
  checkContacts(d, detector, back, "rebalance", hash, detectSeconds);
  check(d.statistics().partitions == 2, "rebalance: expected 2 partitions");

  // Automatic rebalance: the default threshold (1.25) is passed after the shift for 2 and 3 ranks.
  Decomposition::Options autoOptions = o;
  autoOptions.imbalanceThreshold = Decomposition::Options().imbalanceThreshold;
  Decomposition automatic(MPI_COMM_WORLD, autoOptions);
  automatic.partition(slice(all));
  automatic.migrate(shifted(automatic.owned(), dx, dy, dz));
  checkOwnership(automatic, moved, "automatic rebalance", hash);
  check(automatic.statistics().partitions == (g_size > 1 ? 2u : 1u),
        "automatic rebalance: wrong partition count " +
            std::to_string(automatic.statistics().partitions));
  check(automatic.statistics().imbalance <= autoOptions.imbalanceThreshold,
        "automatic rebalance: still imbalanced");

  // Steps of small deterministic moves (up to 3 cm per axis, from the id and the step):
  // migration each step, contacts = single process each step.
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
    checkContacts(automatic, detector, current, when, hash, detectSeconds);
  }
  if (g_rank == 0 && print)
    std::printf(
        "np %d: partition and migrations %.3f s, detections %.3f s (rank 0, decomposition d), "
        "imbalance %.3f, ghosts sent %zu\n",
        g_size, migrateSeconds, detectSeconds, d.statistics().imbalance, d.statistics().ghostsSent);
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
  } else if (which == "detector-halo") {
    o.halo = 0.06;  // enough for the decomposition, not for the margin
    Decomposition d(MPI_COMM_WORLD, o);
    d.partition(slice(all));
    nsdyn::ContactDetectorOptions co;
    co.margin = kMargin;
    co.breakingDistance = kMargin;
    DistributedDetector detector(co);
    detector.detect(d);
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
      expectCollectiveError("detector-halo", "+ the contact margin",
                            [] { badCall("detector-halo"); });
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
