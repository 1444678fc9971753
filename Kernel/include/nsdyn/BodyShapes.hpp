/// @file BodyShapes.hpp
/// @brief A body (dynamic NewtonEulerDS or static pose) and the shapes attached to it.
#ifndef NSDYN_KERNEL_BODYSHAPES_HPP
#define NSDYN_KERNEL_BODYSHAPES_HPP

#include <vector>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/NewtonEulerDS.hpp"
#include "nsdyn/ShapeInstance.hpp"

namespace nsdyn {

/// Shapes of one body. Dynamic: a NewtonEulerDS whose frame is centred at the
/// centre of mass, the shape offsets given in that frame (makeBody re-expresses
/// them). Static (infinite mass, no NewtonEulerDS, e.g. half-spaces, walls): a fixed
/// pose. The pose of a dynamic body is read from its q.
class NSDYN_KERNEL_API BodyShapes {
 public:
  /// Dynamic body; throws nsdyn::Error for a null body, no shape, or a null shape.
  BodyShapes(SP::NewtonEulerDS body, std::vector<ShapeInstance> shapes);
  /// Static body at (@p position, @p orientation); throws for no shape, or a null shape.
  BodyShapes(std::vector<ShapeInstance> shapes, const Shape::Vec3& position,
             const Shape::Quat& orientation);

  bool isStatic() const { return !body_; }
  /// Null for a static body.
  const SP::NewtonEulerDS& body() const { return body_; }
  const std::vector<ShapeInstance>& shapes() const { return shapes_; }
  /// Body frame origin (the centre of mass of a dynamic body) and rotation body → world.
  Shape::Vec3 position() const;
  Shape::Quat orientation() const;
  /// Union of the world AABBs of the shapes at the current pose (infinite for half-spaces).
  Shape::Aabb boundingBox() const;

 private:
  SP::NewtonEulerDS body_;
  std::vector<ShapeInstance> shapes_;
  Shape::Vec3 position_{0.0, 0.0, 0.0};
  Shape::Quat orientation_{1.0, 0.0, 0.0, 0.0};
};

}  // namespace nsdyn

#endif
