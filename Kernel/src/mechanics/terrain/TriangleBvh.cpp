// AABB tree of triangles (see TriangleBvh.hpp).
#include "mechanics/terrain/TriangleBvh.hpp"

#include <algorithm>

namespace nsdyn {
namespace detail {

namespace {
bool overlaps(const Shape::Aabb& a, const Shape::Aabb& b) {
  for (std::size_t k = 0; k < 3; ++k)
    if (a.max[k] < b.min[k] || b.max[k] < a.min[k]) return false;
  return true;
}
double centre(const Shape::Aabb& b, std::size_t k) {
  return 0.5 * (b.min[k] + b.max[k]);
}
}  // namespace

TriangleBvh::TriangleBvh(const std::vector<Shape::Aabb>& boxes) {
  const auto n = static_cast<std::int32_t>(boxes.size());
  items_.resize(boxes.size());
  for (std::int32_t i = 0; i < n; ++i) items_[static_cast<std::size_t>(i)] = i;
  nodes_.reserve(2 * boxes.size() / kLeafSize + 2);
  nodes_.emplace_back();
  if (n > 0) build(boxes);
  itemBoxes_.reserve(items_.size());
  for (std::int32_t i : items_) itemBoxes_.push_back(boxes[static_cast<std::size_t>(i)]);
}

// Fills the nodes from the root (node 0, allocated), depth first with an explicit stack: each
// task fills an allocated node from a range of items_, allocating its two children.
void TriangleBvh::build(const std::vector<Shape::Aabb>& boxes) {
  struct Task {
    std::int32_t node, begin, end;
  };
  std::vector<Task> stack{{0, 0, static_cast<std::int32_t>(items_.size())}};
  while (!stack.empty()) {
    const Task t = stack.back();
    stack.pop_back();
    Shape::Aabb box = boxes[static_cast<std::size_t>(items_[static_cast<std::size_t>(t.begin)])];
    Shape::Aabb cbox{{centre(box, 0), centre(box, 1), centre(box, 2)},
                     {centre(box, 0), centre(box, 1), centre(box, 2)}};
    for (std::int32_t i = t.begin + 1; i < t.end; ++i) {
      const Shape::Aabb& b = boxes[static_cast<std::size_t>(items_[static_cast<std::size_t>(i)])];
      for (std::size_t k = 0; k < 3; ++k) {
        box.min[k] = std::min(box.min[k], b.min[k]);
        box.max[k] = std::max(box.max[k], b.max[k]);
        cbox.min[k] = std::min(cbox.min[k], centre(b, k));
        cbox.max[k] = std::max(cbox.max[k], centre(b, k));
      }
    }
    Node& node = nodes_[static_cast<std::size_t>(t.node)];
    node.box = box;
    if (t.end - t.begin <= kLeafSize) {
      node.first = t.begin;
      node.count = t.end - t.begin;
      continue;
    }
    std::size_t axis = 0;
    for (std::size_t k = 1; k < 3; ++k)
      if (cbox.max[k] - cbox.min[k] > cbox.max[axis] - cbox.min[axis]) axis = k;
    const std::int32_t mid = t.begin + (t.end - t.begin) / 2;
    auto first = items_.begin() + t.begin;
    std::nth_element(first, items_.begin() + mid, items_.begin() + t.end,
                     [&](std::int32_t a, std::int32_t b) {
                       const double ca = centre(boxes[static_cast<std::size_t>(a)], axis);
                       const double cb = centre(boxes[static_cast<std::size_t>(b)], axis);
                       return ca < cb || (ca == cb && a < b);
                     });
    const auto child = static_cast<std::int32_t>(nodes_.size());
    nodes_[static_cast<std::size_t>(t.node)].first = child;  // node may move: index again
    nodes_[static_cast<std::size_t>(t.node)].count = 0;
    nodes_.emplace_back();
    nodes_.emplace_back();
    stack.push_back({child + 1, mid, t.end});
    stack.push_back({child, t.begin, mid});
  }
}

void TriangleBvh::query(const Shape::Aabb& box, std::vector<std::int32_t>& out) const {
  out.clear();
  if (items_.empty()) return;
  std::int32_t stack[128];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes_[static_cast<std::size_t>(stack[--top])];
    if (!overlaps(node.box, box)) continue;
    if (node.count > 0) {
      for (std::int32_t i = node.first; i < node.first + node.count; ++i)
        if (overlaps(itemBoxes_[static_cast<std::size_t>(i)], box))
          out.push_back(items_[static_cast<std::size_t>(i)]);
    } else {
      stack[top++] = node.first + 1;
      stack[top++] = node.first;
    }
  }
  std::sort(out.begin(), out.end());
}

}  // namespace detail
}  // namespace nsdyn
