/// @file MLCP.hpp
/// @brief Mixed linear complementarity problem (equalities + complementarities).
#ifndef NSDYN_KERNEL_MLCP_HPP
#define NSDYN_KERNEL_MLCP_HPP

#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/OneStepNSProblem.hpp"

namespace nsdyn {

/// w = M λ + q with, per row, either an equality (w = 0, λ free) or a
/// complementarity (0 ≤ w ⊥ λ ≥ 0). Accepts EqualityConditionNSL,
/// MixedComplementarityConditionNSL, ComplementarityConditionNSL and
/// NewtonImpactNSL relations. Default solver "lemke" (Schur complement of
/// the equality rows + Lemke), from Numerics' MLCP table ("enum", "pgs",
/// "newton_fb", "newton_min").
class NSDYN_KERNEL_API MLCP : public OneStepNSProblem {
 public:
  explicit MLCP(std::string solverName = "lemke");
  std::string className() const override { return "MLCP"; }
  NsdProblemKind numericsKind() const override { return NSD_KIND_MLCP; }
  void checkRelation(const UnitaryRelation& ur) const override;

 protected:
  NsdStatus solve(NsdMatrixPtr M, const SiconosVector& q, const IndexSet& active, SiconosVector& z,
                  SiconosVector& w, NsdReport& report) override;
};

namespace SP {
using MLCP = std::shared_ptr<nsdyn::MLCP>;
}

}  // namespace nsdyn

#endif
