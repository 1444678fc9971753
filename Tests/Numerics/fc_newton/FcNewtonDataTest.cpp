// Each shared FC3D file (../shared/data/fc3d) x each global Newton solver, as
// its own ctest:
//   test_fc_newton FcNewtonDataTest::solvesFile file=<path> solver=<name>
// (named fc3d/<solver>/<file stem>). Without parameters, every pair of the
// table runs and the iterations and times are printed.
//
// The table says, for every (file, solver), whether the solver must reach the
// Siconos FC3D error <= 1e-8 from r = 0, or is expected not to, with the
// reason. An expected failure must still be reported honestly: a non-OK
// status, a message, and a residual above tolerance that is the error of the r
// returned. Options follow ../shared/anchors/README.md: tolerance 1e-8, at
// most 1,000 Newton steps, and a 10 s cap.
#include <cppunit/extensions/HelperMacros.h>

#include <cstdio>
#include <string>
#include <vector>

#include "expectation_table.hpp"
#include "fc_newton_test_util.hpp"
#include "test_params.hpp"

using namespace nsdyn::test;

namespace {

constexpr double kTolerance = 1e-8;
constexpr int kNewtonSteps = 1000;
constexpr double kTimeLimit = 10.0;

struct Expectation {
  const char* file;
  const char* solver;
  bool solved;         // true: must reach error <= kTolerance with status NSD_OK
  const char* reason;  // why not, for expected failures
};

// Solvers expected to solve a file.
#define SOLVED(file, solver) \
  { file, solver, true, "" }

// Every shared file is solved by both methods (Siconos NSN_AC fails on the
// Capsules files, NSN_FB on Confeti-ex03: see ../shared/anchors).
const std::vector<Expectation>& table() {
  static const std::vector<Expectation> rows = {
      SOLVED("Capsules-i100-1090.dat", "newton_ac"),
      SOLVED("Capsules-i100-1090.dat", "newton_fb"),
      SOLVED("Capsules-i100-889.dat", "newton_ac"),
      SOLVED("Capsules-i100-889.dat", "newton_fb"),
      SOLVED("Capsules-i101-404.dat", "newton_ac"),
      SOLVED("Capsules-i101-404.dat", "newton_fb"),
      SOLVED("Capsules-i103-990.dat", "newton_ac"),
      SOLVED("Capsules-i103-990.dat", "newton_fb"),
      SOLVED("Capsules-i125-1213.hdf5", "newton_ac"),
      SOLVED("Capsules-i125-1213.hdf5", "newton_fb"),
      SOLVED("Confeti-ex03-Fc3D-SBM.dat", "newton_ac"),
      SOLVED("Confeti-ex03-Fc3D-SBM.dat", "newton_fb"),
      SOLVED("Confeti-ex13-4contact-Fc3D-SBM.dat", "newton_ac"),
      SOLVED("Confeti-ex13-4contact-Fc3D-SBM.dat", "newton_fb"),
      SOLVED("FC3D_Example1.dat", "newton_ac"),
      SOLVED("FC3D_Example1.dat", "newton_fb"),
      SOLVED("FC3D_Example1_SBM.dat", "newton_ac"),
      SOLVED("FC3D_Example1_SBM.dat", "newton_fb"),
      SOLVED("FrictionContact3D_1c.dat", "newton_ac"),
      SOLVED("FrictionContact3D_1c.dat", "newton_fb"),
      SOLVED("FrictionContact3D_RR_1c.dat", "newton_ac"),
      SOLVED("FrictionContact3D_RR_1c.dat", "newton_fb"),
      SOLVED("GFC3D_TwoRods1-condensed.dat", "newton_ac"),
      SOLVED("GFC3D_TwoRods1-condensed.dat", "newton_fb"),
      SOLVED("NESpheres_10_1.dat", "newton_ac"),
      SOLVED("NESpheres_10_1.dat", "newton_fb"),
      SOLVED("OneObject-i100000-316.hdf5.dat", "newton_ac"),
      SOLVED("OneObject-i100000-316.hdf5.dat", "newton_fb"),
      SOLVED("OneObject-i1028-138.hdf5.dat", "newton_ac"),
      SOLVED("OneObject-i1028-138.hdf5.dat", "newton_fb"),
      SOLVED("Rover1039.dat", "newton_ac"),
      SOLVED("Rover1039.dat", "newton_fb"),
      SOLVED("Rover1040.dat", "newton_ac"),
      SOLVED("Rover1040.dat", "newton_fb"),
      SOLVED("Rover1041.dat", "newton_ac"),
      SOLVED("Rover1041.dat", "newton_fb"),
      SOLVED("Rover11035.dat", "newton_ac"),
      SOLVED("Rover11035.dat", "newton_fb"),
      SOLVED("Rover11211.dat", "newton_ac"),
      SOLVED("Rover11211.dat", "newton_fb"),
      SOLVED("Rover3865.dat", "newton_ac"),
      SOLVED("Rover3865.dat", "newton_fb"),
      SOLVED("Rover4144.dat", "newton_ac"),
      SOLVED("Rover4144.dat", "newton_fb"),
      SOLVED("Rover4396.dat", "newton_ac"),
      SOLVED("Rover4396.dat", "newton_fb"),
      SOLVED("Rover4493.dat", "newton_ac"),
      SOLVED("Rover4493.dat", "newton_fb"),
      SOLVED("Rover4516.dat", "newton_ac"),
      SOLVED("Rover4516.dat", "newton_fb"),
      SOLVED("Rover4609.dat", "newton_ac"),
      SOLVED("Rover4609.dat", "newton_fb"),
      SOLVED("Rover4613.dat", "newton_ac"),
      SOLVED("Rover4613.dat", "newton_fb"),
  };
  return rows;
}

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

// Solve one file with one solver and check the outcome against the table.
void checkOne(const std::string& path, const std::string& solver, bool print) {
  const std::string file = baseName(path);
  const std::string what = file + " x " + solver;
  const Expectation* expect = find(file, solver);
  CPPUNIT_ASSERT_MESSAGE(what + ": no row in the expectation table", expect != nullptr);
  const NsdFcSolver fn = newtonSolverByName(solver);
  CPPUNIT_ASSERT_MESSAGE(what + ": unknown solver", fn != nullptr);

  FcTestProblem t(readFc3dFile(path));
  t.opt.tolerance = kTolerance;
  t.opt.max_iterations = kNewtonSteps;
  t.opt.time_limit = kTimeLimit;
  const NsdStatus status = t.solve(fn);
  const std::string got = what + ": " + describe(t.rep);
  if (print)
    std::printf("\n  %-36s %-10s %-15s %5d it  error %.2e  %.4f s", file.c_str(), solver.c_str(),
                nsd_status_name(status), t.rep.iterations, t.rep.residual, t.rep.seconds);
  assertConsistent(t, what);

  if (expect->solved) {
    CPPUNIT_ASSERT_EQUAL_MESSAGE(got, NSD_OK, status);
    CPPUNIT_ASSERT_MESSAGE(got, t.rep.residual <= kTolerance);
    return;
  }

  nsdyn::test::assertExpectedFailure(got, expect->reason, status, t.rep, kTolerance);
}

}  // namespace

class FcNewtonDataTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FcNewtonDataTest);
  CPPUNIT_TEST(solvesFile);
  CPPUNIT_TEST(tableIsComplete);
  CPPUNIT_TEST_SUITE_END();

 public:
  void solvesFile() {
    const std::string file = param("file"), solver = param("solver");
    if (!file.empty() || !solver.empty()) {
      CPPUNIT_ASSERT_MESSAGE("give both file= and solver=", !file.empty() && !solver.empty());
      checkOne(file, solver, false);
      return;
    }

    // no parameters: the whole table, printed
    for (const Expectation& e : table()) checkOne(sharedFc3dPath(e.file), e.solver, true);
    std::printf("\n");
  }

  void tableIsComplete() {
    // one row per (file, solver), with a reason for every expected failure
    checkExpectationTable(
        table(), [](const char* name) { return newtonSolverByName(name) != nullptr; }, 27,
        newtonSolvers().size());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FcNewtonDataTest);
