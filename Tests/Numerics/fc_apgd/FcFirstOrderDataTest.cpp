// Each shared FC3D file (../shared/data/fc3d) x each first-order solver
// (apgd, bb, admm), as its own ctest:
//   test_fc_apgd FcFirstOrderDataTest::solvesFile file=<path> solver=<name>
// (named fc3d/<solver>/<file stem>). Without parameters, every pair of the
// table runs and a per-solver count is printed; with survey=1 each pair's
// outcome is printed instead of checked.
//
// The table says, for every (file, solver), whether the solver must reach the
// Siconos FC3D error <= 1e-8 from r = 0, or is expected not to, with the
// reason. An expected failure must still be reported honestly: a non-OK
// status, a message, and a residual that is the error of the r returned.
// Options: tolerance 1e-8, at most kMaxIterations iterations and kTimeLimit
// seconds per solve (../shared/anchors/README.md caps first-order solvers at
// 10,000 iterations).
#include <cppunit/extensions/HelperMacros.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "expectation_table.hpp"
#include "fc_apgd_test_util.hpp"
#include "test_params.hpp"

using namespace nsdyn::test;

namespace {

constexpr double kTolerance = 1e-8;
constexpr int kMaxIterations = 10000;
constexpr double kTimeLimit = 4.0;

struct Expectation {
  const char* file;
  const char* solver;
  bool solved;         // true: must reach error <= kTolerance with status NSD_OK
  const char* reason;  // why not, for expected failures
};

#define SOLVED(file, solver) \
  { file, solver, true, "" }
#define ALL3(file) SOLVED(file, "apgd"), SOLVED(file, "bb"), SOLVED(file, "admm")

// The granular Capsules and OneObject problems (many sticking contacts, M
// from condensed rounded data): first-order methods converge linearly there
// and stop between 2e-8 and 1e-5 after 10,000 iterations (Siconos's own
// first-order solvers fail on most of them too; NSGS and Newton solve them).
#define SLOW(file, solver, reached)                                               \
  {                                                                               \
    file, solver, false,                                                          \
        "10,000 iterations reach only " reached                                   \
        " on this many-contact granular problem; "                                \
        "the De Saxce fixed point and the first-order rate are too slow for 1e-8" \
  }

const std::vector<Expectation>& table() {
  static const std::vector<Expectation> rows = {
      SOLVED("Capsules-i100-1090.dat", "apgd"),
      SLOW("Capsules-i100-1090.dat", "bb", "3.9e-7"),
      SLOW("Capsules-i100-1090.dat", "admm", "6.8e-8"),
      SOLVED("Capsules-i100-889.dat", "apgd"),
      SLOW("Capsules-i100-889.dat", "bb", "4.7e-7"),
      SLOW("Capsules-i100-889.dat", "admm", "2.6e-7"),
      SOLVED("Capsules-i101-404.dat", "apgd"),
      SLOW("Capsules-i101-404.dat", "bb", "8.1e-6"),
      SOLVED("Capsules-i101-404.dat", "admm"),
      SLOW("Capsules-i103-990.dat", "apgd", "1.9e-7"),
      SLOW("Capsules-i103-990.dat", "bb", "9.9e-7"),
      SLOW("Capsules-i103-990.dat", "admm", "4.8e-7"),
      SOLVED("Capsules-i125-1213.hdf5", "apgd"),
      SLOW("Capsules-i125-1213.hdf5", "bb", "7.9e-7"),
      SOLVED("Capsules-i125-1213.hdf5", "admm"),
      ALL3("Confeti-ex03-Fc3D-SBM.dat"),
      ALL3("Confeti-ex13-4contact-Fc3D-SBM.dat"),
      ALL3("FC3D_Example1.dat"),
      ALL3("FC3D_Example1_SBM.dat"),
      ALL3("FrictionContact3D_1c.dat"),
      ALL3("FrictionContact3D_RR_1c.dat"),
      ALL3("GFC3D_TwoRods1-condensed.dat"),
      ALL3("NESpheres_10_1.dat"),
      SOLVED("OneObject-i100000-316.hdf5.dat", "apgd"),
      SLOW("OneObject-i100000-316.hdf5.dat", "bb", "1.5e-7"),
      SLOW("OneObject-i100000-316.hdf5.dat", "admm", "1.8e-4"),
      SOLVED("OneObject-i1028-138.hdf5.dat", "apgd"),
      SLOW("OneObject-i1028-138.hdf5.dat", "bb", "2.2e-5"),
      SOLVED("OneObject-i1028-138.hdf5.dat", "admm"),
      ALL3("Rover1039.dat"),
      ALL3("Rover1040.dat"),
      ALL3("Rover1041.dat"),
      ALL3("Rover11035.dat"),
      ALL3("Rover11211.dat"),
      ALL3("Rover3865.dat"),
      ALL3("Rover4144.dat"),
      ALL3("Rover4396.dat"),
      ALL3("Rover4493.dat"),
      ALL3("Rover4516.dat"),
      ALL3("Rover4609.dat"),
      ALL3("Rover4613.dat"),
  };
  return rows;
}

#undef SLOW
#undef ALL3
#undef SOLVED

std::string baseName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

const Expectation* find(const std::string& file, const std::string& solver) {
  for (const Expectation& e : table())
    if (file == e.file && solver == e.solver) return &e;
  return nullptr;
}

// Solve one file with one solver (report in t.rep).
void solveOne(FcTestProblem& t, const std::string& solver) {
  t.opt.tolerance = kTolerance;
  t.opt.max_iterations = kMaxIterations;
  t.opt.time_limit = kTimeLimit;
  t.solve(fcSolverByName(solver));
}

// Check one (file, solver) against the table; returns 1 if solved to tolerance.
int checkOne(const std::string& path, const std::string& solver) {
  const std::string file = baseName(path);
  const std::string what = file + " x " + solver;
  const Expectation* expect = find(file, solver);
  CPPUNIT_ASSERT_MESSAGE(what + ": no row in the expectation table", expect != nullptr);
  CPPUNIT_ASSERT_MESSAGE(what + ": unknown solver", fcSolverByName(solver) != nullptr);

  FcTestProblem t(readFc3dFile(path));
  solveOne(t, solver);
  const std::string got = what + ": " + describe(t.rep);
  if (expect->solved) {
    CPPUNIT_ASSERT_EQUAL_MESSAGE(got, NSD_OK, t.rep.status);
    CPPUNIT_ASSERT_MESSAGE(got, t.rep.residual <= kTolerance);
    assertConsistent(t, what);
    return 1;
  }

  nsdyn::test::assertExpectedFailure(got, expect->reason, t.rep.status, t.rep, kTolerance);
  if (t.rep.status != NSD_BAD_INPUT) assertConsistent(t, what);
  return 0;
}

}  // namespace

class FcFirstOrderDataTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FcFirstOrderDataTest);
  CPPUNIT_TEST(solvesFile);
  CPPUNIT_TEST(tableIsConsistent);
  CPPUNIT_TEST_SUITE_END();

 public:
  void solvesFile() {
    const std::string file = param("file"), solver = param("solver");
    if (param("survey") == "1") {
      // print each pair's outcome (for maintaining the table)
      for (const std::string& f : surveyFiles())
        for (const auto& s : fcSolvers()) {
          if (!solver.empty() && solver != s.name) continue;
          FcTestProblem t(readFc3dFile(f));
          solveOne(t, s.name);
          std::printf("\n%-40s %-5s %-15s it %6d err %.3e %.4f s %s", baseName(f).c_str(), s.name,
                      nsd_status_name(t.rep.status), t.rep.iterations, t.rep.residual,
                      t.rep.seconds, t.rep.message);
        }
      std::printf("\n");
      return;
    }
    if (!file.empty() || !solver.empty()) {
      CPPUNIT_ASSERT_MESSAGE("give both file= and solver=", !file.empty() && !solver.empty());
      checkOne(file, solver);
      return;
    }

    // no parameters: the whole table, with a per-solver count
    std::map<std::string, int> solved;
    for (const Expectation& e : table())
      solved[e.solver] += checkOne(sharedFc3dPath(e.file), e.solver);
    std::printf("\nshared FC3D files solved to %.0e:", kTolerance);
    for (const auto& s : fcSolvers()) std::printf(" %s %d,", s.name, solved[s.name]);
    std::printf("\n");
  }

  void tableIsConsistent() {
    // one row per (file, solver), every solver known, reasons given, every shared file
    checkExpectationTable(
        table(), [](const char* name) { return fcSolverByName(name) != nullptr; }, 27,
        fcSolvers().size());
  }

 private:
  // the shared files named in the table, or file= alone
  static std::vector<std::string> surveyFiles() {
    if (!param("file").empty()) return {param("file")};
    std::vector<std::string> files;
    for (const Expectation& e : table())
      if (files.empty() || baseName(files.back()) != e.file)
        files.push_back(sharedFc3dPath(e.file));
    return files;
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FcFirstOrderDataTest);
