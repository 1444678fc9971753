/// @file LagrangianR.hpp
/// @brief Base of Lagrangian relations: y = h(q, t), ẏ = G(q) v, p = G(q)ᵀ λ.
#ifndef NSDYN_KERNEL_LAGRANGIANR_HPP
#define NSDYN_KERNEL_LAGRANGIANR_HPP

#include <memory>

#include "nsdyn/Relation.hpp"
#include "nsdyn/SimpleMatrix.hpp"

namespace nsdyn {

/// Lagrangian relation: the output y = h(q, t) (gaps, normal component first
/// for friction), its Jacobian G = ∂h/∂q (rows = interaction size, columns =
/// total dof of the linked systems, the first system's columns first), the
/// velocity ẏ = G v and the generalized impulse p = Gᵀ λ.
/// @p q is the concatenation (q₁; q₂) of the linked systems' positions.
class LagrangianR : public Relation {
 public:
  RelationKind kind() const override { return RelationKind::Lagrangian; }
  /// y = h(q, t).
  virtual SiconosVector computeh(const SiconosVector& q, double t) const = 0;
  /// G(q, t) = ∂h/∂q.
  virtual SimpleMatrix computeJacobianQ(const SiconosVector& q, double t) const = 0;
  /// True when G does not depend on q (then W⁻¹-based blocks may be cached).
  virtual bool isLinear() const = 0;
};

namespace SP {
using LagrangianR = std::shared_ptr<nsdyn::LagrangianR>;
}

}  // namespace nsdyn

#endif
