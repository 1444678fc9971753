/// @file ConvexContact.hpp
/// @brief Contact between any two finite convex shapes through libccd (MPR),
///        from the shapes' support functions.
///
/// Same conventions as nsdyn/Narrowphase.hpp: A is the first shape, B the
/// second; `normal` is unit and points from B to A; pointA on A's surface,
/// pointB on B's surface, pointA − pointB = gap · normal; gap < 0 when
/// penetrating; a point is appended only when gap ≤ margin.
///
/// How it works:
/// - each shape is seen by libccd through Shape::supportWorld at its pose
///   (support1/support2) and its world centroid (center1/center2);
/// - libccd 2.1 has no distance query for separated shapes, so both shapes are
///   inflated by margin/2 in their support functions (support(d) + margin/2 ·
///   d/|d|, a Minkowski sum with a ball): the inflated shapes intersect exactly
///   when gap ≤ margin, and ccdMPRPenetration on them gives the direction
///   (A → B, so normal = −dir) and a position between the two surfaces;
/// - the gap is then measured along that normal from the exact (not inflated)
///   support functions: gap = n·support_A(−n) − n·support_B(n). This is exact
///   when the normal is exact (face contacts of boxes and hulls, spheres) and
///   second order in the normal's error otherwise; the points are libccd's
///   position projected onto those two support planes;
/// - one point per pair (featureA = featureB = 0). Resting contacts that need a
///   manifold (a box on a hull face) get it from persistent contacts across
///   steps (later work), not from this call; the closed forms of
///   Narrowphase.hpp give several points where they apply.
///
/// Why MPR and not GJK + EPA (ccdGJKPenetration): in libccd 2.1, EPA takes a
/// degenerate GJK simplex (a segment through the origin, frequent for aligned
/// boxes) for a touching contact and reports zero depth for a deep overlap.
///
/// Accuracy (Tests/Kernel/mechanics/ConvexContactTest.cpp): gaps and normals
/// agree with the closed forms to 1e-6 for sphere–sphere, sphere on a box
/// face, box–box face contact, hull vertex/face on a box or sphere, cylinder
/// on a box. Known limitation: MPR's direction is that of the portal hit by
/// the centre-to-centre ray, not the minimum-distance one, so edge-type
/// contacts (a sphere off a box edge) get a wrong normal (degrees) and gap;
/// and A/B swapped agree only to ~1e-4. Use the closed forms where they apply.
///
/// Deterministic: libccd has no randomness; every tolerance and iteration cap
/// is set explicitly from ConvexContactOptions (none left to CCD_INIT), and the
/// first search direction is fixed (+x), so the same input gives bit-identical
/// output.
#ifndef NSDYN_KERNEL_CONVEXCONTACT_HPP
#define NSDYN_KERNEL_CONVEXCONTACT_HPP

#include "nsdyn/Narrowphase.hpp"
#include "nsdyn/Shape.hpp"

namespace nsdyn {

/// Tolerances and caps handed to libccd's ccd_t (all set explicitly).
struct ConvexContactOptions {
  unsigned long maxIterations = 1000;  ///< ccd_t::max_iterations (MPR portal refinement cap)
  double tolerance = 1e-9;             ///< ccd_t::mpr_tolerance (and epa_tolerance, unused)
  double distanceTolerance = 1e-12;    ///< ccd_t::dist_tolerance (unused by MPR, set for completeness)
};

/// Contact between the finite convex shapes @p a at @p poseA and @p b at
/// @p poseB (shape → world) through libccd: at most one point appended to @p out
/// when gap ≤ @p margin (margin ≥ 0). Returns the number of points appended (0
/// or 1). Throws nsdyn::Error for a half-space (use the plane closed forms) or
/// a negative or non-finite margin.
int convexContact(const Shape& a, const narrowphase::Pose& poseA, const Shape& b, const narrowphase::Pose& poseB,
                  double margin, narrowphase::ContactList& out,
                  const ConvexContactOptions& options = ConvexContactOptions());

}  // namespace nsdyn

#endif
