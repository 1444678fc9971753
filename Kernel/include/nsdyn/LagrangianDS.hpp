/// @file LagrangianDS.hpp
/// @brief Lagrangian system M(q) v̇ + F_int(q, v, t) = F_ext(t) + p.
#ifndef NSDYN_KERNEL_LAGRANGIANDS_HPP
#define NSDYN_KERNEL_LAGRANGIANDS_HPP

#include <functional>
#include <memory>

#include "nsdyn/DynamicalSystem.hpp"
#include "nsdyn/SimpleMatrix.hpp"

namespace nsdyn {

/// Lagrangian system  M(q) v̇ + F_int(q, v, t) = F_ext(t) + p,  q̇ = v,
/// with the roles and accessors of Siconos' LagrangianDS.
///
/// The user functions are callables (std::function): the mass M(q), the
/// internal forces F_int(q, v, t) with their Jacobians ∂F_int/∂q and
/// ∂F_int/∂v, and the external force F_ext(t). Missing ones are zero.
/// p is the generalized impulse over the current step (p = Hᵀ λ summed over
/// the interactions), written by the simulation.
class LagrangianDS : public DynamicalSystem {
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
  void swapInMemory() override;
  void resetNonSmoothInput() override { p_.zero(); }
  bool isTimeInvariant() const override { return !massFunction_; }

  // ---- state ------------------------------------------------------------
  /// Positions q (current value).
  const SiconosVector& q() const { return q_; }
  /// Velocities v = q̇ (current value).
  const SiconosVector& velocity() const { return v_; }
  /// Mutable positions and velocities, for integrators and drivers.
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

  // ---- mass -------------------------------------------------------------
  /// Mass matrix at the current q (recomputed by computeMass() when M depends on q).
  const SimpleMatrix& mass() const { return mass_; }
  /// Evaluate M(q) at @p q (no-op for a constant mass).
  void computeMass(const SiconosVector& q);
  /// 1/2 vᵀ M v at the current state.
  double kineticEnergy() const;

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
  SiconosVector q0_, v0_;
  SiconosVector q_, v_, qMemory_, vMemory_, p_;
  SimpleMatrix mass_;
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
