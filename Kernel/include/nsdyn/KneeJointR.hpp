/// @file KneeJointR.hpp
/// @brief Ball joint: a point of body 1 coincides with a point of body 2 (or of the world).
#ifndef NSDYN_KERNEL_KNEEJOINTR_HPP
#define NSDYN_KERNEL_KNEEJOINTR_HPP

#include <array>
#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/NewtonEulerJointR.hpp"

namespace nsdyn {

/// Ball (knee) joint, 3 rows, for EqualityConditionNSL(3) (MECHANICS.md §0.6).
///
/// At construction, from the bodies' current q: if @p absoluteRef, P is a world
/// point and G1P0 = q1⁻¹⊗(P − G1)⊗q1 (body-1 frame); else G1P0 = P (body-1
/// frame) and the world point is P_abs = R(q1)P + G1. With a second body
/// G2P0 = q2⁻¹⊗(P_abs − G2)⊗q2 (body-2 frame), else G2P0 = P_abs (world).
///   h = G1 + R(q1)·G1P0 − (G2 + R(q2)·G2P0)   (one body: G1 + R(q1)·G1P0 − G2P0),
///   jachq = [I3, ∂(R(q1)G1P0)/∂quat1, −I3, −∂(R(q2)G2P0)/∂quat2] (exact), H = jachq·T.
/// h = 0 at construction. The interaction must link body1 (then body2), in that order.
class NSDYN_KERNEL_API KneeJointR : public NewtonEulerJointR {
 public:
  /// Joint of @p body1 to the world at point @p P (3 entries).
  KneeJointR(const SiconosVector& P, bool absoluteRef, SP::NewtonEulerDS body1);
  /// Joint of @p body1 and @p body2 at point @p P.
  /// nsdyn::Error naming the joint for a null body, the same body twice, or P not of 3 entries.
  KneeJointR(const SiconosVector& P, bool absoluteRef, SP::NewtonEulerDS body1,
             SP::NewtonEulerDS body2);

  std::string className() const override { return "KneeJointR"; }
  SiconosVector computeh(const SiconosVector& q, double t) const override;
  SimpleMatrix computeJacobianQ(const SiconosVector& q, double t) const override;

  /// P as given, and whether it is absolute (world) or in the body-1 frame.
  const SiconosVector& point() const { return P_; }
  bool absoluteRef() const { return absoluteRef_; }
  /// The joint point in the world at construction (P_abs).
  SiconosVector absolutePoint() const;
  /// The joint point seen from body 1 (body-1 frame).
  SiconosVector G1P0() const;
  /// The joint point seen from body 2 (body-2 frame), or the world point P_abs (one body).
  SiconosVector G2P0() const;

 private:
  void init(const NewtonEulerDS& body1, const NewtonEulerDS* body2);

  SiconosVector P_;
  bool absoluteRef_;
  std::array<double, 3> Pabs_{}, G1P0_{}, G2P0_{};
};

namespace SP {
using KneeJointR = std::shared_ptr<nsdyn::KneeJointR>;
}

}  // namespace nsdyn

#endif
