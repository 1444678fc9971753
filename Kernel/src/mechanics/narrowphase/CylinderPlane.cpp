// Cylinder against a plane: points of the two cap rims (see cylinderPlane in
// nsdyn/Narrowphase.hpp). Cylinder axis: body z, caps at ±halfLength.
#include <algorithm>
#include <cmath>

#include "NarrowphaseMath.hpp"
#include "nsdyn/Narrowphase.hpp"

namespace nsdyn {
namespace narrowphase {

using namespace detail;

namespace {

// Below this |sin| of the angle between the axis and the plane normal the rim
// points sit at fixed body-frame angles (body x, y, −x, −y): a standing
// cylinder's points do not turn with the round-off direction of its tilt. The
// deepest rim point is then at most 0.3·radius·1e-6 deeper than the deepest
// point kept.
constexpr double kFlatTilt = 1e-6;

}  // namespace

int cylinderPlane(const Pose& cylinder, double radius, double halfLength, const Plane& plane,
                  double margin, ContactList& out) {
  double R[9];
  rotationExact(cylinder.orientation, R);
  const Vec3 ex{R[0], R[3], R[6]}, ey{R[1], R[4], R[7]}, axis{R[2], R[5], R[8]};
  const Vec3& n = plane.normal;
  // Direction of the deepest rim point in the cap plane: −n without its axial part.
  const Vec3 t = axpy(Vec3{-n[0], -n[1], -n[2]}, dot(n, axis), axis);
  const double lt = norm(t);
  Vec3 d0, d1;
  if (lt > kFlatTilt) {
    d0 = scale(t, 1.0 / lt);
    d1 = cross(axis, d0);  // +90° about the axis
  } else {
    d0 = ex;
    d1 = ey;
  }
  const Vec3 dirs[4] = {d0, d1, Vec3{-d0[0], -d0[1], -d0[2]}, Vec3{-d1[0], -d1[1], -d1[2]}};
  struct Candidate {
    Vec3 p;
    double gap;
    int feature;
  };
  Candidate cand[8];
  int count = 0;
  for (int cap = 0; cap < 2; ++cap) {
    const Vec3 centre = axpy(cylinder.position, cap == 0 ? -halfLength : halfLength, axis);
    for (int j = 0; j < 4; ++j) {
      const Vec3 p = axpy(centre, radius, dirs[j]);
      const double gap = dot(n, p) - plane.offset;
      if (gap <= margin) cand[count++] = Candidate{p, gap, 8 + 4 * cap + j};
    }
  }
  // The 4 deepest (ties to the lower feature), then in feature order.
  std::stable_sort(cand, cand + count,
                   [](const Candidate& a, const Candidate& b) { return a.gap < b.gap; });
  const int kept = std::min(count, 4);
  const std::size_t first = out.size();
  for (int k = 0; k < kept; ++k) {
    ContactPoint cp;
    cp.normal = n;
    cp.gap = cand[k].gap;
    cp.pointA = cand[k].p;
    cp.pointB = axpy(cand[k].p, -cand[k].gap, n);
    cp.featureA = cand[k].feature;
    cp.featureB = 0;
    out.push_back(cp);
  }
  sortByFeature(out, first);
  return static_cast<int>(out.size() - first);
}

}  // namespace narrowphase
}  // namespace nsdyn
