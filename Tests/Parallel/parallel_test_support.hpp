// Helpers shared by the MPI tests: a rank's slice of an id range and a byte hash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <mpi.h>

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

}  // namespace nsdyn::test::parallel
