// JointMath.hpp: small helpers shared by the rigid-body relations of
// Kernel/src/mechanics (internal header, not installed).
//
// Conventions (MECHANICS.md §0.1): a body's 7-vector is (G; quaternion q0..q3),
// the relation's q is (q1) or (q1; q2); R(q) is the rotation matrix of the
// quaternion as stored; quaternions multiply with the Hamilton product.
#ifndef NSDYN_KERNEL_MECHANICS_JOINTMATH_HPP
#define NSDYN_KERNEL_MECHANICS_JOINTMATH_HPP

#include <array>
#include <cmath>
#include <cstddef>
#include <string>

#include "nsdyn/Error.hpp"
#include "nsdyn/NewtonEulerDS.hpp"
#include "nsdyn/Quaternion.hpp"
#include "nsdyn/SimpleMatrix.hpp"

namespace nsdyn {
namespace jointmath {

using quaternion::Quat;
using quaternion::Vec3;

// ---- small vector algebra ---------------------------------------------------

inline Vec3 add(const Vec3& a, const Vec3& b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
inline Vec3 sub(const Vec3& a, const Vec3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
inline Vec3 scale(double s, const Vec3& a) {
  return {s * a[0], s * a[1], s * a[2]};
}
inline Vec3 neg(const Vec3& a) {
  return {-a[0], -a[1], -a[2]};
}
inline double norm(const Vec3& a) {
  return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

inline SiconosVector toSiconos(const Vec3& a) {
  return SiconosVector{a[0], a[1], a[2]};
}
inline SiconosVector toSiconos(const Quat& a) {
  return SiconosVector{a[0], a[1], a[2], a[3]};
}

/// The 3 entries of @p v; nsdyn::Error naming @p who and @p what when v has not 3 entries.
inline Vec3 vec3Checked(const SiconosVector& v, const std::string& who, const std::string& what) {
  if (v.size() != 3) throw Error(who, what + " with 3 entries", v.toString());
  return {v(0), v(1), v(2)};
}

/// Vector part of a quaternion.
inline Vec3 vecPart(const Quat& q) {
  return {q[1], q[2], q[3]};
}
/// Pure quaternion (0, v).
inline Quat pure(const Vec3& v) {
  return {0.0, v[0], v[1], v[2]};
}
/// The unit quaternions 1, i, j, k (basis of the derivatives of products).
inline Quat basis(std::size_t k) {
  Quat e{0.0, 0.0, 0.0, 0.0};
  e[k] = 1.0;
  return e;
}
/// q⁻¹ = q* / |q|².
inline Quat inverse(const Quat& q) {
  const double n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  const Quat c = quaternion::conjugate(q);
  return {c[0] / n2, c[1] / n2, c[2] / n2, c[3] / n2};
}
/// World vector @p v expressed in the frame of the body of quaternion @p q: vec(q⁻¹ ⊗ (0, v) ⊗ q).
inline Vec3 toBodyFrame(const Quat& q, const Vec3& v) {
  return vecPart(quaternion::multiply(quaternion::multiply(inverse(q), pure(v)), q));
}

// ---- bodies -----------------------------------------------------------------

/// Centre of mass and quaternion of body @p index (0 or 1) of a relation's q.
struct BodyState {
  Vec3 G;
  Quat Q;
};
inline BodyState bodyState(const SiconosVector& q, std::size_t index) {
  return {quaternion::vec3(q, 7 * index), quaternion::fromVector(q, 7 * index + 3)};
}
inline BodyState bodyState(const NewtonEulerDS& ds) {
  return bodyState(ds.q(), 0);
}
/// Centre of mass of body 2 of a relation's q, or the world origin (one body).
inline Vec3 secondCentre(const SiconosVector& q, bool twoBodies) {
  return twoBodies ? bodyState(q, 1).G : Vec3{0.0, 0.0, 0.0};
}

/// Number of bodies of a relation's q (7 → 1, 14 → 2); nsdyn::Error naming @p who otherwise.
inline std::size_t bodyCount(const SiconosVector& q, const std::string& who) {
  if (q.size() == 7) return 1;
  if (q.size() == 14) return 2;
  throw Error(who, "q of 7 (one body) or 14 (two bodies) entries",
              std::to_string(q.size()) + " entries");
}

/// The bodies' states at a joint's construction: body 1, and body 2 (second() is
/// null for a joint to the world).
struct JointBodies {
  BodyState b1{};
  BodyState b2{};
  bool two = false;
  const BodyState* second() const { return two ? &b2 : nullptr; }
};
inline JointBodies jointBodies(const NewtonEulerDS& body1, const NewtonEulerDS* body2) {
  JointBodies s;
  s.b1 = bodyState(body1);
  if (body2) {
    s.b2 = bodyState(*body2);
    s.two = true;
  }
  return s;
}

// ---- axes ---------------------------------------------------------------------

/// @p axis normalised; nsdyn::Error naming @p who and the value when it is not 3 entries or of zero
/// length.
inline Vec3 unitAxis(const SiconosVector& axis, const std::string& who) {
  const Vec3 a = vec3Checked(axis, who, "an axis");
  const double n = norm(a);
  if (!(n > 0.0) || !std::isfinite(n))
    throw Error(who, "an axis of non-zero finite length", "axis " + axis.toString());
  return {a[0] / n, a[1] / n, a[2] / n};
}

/// Two unit vectors V1, V2 with (a, V1, V2) orthonormal (a unit): V1 from the
/// signed components (MECHANICS.md §0.6, PrismaticJointR): a_x > a_y ? (a_x > a_z ?
/// (a_y, −a_x, 0) : (0, −a_z, a_y)) : (a_z > a_y ? (0, −a_z, a_y) : (a_y, −a_x, 0)),
/// normalised, V2 = a × V1. Where that rule degenerates (e.g. a = (0, 0, −1) gives
/// V1 = 0) the other candidate, of length ≥ 1/√2, is taken instead.
inline void perpendicularBase(const Vec3& a, Vec3& V1, Vec3& V2) {
  const Vec3 c1{a[1], -a[0], 0.0};
  const Vec3 c2{0.0, -a[2], a[1]};
  bool first;
  if (a[0] > a[1])
    first = a[0] > a[2];
  else
    first = !(a[2] > a[1]);
  Vec3 v = first ? c1 : c2;
  if (norm(v) < 1e-6) v = first ? c2 : c1;
  const double n = norm(v);
  V1 = {v[0] / n, v[1] / n, v[2] / n};
  V2 = quaternion::cross(a, V1);
}

/// The joint axis of PrismaticJointR and PivotJointR at construction: @p axis
/// normalised (unitAxis, errors naming @p who), brought into the body-1 frame if
/// it is given in the world (@p absoluteRef); sets @p V1, @p V2 (perpendicularBase).
inline Vec3 bodyAxis(const SiconosVector& axis, bool absoluteRef, const BodyState& b1,
                     const std::string& who, Vec3& V1, Vec3& V2) {
  const Vec3 a = unitAxis(axis, who);
  const Vec3 inBody1 = absoluteRef ? toBodyFrame(b1.Q, a) : a;
  perpendicularBase(inBody1, V1, V2);
  return inBody1;
}

// ---- point coincidence rows (ball joint) ---------------------------------------

/// The joint point of a ball joint at construction (MECHANICS.md §0.6, KneeJointR):
/// @p P a world point (absoluteRef) or a body-1 point; sets the world point
/// @p Pabs, @p G1P0 = the point in the body-1 frame, and @p G2P0 = the point in
/// the body-2 frame (@p b2 non-null) or in the world.
inline void anchorPoints(const Vec3& P, bool absoluteRef, const BodyState& b1, const BodyState* b2,
                         Vec3& Pabs, Vec3& G1P0, Vec3& G2P0) {
  if (absoluteRef) {
    Pabs = P;
    G1P0 = toBodyFrame(b1.Q, sub(P, b1.G));
  } else {
    G1P0 = P;
    Pabs = add(quaternion::rotate(b1.Q, P), b1.G);
  }
  G2P0 = b2 ? toBodyFrame(b2->Q, sub(Pabs, b2->G)) : Pabs;
}

/// h = G1 + R(q1)·G1P0 − (G2 + R(q2)·G2P0) (two bodies) or G1 + R(q1)·G1P0 − G2P0 (one body).
inline Vec3 pointResidual(const SiconosVector& q, bool twoBodies, const Vec3& G1P0,
                          const Vec3& G2P0) {
  const BodyState b1 = bodyState(q, 0);
  const Vec3 p1 = add(b1.G, quaternion::rotate(b1.Q, G1P0));
  if (!twoBodies) return sub(p1, G2P0);
  const BodyState b2 = bodyState(q, 1);
  return sub(p1, add(b2.G, quaternion::rotate(b2.Q, G2P0)));
}

/// Rows [row0, row0+3) of jachq for pointResidual: [I, ∂(R(q1)G1P0)/∂quat1, −I,
/// −∂(R(q2)G2P0)/∂quat2].
inline void pointJacobian(SimpleMatrix& J, std::size_t row0, const SiconosVector& q, bool twoBodies,
                          const Vec3& G1P0, const Vec3& G2P0) {
  const BodyState b1 = bodyState(q, 0);
  const SimpleMatrix D1 = quaternion::rotationDerivative(b1.Q, G1P0);
  for (std::size_t i = 0; i < 3; ++i) {
    J(row0 + i, i) = 1.0;
    for (std::size_t k = 0; k < 4; ++k) J(row0 + i, 3 + k) = D1(i, k);
  }
  if (!twoBodies) return;
  const BodyState b2 = bodyState(q, 1);
  const SimpleMatrix D2 = quaternion::rotationDerivative(b2.Q, G2P0);
  for (std::size_t i = 0; i < 3; ++i) {
    J(row0 + i, 7 + i) = -1.0;
    for (std::size_t k = 0; k < 4; ++k) J(row0 + i, 10 + k) = -D2(i, k);
  }
}

// ---- relative orientation ----------------------------------------------------------

/// The quaternion r = a ⊗ q2* ⊗ q1 ⊗ b (factors a, q2, b omitted when null,
/// i.e. equal to 1) and its derivatives: d1[k] = ∂r/∂q1_k, d2[k] = ∂r/∂q2_k
/// (the product is linear in q1 and in q2, so these are exact).
struct RelativeQuaternion {
  Quat value;
  std::array<Quat, 4> d1;
  std::array<Quat, 4> d2;
};

inline Quat chain(const Quat* a, const Quat* q2c, const Quat& x, const Quat* b) {
  Quat r = x;
  if (q2c) r = quaternion::multiply(*q2c, r);
  if (a) r = quaternion::multiply(*a, r);
  if (b) r = quaternion::multiply(r, *b);
  return r;
}

inline RelativeQuaternion relativeQuaternion(const Quat* a, const Quat& q1, const Quat* q2,
                                             const Quat* b) {
  RelativeQuaternion r;
  Quat q2c{};
  if (q2) q2c = quaternion::conjugate(*q2);
  const Quat* q2cp = q2 ? &q2c : nullptr;
  r.value = chain(a, q2cp, q1, b);
  for (std::size_t k = 0; k < 4; ++k) {
    r.d1[k] = chain(a, q2cp, basis(k), b);
    if (q2) {
      const Quat ekc = quaternion::conjugate(basis(k));
      r.d2[k] = chain(a, &ekc, q1, b);
    } else {
      r.d2[k] = Quat{0.0, 0.0, 0.0, 0.0};
    }
  }
  return r;
}

/// relativeQuaternion of a relation's q: q1 = quat of body 1, q2 = quat of body 2
/// (omitted for one body).
inline RelativeQuaternion relativeQuaternion(const Quat* a, const SiconosVector& q, bool twoBodies,
                                             const Quat* b) {
  const Quat Q1 = bodyState(q, 0).Q;
  if (!twoBodies) return relativeQuaternion(a, Q1, nullptr, b);
  const Quat Q2 = bodyState(q, 1).Q;
  return relativeQuaternion(a, Q1, &Q2, b);
}

/// The relative orientation at a joint's construction: c = q2* ⊗ q1 (two bodies) or q1.
inline Quat initialOrientation(const JointBodies& s) {
  return s.two ? quaternion::multiply(quaternion::conjugate(s.b2.Q), s.b1.Q) : s.b1.Q;
}

/// Rows [row0, row0 + n) of h and of jachq that are linear in the relative
/// quaternion @p r: h[row0 + i] = row(i, r.value), and (jachq) row(i, r.d1[k]) on
/// quat1, row(i, r.d2[k]) on quat2 (two bodies).
template <class Row>
inline void quaternionRows(SiconosVector& h, std::size_t row0, std::size_t n,
                           const RelativeQuaternion& r, Row row) {
  for (std::size_t i = 0; i < n; ++i) h(row0 + i) = row(i, r.value);
}
template <class Row>
inline void quaternionRowsJacobian(SimpleMatrix& J, std::size_t row0, std::size_t n,
                                   const RelativeQuaternion& r, bool twoBodies, Row row) {
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < 4; ++k) {
      J(row0 + i, 3 + k) = row(i, r.d1[k]);
      if (twoBodies) J(row0 + i, 10 + k) = row(i, r.d2[k]);
    }
}

/// The relative orientation rows of PrismaticJointR and FixedJointR, rows [row0,
/// row0 + 3): vec(q2* ⊗ q1 ⊗ c*) (one body: vec(q1 ⊗ c*)), @p cConj = c*.
inline double vecEntry(std::size_t i, const Quat& x) {
  return x[1 + i];
}
inline void orientationResidual(SiconosVector& h, std::size_t row0, const SiconosVector& q,
                                bool twoBodies, const Quat& cConj) {
  quaternionRows(h, row0, 3, relativeQuaternion(nullptr, q, twoBodies, &cConj), vecEntry);
}
inline void orientationJacobian(SimpleMatrix& J, std::size_t row0, const SiconosVector& q,
                                bool twoBodies, const Quat& cConj) {
  quaternionRowsJacobian(J, row0, 3, relativeQuaternion(nullptr, q, twoBodies, &cConj), twoBodies,
                         vecEntry);
}

}  // namespace jointmath
}  // namespace nsdyn

#endif
