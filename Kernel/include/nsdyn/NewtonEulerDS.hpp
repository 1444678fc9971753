/// @file NewtonEulerDS.hpp
/// @brief Rigid body in 3D with large rotations (Newton–Euler equations).
#ifndef NSDYN_KERNEL_NEWTONEULERDS_HPP
#define NSDYN_KERNEL_NEWTONEULERDS_HPP

#include <functional>
#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/SecondOrderDS.hpp"

namespace nsdyn {

/// Rigid body (MECHANICS.md §0): q ∈ ℝ⁷ = (centre of mass in the world frame,
/// unit quaternion q0..q3 of the rotation body → world), twist v ∈ ℝ⁶ =
/// (linear velocity in the world frame, angular velocity Ω in the body frame),
/// M = diag(m I₃, I) with a full symmetric positive definite 3×3 inertia I
/// (body frame), q̇ = T(q) v.
///
/// Forces (wrench, twist coordinates): F = [f_ext(t) ; m_ext(t) − Ω × IΩ],
/// f_ext in the world frame, m_ext in the body frame, each a constant or a
/// callable of t. The gyroscopic term −Ω×IΩ (and its Jacobian in W) is on by
/// default (setGyroscopic(false) turns it off). The position update is the
/// Lie-group one of §0.3 (body-frame increment, exact sin(x)/x, no
/// renormalisation).
///
/// Construction checks: m > 0, I symmetric positive definite, quaternion of
/// unit norm (within 1e-8; zero refused), sizes 7 and 6: nsdyn::Error naming the value.
class NSDYN_KERNEL_API NewtonEulerDS : public SecondOrderDS {
 public:
  using VectorFunction = std::function<SiconosVector(double t)>;
  /// How the Moreau–Jean Newton iterations treat the gyroscopic term.
  enum class GyroscopicScheme {
    /// θ-average of −Ω×IΩ at both ends of the step, as Siconos (MECHANICS.md §0.2, §0.4); default.
    Trapezoidal,
    /// Body momentum carried by the rotation of the step: IΩ_{k+1} = exp(−h Ω̂_θ) IΩ_k + h
    /// (moments),
    /// Ω_θ = θΩ_{k+1} + (1−θ)Ω_k. With θ = 1/2 and no moment, kinetic energy and the world
    /// angular momentum R IΩ are kept to round-off (to the Newton tolerance).
    EnergyMomentum
  };

  /// Body with mass @p mass and body-frame inertia @p inertia (3×3).
  NewtonEulerDS(SiconosVector q0, SiconosVector v0, double mass, SimpleMatrix inertia);

  DynamicalSystemKind kind() const override { return DynamicalSystemKind::NewtonEuler; }
  std::string className() const override { return "NewtonEulerDS"; }
  std::size_t dimension() const override { return 6; }
  void checkConsistency() const override;
  /// False: W = M − θh ∂F/∂v changes with Ω (the mass matrix itself is constant).
  bool isTimeInvariant() const override { return false; }

  SimpleMatrix kinematicMatrix() const override { return kinematicMatrix(q_); }
  bool kinematicIsIdentity() const override { return false; }
  /// T(q): 7×6 (identity on translation, ½ [−q1 −q2 −q3; q0 −q3 q2; q3 q0 −q1; −q2 q1 q0]).
  static SimpleMatrix kinematicMatrix(const SiconosVector& q);

  void computeMass(const SiconosVector&) override {}
  SiconosVector computeForces(double t, const SiconosVector& q,
                              const SiconosVector& v) const override;
  /// W = M − θh ∂F/∂v (∂F/∂v: gyroscopic block −(skew(Ω) I − skew(IΩ)));
  /// EnergyMomentum: angular block I − θh skew(IΩ_k) (the residual's Jacobian to first order in h).
  SimpleMatrix computeIterationMatrix(double t, const SiconosVector& q, const SiconosVector& v,
                                      double theta, double h) const override;
  SiconosVector integratePosition(const SiconosVector& qk, const SiconosVector& dv) const override;
  bool isNonlinear() const override { return true; }
  /// Renormalise the quaternion (used by the position projection only).
  void normalizePosition() override;

  // ---- data ---------------------------------------------------------------
  double scalarMass() const { return m_; }
  const SimpleMatrix& inertia() const { return inertia_; }
  void setFExt(SiconosVector f);   ///< constant world-frame force (3)
  void setFExt(VectorFunction f);  ///< world-frame force of t
  void setMExt(SiconosVector m);   ///< constant body-frame moment (3)
  void setMExt(VectorFunction m);  ///< body-frame moment of t
  bool hasFExt() const { return static_cast<bool>(fExt_); }
  bool hasMExt() const { return static_cast<bool>(mExt_); }
  SiconosVector computeFExt(double t) const;  ///< zeros when none
  SiconosVector computeMExt(double t) const;  ///< zeros when none
  void setGyroscopic(bool on) { gyroscopic_ = on; }
  void setGyroscopicScheme(GyroscopicScheme scheme) { scheme_ = scheme; }
  GyroscopicScheme gyroscopicScheme() const { return scheme_; }
  /// EnergyMomentum: the wrench without the gyroscopic term (it is in the residual).
  SiconosVector stepForces(double t, const SiconosVector& q, const SiconosVector& v) const override;
  /// EnergyMomentum: the residual above; Trapezoidal: SecondOrderDS's.
  SiconosVector computeStepResidual(double tk1, double theta, double h) override;
  /// EnergyMomentum: write the angular balance in the θ-point body frame (where the
  /// impulses of midpoint constraints act): exp((1−θ)hΩ̂_θ) IΩ − exp(−θhΩ̂_θ) IΩ_k.
  void setImpulseAtThetaPoint(bool on) override { impulseAtThetaPoint_ = on; }
  bool gyroscopic() const { return gyroscopic_; }
  /// ∂F/∂v at v (6×6, zero but for the gyroscopic block).
  SimpleMatrix computeJacobianForcesV(const SiconosVector& v) const;

  // ---- derived quantities --------------------------------------------------
  /// Position of the centre of mass and the rotation body → world at the current q.
  SiconosVector position() const;       ///< q[0:3]
  SimpleMatrix rotationMatrix() const;  ///< R(q) as stored
  /// Angular velocity in the world frame R Ω.
  SiconosVector angularVelocityWorld() const;
  /// ½ m |v|² + ½ Ωᵀ I Ω.
  double kineticEnergy() const override;
  /// Potential of a constant external force: −f_ext(t)·x (0 without f_ext).
  double potentialEnergy(double t) const;
  /// Linear momentum m v and angular momentum about the centre of mass in the world frame R I Ω.
  SiconosVector linearMomentum() const;
  SiconosVector angularMomentumWorld() const;

 private:
  double m_;
  SimpleMatrix inertia_;
  VectorFunction fExt_, mExt_;
  bool gyroscopic_ = true;
  GyroscopicScheme scheme_ = GyroscopicScheme::Trapezoidal;
  bool impulseAtThetaPoint_ = false;
};

namespace SP {
using NewtonEulerDS = std::shared_ptr<nsdyn::NewtonEulerDS>;
}

}  // namespace nsdyn

#endif
