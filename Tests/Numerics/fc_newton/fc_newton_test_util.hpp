// Helpers of the global Newton friction-contact tests: the two solvers by name
// (the problem class and common checks: fc_test_problem.hpp).
#pragma once

#include <string>
#include <vector>

#include "fc_test_problem.hpp"
#include "nsdyn/nsd_fc.h"

namespace nsdyn::test {

/// The solvers under test, by the names used in ctest names.
inline const std::vector<NamedFcSolver>& newtonSolvers() {
  static const std::vector<NamedFcSolver> all = {{"newton_ac", nsd_fc3d_newton_ac},
                                                 {"newton_fb", nsd_fc3d_newton_fb}};
  return all;
}
inline NsdFcSolver newtonSolverByName(const std::string& name) {
  const NamedFcSolver* s = findFcSolver(newtonSolvers(), name);
  return s ? s->fn : nullptr;
}

}  // namespace nsdyn::test
