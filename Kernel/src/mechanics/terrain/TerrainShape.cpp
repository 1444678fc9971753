// TerrainShape: the Shape queries of a static surface of triangles.
#include "nsdyn/TerrainShape.hpp"

#include <cmath>
#include <limits>

#include "mechanics/narrowphase/NarrowphaseMath.hpp"

namespace nsdyn {

double TerrainShape::volume() const {
  return std::numeric_limits<double>::infinity();
}

Shape::Mat3 TerrainShape::inertiaPerUnitDensity() const {
  const double inf = std::numeric_limits<double>::infinity();
  return Mat3{Vec3{inf, 0.0, 0.0}, Vec3{0.0, inf, 0.0}, Vec3{0.0, 0.0, inf}};
}

Shape::Vec3 TerrainShape::centroid() const {
  return {0.5 * (bounds_.min[0] + bounds_.max[0]), 0.5 * (bounds_.min[1] + bounds_.max[1]),
          0.5 * (bounds_.min[2] + bounds_.max[2])};
}

Shape::Vec3 TerrainShape::support(const Vec3& d) const {
  Vec3 best = vertex(0);
  double bestDot = quaternion::dot(best, d);
  const auto n = static_cast<std::int32_t>(vertexCount());
  for (std::int32_t v = 1; v < n; ++v) {
    const Vec3 p = vertex(v);
    const double h = quaternion::dot(p, d);
    if (h > bestDot) {
      bestDot = h;
      best = p;
    }
  }
  return best;
}

double TerrainShape::characteristicSize() const {
  double s = 0.0;
  for (std::size_t k = 0; k < 3; ++k) s += std::pow(bounds_.max[k] - bounds_.min[k], 2);
  return 0.5 * std::sqrt(s);
}

Shape::Aabb TerrainShape::boundingBox(const Vec3& position, const Quat& orientation) const {
  const double inf = std::numeric_limits<double>::infinity();
  Aabb box{{inf, inf, inf}, {-inf, -inf, -inf}};
  for (int c = 0; c < 8; ++c) {
    const Vec3 corner{(c & 1) ? bounds_.max[0] : bounds_.min[0],
                      (c & 2) ? bounds_.max[1] : bounds_.min[1],
                      (c & 4) ? bounds_.max[2] : bounds_.min[2]};
    const Vec3 w = narrowphase::detail::rotateExact(orientation, corner);
    for (std::size_t k = 0; k < 3; ++k) {
      box.min[k] = std::min(box.min[k], position[k] + w[k]);
      box.max[k] = std::max(box.max[k], position[k] + w[k]);
    }
  }
  return box;
}

}  // namespace nsdyn
