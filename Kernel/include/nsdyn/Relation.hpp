/// @file Relation.hpp
/// @brief Base class of relations: how the systems' state gives the
///        interaction's output y and how its multiplier λ acts back.
#ifndef NSDYN_KERNEL_RELATION_HPP
#define NSDYN_KERNEL_RELATION_HPP

#include <cstddef>
#include <memory>
#include <string>

namespace nsdyn {

/// Kind of a relation; it must match the kind of the linked systems.
enum class RelationKind {
  Lagrangian,  ///< y = h(q), p = G(q)ᵀ λ (LagrangianR and derived)
  FirstOrder   ///< y = C x + D λ + F u + e, r = B λ (FirstOrderLinearR and derived)
};

/// A relation between the state of one or two dynamical systems and the
/// interaction's variables (y, λ). Relations hold no state: the Interaction
/// stores y and λ.
class Relation {
 public:
  virtual ~Relation() = default;
  virtual RelationKind kind() const = 0;
  /// Class name, e.g. "LagrangianLinearTIR".
  virtual std::string className() const = 0;
  /// Check the sizes against the interaction size (law size) and the total
  /// dimension @p dof of the linked systems; nsdyn::Error naming @p owner,
  /// the expected and the found sizes otherwise.
  virtual void checkSizes(std::size_t interactionSize, std::size_t dof,
                          const std::string& owner) const = 0;

 protected:
  Relation() = default;
};

namespace SP {
using Relation = std::shared_ptr<nsdyn::Relation>;
}

}  // namespace nsdyn

#endif
