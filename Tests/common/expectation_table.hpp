// Checks shared by the data-driven solver tests: their expectation tables
// (one row per shared file x solver, solved or an expected failure with a reason).
#pragma once

#include <cppunit/extensions/HelperMacros.h>

#include <cstddef>
#include <string>
#include <vector>

#include <nsdyn/nsd_common.h>

namespace nsdyn::test {

/// Every (file, solver) pair appears once, every solver is known
/// (@p knownSolver(name) is true), every expected failure gives a reason, and
/// the table covers @p files files x @p solvers solvers. Rows need the fields
/// file, solver, solved and reason.
template <typename Row, typename KnownSolver>
void checkExpectationTable(const std::vector<Row>& table, KnownSolver knownSolver,
                           std::size_t files, std::size_t solvers) {
  for (const Row& a : table) {
    int count = 0;
    for (const Row& b : table)
      if (std::string(a.file) == b.file && std::string(a.solver) == b.solver) ++count;
    const std::string pair = std::string(a.file) + " x " + a.solver;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(pair, 1, count);
    CPPUNIT_ASSERT_MESSAGE(pair + ": unknown solver", knownSolver(a.solver));
    CPPUNIT_ASSERT_MESSAGE(pair + ": reason missing", a.solved || a.reason[0] != '\0');
  }
  CPPUNIT_ASSERT_EQUAL(files * solvers, table.size());
}

/// An expected failure (@p reason from the table) ended honestly: a status other
/// than NSD_OK, a message, and a residual above @p tolerance. @p got names the case.
inline void assertExpectedFailure(const std::string& got, const char* reason, NsdStatus status,
                                  const NsdReport& rep, double tolerance) {
  CPPUNIT_ASSERT_MESSAGE(
      got + " (expected to fail: " + reason + "; if it now solves, update the table)",
      status != NSD_OK);
  CPPUNIT_ASSERT_MESSAGE(got + ": no message", rep.message[0] != '\0');
  CPPUNIT_ASSERT_MESSAGE(got, !(rep.residual <= tolerance));
}

}  // namespace nsdyn::test
