/// @file Relay.hpp
/// @brief Relay problem, solved through its LCP reformulation.
#ifndef NSDYN_KERNEL_RELAY_HPP
#define NSDYN_KERNEL_RELAY_HPP

#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/OneStepNSProblem.hpp"

namespace nsdyn {

/// w = M λ + q, −w ∈ N_[lb,ub](λ) row by row (RelayNSL relations).
/// Solved through the LCP in (u, v) = (λ − lb, w⁻):
///   [ M  I ] [u]   [ q + M lb ]
///   [−I  0 ] [v] + [ ub − lb  ]  ⊥ (u, v) ≥ 0,  λ = lb + u,
/// with the Numerics LCP solver named solverName() (default "lemke", as
/// Siconos' RELAY_LEMKE). Options max_iterations/tolerance apply to that LCP.
class NSDYN_KERNEL_API Relay : public OneStepNSProblem {
 public:
  explicit Relay(std::string solverName = "lemke");
  std::string className() const override { return "Relay"; }
  NsdProblemKind numericsKind() const override { return NSD_KIND_LCP; }
  void checkRelation(const UnitaryRelation& ur) const override;

 protected:
  NsdStatus solve(NsdMatrixPtr M, const SiconosVector& q, const IndexSet& active, SiconosVector& z,
                  SiconosVector& w, NsdReport& report) override;
};

namespace SP {
using Relay = std::shared_ptr<nsdyn::Relay>;
}

}  // namespace nsdyn

#endif
