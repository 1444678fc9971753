/// @file SecondOrderDS.hpp
/// @brief Base of mechanical (second-order) systems: positions q, velocities v,
///        a mass in velocity coordinates and forces; what MoreauJeanOSI integrates.
#ifndef NSDYN_KERNEL_SECONDORDERDS_HPP
#define NSDYN_KERNEL_SECONDORDERDS_HPP

#include <functional>
#include <memory>
#include <vector>

#include "nsdyn/DynamicalSystem.hpp"
#include "nsdyn/KernelExport.hpp"
#include "nsdyn/SimpleMatrix.hpp"

namespace nsdyn {

/// A mechanical system  M(q) v̇ = F(t, q, v) + p,  q̇ = T(q) v.
///
/// q has positionSize() entries, v (and p, F, rows of M) dimension() entries.
/// LagrangianDS has T = I (q̇ = v); NewtonEulerDS has q ∈ ℝ⁷ (position and unit
/// quaternion) and v ∈ ℝ⁶ (twist). An integrator of the θ-method family needs
/// only the virtual operations below: it never asks which kind it holds.
///
/// Boundary conditions: velocity components given by a function of time
/// (prescribedVelocity), as Siconos BoundaryCondition; the integrator enforces
/// them and reports the impulse needed in boundaryReaction().
class NSDYN_KERNEL_API SecondOrderDS : public DynamicalSystem {
 public:
  /// Prescribed values of the components boundaryIndices() at time t (one per index).
  using PrescribedVelocity = std::function<SiconosVector(double t)>;

  std::size_t positionSize() const override { return q_.size(); }
  const SiconosVector& relationState() const override { return q_; }
  const SiconosVector& relationVelocity() const override { return v_; }
  const SiconosVector& relationVelocityMemory() const override { return vMemory_; }
  void addNonSmoothInput(const SiconosVector& part) override { p_ += part; }
  void resetNonSmoothInput() override { p_.zero(); }
  void swapInMemory() override;

  // ---- state ------------------------------------------------------------
  /// Positions q (current value).
  const SiconosVector& q() const { return q_; }
  /// Velocities v (current value).
  const SiconosVector& velocity() const { return v_; }
  SiconosVector& qMutable() { return q_; }
  SiconosVector& velocityMutable() { return v_; }
  /// q and v at the start of the current step (set by swapInMemory()).
  const SiconosVector& qMemory() const { return qMemory_; }
  const SiconosVector& velocityMemory() const { return vMemory_; }
  /// Initial state.
  const SiconosVector& q0() const { return q0_; }
  const SiconosVector& velocity0() const { return v0_; }
  /// Generalized impulse p received during the current step (Hᵀ λ).
  const SiconosVector& p() const { return p_; }
  SiconosVector& pMutable() { return p_; }

  // ---- what an integrator needs (all in velocity coordinates) ------------
  /// Mass matrix at the current q (dimension() × dimension()).
  const SimpleMatrix& mass() const { return mass_; }
  /// Evaluate M(q) at @p q (no-op for a constant mass).
  virtual void computeMass(const SiconosVector& q) = 0;
  /// Total force F(t, q, v) acting on the system (external minus internal,
  /// with the gyroscopic term for bodies), dimension() entries.
  virtual SiconosVector computeForces(double t, const SiconosVector& q,
                                      const SiconosVector& v) const = 0;
  /// Iteration matrix of the θ-method at (t, q, v):
  /// W = M − θh ∂F/∂v − θ²h² ∂F/∂q (T = I), or the body's M − θh ∂F/∂v.
  virtual SimpleMatrix computeIterationMatrix(double t, const SiconosVector& q,
                                              const SiconosVector& v, double theta,
                                              double h) const = 0;
  /// The force carried from one step to the next as F_k (default computeForces()).
  virtual SiconosVector stepForces(double t, const SiconosVector& q, const SiconosVector& v) const {
    return computeForces(t, q, v);
  }
  /// Residual of the θ-scheme at the current iterate, without the nonsmooth
  /// impulse: R = M(v − v_k) − h(1−θ) F_k − hθ F(t_{k+1}, q, v), F = stepForces();
  /// records F with setForces() (it becomes F_k at the next step).
  virtual SiconosVector computeStepResidual(double tk1, double theta, double h);
  /// Told by the integrator whether the nonsmooth impulse p acts at the θ-point
  /// configuration (MoreauJeanOSI::setConstraintsAtMidpoint) rather than at the
  /// end-of-step iterate; systems whose velocity coordinates depend on the
  /// configuration (body-frame Ω) write their balance in that frame. Default nothing.
  virtual void setImpulseAtThetaPoint(bool /*on*/) {}
  /// Impulse of the smooth forces over [tk, tk1] in the one-pass (linearised)
  /// θ-scheme, at the current (start-of-step) state: v_free = v_k + W⁻¹ · this.
  /// Default h (θ F(tk1, q, v) + (1−θ) F(tk, q, v)).
  virtual SiconosVector linearizedImpulse(double tk, double tk1, double theta, double h) const;
  /// Position after a velocity increment @p dv (dimension() entries, e.g.
  /// h(θ v + (1−θ) v_k)) from @p qk: q = qk + dv (T = I) or the Lie-group update.
  virtual SiconosVector integratePosition(const SiconosVector& qk,
                                          const SiconosVector& dv) const = 0;
  /// Move the position by @p dq (positionSize() entries, a projection onto the
  /// constraints) and bring it back to its manifold (normalizePosition()).
  void correctPosition(const SiconosVector& dq);
  /// Bring q back to its manifold (unit quaternion for bodies); default nothing.
  virtual void normalizePosition() {}
  /// Whether the step equations are nonlinear in v (then TimeStepping runs its
  /// Newton loop by default): true for M(q), user internal forces and bodies.
  virtual bool isNonlinear() const = 0;
  /// Kinetic energy at the current state.
  virtual double kineticEnergy() const = 0;

  /// Force F of the last evaluation recorded by the integrator (setForces) and its
  /// value at the start of the step (the F_k of the θ-method).
  const SiconosVector& forces() const { return forces_; }
  const SiconosVector& forcesMemory() const { return forcesMemory_; }
  void setForces(SiconosVector f) { forces_ = std::move(f); }
  void setForcesMemory(SiconosVector f) { forcesMemory_ = std::move(f); }

  // ---- boundary conditions -------------------------------------------------
  /// Prescribe the velocity components @p indices (each in [0, dimension()))
  /// to @p values(t). nsdyn::Error on an index out of range or repeated.
  void setBoundaryConditions(std::vector<std::size_t> indices, PrescribedVelocity values);
  bool hasBoundaryConditions() const { return !bcIndices_.empty(); }
  const std::vector<std::size_t>& boundaryIndices() const { return bcIndices_; }
  /// Prescribed values at @p t (nsdyn::Error if the function returns the wrong size).
  SiconosVector prescribedVelocity(double t) const;
  /// Reaction impulse on each prescribed component over the last step (one per index).
  const SiconosVector& boundaryReaction() const { return bcReaction_; }
  SiconosVector& boundaryReactionMutable() { return bcReaction_; }

  std::vector<SiconosVector*> checkpointState() override;

 protected:
  SecondOrderDS(SiconosVector q0, SiconosVector v0);
  void checkBoundaryConditions() const;

  SiconosVector q0_, v0_;
  SiconosVector q_, v_, qMemory_, vMemory_, p_;
  SiconosVector forces_, forcesMemory_;
  SimpleMatrix mass_;
  std::vector<std::size_t> bcIndices_;
  PrescribedVelocity bcValues_;
  SiconosVector bcReaction_;
};

namespace SP {
using SecondOrderDS = std::shared_ptr<nsdyn::SecondOrderDS>;
}

}  // namespace nsdyn

#endif
