// Helpers of the friction-contact Gauss-Seidel tests (fc3d NSGS/PSOR, fc2d
// NSGS/Lemke): the solvers by name and a comparison of vectors (the problem
// class and common checks: fc_test_problem.hpp).
#pragma once

#include <cppunit/extensions/HelperMacros.h>

#include <string>
#include <vector>

#include "fc_test_problem.hpp"
#include "nsdyn/nsd_fc.h"

namespace nsdyn::test {

/// The solvers under test, by the names used in ctest names.
inline const std::vector<NamedFcSolver>& fcGsSolvers() {
  static const std::vector<NamedFcSolver> all = {{"fc3d_nsgs", nsd_fc3d_nsgs, 3},
                                                 {"fc3d_psor", nsd_fc3d_psor, 3},
                                                 {"fc2d_nsgs", nsd_fc2d_nsgs, 2},
                                                 {"fc2d_lemke", nsd_fc2d_lemke, 2}};
  return all;
}
inline const NamedFcSolver* fcGsSolverByName(const std::string& name) {
  return findFcSolver(fcGsSolvers(), name);
}

/// Component-wise comparison of two vectors.
inline void assertVector(const std::string& what, const std::vector<double>& expected,
                         const std::vector<double>& got, double tol) {
  CPPUNIT_ASSERT_EQUAL_MESSAGE(what, expected.size(), got.size());
  for (size_t i = 0; i < expected.size(); ++i)
    CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what + "[" + std::to_string(i) + "]", expected[i], got[i],
                                         tol);
}

}  // namespace nsdyn::test
