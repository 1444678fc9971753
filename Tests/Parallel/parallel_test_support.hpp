// Helpers shared by the MPI tests: a rank's slice of an id range, a byte hash, gathers on
// rank 0, and the scene engine's dynamic bodies and deepest overlap.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <vector>

#include <mpi.h>

#include "nsdyn/BodyStore.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/parallel/BodyArrays.hpp"

namespace nsdyn::test::parallel {

/// Rank @p rank of @p size's share of @p all, by position in the arrays (the initial
/// split is by id, not by space, so the first partition really moves bodies).
inline nsdyn::parallel::BodyArrays slice(const nsdyn::parallel::BodyArrays& all, int rank,
                                         int size) {
  nsdyn::parallel::BodyArrays mine;
  const std::size_t lo =
      all.size() * static_cast<std::size_t>(rank) / static_cast<std::size_t>(size);
  const std::size_t hi =
      all.size() * static_cast<std::size_t>(rank + 1) / static_cast<std::size_t>(size);
  for (std::size_t k = lo; k < hi; ++k) mine.append(all, k);
  return mine;
}

/// FNV-1a over @p bytes bytes, continuing from @p h.
inline std::uint64_t fnv(std::uint64_t h, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

/// The values of every rank of @p comm, concatenated in rank order on rank 0 (empty
/// elsewhere); T a plain struct sent as bytes.
template <class T>
std::vector<T> gatherToRoot(const std::vector<T>& mine, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int bytes = static_cast<int>(mine.size() * sizeof(T));
  std::vector<int> counts(static_cast<std::size_t>(size)), offsets(static_cast<std::size_t>(size));
  MPI_Gather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  int total = 0;
  for (int p = 0; p < size; ++p) {
    offsets[static_cast<std::size_t>(p)] = total;
    total += counts[static_cast<std::size_t>(p)];
  }
  std::vector<T> all(rank == 0 ? static_cast<std::size_t>(total) / sizeof(T) : 0);
  MPI_Gatherv(mine.data(), bytes, MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE, 0,
              comm);
  return all;
}

/// The owned dynamic bodies' positions and orientations (7 per body) of every rank on rank 0,
/// at 7 (id - 1) (ids from 1, the static floor id 0: a scene of one static body first); their
/// number in @p count (rank 0).
inline std::vector<double> gatherPositions(const nsdyn::BodyStore& store, std::size_t& count,
                                           MPI_Comm comm) {
  std::vector<long long> mine;
  std::vector<double> q;
  for (std::size_t b = 0; b < store.size(); ++b) {
    if (store.isStatic[b] || store.ghost[b]) continue;
    mine.push_back(store.id[b]);
    q.insert(q.end(), &store.q[7 * b], &store.q[7 * b] + 7);
  }
  const auto ids = gatherToRoot(mine, comm);
  const auto all = gatherToRoot(q, comm);
  count = ids.size();
  std::vector<double> sorted(all.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const std::size_t at = static_cast<std::size_t>(ids[i] - 1);
    if (7 * at + 7 <= sorted.size())
      std::copy(all.begin() + static_cast<std::ptrdiff_t>(7 * i),
                all.begin() + static_cast<std::ptrdiff_t>(7 * i + 7),
                sorted.begin() + static_cast<std::ptrdiff_t>(7 * at));
  }
  return sorted;
}

/// The dynamic bodies' positions and orientations (7 per body, store order) of a one-process
/// engine: gatherPositions's layout.
inline std::vector<double> wholePositions(const nsdyn::BodyStore& store) {
  std::vector<double> whole;
  for (std::size_t b = 0; b < store.size(); ++b)
    if (!store.isStatic[b]) whole.insert(whole.end(), &store.q[7 * b], &store.q[7 * b] + 7);
  return whole;
}

/// What compareWithOne found on rank 0.
struct Compared {
  std::size_t gathered = 0;  ///< dynamic bodies gathered from the ranks
  bool sameBits = true;      ///< positions and orientations bit for bit those of one process
};

/// Collective: the bodies of every rank gathered on rank 0 and compared with @p single's (the
/// one-process engine, rank 0 only); the largest position and orientation differences
/// accumulated in @p dx and @p dq (rank 0).
inline Compared compareWithOne(const nsdyn::BodyStore& parts, const nsdyn::SceneEngine* single,
                               double& dx, double& dq, MPI_Comm comm) {
  Compared c;
  const std::vector<double> q = gatherPositions(parts, c.gathered, comm);
  if (!single) return c;
  const std::vector<double> whole = wholePositions(single->bodies());
  c.sameBits = whole.size() == q.size() &&
               std::memcmp(q.data(), whole.data(), q.size() * sizeof(double)) == 0;
  if (whole.size() != q.size()) return c;
  for (std::size_t k = 0; k < q.size(); k += 7) {
    for (std::size_t i = 0; i < 3; ++i) dx = std::max(dx, std::fabs(q[k + i] - whole[k + i]));
    for (std::size_t i = 3; i < 7; ++i) dq = std::max(dq, std::fabs(q[k + i] - whole[k + i]));
  }
  return c;
}

/// The deepest overlap of the contacts @p e detected for its last step (this part's).
inline double deepestOverlap(const nsdyn::SceneEngine& e) {
  double d = 0.0;
  for (std::size_t c = 0; c < e.contacts().size(); ++c) d = std::max(d, -e.contacts().gap[c]);
  return d;
}

/// The failures @p mine of this rank summed over @p comm: the exit status of every rank
/// (1 when any failed).
inline int agreedExit(int mine, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_INT, MPI_SUM, comm);
  return mine > 0 ? 1 : 0;
}

/// The main of an MPI test: MPI up, @p rank and @p size set, @p run's status returned; an
/// exception is printed with the rank and aborts every rank (status 5).
inline int mpiTestMain(int argc, char** argv, int& rank, int& size, int (*run)()) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int rc = 5;
  try {
    rc = run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 5);
  }
  MPI_Finalize();
  return rc;
}

}  // namespace nsdyn::test::parallel
