// Shape base: world AABB from the support map, size checks.
#include "nsdyn/Shape.hpp"

#include <cmath>
#include <sstream>

#include "nsdyn/Error.hpp"

namespace nsdyn {

Shape::Vec3 Shape::supportWorld(const Vec3& d, const Vec3& position,
                                const Quat& orientation) const {
  const Vec3 local = support(quaternion::rotateTranspose(orientation, d));
  const Vec3 w = quaternion::rotate(orientation, local);
  return {position[0] + w[0], position[1] + w[1], position[2] + w[2]};
}

Shape::Aabb Shape::boundingBox(const Vec3& position, const Quat& orientation) const {
  Aabb box{};
  for (std::size_t i = 0; i < 3; ++i) {
    Vec3 e{0.0, 0.0, 0.0};
    e[i] = 1.0;
    box.max[i] = supportWorld(e, position, orientation)[i];
    e[i] = -1.0;
    box.min[i] = supportWorld(e, position, orientation)[i];
  }
  return box;
}

Shape::Vec3 Shape::localHalfExtents() const {
  const Aabb b = localBoundingBox();
  return {0.5 * (b.max[0] - b.min[0]), 0.5 * (b.max[1] - b.min[1]), 0.5 * (b.max[2] - b.min[2])};
}

void Shape::requirePositive(const std::string& object, const std::string& what, double value) {
  if (std::isfinite(value) && value > 0.0) return;
  std::ostringstream s;
  s.precision(17);
  s << what << " = " << value;
  throw Error(object, what + " finite and > 0", s.str());
}

}  // namespace nsdyn
