// A shape against a terrain: triangles from the terrain's query, one contact routine per
// triangle, the internal-edge rule, groups of points by normal (see
// nsdyn/TriangleNarrowphase.hpp).
#include <algorithm>
#include <cmath>

#include "mechanics/narrowphase/FeatureClip.hpp"
#include "mechanics/terrain/ContactReduce.hpp"
#include "mechanics/terrain/TriangleMath.hpp"
#include "nsdyn/BoxShape.hpp"
#include "nsdyn/CapsuleShape.hpp"
#include "nsdyn/SphereShape.hpp"

namespace nsdyn {
namespace narrowphase {

using namespace detail;

namespace {

constexpr double kConeTol = 1e-9;     // sine: a normal this far outside a cone is outside
constexpr double kSameNormal = 1e-9;  // 1 − n·n' below this: one group
constexpr double kSnap = 1e-6;        // sine: convexContact's normal taken as the face's

// One triangle as a flat convex shape for convexContact (internal; never in a scene).
class TriangleShape final : public Shape {
 public:
  explicit TriangleShape(const TriangleVertices& v) : v_(v) {}
  ShapeKind kind() const override { return ShapeKind::TriangleMesh; }
  std::string kindName() const override { return "triangle"; }
  double volume() const override { return 0.0; }
  Vec3 centroid() const override { return scale(add(add(v_[0], v_[1]), v_[2]), 1.0 / 3.0); }
  Mat3 inertiaPerUnitDensity() const override {
    return Mat3{Vec3{0.0, 0.0, 0.0}, Vec3{0.0, 0.0, 0.0}, Vec3{0.0, 0.0, 0.0}};
  }
  Vec3 support(const Vec3& d) const override {
    std::size_t best = 0;
    for (std::size_t k = 1; k < 3; ++k)
      if (dot(v_[k], d) > dot(v_[best], d)) best = k;
    return v_[best];
  }
  double characteristicSize() const override {
    const Vec3 c = centroid();
    return std::max({norm(sub(v_[0], c)), norm(sub(v_[1], c)), norm(sub(v_[2], c))});
  }

 private:
  TriangleVertices v_;
};

struct Candidate {
  ContactPoint cp;
  std::int32_t tri;
  bool round;  // a sphere's (or capsule's) point: `centre` and `radius` hold
  Vec3 centre;
  double radius;
};

struct Scratch {
  std::vector<std::int32_t> tris, around;
  ContactList points;
  std::vector<Candidate> cand;
  SupportFeature a, b;
  std::vector<ManifoldCandidate> clipped;
  std::vector<std::size_t> order;
  std::vector<ContactPoint> group;
};

// Feature of the triangle nearest to the point q of it: vertex, edge or face (tolerance
// 1e-9 of the triangle's size).
int featureAt(const Vec3& q, const TriangleVertices& t) {
  int feature = 0;
  const Vec3 c = closestOnTriangle(q, t, feature);
  (void)c;
  if (feature != kTriangleFace) return feature;
  const double size =
      std::max({norm(sub(t[1], t[0])), norm(sub(t[2], t[1])), norm(sub(t[0], t[2]))});
  const double tol = 1e-9 * size;
  for (int k = 0; k < 3; ++k)
    if (norm(sub(q, t[static_cast<std::size_t>(k)])) <= tol) return k;
  for (int e = 0; e < 3; ++e) {
    const Vec3& a = t[static_cast<std::size_t>(e)];
    const Vec3 d = sub(t[static_cast<std::size_t>((e + 1) % 3)], a);
    const double s = clamp01(dot(sub(q, a), d) / dot(d, d));
    if (norm(sub(q, axpy(a, s, d))) <= tol) return kTriangleEdge + e;
  }
  return kTriangleFace;
}

// Any finite convex shape against a triangle: convexContact's point, then, when the shape's
// feature lies flat on the triangle, the clipped features (as convexManifold).
void convexTriangle(const Shape& shape, const Pose& pose, const TriangleVertices& tri,
                    double margin, const ConvexContactOptions& options, Scratch& s,
                    ContactList& out) {
  const TriangleShape t(tri);
  const std::size_t first = out.size();
  ConvexContactOptions single = options;
  single.manifold = false;
  if (convexContact(shape, pose, t, Pose(), margin, out, single) == 0) return;
  ContactPoint deepest = out.back();
  const Vec3 f = triangleNormal(tri);
  Vec3 n = deepest.normal;
  if (norm(cross(n, f)) <= kSnap && dot(n, f) > 0.0) n = f;
  if (options.manifold) {
    supportFeature(shape, pose, scale(n, -1.0), kTriangleFlatSine, s.a);
    triangleFeature(tri, f, n, s.b);
    s.clipped.clear();
    if (s.a.kind != SupportFeature::Point && s.b.kind != SupportFeature::Point &&
        clipFeatures(s.a, s.b, n, kTriangleFlatSine, s.clipped)) {
      s.group.clear();
      appendClipped(s.clipped, n, margin, s.group);
      if (s.group.size() >= 2) {
        out.resize(first);
        for (std::size_t k : reduceToFour(s.group, n)) out.push_back(s.group[k]);
        return;
      }
    }
  }
  out.back().featureA = 0;
  out.back().featureB = featureAt(out.back().pointB, tri);
}

// The internal-edge rule (see terrainContacts in the header).
void correct(Candidate& c, const TerrainShape& terrain, const Pose& tp, Scratch& s) {
  const int fb = c.cp.featureB;
  if (fb == kTriangleFace) return;
  const auto ids = terrain.triangleVertices(c.tri);
  Vec3 p;
  if (fb >= kTriangleEdge) {
    const int e = fb - kTriangleEdge;
    const std::int32_t g = terrain.edgeNeighbour(c.tri, e);
    if (g < 0) return;
    s.around.assign({c.tri, g});
    p = tp.toWorld(terrain.vertex(ids[static_cast<std::size_t>(e)]));
  } else {
    const std::int32_t v = ids[static_cast<std::size_t>(fb)];
    if (!terrain.interiorVertex(v)) return;
    terrain.vertexTriangles(v, s.around);
    p = tp.toWorld(terrain.vertex(v));
  }
  const Vec3& n = c.cp.normal;
  bool inside = true;
  double bestDot = -2.0;
  Vec3 bestNormal = n, bestPoint = p;
  for (std::int32_t g : s.around) {
    const auto gi = terrain.triangleVertices(g);
    const TriangleVertices w{tp.toWorld(terrain.vertex(gi[0])), tp.toWorld(terrain.vertex(gi[1])),
                             tp.toWorld(terrain.vertex(gi[2]))};
    for (const Vec3& x : w) {
      const Vec3 d = sub(x, p);
      if (dot(n, d) > kConeTol * norm(d)) inside = false;
    }
    const Vec3 fg = triangleNormal(w);
    if (dot(n, fg) > bestDot) {
      bestDot = dot(n, fg);
      bestNormal = fg;
      bestPoint = w[0];
    }
  }
  if (inside) return;
  const Vec3 centre = c.round ? c.centre : c.cp.pointA;
  const double r = c.round ? c.radius : 0.0;
  const double h = dot(bestNormal, sub(centre, bestPoint));
  c.cp.normal = bestNormal;
  c.cp.gap = h - r;
  c.cp.pointA = axpy(centre, -r, bestNormal);
  c.cp.pointB = axpy(centre, -h, bestNormal);
  c.cp.featureB = kTriangleFace;
}

}  // namespace

int terrainContacts(const Shape& shape, const Pose& pose, const TerrainShape& terrain,
                    const Pose& terrainPose, double margin, ContactList& out,
                    const ConvexContactOptions& options) {
  thread_local Scratch s;
  // the shape's AABB in the terrain frame
  const Pose& tp = terrainPose;
  const Vec3 rel = tp.toBody(pose.position);
  const Quat tq{tp.orientation[0], -tp.orientation[1], -tp.orientation[2], -tp.orientation[3]};
  Shape::Aabb box = shape.boundingBox(rel, multiplyExact(tq, pose.orientation));
  for (std::size_t k = 0; k < 3; ++k) {
    box.min[k] -= margin;
    box.max[k] += margin;
  }
  terrain.queryTriangles(box, s.tris);
  s.cand.clear();
  const ShapeKind kind = shape.kind();
  for (std::int32_t t : s.tris) {
    const auto ids = terrain.triangleVertices(t);
    const TriangleVertices tri{tp.toWorld(terrain.vertex(ids[0])),
                               tp.toWorld(terrain.vertex(ids[1])),
                               tp.toWorld(terrain.vertex(ids[2]))};
    s.points.clear();
    Vec3 ends[2] = {pose.position, pose.position};
    double radius = 0.0;
    bool round = false;
    if (kind == ShapeKind::Sphere) {
      radius = static_cast<const SphereShape&>(shape).radius();
      round = true;
      sphereTriangle(pose.position, radius, tri, margin, s.points);
    } else if (kind == ShapeKind::Capsule) {
      const auto& cap = static_cast<const CapsuleShape&>(shape);
      radius = cap.radius();
      round = true;
      const Vec3 axis = pose.rotate(Vec3{0.0, 0.0, 1.0});
      ends[0] = axpy(pose.position, -cap.halfLength(), axis);
      ends[1] = axpy(pose.position, cap.halfLength(), axis);
      capsuleTriangle(pose, radius, cap.halfLength(), tri, margin, s.points);
    } else if (kind == ShapeKind::Box) {
      boxTriangle(pose, static_cast<const BoxShape&>(shape).halfExtents(), tri, margin, s.points);
    } else {
      convexTriangle(shape, pose, tri, margin, options, s, s.points);
    }
    for (const ContactPoint& cp : s.points) {
      Candidate c{cp, t, round, pose.position, radius};
      if (kind == ShapeKind::Capsule)
        c.centre =
            cp.featureA == 0 ? axpy(cp.pointA, radius, cp.normal) : ends[cp.featureA == 1 ? 0 : 1];
      correct(c, terrain, tp, s);
      if (c.cp.gap <= margin) s.cand.push_back(c);
    }
  }
  // groups by normal, in the order of their first triangle
  int count = 0;
  std::vector<bool> used(s.cand.size(), false);
  int rank = 0;
  for (std::size_t i = 0; i < s.cand.size(); ++i) {
    if (used[i]) continue;
    const Vec3 n = s.cand[i].cp.normal;
    s.order.clear();
    for (std::size_t j = i; j < s.cand.size(); ++j)
      if (!used[j] && 1.0 - dot(s.cand[j].cp.normal, n) <= kSameNormal) {
        used[j] = true;
        s.order.push_back(j);
      }
    std::stable_sort(s.order.begin(), s.order.end(), [&](std::size_t a, std::size_t b) {
      const ContactPoint &x = s.cand[a].cp, &y = s.cand[b].cp;
      return x.featureA != y.featureA ? x.featureA < y.featureA : x.gap < y.gap;
    });
    s.group.clear();
    for (std::size_t k = 0; k < s.order.size(); ++k) {
      const ContactPoint& cp = s.cand[s.order[k]].cp;
      if (k > 0 && cp.featureA == s.group.back().featureA) continue;  // a shallower duplicate
      s.group.push_back(cp);
    }
    // a capsule's side point with an end at least as deep in the group: along one plane the
    // axis is deepest at an end, the side point is then redundant
    if (kind == ShapeKind::Capsule && s.group.size() > 1 && s.group[0].featureA == 0) {
      const auto& cap = static_cast<const CapsuleShape&>(shape);
      const double tol = 1e-12 * (cap.radius() + cap.halfLength());
      double deepestEnd = s.group[1].gap;
      for (std::size_t k = 2; k < s.group.size(); ++k)
        deepestEnd = std::min(deepestEnd, s.group[k].gap);
      if (deepestEnd <= s.group[0].gap + tol) s.group.erase(s.group.begin());
    }
    for (std::size_t k : reduceToFour(s.group, n)) {
      ContactPoint cp = s.group[k];
      cp.featureB = std::min(rank, 31);
      out.push_back(cp);
      ++count;
    }
    ++rank;
  }
  return count;
}

}  // namespace narrowphase
}  // namespace nsdyn
