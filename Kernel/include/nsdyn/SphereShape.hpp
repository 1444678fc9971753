/// @file SphereShape.hpp
/// @brief Sphere centred at the shape origin.
#ifndef NSDYN_KERNEL_SPHERESHAPE_HPP
#define NSDYN_KERNEL_SPHERESHAPE_HPP

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/Shape.hpp"

namespace nsdyn {

/// Sphere of radius r about the origin: V = 4/3 π r³, I = 2/5 V r² (per unit density).
class NSDYN_KERNEL_API SphereShape : public Shape {
 public:
  explicit SphereShape(double radius);
  ShapeKind kind() const override { return ShapeKind::Sphere; }
  std::string kindName() const override { return "SphereShape"; }
  double volume() const override;
  Mat3 inertiaPerUnitDensity() const override;
  Vec3 support(const Vec3& d) const override;
  double characteristicSize() const override { return radius_; }
  /// Closed form (centre ± r, any orientation): the broadphase's per-step cost.
  Aabb boundingBox(const Vec3& position, const Quat& orientation) const override;
  double radius() const { return radius_; }

 private:
  double radius_;
};

}  // namespace nsdyn

#endif
