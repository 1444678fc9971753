// LCP: complementarity over the active relations, solved by a Numerics LCP solver.
#include "nsdyn/LCP.hpp"

#include "nsdyn/Error.hpp"
#include "nsdyn/nsd_solvers.h"

namespace nsdyn {

LCP::LCP(std::string solverName) : OneStepNSProblem(std::move(solverName)) {}

void LCP::checkRelation(const UnitaryRelation& ur) const {
  const NonSmoothLawKind k = ur.interaction().nonSmoothLaw().kind();
  if (k != NonSmoothLawKind::NewtonImpact && k != NonSmoothLawKind::Complementarity)
    throw Error("LCP", "NewtonImpactNSL or ComplementarityConditionNSL relations",
                ur.interaction().name());
}

NsdStatus LCP::solve(NsdMatrixPtr M, const SiconosVector& q, const IndexSet& /*active*/,
                     SiconosVector& z, SiconosVector& w, NsdReport& report) {
  NsdProblem problem{};
  problem.kind = NSD_KIND_LCP;
  problem.lcp = nsd_lcp_create(M.release(), q.data());
  if (!problem.lcp)
    return nsd_report_fail(&report, NSD_FAILED, "LCP of size %zu: out of memory", q.size());
  NsdSolverOptions options = options_;
  options.warm_start = passWarmStart() ? 1 : 0;
  const NsdStatus status = solveNumerics(problem, z.data(), w.data(), options, report);
  nsd_problem_clear(&problem);
  return status;
}

}  // namespace nsdyn
