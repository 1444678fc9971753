// Clipping of two support features against each other in the plane perpendicular to a
// contact normal (internal): the candidate points of a contact manifold.
#ifndef NSDYN_KERNEL_FEATURE_CLIP_HPP
#define NSDYN_KERNEL_FEATURE_CLIP_HPP

#include <vector>

#include "SupportFeature.hpp"

namespace nsdyn {
namespace narrowphase {
namespace detail {

/// One point of the overlap of two features: pointA on A's feature and pointB on B's above
/// the same point of the plane perpendicular to the normal, gap = (pointA − pointB)·n (so
/// pointA − pointB = gap n), and the labels of the features it comes from.
struct ManifoldCandidate {
  Vec3 pointA, pointB;
  double gap;
  int featureA, featureB;
};

/// The overlap of the features @p a (A's, along −n) and @p b (B's, along +n) projected on
/// the plane perpendicular to the unit @p n (from B to A), appended to @p out:
///  - two polygons: the vertices of their intersection (Sutherland–Hodgman: A's polygon
///    clipped by the side lines of B's), labelled (A vertex, B face) for A's vertices inside
///    B, (A edge, B edge) where an edge of A crosses a side of B, (A face, B vertex) for B's
///    vertices inside A;
///  - a segment and a polygon: the ends of the part of the segment inside the polygon,
///    (segment end, face) or (segment, polygon edge) where it crosses a side;
///  - two segments parallel within the angle whose sine is @p sinTol: the ends of their
///    overlap, (A end, B segment) or (A segment, B end).
/// A circular polygon (SupportFeature::radius > 0, a cylinder cap) stands for its circle:
/// the points where a chord of it crosses a side of the other polygon, or the segment, are
/// moved along that side or segment onto the circle (labels unchanged).
/// The heights are exact on each feature (a polygon's plane, a segment's line) at the
/// point. Points closer than 1e-7 of the features' extent are merged (the lower labels
/// kept); the list is sorted by (featureA, featureB). Returns false when the features do
/// not make a manifold: a point, or two segments that cross.
bool clipFeatures(const SupportFeature& a, const SupportFeature& b, const Vec3& n, double sinTol,
                  std::vector<ManifoldCandidate>& out);

}  // namespace detail
}  // namespace narrowphase
}  // namespace nsdyn

#endif
