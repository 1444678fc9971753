/// @file NeoHookeanMaterial.hpp
/// @brief Compressible Neo-Hookean solid in the correspondence formulation.
#ifndef NSDYN_NEOHOOKEANMATERIAL_HPP
#define NSDYN_NEOHOOKEANMATERIAL_HPP

#include <string>

#include "nsdyn/HyperelasticMaterial.hpp"
#include "nsdyn/KernelExport.hpp"

namespace nsdyn {

/// W(λ) = μ/2 (λ1² + λ2² + λ3² − 3) − μ ln J + Λ/2 (ln J)², J = λ1 λ2 λ3 (J ≤ 0: +∞), with
/// μ, Λ the Lamé constants of E, ν (the linear solid at small strain). See
/// HyperelasticMaterial for the correspondence model, the stabilisation and the data.
class NSDYN_KERNEL_API NeoHookeanMaterial : public HyperelasticMaterial {
 public:
  explicit NeoHookeanMaterial(const PeridynamicElasticity& e, double stabilisation = 1.0)
      : HyperelasticMaterial(e, stabilisation) {}
  std::string kind() const override { return "neo-hookean"; }
  double strainEnergy(const double* lambda) const override;
  void stretchDerivatives(const double* lambda, double* dW) const override;
  void stretchHessian(const double* lambda, double* H) const override;
};

}  // namespace nsdyn

#endif
