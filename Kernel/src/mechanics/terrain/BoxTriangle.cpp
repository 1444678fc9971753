// Box against one triangle: separating axes, then the clipped features (see
// nsdyn/TriangleNarrowphase.hpp).
#include <cmath>

#include "mechanics/narrowphase/FeatureClip.hpp"
#include "mechanics/narrowphase/SupportFeature.hpp"
#include "mechanics/terrain/ContactReduce.hpp"
#include "mechanics/terrain/TriangleMath.hpp"
#include "nsdyn/BoxShape.hpp"

namespace nsdyn {
namespace narrowphase {

using namespace detail;

namespace {
constexpr double kFlatSine = kTriangleFlatSine;
}  // namespace

void detail::triangleFeature(const TriangleVertices& tri, const Vec3& f, const Vec3& n,
                             SupportFeature& out) {
  out.clear();
  const double cosFlat = std::sqrt(1.0 - kFlatSine * kFlatSine);
  const double nf = dot(n, f);
  if (std::abs(nf) >= cosFlat) {
    out.kind = SupportFeature::Polygon;
    const int order[2][3] = {{0, 1, 2}, {0, 2, 1}};  // counter-clockwise about planeNormal
    const int* o = order[nf > 0.0 ? 0 : 1];
    for (int k = 0; k < 3; ++k) {
      out.vertex.push_back(tri[static_cast<std::size_t>(o[k])]);
      out.vertexId.push_back(o[k]);
      const int next = o[(k + 1) % 3];
      // the edge between o[k] and next: edge id of the pair
      const int e = (next == (o[k] + 1) % 3) ? o[k] : next;
      out.edgeId.push_back(kTriangleEdge + e);
    }
    out.faceId = kTriangleFace;
    out.planeNormal = nf > 0.0 ? f : scale(f, -1.0);
    return;
  }
  int top = 0;
  for (int k = 1; k < 3; ++k)
    if (dot(n, tri[static_cast<std::size_t>(k)]) > dot(n, tri[static_cast<std::size_t>(top)]))
      top = k;
  // the edges at the top vertex: the one whose other end is higher
  const int prev = (top + 2) % 3, next = (top + 1) % 3;
  const int other =
      dot(n, tri[static_cast<std::size_t>(next)]) >= dot(n, tri[static_cast<std::size_t>(prev)])
          ? next
          : prev;
  const Vec3 e = sub(tri[static_cast<std::size_t>(other)], tri[static_cast<std::size_t>(top)]);
  if (std::abs(dot(e, n)) <= kFlatSine * norm(e)) {
    out.kind = SupportFeature::Segment;
    out.vertex = {tri[static_cast<std::size_t>(top)], tri[static_cast<std::size_t>(other)]};
    out.vertexId = {top, other};
    const int edge = other == next ? top : other;
    out.edgeId = {kTriangleEdge + edge, kTriangleEdge + edge};
    out.faceId = kTriangleEdge + edge;
    return;
  }
  out.kind = SupportFeature::Point;
  out.vertex.push_back(tri[static_cast<std::size_t>(top)]);
  out.vertexId.push_back(top);
  out.edgeId.push_back(top);
}

namespace {

struct Scratch {
  SupportFeature a, b;
  std::vector<ManifoldCandidate> clipped;
  std::vector<ContactPoint> points;
};

}  // namespace

int boxTriangle(const Pose& box, const Vec3& half, const TriangleVertices& tri, double margin,
                ContactList& out) {
  double R[9];
  rotationExact(box.orientation, R);
  const Vec3 ax[3] = {{R[0], R[3], R[6]}, {R[1], R[4], R[7]}, {R[2], R[5], R[8]}};
  const Vec3& c = box.position;
  // separation along L: the box's lowest level minus the triangle's highest
  auto sep = [&](const Vec3& L) {
    double r = 0.0;
    for (int k = 0; k < 3; ++k) r += half[static_cast<std::size_t>(k)] * std::abs(dot(L, ax[k]));
    const double top = std::max({dot(L, tri[0]), dot(L, tri[1]), dot(L, tri[2])});
    return dot(L, c) - r - top;
  };
  const Vec3 f = triangleNormal(tri);
  const Vec3 E[3] = {sub(tri[1], tri[0]), sub(tri[2], tri[1]), sub(tri[0], tri[2])};
  double size = std::max({half[0], half[1], half[2]});
  for (const Vec3& e : E) size = std::max(size, norm(e));
  const double tol = 1e-9 * size;
  Vec3 n = f;
  double best = sep(f);
  int kind = 0, axisK = 0, edgeE = 0;  // kind 0 triangle face, 1 box face, 2 edge × edge
  for (int k = 0; k < 3; ++k) {
    const Vec3 L = ax[k], M = scale(L, -1.0);
    const double s1 = sep(L), s2 = sep(M);
    const double s = std::max(s1, s2);
    if (s > best + tol) {
      best = s;
      n = s1 >= s2 ? L : M;
      kind = 1;
      axisK = k;
    }
  }
  for (int k = 0; k < 3; ++k)
    for (int e = 0; e < 3; ++e) {
      Vec3 L = cross(ax[k], E[e]);
      const double len = norm(L);
      if (!(len > 1e-9 * norm(E[e]))) continue;  // parallel
      L = scale(L, 1.0 / len);
      const Vec3 M = scale(L, -1.0);
      const double s1 = sep(L), s2 = sep(M);
      const double s = std::max(s1, s2);
      if (s > best + tol) {
        best = s;
        n = s1 >= s2 ? L : M;
        kind = 2;
        axisK = k;
        edgeE = e;
      }
    }
  if (!(best <= margin)) return 0;

  thread_local Scratch scratch;
  const BoxShape shape(half);
  supportFeature(shape, box, scale(n, -1.0), kFlatSine, scratch.a);
  triangleFeature(tri, f, n, scratch.b);
  scratch.clipped.clear();
  const bool manifold = scratch.a.kind != SupportFeature::Point &&
                        scratch.b.kind != SupportFeature::Point &&
                        clipFeatures(scratch.a, scratch.b, n, kFlatSine, scratch.clipped);
  if (manifold) {
    scratch.points.clear();
    appendClipped(scratch.clipped, n, margin, scratch.points);
    if (!scratch.points.empty()) {
      const auto keep = reduceToFour(scratch.points, n);
      for (std::size_t k : keep) out.push_back(scratch.points[k]);
      return static_cast<int>(keep.size());
    }
  }
  // one point: the box's lowest vertex (triangle face), the triangle's highest vertex (box
  // face) or the closest points of the two edges
  int sign[3];
  for (int j = 0; j < 3; ++j) sign[j] = dot(ax[j], n) > 0.0 ? -1 : 1;
  ContactPoint cp;
  cp.normal = n;
  cp.gap = best;
  if (kind == 2) {
    Vec3 start = c;
    for (int j = 0; j < 3; ++j)
      if (j != axisK) start = axpy(start, sign[j] * half[static_cast<std::size_t>(j)], ax[j]);
    start = axpy(start, -half[static_cast<std::size_t>(axisK)], ax[axisK]);
    const Vec3 dir = scale(ax[axisK], 2.0 * half[static_cast<std::size_t>(axisK)]);
    double s = 0.0, t = 0.0;
    closestSegmentSegment(start, dir, tri[static_cast<std::size_t>(edgeE)], E[edgeE], s, t);
    cp.pointA = axpy(start, s, dir);
    cp.pointB = axpy(cp.pointA, -best, n);
    cp.featureA = boxEdgeId(axisK, sign);
    cp.featureB = t <= 0.0 ? edgeE : t >= 1.0 ? (edgeE + 1) % 3 : kTriangleEdge + edgeE;
  } else if (kind == 1) {
    int top = 0;
    for (int k = 1; k < 3; ++k)
      if (dot(n, tri[static_cast<std::size_t>(k)]) > dot(n, tri[static_cast<std::size_t>(top)]))
        top = k;
    cp.pointB = tri[static_cast<std::size_t>(top)];
    cp.pointA = axpy(cp.pointB, best, n);
    cp.featureA = boxFaceId(axisK, sign[axisK]);
    cp.featureB = top;
  } else {
    Vec3 v = c;
    for (int j = 0; j < 3; ++j) v = axpy(v, sign[j] * half[static_cast<std::size_t>(j)], ax[j]);
    cp.pointA = v;
    cp.pointB = axpy(v, -best, n);
    cp.featureA = boxVertexId(sign);
    cp.featureB = kTriangleFace;
  }
  out.push_back(cp);
  return 1;
}

}  // namespace narrowphase
}  // namespace nsdyn
