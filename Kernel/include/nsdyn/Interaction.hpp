/// @file Interaction.hpp
/// @brief An Interaction: a relation and a nonsmooth law between one or two systems.
#ifndef NSDYN_KERNEL_INTERACTION_HPP
#define NSDYN_KERNEL_INTERACTION_HPP

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "nsdyn/DynamicalSystem.hpp"
#include "nsdyn/KernelExport.hpp"
#include "nsdyn/NonSmoothLaw.hpp"
#include "nsdyn/Relation.hpp"
#include "nsdyn/SimpleMatrix.hpp"

namespace nsdyn {

/// A relation plus a nonsmooth law, linked to one or two dynamical systems
/// (NonSmoothDynamicalSystem::link). It stores, per derivation level
/// (0, 1, 2), the output y and the multiplier λ, with their values at the
/// start of the current step (memories).
///
/// Levels: for Lagrangian relations y(0) is the gap h(q), y(1) the relative
/// velocity G v and λ(1) the impulse over the step (p = Gᵀ λ(1)); for
/// first-order relations y(0) = C x + D λ(0) + F u + e and r = B λ(0).
/// Level 2 is reserved for acceleration-level quantities (event-driven).
class NSDYN_KERNEL_API Interaction {
 public:
  /// Number of levels stored (0, 1, 2).
  static constexpr unsigned kLevels = 3;

  /// Interaction of @p law and @p relation; nsdyn::Error if either is null.
  Interaction(SP::NonSmoothLaw law, SP::Relation relation);
  Interaction(const Interaction&) = delete;
  Interaction& operator=(const Interaction&) = delete;

  /// Unique number (creation order, from 0).
  int number() const { return number_; }
  /// "Interaction #3 (LagrangianLinearTIR, NewtonImpactNSL)"
  std::string name() const;
  /// Law size: rows of y and λ.
  std::size_t size() const { return law_->size(); }

  const NonSmoothLaw& nonSmoothLaw() const { return *law_; }
  const SP::NonSmoothLaw& nonSmoothLawPtr() const { return law_; }
  const Relation& relation() const { return *relation_; }
  const SP::Relation& relationPtr() const { return relation_; }

  /// Linked systems (set by NonSmoothDynamicalSystem::link; 1 or 2).
  const std::vector<SP::DynamicalSystem>& dynamicalSystems() const { return systems_; }
  /// Link to @p ds1 (and @p ds2 when non-null). Called by NonSmoothDynamicalSystem::link.
  void setDynamicalSystems(SP::DynamicalSystem ds1, SP::DynamicalSystem ds2 = nullptr);
  /// Total dimension (velocity size) of the linked systems: columns of H / C.
  std::size_t dof() const;
  /// Total position size of the linked systems: entries of gatherQ(), columns of jacobianQ().
  std::size_t positionDof() const;
  /// Column offset of @p ds in H / C (nsdyn::Error if not linked).
  std::size_t offsetOf(const DynamicalSystem& ds) const;
  /// Column offset of @p ds in jacobianQ() and entry offset in gatherQ().
  std::size_t positionOffsetOf(const DynamicalSystem& ds) const;
  bool involves(const DynamicalSystem& ds) const;

  /// Check relation/law/system consistency (kinds, sizes); nsdyn::Error naming this interaction.
  void checkConsistency() const;
  /// Allocate the storage and compute the outputs at @p t (λ kept as is, 0 initially).
  void initialize(double t);
  bool isInitialized() const { return initialized_; }

  // ---- variables --------------------------------------------------------
  const SiconosVector& y(unsigned level) const;
  SiconosVector& yMutable(unsigned level);
  const SiconosVector& yMemory(unsigned level) const;
  const SiconosVector& lambda(unsigned level) const;
  SiconosVector& lambdaMutable(unsigned level);
  const SiconosVector& lambdaMemory(unsigned level) const;
  /// Store y and λ as the memories of the step start.
  void swapInMemory();

  // ---- computations -----------------------------------------------------
  /// Concatenated positions (mechanical) or states (first order) of the linked systems.
  SiconosVector gatherQ() const;
  /// Concatenated velocities (mechanical systems only).
  SiconosVector gatherVelocity() const;
  /// Concatenated velocities at the start of the step (mechanical systems only).
  SiconosVector gatherVelocityMemory() const;
  /// blockdiag(T(q₁), T(q₂)) of the linked systems; an empty matrix when all are the identity.
  SimpleMatrix kinematicMatrix() const;

  /// Recompute the outputs at the current state and time @p t, with the
  /// Jacobians: mechanical y(0) = h(q), jachq, H (see jacobian()), y(1) = H v;
  /// first order y(0) = C x + D λ(0) + F u + e (C cached as jacobian()).
  void computeOutput(double t);
  /// The same with the Jacobians kept as they are (Newton iterations, §0.4 6f).
  void computeOutputKeepJacobians(double t);
  /// Recompute only the Jacobians at the current state.
  void computeJacobians(double t);
  /// The velocity Jacobian as of the last computation: H (mechanical) or C (first order).
  const SimpleMatrix& jacobian() const { return jacobian_; }
  /// The position Jacobian ∂h/∂q (mechanical; = jacobian() when q̇ = v) or C.
  const SimpleMatrix& jacobianQ() const { return jacobianQ_; }
  /// Store the Jacobians (called by the relation).
  void setJacobians(SimpleMatrix jachq, SimpleMatrix H);
  /// Add this interaction's input to its systems: p += Hᵀ λ(1) (mechanical,
  /// with the cached H) or r += B(t) λ(0) (first order).
  void computeInput(double t);
  /// Hᵀ λ(1) over the linked systems (the "contactForce" of Siconos: an
  /// impulse over the step, 6 per body for rigid bodies); first order: B λ(0).
  SiconosVector contactForce(double t) const;

 private:
  int number_;
  SP::NonSmoothLaw law_;
  SP::Relation relation_;
  std::vector<SP::DynamicalSystem> systems_;
  std::array<SiconosVector, kLevels> y_, yMemory_, lambda_, lambdaMemory_;
  SimpleMatrix jacobian_, jacobianQ_;
  bool initialized_ = false;
};

namespace SP {
using Interaction = std::shared_ptr<nsdyn::Interaction>;
}

}  // namespace nsdyn

#endif
