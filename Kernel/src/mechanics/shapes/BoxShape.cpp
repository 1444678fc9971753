#include "nsdyn/BoxShape.hpp"

#include <cmath>

namespace nsdyn {

BoxShape::BoxShape(const Vec3& halfExtents) : half_(halfExtents) {
  requirePositive("BoxShape", "half-extent x", halfExtents[0]);
  requirePositive("BoxShape", "half-extent y", halfExtents[1]);
  requirePositive("BoxShape", "half-extent z", halfExtents[2]);
}

double BoxShape::volume() const {
  return 8.0 * half_[0] * half_[1] * half_[2];
}

Shape::Mat3 BoxShape::inertiaPerUnitDensity() const {
  const double v = volume();
  const double a2 = half_[0] * half_[0], b2 = half_[1] * half_[1], c2 = half_[2] * half_[2];
  return Mat3{Vec3{v * (b2 + c2) / 3.0, 0.0, 0.0}, Vec3{0.0, v * (a2 + c2) / 3.0, 0.0},
              Vec3{0.0, 0.0, v * (a2 + b2) / 3.0}};
}

Shape::Vec3 BoxShape::support(const Vec3& d) const {
  return {d[0] < 0.0 ? -half_[0] : half_[0], d[1] < 0.0 ? -half_[1] : half_[1],
          d[2] < 0.0 ? -half_[2] : half_[2]};
}

double BoxShape::characteristicSize() const {
  return std::sqrt(quaternion::dot(half_, half_));
}

Shape::Aabb BoxShape::boundingBox(const Vec3& position, const Quat& orientation) const {
  Aabb box{};
  for (std::size_t i = 0; i < 3; ++i) {
    // row i of R: the world axis i in the box frame
    Vec3 e{0.0, 0.0, 0.0};
    e[i] = 1.0;
    const Vec3 row = quaternion::rotateTranspose(orientation, e);
    const double extent =
        std::fabs(row[0]) * half_[0] + std::fabs(row[1]) * half_[1] + std::fabs(row[2]) * half_[2];
    box.min[i] = position[i] - extent;
    box.max[i] = position[i] + extent;
  }
  return box;
}

}  // namespace nsdyn
