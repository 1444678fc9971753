/// @file PrismaticJointR.hpp
/// @brief Prismatic (slider) joint: translation along one axis, no rotation.
#ifndef NSDYN_KERNEL_PRISMATICJOINTR_HPP
#define NSDYN_KERNEL_PRISMATICJOINTR_HPP

#include <array>
#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/NewtonEulerJointR.hpp"

namespace nsdyn {

/// Prismatic joint, 5 rows, for EqualityConditionNSL(5) (MECHANICS.md §0.6).
///
/// At construction, from the bodies' current q: the axis a (normalised; given in
/// the body-1 frame, or in the world if @p absoluteRef and then brought into the
/// body-1 frame with q1⁻¹⊗a⊗q1), two unit vectors V1, V2 ⊥ a (V1 from the signed
/// components of a as Siconos does, V2 = a × V1), D0 = R(q1)ᵀ(G2 − G1) (one
/// body: G2 = 0, the world origin) and the relative orientation c = q2*⊗q1
/// (one body: c = q1).
///   h[0] = V1·(R(q1)ᵀ(G2 − G1)) − V1·D0,  h[1] the same with V2,
///   h[2:5] = vec(q2*⊗q1⊗c*)   (one body: vec(q1⊗c*)),
/// so that body 2 (one body: the world origin) may only move along the axis of
/// body 1 and the relative rotation stays the initial one. jachq is exact
/// (rows 0/1: ∓R(q1)V on G1/G2, (G2 − G1)ᵀ ∂(R(q1)V)/∂quat1 on quat1; rows 2..4
/// one body: [−c1, c0, −c3, c2], [−c2, c3, c0, −c1], [−c3, −c2, c1, c0]), H = jachq·T.
/// h = 0 at construction. The interaction must link body1 (then body2), in that order.
class NSDYN_KERNEL_API PrismaticJointR : public NewtonEulerJointR {
 public:
  /// Slider of @p body1 along @p axis (3 entries) relative to the world.
  PrismaticJointR(const SiconosVector& axis, bool absoluteRef, SP::NewtonEulerDS body1);
  /// Slider between @p body1 and @p body2 along @p axis (fixed in body 1).
  /// nsdyn::Error naming the joint for an axis of zero length (naming the value),
  /// a null body or the same body twice.
  PrismaticJointR(const SiconosVector& axis, bool absoluteRef, SP::NewtonEulerDS body1,
                  SP::NewtonEulerDS body2);

  std::string className() const override { return "PrismaticJointR"; }
  SiconosVector computeh(const SiconosVector& q, double t) const override;
  SimpleMatrix computeJacobianQ(const SiconosVector& q, double t) const override;

  bool absoluteRef() const { return absoluteRef_; }
  /// The axis as given.
  const SiconosVector& axisGiven() const { return axisGiven_; }
  /// The unit axis in the body-1 frame, and V1, V2 (body-1 frame).
  SiconosVector axis() const;
  SiconosVector V1() const;
  SiconosVector V2() const;
  /// R(q1)ᵀ(G2 − G1) at construction (body-1 frame; one body G2 = 0).
  SiconosVector D0() const;
  /// Relative orientation c at construction (4 entries; one body: q1).
  SiconosVector initialOrientation() const;

 private:
  void init(const NewtonEulerDS& body1, const NewtonEulerDS* body2);

  SiconosVector axisGiven_;
  bool absoluteRef_;
  std::array<double, 3> axis_{}, V1_{}, V2_{}, D0_{};
  std::array<double, 4> c_{}, cConj_{};
};

namespace SP {
using PrismaticJointR = std::shared_ptr<nsdyn::PrismaticJointR>;
}

}  // namespace nsdyn

#endif
