/// @file TriangleNarrowphase.hpp
/// @brief Contacts of shapes against one triangle and against a terrain (TerrainShape).
///
/// Conventions of nsdyn/Narrowphase.hpp: body A is the shape, B the triangle or terrain; the
/// normal is unit, from B to A; pointA − pointB = gap·normal; a point is appended when
/// gap ≤ margin. A triangle is given by its world vertices (v0, v1, v2), counter-clockwise
/// seen from its outside, and is one-sided: its outward normal f = (v1 − v0) × (v2 − v0)
/// normalised; a face contact has normal f even when the shape is below the plane.
/// Triangle features (featureB): vertex k = k (0..2), edge k (from vertex k to k + 1) = 3 + k,
/// face = 6.
#ifndef NSDYN_KERNEL_TRIANGLENARROWPHASE_HPP
#define NSDYN_KERNEL_TRIANGLENARROWPHASE_HPP

#include <array>

#include "nsdyn/ConvexContact.hpp"
#include "nsdyn/Narrowphase.hpp"
#include "nsdyn/TerrainShape.hpp"

namespace nsdyn {
namespace narrowphase {

using TriangleVertices = std::array<Vec3, 3>;

/// Triangle feature ids.
inline constexpr int kTriangleEdge = 3;
inline constexpr int kTriangleFace = 6;

/// Sphere A against a triangle: the closest point q of the triangle to the centre c (face,
/// edge or vertex region). Face: normal f, gap f·(c − v0) − r (as spherePlane). Edge or
/// vertex: normal (c − q)/|c − q| (f when c = q), gap |c − q| − r, pointB = q. One point,
/// featureA 0.
int sphereTriangle(const Vec3& center, double radius, const TriangleVertices& tri, double margin,
                   ContactList& out);

/// Capsule A (axis along body z, ends at ±halfLength) against a triangle: the two end spheres
/// (sphereTriangle, featureA 1 at −halfLength, 2 at +halfLength; a capsule lying on the face
/// gets both, as capsulePlane), plus the side (featureA 0, featureB the triangle edge) when the
/// closest point of the axis to the triangle's edges is inside the segment and strictly closer
/// than both ends (a capsule lying across an edge). Up to 3 points, sorted by featureA.
int capsuleTriangle(const Pose& capsule, double radius, double halfLength,
                    const TriangleVertices& tri, double margin, ContactList& out);

/// Box A against a triangle: separating axes (the triangle's normal f, one-sided; the 3 box
/// axes; the 9 cross products of box and triangle edges, each oriented for the least
/// overlap). f is kept unless a box axis separates better by more than 1e-9 of the size, a box
/// axis unless an edge axis does. Gap = the separation along the chosen axis (exact). Face
/// axis: the box's feature along −axis clipped by the triangle (or the triangle by the box
/// face), up to 4 points with their own gaps (a box flat on a face gets its corners over the
/// triangle, as boxPlane); edge axis: one point, the closest points of the two edges.
/// Features: box ids of Narrowphase.hpp (A), triangle ids above (B).
int boxTriangle(const Pose& box, const Vec3& halfExtents, const TriangleVertices& tri,
                double margin, ContactList& out);

/// Shape A (any finite shape) against the terrain B at @p terrainPose. The triangles whose
/// AABB meets A's (inflated by the margin) are each tested: spheres, capsules and boxes by the
/// functions above, other shapes (hulls, cylinders) by convexManifold against the triangle as
/// a flat convex polytope. Then:
///  1. Internal edges and vertices (no snagging): a point whose triangle feature is an edge
///     with a neighbour, or a vertex inside the mesh, keeps its normal n only when n is in
///     that feature's normal cone, i.e. n·(w − p) ≤ 1e-9 |w − p| for every vertex w of the
///     triangles around the feature (p a point of the feature): the feature is then the
///     farthest point of the local surface along n. Otherwise n is replaced by the face
///     normal of those triangles nearest to it (largest n·f; on a flat floor f itself) and the
///     gap is measured along it from that face's plane: for a sphere (or a capsule end) the
///     centre's height minus the radius, else the height of pointA.
///  2. Points whose normals agree within 1e-9 (1 − n·n') form a group, in the order of their
///     lowest triangle; within a group one point per featureA (the deepest, ties to the lower
///     triangle; a capsule's side point dropped when one of its ends in the group is at least as
///     deep: along one plane the axis is deepest at an end), reduced to 4 as convexManifold does
///     (deepest, farthest, largest triangle, largest added area). featureB is the group's rank (0
///     on a floor, whichever triangle holds the point), so contact keys stay the same while a body
///     slides across triangles.
/// Returns the number of points appended.
int terrainContacts(const Shape& shape, const Pose& pose, const TerrainShape& terrain,
                    const Pose& terrainPose, double margin, ContactList& out,
                    const ConvexContactOptions& options = ConvexContactOptions());

}  // namespace narrowphase
}  // namespace nsdyn

#endif
