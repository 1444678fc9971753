#include "nsdyn/CylinderShape.hpp"

#include <cmath>

namespace nsdyn {

CylinderShape::CylinderShape(double radius, double halfLength)
    : radius_(radius), halfLength_(halfLength) {
  requirePositive("CylinderShape", "radius", radius);
  requirePositive("CylinderShape", "halfLength", halfLength);
}

double CylinderShape::volume() const {
  return M_PI * radius_ * radius_ * 2.0 * halfLength_;
}

Shape::Mat3 CylinderShape::inertiaPerUnitDensity() const {
  const double v = volume(), r2 = radius_ * radius_, h = 2.0 * halfLength_;
  const double t = v * (3.0 * r2 + h * h) / 12.0;
  return Mat3{Vec3{t, 0.0, 0.0}, Vec3{0.0, t, 0.0}, Vec3{0.0, 0.0, v * r2 / 2.0}};
}

Shape::Vec3 CylinderShape::support(const Vec3& d) const {
  const double z = d[2] < 0.0 ? -halfLength_ : halfLength_;
  const double t = std::hypot(d[0], d[1]);
  if (!(t > 0.0)) return {0.0, 0.0, z};
  return {radius_ * d[0] / t, radius_ * d[1] / t, z};
}

double CylinderShape::characteristicSize() const {
  return std::hypot(radius_, halfLength_);
}

}  // namespace nsdyn
