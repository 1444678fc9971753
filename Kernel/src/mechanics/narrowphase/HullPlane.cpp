// Convex hull (its vertices) against a plane: the vertices within the margin,
// reduced to at most 4 (see hullPlane in nsdyn/Narrowphase.hpp).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include "NarrowphaseMath.hpp"
#include "nsdyn/Narrowphase.hpp"

namespace nsdyn {
namespace narrowphase {

using namespace detail;

namespace {

struct HullCandidate {
  Vec3 p;      // world position of the vertex
  double gap;  // its signed height above the plane
  int index;   // vertex index
};

// Relative tolerance of the reduction's comparisons: a value within it of the
// best counts as a tie, and ties go to the lowest vertex index (a hull resting
// on a face of 5 or more vertices keeps the same 4 from step to step).
constexpr double kTie = 1e-6;

// Index (into c, which is in vertex order) of the first entry whose value is
// within the tie tolerance of the largest; −1 when the largest is ≤ floor.
template <class F>
int firstNearMax(const std::vector<HullCandidate>& c, F value, double floor) {
  double best = floor;
  for (std::size_t k = 0; k < c.size(); ++k) best = std::max(best, value(k));
  if (!(best > floor)) return -1;
  for (std::size_t k = 0; k < c.size(); ++k)
    if (value(k) >= best - kTie * (best - floor)) return static_cast<int>(k);
  return -1;
}

// Up to 4 of the candidates (positions in c), see hullPlane.
struct Chosen {
  int index[4] = {0, 0, 0, 0};
  int count = 0;
  void push_back(int i) { index[count++] = i; }
};

Chosen reduce(const std::vector<HullCandidate>& c, const Vec3& n) {
  Chosen chosen;
  // Length scale: the candidates' extent (bounding box diagonal).
  Vec3 lo = c[0].p, hi = c[0].p;
  for (const HullCandidate& x : c)
    for (std::size_t k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], x.p[k]);
      hi[k] = std::max(hi[k], x.p[k]);
    }
  const double L = norm(sub(hi, lo));
  // 1. The deepest (the lowest index within kTie·L of the least gap).
  double least = c[0].gap;
  for (const HullCandidate& x : c) least = std::min(least, x.gap);
  int i0 = 0;
  for (std::size_t k = 0; k < c.size(); ++k)
    if (c[k].gap <= least + kTie * L) {
      i0 = static_cast<int>(k);
      break;
    }
  chosen.push_back(i0);
  const Vec3& p0 = c[static_cast<std::size_t>(i0)].p;
  auto inPlane = [&](const Vec3& d) { return axpy(d, -dot(d, n), n); };
  // 2. The farthest from it in the plane.
  const int i1 = firstNearMax(
      c,
      [&](std::size_t k) {
        const Vec3 d = inPlane(sub(c[k].p, p0));
        return dot(d, d);
      },
      1e-24 * L * L);
  if (i1 < 0) return chosen;
  chosen.push_back(i1);
  const Vec3 e01 = sub(c[static_cast<std::size_t>(i1)].p, p0);
  // 3. The largest triangle with them (area seen along n).
  const int i2 = firstNearMax(
      c, [&](std::size_t k) { return std::abs(dot(cross(e01, sub(c[k].p, p0)), n)); },
      1e-12 * L * L);
  if (i2 < 0) return chosen;
  chosen.push_back(i2);
  // 4. The one adding the largest area outside that triangle.
  const Vec3& p2 = c[static_cast<std::size_t>(i2)].p;
  const double orient = dot(cross(e01, sub(p2, p0)), n) > 0.0 ? 1.0 : -1.0;
  const Vec3 tri[3] = {p0, c[static_cast<std::size_t>(i1)].p, p2};
  const int i3 = firstNearMax(
      c,
      [&](std::size_t k) {
        double added = 0.0;
        for (int e = 0; e < 3; ++e) {
          const Vec3& a = tri[e];
          const Vec3& b = tri[(e + 1) % 3];
          added = std::max(added, -orient * dot(cross(sub(b, a), sub(c[k].p, a)), n));
        }
        return added;
      },
      1e-12 * L * L);
  if (i3 >= 0) chosen.push_back(i3);
  return chosen;
}

}  // namespace

int hullPlane(const Pose& hull, const std::vector<Vec3>& vertices, const Plane& plane,
              double margin, ContactList& out) {
  double R[9];
  rotationExact(hull.orientation, R);
  const Vec3& n = plane.normal;
  // Height of the vertex v: n·(x + R v) − offset = base + (Rᵀ n)·v.
  const Vec3 m{R[0] * n[0] + R[3] * n[1] + R[6] * n[2], R[1] * n[0] + R[4] * n[1] + R[7] * n[2],
               R[2] * n[0] + R[5] * n[1] + R[8] * n[2]};
  const double base = dot(n, hull.position) - plane.offset;
  thread_local std::vector<HullCandidate> cand;  // reused: no allocation per call
  cand.clear();
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const Vec3& v = vertices[i];
    if (!(base + dot(m, v) <= margin)) continue;
    const Vec3 p{hull.position[0] + R[0] * v[0] + R[1] * v[1] + R[2] * v[2],
                 hull.position[1] + R[3] * v[0] + R[4] * v[1] + R[5] * v[2],
                 hull.position[2] + R[6] * v[0] + R[7] * v[1] + R[8] * v[2]};
    const double gap = dot(n, p) - plane.offset;
    if (gap <= margin) cand.push_back(HullCandidate{p, gap, static_cast<int>(i)});
  }
  if (cand.empty()) return 0;
  Chosen keep;
  if (cand.size() <= 4) {
    for (std::size_t k = 0; k < cand.size(); ++k) keep.push_back(static_cast<int>(k));
  } else {
    keep = reduce(cand, n);
    // vertex order (cand is in vertex order): insertion sort of at most 4
    for (int i = 1; i < keep.count; ++i)
      for (int j = i; j > 0 && keep.index[j - 1] > keep.index[j]; --j)
        std::swap(keep.index[j - 1], keep.index[j]);
  }
  // Features: the vertex index modulo 32 (5 bits of the contact key) when the
  // kept vertices' residues differ, else their rank in vertex order.
  bool distinct = true;
  for (int i = 0; i < keep.count; ++i)
    for (int j = i + 1; j < keep.count; ++j)
      if ((cand[static_cast<std::size_t>(keep.index[i])].index & 31) ==
          (cand[static_cast<std::size_t>(keep.index[j])].index & 31))
        distinct = false;
  const std::size_t first = out.size();
  for (int r = 0; r < keep.count; ++r) {
    const HullCandidate& c = cand[static_cast<std::size_t>(keep.index[r])];
    ContactPoint cp;
    cp.normal = n;
    cp.gap = c.gap;
    cp.pointA = c.p;
    cp.pointB = axpy(c.p, -c.gap, n);
    cp.featureA = distinct ? (c.index & 31) : r;
    cp.featureB = 0;
    out.push_back(cp);
  }
  sortByFeature(out, first);
  return static_cast<int>(out.size() - first);
}

}  // namespace narrowphase
}  // namespace nsdyn
