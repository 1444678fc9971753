// Sphere and capsule against one triangle (see nsdyn/TriangleNarrowphase.hpp).
#include <cmath>

#include "mechanics/terrain/TriangleMath.hpp"

namespace nsdyn {
namespace narrowphase {

using namespace detail;

namespace {

// The contact of the sphere (c, r) with the triangle; false when no closest point exists
// (never) — always fills cp.
ContactPoint sphereTriangleContact(const Vec3& c, double r, const TriangleVertices& tri) {
  ContactPoint cp;
  int feature = 0;
  const Vec3 q = closestOnTriangle(c, tri, feature);
  const Vec3 f = triangleNormal(tri);
  if (feature == kTriangleFace) {
    const double h = dot(f, sub(c, tri[0]));
    cp.normal = f;
    cp.gap = h - r;
    cp.pointA = axpy(c, -r, f);
    cp.pointB = axpy(c, -h, f);
  } else {
    const Vec3 d = sub(c, q);
    const double dist = norm(d);
    cp.normal = dist > 0.0 ? scale(d, 1.0 / dist) : f;
    cp.gap = dist - r;
    cp.pointA = axpy(c, -r, cp.normal);
    cp.pointB = q;
  }
  cp.featureA = 0;
  cp.featureB = feature;
  return cp;
}

}  // namespace

int sphereTriangle(const Vec3& center, double radius, const TriangleVertices& tri, double margin,
                   ContactList& out) {
  const ContactPoint cp = sphereTriangleContact(center, radius, tri);
  if (!(cp.gap <= margin)) return 0;
  out.push_back(cp);
  return 1;
}

int capsuleTriangle(const Pose& capsule, double radius, double halfLength,
                    const TriangleVertices& tri, double margin, ContactList& out) {
  const Vec3 axis = capsule.rotate(Vec3{0.0, 0.0, 1.0});
  const Vec3 p0 = axpy(capsule.position, -halfLength, axis);
  const Vec3 p1 = axpy(capsule.position, halfLength, axis);
  int count = 0;
  ContactPoint ends[2] = {sphereTriangleContact(p0, radius, tri),
                          sphereTriangleContact(p1, radius, tri)};
  // the side: closest points of the axis and the triangle's edges, inside the segment
  const Vec3 d = sub(p1, p0);
  double best = INFINITY, bestS = 0.0, bestT = 0.0;
  Vec3 bestP{}, bestQ{};
  int bestEdge = 0;
  for (int e = 0; e < 3; ++e) {
    const Vec3& a = tri[static_cast<std::size_t>(e)];
    const Vec3 ed = sub(tri[static_cast<std::size_t>((e + 1) % 3)], a);
    double s = 0.0, t = 0.0;
    closestSegmentSegment(p0, d, a, ed, s, t);
    const Vec3 P = axpy(p0, s, d), Q = axpy(a, t, ed);
    const double dist = norm(sub(P, Q));
    if (dist < best) {
      best = dist;
      bestS = s;
      bestT = t;
      bestP = P;
      bestQ = Q;
      bestEdge = e;
    }
  }
  const double endDist = std::min(ends[0].gap, ends[1].gap) + radius;
  const double size = std::max(2.0 * halfLength, radius);
  const Vec3 f = triangleNormal(tri);
  // the axis must not cross the triangle (then the ends' face contacts hold the depth)
  const double h0 = dot(f, sub(p0, tri[0])), h1 = dot(f, sub(p1, tri[0]));
  bool crosses = false;
  if ((h0 < 0.0) != (h1 < 0.0)) {  // through the triangle, or beside it
    int region = 0;
    const Vec3 x = axpy(p0, h0 / (h0 - h1), d);
    const Vec3 q = closestOnTriangle(x, tri, region);
    crosses = norm(sub(x, q)) <= 1e-12 * size;
  }
  for (int k = 0; k < 2; ++k) {
    ContactPoint& cp = ends[k];
    if (!(cp.gap <= margin)) continue;
    cp.featureA = 1 + k;
    out.push_back(cp);
    ++count;
  }
  if (!crosses && bestS > 1e-9 && bestS < 1.0 - 1e-9 && best > 0.0 &&
      best < endDist - 1e-12 * size) {
    ContactPoint cp;
    cp.normal = scale(sub(bestP, bestQ), 1.0 / best);
    cp.gap = best - radius;
    if (cp.gap <= margin) {
      cp.pointA = axpy(bestP, -radius, cp.normal);
      cp.pointB = bestQ;
      cp.featureA = 0;
      // at an end of the edge: that vertex (its normal cone is the vertex's)
      cp.featureB = bestT <= 0.0   ? bestEdge
                    : bestT >= 1.0 ? (bestEdge + 1) % 3
                                   : kTriangleEdge + bestEdge;
      out.insert(out.end() - count, cp);  // featureA order: side first
      ++count;
    }
  }
  return count;
}

}  // namespace narrowphase
}  // namespace nsdyn
