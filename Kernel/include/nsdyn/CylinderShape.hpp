/// @file CylinderShape.hpp
/// @brief Solid circular cylinder along the shape z axis.
#ifndef NSDYN_KERNEL_CYLINDERSHAPE_HPP
#define NSDYN_KERNEL_CYLINDERSHAPE_HPP

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/Shape.hpp"

namespace nsdyn {

/// x² + y² ≤ r², |z| ≤ halfLength (height h = 2·halfLength): V = π r² h,
/// I = V diag((3r² + h²)/12, (3r² + h²)/12, r²/2).
class NSDYN_KERNEL_API CylinderShape : public Shape {
 public:
  CylinderShape(double radius, double halfLength);
  ShapeKind kind() const override { return ShapeKind::Cylinder; }
  std::string kindName() const override { return "CylinderShape"; }
  double volume() const override;
  Mat3 inertiaPerUnitDensity() const override;
  Vec3 support(const Vec3& d) const override;
  double characteristicSize() const override;
  double radius() const { return radius_; }
  double halfLength() const { return halfLength_; }

 private:
  double radius_, halfLength_;
};

}  // namespace nsdyn

#endif
