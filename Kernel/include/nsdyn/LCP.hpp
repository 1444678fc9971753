/// @file LCP.hpp
/// @brief Linear complementarity problem over the active unitary relations.
#ifndef NSDYN_KERNEL_LCP_HPP
#define NSDYN_KERNEL_LCP_HPP

#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/OneStepNSProblem.hpp"

namespace nsdyn {

/// w = M λ + q, 0 ≤ w ⊥ λ ≥ 0 on the active relations. Accepts
/// NewtonImpactNSL and ComplementarityConditionNSL relations. Default
/// solver "lemke" (exact), from Numerics' LCP table ("pgs" and its other names "nlgs", "psor",
/// "enum", "newton_fb", ...).
class NSDYN_KERNEL_API LCP : public OneStepNSProblem {
 public:
  explicit LCP(std::string solverName = "lemke");
  std::string className() const override { return "LCP"; }
  NsdProblemKind numericsKind() const override { return NSD_KIND_LCP; }
  void checkRelation(const UnitaryRelation& ur) const override;

 protected:
  NsdStatus solve(NsdMatrixPtr M, const SiconosVector& q, const IndexSet& active, SiconosVector& z,
                  SiconosVector& w, NsdReport& report) override;
};

namespace SP {
using LCP = std::shared_ptr<nsdyn::LCP>;
}

}  // namespace nsdyn

#endif
