/// @file PivotJointR.hpp
/// @brief Pivot (hinge) joint: a ball joint that also keeps a rotation axis.
#ifndef NSDYN_KERNEL_PIVOTJOINTR_HPP
#define NSDYN_KERNEL_PIVOTJOINTR_HPP

#include <array>
#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/NewtonEulerJointR.hpp"

namespace nsdyn {

/// Hinge, 5 rows, for EqualityConditionNSL(5): the only relative motion left is
/// a rotation about the axis A through the point P.
///
/// Rows 0..2: the ball joint of KneeJointR at P (same construction, same rows).
/// Rows 3..4: with A the unit axis in the body-1 frame (given there, or in the
/// world if @p absoluteRef and brought into the body-1 frame with q1⁻¹⊗A⊗q1),
/// V1, V2 ⊥ A as for PrismaticJointR, c = q2*⊗q1 at construction (one body:
/// c = q1) and the body-1-frame deviation δ = c*⊗q2*⊗q1 (one body: c*⊗q1):
///   h[3] = V1·vec(δ),  h[4] = V2·vec(δ),
/// i.e. δ may only be a rotation about A. jachq is exact (δ is bilinear in q1, q2),
/// H = jachq·T. h = 0 at construction. The interaction must link body1 (then body2).
class NSDYN_KERNEL_API PivotJointR : public NewtonEulerJointR {
 public:
  /// Hinge of @p body1 to the world at point @p P about @p axis (both in the
  /// world if @p absoluteRef, else in the body-1 frame).
  PivotJointR(const SiconosVector& P, const SiconosVector& axis, bool absoluteRef,
              SP::NewtonEulerDS body1);
  /// Hinge between @p body1 and @p body2. nsdyn::Error naming the joint for an
  /// axis of zero length, P or the axis not of 3 entries, a null body or the same body twice.
  PivotJointR(const SiconosVector& P, const SiconosVector& axis, bool absoluteRef,
              SP::NewtonEulerDS body1, SP::NewtonEulerDS body2);

  std::string className() const override { return "PivotJointR"; }
  SiconosVector computeh(const SiconosVector& q, double t) const override;
  SimpleMatrix computeJacobianQ(const SiconosVector& q, double t) const override;

  bool absoluteRef() const { return absoluteRef_; }
  /// P and the axis as given.
  const SiconosVector& point() const { return P_; }
  const SiconosVector& axisGiven() const { return axisGiven_; }
  /// The joint point in the world at construction; seen from body 1 (body-1 frame);
  /// seen from body 2 (body-2 frame) or the world point (one body).
  SiconosVector absolutePoint() const;
  SiconosVector G1P0() const;
  SiconosVector G2P0() const;
  /// The unit axis in the body-1 frame and V1, V2 (body-1 frame).
  SiconosVector axis() const;
  SiconosVector V1() const;
  SiconosVector V2() const;
  /// The axis in the world at the bodies' q: R(q1)·axis() (q = (q1) or (q1; q2)).
  SiconosVector worldAxis(const SiconosVector& q) const;
  /// Relative orientation c at construction (4 entries; one body: q1).
  SiconosVector initialOrientation() const;

 private:
  void init(const NewtonEulerDS& body1, const NewtonEulerDS* body2);

  SiconosVector P_, axisGiven_;
  bool absoluteRef_;
  std::array<double, 3> Pabs_{}, G1P0_{}, G2P0_{}, axis_{}, V1_{}, V2_{};
  std::array<double, 4> c_{}, cConj_{};
};

namespace SP {
using PivotJointR = std::shared_ptr<nsdyn::PivotJointR>;
}

}  // namespace nsdyn

#endif
