// MpiSceneExchange: set-up (same scene on every rank, template, partition), the store of a
// rank (owned + ghosts + statics, sorted by global id), owned contacts and the ordered
// reductions (nsdyn/parallel/MpiSceneExchange.hpp). The halo plan and the solver hooks are
// in MpiSceneExchangeHalo.cpp, the migration in MpiSceneExchangeMigrate.cpp.
#include "nsdyn/parallel/MpiSceneExchange.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>

#include "nsdyn/ContactDetector.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/parallel/BodyArrays.hpp"
#include "nsdyn/parallel/Collective.hpp"

namespace nsdyn {
namespace parallel {

namespace {

constexpr int kState = 13;  // q (7) and v (6) travel with a body

std::string number(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

/// FNV-1a over @p bytes bytes, from @p h.
std::uint64_t fnv(std::uint64_t h, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

template <class T>
std::uint64_t fnvVector(std::uint64_t h, const std::vector<T>& v) {
  const std::uint64_t n = v.size();
  h = fnv(h, &n, sizeof n);
  return v.empty() ? h : fnv(h, v.data(), v.size() * sizeof(T));
}

}  // namespace

MpiSceneExchange::MpiSceneExchange(MPI_Comm comm, const Options& options) : options_(options) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized)
    throw Error("MpiSceneExchange", "MPI initialised (MPI_Init) before construction",
                "MPI not initialised");
  if (!(std::isfinite(options.halo) && options.halo >= 0.0))
    throw Error("MpiSceneExchange", "a halo finite and >= 0 (0: automatic)", number(options.halo));
  if (!std::isfinite(options.skin))
    throw Error("MpiSceneExchange", "a finite skin (< 0: automatic)", number(options.skin));
  if (options.rebalanceEvery < 0)
    throw Error("MpiSceneExchange", "rebalanceEvery >= 0 (0: on imbalance only)",
                std::to_string(options.rebalanceEvery));
  if (!(std::isfinite(options.imbalanceThreshold) && options.imbalanceThreshold >= 1.0))
    throw Error("MpiSceneExchange", "an imbalance threshold finite and >= 1",
                number(options.imbalanceThreshold));
  if (!(std::isfinite(options.imbalanceTolerance) && options.imbalanceTolerance >= 1.0))
    throw Error("MpiSceneExchange", "an imbalance tolerance finite and >= 1",
                number(options.imbalanceTolerance));
  MPI_Comm_dup(comm, &comm_);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

MpiSceneExchange::~MpiSceneExchange() {
  decomposition_.reset();
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void MpiSceneExchange::checkSameScene(const BodyStore& bodies) const {
  // every array of the store and every shape instance (kind, size, offset) in one hash
  std::uint64_t h = 1469598103934665603ull;
  h = fnvVector(h, bodies.q);
  h = fnvVector(h, bodies.v);
  h = fnvVector(h, bodies.mass);
  h = fnvVector(h, bodies.inertia);
  h = fnvVector(h, bodies.force);
  h = fnvVector(h, bodies.torque);
  h = fnvVector(h, bodies.shapeStart);
  h = fnvVector(h, bodies.isStatic);
  h = fnvVector(h, bodies.group);
  h = fnvVector(h, bodies.id);
  for (const ShapeInstance& s : bodies.shapes) {
    const int kind = static_cast<int>(s.shape->kind());
    const double size = s.shape->characteristicSize();
    h = fnv(h, &kind, sizeof kind);
    h = fnv(h, &size, sizeof size);
    h = fnv(h, s.position.data(), sizeof(double) * 3);
    h = fnv(h, s.orientation.data(), sizeof(double) * 4);
  }
  const std::size_t functions = bodies.forceFunctions().size();
  h = fnv(h, &functions, sizeof functions);
  std::uint64_t low = h, high = h;
  MPI_Allreduce(MPI_IN_PLACE, &low, 1, MPI_UINT64_T, MPI_MIN, comm_);
  MPI_Allreduce(MPI_IN_PLACE, &high, 1, MPI_UINT64_T, MPI_MAX, comm_);
  if (low == high) return;
  // the same message on every rank: the body count of each
  long long count = static_cast<long long>(bodies.size());
  std::vector<long long> counts(static_cast<std::size_t>(size_));
  MPI_Allgather(&count, 1, MPI_LONG_LONG, counts.data(), 1, MPI_LONG_LONG, comm_);
  std::ostringstream s;
  s << "MpiSceneExchange: the ranks built different scenes (every rank must add the same bodies, "
       "in the same order, with the same state); bodies per rank:";
  for (long long c : counts) s << " " << c;
  throw Error(s.str());
}

void MpiSceneExchange::initialize(BodyStore& bodies, ContactMemory& memory, double reach) {
  if (size_ == 1) return;  // one rank: the whole scene, as one process
  // 1. local faults first (every rank learns of any), then one scene on every rank
  std::string fault;
  for (std::size_t b = 0; b < bodies.size() && fault.empty(); ++b)
    if (bodies.id[b] != static_cast<std::int64_t>(b))
      fault = "MpiSceneExchange: " + bodies.describe(b) + " has the global id " +
              std::to_string(bodies.id[b]) + " (the index in the whole scene expected)";
  if (fault.empty() && !(std::isfinite(reach) && reach >= 0.0))
    fault = "MpiSceneExchange: the reach " + number(reach) + " is not finite and >= 0";
  if (fault.empty() && memory.key.size() != memory.normal.size())
    fault = "MpiSceneExchange: contact memory arrays of different sizes";
  throwIfAnyFault(comm_, fault);
  checkSameScene(bodies);

  // 2. the halo (identical inputs on every rank: the same decision everywhere)
  double largest = 0.0;
  std::vector<std::int64_t> dynamic;
  statics_.clear();
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    if (bodies.isStatic[b]) {
      statics_.push_back(static_cast<std::int64_t>(b));
      continue;
    }
    dynamic.push_back(static_cast<std::int64_t>(b));
    largest = std::max(largest, bodies.boundingRadius(b));
  }
  if (dynamic.empty())
    throw Error("MpiSceneExchange", "at least one dynamic body to distribute", "none");
  skin_ = options_.skin < 0.0 ? 0.25 * largest : options_.skin;
  const double least = largest + reach + skin_;
  if (options_.halo > 0.0 && options_.halo < least)
    throw Error("MpiSceneExchange halo",
                "at least the largest bounding radius + the reach + the skin = " + number(least) +
                    " (contacts across ranks would be missed)",
                number(options_.halo));
  halo_ = options_.halo > 0.0 ? options_.halo : least;

  // 3. the template, then the partition from a slice of the dynamic bodies per rank
  whole_ = bodies;
  Decomposition::Options d;
  d.halo = halo_;
  d.imbalanceThreshold = options_.imbalanceThreshold;
  d.imbalanceTolerance = options_.imbalanceTolerance;
  decomposition_ = std::make_unique<Decomposition>(comm_, d);
  BodyArrays owned;
  owned.width = kState;
  const std::size_t n = dynamic.size(), r = static_cast<std::size_t>(rank_),
                    p = static_cast<std::size_t>(size_);
  for (std::size_t k = n * r / p; k < n * (r + 1) / p; ++k) {
    const std::size_t b = static_cast<std::size_t>(dynamic[k]);
    double state[kState];
    std::memcpy(state, &bodies.q[7 * b], 7 * sizeof(double));
    std::memcpy(state + 7, &bodies.v[6 * b], 6 * sizeof(double));
    owned.push_back(dynamic[k], bodies.q[7 * b], bodies.q[7 * b + 1], bodies.q[7 * b + 2],
                    bodies.boundingRadius(b), state);
  }
  decomposition_->partition(std::move(owned));

  // 4. this rank's memory: the entries of the contacts whose keeper body it owns
  const std::vector<std::int64_t>& mine = decomposition_->owned().id;
  ContactMemory kept;
  for (std::size_t i = 0; i < memory.size(); ++i) {
    const std::int64_t keeper = keeperOf(memory.key[i]);
    if (keeper >= 0 && std::binary_search(mine.begin(), mine.end(), keeper)) {
      kept.key.push_back(memory.key[i]);
      kept.normal.push_back(memory.normal[i]);
      kept.tangential.insert(kept.tangential.end(),
                             memory.tangential.begin() + static_cast<std::ptrdiff_t>(3 * i),
                             memory.tangential.begin() + static_cast<std::ptrdiff_t>(3 * i + 3));
    }
  }
  memory = std::move(kept);

  // 5. the store of this rank and its halo plan
  refill(bodies, *decomposition_);
  buildPlan(bodies);
  steps_ = 0;
  stats_.migrations = 0;
}

void MpiSceneExchange::refill(BodyStore& bodies, const Decomposition& d) {
  const BodyArrays& own = d.owned();
  const BodyArrays& gh = d.ghosts();
  // merge statics, owned and ghosts by id (each sorted)
  struct Entry {
    std::int64_t id;
    std::uint8_t kind;  // 0 static, 1 owned, 2 ghost
    std::size_t at;
  };
  std::vector<Entry> entries;
  entries.reserve(statics_.size() + own.size() + gh.size());
  std::size_t s = 0, o = 0, g = 0;
  while (s < statics_.size() || o < own.size() || g < gh.size()) {
    const std::int64_t big = std::numeric_limits<std::int64_t>::max();
    const std::int64_t is = s < statics_.size() ? statics_[s] : big,
                       io = o < own.size() ? own.id[o] : big, ig = g < gh.size() ? gh.id[g] : big;
    if (is <= io && is <= ig)
      entries.push_back({is, 0, s++});
    else if (io <= ig)
      entries.push_back({io, 1, o++});
    else
      entries.push_back({ig, 2, g++});
  }
  bool same = entries.size() == bodies.size() && kind_.size() == entries.size();
  for (std::size_t k = 0; same && k < entries.size(); ++k)
    same = bodies.id[k] == entries[k].id && kind_[k] == entries[k].kind;
  if (!same) {
    BodyStore fresh;
    for (const Entry& e : entries) {
      fresh.appendFrom(whole_, static_cast<std::size_t>(e.id));
      if (e.kind == 2) fresh.ghost.back() = 1;
    }
    bodies = std::move(fresh);
  }
  kind_.resize(entries.size());
  ghostOwner_.assign(entries.size(), -1);
  anchor_.resize(3 * entries.size());
  std::size_t owned = 0, ghosts = 0;
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const Entry& e = entries[k];
    kind_[k] = e.kind;
    if (e.kind == 0) continue;
    const double* state = e.kind == 1 ? own.state(e.at) : gh.state(e.at);
    std::memcpy(&bodies.q[7 * k], state, 7 * sizeof(double));
    std::memcpy(&bodies.v[6 * k], state + 7, 6 * sizeof(double));
    std::memcpy(&anchor_[3 * k], state, 3 * sizeof(double));
    if (e.kind == 2) {
      ghostOwner_[k] = d.ghostOwners()[e.at];
      ++ghosts;
    } else {
      ++owned;
    }
  }
  stats_.owned = owned;
  stats_.ghosts = ghosts;
  stats_.statics = statics_.size();
  stats_.partitions = d.statistics().partitions;
  stats_.imbalance = d.statistics().imbalance;
}

std::int64_t MpiSceneExchange::keeperOf(std::uint64_t key) const {
  const auto a = static_cast<std::size_t>(key >> 43),
             b = static_cast<std::size_t>((key >> 22) & 0x1FFFFFu);
  if (a >= whole_.size() || b >= whole_.size()) return -1;
  if (!whole_.isStatic[a]) return static_cast<std::int64_t>(a);
  return whole_.isStatic[b] ? -1 : static_cast<std::int64_t>(b);
}

void MpiSceneExchange::afterDetection(const BodyStore& bodies,
                                      std::vector<DetectedContact>& contacts) {
  if (size_ == 1) return;
  // a contact belongs to the owner of its first dynamic body (the lower global id); keys
  // with global ids (the store is sorted by id, so the order by key holds)
  std::size_t kept = 0;
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    DetectedContact& d = contacts[i];
    const std::size_t A = static_cast<std::size_t>(d.bodyA), B = static_cast<std::size_t>(d.bodyB);
    const std::size_t keeper = bodies.isStatic[A] ? B : A;
    if (bodies.isStatic[keeper] || bodies.ghost[keeper]) continue;
    d.key = ContactDetector::makeKey(
        static_cast<std::uint32_t>(bodies.id[A]), static_cast<std::uint32_t>(bodies.id[B]),
        static_cast<std::uint32_t>(d.shapeA), static_cast<std::uint32_t>(d.shapeB),
        static_cast<std::uint32_t>(d.featureA), static_cast<std::uint32_t>(d.featureB));
    if (kept != i) contacts[kept] = d;
    ++kept;
  }
  contacts.resize(kept);
#ifndef NDEBUG
  for (std::size_t i = 1; i < contacts.size(); ++i)
    if (contacts[i].key < contacts[i - 1].key)
      throw Error("MpiSceneExchange: owned contacts out of key order");
#endif
}

void MpiSceneExchange::reduceSum(double* values, int count) {
  if (size_ == 1 || count <= 0) return;
  const std::size_t c = static_cast<std::size_t>(count);
  gather_.resize(c * static_cast<std::size_t>(size_));
  MPI_Allgather(values, count, MPI_DOUBLE, gather_.data(), count, MPI_DOUBLE, comm_);
  // rank 0's value first, then the others in rank order: the same bits on every rank
  for (std::size_t i = 0; i < c; ++i) {
    double s = gather_[i];
    for (std::size_t p = 1; p < static_cast<std::size_t>(size_); ++p) s += gather_[p * c + i];
    values[i] = s;
  }
}

void MpiSceneExchange::reduceMax(double* values, int count) {
  if (size_ == 1 || count <= 0) return;
  MPI_Allreduce(MPI_IN_PLACE, values, count, MPI_DOUBLE, MPI_MAX, comm_);
}

}  // namespace parallel
}  // namespace nsdyn
