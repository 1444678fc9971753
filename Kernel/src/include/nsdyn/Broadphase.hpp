/// @file Broadphase.hpp
/// @brief Broadphase: overlapping pairs of axis-aligned boxes (uniform hashed grid, OpenMP,
/// deterministic).
#ifndef NSDYN_KERNEL_BROADPHASE_HPP
#define NSDYN_KERNEL_BROADPHASE_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include "nsdyn/DetectionOptions.hpp"
#include "nsdyn/Shape.hpp"

namespace nsdyn {

/// N axis-aligned boxes as a struct of arrays: box k is
/// [minX[k], maxX[k]] × [minY[k], maxY[k]] × [minZ[k], maxZ[k]] (closed: boxes
/// that only touch overlap). Bounds may be ±∞ (half-infinite slabs); NaN or
/// min > max is an error. `group` is empty or has one id per box: boxes with
/// the same id (the parts of one body) are never paired.
struct AabbArrays {
  std::vector<double> minX, minY, minZ, maxX, maxY, maxZ;
  std::vector<std::int64_t> group;

  std::size_t size() const { return minX.size(); }
  void clear();
  void reserve(std::size_t n, bool withGroups = false);
  /// Appends one box (as from Shape::boundingBox), with its group id in the second form.
  void push_back(const Shape::Aabb& box);
  void push_back(const Shape::Aabb& box, std::int64_t groupId);
};

/// A pair of boxes i < j (indices into AabbArrays).
struct BroadphasePair {
  std::uint32_t i;
  std::uint32_t j;
  friend bool operator==(const BroadphasePair& a, const BroadphasePair& b) {
    return a.i == b.i && a.j == b.j;
  }
  friend bool operator!=(const BroadphasePair& a, const BroadphasePair& b) { return !(a == b); }
  friend bool operator<(const BroadphasePair& a, const BroadphasePair& b) {
    return a.i < b.i || (a.i == b.i && a.j < b.j);
  }
};

/// A static half-space n·x ≤ offset (n need not be unit; the test scales with it) with an
/// optional group id (a box with the same id is never paired with it; negative: none).
struct BroadphaseHalfSpace {
  quaternion::Vec3 normal;
  double offset;
  std::int64_t group = -1;
};

/// A (box, half-space) pair.
struct BoxHalfSpacePair {
  std::uint32_t box;
  std::uint32_t halfSpace;
  friend bool operator==(const BoxHalfSpacePair& a, const BoxHalfSpacePair& b) {
    return a.box == b.box && a.halfSpace == b.halfSpace;
  }
  friend bool operator<(const BoxHalfSpacePair& a, const BoxHalfSpacePair& b) {
    return a.box < b.box || (a.box == b.box && a.halfSpace < b.halfSpace);
  }
};

/// Uniform-grid broadphase over an AabbArrays.
///
/// Each box is mapped to the integer cells c = ⌊(x − origin)/h⌋ (per axis, clamped to
/// ±2^30 so that far or infinite bounds stay finite) it overlaps; the cells are hashed
/// into a table of 2^k ≥ (number of entries) buckets (no dense grid: memory is linear
/// in the entries whatever the scene extent). Counting pass, exclusive prefix sum, fill
/// (in box order with one thread; with several, each bucket is then sorted by box index),
/// duplicates from hash collisions dropped, so the layout does not depend on the thread
/// schedule. In each bucket every candidate pair is tested for overlap and reported only
/// by the bucket of the cell holding the minimum corner of the two boxes' intersection:
/// each pair once, no global deduplication. Boxes spanning more than
/// Options::maxCellsPerBox cells ("oversize": walls, infinite slabs, a few very large
/// bodies) stay out of the grid and are tested against every box (O(N) each). The pairs
/// of the per-thread buffers are then sorted by (i, j) (counted by i, placed, each box's
/// few partners sorted): the output is bit-identical for any thread count. Cost:
/// O(N + entries + candidates + N·oversize).
///
/// Repeated calls (a time loop): from the second grid build on, the boxes are inflated by
/// a skin (a fraction of the median largest edge, adapted to how long builds last) and the
/// build's pairs are kept; a later call whose every box lies in its inflated box (same
/// count, same groups) only filters the kept pairs by overlap, O(N + kept pairs). Every
/// overlapping pair is among the kept ones then, so the result is the same as a build's.
class UniformGridBroadphase {
 public:
  using Options = BroadphaseOptions;  ///< nsdyn/DetectionOptions.hpp
  /// Figures of the last findPairs call (cellSize, oversizeBoxes, entries, buckets: of the
  /// last grid build when the call filtered kept pairs).
  struct Statistics {
    double cellSize = 0.0;
    std::size_t boxes = 0;
    std::size_t oversizeBoxes = 0;
    std::size_t entries = 0;     ///< (bucket, box) entries after deduplication
    std::size_t buckets = 0;     ///< hash table size
    std::size_t candidates = 0;  ///< pairs tested in the buckets (kept pairs filtered: their count)
    std::size_t pairs = 0;
  };

  UniformGridBroadphase() = default;
  explicit UniformGridBroadphase(const Options& options) : options_(options) {}

  const Options& options() const { return options_; }
  void setOptions(const Options& options) { options_ = options; }

  /// Overlapping pairs (i < j), each once, sorted by (i, j). Throws nsdyn::Error on
  /// arrays of different sizes, NaN bounds, min > max, or more than 2^32 − 1 boxes.
  std::vector<BroadphasePair> findPairs(const AabbArrays& boxes);
  /// Same, into @p pairs (cleared first; its capacity and the internal buffers are reused).
  void findPairs(const AabbArrays& boxes, std::vector<BroadphasePair>& pairs);

  /// (box, half-space) pairs where the box's support point in −n reaches the plane:
  /// min over the box of n·x ≤ offset + margin (margin in units of |n|). Sorted by
  /// (box, half-space); the same for any thread count.
  static std::vector<BoxHalfSpacePair> findHalfSpacePairs(
      const AabbArrays& boxes, const std::vector<BroadphaseHalfSpace>& halfSpaces,
      double margin = 0.0, int threads = 0);

  const Statistics& statistics() const { return stats_; }

 private:
  /// One box as the pair loop reads it: bounds, group and lowest cell together (72 bytes).
  struct PackedBox {
    double min[3];
    double max[3];
    std::int64_t group;
    std::int32_t cell[3];
    std::int32_t pad;
  };

  /// The pairs of the inflated boxes of packed_ (a build), sorted, into cachePairs_.
  void buildPairs(std::size_t n, int nt, double h, const double* origin);
  /// cachePairs_ whose boxes of @p b overlap, in order, into @p pairs.
  void filterCachedPairs(const AabbArrays& b, int nt, std::vector<BroadphasePair>& pairs);

  // The skin of a build, relative to the median largest edge: boxes are inflated by it,
  // and the build serves the next calls while every box stays in its inflated box.
  static constexpr double kStartSkin = 1.0 / 16.0;
  static constexpr double kMinSkin = 1.0 / 64.0;
  static constexpr double kMaxSkin = 0.125;

  Options options_;
  Statistics stats_;
  bool cacheValid_ = false;  // packed_ and cachePairs_ hold a build
  bool hasGroups_ = false;   // the build had groups
  bool skinOff_ = false;     // the skin was dropped (the boxes move by more than it)
  double skin_ = 0.0;        // relative skin of the next build
  long cacheReuses_ = 0;     // calls served by the current build
  long buildsWithoutSkin_ = 0;
  std::vector<BroadphasePair> cachePairs_;
  // Reused buffers.
  std::vector<std::int32_t> lo_, hi_;  // 3 per box: cell ranges
  std::vector<std::uint8_t> oversize_;
  std::vector<double> edges_;  // largest edge of each finite box (median)
  std::vector<std::uint32_t> bucketStart_, bucketFill_,
      entries_;                              // bucket bk: entries_[start, fill)
  std::vector<std::uint32_t> oversizeList_;  // oversize boxes, increasing
  std::vector<std::size_t> pairStart_,
      pairFill_;                   // the pairs of box i: pairs[pairStart_[i], pairStart_[i + 1])
  std::vector<PackedBox> packed_;  // the inflated boxes of the last build
  std::vector<std::vector<BroadphasePair>> threadPairs_;
};

}  // namespace nsdyn

#endif
