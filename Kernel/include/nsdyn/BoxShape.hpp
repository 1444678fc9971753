/// @file BoxShape.hpp
/// @brief Rectangular box centred at the shape origin, given by its half-extents.
#ifndef NSDYN_KERNEL_BOXSHAPE_HPP
#define NSDYN_KERNEL_BOXSHAPE_HPP

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/Shape.hpp"

namespace nsdyn {

/// Box [−a, a] × [−b, b] × [−c, c]: the constructor takes the **half-extents**
/// (a, b, c) (full sizes 2a, 2b, 2c). V = 8abc, I = V/3 diag(b²+c², a²+c², a²+b²)
/// (= m/12 of the full sizes squared).
class NSDYN_KERNEL_API BoxShape : public Shape {
 public:
  explicit BoxShape(const Vec3& halfExtents);
  ShapeKind kind() const override { return ShapeKind::Box; }
  std::string kindName() const override { return "BoxShape"; }
  double volume() const override;
  Mat3 inertiaPerUnitDensity() const override;
  Vec3 support(const Vec3& d) const override;
  double characteristicSize() const override;
  /// Closed form: centre ± |R| h (R the rotation, h the half extents).
  Aabb boundingBox(const Vec3& position, const Quat& orientation) const override;
  const Vec3& halfExtents() const { return half_; }

 private:
  Vec3 half_;
};

}  // namespace nsdyn

#endif
