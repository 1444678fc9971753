/// @file LagrangianScleronomousR.hpp
/// @brief Scleronomous Lagrangian relation y = h(q) with a user Jacobian G(q).
#ifndef NSDYN_KERNEL_LAGRANGIANSCLERONOMOUSR_HPP
#define NSDYN_KERNEL_LAGRANGIANSCLERONOMOUSR_HPP

#include <functional>
#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/LagrangianR.hpp"

namespace nsdyn {

/// y = h(q), ẏ = G(q) v, p = G(q)ᵀ λ, where h and G = ∂h/∂q are callables.
/// G must have (law size) rows and (total dof) columns; h returns (law size)
/// entries. For friction, the tangential entries of h may be 0 (only the
/// normal gap decides activity).
class NSDYN_KERNEL_API LagrangianScleronomousR : public LagrangianR {
 public:
  using OutputFunction = std::function<SiconosVector(const SiconosVector& q)>;
  using JacobianFunction = std::function<SimpleMatrix(const SiconosVector& q)>;

  LagrangianScleronomousR(OutputFunction h, JacobianFunction G);

  std::string className() const override { return "LagrangianScleronomousR"; }
  /// Sizes are checked at the initial q by the Interaction (see checkSizesAt).
  void checkSizes(std::size_t interactionSize, std::size_t dof,
                  const std::string& owner) const override;
  /// checkSizesAt() at the interaction's current q.
  void checkConsistency(const Interaction& inter) const override;
  /// Evaluate h and G at @p q and check their sizes.
  void checkSizesAt(const SiconosVector& q, std::size_t interactionSize,
                    const std::string& owner) const;
  SiconosVector computeh(const SiconosVector& q, double t) const override;
  SimpleMatrix computeJacobianQ(const SiconosVector& q, double t) const override;
  bool isLinear() const override { return false; }

 private:
  OutputFunction h_;
  JacobianFunction G_;
};

namespace SP {
using LagrangianScleronomousR = std::shared_ptr<nsdyn::LagrangianScleronomousR>;
}

}  // namespace nsdyn

#endif
