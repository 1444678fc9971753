// Uniform hashed-grid broadphase (see nsdyn/Broadphase.hpp for the algorithm and its guarantees).
#include "nsdyn/Broadphase.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "nsdyn/Error.hpp"

#include "mechanics/Threads.hpp"

namespace nsdyn {

void AabbArrays::clear() {
  minX.clear(); minY.clear(); minZ.clear();
  maxX.clear(); maxY.clear(); maxZ.clear();
  group.clear();
}

void AabbArrays::reserve(std::size_t n, bool withGroups) {
  minX.reserve(n); minY.reserve(n); minZ.reserve(n);
  maxX.reserve(n); maxY.reserve(n); maxZ.reserve(n);
  if (withGroups) group.reserve(n);
}

void AabbArrays::push_back(const Shape::Aabb& box) {
  minX.push_back(box.min[0]); minY.push_back(box.min[1]); minZ.push_back(box.min[2]);
  maxX.push_back(box.max[0]); maxY.push_back(box.max[1]); maxZ.push_back(box.max[2]);
}

void AabbArrays::push_back(const Shape::Aabb& box, std::int64_t groupId) {
  push_back(box);
  group.push_back(groupId);
}

namespace {

constexpr double kClamp = 1073741824.0;  // 2^30: cell coordinates fit an int32

using mechanics::threadId;

std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint32_t bucketOf(std::int32_t x, std::int32_t y, std::int32_t z, std::uint64_t mask) {
  const std::uint64_t key = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(x)) * 0x9E3779B97F4A7C15ULL) ^
                            (static_cast<std::uint64_t>(static_cast<std::uint32_t>(y)) * 0xC2B2AE3D27D4EB4FULL) ^
                            (static_cast<std::uint64_t>(static_cast<std::uint32_t>(z)) * 0x165667B19E3779F9ULL);
  return static_cast<std::uint32_t>(mix64(key) & mask);
}

/// Call @p fn with the bucket of every cell of the cell range [@p lo, @p hi] (3 axes).
template <class Fn>
void forEachBucket(const std::int32_t* lo, const std::int32_t* hi, std::uint64_t mask, Fn&& fn) {
  for (std::int32_t x = lo[0]; x <= hi[0]; ++x)
    for (std::int32_t y = lo[1]; y <= hi[1]; ++y)
      for (std::int32_t z = lo[2]; z <= hi[2]; ++z) fn(bucketOf(x, y, z, mask));
}

struct CellMap {
  double origin[3];
  double invH;
  std::int32_t operator()(double x, int axis) const {
    double t = (x - origin[axis]) * invH;
    if (!(t > -kClamp)) t = -kClamp;  // also −∞
    if (t > kClamp) t = kClamp;
    return static_cast<std::int32_t>(std::floor(t));
  }
};

void checkSizes(const AabbArrays& b) {
  const std::size_t n = b.size();
  if (b.minY.size() != n || b.minZ.size() != n || b.maxX.size() != n || b.maxY.size() != n ||
      b.maxZ.size() != n)
    throw Error("AabbArrays", "minX, minY, minZ, maxX, maxY, maxZ of equal sizes",
                "sizes differ (minX has " + std::to_string(n) + ")");
  if (!b.group.empty() && b.group.size() != n)
    throw Error("AabbArrays", "group empty or of size " + std::to_string(n),
                "size " + std::to_string(b.group.size()));
  if (n >= std::numeric_limits<std::uint32_t>::max())
    throw Error("AabbArrays", "fewer than 2^32 - 1 boxes", std::to_string(n));
}

bool overlap(const AabbArrays& b, std::size_t i, std::size_t j) {
  return b.minX[i] <= b.maxX[j] && b.minX[j] <= b.maxX[i] && b.minY[i] <= b.maxY[j] &&
         b.minY[j] <= b.maxY[i] && b.minZ[i] <= b.maxZ[j] && b.minZ[j] <= b.maxZ[i];
}

}  // namespace

std::vector<BroadphasePair> UniformGridBroadphase::findPairs(const AabbArrays& boxes) {
  std::vector<BroadphasePair> pairs;
  findPairs(boxes, pairs);
  return pairs;
}

void UniformGridBroadphase::findPairs(const AabbArrays& b, std::vector<BroadphasePair>& pairs) {
  checkSizes(b);
  pairs.clear();
  stats_ = Statistics();
  const std::size_t n = b.size();
  stats_.boxes = n;
  if (n < 2) return;
  const bool groups = !b.group.empty();
  const int nt = mechanics::threadsFor(options_.threads, n);

  // Validation, origin, largest edges (serial, O(N)).
  double origin[3] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
                      std::numeric_limits<double>::infinity()};
  double sceneMax[3] = {-std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                        -std::numeric_limits<double>::infinity()};
  std::vector<double> edges;
  edges.reserve(n);
  for (std::size_t k = 0; k < n; ++k) {
    const double lo[3] = {b.minX[k], b.minY[k], b.minZ[k]};
    const double hi[3] = {b.maxX[k], b.maxY[k], b.maxZ[k]};
    double edge = 0.0;
    bool finite = true;
    for (int a = 0; a < 3; ++a) {
      if (std::isnan(lo[a]) || std::isnan(hi[a]) || lo[a] > hi[a])
        throw Error("AabbArrays box " + std::to_string(k), "min <= max, not NaN",
                    "axis " + std::to_string(a) + ": [" + std::to_string(lo[a]) + ", " + std::to_string(hi[a]) + "]");
      if (std::isfinite(lo[a])) origin[a] = std::min(origin[a], lo[a]);
      if (std::isfinite(hi[a])) sceneMax[a] = std::max(sceneMax[a], hi[a]);
      if (!std::isfinite(lo[a]) || !std::isfinite(hi[a])) finite = false;
      edge = std::max(edge, hi[a] - lo[a]);
    }
    if (finite && std::isfinite(edge)) edges.push_back(edge);
  }
  for (int a = 0; a < 3; ++a)
    if (!std::isfinite(origin[a])) origin[a] = 0.0;

  double h = options_.cellSize;
  if (!(h > 0.0) || !std::isfinite(h)) {
    h = 0.0;
    if (!edges.empty()) {
      auto mid = edges.begin() + static_cast<std::ptrdiff_t>(edges.size() / 2);
      std::nth_element(edges.begin(), mid, edges.end());
      h = *mid * options_.cellSizeFactor;
    }
    if (!(h > 0.0) || !std::isfinite(h)) {  // point boxes: scene extent / N^(1/3)
      double extent = 0.0;
      for (int a = 0; a < 3; ++a)
        if (std::isfinite(sceneMax[a])) extent = std::max(extent, sceneMax[a] - origin[a]);
      h = extent > 0.0 && std::isfinite(extent) ? extent / std::cbrt(static_cast<double>(n)) : 1.0;
    }
  }
  stats_.cellSize = h;
  const CellMap cell{{origin[0], origin[1], origin[2]}, 1.0 / h};

  // Cell ranges, oversize flags, entry count.
  lo_.resize(3 * n);
  hi_.resize(3 * n);
  oversize_.assign(n, 0);
  const double maxCells = options_.maxCellsPerBox;
  const std::ptrdiff_t sn = static_cast<std::ptrdiff_t>(n);
  std::size_t totalEntries = 0;
  NSD_OMP(omp parallel for schedule(static) num_threads(nt) reduction(+ : totalEntries))
  for (std::ptrdiff_t sk = 0; sk < sn; ++sk) {
    const std::size_t k = static_cast<std::size_t>(sk);
    const double lo[3] = {b.minX[k], b.minY[k], b.minZ[k]};
    const double hi[3] = {b.maxX[k], b.maxY[k], b.maxZ[k]};
    double cells = 1.0;
    for (int a = 0; a < 3; ++a) {
      lo_[3 * k + static_cast<std::size_t>(a)] = cell(lo[a], a);
      hi_[3 * k + static_cast<std::size_t>(a)] = cell(hi[a], a);
      cells *= static_cast<double>(hi_[3 * k + static_cast<std::size_t>(a)]) -
               static_cast<double>(lo_[3 * k + static_cast<std::size_t>(a)]) + 1.0;
    }
    if (cells > maxCells)
      oversize_[k] = 1;
    else
      totalEntries += static_cast<std::size_t>(cells);
  }
  if (totalEntries >= std::numeric_limits<std::uint32_t>::max())
    throw Error("UniformGridBroadphase", "fewer than 2^32 grid entries", std::to_string(totalEntries));

  std::size_t tableSize = 16;
  while (tableSize < 2 * totalEntries) tableSize *= 2;
  const std::uint64_t mask = tableSize - 1;
  stats_.buckets = tableSize;

  // Counting pass.
  bucketStart_.assign(tableSize + 1, 0);
  NSD_OMP(omp parallel for schedule(static) num_threads(nt))
  for (std::ptrdiff_t sk = 0; sk < sn; ++sk) {
    const std::size_t k = static_cast<std::size_t>(sk);
    if (oversize_[k]) continue;
    forEachBucket(&lo_[3 * k], &hi_[3 * k], mask, [&](std::uint32_t bk) {
      NSD_OMP(omp atomic)
      ++bucketStart_[bk + 1];
    });
  }
  // Exclusive prefix sum: bucket bk holds entries_[bucketStart_[bk], bucketStart_[bk + 1]).
  for (std::size_t bk = 0; bk < tableSize; ++bk) bucketStart_[bk + 1] += bucketStart_[bk];

  // Fill pass (order within a bucket depends on the schedule; fixed by the sort below).
  entries_.resize(totalEntries);
  bucketFill_.assign(bucketStart_.begin(), bucketStart_.end() - 1);
  NSD_OMP(omp parallel for schedule(static) num_threads(nt))
  for (std::ptrdiff_t sk = 0; sk < sn; ++sk) {
    const std::size_t k = static_cast<std::size_t>(sk);
    if (oversize_[k]) continue;
    forEachBucket(&lo_[3 * k], &hi_[3 * k], mask, [&](std::uint32_t bk) {
      std::uint32_t slot;
      NSD_OMP(omp atomic capture)
      slot = bucketFill_[bk]++;
      entries_[slot] = static_cast<std::uint32_t>(k);
    });
  }

  // Per bucket: sort by box, drop duplicates (two cells of a box hashed to one bucket),
  // then test the candidate pairs; report a pair only in the bucket of the cell holding
  // the minimum corner of the intersection.
  threadPairs_.resize(static_cast<std::size_t>(nt));
  for (auto& tp : threadPairs_) tp.clear();
  const std::ptrdiff_t sTable = static_cast<std::ptrdiff_t>(tableSize);
  std::size_t candidates = 0, kept = 0;
  NSD_OMP(omp parallel num_threads(nt) reduction(+ : candidates, kept)) {
    std::vector<BroadphasePair>& out = threadPairs_[static_cast<std::size_t>(threadId())];
    NSD_OMP(omp for schedule(dynamic, 1024))
    for (std::ptrdiff_t sb = 0; sb < sTable; ++sb) {
      const std::size_t bk = static_cast<std::size_t>(sb);
      std::uint32_t* first = entries_.data() + bucketStart_[bk];
      std::uint32_t* last = entries_.data() + bucketStart_[bk + 1];
      if (last - first < 2) {
        kept += static_cast<std::size_t>(last - first);
        continue;
      }
      std::sort(first, last);
      last = std::unique(first, last);
      const std::size_t m = static_cast<std::size_t>(last - first);
      kept += m;
      for (std::size_t p = 0; p + 1 < m; ++p) {
        const std::uint32_t i = first[p];
        for (std::size_t q = p + 1; q < m; ++q) {
          const std::uint32_t j = first[q];
          ++candidates;
          if (groups && b.group[i] == b.group[j]) continue;
          if (!overlap(b, i, j)) continue;
          const std::int32_t cx = std::max(lo_[3 * i], lo_[3 * j]);
          const std::int32_t cy = std::max(lo_[3 * i + 1], lo_[3 * j + 1]);
          const std::int32_t cz = std::max(lo_[3 * i + 2], lo_[3 * j + 2]);
          if (bucketOf(cx, cy, cz, mask) != static_cast<std::uint32_t>(bk)) continue;
          out.push_back({i, j});
        }
      }
    }
  }
  stats_.candidates = candidates;
  stats_.entries = kept;

  // Oversize boxes against every box (an oversize pair by its smaller oversize index... once).
  std::vector<std::uint32_t> big;
  for (std::size_t k = 0; k < n; ++k)
    if (oversize_[k]) big.push_back(static_cast<std::uint32_t>(k));
  stats_.oversizeBoxes = big.size();
  if (!big.empty()) {
    NSD_OMP(omp parallel num_threads(nt)) {
      std::vector<BroadphasePair>& out = threadPairs_[static_cast<std::size_t>(threadId())];
      for (const std::uint32_t o : big) {
        NSD_OMP(omp for schedule(static) nowait)
        for (std::ptrdiff_t sk = 0; sk < sn; ++sk) {
          const std::uint32_t k = static_cast<std::uint32_t>(sk);
          if (k == o || (oversize_[k] && k < o)) continue;
          if (groups && b.group[k] == b.group[o]) continue;
          if (!overlap(b, o, k)) continue;
          out.push_back({std::min(o, k), std::max(o, k)});
        }
      }
    }
  }

  // Merge in thread order, then sort: independent of the thread count.
  std::size_t total = 0;
  for (const auto& tp : threadPairs_) total += tp.size();
  pairs.reserve(total);
  for (const auto& tp : threadPairs_) pairs.insert(pairs.end(), tp.begin(), tp.end());
  std::sort(pairs.begin(), pairs.end());
  stats_.pairs = pairs.size();
}

std::vector<BoxHalfSpacePair> UniformGridBroadphase::findHalfSpacePairs(
    const AabbArrays& b, const std::vector<BroadphaseHalfSpace>& halfSpaces, double margin, int threads) {
  checkSizes(b);
  std::vector<BoxHalfSpacePair> pairs;
  const std::size_t n = b.size();
  if (n == 0 || halfSpaces.empty()) return pairs;
  if (halfSpaces.size() >= std::numeric_limits<std::uint32_t>::max())
    throw Error("findHalfSpacePairs", "fewer than 2^32 - 1 half-spaces", std::to_string(halfSpaces.size()));
  for (std::size_t s = 0; s < halfSpaces.size(); ++s) {
    const auto& hs = halfSpaces[s];
    if (!std::isfinite(hs.normal[0]) || !std::isfinite(hs.normal[1]) || !std::isfinite(hs.normal[2]) ||
        !std::isfinite(hs.offset) || (hs.normal[0] == 0.0 && hs.normal[1] == 0.0 && hs.normal[2] == 0.0))
      throw Error("BroadphaseHalfSpace " + std::to_string(s), "finite, non-zero normal and finite offset",
                  "a zero or non-finite value");
  }
  const bool groups = !b.group.empty();
  const int nt = mechanics::threadsFor(threads, n * halfSpaces.size());
  std::vector<std::vector<BoxHalfSpacePair>> perThread(static_cast<std::size_t>(nt));
  const std::ptrdiff_t sn = static_cast<std::ptrdiff_t>(n);
  NSD_OMP(omp parallel num_threads(nt)) {
    std::vector<BoxHalfSpacePair>& out = perThread[static_cast<std::size_t>(threadId())];
    NSD_OMP(omp for schedule(static))
    for (std::ptrdiff_t sk = 0; sk < sn; ++sk) {
      const std::size_t k = static_cast<std::size_t>(sk);
      const double lo[3] = {b.minX[k], b.minY[k], b.minZ[k]};
      const double hi[3] = {b.maxX[k], b.maxY[k], b.maxZ[k]};
      for (std::size_t s = 0; s < halfSpaces.size(); ++s) {
        const BroadphaseHalfSpace& hs = halfSpaces[s];
        if (groups && hs.group >= 0 && hs.group == b.group[k]) continue;
        // Support point of the box in −n: the corner minimising n·x (zero components skipped,
        // so that 0·∞ never appears).
        double d = 0.0;
        for (int a = 0; a < 3; ++a) {
          if (hs.normal[a] > 0.0) d += hs.normal[a] * lo[a];
          else if (hs.normal[a] < 0.0) d += hs.normal[a] * hi[a];
        }
        if (d <= hs.offset + margin)
          out.push_back({static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(s)});
      }
    }
  }
  // Thread buffers hold increasing box ranges in thread order (static schedule), but sort anyway.
  std::size_t total = 0;
  for (const auto& tp : perThread) total += tp.size();
  pairs.reserve(total);
  for (const auto& tp : perThread) pairs.insert(pairs.end(), tp.begin(), tp.end());
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace nsdyn
