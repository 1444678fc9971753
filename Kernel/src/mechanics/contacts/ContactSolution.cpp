// The active contacts going into a contact problem and its solution coming back.
#include "ContactSolution.hpp"

#include <cmath>

namespace nsdyn::contacts {

std::vector<std::int32_t> activeContacts(ContactSet& cs, bool rolling) {
  const std::size_t n = cs.size();
  std::vector<std::int32_t> act;
  act.reserve(cs.activeCount());
  for (std::size_t c = 0; c < n; ++c) {
    if (cs.active[c]) {
      act.push_back(static_cast<std::int32_t>(c));
    } else {
      for (int k = 0; k < 3; ++k) cs.impulse[3 * c + k] = 0.0;
      if (rolling)
        for (int k = 0; k < 2; ++k) cs.rollingImpulse[2 * c + k] = 0.0;
    }
  }
  return act;
}

void writeBack(ContactSet& cs, const std::vector<std::int32_t>& act, int dim, SiconosVector& z,
               const SiconosVector& w) {
  bool finite = true;
  for (std::size_t i = 0; i < z.size(); ++i) finite = finite && std::isfinite(z(i));
  if (!finite) z.zero();
  const int na = static_cast<int>(act.size());
  for (int a = 0; a < na; ++a) {
    const std::size_t c = static_cast<std::size_t>(act[a]);
    for (int k = 0; k < 3; ++k) {
      cs.impulse[3 * c + k] = z(dim * a + k);
      cs.velocity[3 * c + k] = w(dim * a + k);
    }
    if (dim == 5)
      for (int k = 0; k < 2; ++k) {
        cs.rollingImpulse[2 * c + k] = z(dim * a + 3 + k);
        cs.rollingVelocity[2 * c + k] = w(dim * a + 3 + k);
      }
  }
}

void recordSolve(StepStatistics& stats, NsdStatus verdict, const NsdReport& report,
                 const std::string& solverName, const std::string& fallbackSolver) {
  stats.solved = true;
  if (stats.fallbacks) stats.solver = solverName + "+" + fallbackSolver;
  stats.status = verdict;
  stats.iterations = report.iterations;
  stats.residual = report.residual;
  stats.seconds = report.seconds;
  if (stats.status != NSD_OK) stats.message = report.message;
}

}  // namespace nsdyn::contacts
