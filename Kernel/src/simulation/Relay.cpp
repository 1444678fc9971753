// Relay: -w in N_[lb,ub](lambda), solved through its LCP reformulation.
#include "nsdyn/Relay.hpp"

#include <algorithm>
#include <vector>

#include "nsdyn/Error.hpp"
#include "nsdyn/RelayNSL.hpp"
#include "nsdyn/nsd_solvers.h"

namespace nsdyn {

Relay::Relay(std::string solverName) : OneStepNSProblem(std::move(solverName)) {}

void Relay::checkRelation(const UnitaryRelation& ur) const {
  if (ur.interaction().nonSmoothLaw().kind() != NonSmoothLawKind::Relay)
    throw Error("Relay", "RelayNSL relations", ur.interaction().name());
}

NsdStatus Relay::solve(NsdMatrixPtr M, const SiconosVector& q, const IndexSet& active,
                       SiconosVector& z, SiconosVector& w, NsdReport& report) {
  const int n = static_cast<int>(q.size());
  // bounds per row
  std::vector<double> lb, ub;
  for (const auto& ur : active) {
    const auto& law = static_cast<const RelayNSL&>(ur->interaction().nonSmoothLaw());
    for (std::size_t i = 0; i < ur->size(); ++i) {
      lb.push_back(law.lb());
      ub.push_back(law.ub());
    }
  }
  // LCP in (u, v) = (lambda - lb, w^-):  [M I; -I 0] (u, v) + (q + M lb, ub - lb)
  const int m = 2 * n;
  SimpleMatrix big(static_cast<std::size_t>(m), static_cast<std::size_t>(m));
  std::vector<double> bigQ(static_cast<std::size_t>(m));
  std::vector<double> Mlb(static_cast<std::size_t>(n), 0.0);
  nsd_matrix_gemv(1.0, M.get(), lb.data(), 0.0, Mlb.data());
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) big(i, j) = nsd_matrix_get(M.get(), i, j);
    big(i, n + i) = 1.0;
    big(n + i, i) = -1.0;
    bigQ[i] = q(i) + Mlb[i];
    bigQ[n + i] = ub[i] - lb[i];
  }
  NsdProblem problem{};
  problem.kind = NSD_KIND_LCP;
  problem.lcp = nsd_lcp_create(big.toNsdMatrix().release(), bigQ.data());
  if (!problem.lcp)
    return nsd_report_fail(&report, NSD_FAILED, "relay LCP of size %d: out of memory", m);
  // warm start: u = lambda - lb, v = 0
  std::vector<double> uv(static_cast<std::size_t>(m), 0.0), ww(static_cast<std::size_t>(m), 0.0);
  for (int i = 0; i < n; ++i) uv[i] = std::min(std::max(z(i), lb[i]), ub[i]) - lb[i];
  NsdSolverOptions options = options_;
  options.warm_start = passWarmStart() ? 1 : 0;
  const NsdStatus status = solveNumerics(problem, uv.data(), ww.data(), options, report);
  nsd_problem_clear(&problem);
  // lambda = lb + u, w = M lambda + q
  for (int i = 0; i < n; ++i) z(i) = lb[i] + uv[i];
  for (int i = 0; i < n; ++i) w(i) = q(i);
  nsd_matrix_gemv(1.0, M.get(), z.data(), 1.0, w.data());
  return status;
}

}  // namespace nsdyn
