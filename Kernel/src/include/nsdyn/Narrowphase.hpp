/// @file Narrowphase.hpp
/// @brief Closed-form narrowphase contact generation between primitive shapes
///        (spheres, planes, boxes, capsules), independent of any shape class.
///
/// Conventions (all functions):
/// - Poses map body → world: x_world = position + R(orientation) x_body, the
///   quaternion unit, scalar first (as NewtonEulerDS q[3:7]).
/// - A contact is between body A (first shape argument) and body B (second).
///   `normal` is the unit normal pointing from B to A (world): moving A along
///   +normal separates the bodies. `pointA` lies on A's surface, `pointB` on B's
///   surface, and pointA − pointB = gap · normal.
/// - `gap` is the signed distance: > 0 separated, 0 touching, < 0 penetrating
///   (minus the penetration depth).
/// - A contact is appended only when gap ≤ margin (margin ≥ 0 is the contact
///   envelope; margin = 0 reports touching and penetrating contacts only).
/// - Feature ids (small integers, for a stable contact key):
///     sphere: 0; plane: 0;
///     capsule: 0 the cylindrical side, 1 the cap at −halfLength (body z),
///              2 the cap at +halfLength;
///     box: vertices 0..7 (bit k set when the body coordinate k is +half[k]),
///          edges 8..19 (8 + 4 k + 2 b1 + b2 for an edge parallel to axis k,
///          b1, b2 the sign bits of the axes (k+1)%3 and (k+2)%3),
///          faces 20..25 (20 + 2 k + 1 for the face +half[k], 20 + 2 k for −half[k]).
/// - Deterministic: outputs depend only on the input values (no memory layout,
///   no threading); the points appended by one call are sorted by
///   (featureA, featureB). Every function returns the number of points appended.
#ifndef NSDYN_KERNEL_NARROWPHASE_HPP
#define NSDYN_KERNEL_NARROWPHASE_HPP

#include <vector>

#include "nsdyn/Quaternion.hpp"

namespace nsdyn {
namespace narrowphase {

using Vec3 = quaternion::Vec3;
using Quat = quaternion::Quat;

/// Rigid placement of a body: position of its reference point and unit
/// quaternion body → world (scalar first, as NewtonEulerDS q[0:7]).
struct Pose {
  Vec3 position{0.0, 0.0, 0.0};
  Quat orientation{1.0, 0.0, 0.0, 0.0};

  /// Body → world: position + R x.
  Vec3 toWorld(const Vec3& x) const;
  /// World → body: Rᵀ (x − position).
  Vec3 toBody(const Vec3& x) const;
  /// R v (direction, no translation).
  Vec3 rotate(const Vec3& v) const;
  /// Pose from a 7-vector (x, y, z, q0, q1, q2, q3) starting at @p offset.
  static Pose fromVector(const SiconosVector& q, std::size_t offset = 0);
};

/// Static plane {x : normal · x = offset}, `normal` unit. The solid (half-space)
/// is the side normal · x ≤ offset; `normal` is its outward normal.
struct Plane {
  Vec3 normal{0.0, 0.0, 1.0};
  double offset = 0.0;
};

/// One contact point between A and B (see the file conventions).
struct ContactPoint {
  Vec3 pointA{0.0, 0.0, 0.0};  ///< on A's surface, world
  Vec3 pointB{0.0, 0.0, 0.0};  ///< on B's surface, world
  Vec3 normal{0.0, 0.0, 1.0};  ///< unit, from B to A, world
  double gap = 0.0;            ///< signed distance, < 0 when penetrating
  int featureA = 0;            ///< feature id on A
  int featureB = 0;            ///< feature id on B

  /// The same contact seen with A and B exchanged (points and features
  /// swapped, normal flipped, same gap).
  ContactPoint swapped() const;
};

using ContactList = std::vector<ContactPoint>;

/// Sphere A (centre, radius) against sphere B. One point. Coincident centres:
/// normal +e_z.
int sphereSphere(const Vec3& centerA, double radiusA, const Vec3& centerB, double radiusB,
                 double margin, ContactList& out);

/// Sphere A against the plane B. One point; featureB = 0.
int spherePlane(const Vec3& center, double radius, const Plane& plane, double margin,
                ContactList& out);

/// Sphere A against the box B (pose, half extents along body x, y, z). One
/// point; featureB is the box face, edge or vertex nearest to the centre (a
/// face when the centre is inside the box: the one of least depth).
int sphereBox(const Vec3& center, double radius, const Pose& box, const Vec3& halfExtents,
              double margin, ContactList& out);

/// Sphere A against the capsule B: the segment from −halfLength to +halfLength
/// along the capsule's body z axis, inflated by @p capsuleRadius. One point.
/// A centre on the axis takes the capsule's body x axis as normal.
int sphereCapsule(const Vec3& center, double radius, const Pose& capsule, double capsuleRadius,
                  double halfLength, double margin, ContactList& out);

/// Sphere A against the cylinder B (axis along the cylinder's body z, from
/// −halfLength to +halfLength). One point at the nearest point of the solid
/// cylinder; featureB: 0 side, 1/2 cap at −z/+z, 3/4 rim at −z/+z (a centre
/// inside takes the nearer of the side and the caps).
int sphereCylinder(const Vec3& center, double radius, const Pose& cylinder, double cylinderRadius,
                   double halfLength, double margin, ContactList& out);

/// Capsule A against capsule B (axes along body z). Closest points of the two
/// segments; when the segments are parallel and their projections overlap on a
/// length, two points at the ends of the overlap (a resting capsule does not
/// rock on one point). Intersecting axes: normal along axisA × axisB.
int capsuleCapsule(const Pose& poseA, double radiusA, double halfLengthA, const Pose& poseB,
                   double radiusB, double halfLengthB, double margin, ContactList& out);

/// Capsule A against the plane B: one point per cap centre within the margin
/// (featureA 1 and 2), so up to 2 points.
int capsulePlane(const Pose& capsule, double radius, double halfLength, const Plane& plane,
                 double margin, ContactList& out);

/// Box A against the plane B: the vertices with gap ≤ margin, the 4 deepest
/// when more (ties to the lower vertex id); featureA the vertex id.
int boxPlane(const Pose& box, const Vec3& halfExtents, const Plane& plane, double margin,
             ContactList& out);

/// Box A against box B. Separating-axis test over the 15 axes (3 + 3 face
/// normals, 9 edge cross products; an edge axis wins only by more than a small
/// tolerance, A's faces win ties). Face axis: the incident face (the face of the
/// other box most anti-parallel to the reference normal) is clipped against the
/// side planes of the reference face; the clipped points with gap ≤ margin are
/// kept, reduced to 4 (deepest, farthest from it, largest triangle, largest
/// added area). Edge axis: one point, the closest points of the two edges.
/// Features: vertex inside the reference face (vertex, face), incident edge ×
/// reference side (edge, edge), reference corner (face, vertex).
int boxBox(const Pose& poseA, const Vec3& halfA, const Pose& poseB, const Vec3& halfB,
           double margin, ContactList& out);

/// Convex hull A (its vertices, body frame: ConvexHullShape::vertices()) against
/// the plane B: every vertex with gap ≤ margin (exact: a polytope's points
/// nearest to a plane include vertices), so a hull resting on a face gets that
/// face's vertices. More than 4 are reduced to 4, chosen in this order: the
/// deepest, the farthest from it (distance in the plane), the one making the
/// largest triangle with these two (area seen along the normal), the one adding
/// the largest area outside that triangle. Each choice takes the lowest vertex
/// index among the values within a relative 1e-6 of the best (depths within
/// 1e-6 of the candidates' extent), so a face of 5 or more vertices keeps the
/// same 4 points from step to step. featureA: the vertex index modulo 32 (the
/// 5 bits of the contact key), i.e. the vertex index for hulls of at most 32
/// vertices; when two kept vertices share the residue (hulls of more than 32
/// vertices only), the rank of each kept vertex in vertex order (0..3) instead,
/// so the keys of one call stay distinct (a feature then names the same vertex
/// from step to step only while the same vertices are kept). featureB = 0.
int hullPlane(const Pose& hull, const std::vector<Vec3>& vertices, const Plane& plane,
              double margin, ContactList& out);

/// Cylinder A (axis along body z, caps at ±halfLength) against the plane B:
/// per cap 4 rim points, the deepest rim point of that cap and the rim points
/// at +90°, 180° and −90° from it about the axis (the deepest direction is −n
/// without its axial part; when that part is below 1e-6, the axis within 1e-6
/// rad of the normal, the body x, y, −x, −y directions instead, so a standing
/// cylinder's points do not turn with its round-off tilt), those with
/// gap ≤ margin, the 4 deepest when more (ties to the lower feature). Exact
/// points of the rims: a standing cylinder gets 4 points of its lower rim, a
/// lying one the two ends of its lowest line, a tilted one its deepest rim
/// point. featureA = 8 + 4 c + j: c = 0 for the cap at −halfLength, 1 for
/// +halfLength; j = 0 deepest (body x when standing), 1 at +90° (body y),
/// 2 at 180°, 3 at −90°. featureB = 0.
int cylinderPlane(const Pose& cylinder, double radius, double halfLength, const Plane& plane,
                  double margin, ContactList& out);

}  // namespace narrowphase
}  // namespace nsdyn

#endif
