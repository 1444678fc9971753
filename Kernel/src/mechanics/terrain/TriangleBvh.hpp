// Bounding-volume hierarchy of triangles (internal): an AABB tree in flat arrays.
#ifndef NSDYN_KERNEL_TRIANGLE_BVH_HPP
#define NSDYN_KERNEL_TRIANGLE_BVH_HPP

#include <cstdint>
#include <vector>

#include "nsdyn/Shape.hpp"

namespace nsdyn {
namespace detail {

/// AABB tree over boxes (one per triangle), built once: the boxes' centres are split at the
/// median along the longest axis of their extent until at most kLeafSize remain. Nodes live in
/// arrays (node 0 the root; an inner node's children are `first` and `first + 1`; a leaf holds
/// `count` > 0 entries of `items` from `first`). query() visits the tree with a stack.
class TriangleBvh {
 public:
  static constexpr int kLeafSize = 4;
  explicit TriangleBvh(const std::vector<Shape::Aabb>& boxes);

  /// Indices of the boxes meeting @p box (closed intervals), in increasing order, appended to
  /// @p out after clearing it.
  void query(const Shape::Aabb& box, std::vector<std::int32_t>& out) const;
  std::size_t nodeCount() const { return nodes_.size(); }

 private:
  struct Node {
    Shape::Aabb box;
    std::int32_t first = 0;
    std::int32_t count = 0;  // > 0: leaf
  };
  void build(const std::vector<Shape::Aabb>& boxes);

  std::vector<Node> nodes_;
  std::vector<std::int32_t> items_;
  std::vector<Shape::Aabb> itemBoxes_;  // boxes in items_ order
};

}  // namespace detail
}  // namespace nsdyn

#endif
