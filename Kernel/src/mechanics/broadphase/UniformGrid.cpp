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
  minX.clear();
  minY.clear();
  minZ.clear();
  maxX.clear();
  maxY.clear();
  maxZ.clear();
  group.clear();
}

void AabbArrays::reserve(std::size_t n, bool withGroups) {
  minX.reserve(n);
  minY.reserve(n);
  minZ.reserve(n);
  maxX.reserve(n);
  maxY.reserve(n);
  maxZ.reserve(n);
  if (withGroups) group.reserve(n);
}

void AabbArrays::push_back(const Shape::Aabb& box) {
  minX.push_back(box.min[0]);
  minY.push_back(box.min[1]);
  minZ.push_back(box.min[2]);
  maxX.push_back(box.max[0]);
  maxY.push_back(box.max[1]);
  maxZ.push_back(box.max[2]);
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
  const std::uint64_t key =
      (static_cast<std::uint64_t>(static_cast<std::uint32_t>(x)) * 0x9E3779B97F4A7C15ULL) ^
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

}  // namespace

std::vector<BroadphasePair> UniformGridBroadphase::findPairs(const AabbArrays& boxes) {
  std::vector<BroadphasePair> pairs;
  findPairs(boxes, pairs);
  return pairs;
}

void UniformGridBroadphase::findPairs(const AabbArrays& b, std::vector<BroadphasePair>& pairs) {
  checkSizes(b);
  pairs.clear();
  const std::size_t n = b.size();
  const bool groups = !b.group.empty();
  if (n < 2) {
    stats_ = Statistics();
    stats_.boxes = n;
    cacheValid_ = false;
    return;
  }
  const int nt = mechanics::threadsFor(options_.threads, n);

  // Validation, origin, largest edges (serial, O(N)).
  double origin[3] = {std::numeric_limits<double>::infinity(),
                      std::numeric_limits<double>::infinity(),
                      std::numeric_limits<double>::infinity()};
  double sceneMax[3] = {-std::numeric_limits<double>::infinity(),
                        -std::numeric_limits<double>::infinity(),
                        -std::numeric_limits<double>::infinity()};
  std::vector<double>& edges = edges_;
  edges.clear();
  edges.reserve(n);
  for (std::size_t k = 0; k < n; ++k) {
    const double lo[3] = {b.minX[k], b.minY[k], b.minZ[k]};
    const double hi[3] = {b.maxX[k], b.maxY[k], b.maxZ[k]};
    double edge = 0.0;
    bool finite = true;
    for (int a = 0; a < 3; ++a) {
      if (std::isnan(lo[a]) || std::isnan(hi[a]) || lo[a] > hi[a])
        throw Error("AabbArrays box " + std::to_string(k), "min <= max, not NaN",
                    "axis " + std::to_string(a) + ": [" + std::to_string(lo[a]) + ", " +
                        std::to_string(hi[a]) + "]");
      if (std::isfinite(lo[a])) origin[a] = std::min(origin[a], lo[a]);
      if (std::isfinite(hi[a])) sceneMax[a] = std::max(sceneMax[a], hi[a]);
      if (!std::isfinite(lo[a]) || !std::isfinite(hi[a])) finite = false;
      edge = std::max(edge, hi[a] - lo[a]);
    }
    if (finite && std::isfinite(edge)) edges.push_back(edge);
  }
  for (int a = 0; a < 3; ++a)
    if (!std::isfinite(origin[a])) origin[a] = 0.0;

  const std::ptrdiff_t sn = static_cast<std::ptrdiff_t>(n);
  // 1. The pairs of the last build still hold every overlapping pair when each box lies in
  //    its inflated box of that build (same count, same groups): they are filtered.
  if (cacheValid_ && packed_.size() == n && hasGroups_ == groups) {
    int inside = 1;
    NSD_OMP(omp parallel for schedule(static) num_threads(nt) reduction(& : inside))
    for (std::ptrdiff_t sk = 0; sk < sn; ++sk) {
      const std::size_t k = static_cast<std::size_t>(sk);
      const PackedBox& c = packed_[k];
      inside &= static_cast<int>((b.minX[k] >= c.min[0]) & (b.minY[k] >= c.min[1]) &
                                 (b.minZ[k] >= c.min[2]) & (b.maxX[k] <= c.max[0]) &
                                 (b.maxY[k] <= c.max[1]) & (b.maxZ[k] <= c.max[2]) &
                                 (!groups || b.group[k] == c.group));
    }
    if (inside) {
      filterCachedPairs(b, nt, pairs);
      ++cacheReuses_;
      stats_.boxes = n;
      stats_.candidates = cachePairs_.size();
      stats_.pairs = pairs.size();
      return;
    }
  }

  // 2. A build. No skin for a first call (a one-off query pays nothing for it); from the
  //    second build on, the skin adapts to the motion: halved when the last build served
  //    no call, doubled up to kMaxSkin when it served several, off below kMinSkin (tried
  //    again after 16 builds).
  if (cacheValid_) {
    if (skin_ == 0.0) {
      if (!skinOff_ || ++buildsWithoutSkin_ >= 16) {
        skin_ = kStartSkin;
        skinOff_ = false;
      }
    } else if (cacheReuses_ == 0) {
      skin_ *= 0.5;
      if (skin_ < kMinSkin) {
        skin_ = 0.0;
        skinOff_ = true;
        buildsWithoutSkin_ = 0;
      }
    } else if (cacheReuses_ >= 4) {
      skin_ = std::min(kMaxSkin, 2.0 * skin_);
    }
  }
  stats_ = Statistics();
  stats_.boxes = n;
  double median = 0.0;
  if (!edges.empty()) {
    auto mid = edges.begin() + static_cast<std::ptrdiff_t>(edges.size() / 2);
    std::nth_element(edges.begin(), mid, edges.end());
    median = *mid;
  }
  double h = options_.cellSize;
  if (!(h > 0.0) || !std::isfinite(h)) {
    h = median * options_.cellSizeFactor;
    if (!(h > 0.0) || !std::isfinite(h)) {  // point boxes: scene extent / N^(1/3)
      double extent = 0.0;
      for (int a = 0; a < 3; ++a)
        if (std::isfinite(sceneMax[a])) extent = std::max(extent, sceneMax[a] - origin[a]);
      h = extent > 0.0 && std::isfinite(extent) ? extent / std::cbrt(static_cast<double>(n)) : 1.0;
    }
  }
  stats_.cellSize = h;
  const double skin = std::isfinite(median) ? skin_ * median : 0.0;
  packed_.resize(n);
  hasGroups_ = groups;
  NSD_OMP(omp parallel for schedule(static) num_threads(nt))
  for (std::ptrdiff_t sk = 0; sk < sn; ++sk) {
    const std::size_t k = static_cast<std::size_t>(sk);
    PackedBox& pk = packed_[k];
    pk.min[0] = b.minX[k] - skin;
    pk.min[1] = b.minY[k] - skin;
    pk.min[2] = b.minZ[k] - skin;
    pk.max[0] = b.maxX[k] + skin;
    pk.max[1] = b.maxY[k] + skin;
    pk.max[2] = b.maxZ[k] + skin;
    pk.group = groups ? b.group[k] : 0;
    pk.pad = 0;
  }
  buildPairs(n, nt, h, origin);
  cacheValid_ = true;
  cacheReuses_ = 0;
  if (skin > 0.0)
    filterCachedPairs(b, nt, pairs);
  else
    pairs = cachePairs_;
  stats_.pairs = pairs.size();
}

void UniformGridBroadphase::filterCachedPairs(const AabbArrays& b, int nt,
                                              std::vector<BroadphasePair>& pairs) {
  // contiguous ranges of the (sorted) pairs per thread, concatenated in thread order (the
  // groups are those of the build: the cached pairs already skip same-group boxes)
  const std::size_t m = cachePairs_.size();
  threadPairs_.resize(static_cast<std::size_t>(nt));
  const double *minX = b.minX.data(), *minY = b.minY.data(), *minZ = b.minZ.data();
  const double *maxX = b.maxX.data(), *maxY = b.maxY.data(), *maxZ = b.maxZ.data();
  const BroadphasePair* cached = cachePairs_.data();
  const auto overlapping = [&](const BroadphasePair& pr) {
    const std::uint32_t i = pr.i, j = pr.j;
    return (minX[i] <= maxX[j]) & (minX[j] <= maxX[i]) & (minY[i] <= maxY[j]) &
           (minY[j] <= maxY[i]) & (minZ[i] <= maxZ[j]) & (minZ[j] <= maxZ[i]);
  };
  if (nt == 1) {
    for (std::size_t k = 0; k < m; ++k)
      if (overlapping(cached[k])) pairs.push_back(cached[k]);
    return;
  }
  NSD_OMP(omp parallel num_threads(nt)) {
    const std::size_t t = static_cast<std::size_t>(threadId());
#ifdef _OPENMP
    const std::size_t team = static_cast<std::size_t>(omp_get_num_threads());
#else
    const std::size_t team = 1;
#endif
    // the thread's buffer taken out of threadPairs_ while it grows (the vectors' ends lie
    // side by side there: pushed in place, every thread's push_back dirtied the others' line)
    std::vector<BroadphasePair> out;
    out.swap(threadPairs_[t]);
    out.clear();
    const std::size_t begin = m * t / team, end = m * (t + 1) / team;
    for (std::size_t k = begin; k < end; ++k)
      if (overlapping(cached[k])) out.push_back(cached[k]);
    threadPairs_[t].swap(out);
  }
  std::size_t total = 0;
  for (const auto& tp : threadPairs_) total += tp.size();
  pairs.reserve(total);
  for (const auto& tp : threadPairs_) pairs.insert(pairs.end(), tp.begin(), tp.end());
}

void UniformGridBroadphase::buildPairs(std::size_t n, int nt, double h, const double* origin) {
  const CellMap cell{{origin[0], origin[1], origin[2]}, 1.0 / h};
  // Cell ranges, oversize flags, entry count of the (inflated) boxes of packed_.
  lo_.resize(3 * n);
  hi_.resize(3 * n);
  oversize_.resize(n);
  const double maxCells = options_.maxCellsPerBox;
  const std::ptrdiff_t sn = static_cast<std::ptrdiff_t>(n);
  std::size_t totalEntries = 0;
  NSD_OMP(omp parallel for schedule(static) num_threads(nt) reduction(+ : totalEntries))
  for (std::ptrdiff_t sk = 0; sk < sn; ++sk) {
    const std::size_t k = static_cast<std::size_t>(sk);
    PackedBox& pk = packed_[k];
    double cells = 1.0;
    for (int a = 0; a < 3; ++a) {
      const std::int32_t l = cell(pk.min[a], a), u = cell(pk.max[a], a);
      lo_[3 * k + static_cast<std::size_t>(a)] = l;
      hi_[3 * k + static_cast<std::size_t>(a)] = u;
      pk.cell[a] = l;
      cells *= static_cast<double>(u) - static_cast<double>(l) + 1.0;
    }
    oversize_[k] = cells > maxCells ? 1 : 0;
    if (!oversize_[k]) totalEntries += static_cast<std::size_t>(cells);
  }
  if (totalEntries >= std::numeric_limits<std::uint32_t>::max())
    throw Error("UniformGridBroadphase", "fewer than 2^32 grid entries",
                std::to_string(totalEntries));

  std::size_t tableSize = 16;
  while (tableSize < totalEntries) tableSize *= 2;
  const std::uint64_t mask = tableSize - 1;
  stats_.buckets = tableSize;
  const bool groups = hasGroups_;

  // Counting pass, exclusive prefix sum: bucket bk owns entries_[bucketStart_[bk], bucketStart_[bk
  // + 1]).
  bucketStart_.assign(tableSize + 1, 0);
  if (nt == 1) {
    for (std::size_t k = 0; k < n; ++k)
      if (!oversize_[k])
        forEachBucket(&lo_[3 * k], &hi_[3 * k], mask,
                      [&](std::uint32_t bk) { ++bucketStart_[bk + 1]; });
  } else {
    NSD_OMP(omp parallel for schedule(static) num_threads(nt))
    for (std::ptrdiff_t sk = 0; sk < sn; ++sk) {
      const std::size_t k = static_cast<std::size_t>(sk);
      if (oversize_[k]) continue;
      forEachBucket(&lo_[3 * k], &hi_[3 * k], mask, [&](std::uint32_t bk) {
        NSD_OMP(omp atomic)
        ++bucketStart_[bk + 1];
      });
    }
  }
  for (std::size_t bk = 0; bk < tableSize; ++bk) bucketStart_[bk + 1] += bucketStart_[bk];

  // Fill: bucket bk holds its distinct boxes, increasing, in entries_[bucketStart_[bk],
  // bucketFill_[bk]).
  entries_.resize(totalEntries);
  bucketFill_.assign(bucketStart_.begin(), bucketStart_.end() - 1);
  const std::ptrdiff_t sTable = static_cast<std::ptrdiff_t>(tableSize);
  std::size_t kept = 0;
  if (nt == 1) {
    // in box order: each bucket fills increasing; a box met twice (two of its cells hashed
    // to one bucket) is then the bucket's last entry
    for (std::size_t k = 0; k < n; ++k) {
      if (oversize_[k]) continue;
      const std::uint32_t box = static_cast<std::uint32_t>(k);
      forEachBucket(&lo_[3 * k], &hi_[3 * k], mask, [&](std::uint32_t bk) {
        std::uint32_t& fill = bucketFill_[bk];
        if (fill > bucketStart_[bk] && entries_[fill - 1] == box) return;
        entries_[fill++] = box;
        ++kept;
      });
    }
  } else {
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
    // the order within a bucket depends on the schedule: sorted, duplicates dropped
    NSD_OMP(omp parallel for schedule(static) num_threads(nt) reduction(+ : kept))
    for (std::ptrdiff_t sb = 0; sb < sTable; ++sb) {
      const std::size_t bk = static_cast<std::size_t>(sb);
      std::uint32_t* first = entries_.data() + bucketStart_[bk];
      std::uint32_t* last = entries_.data() + bucketFill_[bk];
      if (last - first > 1) {
        std::sort(first, last);
        last = std::unique(first, last);
        bucketFill_[bk] = static_cast<std::uint32_t>(last - entries_.data());
      }
      kept += static_cast<std::size_t>(last - first);
    }
  }
  stats_.entries = kept;

  // In each bucket every candidate pair (i < j) is tested (bounds, groups) and reported only
  // by the bucket of the cell holding the minimum corner of the intersection. One branch
  // per candidate: the outcomes are unpredictable.
  threadPairs_.resize(static_cast<std::size_t>(nt));
  for (auto& tp : threadPairs_) tp.clear();
  std::size_t candidates = 0;
  const PackedBox* box = packed_.data();
  NSD_OMP(omp parallel num_threads(nt) reduction(+ : candidates)) {
    // the thread's buffer out of threadPairs_ while it grows (filterCachedPairs)
    std::vector<BroadphasePair> out;
    out.swap(threadPairs_[static_cast<std::size_t>(threadId())]);
    NSD_OMP(omp for schedule(dynamic, 1024) nowait)
    for (std::ptrdiff_t sb = 0; sb < sTable; ++sb) {
      const std::size_t bk = static_cast<std::size_t>(sb);
      const std::uint32_t* first = entries_.data() + bucketStart_[bk];
      const std::size_t m = bucketFill_[bk] - bucketStart_[bk];
      if (m < 2) continue;
      candidates += m * (m - 1) / 2;
      for (std::size_t p = 0; p + 1 < m; ++p) {
        const std::uint32_t i = first[p];
        const PackedBox& a = box[i];
        for (std::size_t q = p + 1; q < m; ++q) {
          const std::uint32_t j = first[q];
          const PackedBox& c = box[j];
          const bool hit = (a.min[0] <= c.max[0]) & (c.min[0] <= a.max[0]) &
                           (a.min[1] <= c.max[1]) & (c.min[1] <= a.max[1]) &
                           (a.min[2] <= c.max[2]) & (c.min[2] <= a.max[2]) &
                           (!groups | (c.group != a.group));
          if (!hit) continue;
          if (bucketOf(std::max(a.cell[0], c.cell[0]), std::max(a.cell[1], c.cell[1]),
                       std::max(a.cell[2], c.cell[2]), mask) != static_cast<std::uint32_t>(bk))
            continue;
          out.push_back({i, j});
        }
      }
    }
    threadPairs_[static_cast<std::size_t>(threadId())].swap(out);
  }
  stats_.candidates = candidates;

  // Oversize boxes against every box (a pair of oversize boxes from the lower one).
  oversizeList_.clear();
  for (std::size_t k = 0; k < n; ++k)
    if (oversize_[k]) oversizeList_.push_back(static_cast<std::uint32_t>(k));
  stats_.oversizeBoxes = oversizeList_.size();
  if (!oversizeList_.empty()) {
    NSD_OMP(omp parallel num_threads(nt)) {
      std::vector<BroadphasePair> out;  // out of threadPairs_ while it grows
      out.swap(threadPairs_[static_cast<std::size_t>(threadId())]);
      for (const std::uint32_t o : oversizeList_) {
        const PackedBox& a = box[o];
        NSD_OMP(omp for schedule(static) nowait)
        for (std::ptrdiff_t sk = 0; sk < sn; ++sk) {
          const std::uint32_t k = static_cast<std::uint32_t>(sk);
          if (k == o || (oversize_[k] && k < o)) continue;
          const PackedBox& c = box[k];
          if (groups && c.group == a.group) continue;
          if (a.min[0] <= c.max[0] && c.min[0] <= a.max[0] && a.min[1] <= c.max[1] &&
              c.min[1] <= a.max[1] && a.min[2] <= c.max[2] && c.min[2] <= a.max[2])
            out.push_back({std::min(o, k), std::max(o, k)});
        }
      }
      threadPairs_[static_cast<std::size_t>(threadId())].swap(out);
    }
  }

  // Sorted by (i, j) (each pair is found once, so the order does not depend on the threads):
  // counted by i, placed, then each i's few partners sorted.
  std::vector<BroadphasePair>& pairs = cachePairs_;
  std::size_t total = 0;
  for (const auto& tp : threadPairs_) total += tp.size();
  pairStart_.assign(n + 1, 0);
  for (const auto& tp : threadPairs_)
    for (const BroadphasePair& pr : tp) ++pairStart_[pr.i + 1];
  for (std::size_t k = 0; k < n; ++k) pairStart_[k + 1] += pairStart_[k];
  pairs.resize(total);
  pairFill_.assign(pairStart_.begin(), pairStart_.end() - 1);
  for (const auto& tp : threadPairs_)
    for (const BroadphasePair& pr : tp) pairs[pairFill_[pr.i]++] = pr;
  for (std::size_t k = 0; k < n; ++k) {
    BroadphasePair* first = pairs.data() + pairStart_[k];
    BroadphasePair* last = pairs.data() + pairStart_[k + 1];
    if (last - first < 2) continue;  // (and no first + 1 on the null data() of no pairs)
    if (last - first > 32) {
      std::sort(first, last);
      continue;
    }
    for (BroadphasePair* p = first + 1; p < last; ++p) {  // insertion sort by j
      const BroadphasePair v = *p;
      BroadphasePair* q = p;
      for (; q > first && (q - 1)->j > v.j; --q) *q = *(q - 1);
      *q = v;
    }
  }
  if (nt == 1) {  // one thread filters into the caller's list: the build's buffer is released
    threadPairs_[0].clear();
    threadPairs_[0].shrink_to_fit();
  }
}

std::vector<BoxHalfSpacePair> UniformGridBroadphase::findHalfSpacePairs(
    const AabbArrays& b, const std::vector<BroadphaseHalfSpace>& halfSpaces, double margin,
    int threads) {
  checkSizes(b);
  std::vector<BoxHalfSpacePair> pairs;
  const std::size_t n = b.size();
  if (n == 0 || halfSpaces.empty()) return pairs;
  if (halfSpaces.size() >= std::numeric_limits<std::uint32_t>::max())
    throw Error("findHalfSpacePairs", "fewer than 2^32 - 1 half-spaces",
                std::to_string(halfSpaces.size()));
  for (std::size_t s = 0; s < halfSpaces.size(); ++s) {
    const auto& hs = halfSpaces[s];
    if (!std::isfinite(hs.normal[0]) || !std::isfinite(hs.normal[1]) ||
        !std::isfinite(hs.normal[2]) || !std::isfinite(hs.offset) ||
        (hs.normal[0] == 0.0 && hs.normal[1] == 0.0 && hs.normal[2] == 0.0))
      throw Error("BroadphaseHalfSpace " + std::to_string(s),
                  "finite, non-zero normal and finite offset", "a zero or non-finite value");
  }
  const bool groups = !b.group.empty();
  const int nt = mechanics::threadsFor(threads, n * halfSpaces.size());
  std::vector<std::vector<BoxHalfSpacePair>> perThread(static_cast<std::size_t>(nt));
  const std::ptrdiff_t sn = static_cast<std::ptrdiff_t>(n);
  NSD_OMP(omp parallel num_threads(nt)) {
    std::vector<BoxHalfSpacePair> out;  // moved into perThread after (filterCachedPairs)
    NSD_OMP(omp for schedule(static) nowait)
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
          if (hs.normal[a] > 0.0)
            d += hs.normal[a] * lo[a];
          else if (hs.normal[a] < 0.0)
            d += hs.normal[a] * hi[a];
        }
        if (d <= hs.offset + margin)
          out.push_back({static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(s)});
      }
    }
    perThread[static_cast<std::size_t>(threadId())].swap(out);
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
