/// @file TriangleMeshShape.hpp
/// @brief Static triangle mesh (terrain, floors, walls) with adjacency and a triangle BVH.
#ifndef NSDYN_KERNEL_TRIANGLEMESHSHAPE_HPP
#define NSDYN_KERNEL_TRIANGLEMESHSHAPE_HPP

#include <memory>
#include <string>
#include <vector>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/TerrainShape.hpp"

namespace nsdyn {

namespace detail {
class TriangleBvh;
}

/// A static mesh of triangles (static bodies only, see TerrainShape). The constructor checks,
/// and throws nsdyn::Error naming @p name (the object or file) and the value for:
/// no vertex or no triangle; a non-finite vertex coordinate; a vertex index out of range;
/// a degenerate triangle (two equal indices, or |(v1 − v0) × (v2 − v0)| ≤ 1e-12 × the
/// longest edge squared); an edge shared by more than two triangles (non-manifold); two
/// triangles sharing an edge in the same direction (inconsistent winding: neighbours must
/// run their common edge in opposite directions, so that their normals are on the same side).
/// It precomputes the unit face normals, the neighbour across every edge, the triangles of
/// every vertex and a bounding-volume hierarchy of the triangles (an AABB tree in flat arrays,
/// built once by median splits along the longest axis, at most 4 triangles per leaf).
class NSDYN_KERNEL_API TriangleMeshShape : public TerrainShape {
 public:
  /// @p name names the mesh in error messages ("TriangleMeshShape" by default).
  TriangleMeshShape(std::vector<Vec3> vertices, std::vector<Triangle> triangles,
                    const std::string& name = "TriangleMeshShape");

  /// A mesh read from an OBJ or STL file (any format assimp reads): the triangles of all the
  /// meshes of the file, vertices joined when identical (STL repeats them per facet), scaled by
  /// @p scale. Errors name the file: unreadable or not a mesh, no triangle, then the
  /// constructor's checks (a non-manifold edge of "f.obj": "f.obj: expected ...").
  static std::shared_ptr<const TriangleMeshShape> fromFile(const std::string& path,
                                                           double scale = 1.0);

  ShapeKind kind() const override { return ShapeKind::TriangleMesh; }
  std::string kindName() const override { return "TriangleMeshShape"; }

  std::size_t vertexCount() const override { return vertices_.size(); }
  std::size_t triangleCount() const override { return triangles_.size(); }
  Vec3 vertex(std::int32_t v) const override { return vertices_[static_cast<std::size_t>(v)]; }
  Triangle triangleVertices(std::int32_t t) const override {
    return triangles_[static_cast<std::size_t>(t)];
  }
  Vec3 faceNormal(std::int32_t t) const override { return normals_[static_cast<std::size_t>(t)]; }
  std::int32_t edgeNeighbour(std::int32_t t, int e) const override {
    return neighbours_[3 * static_cast<std::size_t>(t) + static_cast<std::size_t>(e)];
  }
  void vertexTriangles(std::int32_t v, std::vector<std::int32_t>& out) const override;
  bool interiorVertex(std::int32_t v) const override {
    return interior_[static_cast<std::size_t>(v)] != 0;
  }
  void queryTriangles(const Aabb& box, std::vector<std::int32_t>& out) const override;

  const std::vector<Vec3>& vertices() const { return vertices_; }
  const std::vector<Triangle>& triangles() const { return triangles_; }
  /// Normal of the neighbour across edge e of t (its own normal on the boundary).
  Vec3 neighbourNormal(std::int32_t t, int e) const;
  /// Nodes of the BVH (for tests and statistics).
  std::size_t bvhNodeCount() const;

 private:
  std::vector<Vec3> vertices_;
  std::vector<Triangle> triangles_;
  std::vector<Vec3> normals_;
  std::vector<std::int32_t> neighbours_;   // 3 per triangle
  std::vector<std::int32_t> vertexStart_;  // CSR: triangles of vertex v
  std::vector<std::int32_t> vertexTris_;
  std::vector<std::uint8_t> interior_;              // per vertex
  std::shared_ptr<const detail::TriangleBvh> bvh_;  // immutable, shared by copies
};

}  // namespace nsdyn

#endif
