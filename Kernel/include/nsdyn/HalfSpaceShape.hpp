/// @file HalfSpaceShape.hpp
/// @brief Static half-space n·x ≤ offset (a plane with its inside).
#ifndef NSDYN_KERNEL_HALFSPACESHAPE_HPP
#define NSDYN_KERNEL_HALFSPACESHAPE_HPP

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/Shape.hpp"

namespace nsdyn {

/// The points x of the shape frame with n·x ≤ offset, n the unit outward normal
/// (the constructor normalises @p normal and scales @p offset with it, so
/// (2n, 2d) is the same half-space as (n, d)). Infinite: volume() and the
/// inertia are +∞, it belongs only to static bodies (makeStaticBody). support(d)
/// is the point offset·n for d along +n and a point with ±∞ components otherwise;
/// boundingBox is bounded only along a world axis parallel to the normal.
class NSDYN_KERNEL_API HalfSpaceShape : public Shape {
 public:
  HalfSpaceShape(const Vec3& normal, double offset);
  ShapeKind kind() const override { return ShapeKind::HalfSpace; }
  std::string kindName() const override { return "HalfSpaceShape"; }
  double volume() const override;
  /// offset·n: the point of the boundary plane nearest the origin.
  Vec3 centroid() const override;
  Mat3 inertiaPerUnitDensity() const override;
  Vec3 support(const Vec3& d) const override;
  double characteristicSize() const override;
  bool isFinite() const override { return false; }
  Aabb boundingBox(const Vec3& position, const Quat& orientation) const override;
  const Vec3& normal() const { return normal_; }
  double offset() const { return offset_; }

 private:
  Vec3 normal_;
  double offset_;
};

}  // namespace nsdyn

#endif
