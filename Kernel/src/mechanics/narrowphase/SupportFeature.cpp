// Support features (face, edge or vertex farthest along a direction) of boxes, cylinders,
// capsules and convex hulls: see SupportFeature.hpp.
#include "SupportFeature.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include "NarrowphaseMath.hpp"
#include "nsdyn/BoxShape.hpp"
#include "nsdyn/CapsuleShape.hpp"
#include "nsdyn/ConvexHullShape.hpp"
#include "nsdyn/CylinderShape.hpp"

namespace nsdyn {
namespace narrowphase {
namespace detail {

namespace {

// Below this sine of the angle between a cylinder's axis and d, the cap's rim points sit
// at fixed body-frame angles (as cylinderPlane): a standing cylinder's points do not turn
// with the round-off direction of its tilt.
constexpr double kFlatTilt = 1e-6;

// A shape at its pose: body → world with the rotation matrix computed once.
struct Frame {
  double R[9];
  Vec3 position;
  explicit Frame(const Pose& p) : position(p.position) { rotationExact(p.orientation, R); }
  Vec3 toWorld(const Vec3& v) const {
    return {position[0] + R[0] * v[0] + R[1] * v[1] + R[2] * v[2],
            position[1] + R[3] * v[0] + R[4] * v[1] + R[5] * v[2],
            position[2] + R[6] * v[0] + R[7] * v[1] + R[8] * v[2]};
  }
  Vec3 rotate(const Vec3& v) const {
    return {R[0] * v[0] + R[1] * v[1] + R[2] * v[2], R[3] * v[0] + R[4] * v[1] + R[5] * v[2],
            R[6] * v[0] + R[7] * v[1] + R[8] * v[2]};
  }
  Vec3 toBodyDirection(const Vec3& d) const {
    return {R[0] * d[0] + R[3] * d[1] + R[6] * d[2], R[1] * d[0] + R[4] * d[1] + R[7] * d[2],
            R[2] * d[0] + R[5] * d[1] + R[8] * d[2]};
  }
};

void setPoint(const Shape& shape, const Pose& pose, const Vec3& d, SupportFeature& out) {
  out.kind = SupportFeature::Point;
  out.vertex.push_back(shape.supportWorld(d, pose.position, pose.orientation));
  out.vertexId.push_back(0);
  out.edgeId.push_back(0);
}

void boxFeature(const BoxShape& box, const Frame& f, const Vec3& dl, double sinTol, double cosTol,
                SupportFeature& out) {
  const Vec3& h = box.halfExtents();
  int k = 0;
  for (int j = 1; j < 3; ++j)
    if (std::abs(dl[static_cast<std::size_t>(j)]) > std::abs(dl[static_cast<std::size_t>(k)]))
      k = j;
  int sign[3];
  for (std::size_t j = 0; j < 3; ++j) sign[j] = dl[j] >= 0.0 ? 1 : -1;
  auto corner = [&](const int s[3]) {
    return f.toWorld(Vec3{s[0] * h[0], s[1] * h[1], s[2] * h[2]});
  };
  if (std::abs(dl[static_cast<std::size_t>(k)]) >= cosTol) {
    // The face +-h[k]: corners (+,+), (-,+), (-,-), (+,-) in the axes (u, v).
    const int u = (k + 1) % 3, v = (k + 2) % 3;
    const int su[4] = {1, -1, -1, 1}, sv[4] = {1, 1, -1, -1};
    out.kind = SupportFeature::Polygon;
    for (int m = 0; m < 4; ++m) {
      int s[3];
      s[k] = sign[k];
      s[u] = su[m];
      s[v] = sv[m];
      out.vertex.push_back(corner(s));
      out.vertexId.push_back(boxVertexId(s));
      out.edgeId.push_back(boxEdgeId(su[m] != su[(m + 1) % 4] ? u : v, s));
    }
    out.faceId = boxFaceId(k, sign[k]);
    Vec3 axis{0.0, 0.0, 0.0};
    axis[static_cast<std::size_t>(k)] = static_cast<double>(sign[k]);
    out.planeNormal = f.rotate(axis);
    return;
  }
  // An edge along the axis most perpendicular to d.
  int e = 0;
  for (int j = 1; j < 3; ++j)
    if (std::abs(dl[static_cast<std::size_t>(j)]) < std::abs(dl[static_cast<std::size_t>(e)]))
      e = j;
  if (std::abs(dl[static_cast<std::size_t>(e)]) <= sinTol) {
    out.kind = SupportFeature::Segment;
    for (int s : {-1, 1}) {
      sign[e] = s;
      out.vertex.push_back(corner(sign));
      out.vertexId.push_back(boxVertexId(sign));
    }
    out.faceId = boxEdgeId(e, sign);
    out.edgeId.push_back(out.faceId);
    return;
  }
  out.kind = SupportFeature::Point;
  out.vertex.push_back(corner(sign));
  out.vertexId.push_back(boxVertexId(sign));
  out.edgeId.push_back(0);
}

void cylinderFeature(const CylinderShape& cyl, const Frame& f, const Vec3& dl, double sinTol,
                     double cosTol, SupportFeature& out) {
  const double r = cyl.radius(), hl = cyl.halfLength();
  const double t = std::hypot(dl[0], dl[1]);
  if (std::abs(dl[2]) >= cosTol) {
    const int cap = dl[2] >= 0.0 ? 1 : 0;
    const double z = cap ? hl : -hl;
    // Rim point 0 the deepest along d, then every 45 degrees counter-clockwise about +z.
    const double e0x = t > kFlatTilt ? dl[0] / t : 1.0, e0y = t > kFlatTilt ? dl[1] / t : 0.0;
    const double s2 = std::sqrt(0.5);
    const double c[8] = {1.0, s2, 0.0, -s2, -1.0, -s2, 0.0, s2};
    const double s[8] = {0.0, s2, 1.0, s2, 0.0, -s2, -1.0, -s2};
    out.kind = SupportFeature::Polygon;
    for (int j = 0; j < 8; ++j) {
      const double x = c[j] * e0x - s[j] * e0y, y = c[j] * e0y + s[j] * e0x;
      out.vertex.push_back(f.toWorld(Vec3{r * x, r * y, z}));
      out.vertexId.push_back(8 * cap + j);
      out.edgeId.push_back(16 + j);
    }
    out.faceId = 24 + cap;
    out.planeNormal = f.rotate(Vec3{0.0, 0.0, cap ? 1.0 : -1.0});
    out.radius = r;
    out.centre = f.toWorld(Vec3{0.0, 0.0, z});
    return;
  }
  if (std::abs(dl[2]) <= sinTol && t > 0.0) {
    const double x = r * dl[0] / t, y = r * dl[1] / t;
    out.kind = SupportFeature::Segment;
    out.vertex.push_back(f.toWorld(Vec3{x, y, -hl}));
    out.vertex.push_back(f.toWorld(Vec3{x, y, hl}));
    out.vertexId.push_back(26);
    out.vertexId.push_back(27);
    out.edgeId.push_back(28);
    out.faceId = 28;
    return;
  }
  out.kind = SupportFeature::Point;
  out.vertex.push_back(f.toWorld(cyl.support(dl)));
  out.vertexId.push_back(0);
  out.edgeId.push_back(0);
}

void capsuleFeature(const CapsuleShape& cap, const Frame& f, const Vec3& d, const Vec3& dl,
                    double sinTol, SupportFeature& out) {
  if (!(std::abs(dl[2]) <= sinTol)) {
    out.kind = SupportFeature::Point;
    out.vertex.push_back(f.toWorld(cap.support(dl)));
    out.vertexId.push_back(0);
    out.edgeId.push_back(0);
    return;
  }
  // The side line: the axis shifted by the radius along d (each end the point of its end
  // sphere farthest along d).
  out.kind = SupportFeature::Segment;
  for (double z : {-cap.halfLength(), cap.halfLength()})
    out.vertex.push_back(axpy(f.toWorld(Vec3{0.0, 0.0, z}), cap.radius(), d));
  out.vertexId.push_back(1);
  out.vertexId.push_back(2);
  out.edgeId.push_back(0);
  out.faceId = 0;
}

// Thread scratch of hullFeature (no allocation per call once grown).
struct HullScratch {
  std::vector<std::pair<double, std::size_t>> facet;  // (angle, vertex index)
};

void hullFeature(const ConvexHullShape& hull, const Frame& f, const Vec3& dl, double sinTol,
                 double cosTol, SupportFeature& out) {
  const std::vector<Vec3>& v = hull.vertices();
  // The support vertex (first on ties, as ConvexHullShape::support).
  std::size_t s0 = 0;
  for (std::size_t i = 1; i < v.size(); ++i)
    if (dot(v[i], dl) > dot(v[s0], dl)) s0 = i;
  // The facet triangle most aligned with d.
  double bestCos = -2.0;
  Vec3 bestN{0.0, 0.0, 0.0};
  std::size_t bestT = 0;
  const auto& tris = hull.triangles();
  for (std::size_t t = 0; t < tris.size(); ++t) {
    const Vec3& a = v[tris[t][0]];
    const Vec3 n = cross(sub(v[tris[t][1]], a), sub(v[tris[t][2]], a));
    const double ln = norm(n);
    if (!(ln > 0.0)) continue;
    const double c = dot(n, dl) / ln;
    if (c > bestCos) {
      bestCos = c;
      bestN = scale(n, 1.0 / ln);
      bestT = t;
    }
  }
  if (bestCos >= cosTol) {
    // The whole planar facet: the vertices on the triangle's plane, which must hold the
    // support vertex (else the facet is not the support feature: an edge or a point).
    const double offset = dot(bestN, v[tris[bestT][0]]);
    const double tol = 1e-9 * (hull.characteristicSize() + norm(hull.centroid()));
    if (std::abs(dot(bestN, v[s0]) - offset) <= tol) {
      thread_local HullScratch scratch;
      auto& facet = scratch.facet;
      facet.clear();
      Vec3 c{0.0, 0.0, 0.0};
      for (std::size_t i = 0; i < v.size(); ++i)
        if (std::abs(dot(bestN, v[i]) - offset) <= tol) {
          facet.emplace_back(0.0, i);
          c = add(c, v[i]);
        }
      if (facet.size() >= 3) {
        c = scale(c, 1.0 / static_cast<double>(facet.size()));
        const Vec3 e1 = anyPerpendicular(bestN), e2 = cross(bestN, e1);
        for (auto& a : facet) {
          const Vec3 r = sub(v[a.second], c);
          a.first = std::atan2(dot(e2, r), dot(e1, r));
        }
        std::sort(facet.begin(), facet.end());  // counter-clockwise about the outward normal
        out.kind = SupportFeature::Polygon;
        for (const auto& a : facet) {
          out.vertex.push_back(f.toWorld(v[a.second]));
          out.vertexId.push_back(static_cast<int>(a.second % 15));
          out.edgeId.push_back(15 + static_cast<int>(a.second % 15));
        }
        out.faceId = 30;
        out.planeNormal = f.rotate(bestN);
        return;
      }
    }
  }
  // An edge from the support vertex to the next highest one (its neighbour on the hull).
  std::size_t s1 = s0 == 0 ? 1 : 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (i != s0 && dot(v[i], dl) > dot(v[s1], dl)) s1 = i;
  const Vec3 e = sub(v[s0], v[s1]);
  if (dot(dl, e) <= sinTol * norm(e)) {
    const std::size_t lo = std::min(s0, s1), hi = std::max(s0, s1);
    out.kind = SupportFeature::Segment;
    out.vertex.push_back(f.toWorld(v[lo]));
    out.vertex.push_back(f.toWorld(v[hi]));
    out.vertexId.push_back(static_cast<int>(lo % 15));
    out.vertexId.push_back(static_cast<int>(hi % 15));
    out.faceId = 15 + static_cast<int>(lo % 15);
    out.edgeId.push_back(out.faceId);
    return;
  }
  out.kind = SupportFeature::Point;
  out.vertex.push_back(f.toWorld(v[s0]));
  out.vertexId.push_back(static_cast<int>(s0 % 15));
  out.edgeId.push_back(0);
}

}  // namespace

void supportFeature(const Shape& shape, const Pose& pose, const Vec3& d, double sinTol,
                    SupportFeature& out) {
  out.clear();
  const double cosTol = std::sqrt(std::max(0.0, 1.0 - sinTol * sinTol));
  const Frame f(pose);
  const Vec3 dl = f.toBodyDirection(d);
  switch (shape.kind()) {
    case ShapeKind::Box:
      boxFeature(static_cast<const BoxShape&>(shape), f, dl, sinTol, cosTol, out);
      return;
    case ShapeKind::Cylinder:
      cylinderFeature(static_cast<const CylinderShape&>(shape), f, dl, sinTol, cosTol, out);
      return;
    case ShapeKind::Capsule:
      capsuleFeature(static_cast<const CapsuleShape&>(shape), f, d, dl, sinTol, out);
      return;
    case ShapeKind::ConvexHull:
      hullFeature(static_cast<const ConvexHullShape&>(shape), f, dl, sinTol, cosTol, out);
      return;
    default:
      setPoint(shape, pose, d, out);
      return;
  }
}

}  // namespace detail
}  // namespace narrowphase
}  // namespace nsdyn
