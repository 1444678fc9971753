/// @file TerrainShape.hpp
/// @brief Static terrain made of triangles (TriangleMeshShape, HeightfieldShape): the
///        interface the triangle contact code reads.
#ifndef NSDYN_KERNEL_TERRAINSHAPE_HPP
#define NSDYN_KERNEL_TERRAINSHAPE_HPP

#include <array>
#include <cstdint>
#include <vector>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/Shape.hpp"

namespace nsdyn {

/// A static surface of triangles, one-sided: each triangle's solid side is below it (its
/// outward normal is (v1 − v0) × (v2 − v0) normalised, counter-clockwise seen from outside).
/// Static only: isFinite() is false, like HalfSpaceShape (a dynamic body refuses it),
/// volume and inertia are +∞. support() and boundingBox() are those of the vertices (the
/// AABB is finite). Triangle t has vertices triangleVertices(t) (indices into vertex()),
/// edge e of t goes from its vertex e to vertex (e + 1) % 3; edgeNeighbour(t, e) is the
/// triangle across it (−1 on the boundary).
///
/// Contacts (ContactDetector, narrowphase::terrainContacts): a body's shape is tested against
/// the triangles whose AABB meets its own (queryTriangles), each triangle as a convex polygon;
/// a normal found on an internal edge or vertex that lies outside that feature's normal cone is
/// replaced by the nearest face normal of its triangles (see narrowphase::terrainContacts).
class NSDYN_KERNEL_API TerrainShape : public Shape {
 public:
  using Triangle = std::array<std::int32_t, 3>;

  double volume() const override;
  Mat3 inertiaPerUnitDensity() const override;
  /// Centre of the vertices' AABB.
  Vec3 centroid() const override;
  /// The vertex farthest along d (lowest index on ties).
  Vec3 support(const Vec3& d) const override;
  /// Half the diagonal of the vertices' AABB.
  double characteristicSize() const override;
  bool isFinite() const override { return false; }
  /// The eight corners of the local AABB placed at the pose (a box containing the shape).
  Aabb boundingBox(const Vec3& position, const Quat& orientation) const override;

  virtual std::size_t vertexCount() const = 0;
  virtual std::size_t triangleCount() const = 0;
  virtual Vec3 vertex(std::int32_t v) const = 0;
  virtual Triangle triangleVertices(std::int32_t t) const = 0;
  /// Unit outward normal of triangle t.
  virtual Vec3 faceNormal(std::int32_t t) const = 0;
  /// Triangle across edge e (0..2) of t, −1 on the boundary.
  virtual std::int32_t edgeNeighbour(std::int32_t t, int e) const = 0;
  /// The triangles having vertex v, in increasing order (replaces @p out's content).
  virtual void vertexTriangles(std::int32_t v, std::vector<std::int32_t>& out) const = 0;
  /// True when every edge at vertex v has two triangles (v is not on the boundary).
  virtual bool interiorVertex(std::int32_t v) const = 0;
  /// The triangles whose AABB meets @p box (shape frame), in increasing order (replaces
  /// @p out's content).
  virtual void queryTriangles(const Aabb& box, std::vector<std::int32_t>& out) const = 0;

  /// The local AABB of the vertices.
  const Aabb& localBounds() const { return bounds_; }

 protected:
  /// Sets localBounds() from the vertices (the constructors of the subclasses call it).
  void setBounds(const Aabb& bounds) { bounds_ = bounds; }

 private:
  Aabb bounds_{{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
};

}  // namespace nsdyn

#endif
