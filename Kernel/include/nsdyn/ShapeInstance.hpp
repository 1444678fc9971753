/// @file ShapeInstance.hpp
/// @brief A shape placed in a body frame (offset pose).
#ifndef NSDYN_KERNEL_SHAPEINSTANCE_HPP
#define NSDYN_KERNEL_SHAPEINSTANCE_HPP

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/Shape.hpp"

namespace nsdyn {

/// A shape attached to a body: the shape frame sits at @p position with rotation
/// @p orientation (shape → body, unit quaternion, scalar first) in the body frame.
/// Shapes are shared (one SphereShape for 10,000 grains).
struct NSDYN_KERNEL_API ShapeInstance {
  SP::Shape shape;
  Shape::Vec3 position{0.0, 0.0, 0.0};
  Shape::Quat orientation{1.0, 0.0, 0.0, 0.0};

  /// The shape's pose in the world for a body at (@p bodyPosition, @p bodyOrientation).
  Shape::Vec3 worldPosition(const Shape::Vec3& bodyPosition,
                            const Shape::Quat& bodyOrientation) const;
  Shape::Quat worldOrientation(const Shape::Quat& bodyOrientation) const;
  /// World AABB of the shape for a body at that pose.
  Shape::Aabb boundingBox(const Shape::Vec3& bodyPosition,
                          const Shape::Quat& bodyOrientation) const;
};

}  // namespace nsdyn

#endif
