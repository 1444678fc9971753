#include "nsdyn/ShapeInstance.hpp"

namespace nsdyn {

Shape::Vec3 ShapeInstance::worldPosition(const Shape::Vec3& bodyPosition,
                                         const Shape::Quat& bodyOrientation) const {
  const Shape::Vec3 r = quaternion::rotate(bodyOrientation, position);
  return {bodyPosition[0] + r[0], bodyPosition[1] + r[1], bodyPosition[2] + r[2]};
}

Shape::Quat ShapeInstance::worldOrientation(const Shape::Quat& bodyOrientation) const {
  return quaternion::multiply(bodyOrientation, orientation);
}

Shape::Aabb ShapeInstance::boundingBox(const Shape::Vec3& bodyPosition,
                                       const Shape::Quat& bodyOrientation) const {
  return shape->boundingBox(worldPosition(bodyPosition, bodyOrientation),
                            worldOrientation(bodyOrientation));
}

}  // namespace nsdyn
