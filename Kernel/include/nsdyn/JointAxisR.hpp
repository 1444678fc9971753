/// @file JointAxisR.hpp
/// @brief The free axis of a hinge or a slider as one row: its coordinate (angle or
///        displacement), for joint limits, velocity motors and torque callables.
#ifndef NSDYN_KERNEL_JOINTAXISR_HPP
#define NSDYN_KERNEL_JOINTAXISR_HPP

#include <functional>
#include <memory>

#include "nsdyn/Interaction.hpp"
#include "nsdyn/KernelExport.hpp"
#include "nsdyn/NewtonEulerJointR.hpp"

namespace nsdyn {

/// One row on the axis a joint leaves free: a PivotJointR (hinge: the angle θ of
/// body 2 relative to body 1 about the axis, or of body 1 relative to the world) or a
/// PrismaticJointR (slider: the displacement s of body 2 relative to body 1 along the
/// axis, or of body 1 from the world origin). The coordinate is 0 at construction.
///
/// Hinge (A the unit axis in the body-1 frame; one body: E = q1,0* ⊗ q1; two bodies:
/// Q = q1* ⊗ q2, E = Q0* ⊗ Q, A2 = R(Q0)ᵀ A): θ = 2 atan2(A2·vec(E), E0) (A2 = A for one
/// body), rate H v = A2·Ω2 − (R(Q) A2)·Ω1 (one body: A·Ω1).
/// Slider (a = R(q1) A, d = G2 − G1; one body d = G1): s = a·d − s0, rate
/// a·(v2 − v1) + Ω1·R(q1)ᵀ(a × d) (one body: a·v1 + Ω1·R(q1)ᵀ(a × G1)).
/// H is set directly (exact); ∂h/∂q = H with the quaternion columns 2 H_Ω Ξ(q)ᵀ, so that
/// ∂h/∂q T(q) = H for unit quaternions.
///
/// Rows (Row): the coordinate, or a limit gap y = θ − lower (Lower) or upper − θ (Upper)
/// for a NewtonImpactNSL (unilateral rows, in any problem that takes Newton impact rows).
/// A motor (motor()) is a RelayNSL row solved by GenericMechanical: the relative rate
/// is driven to the target, H v_{k+1} = target(t_{k+1}), with an impulse within
/// ±maxForce·h (−(H v − target) ∈ N_[−τh, τh](λ)); λ/h is the motor torque (force).
/// The interaction links the joint's bodies, body 1 first, as the joint does.
class NSDYN_KERNEL_API JointAxisR : public NewtonEulerR {
 public:
  enum class Row { Coordinate, Lower, Upper };
  using TargetFunction = std::function<double(double t)>;
  /// Torque (hinge) of t, the coordinate and its rate, e.g. a PD controller.
  using TorqueFunction = std::function<double(double t, double coordinate, double rate)>;

  /// The row @p row of @p joint's free axis (@p bound: the limit of Lower / Upper).
  /// nsdyn::Error naming the joint for a joint without a free axis (KneeJointR,
  /// FixedJointR, ...), a null joint, a non-finite bound.
  explicit JointAxisR(SP::NewtonEulerJointR joint, Row row = Row::Coordinate, double bound = 0.0);

  std::string className() const override { return "JointAxisR"; }
  /// Law size 1 and 7 × the joint's body count.
  void checkSizes(std::size_t interactionSize, std::size_t dof,
                  const std::string& owner) const override;
  /// checkSizes and the linked bodies: the joint's, in its order.
  void checkConsistency(const Interaction& inter) const override;
  /// Limit rows are gaps (impact laws activate on them); the coordinate row (motors) is not:
  /// its rate is held at the end of the step, also with MoreauJeanOSI's midpoint constraints.
  bool outputIsGap() const override { return row_ != Row::Coordinate; }
  SiconosVector computeh(const SiconosVector& q, double t) const override;
  SimpleMatrix computeJacobianQ(const SiconosVector& q, double t) const override;
  SimpleMatrix computeJacobianV(const SiconosVector& q, const SimpleMatrix& jachq,
                                const SimpleMatrix& T, double t) const override;

  /// Whether the axis turns (hinge) rather than slides.
  bool rotary() const { return rotary_; }
  Row row() const { return row_; }
  const SP::NewtonEulerJointR& joint() const { return joint_; }
  /// Joint coordinate (θ or s) at the stacked q of the joint's bodies.
  double coordinate(const SiconosVector& q) const;
  /// Its rate H v (the Coordinate row's H at q) at the stacked q and twists.
  double rate(const SiconosVector& q, const SiconosVector& v) const;

  /// Motor settings (motor() sets them): target rate of t and the force/torque limit.
  bool isMotor() const { return static_cast<bool>(target_); }
  double targetVelocity(double t) const { return target_ ? target_(t) : 0.0; }
  double maxForce() const { return maxForce_; }

  /// A velocity motor on @p joint's axis: the Interaction (RelayNSL(1, −maxForce,
  /// maxForce), a Coordinate row) to link to the joint's bodies; solved by
  /// GenericMechanical only. nsdyn::Error naming the joint and the value for a
  /// negative or non-finite @p maxForce, or a joint without a free axis.
  static SP::Interaction motor(const SP::NewtonEulerJointR& joint, TargetFunction target,
                               double maxForce);
  static SP::Interaction motor(const SP::NewtonEulerJointR& joint, double target, double maxForce);
  /// A limit: the coordinate stays ≥ @p lower (lowerLimit) or ≤ @p upper (upperLimit),
  /// NewtonImpactNSL(@p e) on the gap row.
  static SP::Interaction lowerLimit(const SP::NewtonEulerJointR& joint, double lower,
                                    double e = 0.0);
  static SP::Interaction upperLimit(const SP::NewtonEulerJointR& joint, double upper,
                                    double e = 0.0);
  /// A torque about a hinge's axis from @p torque(t, θ, θ̇) evaluated at the bodies'
  /// current state (in the Newton loop: the current iterate): +τ on body 2 and −τ on
  /// body 1 (one body: +τ on body 1), set as the bodies' body-frame moment (setMExt:
  /// this replaces a moment set before). nsdyn::Error for a slider or an empty callable.
  static void applyTorque(const SP::NewtonEulerJointR& joint, TorqueFunction torque);
  /// The work of a motor's (or any one-row axis interaction's) impulse over the last
  /// step, λ (ẏ_k + ẏ_{k+1}) / 2 (J or N·m·rad); the rate at the step start is
  /// the interaction's y memory.
  static double work(const Interaction& inter);

 private:
  void setMotor(TargetFunction target, double maxForce) {
    target_ = std::move(target);
    maxForce_ = maxForce;
  }
  /// H of the coordinate (6 × bodies columns) at q.
  SimpleMatrix coordinateJacobian(const SiconosVector& q) const;
  SP::NewtonEulerJointR joint_;
  Row row_;
  double bound_;
  bool rotary_ = true;
  bool twoBodies_ = false;
  std::array<double, 3> axis_{}, axis2_{};  // A (body-1 frame), A2 (body-2 frame, hinge)
  std::array<double, 4> q0_{};              // hinge: Q0 (two bodies) or q1,0 (one body)
  double s0_ = 0.0;                         // slider: a·d at construction
  TargetFunction target_;
  double maxForce_ = 0.0;
};

namespace SP {
using JointAxisR = std::shared_ptr<nsdyn::JointAxisR>;
}

}  // namespace nsdyn

#endif
