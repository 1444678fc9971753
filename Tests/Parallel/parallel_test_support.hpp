// Helpers shared by the MPI tests: a rank's slice of an id range and a byte hash.
#pragma once

#include <cstddef>
#include <cstdint>

#include "nsdyn/parallel/BodyArrays.hpp"

namespace nsdyn::test::parallel {

/// Rank @p rank of @p size's share of @p all, by position in the arrays (the initial
/// split is by id, not by space, so the first partition really moves bodies).
inline nsdyn::parallel::BodyArrays slice(const nsdyn::parallel::BodyArrays& all, int rank, int size) {
  nsdyn::parallel::BodyArrays mine;
  const std::size_t lo = all.size() * static_cast<std::size_t>(rank) / static_cast<std::size_t>(size);
  const std::size_t hi = all.size() * static_cast<std::size_t>(rank + 1) / static_cast<std::size_t>(size);
  for (std::size_t k = lo; k < hi; ++k) mine.append(all, k);
  return mine;
}

/// FNV-1a over @p bytes bytes, continuing from @p h.
inline std::uint64_t fnv(std::uint64_t h, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

}  // namespace nsdyn::test::parallel
