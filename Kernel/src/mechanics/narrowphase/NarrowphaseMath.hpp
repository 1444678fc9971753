// Small vector helpers and shared routines of the narrowphase (internal).
#ifndef NSDYN_KERNEL_NARROWPHASE_MATH_HPP
#define NSDYN_KERNEL_NARROWPHASE_MATH_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "nsdyn/Narrowphase.hpp"

namespace nsdyn {
namespace narrowphase {
namespace detail {

inline Vec3 add(const Vec3& a, const Vec3& b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
inline Vec3 sub(const Vec3& a, const Vec3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
inline Vec3 scale(const Vec3& a, double s) {
  return {a[0] * s, a[1] * s, a[2] * s};
}
/// a + s b
inline Vec3 axpy(const Vec3& a, double s, const Vec3& b) {
  return {a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2]};
}
inline double dot(const Vec3& a, const Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
inline Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
inline double norm(const Vec3& a) {
  return std::sqrt(dot(a, a));
}
inline double clamp01(double x) {
  return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x);
}

/// R(q) of quaternion::rotationMatrix, entry by entry the same arithmetic (row-major), on
/// the stack: rotateExact and rotateTransposeExact give the bits of quaternion::rotate and
/// quaternion::rotateTranspose without their heap matrix.
inline void rotationExact(const Quat& q, double* R) {
  const double q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];
  R[0] = q0 * q0 + q1 * q1 - q2 * q2 - q3 * q3;
  R[1] = 2.0 * (q1 * q2 - q0 * q3);
  R[2] = 2.0 * (q1 * q3 + q0 * q2);
  R[3] = 2.0 * (q1 * q2 + q0 * q3);
  R[4] = q0 * q0 - q1 * q1 + q2 * q2 - q3 * q3;
  R[5] = 2.0 * (q2 * q3 - q0 * q1);
  R[6] = 2.0 * (q1 * q3 - q0 * q2);
  R[7] = 2.0 * (q2 * q3 + q0 * q1);
  R[8] = q0 * q0 - q1 * q1 - q2 * q2 + q3 * q3;
}
/// R(q) a, the bits of quaternion::rotate.
inline Vec3 rotateExact(const Quat& q, const Vec3& a) {
  double R[9];
  rotationExact(q, R);
  return {R[0] * a[0] + R[1] * a[1] + R[2] * a[2], R[3] * a[0] + R[4] * a[1] + R[5] * a[2],
          R[6] * a[0] + R[7] * a[1] + R[8] * a[2]};
}
/// R(q)ᵀ a, the bits of quaternion::rotateTranspose.
inline Vec3 rotateTransposeExact(const Quat& q, const Vec3& a) {
  double R[9];
  rotationExact(q, R);
  return {R[0] * a[0] + R[3] * a[1] + R[6] * a[2], R[1] * a[0] + R[4] * a[1] + R[7] * a[2],
          R[2] * a[0] + R[5] * a[1] + R[8] * a[2]};
}
/// a ⊗ b, the bits of quaternion::multiply.
inline Quat multiplyExact(const Quat& a, const Quat& b) {
  return Quat{a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
              a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
              a[0] * b[2] + a[2] * b[0] + a[3] * b[1] - a[1] * b[3],
              a[0] * b[3] + a[3] * b[0] + a[1] * b[2] - a[2] * b[1]};
}

/// A unit vector perpendicular to the unit vector u, chosen deterministically.
inline Vec3 anyPerpendicular(const Vec3& u) {
  const Vec3 e =
      std::abs(u[0]) <= std::abs(u[1]) && std::abs(u[0]) <= std::abs(u[2])
          ? Vec3{1.0, 0.0, 0.0}
          : (std::abs(u[1]) <= std::abs(u[2]) ? Vec3{0.0, 1.0, 0.0} : Vec3{0.0, 0.0, 1.0});
  const Vec3 p = cross(u, e);
  return scale(p, 1.0 / norm(p));
}

/// Closest points P(s) = p0 + s d1, Q(t) = q0 + t d2, s, t ∈ [0, 1], of two
/// segments (non-parallel or degenerate case; minimiser of |P(s) − Q(t)|²).
inline void closestSegmentSegment(const Vec3& p0, const Vec3& d1, const Vec3& q0, const Vec3& d2,
                                  double& s, double& t) {
  const Vec3 r = sub(p0, q0);
  const double a = dot(d1, d1), e = dot(d2, d2), b = dot(d1, d2), c = dot(d1, r), f = dot(d2, r);
  const double tiny = 1e-300;
  if (a <= tiny && e <= tiny) {
    s = t = 0.0;
    return;
  }
  if (a <= tiny) {
    s = 0.0;
    t = clamp01(f / e);
    return;
  }
  if (e <= tiny) {
    t = 0.0;
    s = clamp01(-c / a);
    return;
  }
  const double denom = a * e - b * b;
  s = denom > 0.0 ? clamp01((b * f - c * e) / denom) : 0.0;
  t = (b * s + f) / e;
  if (t < 0.0) {
    t = 0.0;
    s = clamp01(-c / a);
  } else if (t > 1.0) {
    t = 1.0;
    s = clamp01((b - c) / a);
  }
}

/// Sorts the points appended from index @p first by (featureA, featureB).
inline void sortByFeature(ContactList& out, std::size_t first) {
  std::stable_sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                   [](const ContactPoint& x, const ContactPoint& y) {
                     return x.featureA != y.featureA ? x.featureA < y.featureA
                                                     : x.featureB < y.featureB;
                   });
}

/// Box feature ids (see Narrowphase.hpp). sign[k] > 0 means +half[k].
inline int boxVertexId(const int sign[3]) {
  return (sign[0] > 0 ? 1 : 0) | (sign[1] > 0 ? 2 : 0) | (sign[2] > 0 ? 4 : 0);
}
inline int boxEdgeId(int axis, const int sign[3]) {
  const int k1 = (axis + 1) % 3, k2 = (axis + 2) % 3;
  return 8 + 4 * axis + 2 * (sign[k1] > 0 ? 1 : 0) + (sign[k2] > 0 ? 1 : 0);
}
inline int boxFaceId(int axis, int sign) {
  return 20 + 2 * axis + (sign > 0 ? 1 : 0);
}

/// Pairs of spheres (centres, radii) as one contact: shared by spheres and capsules.
/// @p fallbackNormal (unit, from B to A) is used when the centres coincide.
inline ContactPoint sphereContact(const Vec3& cA, double rA, const Vec3& cB, double rB,
                                  const Vec3& fallbackNormal) {
  ContactPoint cp;
  const Vec3 d = sub(cA, cB);
  const double dist = norm(d);
  cp.normal = dist > 0.0 ? scale(d, 1.0 / dist) : fallbackNormal;
  cp.gap = dist - rA - rB;
  cp.pointA = axpy(cA, -rA, cp.normal);
  cp.pointB = axpy(cB, rB, cp.normal);
  return cp;
}

}  // namespace detail
}  // namespace narrowphase
}  // namespace nsdyn

#endif
