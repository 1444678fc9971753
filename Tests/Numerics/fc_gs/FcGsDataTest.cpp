// Each shared friction file x each Gauss-Seidel-family solver, as its own ctest:
//   test_fc_gs FcGsDataTest::solvesFile file=<path> solver=<name>
// named fc3d/nsgs/<stem>, fc3d/psor/<stem>, fc2d/nsgs/<stem>, fc2d/lemke/<stem>.
// Without parameters the test checks that the table below covers every file of
// ../shared/data/fc3d and ../shared/data/fc2d for each solver.
//
// The table says, for every (file, solver), whether the solver must reach the
// Siconos error <= 1e-8 from r = 0 with default options (NSGS: in order,
// Alart-Curnier local Newton, omega = 1), at most 10,000 sweeps and a 10 s time
// limit (as ../shared/anchors/README.md; one row says why it needs longer), or
// is expected not to, with the reason.
// An expected failure must still be reported honestly: a non-OK status, a
// message, and a residual (the error of the r returned) above the tolerance.
#include <cppunit/extensions/HelperMacros.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "fc_gs_test_util.hpp"
#include "test_params.hpp"

using namespace nsdyn::test;

namespace {

constexpr double kTolerance = 1e-8;
constexpr int kSweeps = 10000;
#ifdef NDEBUG
constexpr double kTimeLimit = 10.0;
#else
constexpr double kTimeLimit = 300.0; /* unoptimised and sanitizer builds */
#endif

struct Expectation {
  const char* file;
  const char* solver;
  bool solved;         // true: must reach error <= kTolerance with status NSD_OK
  const char* reason;  // why not, for expected failures (or why a longer time limit)
  double time_limit;   // seconds; 0: kTimeLimit
};

#define SOLVED(file, solver) \
  { file, solver, true, "", 0.0 }
#define SOLVED_3D(file) SOLVED(file, "fc3d_nsgs"), SOLVED(file, "fc3d_psor")
#define SOLVED_2D(file) SOLVED(file, "fc2d_nsgs"), SOLVED(file, "fc2d_lemke")

const std::vector<Expectation>& table() {
  static const std::vector<Expectation> rows = {
      // ---- fc3d: Capsules (FCLIB stacks of capsules, 225-286 contacts)
      SOLVED("Capsules-i100-1090.dat", "fc3d_nsgs"),
      {"Capsules-i100-1090.dat", "fc3d_psor", false,
       "one projected step per contact converges linearly and slowly here: ~9e-8 after 10,000 "
       "sweeps",
       0.0},
      SOLVED("Capsules-i100-889.dat", "fc3d_nsgs"),
      {"Capsules-i100-889.dat", "fc3d_psor", false,
       "one projected step per contact converges linearly and slowly here: ~2e-8 after 10,000 "
       "sweeps",
       0.0},
      SOLVED_3D("Capsules-i101-404.dat"),
      SOLVED("Capsules-i103-990.dat", "fc3d_nsgs"),
      {"Capsules-i103-990.dat", "fc3d_psor", false,
       "one projected step per contact converges linearly and slowly here: ~1.3e-8 after 10,000 "
       "sweeps",
       0.0},
      SOLVED_3D("Capsules-i125-1213.hdf5"),
      // ---- fc3d: small and medium problems
      SOLVED_3D("Confeti-ex03-Fc3D-SBM.dat"),
      SOLVED_3D("Confeti-ex13-4contact-Fc3D-SBM.dat"),
      SOLVED_3D("FC3D_Example1.dat"),
      SOLVED_3D("FC3D_Example1_SBM.dat"),
      SOLVED_3D("FrictionContact3D_1c.dat"),
      SOLVED_3D("FrictionContact3D_RR_1c.dat"),
      SOLVED_3D("GFC3D_TwoRods1-condensed.dat"),
      SOLVED_3D("NESpheres_10_1.dat"),
      {"OneObject-i100000-316.hdf5.dat", "fc3d_nsgs", false,
       "in-order sweeps with exact local solves fall into a cycle at error 1.687e-3 (as Siconos "
       "NSGS); shuffle=1, omega=0.8 or the projection local solver solve it (Fc3dGsTest)",
       0.0},
      SOLVED("OneObject-i100000-316.hdf5.dat", "fc3d_psor"),
      SOLVED_3D("OneObject-i1028-138.hdf5.dat"),
      // ---- fc3d: Rover (1-5 contacts)
      SOLVED_3D("Rover1039.dat"),
      SOLVED_3D("Rover1040.dat"),
      SOLVED_3D("Rover1041.dat"),
      SOLVED_3D("Rover11035.dat"),
      SOLVED_3D("Rover11211.dat"),
      SOLVED_3D("Rover3865.dat"),
      SOLVED_3D("Rover4144.dat"),
      SOLVED_3D("Rover4396.dat"),
      SOLVED_3D("Rover4493.dat"),
      SOLVED_3D("Rover4516.dat"),
      SOLVED_3D("Rover4609.dat"),
      SOLVED_3D("Rover4613.dat"),

      // ---- fc2d
      SOLVED_2D("FC2D_SliderCrankLagrangian00000.dat"),
      SOLVED_2D("FC2D_SliderCrankLagrangian00001.dat"),
      SOLVED_2D("FrictionContactProblem00031.dat"),
      SOLVED_2D("FrictionContactProblem00071.dat"),
      SOLVED_2D("FrictionContactProblem00237.dat"),
      SOLVED_2D("FrictionContactProblem00374.dat"),
      SOLVED_2D("FrictionContactProblem00394.dat"),
      SOLVED_2D("fc2d_granularflowonwall_00667_00000.dat"),
      {"fc2d_granularflowonwall_02020_00213.dat", "fc2d_nsgs", false,
       "2020 grains in a hyperstatic packing: the sweeps settle into a limit cycle at error ~5e-7",
       0.0},
      {"fc2d_granularflowonwall_02020_00213.dat", "fc2d_lemke", true,
       "LCP of size 6060 above the dense limit: reduced to the 743 (then 744) contacts that "
       "carry a reaction, two Lemke solves of size ~2230 take ~18 s alone (~30 s on a loaded "
       "machine), hence 120 s here",
       120.0},
  };
  return rows;
}

#undef SOLVED
#undef SOLVED_3D
#undef SOLVED_2D

const Expectation* find(const std::string& file, const std::string& solver) {
  for (const auto& e : table())
    if (file == e.file && solver == e.solver) return &e;
  return nullptr;
}

}  // namespace

class FcGsDataTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FcGsDataTest);
  CPPUNIT_TEST(solvesFile);
  CPPUNIT_TEST_SUITE_END();

 public:
  void solvesFile() {
    const std::string path = param("file");
    if (path.empty()) {
      checkTableCoversFolders();
      return;
    }
    const std::string solver = param("solver");
    const NamedFcSolver* s = fcGsSolverByName(solver);
    CPPUNIT_ASSERT_MESSAGE("unknown solver '" + solver + "'", s != nullptr);
    const std::string file = std::filesystem::path(path).filename().string();
    const Expectation* e = find(file, solver);
    CPPUNIT_ASSERT_MESSAGE("no expectation for " + file + " x " + solver, e != nullptr);

    // solve from r = 0 with default options, the anchors' caps
    FcTestProblem t(readFcFile(path, s->dim));
    t.opt.tolerance = kTolerance;
    t.opt.max_iterations = kSweeps;
    t.opt.time_limit =
        e->time_limit > 0.0 && e->time_limit > kTimeLimit ? e->time_limit : kTimeLimit;
    const NsdStatus status = t.solve(s->fn);
    const std::string what = file + " x " + solver + ": " + describe(t.rep);
    if (e->solved) {
      assertSolved(t, status, kTolerance);
    } else {
      // an honest failure: non-OK status with a message, residual = error of r, above tolerance
      CPPUNIT_ASSERT_MESSAGE("expected failure (" + std::string(e->reason) + ") but " + what,
                             status != NSD_OK && status == t.rep.status);
      CPPUNIT_ASSERT_MESSAGE(what, t.rep.message[0] != '\0');
      const double err = nsd_fc_error(t.fc, t.r.data(), nullptr);
      CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what, err, t.rep.residual, 1e-9 * err);
      CPPUNIT_ASSERT_MESSAGE(what, t.rep.residual > kTolerance);
    }
  }

 private:
  // Every shared file has a row for each solver of its dimension, and every row a file.
  static void checkTableCoversFolders() {
    std::set<std::string> rows;
    for (const auto& dir : {std::string("fc3d"), std::string("fc2d")}) {
      for (const auto& entry : std::filesystem::directory_iterator(sharedPath(dir))) {
        const std::string file = entry.path().filename().string();
        for (const auto& s : fcGsSolvers()) {
          if ((s.dim == 3) != (dir == "fc3d")) continue;
          CPPUNIT_ASSERT_MESSAGE("no expectation for " + dir + "/" + file + " x " + s.name,
                                 find(file, s.name) != nullptr);
          rows.insert(file + "|" + s.name);
        }
      }
    }
    CPPUNIT_ASSERT_EQUAL_MESSAGE("rows without a shared file", table().size(), rows.size());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FcGsDataTest);
