// The shared MLCP data files (../shared/data/mlcp) with every MLCP solver.
//
//   test_mlcp MlcpFileTest::solvesFile file=PATH solver=NAME   one (file, solver) pair
//   test_mlcp                                                   every pair of the table
//
// The table says, for each pair, whether the solver reaches the 1e-8 error with
// default options, and if not, the status it must return and why.
#include <cppunit/extensions/HelperMacros.h>

#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "mlcp_test_util.hpp"
#include "test_params.hpp"

using nsdyn::test::describe;
using nsdyn::test::MlcpSolver;
using nsdyn::test::mlcpSolver;
using nsdyn::test::mlcpSolvers;

namespace {

// Expected outcome of one (file, solver) pair: NSD_OK means error <= 1e-8.
struct Expectation {
  const char* file;     // stem of the file in data/mlcp
  const char* solver;   // "pgs", "enum", "lemke" or "newton"
  NsdStatus status;     // NSD_OK, or the non-OK status the solver must return
  const char* message;  // for a failure: a part of the report's message
  const char* reason;   // for a failure: why, in one line
};

// Row and block facts quoted below were checked on the files as read (M form,
// or the ABCD form where the M block is not square).
const Expectation kTable[] = {
    {"BuckConverter_mlcp", "pgs", NSD_BAD_INPUT, "free row 0",
     "PGS needs M_ii != 0 on free rows; the converter's M[0][0] is 0"},
    {"BuckConverter_mlcp", "enum", NSD_OK, "", ""},
    {"BuckConverter_mlcp", "lemke", NSD_OK, "", ""},
    {"BuckConverter_mlcp", "newton", NSD_OK, "", ""},

    {"BuckFirstStep_mlcp", "pgs", NSD_BAD_INPUT, "free row 0",
     "PGS needs M_ii != 0 on free rows; the converter's M[0][0] is 0"},
    {"BuckFirstStep_mlcp", "enum", NSD_OK, "", ""},
    {"BuckFirstStep_mlcp", "lemke", NSD_OK, "", ""},
    {"BuckFirstStep_mlcp", "newton", NSD_OK, "", ""},

    {"PDSym_mlcp", "pgs", NSD_OK, "", ""},
    {"PDSym_mlcp", "enum", NSD_OK, "", ""},
    {"PDSym_mlcp", "lemke", NSD_OK, "", ""},
    {"PDSym_mlcp", "newton", NSD_OK, "", ""},

    {"PD_mlcp", "pgs", NSD_BAD_INPUT, "free row 0",
     "PGS needs M_ii != 0 on free rows; the diode bridge's M[0][0] is 0"},
    {"PD_mlcp", "enum", NSD_OK, "", ""},
    {"PD_mlcp", "lemke", NSD_FAILED, "singular",
     "the Schur step needs the free-row block A invertible; here rows 0 and 1 of A are opposite"},
    {"PD_mlcp", "newton", NSD_OK, "", ""},

    {"RCD_mlcp", "pgs", NSD_BAD_INPUT, "bounded row 2",
     "PGS needs M_ii > 0 on complementarity rows; the diode row has M[2][2] = 0"},
    {"RCD_mlcp", "enum", NSD_OK, "", ""},
    {"RCD_mlcp", "lemke", NSD_OK, "", ""},
    {"RCD_mlcp", "newton", NSD_OK, "", ""},

    {"RLCD_mlcp", "pgs", NSD_BAD_INPUT, "free row 0",
     "PGS needs M_ii != 0 on free rows; the circuit's M[0][0] is 0"},
    {"RLCD_mlcp", "enum", NSD_OK, "", ""},
    {"RLCD_mlcp", "lemke", NSD_OK, "", ""},
    {"RLCD_mlcp", "newton", NSD_OK, "", ""},

    // read in the ABCD form (its M block is 3x2): M = [[1,-1],[1,1]], q = (0,-1)
    {"Rectangular_mlcp", "pgs", NSD_MAX_ITERATIONS, "after 1000 iterations",
     "Gauss-Seidel cycles on M = [[1,-1],[1,1]]: z alternates between (0,1) and (1,0)"},
    {"Rectangular_mlcp", "enum", NSD_OK, "", ""},
    {"Rectangular_mlcp", "lemke", NSD_OK, "", ""},
    {"Rectangular_mlcp", "newton", NSD_OK, "", ""},

    {"deudeu_mlcp", "pgs", NSD_OK, "", ""},
    {"deudeu_mlcp", "enum", NSD_OK, "", ""},
    {"deudeu_mlcp", "lemke", NSD_OK, "", ""},
    {"deudeu_mlcp", "newton", NSD_OK, "", ""},

    {"diodeBridge20_mlcp", "pgs", NSD_BAD_INPUT, "free row 0",
     "PGS needs M_ii != 0 on free rows; the diode bridge's M[0][0] is 0"},
    {"diodeBridge20_mlcp", "enum", NSD_OK, "", ""},  // 20 diodes: about 6e5 of 2^20 cases
    {"diodeBridge20_mlcp", "lemke", NSD_FAILED, "singular",
     "the Schur step needs the free-row block A invertible; rows 0 and 1 of this 11x11 A are "
     "opposite"},
    {"diodeBridge20_mlcp", "newton", NSD_OK, "", ""},

    {"diodeBridge_mlcp", "pgs", NSD_BAD_INPUT, "free row 0",
     "PGS needs M_ii != 0 on free rows; the diode bridge's M[0][0] is 0"},
    {"diodeBridge_mlcp", "enum", NSD_OK, "", ""},
    {"diodeBridge_mlcp", "lemke", NSD_FAILED, "singular",
     "the Schur step needs the free-row block A invertible; here rows 0 and 1 of A are opposite"},
    {"diodeBridge_mlcp", "newton", NSD_OK, "", ""},

    {"m2n1_mlcp", "pgs", NSD_OK, "", ""},
    {"m2n1_mlcp", "enum", NSD_OK, "", ""},
    {"m2n1_mlcp", "lemke", NSD_OK, "", ""},
    {"m2n1_mlcp", "newton", NSD_OK, "", ""},

    {"m3n2_mlcp", "pgs", NSD_OK, "", ""},
    {"m3n2_mlcp", "enum", NSD_OK, "", ""},
    {"m3n2_mlcp", "lemke", NSD_OK, "", ""},
    {"m3n2_mlcp", "newton", NSD_OK, "", ""},

    {"relay2_mlcp", "pgs", NSD_BAD_INPUT, "free row 0",
     "PGS needs M_ii != 0 on free rows; the relay circuit's M[0][0] is 0"},
    {"relay2_mlcp", "enum", NSD_OK, "", ""},
    {"relay2_mlcp", "lemke", NSD_OK, "", ""},
    {"relay2_mlcp", "newton", NSD_OK, "", ""},

    {"relay3_mlcp", "pgs", NSD_BAD_INPUT, "free row 0",
     "PGS needs M_ii != 0 on free rows; the relay circuit's M[0][0] is 0"},
    {"relay3_mlcp", "enum", NSD_OK, "", ""},
    {"relay3_mlcp", "lemke", NSD_OK, "", ""},
    {"relay3_mlcp", "newton", NSD_OK, "", ""},
};

const double kTolerance = 1e-8;

std::string dataDir() {
  return std::string(NSDYN_SHARED_DIR) + "/data/mlcp";
}

const Expectation* find(const std::string& stem, const std::string& solver) {
  for (const Expectation& e : kTable)
    if (stem == e.file && solver == e.solver) return &e;
  return nullptr;
}

// Read @p path, solve with @p solver and check the outcome against the table.
void checkPair(const std::string& path, const std::string& solver_name) {
  std::string stem = std::filesystem::path(path).stem().string();
  const Expectation* e = find(stem, solver_name);
  CPPUNIT_ASSERT_MESSAGE("no expectation for " + stem + " with " + solver_name, e != nullptr);
  MlcpSolver solver = mlcpSolver(solver_name);
  CPPUNIT_ASSERT_MESSAGE("unknown solver " + solver_name, solver.solve != nullptr);

  NsdProblem prob = NsdProblem();
  NsdReport rrep = NsdReport();
  NsdStatus rst = nsd_read_problem(path.c_str(), NSD_KIND_MLCP, &prob, &rrep);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(path + ": " + rrep.message, NSD_OK, rst);
  CPPUNIT_ASSERT(prob.mlcp != nullptr);
  const NsdMlcp* p = prob.mlcp;

  std::vector<double> z(p->size, 0.0), w(p->size, 0.0);
  NsdSolverOptions opt;
  nsd_solver_options_default(&opt);
  opt.tolerance = kTolerance;
  NsdReport rep = NsdReport();
  NsdStatus st = solver.solve(p, z.data(), w.data(), &opt, &rep);
  std::string what = stem + " " + describe(solver.name, rep) + "; expected " +
                     nsd_status_name(e->status) +
                     (e->reason[0] ? std::string(": ") + e->reason : "");

  if (e->status == NSD_OK) {
    // solved: the status, and the error recomputed here, meet the tolerance
    CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_OK, st);
    double error = nsd_mlcp_error(p, z.data(), nullptr);
    CPPUNIT_ASSERT_MESSAGE(what + ", recomputed " + std::to_string(error), error <= kTolerance);
    for (int i = 0; i < p->size; ++i)
      CPPUNIT_ASSERT_MESSAGE(what + ", z outside its bounds", z[i] >= p->lb[i] && z[i] <= p->ub[i]);
  } else {
    // expected failure: the announced status, a message, and no false claim
    CPPUNIT_ASSERT_EQUAL_MESSAGE(what, e->status, st);
    CPPUNIT_ASSERT_MESSAGE(what + ", message lacks '" + e->message + "'",
                           std::strstr(rep.message, e->message) != nullptr);
    if (st != NSD_BAD_INPUT) {
      double error = nsd_mlcp_error(p, z.data(), nullptr);
      CPPUNIT_ASSERT_MESSAGE(what + ", but error " + std::to_string(error), error > kTolerance);
      CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what, error, rep.residual, 1e-12 * (1 + error));
    }
  }
  nsd_problem_clear(&prob);
}

}  // namespace

class MlcpFileTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(MlcpFileTest);
  CPPUNIT_TEST(tableCoversEveryFile);
  CPPUNIT_TEST(solvesFile);
  CPPUNIT_TEST_SUITE_END();

 public:
  // Every file has one entry per solver, and every entry names an existing file.
  void tableCoversEveryFile() {
    std::set<std::string> stems;
    for (const auto& entry : std::filesystem::directory_iterator(dataDir()))
      if (entry.path().extension() == ".dat") stems.insert(entry.path().stem().string());
    CPPUNIT_ASSERT(!stems.empty());
    for (const std::string& stem : stems)
      for (const MlcpSolver& s : mlcpSolvers())
        CPPUNIT_ASSERT_MESSAGE("no expectation for " + stem + " with " + s.name,
                               find(stem, s.name) != nullptr);
    for (const Expectation& e : kTable) {
      CPPUNIT_ASSERT_MESSAGE(std::string("table names a missing file: ") + e.file,
                             stems.count(e.file) == 1);
      CPPUNIT_ASSERT_MESSAGE(
          std::string("an expected failure needs a reason and a message: ") + e.file + " " +
              e.solver,
          e.status == NSD_OK || (std::strlen(e.reason) > 0 && std::strlen(e.message) > 0));
    }
  }

  // One pair when file= and solver= are given (the per-file ctests), else every pair.
  void solvesFile() {
    std::string file = nsdyn::test::param("file"), solver = nsdyn::test::param("solver");
    if (!file.empty() || !solver.empty()) {
      checkPair(file, solver);
      return;
    }
    for (const Expectation& e : kTable) checkPair(dataDir() + "/" + e.file + ".dat", e.solver);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(MlcpFileTest);
