// Narrowphase: poses and contact points (see nsdyn/Narrowphase.hpp).
#include "nsdyn/Narrowphase.hpp"

#include "NarrowphaseMath.hpp"

namespace nsdyn {
namespace narrowphase {

// rotations by the stack copies of NarrowphaseMath.hpp: the bits of quaternion::rotate*
Vec3 Pose::toWorld(const Vec3& x) const {
  return detail::add(position, detail::rotateExact(orientation, x));
}

Vec3 Pose::toBody(const Vec3& x) const {
  return detail::rotateTransposeExact(orientation, detail::sub(x, position));
}

Vec3 Pose::rotate(const Vec3& v) const {
  return detail::rotateExact(orientation, v);
}

Pose Pose::fromVector(const SiconosVector& q, std::size_t offset) {
  Pose p;
  p.position = quaternion::vec3(q, offset);
  p.orientation = quaternion::fromVector(q, offset + 3);
  return p;
}

ContactPoint ContactPoint::swapped() const {
  ContactPoint c;
  c.pointA = pointB;
  c.pointB = pointA;
  c.normal = {-normal[0], -normal[1], -normal[2]};
  c.gap = gap;
  c.featureA = featureB;
  c.featureB = featureA;
  return c;
}

}  // namespace narrowphase
}  // namespace nsdyn
