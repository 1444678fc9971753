/// @file LagrangianDS.hpp
/// @brief Lagrangian system M(q) v̇ + F_int(q, v, t) = F_ext(t) + p.
#ifndef NSDYN_KERNEL_LAGRANGIANDS_HPP
#define NSDYN_KERNEL_LAGRANGIANDS_HPP

#include <functional>
#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/SecondOrderDS.hpp"

namespace nsdyn {

/// Lagrangian system  M(q) v̇ + F_int(q, v, t) = F_ext(t) + p,  q̇ = v,
/// with the roles and accessors of Siconos' LagrangianDS.
///
/// The user functions are callables (std::function): the mass M(q), the
/// internal forces F_int(q, v, t) with their Jacobians ∂F_int/∂q and
/// ∂F_int/∂v, and the external force F_ext(t). Missing ones are zero.
/// p is the generalized impulse over the current step (p = Hᵀ λ summed over
/// the interactions), written by the simulation.
class NSDYN_KERNEL_API LagrangianDS : public SecondOrderDS {
 public:
  /// M(q): n x n.
  using MassFunction = std::function<SimpleMatrix(const SiconosVector& q)>;
  /// F_int(q, v, t): n entries.
  using InternalForcesFunction =
      std::function<SiconosVector(const SiconosVector& q, const SiconosVector& v, double t)>;
  /// ∂F_int/∂q or ∂F_int/∂v at (q, v, t): n x n.
  using JacobianFunction =
      std::function<SimpleMatrix(const SiconosVector& q, const SiconosVector& v, double t)>;
  /// F_ext(t): n entries.
  using ExternalForceFunction = std::function<SiconosVector(double t)>;

  /// System with a constant mass matrix (n x n, n = q0.size()).
  LagrangianDS(SiconosVector q0, SiconosVector v0, SimpleMatrix mass);
  /// System with a configuration-dependent mass M(q).
  LagrangianDS(SiconosVector q0, SiconosVector v0, MassFunction mass);

  DynamicalSystemKind kind() const override { return DynamicalSystemKind::Lagrangian; }
  std::string className() const override { return "LagrangianDS"; }
  std::size_t dimension() const override { return q_.size(); }
  void checkConsistency() const override;
  bool isTimeInvariant() const override { return !massFunction_; }

  // ---- SecondOrderDS operations (T = I) ----------------------------------
  /// F = F_ext(t) − F_int(q, v, t).
  SiconosVector computeForces(double t, const SiconosVector& q,
                              const SiconosVector& v) const override;
  /// W = M + θh ∂F_int/∂v + θ²h² ∂F_int/∂q (M at the last computeMass()).
  SimpleMatrix computeIterationMatrix(double t, const SiconosVector& q, const SiconosVector& v,
                                      double theta, double h) const override;
  /// h (θ F_ext(tk1) + (1−θ) F_ext(tk)) − h F_int(q, v, tk) − θh² K v at the current state.
  SiconosVector linearizedImpulse(double tk, double tk1, double theta, double h) const override;
  /// q = qk + dv.
  SiconosVector integratePosition(const SiconosVector& qk, const SiconosVector& dv) const override;
  /// M(q) or user internal forces (their Jacobians may depend on the state).
  bool isNonlinear() const override { return !isTimeInvariant() || hasInternalForces(); }

  // ---- mass -------------------------------------------------------------
  /// Evaluate M(q) at @p q (no-op for a constant mass).
  void computeMass(const SiconosVector& q) override;
  /// 1/2 vᵀ M v at the current state.
  double kineticEnergy() const override;

  // ---- forces -----------------------------------------------------------
  void setInternalForces(InternalForcesFunction fInt);
  void setJacobianFIntq(JacobianFunction jacobian);
  void setJacobianFIntv(JacobianFunction jacobian);
  /// External force as a function of time.
  void setFExt(ExternalForceFunction fExt);
  /// Constant external force.
  void setFExt(SiconosVector fExt);

  bool hasInternalForces() const { return static_cast<bool>(fInt_); }
  bool hasFExt() const { return static_cast<bool>(fExt_); }
  /// F_int(q, v, t); zero vector if none.
  virtual SiconosVector computeFInt(const SiconosVector& q, const SiconosVector& v, double t) const;
  /// ∂F_int/∂q (the tangent stiffness K); zero matrix if none.
  virtual SimpleMatrix computeJacobianFIntq(const SiconosVector& q, const SiconosVector& v,
                                            double t) const;
  /// ∂F_int/∂v (the tangent damping C); zero matrix if none.
  virtual SimpleMatrix computeJacobianFIntv(const SiconosVector& q, const SiconosVector& v,
                                            double t) const;
  /// F_ext(t); zero vector if none.
  virtual SiconosVector computeFExt(double t) const;

 protected:
  MassFunction massFunction_;
  InternalForcesFunction fInt_;
  JacobianFunction jacobianFIntq_, jacobianFIntv_;
  ExternalForceFunction fExt_;
};

namespace SP {
using LagrangianDS = std::shared_ptr<nsdyn::LagrangianDS>;
}

}  // namespace nsdyn

#endif
