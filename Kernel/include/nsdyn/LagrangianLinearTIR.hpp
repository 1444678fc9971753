/// @file LagrangianLinearTIR.hpp
/// @brief Linear time-invariant Lagrangian relation y = H q + b, p = Hᵀ λ.
#ifndef NSDYN_KERNEL_LAGRANGIANLINEARTIR_HPP
#define NSDYN_KERNEL_LAGRANGIANLINEARTIR_HPP

#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/LagrangianR.hpp"

namespace nsdyn {

/// y = H q + b, ẏ = H v, p = Hᵀ λ, with constant H (rows = law size,
/// columns = total dof of the linked systems) and b (optional, zero by default).
class NSDYN_KERNEL_API LagrangianLinearTIR : public LagrangianR {
 public:
  explicit LagrangianLinearTIR(SimpleMatrix H);
  LagrangianLinearTIR(SimpleMatrix H, SiconosVector b);

  std::string className() const override { return "LagrangianLinearTIR"; }
  void checkSizes(std::size_t interactionSize, std::size_t dof,
                  const std::string& owner) const override;
  SiconosVector computeh(const SiconosVector& q, double t) const override;
  SimpleMatrix computeJacobianQ(const SiconosVector& /*q*/, double /*t*/) const override {
    return H_;
  }
  bool isLinear() const override { return true; }

  const SimpleMatrix& H() const { return H_; }
  /// Offset b (zeros of size H.rows() when not given).
  const SiconosVector& b() const { return b_; }

 private:
  SimpleMatrix H_;
  SiconosVector b_;
};

namespace SP {
using LagrangianLinearTIR = std::shared_ptr<nsdyn::LagrangianLinearTIR>;
}

}  // namespace nsdyn

#endif
