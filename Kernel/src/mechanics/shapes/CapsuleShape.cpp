#include "nsdyn/CapsuleShape.hpp"

#include <cmath>

namespace nsdyn {

CapsuleShape::CapsuleShape(double radius, double halfLength)
    : radius_(radius), halfLength_(halfLength) {
  requirePositive("CapsuleShape", "radius", radius);
  requirePositive("CapsuleShape", "halfLength", halfLength);
}

double CapsuleShape::volume() const {
  const double r = radius_;
  return M_PI * r * r * 2.0 * halfLength_ + 4.0 / 3.0 * M_PI * r * r * r;
}

Shape::Mat3 CapsuleShape::inertiaPerUnitDensity() const {
  const double r = radius_, L = halfLength_, h = 2.0 * L;
  const double vc = M_PI * r * r * h;              // cylinder
  const double vs = 4.0 / 3.0 * M_PI * r * r * r;  // both hemispheres
  const double axial = vc * r * r / 2.0 + 0.4 * vs * r * r;
  // Each hemisphere (volume vs/2): 2/5 r² about its flat face centre, minus (3r/8)²
  // to its centroid, plus (L + 3r/8)² out to the capsule centre.
  const double hemi =
      0.4 * r * r - (3.0 * r / 8.0) * (3.0 * r / 8.0) + (L + 3.0 * r / 8.0) * (L + 3.0 * r / 8.0);
  const double transverse = vc * (3.0 * r * r + h * h) / 12.0 + vs * hemi;
  return Mat3{Vec3{transverse, 0.0, 0.0}, Vec3{0.0, transverse, 0.0}, Vec3{0.0, 0.0, axial}};
}

Shape::Vec3 CapsuleShape::support(const Vec3& d) const {
  const double n = std::sqrt(quaternion::dot(d, d));
  const double z = d[2] < 0.0 ? -halfLength_ : halfLength_;
  if (!(n > 0.0)) return {radius_, 0.0, z};
  return {radius_ * d[0] / n, radius_ * d[1] / n, z + radius_ * d[2] / n};
}

}  // namespace nsdyn
