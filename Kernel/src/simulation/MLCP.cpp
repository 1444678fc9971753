// MLCP: equality and complementarity rows, solved by a Numerics MLCP solver.
#include "nsdyn/MLCP.hpp"

#include <vector>

#include "nsdyn/Error.hpp"
#include "nsdyn/MixedComplementarityConditionNSL.hpp"
#include "nsdyn/nsd_solvers.h"

namespace nsdyn {

MLCP::MLCP(std::string solverName) : OneStepNSProblem(std::move(solverName)) {}

void MLCP::checkRelation(const UnitaryRelation& ur) const {
  const NonSmoothLawKind k = ur.interaction().nonSmoothLaw().kind();
  if (k != NonSmoothLawKind::Equality && k != NonSmoothLawKind::MixedComplementarity &&
      k != NonSmoothLawKind::Complementarity && k != NonSmoothLawKind::NewtonImpact)
    throw Error(
        "MLCP",
        "EqualityConditionNSL, MixedComplementarityConditionNSL, ComplementarityConditionNSL or "
        "NewtonImpactNSL relations",
        ur.interaction().name());
}

NsdStatus MLCP::solve(NsdMatrixPtr M, const SiconosVector& q, const IndexSet& active,
                      SiconosVector& z, SiconosVector& w, NsdReport& report) {
  // row kinds: 0 equality (free), 1 complementarity
  std::vector<int> isComp;
  for (const auto& ur : active) {
    const NonSmoothLaw& law = ur->interaction().nonSmoothLaw();
    for (std::size_t i = 0; i < ur->size(); ++i) {
      const std::size_t row = ur->relativePosition() + i;
      int comp = 1;
      if (law.kind() == NonSmoothLawKind::Equality) comp = 0;
      if (law.kind() == NonSmoothLawKind::MixedComplementarity)
        comp = static_cast<const MixedComplementarityConditionNSL&>(law).isComplementarityRow(row)
                   ? 1
                   : 0;
      isComp.push_back(comp);
    }
  }
  NsdProblem problem{};
  problem.kind = NSD_KIND_MLCP;
  problem.mlcp = nsd_mlcp_create_mixed(M.release(), q.data(), isComp.data());
  if (!problem.mlcp)
    return nsd_report_fail(&report, NSD_FAILED, "MLCP of size %zu: out of memory", q.size());
  NsdSolverOptions options = options_;
  options.warm_start = passWarmStart() ? 1 : 0;
  const NsdStatus status = solveNumerics(problem, z.data(), w.data(), options, report);
  nsd_problem_clear(&problem);
  return status;
}

}  // namespace nsdyn
