// Support features of the finite shapes (internal): the face, edge or vertex of a shape that
// is farthest along a direction, as a world polygon, segment or point with feature labels.
// Used by convexManifold (ccd/ConvexManifold.cpp) to turn one contact into a manifold.
#ifndef NSDYN_KERNEL_SUPPORT_FEATURE_HPP
#define NSDYN_KERNEL_SUPPORT_FEATURE_HPP

#include <vector>

#include "nsdyn/Narrowphase.hpp"
#include "nsdyn/Shape.hpp"

namespace nsdyn {
namespace narrowphase {
namespace detail {

/// The feature of a shape farthest along a unit world direction d.
///
/// kind Polygon: a flat face whose outward normal is within the angle tolerance of d (box
/// face, hull facet, cylinder cap: 8 points of its rim); `vertex` its corners in cyclic
/// order, `planeNormal` its outward unit normal (world). kind Segment: a straight edge or
/// line of the surface perpendicular to d within the tolerance (box or hull edge, the
/// cylinder's side line, the capsule's side line: its axis shifted by the radius along d);
/// `vertex` its two ends. kind Point: anything else (`vertex[0]` the support point); no
/// manifold is built on a point.
///
/// Labels (5-bit feature ids of the contact key): vertexId[i] names vertex i, edgeId[i] the
/// edge from vertex i to vertex i + 1 (a segment: edgeId[0] the segment itself), faceId the
/// face (a segment: its own edge id). Within one feature the three sets are disjoint, so the
/// pairs (vertex, face), (face, vertex) and (edge, edge) of a manifold never collide:
///  - box: Narrowphase.hpp's ids (vertices 0–7, edges 8–19, faces 20–25);
///  - hull: vertex index mod 15 (0–14), edge 15 + (index of its first vertex mod 15),
///    face 30 (ids collide only on facets of more than 15 vertices: see convexManifold);
///  - cylinder: rim point j of cap c 8c + j (0–15), rim edge j 16 + j, cap c 24 + c; side
///    line ends 26 (at −halfLength), 27 (+halfLength), side line 28. A cap's rim point 0 is
///    the one deepest along d (body x when d is within 1e-6 of the axis), then every 45°;
///  - capsule: the side line 0, its ends 1 (at −halfLength) and 2 (+halfLength), as
///    Narrowphase.hpp's capsule features.
struct SupportFeature {
  enum Kind { Point, Segment, Polygon };
  Kind kind = Point;
  std::vector<Vec3> vertex;
  std::vector<int> vertexId, edgeId;
  int faceId = 0;
  Vec3 planeNormal{0.0, 0.0, 0.0};
  /// A cylinder cap: its rim is the circle of this radius about `centre` in the plane
  /// (the polygon its 8 inscribed rim points); 0 for a flat polygon.
  double radius = 0.0;
  Vec3 centre{0.0, 0.0, 0.0};

  void clear() {
    kind = Point;
    vertex.clear();
    vertexId.clear();
    edgeId.clear();
    faceId = 0;
    radius = 0.0;
  }
};

/// Fills @p out with the support feature of @p shape at @p pose along the unit world
/// direction @p d: a face when its normal is within the angle whose sine is @p sinTol of d,
/// else an edge when it is perpendicular to d within that angle, else the support point.
/// Spheres, half-spaces and other kinds: a point.
void supportFeature(const Shape& shape, const Pose& pose, const Vec3& d, double sinTol,
                    SupportFeature& out);

}  // namespace detail
}  // namespace narrowphase
}  // namespace nsdyn

#endif
