#include "nsdyn/HalfSpaceShape.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include "nsdyn/Error.hpp"

namespace nsdyn {

namespace {
constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double parallelTol = 1e-12;
}  // namespace

HalfSpaceShape::HalfSpaceShape(const Vec3& normal, double offset) {
  const double n = std::sqrt(quaternion::dot(normal, normal));
  if (!std::isfinite(n) || !(n > 0.0)) {
    std::ostringstream s;
    s.precision(17);
    s << "normal = (" << normal[0] << ", " << normal[1] << ", " << normal[2] << ")";
    throw Error("HalfSpaceShape", "a finite non-zero normal", s.str());
  }
  if (!std::isfinite(offset)) {
    std::ostringstream s;
    s << "offset = " << offset;
    throw Error("HalfSpaceShape", "a finite offset", s.str());
  }
  normal_ = {normal[0] / n, normal[1] / n, normal[2] / n};
  offset_ = offset / n;
}

double HalfSpaceShape::volume() const {
  return inf;
}

Shape::Vec3 HalfSpaceShape::centroid() const {
  return {offset_ * normal_[0], offset_ * normal_[1], offset_ * normal_[2]};
}

Shape::Mat3 HalfSpaceShape::inertiaPerUnitDensity() const {
  return Mat3{Vec3{inf, 0.0, 0.0}, Vec3{0.0, inf, 0.0}, Vec3{0.0, 0.0, inf}};
}

double HalfSpaceShape::characteristicSize() const {
  return inf;
}

Shape::Vec3 HalfSpaceShape::support(const Vec3& d) const {
  const double dn = quaternion::dot(d, normal_);
  const Vec3 t{d[0] - dn * normal_[0], d[1] - dn * normal_[1], d[2] - dn * normal_[2]};
  const double dl = std::sqrt(quaternion::dot(d, d));
  const bool alongNormal = std::sqrt(quaternion::dot(t, t)) <= parallelTol * dl;
  Vec3 p = centroid();
  if (alongNormal && dn > 0.0) return p;
  for (std::size_t i = 0; i < 3; ++i) {
    if (alongNormal) {
      if (normal_[i] != 0.0) p[i] = normal_[i] > 0.0 ? -inf : inf;  // d along −n: unbounded inside
    } else if (t[i] > parallelTol * dl) {
      p[i] = inf;
    } else if (t[i] < -parallelTol * dl) {
      p[i] = -inf;
    }
  }
  return p;
}

Shape::Aabb HalfSpaceShape::boundingBox(const Vec3& position, const Quat& orientation) const {
  // World half-space: nw·x ≤ offset + nw·position.
  const Vec3 nw = quaternion::rotate(orientation, normal_);
  const double ow = offset_ + quaternion::dot(nw, position);
  Aabb box{Vec3{-inf, -inf, -inf}, Vec3{inf, inf, inf}};
  for (std::size_t i = 0; i < 3; ++i) {
    const double other = std::hypot(nw[(i + 1) % 3], nw[(i + 2) % 3]);
    if (other > parallelTol) continue;
    if (nw[i] > 0.0)
      box.max[i] = ow;  // x_i ≤ ow
    else
      box.min[i] = -ow;  // −x_i ≤ ow
  }
  return box;
}

}  // namespace nsdyn
