// MpiSceneExchange: the halo plan (which ghosts each neighbour owns, which owned bodies it
// copies), the neighbour exchanges, and the solver hooks: the bodies shared by several
// ranks, NSGS velocity changes summed on the owners, APGD halo sums of J^T x
// (nsdyn/parallel/MpiSceneExchange.hpp).
#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>

#include "nsdyn/Error.hpp"
#include "nsdyn/parallel/Collective.hpp"
#include "nsdyn/parallel/MpiSceneExchange.hpp"

namespace nsdyn {
namespace parallel {

namespace {
constexpr int kTag = 2207;
constexpr std::size_t kDof = 6;
}  // namespace

void MpiSceneExchange::buildPlan(const BodyStore& bodies) {
  // each rank tells the owners of its ghosts which of their bodies it holds (ids in store
  // order, i.e. id order): one MPI_Alltoall of counts, one MPI_Alltoallv of ids
  const std::size_t p = static_cast<std::size_t>(size_);
  std::vector<std::vector<std::uint32_t>> ghostsOf(p);
  for (std::size_t b = 0; b < bodies.size(); ++b)
    if (kind_[b] == 2)
      ghostsOf[static_cast<std::size_t>(ghostOwner_[b])].push_back(static_cast<std::uint32_t>(b));
  std::vector<int> sendCount(p), recvCount(p), sendOffset(p), recvOffset(p);
  std::vector<long long> ids;
  for (std::size_t r = 0; r < p; ++r) {
    sendOffset[r] = static_cast<int>(ids.size());
    sendCount[r] = static_cast<int>(ghostsOf[r].size());
    for (std::uint32_t b : ghostsOf[r]) ids.push_back(static_cast<long long>(bodies.id[b]));
  }
  MPI_Alltoall(sendCount.data(), 1, MPI_INT, recvCount.data(), 1, MPI_INT, comm_);
  int total = 0;
  for (std::size_t r = 0; r < p; ++r) {
    recvOffset[r] = total;
    total += recvCount[r];
  }
  std::vector<long long> asked(static_cast<std::size_t>(total));
  MPI_Alltoallv(ids.data(), sendCount.data(), sendOffset.data(), MPI_LONG_LONG, asked.data(),
                recvCount.data(), recvOffset.data(), MPI_LONG_LONG, comm_);
  plan_.clear();
  std::string fault;
  for (std::size_t r = 0; r < p; ++r) {
    if (ghostsOf[r].empty() && recvCount[r] == 0) continue;
    Neighbour nb;
    nb.rank = static_cast<int>(r);
    nb.ghosts = std::move(ghostsOf[r]);
    for (int k = 0; k < recvCount[r]; ++k) {
      const std::int64_t id = asked[static_cast<std::size_t>(recvOffset[r] + k)];
      const auto it = std::lower_bound(bodies.id.begin(), bodies.id.end(), id);
      const std::size_t b = static_cast<std::size_t>(it - bodies.id.begin());
      if (it == bodies.id.end() || *it != id || kind_[b] != 1) {
        fault = "MpiSceneExchange: rank " + std::to_string(r) + " holds body " +
                std::to_string(id) + " as a ghost of rank " + std::to_string(rank_) +
                ", which does not own it";
        break;
      }
      nb.owned.push_back(static_cast<std::uint32_t>(b));
    }
    plan_.push_back(std::move(nb));
  }
  throwIfAnyFault(comm_, fault);
  stats_.neighbours = plan_.size();
  touched_.clear();
  sharedPlan_.clear();
  colours_ = 1;
  colour_ = 0;
}

void MpiSceneExchange::transfer(const std::vector<Neighbour>& plan, int width, const double* values,
                                bool reverse) {
  // reverse: ghosts' values to their owners; forward: owners' values to the ghost copies.
  // Both sides of a pair list the same bodies in the same (id) order, so a message is
  // skipped on both sides when empty. Received values lie in recvBuffer_, neighbour by
  // neighbour in plan order (ascending rank).
  const auto start = std::chrono::steady_clock::now();
  const std::size_t w = static_cast<std::size_t>(width);
  std::size_t sendTotal = 0, recvTotal = 0;
  for (const Neighbour& nb : plan) {
    sendTotal += (reverse ? nb.ghosts : nb.owned).size();
    recvTotal += (reverse ? nb.owned : nb.ghosts).size();
  }
  sendBuffer_.resize(sendTotal * w);
  recvBuffer_.resize(recvTotal * w);
  requests_.clear();
  requests_.reserve(2 * plan.size());
  std::size_t at = 0;
  for (const Neighbour& nb : plan) {
    const std::vector<std::uint32_t>& to = reverse ? nb.owned : nb.ghosts;
    if (to.empty()) continue;
    requests_.emplace_back();
    MPI_Irecv(recvBuffer_.data() + at, static_cast<int>(to.size() * w), MPI_DOUBLE, nb.rank, kTag,
              comm_, &requests_.back());
    at += to.size() * w;
  }
  at = 0;
  for (const Neighbour& nb : plan) {
    const std::vector<std::uint32_t>& from = reverse ? nb.ghosts : nb.owned;
    if (from.empty()) continue;
    double* out = sendBuffer_.data() + at;
    for (std::size_t i = 0; i < from.size(); ++i)
      std::memcpy(out + i * w, values + from[i] * w, w * sizeof(double));
    requests_.emplace_back();
    MPI_Isend(out, static_cast<int>(from.size() * w), MPI_DOUBLE, nb.rank, kTag, comm_,
              &requests_.back());
    at += from.size() * w;
  }
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  stats_.bytesSent += at * sizeof(double);
  stats_.haloSeconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void MpiSceneExchange::reverseSum(const std::vector<Neighbour>& plan, int width, double* values) {
  // the owner's own value first, then each sender's in rank order
  transfer(plan, width, values, true);
  const std::size_t w = static_cast<std::size_t>(width);
  std::size_t at = 0;
  for (const Neighbour& nb : plan)
    for (std::uint32_t b : nb.owned) {
      for (std::size_t k = 0; k < w; ++k) values[b * w + k] += recvBuffer_[at + k];
      at += w;
    }
}

void MpiSceneExchange::forward(const std::vector<Neighbour>& plan, int width, double* values) {
  transfer(plan, width, values, false);
  const std::size_t w = static_cast<std::size_t>(width);
  std::size_t at = 0;
  for (const Neighbour& nb : plan)
    for (std::uint32_t b : nb.ghosts) {
      std::memcpy(values + b * w, recvBuffer_.data() + at, w * sizeof(double));
      at += w;
    }
}

void MpiSceneExchange::beforeSolve(const BodyStore& bodies, const SceneContacts& contacts) {
  if (size_ == 1) return;
  stats_.bytesSent = 0;
  stats_.haloSeconds = 0.0;
  const std::size_t n = bodies.size();
  // 1. the contacts of this rank on each body
  std::vector<double> count(n, 0.0);
  for (const std::vector<std::int32_t>* side : {&contacts.bodyA, &contacts.bodyB})
    for (std::size_t c = 0; c < contacts.size(); ++c) {
      const std::int32_t b = (*side)[c];
      if (contacts.active[c] && b >= 0 && !bodies.isStatic[static_cast<std::size_t>(b)])
        count[static_cast<std::size_t>(b)] += 1.0;
    }
  mine_.assign(n, 0);
  for (std::size_t b = 0; b < n; ++b) mine_[b] = count[b] > 0.0 ? 1 : 0;
  // 2. the ghosts' counts to their owners: who touches what (the solve's reduced plan), and
  //    on each owned body the number of ranks whose contacts touch it
  transfer(plan_, 1, count.data(), true);
  touching_.assign(n, 0.0);
  touched_.clear();
  std::vector<std::pair<std::uint32_t, int>> touchedBy;  // (owned body, other touching rank)
  std::size_t at = 0;
  for (std::size_t b = 0; b < n; ++b) touching_[b] = mine_[b];
  for (const Neighbour& nb : plan_) {
    Neighbour t;
    t.rank = nb.rank;
    for (std::uint32_t b : nb.ghosts)
      if (mine_[b]) t.ghosts.push_back(b);
    for (std::uint32_t b : nb.owned) {
      const double c = recvBuffer_[at++];
      if (c > 0.0) {
        t.owned.push_back(b);
        touching_[b] += 1.0;
        touchedBy.emplace_back(b, nb.rank);
      }
    }
    if (!t.ghosts.empty() || !t.owned.empty()) touched_.push_back(std::move(t));
  }
  // 3. the counts to the ghost copies this rank touches: shared bodies (>= 2 ranks) known on
  //    every rank that touches them; the colours of the ranks (MpiSceneExchangeStages.cpp)
  forward(touched_, 1, touching_.data());
  active_.clear();
  stats_.sharedBodies = 0;
  stats_.splitBodies = 0;
  for (std::size_t b = 0; b < n; ++b) {
    const bool owned = kind_[b] == 1;
    if (!(mine_[b] || (owned && touching_[b] > 0.0))) continue;
    active_.push_back(static_cast<std::uint32_t>(b));
    if (owned && touching_[b] > (mine_[b] ? 1.0 : 0.0)) ++stats_.sharedBodies;
    if (owned && touching_[b] > 1.0) ++stats_.splitBodies;
  }
  findShared(bodies, contacts, std::move(touchedBy));
}

void MpiSceneExchange::solveStart(const BodyStore& bodies, const double* v) {
  if (size_ == 1) return;
  base_.assign(v, v + kDof * bodies.size());
}

void MpiSceneExchange::afterSweep(const BodyStore& bodies, double* v) {
  if (size_ == 1) return;
  // this rank's change since the last exchange on the bodies it touches; 0 on owned bodies
  // only others touch
  work_.resize(kDof * bodies.size());
  for (std::uint32_t b : active_)
    for (std::size_t k = 0; k < kDof; ++k)
      work_[kDof * b + k] = mine_[b] ? v[kDof * b + k] - base_[kDof * b + k] : 0.0;
  // the changes summed on the owners (own first, senders in rank order): the new velocity
  reverseSum(touched_, static_cast<int>(kDof), work_.data());
  for (std::uint32_t b : active_) {
    if (kind_[b] != 1) continue;
    if (mine_[b] && touching_[b] == 1.0) continue;  // only this rank's contacts: as it is
    for (std::size_t k = 0; k < kDof; ++k)
      v[kDof * b + k] = base_[kDof * b + k] + work_[kDof * b + k];
  }
  // back to the ranks that touch the body; the next sweep's changes from here
  forward(touched_, static_cast<int>(kDof), v);
  for (std::uint32_t b : active_)
    std::memcpy(&base_[kDof * b], v + kDof * b, kDof * sizeof(double));
}

void MpiSceneExchange::afterTranspose(const BodyStore& /*bodies*/, double* v) {
  if (size_ == 1) return;
  // J^T x: the partial sums of the ghost copies added on the owners, the totals sent back
  reverseSum(touched_, static_cast<int>(kDof), v);
  forward(touched_, static_cast<int>(kDof), v);
}

}  // namespace parallel
}  // namespace nsdyn
