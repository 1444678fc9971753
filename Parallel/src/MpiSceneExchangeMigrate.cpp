// MpiSceneExchange, after each step: owned bodies to the owners of their new centres
// (Decomposition::migrate), the store refilled, and each contact memory entry to the new
// owner of its keeper body (nsdyn/parallel/MpiSceneExchange.hpp).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <numeric>
#include <string>

#include "nsdyn/Error.hpp"
#include "nsdyn/parallel/BodyArrays.hpp"
#include "nsdyn/parallel/Collective.hpp"
#include "nsdyn/parallel/MpiSceneExchange.hpp"

namespace nsdyn {
namespace parallel {

namespace {

constexpr int kState = 13;

// One memory entry on the wire (MPI_BYTE, 40 bytes, no padding).
struct MemoryRecord {
  std::uint64_t key;
  double normal;
  double tangential[3];
};

}  // namespace

void MpiSceneExchange::afterStep(BodyStore& bodies, ContactMemory& memory) {
  if (size_ == 1) return;
  const auto start = std::chrono::steady_clock::now();
  ++steps_;
  // 0. migrate when a body has moved by half the skin since the last migration (then two
  //    bodies have closed in by at most the skin, which the halo covers), or to repartition
  const bool rebalance = options_.rebalanceEvery > 0 && steps_ % options_.rebalanceEvery == 0;
  double moved = 0.0;
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    if (kind_[b] != 1) continue;
    double d2 = 0.0;
    for (std::size_t i = 0; i < 3; ++i) {
      const double d = bodies.q[7 * b + i] - anchor_[3 * b + i];
      d2 += d * d;
    }
    moved = std::max(moved, d2);
  }
  moved = std::sqrt(moved);
  if (!(moved <= 0.5 * skin_)) moved = INFINITY;  // NaN too: the decomposition's checks report it
  MPI_Allreduce(MPI_IN_PLACE, &moved, 1, MPI_DOUBLE, MPI_MAX, comm_);
  if (!rebalance && skin_ > 0.0 && moved <= 0.5 * skin_) {
    // the same owners and ghosts: the owners' new states to the ghost copies
    work_.resize(kState * bodies.size());
    for (std::size_t b = 0; b < bodies.size(); ++b) {
      if (kind_[b] != 1) continue;
      std::memcpy(&work_[kState * b], &bodies.q[7 * b], 7 * sizeof(double));
      std::memcpy(&work_[kState * b + 7], &bodies.v[6 * b], 6 * sizeof(double));
    }
    forward(plan_, kState, work_.data());
    for (std::size_t b = 0; b < bodies.size(); ++b) {
      if (kind_[b] != 2) continue;
      std::memcpy(&bodies.q[7 * b], &work_[kState * b], 7 * sizeof(double));
      std::memcpy(&bodies.v[6 * b], &work_[kState * b + 7], 6 * sizeof(double));
    }
    stats_.migrated = 0;
    stats_.memoryMoved = 0;
    stats_.afterStepSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return;
  }
  // 1. the owned bodies, moved, to their owners (repartition every N steps or on imbalance)
  BodyArrays owned;
  owned.width = kState;
  owned.reserve(stats_.owned);
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    if (kind_[b] != 1) continue;
    double state[kState];
    std::memcpy(state, &bodies.q[7 * b], 7 * sizeof(double));
    std::memcpy(state + 7, &bodies.v[6 * b], 6 * sizeof(double));
    owned.push_back(bodies.id[b], state[0], state[1], state[2],
                    whole_.boundingRadius(static_cast<std::size_t>(bodies.id[b])), state);
  }
  decomposition_->migrate(std::move(owned), rebalance);
  stats_.migrated = decomposition_->statistics().migrated;
  ++stats_.migrations;
  // 2. the memory to the new owners of the keepers, 3. the store and its plan
  routeMemory(memory);
  refill(bodies, *decomposition_);
  buildPlan(bodies);
  stats_.afterStepSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void MpiSceneExchange::routeMemory(ContactMemory& memory) {
  // entries whose keeper this rank still owns stay; the others go to the keeper's new owner,
  // found by asking every rank (the departed keepers are few: one MPI_Allgather of counts,
  // and when there are any, one MPI_Allgatherv of ids and one MPI_Allreduce of owners)
  const std::vector<std::int64_t>& mine = decomposition_->owned().id;
  const std::size_t n = memory.size();
  std::vector<std::int64_t> keeper(n);
  std::vector<std::int64_t> departed;
  std::string fault;
  for (std::size_t i = 0; i < n; ++i) {
    keeper[i] = keeperOf(memory.key[i]);
    if (keeper[i] < 0) {
      if (fault.empty())
        fault = "MpiSceneExchange: contact memory key " + std::to_string(memory.key[i]) +
                " names no dynamic body of the scene";
      continue;
    }
    if (!std::binary_search(mine.begin(), mine.end(), keeper[i])) departed.push_back(keeper[i]);
  }
  throwIfAnyFault(comm_, fault);
  std::sort(departed.begin(), departed.end());
  departed.erase(std::unique(departed.begin(), departed.end()), departed.end());
  int count = static_cast<int>(departed.size());
  std::vector<int> counts(static_cast<std::size_t>(size_)),
      offsets(static_cast<std::size_t>(size_));
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm_);
  int total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    offsets[r] = total;
    total += counts[r];
  }
  stats_.memoryMoved = 0;
  if (total == 0) return;  // every rank sees the same total: all return here, or none

  std::vector<long long> ids(static_cast<std::size_t>(total));
  std::vector<long long> myIds(departed.begin(), departed.end());
  MPI_Allgatherv(myIds.data(), count, MPI_LONG_LONG, ids.data(), counts.data(), offsets.data(),
                 MPI_LONG_LONG, comm_);
  std::vector<int> owner(static_cast<std::size_t>(total), -1);
  for (std::size_t k = 0; k < owner.size(); ++k)
    if (std::binary_search(mine.begin(), mine.end(), static_cast<std::int64_t>(ids[k])))
      owner[k] = rank_;
  MPI_Allreduce(MPI_IN_PLACE, owner.data(), total, MPI_INT, MPI_MAX, comm_);
  for (std::size_t k = 0; k < owner.size(); ++k)
    if (owner[k] < 0)  // the same arrays on every rank: all throw
      throw Error("MpiSceneExchange: body " + std::to_string(ids[k]) +
                  " has no owner after migration");

  // the entries to send, by destination rank (in key order within each)
  const std::size_t p = static_cast<std::size_t>(size_);
  std::vector<std::vector<std::size_t>> to(p);
  ContactMemory kept;
  for (std::size_t i = 0; i < n; ++i) {
    const auto it = std::lower_bound(departed.begin(), departed.end(), keeper[i]);
    if (it == departed.end() || *it != keeper[i]) {
      kept.key.push_back(memory.key[i]);
      kept.normal.push_back(memory.normal[i]);
      kept.tangential.insert(kept.tangential.end(), &memory.tangential[3 * i],
                             &memory.tangential[3 * i] + 3);
      continue;
    }
    const std::size_t k = static_cast<std::size_t>(offsets[static_cast<std::size_t>(rank_)]) +
                          static_cast<std::size_t>(it - departed.begin());
    to[static_cast<std::size_t>(owner[k])].push_back(i);
  }
  std::vector<int> sendBytes(p), recvBytes(p), sendOffset(p), recvOffset(p);
  std::vector<unsigned char> out;
  for (std::size_t r = 0; r < p; ++r) {
    sendOffset[r] = static_cast<int>(out.size());
    for (std::size_t i : to[r]) {
      MemoryRecord m{
          memory.key[i],
          memory.normal[i],
          {memory.tangential[3 * i], memory.tangential[3 * i + 1], memory.tangential[3 * i + 2]}};
      const auto* bytes = reinterpret_cast<const unsigned char*>(&m);
      out.insert(out.end(), bytes, bytes + sizeof m);
    }
    sendBytes[r] = static_cast<int>(out.size()) - sendOffset[r];
    stats_.memoryMoved += to[r].size();
  }
  MPI_Alltoall(sendBytes.data(), 1, MPI_INT, recvBytes.data(), 1, MPI_INT, comm_);
  int received = 0;
  for (std::size_t r = 0; r < p; ++r) {
    recvOffset[r] = received;
    received += recvBytes[r];
  }
  std::vector<unsigned char> in(static_cast<std::size_t>(received));
  MPI_Alltoallv(out.data(), sendBytes.data(), sendOffset.data(), MPI_BYTE, in.data(),
                recvBytes.data(), recvOffset.data(), MPI_BYTE, comm_);
  for (std::size_t at = 0; at + sizeof(MemoryRecord) <= in.size(); at += sizeof(MemoryRecord)) {
    MemoryRecord m;
    std::memcpy(&m, in.data() + at, sizeof m);
    kept.key.push_back(m.key);
    kept.normal.push_back(m.normal);
    kept.tangential.insert(kept.tangential.end(), m.tangential, m.tangential + 3);
  }
  // sorted by key (keys are unique over the ranks: each contact has one owner)
  std::vector<std::size_t> order(kept.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return kept.key[a] < kept.key[b]; });
  memory.key.resize(order.size());
  memory.normal.resize(order.size());
  memory.tangential.resize(3 * order.size());
  for (std::size_t j = 0; j < order.size(); ++j) {
    const std::size_t i = order[j];
    memory.key[j] = kept.key[i];
    memory.normal[j] = kept.normal[i];
    std::memcpy(&memory.tangential[3 * j], &kept.tangential[3 * i], 3 * sizeof(double));
  }
}

}  // namespace parallel
}  // namespace nsdyn
