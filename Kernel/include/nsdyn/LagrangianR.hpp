/// @file LagrangianR.hpp
/// @brief Base of mechanical relations: y = h(q, t), ẏ = H v, p = Hᵀ λ.
#ifndef NSDYN_KERNEL_LAGRANGIANR_HPP
#define NSDYN_KERNEL_LAGRANGIANR_HPP

#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/Relation.hpp"
#include "nsdyn/SimpleMatrix.hpp"

namespace nsdyn {

/// Mechanical relation (Lagrangian systems and rigid bodies): the output
/// y = h(q, t) (gaps, normal component first for friction), the position
/// Jacobian jachq = ∂h/∂q (rows = interaction size, columns = Σ positionSize()
/// of the linked systems, the first system's columns first), the velocity
/// Jacobian H (columns = Σ dimension()), ẏ = H v and the impulse p = Hᵀ λ.
/// By default H = jachq · blockdiag(T(q₁), T(q₂)); for Lagrangian systems
/// T = I and H = jachq. @p q is the concatenation (q₁; q₂) of the positions.
class NSDYN_KERNEL_API LagrangianR : public Relation {
 public:
  RelationKind kind() const override { return RelationKind::Lagrangian; }
  bool accepts(const DynamicalSystem& ds) const override;
  std::string acceptedSystems() const override {
    return "mechanical systems (LagrangianDS, NewtonEulerDS)";
  }
  unsigned inputLevel() const override { return 1; }
  bool outputIsGap() const override { return true; }

  /// y = h(q, t).
  virtual SiconosVector computeh(const SiconosVector& q, double t) const = 0;
  /// jachq = ∂h/∂q at (q, t).
  virtual SimpleMatrix computeJacobianQ(const SiconosVector& q, double t) const = 0;
  /// H at (q, t), given jachq and the block-diagonal kinematic map @p T of the
  /// linked systems (empty when every T is the identity). Default jachq · T.
  virtual SimpleMatrix computeJacobianV(const SiconosVector& q, const SimpleMatrix& jachq,
                                        const SimpleMatrix& T, double t) const;

  void computeJacobians(Interaction& inter, double t) const override;
  void computeOutput(Interaction& inter, double t, bool updateJacobians) const override;
  SiconosVector computeInput(const Interaction& inter, double t) const override;
};

namespace SP {
using LagrangianR = std::shared_ptr<nsdyn::LagrangianR>;
}

}  // namespace nsdyn

#endif
