// io::SceneParts over MPI ranks (nsdyn/parallel/MpiSceneParts.hpp): one frame of a distributed
// SceneEngine gathered on rank 0, agreed faults, sums in rank order, bytes gathered.
#include "nsdyn/parallel/MpiSceneParts.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <numeric>
#include <tuple>

#include "nsdyn/BodyStore.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/SceneContacts.hpp"

namespace nsdyn {
namespace parallel {

namespace {

constexpr int kBodyValues = 13;     // q (7), world velocity (6)
constexpr int kContactValues = 23;  // frame 9, pointA 3, pointB 3, gap, impulse 3, u 3, mu
constexpr std::uint64_t kSubMask = (std::uint64_t(1) << 22) - 1;  // shapes and features
constexpr std::uint64_t kBodyMask = (std::uint64_t(1) << 21) - 1;

template <class T>
MPI_Datatype mpiType();
template <>
MPI_Datatype mpiType<double>() {
  return MPI_DOUBLE;
}
template <>
MPI_Datatype mpiType<std::int64_t>() {
  return MPI_INT64_T;
}
template <>
MPI_Datatype mpiType<std::uint64_t>() {
  return MPI_UINT64_T;
}
template <>
MPI_Datatype mpiType<std::uint8_t>() {
  return MPI_UINT8_T;
}

/// @p mine of every rank concatenated in rank order on rank 0 (empty elsewhere); @p counts:
/// every rank's entry count, known on every rank, whose total fits in an int.
template <class T>
std::vector<T> gatherv(const std::vector<T>& mine, const std::vector<int>& counts, MPI_Comm comm,
                       int rank) {
  std::vector<int> offsets(counts.size(), 0);
  for (std::size_t p = 1; p < counts.size(); ++p) offsets[p] = offsets[p - 1] + counts[p - 1];
  std::vector<T> all(rank == 0 ? static_cast<std::size_t>(offsets.back() + counts.back()) : 0);
  MPI_Gatherv(mine.data(), static_cast<int>(mine.size()), mpiType<T>(), all.data(), counts.data(),
              offsets.data(), mpiType<T>(), 0, comm);
  return all;
}

/// Every rank's @p counts[k] times @p per, checked to fit in an int (the same on every rank).
std::vector<int> scaled(const std::vector<long long>& counts, std::size_t field, std::size_t fields,
                        long long per, const char* what) {
  std::vector<int> out(counts.size() / fields);
  long long total = 0;
  for (std::size_t p = 0; p < out.size(); ++p) {
    const long long n = counts[p * fields + field] * per;
    total += n;
    if (total > INT_MAX)
      throw Error("MpiSceneParts",
                  std::string("at most ") + std::to_string(INT_MAX) + " values of " + what +
                      " in one gather",
                  "more");
    out[p] = static_cast<int>(n);
  }
  return out;
}

// The arrays of the contacts a rank sends.
struct ContactsOut {
  std::vector<std::int64_t> ids;   // idA, idB per contact
  std::vector<std::uint64_t> key;  // 0 when not known
  std::vector<std::uint8_t> active;
  std::vector<double> values;  // kContactValues per contact
};

}  // namespace

MpiSceneParts::MpiSceneParts(const MpiSceneExchange& exchange) : exchange_(exchange) {
  MPI_Comm_dup(exchange.comm(), &comm_);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

MpiSceneParts::~MpiSceneParts() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void MpiSceneParts::agree(const std::string& fault) {
  if (size_ == 1) {
    if (!fault.empty()) throw Error(fault);
    return;
  }
  const int mine = fault.empty() ? size_ : rank_;
  int first = size_;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm_);
  if (first == size_) return;
  int length = rank_ == first ? static_cast<int>(std::min<std::size_t>(fault.size(), INT_MAX)) : 0;
  MPI_Bcast(&length, 1, MPI_INT, first, comm_);
  std::string text = rank_ == first ? fault.substr(0, static_cast<std::size_t>(length))
                                    : std::string(static_cast<std::size_t>(length), '\0');
  MPI_Bcast(text.data(), length, MPI_CHAR, first, comm_);
  throw Error(text + " (rank " + std::to_string(first) + " of " + std::to_string(size_) + ")");
}

void MpiSceneParts::sum(double* values, int count) {
  if (size_ == 1 || count <= 0) return;
  const std::size_t c = static_cast<std::size_t>(count);
  std::vector<double> all(rank_ == 0 ? c * static_cast<std::size_t>(size_) : 0);
  MPI_Gather(values, count, MPI_DOUBLE, all.data(), count, MPI_DOUBLE, 0, comm_);
  if (rank_ == 0)
    for (std::size_t i = 0; i < c; ++i) {
      double s = all[i];  // rank 0's value, then the others in rank order
      for (std::size_t p = 1; p < static_cast<std::size_t>(size_); ++p) s += all[p * c + i];
      values[i] = s;
    }
  MPI_Bcast(values, count, MPI_DOUBLE, 0, comm_);
}

void MpiSceneParts::max(double* values, int count) {
  if (size_ == 1 || count <= 0) return;
  MPI_Allreduce(MPI_IN_PLACE, values, count, MPI_DOUBLE, MPI_MAX, comm_);
}

std::vector<std::string> MpiSceneParts::gatherBytes(const std::string& bytes) {
  if (size_ == 1) return {bytes};
  long long mine = static_cast<long long>(bytes.size());
  std::vector<long long> sizes(static_cast<std::size_t>(size_));
  MPI_Allgather(&mine, 1, MPI_LONG_LONG, sizes.data(), 1, MPI_LONG_LONG, comm_);
  const std::vector<int> counts = scaled(sizes, 0, 1, 1, "bytes");  // the same on every rank
  std::vector<int> offsets(counts.size(), 0);
  for (std::size_t p = 1; p < counts.size(); ++p) offsets[p] = offsets[p - 1] + counts[p - 1];
  std::vector<char> all(rank_ == 0 ? static_cast<std::size_t>(offsets.back() + counts.back()) : 0);
  MPI_Gatherv(bytes.data(), static_cast<int>(bytes.size()), MPI_CHAR, all.data(), counts.data(),
              offsets.data(), MPI_CHAR, 0, comm_);
  std::vector<std::string> parts;
  if (rank_ != 0) return parts;
  std::size_t at = 0;
  for (int n : counts) {
    parts.emplace_back(all.data() + at, static_cast<std::size_t>(n));
    at += static_cast<std::size_t>(n);
  }
  return parts;
}

const io::SceneFrameView* MpiSceneParts::gather(const io::SceneFrameView& local) {
  if (size_ == 1) return &local;
  return gatherFrame(local, std::string());
}

const io::SceneFrameView* MpiSceneParts::gather(const BodyStore& bodies,
                                                const SceneContacts& contacts) {
  if (size_ == 1) return io::SceneParts::gather(bodies, contacts);
  // the bodies as the store holds them now; the contacts with their keys (global ids: their
  // body indices may be those of the store before a migration)
  std::string fault;
  local_ = io::SceneFrameView();
  try {
    local_ = io::SceneFrameView::of(bodies, SceneContacts(), "MpiSceneParts::gather");
    const std::size_t n = contacts.size();
    const auto need = [n](const char* what, std::size_t size, std::size_t per) {
      if (size != per * n)
        throw Error("MpiSceneParts::gather: SceneContacts",
                    std::string(what) + " of " + std::to_string(per * n) + " entries (" +
                        std::to_string(n) + " contacts)",
                    std::to_string(size));
    };
    need("active", contacts.active.size(), 1);
    need("frame", contacts.frame.size(), 9);
    need("pointA", contacts.pointA.size(), 3);
    need("pointB", contacts.pointB.size(), 3);
    need("gap", contacts.gap.size(), 1);
    need("impulse", contacts.impulse.size(), 3);
    local_.contactCount = n;
    local_.key = contacts.key.data();
    local_.bodyA = nullptr;  // read from the keys
    local_.bodyB = nullptr;
    local_.active = contacts.active.data();
    local_.frame = contacts.frame.data();
    local_.pointA = contacts.pointA.data();
    local_.pointB = contacts.pointB.data();
    local_.gap = contacts.gap.data();
    local_.impulse = contacts.impulse.data();
    local_.contactVelocity = contacts.velocity.size() == 3 * n ? contacts.velocity.data() : nullptr;
    local_.mu = contacts.mu.size() == n ? contacts.mu.data() : nullptr;
  } catch (const std::exception& e) {
    fault = e.what();
    local_ = io::SceneFrameView();
  }
  return gatherFrame(local_, fault);
}

const io::SceneFrameView* MpiSceneParts::gatherFrame(const io::SceneFrameView& local,
                                                     std::string fault) {
  // 1. what this rank sends: its owned dynamic bodies (rank 0: and the static ones), its
  //    contacts with the global ids of their bodies (from the key when known, else from the
  //    view's body indices)
  std::vector<std::int64_t> ids;
  std::vector<std::uint8_t> statics;
  std::vector<double> state;
  ContactsOut out;
  bool hasMu = true, hasVelocity = true, hasKey = true;
  if (fault.empty()) {
    try {
      const std::string where = "MpiSceneParts::gather (rank " + std::to_string(rank_) + ")";
      if (local.bodyCount > 0 && (!local.isStatic || !local.id || !local.q || !local.velocity))
        throw Error(where, "the body arrays of " + std::to_string(local.bodyCount) + " bodies",
                    "a null array");
      for (std::size_t b = 0; b < local.bodyCount; ++b) {
        if (local.isGhost(b) || (local.isStaticBody(b) && rank_ != 0)) continue;
        ids.push_back(local.id[b]);
        statics.push_back(local.isStatic[b] ? 1 : 0);
        state.insert(state.end(), local.q + 7 * b, local.q + 7 * b + 7);
        state.insert(state.end(), local.velocity + 6 * b, local.velocity + 6 * b + 6);
      }
      const std::size_t n = local.contactCount;
      if (n > 0 && (!local.active || !local.frame || !local.pointA || !local.pointB || !local.gap ||
                    !local.impulse || (!local.key && (!local.bodyA || !local.bodyB || !local.id))))
        throw Error(where, "the contact arrays of " + std::to_string(n) + " contacts",
                    "a null array");
      hasMu = n == 0 || local.mu;
      hasVelocity = n == 0 || local.contactVelocity;
      hasKey = n == 0 || local.key;
      out.ids.reserve(2 * n);
      out.values.reserve(kContactValues * n);
      for (std::size_t c = 0; c < n; ++c) {
        std::int64_t a = 0, b = 0;
        if (local.key) {
          a = static_cast<std::int64_t>((local.key[c] >> 43) & kBodyMask);
          b = static_cast<std::int64_t>((local.key[c] >> 22) & kBodyMask);
        } else {
          const std::int32_t ia = local.bodyA[c], ib = local.bodyB[c];
          if (ia < 0 || ib < 0 || static_cast<std::size_t>(ia) >= local.bodyCount ||
              static_cast<std::size_t>(ib) >= local.bodyCount)
            throw Error(where + ": contact " + std::to_string(c),
                        "body indices below " + std::to_string(local.bodyCount),
                        std::to_string(ia) + " and " + std::to_string(ib));
          a = local.id[ia];
          b = local.id[ib];
        }
        out.ids.push_back(a);
        out.ids.push_back(b);
        out.key.push_back(local.key ? local.key[c] : 0);
        out.active.push_back(local.active[c] ? 1 : 0);
        const auto put = [&](const double* p, std::size_t per) {
          for (std::size_t i = 0; i < per; ++i) out.values.push_back(p ? p[per * c + i] : 0.0);
        };
        put(local.frame, 9);
        put(local.pointA, 3);
        put(local.pointB, 3);
        put(local.gap, 1);
        put(local.impulse, 3);
        put(local.contactVelocity, 3);
        put(local.mu, 1);
      }
    } catch (const std::exception& e) {
      fault = e.what();
    }
  }
  agree(fault);

  // 2. the counts and flags of every rank, then the arrays to rank 0
  constexpr std::size_t kFields = 5;
  long long mine[kFields] = {static_cast<long long>(ids.size()),
                             static_cast<long long>(out.active.size()), hasMu ? 1 : 0,
                             hasVelocity ? 1 : 0, hasKey ? 1 : 0};
  std::vector<long long> counts(kFields * static_cast<std::size_t>(size_));
  MPI_Allgather(mine, static_cast<int>(kFields), MPI_LONG_LONG, counts.data(),
                static_cast<int>(kFields), MPI_LONG_LONG, comm_);
  bool allMu = true, allVelocity = true, allKeys = true;
  for (std::size_t p = 0; p < static_cast<std::size_t>(size_); ++p) {
    allMu = allMu && counts[kFields * p + 2] != 0;
    allVelocity = allVelocity && counts[kFields * p + 3] != 0;
    allKeys = allKeys && counts[kFields * p + 4] != 0;
  }
  // (the same counts on every rank: a frame too large throws the same error everywhere)
  const std::vector<int> bodyCounts = scaled(counts, 0, kFields, 1, "body ids");
  const std::vector<int> stateCounts = scaled(counts, 0, kFields, kBodyValues, "body states");
  const std::vector<int> contactCounts = scaled(counts, 1, kFields, 1, "contacts");
  const std::vector<int> pairCounts = scaled(counts, 1, kFields, 2, "contact bodies");
  const std::vector<int> valueCounts = scaled(counts, 1, kFields, kContactValues, "contact values");
  const std::vector<std::int64_t> allIds = gatherv(ids, bodyCounts, comm_, rank_);
  const std::vector<std::uint8_t> allStatics = gatherv(statics, bodyCounts, comm_, rank_);
  const std::vector<double> allState = gatherv(state, stateCounts, comm_, rank_);
  const std::vector<std::int64_t> allPairs = gatherv(out.ids, pairCounts, comm_, rank_);
  const std::vector<std::uint64_t> allKeysIn = gatherv(out.key, contactCounts, comm_, rank_);
  const std::vector<std::uint8_t> allActive = gatherv(out.active, contactCounts, comm_, rank_);
  const std::vector<double> allValues = gatherv(out.values, valueCounts, comm_, rank_);

  // 3. rank 0: the frame of the whole scene
  fault.clear();
  if (rank_ == 0) {
    try {
      const std::string where = "MpiSceneParts::gather";
      io::SceneFrameArrays f;
      // bodies sorted by id (stable: rank order among copies), each id once
      std::vector<std::size_t> order(allIds.size());
      std::iota(order.begin(), order.end(), std::size_t(0));
      std::stable_sort(order.begin(), order.end(),
                       [&](std::size_t x, std::size_t y) { return allIds[x] < allIds[y]; });
      std::vector<std::size_t> kept;
      kept.reserve(order.size());
      for (std::size_t i : order) {
        if (!kept.empty() && allIds[kept.back()] == allIds[i]) {
          const std::size_t j = kept.back();
          if (allStatics[i] != allStatics[j] ||
              std::memcmp(&allState[kBodyValues * i], &allState[kBodyValues * j],
                          kBodyValues * sizeof(double)) != 0)
            throw Error(where, "each body owned by one rank",
                        "body id " + std::to_string(allIds[i]) +
                            " sent by two ranks with different states");
          continue;  // the same body, the same state (the whole scene on every rank)
        }
        kept.push_back(i);
      }
      // shapes by global id: the exchange's whole scene (after its initialize), otherwise this
      // rank's own view (it then holds the whole scene)
      const BodyStore& whole = exchange_.wholeScene();
      std::vector<std::pair<std::int64_t, std::size_t>> localById;
      for (std::size_t b = 0; b < local.bodyCount && local.id && local.shapes; ++b)
        localById.emplace_back(local.id[b], b);
      std::sort(localById.begin(), localById.end());
      const std::size_t n = kept.size();
      f.isStatic.resize(n);
      f.id.resize(n);
      f.q.resize(7 * n);
      f.velocity.resize(6 * n);
      f.shapeStart.assign(1, 0);
      for (std::size_t k = 0; k < n; ++k) {
        const std::size_t i = kept[k];
        const std::int64_t id = allIds[i];
        f.id[k] = id;
        f.isStatic[k] = allStatics[i];
        std::copy(&allState[kBodyValues * i], &allState[kBodyValues * i] + 7, &f.q[7 * k]);
        std::copy(&allState[kBodyValues * i + 7], &allState[kBodyValues * i + 13],
                  &f.velocity[6 * k]);
        const std::size_t g = static_cast<std::size_t>(id);
        if (id >= 0 && g < whole.size() && whole.id[g] == id) {
          f.shapes.insert(f.shapes.end(), whole.shapes.begin() + whole.shapeStart[g],
                          whole.shapes.begin() + whole.shapeStart[g + 1]);
          if (f.mass.size() == k && whole.mass.size() == whole.size() &&
              whole.inertia.size() == 9 * whole.size()) {  // mass properties, while all known
            f.mass.push_back(whole.mass[g]);
            f.inertia.insert(f.inertia.end(), &whole.inertia[9 * g], &whole.inertia[9 * g + 9]);
          }
        } else {
          const auto it = std::lower_bound(localById.begin(), localById.end(),
                                           std::make_pair(id, std::size_t(0)));
          if (it == localById.end() || it->first != id)
            throw Error(where, "the shapes of every body gathered",
                        "body id " + std::to_string(id) + " in no scene rank 0 holds");
          f.shapes.insert(f.shapes.end(), local.shapes + local.shapeStart[it->second],
                          local.shapes + local.shapeStart[it->second + 1]);
          if (f.mass.size() == k && local.mass && local.inertia) {
            f.mass.push_back(local.mass[it->second]);
            f.inertia.insert(f.inertia.end(), local.inertia + 9 * it->second,
                             local.inertia + 9 * it->second + 9);
          }
        }
        f.shapeStart.push_back(static_cast<std::uint32_t>(f.shapes.size()));
      }
      const auto indexOf = [&](std::int64_t id) -> std::int32_t {
        const auto it = std::lower_bound(f.id.begin(), f.id.end(), id);
        if (it == f.id.end() || *it != id)
          throw Error(where, "contacts between bodies gathered",
                      "a contact on body id " + std::to_string(id) + ", owned by no rank");
        return static_cast<std::int32_t>(it - f.id.begin());
      };
      // contacts sorted by (idA, idB, shapes and features), then rank and local order
      const std::size_t m = allActive.size();
      std::vector<std::size_t> cs(m);
      std::iota(cs.begin(), cs.end(), std::size_t(0));
      std::stable_sort(cs.begin(), cs.end(), [&](std::size_t x, std::size_t y) {
        return std::make_tuple(allPairs[2 * x], allPairs[2 * x + 1], allKeysIn[x] & kSubMask) <
               std::make_tuple(allPairs[2 * y], allPairs[2 * y + 1], allKeysIn[y] & kSubMask);
      });
      f.active.resize(m);
      f.bodyA.resize(m);
      f.bodyB.resize(m);
      f.frame.resize(9 * m);
      f.pointA.resize(3 * m);
      f.pointB.resize(3 * m);
      f.gap.resize(m);
      f.impulse.resize(3 * m);
      if (allKeys) f.key.resize(m);
      if (allVelocity) f.contactVelocity.resize(3 * m);
      if (allMu) f.mu.resize(m);
      for (std::size_t k = 0; k < m; ++k) {
        const std::size_t c = cs[k];
        f.active[k] = allActive[c];
        f.bodyA[k] = indexOf(allPairs[2 * c]);
        f.bodyB[k] = indexOf(allPairs[2 * c + 1]);
        if (allKeys) f.key[k] = allKeysIn[c];
        const double* v = &allValues[kContactValues * c];
        std::copy(v, v + 9, &f.frame[9 * k]);
        std::copy(v + 9, v + 12, &f.pointA[3 * k]);
        std::copy(v + 12, v + 15, &f.pointB[3 * k]);
        f.gap[k] = v[15];
        std::copy(v + 16, v + 19, &f.impulse[3 * k]);
        if (allVelocity) std::copy(v + 19, v + 22, &f.contactVelocity[3 * k]);
        if (allMu) f.mu[k] = v[22];
      }
      frame_ = std::move(f);
      frameView_ = frame_.view();
    } catch (const std::exception& e) {
      fault = e.what();
    }
  }
  agree(fault);
  return rank_ == 0 ? &frameView_ : nullptr;
}

}  // namespace parallel
}  // namespace nsdyn
