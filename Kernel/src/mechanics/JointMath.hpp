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
#include <memory>
#include <string>

#include "nsdyn/Error.hpp"
#include "nsdyn/Interaction.hpp"
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

/// Number of bodies of a relation's q (7 → 1, 14 → 2); nsdyn::Error naming @p who otherwise.
inline std::size_t bodyCount(const SiconosVector& q, const std::string& who) {
  if (q.size() == 7) return 1;
  if (q.size() == 14) return 2;
  throw Error(who, "q of 7 (one body) or 14 (two bodies) entries",
              std::to_string(q.size()) + " entries");
}

/// Constructor checks of a joint: non-null bodies, and two different ones.
inline void checkBodies(const std::string& who, const SP::NewtonEulerDS& d1,
                        const SP::NewtonEulerDS& d2, bool twoBodies) {
  if (!d1) throw Error(who, "a first body (NewtonEulerDS)", "a null pointer");
  if (twoBodies) {
    if (!d2) throw Error(who, "a second body (NewtonEulerDS)", "a null pointer");
    if (d1 == d2)
      throw Error(who, "two different bodies", "the same body " + d1->name() + " twice");
  }
}

/// Size check of a joint: law size @p ny and 7 × (number of bodies) coordinates.
inline void checkJointSizes(const std::string& className, std::size_t ny, std::size_t nb,
                            std::size_t interactionSize, std::size_t dof,
                            const std::string& owner) {
  if (interactionSize != ny)
    throw Error(owner, "law size " + std::to_string(ny) + " for " + className,
                std::to_string(interactionSize));
  if (dof != 7 * nb)
    throw Error(owner,
                std::to_string(7 * nb) + " position coordinates for " + className + " (" +
                    std::to_string(nb) + (nb == 1 ? " body)" : " bodies)"),
                std::to_string(dof));
}

/// Link check of a joint: the interaction links exactly the bodies given at
/// construction, in that order (skipped for bodies that no longer exist).
inline void checkLinkedBodies(const Interaction& inter, const std::string& className,
                              const std::weak_ptr<NewtonEulerDS>& b1,
                              const std::weak_ptr<NewtonEulerDS>& b2, bool twoBodies) {
  const auto& systems = inter.dynamicalSystems();
  const std::size_t nb = twoBodies ? 2 : 1;
  if (systems.size() != nb)
    throw Error(inter.name(),
                std::to_string(nb) + (nb == 1 ? " body" : " bodies") + " for " + className,
                std::to_string(systems.size()) + " systems");
  const std::weak_ptr<NewtonEulerDS>* expected[2] = {&b1, &b2};
  for (std::size_t i = 0; i < nb; ++i) {
    const auto body = expected[i]->lock();
    if (body && static_cast<const DynamicalSystem*>(body.get()) != systems[i].get())
      throw Error(inter.name(),
                  (i == 0 ? "first system " : "second system ") + body->name() +
                      " (the body given to its " + className + ")",
                  systems[i]->name());
  }
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

}  // namespace jointmath
}  // namespace nsdyn

#endif
