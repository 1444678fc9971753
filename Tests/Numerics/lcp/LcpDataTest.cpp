// Each shared LCP file (../shared/data/lcp) x each LCP solver, as its own ctest:
//   test_lcp LcpDataTest::solvesFile file=<path> solver=<name>
// (named lcp/<solver>/<file stem>). Without parameters, every pair of the
// table runs and a per-solver count is printed.
//
// The table below says, for every (file, solver), whether the solver must
// reach the Siconos LCP error <= 1e-8 from z = 0, or is expected not to, with
// the reason. An expected failure must still be reported honestly: a non-OK
// status, a message, and a residual that is the error of the z returned.
// Options follow ../shared/anchors/README.md: tolerance 1e-8, at most 10,000
// sweeps for the first-order solvers and 1,000 Newton steps.
#include <cppunit/extensions/HelperMacros.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "expectation_table.hpp"
#include "lcp_test_util.hpp"
#include "test_params.hpp"

using namespace nsdyn::test;

namespace {

constexpr double kTolerance = 1e-8;
constexpr int kFirstOrderSweeps = 10000;

struct Expectation {
  const char* file;
  const char* solver;
  bool solved;         // true: must reach error <= kTolerance with status NSD_OK
  const char* reason;  // why not, for expected failures
};

// Files the point methods (NLGS/PSOR) cannot start on: a zero diagonal entry.
#define ZERO_DIAG(file, entry)                                                       \
  {file, "nlgs", false, entry " = 0: NLGS needs M_ii > 0, rejected as bad input"}, { \
    file, "psor", false, entry " = 0: PSOR needs M_ii > 0, rejected as bad input"    \
  }

// Solvers expected to solve a file.
#define SOLVED(file, solver) \
  { file, solver, true, "" }

const std::vector<Expectation>& table() {
  static const std::vector<Expectation> rows = {
      // lcp_CPS_1: M = [1 1; 1 1] PSD, q = -1, solutions z1 + z2 = 1
      SOLVED("lcp_CPS_1.dat", "lemke"),
      SOLVED("lcp_CPS_1.dat", "nlgs"),
      SOLVED("lcp_CPS_1.dat", "psor"),
      SOLVED("lcp_CPS_1.dat", "pgs_block"),
      SOLVED("lcp_CPS_1.dat", "enum"),
      SOLVED("lcp_CPS_1.dat", "newton_fb"),
      SOLVED("lcp_CPS_1.dat", "newton_min"),

      // lcp_CPS_2: zero diagonal, a solution (0, 1, 3)
      SOLVED("lcp_CPS_2.dat", "lemke"),
      ZERO_DIAG("lcp_CPS_2.dat", "M[0][0]"),
      SOLVED("lcp_CPS_2.dat", "pgs_block"),
      SOLVED("lcp_CPS_2.dat", "enum"),
      SOLVED("lcp_CPS_2.dat", "newton_fb"),
      {"lcp_CPS_2.dat", "newton_min", false,
       "1/2||min(z,w)||^2 has a nonsmooth non-solution stationary point near "
       "z = (-1/3, 1/3, 3/2); the steps stall there until max_iterations"},

      // lcp_CPS_3: bimatrix game M = [0 A; B 0] with A, B > 0, q = -1
      {"lcp_CPS_3.dat", "lemke", false,
       "M >= 0 with zero diagonal blocks is not copositive-plus: Lemke (d = 1) ray-terminates "
       "on its first complementary pivot (as Siconos LEMKE); a solution exists (enum finds it)"},
      ZERO_DIAG("lcp_CPS_3.dat", "M[0][0]"),
      SOLVED("lcp_CPS_3.dat", "pgs_block"),
      SOLVED("lcp_CPS_3.dat", "enum"),
      SOLVED("lcp_CPS_3.dat", "newton_fb"),
      SOLVED("lcp_CPS_3.dat", "newton_min"),

      // lcp_CPS_4 / 4bis: M_33 = 0, q_3 = -6
      SOLVED("lcp_CPS_4.dat", "lemke"),
      ZERO_DIAG("lcp_CPS_4.dat", "M[3][3]"),
      {"lcp_CPS_4.dat", "pgs_block", false,
       "blocks {0,1,2},{3}: the 1x1 block M_33 = 0 with local q_3 = -6 < 0 has no solution"},
      SOLVED("lcp_CPS_4.dat", "enum"),
      SOLVED("lcp_CPS_4.dat", "newton_fb"),
      {"lcp_CPS_4.dat", "newton_min", false,
       "line search fails at a local minimum of 1/2||min(z,w)||^2 (theta = 4.5) that is not a "
       "solution"},
      SOLVED("lcp_CPS_4bis.dat", "lemke"),
      ZERO_DIAG("lcp_CPS_4bis.dat", "M[3][3]"),
      {"lcp_CPS_4bis.dat", "pgs_block", false,
       "blocks {0,1,2},{3}: the 1x1 block M_33 = 0 with local q_3 = -6 < 0 has no solution"},
      SOLVED("lcp_CPS_4bis.dat", "enum"),
      SOLVED("lcp_CPS_4bis.dat", "newton_fb"),
      {"lcp_CPS_4bis.dat", "newton_min", false,
       "line search fails at a local minimum of 1/2||min(z,w)||^2 (theta = 4.5) that is not a "
       "solution"},

      // lcp_CPS_5: M = [1 -1; -1 1], q = (1, -1)
      SOLVED("lcp_CPS_5.dat", "lemke"),
      SOLVED("lcp_CPS_5.dat", "nlgs"),
      SOLVED("lcp_CPS_5.dat", "psor"),
      SOLVED("lcp_CPS_5.dat", "pgs_block"),
      SOLVED("lcp_CPS_5.dat", "enum"),
      SOLVED("lcp_CPS_5.dat", "newton_fb"),
      SOLVED("lcp_CPS_5.dat", "newton_min"),

      // lcp_Pang_isolated_sol: zero diagonal, an isolated solution
      SOLVED("lcp_Pang_isolated_sol.dat", "lemke"),
      ZERO_DIAG("lcp_Pang_isolated_sol.dat", "M[0][0]"),
      SOLVED("lcp_Pang_isolated_sol.dat", "pgs_block"),
      SOLVED("lcp_Pang_isolated_sol.dat", "enum"),
      SOLVED("lcp_Pang_isolated_sol.dat", "newton_fb"),
      SOLVED("lcp_Pang_isolated_sol.dat", "newton_min"),

      // lcp_deudeu (dense) and lcp_deudeu_block (one 2x2 SBM block): SPD
      SOLVED("lcp_deudeu.dat", "lemke"),
      SOLVED("lcp_deudeu.dat", "nlgs"),
      SOLVED("lcp_deudeu.dat", "psor"),
      SOLVED("lcp_deudeu.dat", "pgs_block"),
      SOLVED("lcp_deudeu.dat", "enum"),
      SOLVED("lcp_deudeu.dat", "newton_fb"),
      SOLVED("lcp_deudeu.dat", "newton_min"),
      SOLVED("lcp_deudeu_block.dat", "lemke"),
      SOLVED("lcp_deudeu_block.dat", "nlgs"),
      SOLVED("lcp_deudeu_block.dat", "psor"),
      SOLVED("lcp_deudeu_block.dat", "pgs_block"),
      SOLVED("lcp_deudeu_block.dat", "enum"),
      SOLVED("lcp_deudeu_block.dat", "newton_fb"),
      SOLVED("lcp_deudeu_block.dat", "newton_min"),

      // lcp_enum_fails: n = 9, zero diagonal, tiny q (1e-9 .. 2e-4)
      SOLVED("lcp_enum_fails.dat", "lemke"),
      ZERO_DIAG("lcp_enum_fails.dat", "M[2][2]"),
      SOLVED("lcp_enum_fails.dat", "pgs_block"),
      SOLVED("lcp_enum_fails.dat", "enum"),
      SOLVED("lcp_enum_fails.dat", "newton_fb"),
      SOLVED("lcp_enum_fails.dat", "newton_min"),

      // lcp_exp_murty: Murty's triangular P-matrix (the easy orientation for Lemke)
      SOLVED("lcp_exp_murty.dat", "lemke"),
      SOLVED("lcp_exp_murty.dat", "nlgs"),
      SOLVED("lcp_exp_murty.dat", "psor"),
      SOLVED("lcp_exp_murty.dat", "pgs_block"),
      SOLVED("lcp_exp_murty.dat", "enum"),
      SOLVED("lcp_exp_murty.dat", "newton_fb"),
      SOLVED("lcp_exp_murty.dat", "newton_min"),

      // lcp_inf_sol_perturbed: zero diagonal, a continuum of solutions perturbed
      SOLVED("lcp_inf_sol_perturbed.dat", "lemke"),
      ZERO_DIAG("lcp_inf_sol_perturbed.dat", "M[0][0]"),
      SOLVED("lcp_inf_sol_perturbed.dat", "pgs_block"),
      SOLVED("lcp_inf_sol_perturbed.dat", "enum"),
      SOLVED("lcp_inf_sol_perturbed.dat", "newton_fb"),
      SOLVED("lcp_inf_sol_perturbed.dat", "newton_min"),

      // lcp_ortiz (dense) and lcp_ortiz_block (2x2 SBM blocks)
      SOLVED("lcp_ortiz.dat", "lemke"),
      SOLVED("lcp_ortiz.dat", "nlgs"),
      SOLVED("lcp_ortiz.dat", "psor"),
      SOLVED("lcp_ortiz.dat", "pgs_block"),
      SOLVED("lcp_ortiz.dat", "enum"),
      SOLVED("lcp_ortiz.dat", "newton_fb"),
      SOLVED("lcp_ortiz.dat", "newton_min"),
      SOLVED("lcp_ortiz_block.dat", "lemke"),
      SOLVED("lcp_ortiz_block.dat", "nlgs"),
      SOLVED("lcp_ortiz_block.dat", "psor"),
      SOLVED("lcp_ortiz_block.dat", "pgs_block"),
      SOLVED("lcp_ortiz_block.dat", "enum"),
      SOLVED("lcp_ortiz_block.dat", "newton_fb"),
      SOLVED("lcp_ortiz_block.dat", "newton_min"),

      // lcp_trivial (dense) and lcp_trivial_block (1x1 SBM blocks): diagonal M
      SOLVED("lcp_trivial.dat", "lemke"),
      SOLVED("lcp_trivial.dat", "nlgs"),
      SOLVED("lcp_trivial.dat", "psor"),
      SOLVED("lcp_trivial.dat", "pgs_block"),
      SOLVED("lcp_trivial.dat", "enum"),
      SOLVED("lcp_trivial.dat", "newton_fb"),
      SOLVED("lcp_trivial.dat", "newton_min"),
      SOLVED("lcp_trivial_block.dat", "lemke"),
      SOLVED("lcp_trivial_block.dat", "nlgs"),
      SOLVED("lcp_trivial_block.dat", "psor"),
      SOLVED("lcp_trivial_block.dat", "pgs_block"),
      SOLVED("lcp_trivial_block.dat", "enum"),
      SOLVED("lcp_trivial_block.dat", "newton_fb"),
      SOLVED("lcp_trivial_block.dat", "newton_min"),

      // newton_min_fblsa: the min direction globalised on the Fischer-Burmeister
      // merit, whose stationary points are solutions here, solves every file
      SOLVED("lcp_CPS_1.dat", "newton_min_fblsa"),
      SOLVED("lcp_CPS_2.dat", "newton_min_fblsa"),
      SOLVED("lcp_CPS_3.dat", "newton_min_fblsa"),
      SOLVED("lcp_CPS_4.dat", "newton_min_fblsa"),
      SOLVED("lcp_CPS_4bis.dat", "newton_min_fblsa"),
      SOLVED("lcp_CPS_5.dat", "newton_min_fblsa"),
      SOLVED("lcp_Pang_isolated_sol.dat", "newton_min_fblsa"),
      SOLVED("lcp_deudeu.dat", "newton_min_fblsa"),
      SOLVED("lcp_deudeu_block.dat", "newton_min_fblsa"),
      SOLVED("lcp_enum_fails.dat", "newton_min_fblsa"),
      SOLVED("lcp_exp_murty.dat", "newton_min_fblsa"),
      SOLVED("lcp_inf_sol_perturbed.dat", "newton_min_fblsa"),
      SOLVED("lcp_ortiz.dat", "newton_min_fblsa"),
      SOLVED("lcp_ortiz_block.dat", "newton_min_fblsa"),
      SOLVED("lcp_trivial.dat", "newton_min_fblsa"),
      SOLVED("lcp_trivial_block.dat", "newton_min_fblsa"),
  };
  return rows;
}

#undef ZERO_DIAG
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

// Solve one file with one solver and check the outcome against the table;
// returns 1 if solved to tolerance.
int checkOne(const std::string& path, const std::string& solver) {
  const std::string file = baseName(path);
  const std::string what = file + " x " + solver;
  const Expectation* expect = find(file, solver);
  CPPUNIT_ASSERT_MESSAGE(what + ": no row in the expectation table", expect != nullptr);
  const NsdLcpSolver fn = lcpSolverByName(solver);
  CPPUNIT_ASSERT_MESSAGE(what + ": unknown solver", fn != nullptr);

  TestLcp t(readLcpFile(path));
  if (file.find("_block") != std::string::npos)
    CPPUNIT_ASSERT_EQUAL_MESSAGE(what + ": storage", NSD_SPARSE_BLOCK, t.get()->M->storage);
  t.opt.tolerance = kTolerance;
  if (solver == "nlgs" || solver == "psor" || solver == "pgs_block")
    t.opt.max_iterations = kFirstOrderSweeps;
  if (solver == "psor") t.opt.relaxation = 1.2;
  const NsdStatus status = t.solve(fn);
  const std::string got = what + ": " + describe(t.rep);

  if (expect->solved) {
    CPPUNIT_ASSERT_EQUAL_MESSAGE(got, NSD_OK, status);
    assertSolves(t, kTolerance);
    return 1;
  }

  nsdyn::test::assertExpectedFailure(got, expect->reason, status, t.rep, kTolerance);
  if (status != NSD_BAD_INPUT) {
    const double err = nsd_lcp_error(t.get(), t.z.data(), nullptr);
    CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(got, err, t.rep.residual, 1e-12 + 1e-9 * err);
  }
  return 0;
}

}  // namespace

class LcpDataTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(LcpDataTest);
  CPPUNIT_TEST(solvesFile);
  CPPUNIT_TEST(tableIsComplete);
  CPPUNIT_TEST_SUITE_END();

 public:
  void solvesFile() {
    const std::string file = param("file"), solver = param("solver");
    if (!file.empty() || !solver.empty()) {
      CPPUNIT_ASSERT_MESSAGE("give both file= and solver=", !file.empty() && !solver.empty());
      checkOne(file, solver);
      return;
    }

    // no parameters: the whole table, with a per-solver count
    std::map<std::string, int> solved;
    for (const Expectation& e : table())
      solved[e.solver] += checkOne(sharedLcpPath(e.file), e.solver);
    std::printf("\nshared LCP files solved to %.0e:", kTolerance);
    for (const auto& s : lcpSolvers()) std::printf(" %s %d,", s.name, solved[s.name]);
    std::printf("\n");
  }

  void tableIsComplete() {
    // one row per (file, solver), 16 files x 8 solvers
    checkExpectationTable(
        table(), [](const char* name) { return lcpSolverByName(name) != nullptr; }, 16,
        lcpSolvers().size());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(LcpDataTest);
