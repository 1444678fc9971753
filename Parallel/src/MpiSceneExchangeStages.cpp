// MpiSceneExchange: NSGS in stages over the ranks. The bodies touched by the contacts of
// several ranks (shared), the colouring of the ranks that touch common shared bodies, the
// stage of each contact and the exchange of the shared bodies' velocities between stages
// (nsdyn/parallel/MpiSceneExchange.hpp, doc/parallel.md "NSGS over ranks").
#include <algorithm>
#include <cstring>
#include <string>

#include "nsdyn/Error.hpp"
#include "nsdyn/parallel/MpiSceneExchange.hpp"

namespace nsdyn {
namespace parallel {

namespace {
constexpr std::size_t kDof = 6;
}  // namespace

void MpiSceneExchange::findShared(const BodyStore& /*bodies*/, const SceneContacts& contacts,
                                  std::vector<std::pair<std::uint32_t, int>> touchedBy) {
  // touching_ holds, on the owner and on every copy this rank's contacts touch, the number
  // of ranks whose contacts touch the body
  const std::size_t n = mine_.size();
  shared_.assign(n, 0);
  sharedActive_.clear();
  for (std::uint32_t b : active_)
    if (touching_[b] > 1.0) {
      shared_[b] = 1;
      sharedActive_.push_back(b);
    }
  sharedPlan_.clear();
  for (const Neighbour& t : touched_) {
    Neighbour s;
    s.rank = t.rank;
    for (std::uint32_t b : t.ghosts)
      if (shared_[b]) s.ghosts.push_back(b);
    for (std::uint32_t b : t.owned)
      if (shared_[b]) s.owned.push_back(b);
    if (!s.ghosts.empty() || !s.owned.empty()) sharedPlan_.push_back(std::move(s));
  }
  stats_.boundaryContacts = 0;
  for (std::size_t c = 0; c < contacts.size(); ++c) {
    if (!contacts.active[c]) continue;
    const std::int32_t a = contacts.bodyA[c], b = contacts.bodyB[c];
    if ((a >= 0 && shared_[static_cast<std::size_t>(a)]) ||
        (b >= 0 && shared_[static_cast<std::size_t>(b)]))
      ++stats_.boundaryContacts;
  }
  // the neighbour pairs this rank sees: the ranks touching each owned shared body
  std::sort(touchedBy.begin(), touchedBy.end());
  std::vector<int> edges, ranks;  // edges: (lower, higher) rank pairs, flattened
  for (std::size_t i = 0; i < touchedBy.size();) {
    const std::uint32_t b = touchedBy[i].first;
    ranks.clear();
    if (mine_[b]) ranks.push_back(rank_);
    for (; i < touchedBy.size() && touchedBy[i].first == b; ++i)
      ranks.push_back(touchedBy[i].second);
    if (!shared_[b]) continue;
    std::sort(ranks.begin(), ranks.end());
    for (std::size_t x = 0; x < ranks.size(); ++x)
      for (std::size_t y = x + 1; y < ranks.size(); ++y) {
        edges.push_back(ranks[x]);
        edges.push_back(ranks[y]);
      }
  }
  colourRanks(edges);
}

void MpiSceneExchange::colourRanks(const std::vector<int>& edges) {
  // this rank's pairs, without repeats, gathered on every rank
  std::vector<std::pair<int, int>> pairs;
  for (std::size_t i = 0; i + 1 < edges.size(); i += 2) pairs.emplace_back(edges[i], edges[i + 1]);
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  std::vector<int> mine;
  for (const auto& e : pairs) {
    mine.push_back(e.first);
    mine.push_back(e.second);
  }
  const std::size_t p = static_cast<std::size_t>(size_);
  std::vector<int> counts(p), offsets(p);
  int count = static_cast<int>(mine.size());
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm_);
  int total = 0;
  for (std::size_t r = 0; r < p; ++r) {
    offsets[r] = total;
    total += counts[r];
  }
  std::vector<int> all(static_cast<std::size_t>(total));
  MPI_Allgatherv(mine.data(), count, MPI_INT, all.data(), counts.data(), offsets.data(), MPI_INT,
                 comm_);
  // the neighbour lists, then a greedy colouring in rank order: each rank takes the least
  // colour none of its lower-ranked neighbours has (the same on every rank)
  std::vector<std::vector<int>> lower(p);
  for (std::size_t i = 0; i + 1 < all.size(); i += 2) {
    const int a = all[i], b = all[i + 1];
    lower[static_cast<std::size_t>(std::max(a, b))].push_back(std::min(a, b));
  }
  std::vector<int> colour(p, 0);
  std::vector<char> used;
  int colours = 1;
  for (std::size_t r = 0; r < p; ++r) {
    used.assign(p + 1, 0);
    for (int q : lower[r]) used[static_cast<std::size_t>(colour[static_cast<std::size_t>(q)])] = 1;
    int c = 0;
    while (used[static_cast<std::size_t>(c)]) ++c;
    colour[r] = c;
    colours = std::max(colours, c + 1);
  }
  colours_ = colours;
  colour_ = colour[static_cast<std::size_t>(rank_)];
  stats_.colours = colours_;
  stats_.colour = colour_;
}

void MpiSceneExchange::contactStages(const BodyStore& /*bodies*/, const SceneContacts& contacts,
                                     const std::int32_t* entries, std::size_t count,
                                     std::int32_t* stage) const {
  // interior contacts (no shared body) in stage 0, boundary ones in the rank's colour's
  for (std::size_t a = 0; a < count; ++a) {
    const std::size_t c = static_cast<std::size_t>(entries[a]);
    const std::int32_t x = contacts.bodyA[c], y = contacts.bodyB[c];
    const bool boundary = (x >= 0 && shared_[static_cast<std::size_t>(x)]) ||
                          (y >= 0 && shared_[static_cast<std::size_t>(y)]);
    stage[a] = boundary ? colour_ : 0;
  }
}

void MpiSceneExchange::afterStage(const BodyStore& bodies, double* v, int /*stage*/) {
  if (size_ == 1) return;
  // the shared bodies' changes since the last exchange (one rank made each: ranks of one
  // colour share no body) added on the owners, the new velocities sent to every copy
  work_.resize(kDof * bodies.size());
  for (std::uint32_t b : sharedActive_)
    for (std::size_t k = 0; k < kDof; ++k)
      work_[kDof * b + k] = mine_[b] ? v[kDof * b + k] - base_[kDof * b + k] : 0.0;
  reverseSum(sharedPlan_, static_cast<int>(kDof), work_.data());
  for (std::uint32_t b : sharedActive_)
    if (kind_[b] == 1)
      for (std::size_t k = 0; k < kDof; ++k)
        v[kDof * b + k] = base_[kDof * b + k] + work_[kDof * b + k];
  forward(sharedPlan_, static_cast<int>(kDof), v);
  for (std::uint32_t b : sharedActive_)
    std::memcpy(&base_[kDof * b], v + kDof * b, kDof * sizeof(double));
}

}  // namespace parallel
}  // namespace nsdyn
