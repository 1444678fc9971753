/// @file PeridynamicGenerators.hpp
/// @brief Peridynamic bodies from shapes: points on a cubic lattice of spacing Δx inside a box,
///        a cylinder, a sphere, a closed triangle mesh, or a rectangular sheet (2D).
#ifndef NSDYN_PERIDYNAMICGENERATORS_HPP
#define NSDYN_PERIDYNAMICGENERATORS_HPP

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/PeridynamicBody.hpp"

namespace nsdyn {

class PeridynamicMaterial;

namespace peridynamics {

using Vec3 = std::array<double, 3>;

/// A box of half-extents @p halfExtents centred at @p centre (axis-aligned): the lattice
/// points x = centre − halfExtents + Δx (k + ½), each of volume Δx³ (so the points fill the
/// box exactly when the extents are multiples of Δx; nsdyn::Error otherwise names the extent).
NSDYN_KERNEL_API std::unique_ptr<PeridynamicBody> box(
    const Vec3& centre, const Vec3& halfExtents, const PeridynamicBodyOptions& options,
    std::shared_ptr<const PeridynamicMaterial> material);
/// A cylinder of @p radius and @p length along @p axis (0, 1, 2) centred at @p centre.
NSDYN_KERNEL_API std::unique_ptr<PeridynamicBody> cylinder(
    const Vec3& centre, double radius, double length, int axis,
    const PeridynamicBodyOptions& options, std::shared_ptr<const PeridynamicMaterial> material);
/// A ball of @p radius centred at @p centre.
NSDYN_KERNEL_API std::unique_ptr<PeridynamicBody> sphere(
    const Vec3& centre, double radius, const PeridynamicBodyOptions& options,
    std::shared_ptr<const PeridynamicMaterial> material);
/// The lattice points inside a closed triangle mesh (vertices 3 per vertex, triangles 3
/// indices each; inside by ray parity). nsdyn::Error when the mesh is not closed (an edge not
/// shared by exactly two triangles: named with its vertices) or holds no lattice point.
NSDYN_KERNEL_API std::unique_ptr<PeridynamicBody> mesh(
    const std::vector<double>& vertices, const std::vector<int>& triangles,
    const PeridynamicBodyOptions& options, std::shared_ptr<const PeridynamicMaterial> material);
/// A mesh file read by the Kernel's mesh loader (Assimp: OBJ, STL, PLY, ...).
NSDYN_KERNEL_API std::unique_ptr<PeridynamicBody> meshFile(
    const std::string& path, double scale, const PeridynamicBodyOptions& options,
    std::shared_ptr<const PeridynamicMaterial> material);
/// A rectangular sheet (cloth) in the plane through @p centre spanned by @p u and @p w
/// (unit, orthogonal), of half-sizes @p halfU, @p halfW: one layer of points (volume
/// Δx² × options.thickness; options.thickness > 0 required).
NSDYN_KERNEL_API std::unique_ptr<PeridynamicBody> sheet(
    const Vec3& centre, const Vec3& u, const Vec3& w, double halfU, double halfW,
    const PeridynamicBodyOptions& options, std::shared_ptr<const PeridynamicMaterial> material);

}  // namespace peridynamics
}  // namespace nsdyn

#endif
