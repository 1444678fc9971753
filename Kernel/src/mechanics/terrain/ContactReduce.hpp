// Reduction of a flat set of contact points to 4 (internal, terrain narrowphase).
#ifndef NSDYN_KERNEL_CONTACT_REDUCE_HPP
#define NSDYN_KERNEL_CONTACT_REDUCE_HPP

#include <algorithm>
#include <cmath>
#include <vector>

#include "mechanics/narrowphase/FeatureClip.hpp"
#include "mechanics/narrowphase/NarrowphaseMath.hpp"

namespace nsdyn {
namespace narrowphase {
namespace detail {

/// Keeps at most 4 of the points @p c (in label order), returned as indices in increasing
/// order: the deepest, the farthest from it across @p n, the one making the largest triangle
/// with these two, the one adding the largest area outside that triangle. Each choice takes
/// the first point (lowest index) within a relative 1e-6 of the best value, so equal
/// candidates (a face resting flat) keep the same 4 from step to step.
inline std::vector<std::size_t> reduceToFour(const std::vector<ContactPoint>& c, const Vec3& n) {
  std::vector<std::size_t> keep;
  const std::size_t count = c.size();
  if (count <= 4) {
    for (std::size_t k = 0; k < count; ++k) keep.push_back(k);
    return keep;
  }
  constexpr double tie = 1e-6;
  Vec3 lo = c[0].pointA, hi = c[0].pointA;
  double least = c[0].gap;
  for (const ContactPoint& x : c) {
    least = std::min(least, x.gap);
    for (std::size_t k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], x.pointA[k]);
      hi[k] = std::max(hi[k], x.pointA[k]);
    }
  }
  const double L = norm(sub(hi, lo));
  auto firstNearMax = [&](auto value, double floor) -> long {
    double best = floor;
    for (std::size_t k = 0; k < count; ++k) best = std::max(best, value(k));
    if (!(best > floor)) return -1;
    for (std::size_t k = 0; k < count; ++k)
      if (value(k) >= best - tie * (best - floor)) return static_cast<long>(k);
    return -1;
  };
  std::size_t i0 = 0;
  for (std::size_t k = 0; k < count; ++k)
    if (c[k].gap <= least + tie * L) {
      i0 = k;
      break;
    }
  keep.push_back(i0);
  const Vec3 p0 = c[i0].pointA;
  const long i1 = firstNearMax(
      [&](std::size_t k) {
        const Vec3 d = sub(c[k].pointA, p0);
        const double along = dot(d, n);
        return dot(d, d) - along * along;
      },
      1e-24 * L * L);
  if (i1 >= 0) {
    keep.push_back(static_cast<std::size_t>(i1));
    const Vec3 e01 = sub(c[static_cast<std::size_t>(i1)].pointA, p0);
    const long i2 = firstNearMax(
        [&](std::size_t k) { return std::abs(dot(cross(e01, sub(c[k].pointA, p0)), n)); },
        1e-12 * L * L);
    if (i2 >= 0) {
      keep.push_back(static_cast<std::size_t>(i2));
      const Vec3 tri[3] = {p0, c[static_cast<std::size_t>(i1)].pointA,
                           c[static_cast<std::size_t>(i2)].pointA};
      const double orient = dot(cross(e01, sub(tri[2], p0)), n) > 0.0 ? 1.0 : -1.0;
      const long i3 = firstNearMax(
          [&](std::size_t k) {
            double added = 0.0;
            for (int e = 0; e < 3; ++e)
              added = std::max(
                  added,
                  -orient * dot(cross(sub(tri[(e + 1) % 3], tri[e]), sub(c[k].pointA, tri[e])), n));
            return added;
          },
          1e-12 * L * L);
      if (i3 >= 0) keep.push_back(static_cast<std::size_t>(i3));
    }
  }
  std::sort(keep.begin(), keep.end());
  return keep;
}

/// Appends to @p out the clipped candidates @p clipped whose gap is within @p margin, as
/// contact points of normal @p n (the same for all: a face against a face or an edge).
inline void appendClipped(const std::vector<ManifoldCandidate>& clipped, const Vec3& n,
                          double margin, std::vector<ContactPoint>& out) {
  for (const ManifoldCandidate& m : clipped) {
    if (!(m.gap <= margin)) continue;
    ContactPoint cp;
    cp.pointA = m.pointA;
    cp.pointB = m.pointB;
    cp.gap = m.gap;
    cp.normal = n;
    cp.featureA = m.featureA;
    cp.featureB = m.featureB;
    out.push_back(cp);
  }
}

}  // namespace detail
}  // namespace narrowphase
}  // namespace nsdyn

#endif
