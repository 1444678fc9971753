#include "nsdyn/SphereShape.hpp"

#include <cmath>

namespace nsdyn {

SphereShape::SphereShape(double radius) : radius_(radius) {
  requirePositive("SphereShape", "radius", radius);
}

double SphereShape::volume() const {
  return 4.0 / 3.0 * M_PI * radius_ * radius_ * radius_;
}

Shape::Mat3 SphereShape::inertiaPerUnitDensity() const {
  const double i = 0.4 * volume() * radius_ * radius_;
  return Mat3{Vec3{i, 0.0, 0.0}, Vec3{0.0, i, 0.0}, Vec3{0.0, 0.0, i}};
}

Shape::Vec3 SphereShape::support(const Vec3& d) const {
  const double n = std::sqrt(quaternion::dot(d, d));
  if (!(n > 0.0)) return {radius_, 0.0, 0.0};
  return {radius_ * d[0] / n, radius_ * d[1] / n, radius_ * d[2] / n};
}

Shape::Aabb SphereShape::boundingBox(const Vec3& position, const Quat& /*orientation*/) const {
  return Aabb{{position[0] - radius_, position[1] - radius_, position[2] - radius_},
              {position[0] + radius_, position[1] + radius_, position[2] + radius_}};
}

}  // namespace nsdyn
