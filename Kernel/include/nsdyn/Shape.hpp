/// @file Shape.hpp
/// @brief Abstract convex shape with exact mass properties (shape frame).
#ifndef NSDYN_KERNEL_SHAPE_HPP
#define NSDYN_KERNEL_SHAPE_HPP

#include <array>
#include <memory>
#include <string>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/Quaternion.hpp"

namespace nsdyn {

/// The kinds of shapes (for I/O and the narrowphase dispatch).
/// TriangleMesh and Heightfield are the static terrains (TerrainShape).
enum class ShapeKind {
  Sphere,
  Box,
  Capsule,
  Cylinder,
  ConvexHull,
  HalfSpace,
  TriangleMesh,
  Heightfield
};

/// A convex shape in its own frame. Mass properties are per unit density:
/// volume(), centroid() (shape frame), inertiaPerUnitDensity() (3×3, about the
/// centroid, shape frame axes): multiply by a density ρ for the mass ρV and the
/// inertia ρ I. support(d) is the farthest point in direction d (shape frame),
/// the map GJK/MPR need. Shapes are immutable once built; constructors check
/// their sizes (finite, > 0) and throw nsdyn::Error naming the shape and the value.
class NSDYN_KERNEL_API Shape {
 public:
  using Vec3 = quaternion::Vec3;
  using Quat = quaternion::Quat;
  using Mat3 = std::array<Vec3, 3>;
  /// Axis-aligned box [min, max].
  struct Aabb {
    Vec3 min;
    Vec3 max;
  };

  virtual ~Shape() = default;

  virtual ShapeKind kind() const = 0;
  /// "SphereShape", "BoxShape", ...
  virtual std::string kindName() const = 0;
  /// Volume (+∞ for a half-space).
  virtual double volume() const = 0;
  /// Centre of volume in the shape frame.
  virtual Vec3 centroid() const { return {0.0, 0.0, 0.0}; }
  /// Inertia per unit density about the centroid, shape-frame axes.
  virtual Mat3 inertiaPerUnitDensity() const = 0;
  /// Farthest point of the shape in direction @p d (shape frame); d need not be
  /// unit. Ties are broken deterministically; d = 0 gives some point of the shape.
  virtual Vec3 support(const Vec3& d) const = 0;
  /// Radius of the smallest sphere about the centroid containing the shape (+∞ for a half-space).
  virtual double characteristicSize() const = 0;
  /// False for the infinite (static only) half-space.
  virtual bool isFinite() const { return true; }

  /// World AABB of the shape placed at (@p position, @p orientation) (shape → world):
  /// the support points in ±x, ±y, ±z, hence exact for every convex shape here.
  virtual Aabb boundingBox(const Vec3& position, const Quat& orientation) const;
  /// AABB in the shape frame (boundingBox at the identity pose).
  Aabb localBoundingBox() const { return boundingBox({0.0, 0.0, 0.0}, {1.0, 0.0, 0.0, 0.0}); }
  /// Half-extents of localBoundingBox().
  Vec3 localHalfExtents() const;
  /// position + R support(Rᵀ d): the support point of the placed shape in world direction d.
  Vec3 supportWorld(const Vec3& d, const Vec3& position, const Quat& orientation) const;

 protected:
  /// Throws nsdyn::Error("<object>", "<what> finite and > 0", "<what> = v") unless v is finite and
  /// > 0.
  static void requirePositive(const std::string& object, const std::string& what, double value);
};

namespace SP {
using Shape = std::shared_ptr<const nsdyn::Shape>;
}

}  // namespace nsdyn

#endif
