// Contact manifold of two finite convex shapes: convexContact's deepest point and normal,
// then the support features of both shapes clipped against each other (see
// nsdyn/ConvexContact.hpp, convexManifold).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "nsdyn/ConvexContact.hpp"

#include "mechanics/narrowphase/FeatureClip.hpp"
#include "mechanics/narrowphase/NarrowphaseMath.hpp"
#include "mechanics/narrowphase/SupportFeature.hpp"

namespace nsdyn {

namespace {

using narrowphase::ContactList;
using narrowphase::ContactPoint;
using narrowphase::Pose;
using narrowphase::detail::cross;
using narrowphase::detail::dot;
using narrowphase::detail::ManifoldCandidate;
using narrowphase::detail::norm;
using narrowphase::detail::sub;
using narrowphase::detail::SupportFeature;
using Vec3 = quaternion::Vec3;

// Sine of the angle within which a face counts as facing the normal, an edge as lying
// across it (about 2.9 degrees): beyond it the features are a vertex or an edge seen end
// on, and the single deepest point stands. Within it the points of the clipped features
// are kept by their own gaps (≤ margin), so a face tilted by α keeps the points less than
// margin / sin α from its lowest edge.
constexpr double kFlatSine = 0.05;

// Largest sine of the angle between convexContact's normal and a face's normal for the
// face's to be taken instead.
constexpr double kSnap = 1e-6;

// Relative tolerance of the reduction's comparisons (ties go to the lower label, so a
// face of more than 4 candidates keeps the same 4 from step to step).
constexpr double kTie = 1e-6;

struct Scratch {
  SupportFeature a, b;
  std::vector<ManifoldCandidate> candidates;
};

// Position in c (label order) of the first value within kTie of the largest; -1 when the
// largest is ≤ floor.
template <class F>
int firstNearMax(std::size_t count, F value, double floor) {
  double best = floor;
  for (std::size_t k = 0; k < count; ++k) best = std::max(best, value(k));
  if (!(best > floor)) return -1;
  for (std::size_t k = 0; k < count; ++k)
    if (value(k) >= best - kTie * (best - floor)) return static_cast<int>(k);
  return -1;
}

// Up to 4 of the candidates: the deepest, the farthest from it (in the plane), the one
// making the largest triangle with these two, the one adding the largest area outside it.
int reduce(const std::vector<ManifoldCandidate>& c, const Vec3& n, int keep[4]) {
  const std::size_t count = c.size();
  if (count <= 4) {
    for (std::size_t k = 0; k < count; ++k) keep[k] = static_cast<int>(k);
    return static_cast<int>(count);
  }
  Vec3 lo = c[0].pointA, hi = c[0].pointA;
  for (const ManifoldCandidate& x : c)
    for (std::size_t k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], x.pointA[k]);
      hi[k] = std::max(hi[k], x.pointA[k]);
    }
  const double L = norm(sub(hi, lo));
  double least = c[0].gap;
  for (const ManifoldCandidate& x : c) least = std::min(least, x.gap);
  int chosen = 0;
  for (std::size_t k = 0; k < count; ++k)
    if (c[k].gap <= least + kTie * L) {
      keep[chosen++] = static_cast<int>(k);
      break;
    }
  const Vec3& p0 = c[static_cast<std::size_t>(keep[0])].pointA;
  const int i1 = firstNearMax(
      count,
      [&](std::size_t k) {
        const Vec3 d = sub(c[k].pointA, p0);
        const double along = dot(d, n);
        return dot(d, d) - along * along;
      },
      1e-24 * L * L);
  if (i1 < 0) return chosen;
  keep[chosen++] = i1;
  const Vec3 e01 = sub(c[static_cast<std::size_t>(i1)].pointA, p0);
  const int i2 = firstNearMax(
      count, [&](std::size_t k) { return std::abs(dot(cross(e01, sub(c[k].pointA, p0)), n)); },
      1e-12 * L * L);
  if (i2 < 0) return chosen;
  keep[chosen++] = i2;
  const Vec3& p2 = c[static_cast<std::size_t>(i2)].pointA;
  const double orient = dot(cross(e01, sub(p2, p0)), n) > 0.0 ? 1.0 : -1.0;
  const Vec3 tri[3] = {p0, c[static_cast<std::size_t>(i1)].pointA, p2};
  const int i3 = firstNearMax(
      count,
      [&](std::size_t k) {
        double added = 0.0;
        for (int e = 0; e < 3; ++e) {
          const Vec3& a = tri[e];
          const Vec3& b = tri[(e + 1) % 3];
          added = std::max(added, -orient * dot(cross(sub(b, a), sub(c[k].pointA, a)), n));
        }
        return added;
      },
      1e-12 * L * L);
  if (i3 >= 0) keep[chosen++] = i3;
  std::sort(keep, keep + chosen);  // label order
  return chosen;
}

}  // namespace

int convexManifold(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB,
                   double margin, ContactList& out, const ConvexContactOptions& options) {
  const std::size_t first = out.size();
  const int single = convexContact(a, poseA, b, poseB, margin, out, options);
  if (single == 0 || !options.manifold) return single;
  const ContactPoint deepest = out.back();
  Vec3 n = deepest.normal;

  thread_local Scratch scratch;
  auto features = [&] {
    narrowphase::detail::supportFeature(a, poseA, Vec3{-n[0], -n[1], -n[2]}, kFlatSine, scratch.a);
    narrowphase::detail::supportFeature(b, poseB, n, kFlatSine, scratch.b);
  };
  features();
  // A face's own normal when convexContact's is that face's within kSnap (its search
  // leaves the normal of a face resting on a face within about tolerance / width of it).
  Vec3 snapped = n;
  double least = kSnap;
  for (int k = 0; k < 2; ++k) {
    const SupportFeature& f = k == 0 ? scratch.b : scratch.a;
    if (f.kind != SupportFeature::Polygon) continue;
    const Vec3 m =
        k == 0 ? f.planeNormal : Vec3{-f.planeNormal[0], -f.planeNormal[1], -f.planeNormal[2]};
    const double off = norm(cross(m, n));
    if (dot(m, n) > 0.0 && off < least) {
      least = off;
      snapped = m;
    }
  }
  if (snapped != n) {
    n = snapped;
    features();
  }
  auto& cand = scratch.candidates;
  cand.clear();
  if (!narrowphase::detail::clipFeatures(scratch.a, scratch.b, n, kFlatSine, cand)) return single;
  // The points within the margin, in label order.
  cand.erase(std::remove_if(cand.begin(), cand.end(),
                            [&](const ManifoldCandidate& c) { return !(c.gap <= margin); }),
             cand.end());
  if (cand.size() < 2) return single;
  // The manifold must hold the deepest point (its least gap that of convexContact, which is
  // never above the true gap, up to the normal's snap): else the features found are not
  // those in contact.
  double lowest = cand[0].gap;
  for (const ManifoldCandidate& c : cand) lowest = std::min(lowest, c.gap);
  const double size = std::min(a.characteristicSize(), b.characteristicSize());
  if (!(lowest <= deepest.gap + std::max(4.0 * options.tolerance, 1e-7 * size))) return single;

  int keep[4];
  const int count = reduce(cand, n, keep);
  if (count < 2) return single;
  // Keys of one call distinct (labels taken mod 32 by the key): else the rank instead.
  bool distinct = true;
  for (int i = 0; i < count; ++i)
    for (int j = i + 1; j < count; ++j) {
      const ManifoldCandidate& x = cand[static_cast<std::size_t>(keep[i])];
      const ManifoldCandidate& y = cand[static_cast<std::size_t>(keep[j])];
      if ((x.featureA & 31) == (y.featureA & 31) && (x.featureB & 31) == (y.featureB & 31))
        distinct = false;
    }
  out.resize(first);
  for (int r = 0; r < count; ++r) {
    const ManifoldCandidate& c = cand[static_cast<std::size_t>(keep[r])];
    ContactPoint p;
    p.pointA = c.pointA;
    p.pointB = c.pointB;
    p.normal = n;
    p.gap = c.gap;
    p.featureA = distinct ? c.featureA : r;
    p.featureB = distinct ? c.featureB : 31;
    out.push_back(p);
  }
  narrowphase::detail::sortByFeature(out, first);
  return count;
}

}  // namespace nsdyn
