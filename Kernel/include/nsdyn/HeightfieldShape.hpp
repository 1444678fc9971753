/// @file HeightfieldShape.hpp
/// @brief Static heightfield: a regular grid of heights seen as a triangle mesh.
#ifndef NSDYN_KERNEL_HEIGHTFIELDSHAPE_HPP
#define NSDYN_KERNEL_HEIGHTFIELDSHAPE_HPP

#include <memory>
#include <string>
#include <vector>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/TerrainShape.hpp"

namespace nsdyn {

/// Heights z(i, j) on an nx × ny grid (static bodies only, see TerrainShape): vertex (i, j)
/// (index j·nx + i) is at (x0 + i·dx, y0 + j·dy, heights[j·nx + i]) with x0 = −(nx − 1)·dx/2,
/// y0 = −(ny − 1)·dy/2 (the grid centred on the shape origin, up along +z). Each cell (i, j)
/// is two triangles (no triangle stored): 2c = (v00, v10, v11) and 2c + 1 = (v00, v11, v01),
/// c = j·(nx − 1) + i, normals up. queryTriangles reads the cells under the box directly.
/// The constructor throws nsdyn::Error naming @p name and the value for nx or ny < 2, a
/// spacing not finite and > 0, a number of heights other than nx·ny, and a non-finite height
/// (a hole: "height (i, j) = nan").
class NSDYN_KERNEL_API HeightfieldShape : public TerrainShape {
 public:
  HeightfieldShape(std::size_t nx, std::size_t ny, double dx, double dy,
                   std::vector<double> heights, const std::string& name = "HeightfieldShape");
  /// The heights of a grey-level PNG image (8 or 16 bits, read by libpng; colour images
  /// are turned grey by luma weights, alpha dropped): pixel (x, row) of a W × H image is
  /// grid vertex (i, j) = (x, H − 1 − row) — the image as seen from above, its top row the
  /// far (+y) edge — at height zOffset + heightScale × level / full level (255 or 65535).
  /// Errors name the file: unreadable, not a PNG, corrupt, smaller than 2 × 2 or larger
  /// than 4096 × 4096, dx, dy not finite and > 0, heightScale or zOffset not finite.
  static std::shared_ptr<const HeightfieldShape> fromImage(const std::string& path, double dx,
                                                           double dy, double heightScale,
                                                           double zOffset = 0.0);

  ShapeKind kind() const override { return ShapeKind::Heightfield; }
  std::string kindName() const override { return "HeightfieldShape"; }

  std::size_t vertexCount() const override { return nx_ * ny_; }
  std::size_t triangleCount() const override { return 2 * (nx_ - 1) * (ny_ - 1); }
  Vec3 vertex(std::int32_t v) const override;
  Triangle triangleVertices(std::int32_t t) const override;
  Vec3 faceNormal(std::int32_t t) const override;
  std::int32_t edgeNeighbour(std::int32_t t, int e) const override;
  void vertexTriangles(std::int32_t v, std::vector<std::int32_t>& out) const override;
  bool interiorVertex(std::int32_t v) const override;
  void queryTriangles(const Aabb& box, std::vector<std::int32_t>& out) const override;

  std::size_t nx() const { return nx_; }
  std::size_t ny() const { return ny_; }
  double dx() const { return dx_; }
  double dy() const { return dy_; }
  const std::vector<double>& heights() const { return heights_; }

 private:
  std::size_t nx_, ny_;
  double dx_, dy_, x0_, y0_;
  std::vector<double> heights_;
};

}  // namespace nsdyn

#endif
