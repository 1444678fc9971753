/// @file Relation.hpp
/// @brief Base class of relations: how the systems' state gives the
///        interaction's output y and how its multiplier λ acts back.
#ifndef NSDYN_KERNEL_RELATION_HPP
#define NSDYN_KERNEL_RELATION_HPP

#include <cstddef>
#include <memory>
#include <string>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/SimpleMatrix.hpp"

namespace nsdyn {

class DynamicalSystem;
class Interaction;
class UnitaryRelation;

/// Kind of a relation (for messages; the Kernel calls the virtual operations).
enum class RelationKind {
  Lagrangian,  ///< mechanical: y = h(q), ẏ = H v, p = Hᵀ λ (LagrangianR, NewtonEulerR and derived)
  FirstOrder  ///< y = C x + D λ + F u + e, r = B λ (FirstOrderLinearR and derived)
};

/// A relation between the state of one or two dynamical systems and the
/// interaction's variables (y, λ). The Interaction stores y, λ and the
/// Jacobians; the relation computes them through the virtual operations
/// below (contact relations may cache their last contact geometry).
class NSDYN_KERNEL_API Relation {
 public:
  virtual ~Relation() = default;
  virtual RelationKind kind() const = 0;
  /// Class name, e.g. "LagrangianLinearTIR".
  virtual std::string className() const = 0;
  /// Whether this relation can be linked to @p ds (e.g. mechanical relations
  /// need mechanical systems).
  virtual bool accepts(const DynamicalSystem& ds) const = 0;
  /// What accepts() wants, for messages ("mechanical systems").
  virtual std::string acceptedSystems() const = 0;
  /// Check the sizes against the interaction size (law size) and the total
  /// size @p dof of the vectors the relation reads (Σ positionSize() of the
  /// linked systems); nsdyn::Error naming @p owner, the expected and the found sizes.
  virtual void checkSizes(std::size_t interactionSize, std::size_t dof,
                          const std::string& owner) const = 0;
  /// Full check at link time (default: checkSizes with the interaction's sizes).
  virtual void checkConsistency(const Interaction& inter) const;

  /// Level of y and λ the nonsmooth input reads (1: impulse of mechanical relations; 0: first
  /// order).
  virtual unsigned inputLevel() const = 0;
  /// Whether y(0) is a gap, so that impact laws activate by the predicted gap y + γ h ẏ ≤ 0.
  virtual bool outputIsGap() const = 0;
  /// Whether the Jacobians depend on the state (then a Newton loop recomputes them).
  virtual bool isLinear() const = 0;

  /// Recompute the Jacobians stored in @p inter at the current state and @p t.
  virtual void computeJacobians(Interaction& inter, double t) const = 0;
  /// Recompute the outputs of @p inter at the current state and @p t; with
  /// @p updateJacobians the Jacobians first (or right after y(0) for relations
  /// whose y(0) computation refreshes geometry), else the stored ones are used.
  virtual void computeOutput(Interaction& inter, double t, bool updateJacobians) const = 0;
  /// The nonsmooth input of @p inter over all its systems' dimension() entries
  /// (p = Hᵀ λ(1), or r = B λ(0)), before it is split among the systems.
  virtual SiconosVector computeInput(const Interaction& inter, double t) const = 0;
  /// Add the relation's own coupling of rows @p a and @p b of one interaction to a
  /// Delassus block (D for first-order relations); default nothing.
  virtual void addSelfCoupling(SimpleMatrix& block, const UnitaryRelation& a,
                               const UnitaryRelation& b, double t) const;

 protected:
  Relation() = default;
};

namespace SP {
using Relation = std::shared_ptr<nsdyn::Relation>;
}

}  // namespace nsdyn

#endif
