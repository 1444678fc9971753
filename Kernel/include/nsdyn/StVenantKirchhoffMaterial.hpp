/// @file StVenantKirchhoffMaterial.hpp
/// @brief St. Venant–Kirchhoff solid in the correspondence formulation.
#ifndef NSDYN_STVENANTKIRCHHOFFMATERIAL_HPP
#define NSDYN_STVENANTKIRCHHOFFMATERIAL_HPP

#include <string>

#include "nsdyn/HyperelasticMaterial.hpp"
#include "nsdyn/KernelExport.hpp"

namespace nsdyn {

/// W = Λ/2 (tr E)² + μ tr E², E = ½(C − I) = Σ_a ½(λ_a² − 1) N_a⊗N_a, with μ, Λ the Lamé
/// constants of E, ν. (Not polyconvex: it softens under strong compression.) See
/// HyperelasticMaterial for the correspondence model, the stabilisation and the data.
class NSDYN_KERNEL_API StVenantKirchhoffMaterial : public HyperelasticMaterial {
 public:
  explicit StVenantKirchhoffMaterial(const PeridynamicElasticity& e, double stabilisation = 1.0)
      : HyperelasticMaterial(e, stabilisation) {}
  std::string kind() const override { return "saint-venant-kirchhoff"; }
  double strainEnergy(const double* lambda) const override;
  void stretchDerivatives(const double* lambda, double* dW) const override;
  void stretchHessian(const double* lambda, double* H) const override;
};

}  // namespace nsdyn

#endif
