/// @file ConvexContact.hpp
/// @brief Contact between any two finite convex shapes from their support
///        functions: the least overlap over directions (an expanding polytope).
///
/// Same conventions as nsdyn/Narrowphase.hpp: A is the first shape, B the
/// second; `normal` is unit and points from B to A; pointA on A's surface,
/// pointB on B's surface, pointA − pointB = gap · normal; gap < 0 when
/// penetrating; a point is appended only when gap ≤ margin.
///
/// What is computed: the signed distance gap = max over unit n of sep(n),
/// sep(n) = min over A of n·x − max over B of n·x (A's lowest level minus B's
/// highest along n, from Shape::support): every direction gives a lower bound
/// (−sep(n) is the overlap of the two shapes' extents along n, an upper bound of
/// the penetration depth), the best one the distance or depth itself.
///
/// How (ccd/ConvexContact.cpp, no libccd call):
/// - D = (A inflated by margin/2) − (B inflated by margin/2), a Minkowski
///   difference with a positive width along every direction; the origin lies in
///   it exactly when gap ≤ margin, at depth margin − gap;
/// - an expanding polytope of support points of D, started from a
///   non-degenerate tetrahedron (first direction: B's centroid minus A's): its
///   face of least plane offset d is expanded by the support point along its
///   normal u, h(u) = u·support(u). min over the faces of d is a lower bound of
///   the depth, min over the directions queried of h(u) an upper bound; the
///   search stops when the face's h(u) − d ≤ tolerance (or after maxIterations
///   expansions: the best direction so far), and returns at once when some
///   h(u) < 0 (a separating direction: gap > margin). The origin need not be
///   inside the start tetrahedron (faces with d < 0 are expanded first);
/// - curved surfaces (spheres, capsules, cylinders, rounded edges of the
///   inflated difference): the faces only approach them, to a normal error of
///   about √(tolerance / radius of curvature) (1e-4 rad at 1e-9 and 5 mm), so
///   the best direction is then polished: four probes at ±1e-3 rad tell by the
///   jumps of the support points a smooth optimum (no jump: Newton steps on h
///   over the tangent plane, the support point's tangential part being the
///   gradient, two probes the Hessian), one on a kink (jumps along one
///   direction e, e.g. a sphere against an edge: u is put on u ⊥ e, e taken
///   from the jumping shape's support less its drift, exact for a polytope's
///   edge, then Newton along the other direction) or a face (jumps along two
///   directions: exact already). A step is kept only when h does not grow.
///   Besides accuracy (normals of sphere–box edge contacts within 1e-7), this
///   keeps the answer continuous: inputs that differ by round-off give normals
///   that differ by round-off, not by the search's tolerance;
/// - the normal is −u for the best u; the gap is sep(normal) from the exact (not
///   inflated) supports: exact for polytopes, within the tolerance otherwise,
///   never above the true gap; the points are the support points projected on
///   those two levels, through the barycentric witness of the face that gave the
///   normal when there is one (a point of the overlap region of a face contact);
/// - one point per pair (featureA = featureB = 0). Resting contacts that need a
///   manifold (a box on a hull face) get it from convexManifold below, which starts
///   from this point and normal.
///
/// Deep overlaps: the normal is the least-overlap direction (the search's), for two polytopes
/// the separating axis of least penetration among the face normals and edge cross products
/// (ConvexManifoldTest: within 1e-8 over random deep hull–box overlaps).
///
/// Why not libccd's MPR (used before): its direction is that of the
/// portal hit by the centre-to-centre ray, not the least overlap, and with the
/// shapes inflated by the margin a portal that all but touches the origin gives
/// an arbitrary direction (the closest point of its triangle): measured on
/// Examples/MixedPile, gaps of −0.149 m (sphere–hull) and −0.125 m
/// (capsule–cylinder) between shapes 1.155 mm apart, and, over random shallow
/// pairs of its shapes, gaps more than 0.1 mm too deep for 2–55 % of the pairs.
/// libccd 2.1's GJK + EPA takes a degenerate GJK simplex for a touching contact
/// and reports zero depth for a deep overlap.
///
/// Accuracy (Tests/Kernel/mechanics/ConvexContactTest.cpp, PlaneContactsTest.cpp):
/// gaps within 1e-8 of the exact signed distance (sphere–hull against the
/// nearest facet, 400 random pairs) and of a brute-force search over directions
/// (capsule–cylinder and the MixedPile pairs), normals of face contacts exact.
/// Cost: 2–8 µs per shallow pair of the shapes of MixedPile (1.1–1.6 × MPR);
/// a deep overlap of two curved shapes with nearly concentric centres (every
/// direction nearly as good) runs to maxIterations (about 0.6 ms).
///
/// Deterministic: no randomness, no memory-layout dependence; the same input
/// gives bit-identical output (per-thread scratch, reused).
///
/// convexManifold (ccd/ConvexManifold.cpp, narrowphase/SupportFeature.cpp,
/// narrowphase/FeatureClip.cpp): several points for shapes resting flat on each other.
/// After convexContact's point and normal n (from B to A):
/// - the support feature of A along −n and of B along +n: a face whose outward normal is
///   within 0.05 rad (sine) of the direction (a box face; a hull facet: the vertices on the
///   plane of its triangle most aligned with the direction, which must hold the support
///   vertex; a cylinder cap: 8 points of its rim, the first the deepest along the
///   direction, body x when the axis is within 1e-6 of it), else an edge perpendicular to
///   it within that angle (a box edge; a hull edge from the support vertex to the next
///   highest; a cylinder's side line; a capsule's side line, its axis shifted by the radius
///   along the direction: the points of its end spheres), else a point;
/// - a point on either side, or two segments that cross (more than 0.05 in sine): the
///   single point of convexContact, unchanged;
/// - the normal: a face's own outward normal (B's, or A's reversed) when n is within 1e-6
///   (sine) of it, the closer of the two (the search leaves the normal of a face resting on
///   a face within about tolerance / width of it: 2e-8 rad measured for a 10 cm box on a
///   hull facet), the features then taken again along it; else n;
/// - the two features are then clipped against each other in the plane ⟂ n: two polygons
///   (Sutherland–Hodgman: A's polygon by the side lines of B's), a segment by a polygon (the
///   part inside), two parallel segments (their overlap). A cylinder cap is its rim circle:
///   where a side of the other polygon (or a segment) crosses one of the 8 rim points'
///   chords, the point is moved along that side to where it meets the rim itself (exact
///   points of a rim across an edge; with the chords alone a tilted cap over an edge kept
///   the single point: 209 of 2000 random poses of a cylinder standing near a box's edge,
///   now 1). Each point of the overlap gets
///   its own gap along n between the two features (a polygon's plane, a segment's line)
///   and points on A and B above it; the points with gap ≤ margin are kept, reduced to 4
///   (the deepest, the farthest from it, the largest triangle, the largest added area;
///   ties within a relative 1e-6 to the lower feature label), in (featureA, featureB)
///   order. Their least gap is convexContact's (for polytopes, cylinders and capsules
///   the features are exact); when it is not (within 1e-7 of the smaller shape's size),
///   or fewer than 2 points remain, the single point stands;
/// - feature ids, stable while the same features touch (warm start by contact key): a
///   point is (A vertex, B face), (A edge, B edge) or (A face, B vertex); box ids as
///   Narrowphase.hpp (vertices 0–7, edges 8–19, faces 20–25), capsule as Narrowphase.hpp
///   (side 0, ends 1, 2), hull vertex index mod 15, hull edge 15 + (its first vertex mod
///   15), hull facet 30, cylinder rim point j of cap c 8c + j, rim edge 16 + j, cap 24 + c,
///   side line ends 26/27, side line 28. Two points of one call with the same key (hull
///   facets of more than 15 vertices only) get (rank, 31) instead.
/// Cost: the features are O(vertices + triangles) for a hull, the clipping O(m·n) for
/// polygons of m and n vertices, small beside the search.
#ifndef NSDYN_KERNEL_CONVEXCONTACT_HPP
#define NSDYN_KERNEL_CONVEXCONTACT_HPP

#include "nsdyn/DetectionOptions.hpp"
#include "nsdyn/Narrowphase.hpp"
#include "nsdyn/Shape.hpp"

namespace nsdyn {

/// Contact between the finite convex shapes @p a at @p poseA and @p b at
/// @p poseB (shape → world): at most one point appended to @p out
/// when gap ≤ @p margin (margin ≥ 0). Returns the number of points appended (0
/// or 1). Throws nsdyn::Error for a half-space (use the plane closed forms) or
/// a negative or non-finite margin.
int convexContact(const Shape& a, const narrowphase::Pose& poseA, const Shape& b,
                  const narrowphase::Pose& poseB, double margin, narrowphase::ContactList& out,
                  const ConvexContactOptions& options = ConvexContactOptions());

/// Contact manifold between the finite convex shapes @p a and @p b (see the file comment):
/// convexContact's point, or, for features flat against each other (a box resting on a hull
/// facet, a cylinder lying or standing on a box, a capsule lying on a face), up to 4 points
/// of the overlap of the two features, each with its own gap (≤ @p margin), on the normal
/// of convexContact (a face's own normal when within 1e-6 of it), with feature ids stable
/// from step to step. With options.manifold
/// false, convexContact itself. Returns the number of points appended (0 to 4); throws as
/// convexContact.
int convexManifold(const Shape& a, const narrowphase::Pose& poseA, const Shape& b,
                   const narrowphase::Pose& poseB, double margin, narrowphase::ContactList& out,
                   const ConvexContactOptions& options = ConvexContactOptions());

}  // namespace nsdyn

#endif
