/// @file CapsuleShape.hpp
/// @brief Capsule (sphere-swept segment) along the shape z axis.
#ifndef NSDYN_KERNEL_CAPSULESHAPE_HPP
#define NSDYN_KERNEL_CAPSULESHAPE_HPP

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/Shape.hpp"

namespace nsdyn {

/// Points within @p radius of the segment z ∈ [−halfLength, halfLength] of the z axis:
/// a cylinder of length 2·halfLength capped by two hemispheres (total length
/// 2·halfLength + 2·radius). Mass properties: cylinder + two hemispheres, each
/// hemisphere's centroid at halfLength + 3r/8 from the centre.
class NSDYN_KERNEL_API CapsuleShape : public Shape {
 public:
  CapsuleShape(double radius, double halfLength);
  ShapeKind kind() const override { return ShapeKind::Capsule; }
  std::string kindName() const override { return "CapsuleShape"; }
  double volume() const override;
  Mat3 inertiaPerUnitDensity() const override;
  Vec3 support(const Vec3& d) const override;
  double characteristicSize() const override { return radius_ + halfLength_; }
  double radius() const { return radius_; }
  double halfLength() const { return halfLength_; }

 private:
  double radius_, halfLength_;
};

}  // namespace nsdyn

#endif
