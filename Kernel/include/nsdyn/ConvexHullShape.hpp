/// @file ConvexHullShape.hpp
/// @brief Convex hull of a point cloud (Qhull), with exact polyhedral mass properties.
#ifndef NSDYN_KERNEL_CONVEXHULLSHAPE_HPP
#define NSDYN_KERNEL_CONVEXHULLSHAPE_HPP

#include <vector>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/Shape.hpp"

namespace nsdyn {

/// Convex hull of @p points (shape frame), computed by Qhull (libqhull_r, option
/// "Qt": triangulated facets). Interior points are dropped: vertices() keeps only
/// the hull vertices (in input order), triangles() the outward-oriented (counter-
/// clockwise seen from outside) facet triangles as indices into vertices().
/// Volume, centroid and inertia are exact (divergence theorem: a sum over the
/// tetrahedra joining an interior point to each facet triangle).
/// Throws nsdyn::Error for fewer than 4 points, non-finite coordinates, or points
/// without 4 affinely independent ones (coplanar, collinear, duplicates: Qhull's
/// "initial simplex is flat" is reported as such).
class NSDYN_KERNEL_API ConvexHullShape : public Shape {
 public:
  explicit ConvexHullShape(const std::vector<Vec3>& points);
  ShapeKind kind() const override { return ShapeKind::ConvexHull; }
  std::string kindName() const override { return "ConvexHullShape"; }
  double volume() const override { return volume_; }
  Vec3 centroid() const override { return centroid_; }
  Mat3 inertiaPerUnitDensity() const override { return inertia_; }
  /// The hull vertex farthest along d (the first one of vertices() on ties).
  Vec3 support(const Vec3& d) const override;
  double characteristicSize() const override { return size_; }
  const std::vector<Vec3>& vertices() const { return vertices_; }
  const std::vector<std::array<std::size_t, 3>>& triangles() const { return triangles_; }

 private:
  std::vector<Vec3> vertices_;
  std::vector<std::array<std::size_t, 3>> triangles_;
  double volume_ = 0.0;
  Vec3 centroid_{0.0, 0.0, 0.0};
  Mat3 inertia_{};
  double size_ = 0.0;
};

}  // namespace nsdyn

#endif
