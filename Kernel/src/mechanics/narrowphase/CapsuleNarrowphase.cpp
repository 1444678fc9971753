// Narrowphase pairs with a capsule as body A: capsule–capsule, capsule–plane
// (see nsdyn/Narrowphase.hpp). Capsule axis: body z, from −halfLength to +halfLength.
#include <cmath>

#include "NarrowphaseMath.hpp"
#include "nsdyn/Narrowphase.hpp"

namespace nsdyn {
namespace narrowphase {

using namespace detail;

namespace {

int capFeature(double s) {
  return s <= 0.0 ? 1 : (s >= 1.0 ? 2 : 0);
}

}  // namespace

int capsuleCapsule(const Pose& poseA, double radiusA, double halfLengthA, const Pose& poseB,
                   double radiusB, double halfLengthB, double margin, ContactList& out) {
  const Vec3 uA = poseA.rotate(Vec3{0.0, 0.0, 1.0});
  const Vec3 uB = poseB.rotate(Vec3{0.0, 0.0, 1.0});
  const Vec3 p0 = axpy(poseA.position, -halfLengthA, uA);
  const Vec3 q0 = axpy(poseB.position, -halfLengthB, uB);
  const Vec3 d1 = scale(uA, 2.0 * halfLengthA), d2 = scale(uB, 2.0 * halfLengthB);
  const Vec3 axisCross = cross(uA, uB);
  const double crossNorm = norm(axisCross);
  // Normal used when the axes meet: axisA × axisB (antisymmetric in A, B), or
  // a perpendicular to axis A when they are parallel.
  const Vec3 fallback =
      crossNorm > 1e-12 ? scale(axisCross, 1.0 / crossNorm) : anyPerpendicular(uA);
  const std::size_t first = out.size();

  if (halfLengthA > 0.0 && halfLengthB > 0.0 && crossNorm <= 1e-9) {
    // Parallel axes: B's end points in A's parameter s ∈ [0, 1].
    const double a = dot(d1, d1), e = dot(d2, d2);
    const double sq0 = dot(sub(q0, p0), d1) / a;
    const double sq1 = dot(sub(axpy(q0, 1.0, d2), p0), d1) / a;
    const bool q0Low = sq0 <= sq1;
    const double sMin = q0Low ? sq0 : sq1, sMax = q0Low ? sq1 : sq0;
    const double lo = std::max(0.0, sMin), hi = std::min(1.0, sMax);
    if (hi - lo > 1e-9) {
      const double ends[2] = {lo, hi};
      for (int k = 0; k < 2; ++k) {
        const double s = ends[k];
        double t;
        // The overlap ends at an end point of A (s = 0 or 1) or of B (t = 0 or 1).
        if (k == 0 && sMin > 0.0)
          t = q0Low ? 0.0 : 1.0;
        else if (k == 1 && sMax < 1.0)
          t = q0Low ? 1.0 : 0.0;
        else
          t = clamp01(dot(sub(axpy(p0, s, d1), q0), d2) / e);
        ContactPoint cp =
            sphereContact(axpy(p0, s, d1), radiusA, axpy(q0, t, d2), radiusB, fallback);
        if (!(cp.gap <= margin)) continue;
        cp.featureA = capFeature(s);
        cp.featureB = capFeature(t);
        out.push_back(cp);
      }
      sortByFeature(out, first);
      return static_cast<int>(out.size() - first);
    }
  }
  double s = 0.0, t = 0.0;
  closestSegmentSegment(p0, d1, q0, d2, s, t);
  ContactPoint cp = sphereContact(axpy(p0, s, d1), radiusA, axpy(q0, t, d2), radiusB, fallback);
  if (!(cp.gap <= margin)) return 0;
  cp.featureA = halfLengthA > 0.0 ? capFeature(s) : 0;
  cp.featureB = halfLengthB > 0.0 ? capFeature(t) : 0;
  out.push_back(cp);
  return 1;
}

int capsulePlane(const Pose& capsule, double radius, double halfLength, const Plane& plane,
                 double margin, ContactList& out) {
  const Vec3 u = capsule.rotate(Vec3{0.0, 0.0, 1.0});
  const std::size_t first = out.size();
  for (int k = 0; k < 2; ++k) {
    const Vec3 end = axpy(capsule.position, k == 0 ? -halfLength : halfLength, u);
    const double height = dot(plane.normal, end) - plane.offset;
    ContactPoint cp;
    cp.normal = plane.normal;
    cp.gap = height - radius;
    if (!(cp.gap <= margin)) continue;
    cp.pointA = axpy(end, -radius, plane.normal);
    cp.pointB = axpy(end, -height, plane.normal);
    cp.featureA = k + 1;
    out.push_back(cp);
  }
  sortByFeature(out, first);
  return static_cast<int>(out.size() - first);
}

}  // namespace narrowphase
}  // namespace nsdyn
