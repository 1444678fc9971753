// Each shared FC3D file (../shared/data/fc3d) x the proximal-point solver and
// the automatic choice, as its own ctest:
//   test_fc_prox FcProxDataTest::solvesFile file=<path> solver=<prox|auto>
// (named fc3d/<solver>/<file stem>). Without parameters, every pair of the
// table runs and the iterations and times are printed next to newton_ac's.
//
// The table says, for every (file, solver), whether the solver must reach the
// Siconos FC3D error <= 1e-8 from r = 0 (as newton_ac does on all 27 files,
// see FcNewtonDataTest.cpp), or is expected not to, with the reason. Options
// as FcNewtonDataTest: tolerance 1e-8, at most 1,000 Newton steps, a 10 s cap.
#include <cppunit/extensions/HelperMacros.h>

#include <cstdio>
#include <string>
#include <vector>

#include "expectation_table.hpp"
#include "fc_newton_test_util.hpp"
#include "nsdyn/nsd_solvers.h"
#include "test_params.hpp"

using namespace nsdyn::test;

namespace {

constexpr double kTolerance = 1e-8;
constexpr int kNewtonSteps = 1000;
constexpr double kTimeLimit = 10.0;

const std::vector<NamedFcSolver>& proxSolvers() {
  static const std::vector<NamedFcSolver> all = {{"prox", nsd_fc3d_prox}, {"auto", nsd_fc3d_auto}};
  return all;
}

struct Expectation {
  const char* file;
  const char* solver;
  bool solved;         // true: must reach error <= kTolerance with status NSD_OK
  const char* reason;  // why not, for expected failures
};

#define BOTH(file)            \
  {file, "prox", true, ""}, { \
    file, "auto", true, ""    \
  }

// Both solve every shared file, like newton_ac.
const std::vector<Expectation>& table() {
  static const std::vector<Expectation> rows = {
      BOTH("Capsules-i100-1090.dat"),
      BOTH("Capsules-i100-889.dat"),
      BOTH("Capsules-i101-404.dat"),
      BOTH("Capsules-i103-990.dat"),
      BOTH("Capsules-i125-1213.hdf5"),
      BOTH("Confeti-ex03-Fc3D-SBM.dat"),
      BOTH("Confeti-ex13-4contact-Fc3D-SBM.dat"),
      BOTH("FC3D_Example1.dat"),
      BOTH("FC3D_Example1_SBM.dat"),
      BOTH("FrictionContact3D_1c.dat"),
      BOTH("FrictionContact3D_RR_1c.dat"),
      BOTH("GFC3D_TwoRods1-condensed.dat"),
      BOTH("NESpheres_10_1.dat"),
      BOTH("OneObject-i100000-316.hdf5.dat"),
      BOTH("OneObject-i1028-138.hdf5.dat"),
      BOTH("Rover1039.dat"),
      BOTH("Rover1040.dat"),
      BOTH("Rover1041.dat"),
      BOTH("Rover11035.dat"),
      BOTH("Rover11211.dat"),
      BOTH("Rover3865.dat"),
      BOTH("Rover4144.dat"),
      BOTH("Rover4396.dat"),
      BOTH("Rover4493.dat"),
      BOTH("Rover4516.dat"),
      BOTH("Rover4609.dat"),
      BOTH("Rover4613.dat"),
  };
  return rows;
}

#undef BOTH

std::string baseName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

const Expectation* find(const std::string& file, const std::string& solver) {
  for (const Expectation& e : table())
    if (file == e.file && solver == e.solver) return &e;
  return nullptr;
}

void checkOne(const std::string& path, const std::string& solver, bool print) {
  const std::string file = baseName(path);
  const std::string what = file + " x " + solver;
  const Expectation* expect = find(file, solver);
  CPPUNIT_ASSERT_MESSAGE(what + ": no row in the expectation table", expect != nullptr);
  const NamedFcSolver* s = findFcSolver(proxSolvers(), solver);
  CPPUNIT_ASSERT_MESSAGE(what + ": unknown solver", s != nullptr);

  FcTestProblem t(readFc3dFile(path));
  t.opt.tolerance = kTolerance;
  t.opt.max_iterations = kNewtonSteps;
  t.opt.time_limit = kTimeLimit;
  const NsdStatus status = t.solve(s->fn);
  const std::string got = what + ": " + describe(t.rep);
  if (print) {
    FcTestProblem n(readFc3dFile(path));
    n.opt = t.opt;
    n.solve(nsd_fc3d_newton_ac);
    std::printf("\n  %-36s %-5s %-15s %-15s %4d it %.2e %.4f s | newton_ac %3d it %.4f s",
                file.c_str(), solver.c_str(), t.rep.solver, nsd_status_name(status),
                t.rep.iterations, t.rep.residual, t.rep.seconds, n.rep.iterations, n.rep.seconds);
  }
  assertConsistent(t, what);
  if (solver == "auto")
    CPPUNIT_ASSERT_MESSAGE(got, std::string(t.rep.solver).rfind("auto:", 0) == 0);

  if (expect->solved) {
    CPPUNIT_ASSERT_EQUAL_MESSAGE(got, NSD_OK, status);
    CPPUNIT_ASSERT_MESSAGE(got, t.rep.residual <= kTolerance);
    return;
  }
  nsdyn::test::assertExpectedFailure(got, expect->reason, status, t.rep, kTolerance);
}

}  // namespace

class FcProxDataTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FcProxDataTest);
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
    for (const Expectation& e : table()) checkOne(sharedFc3dPath(e.file), e.solver, true);
    std::printf("\n");
  }

  void tableIsComplete() {
    checkExpectationTable(
        table(), [](const char* name) { return findFcSolver(proxSolvers(), name) != nullptr; }, 27,
        proxSolvers().size());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FcProxDataTest);
