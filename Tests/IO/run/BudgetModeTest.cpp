// Budget mode (issue 24, item 4): a problem with mode="budget" accepts every step whose
// solver stops at its budget, whatever the residual, and reports it (step.residual,
// step.above_tolerance, the summary); the same run in tolerance mode fails as before; bad
// values are refused with file:line. A 3×3×3 stack of touching spheres on a floor, NSGS
// with 3 sweeps to 1e-8: tolerance mode fails at the first step.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "run_helpers.hpp"

namespace {

using namespace nsdyn::test;

/// The stack's model in @p dir, with @p problem the attributes of <FrictionContact> after
/// dim and solver, and @p options those of <options>.
std::string stackModel(const std::string& dir, const std::string& problem,
                       const std::string& options = "tolerance=\"1e-8\" max-iterations=\"3\"") {
  const std::string path = dir + "/Budget.xml";
  std::ofstream(path)
      << "<nsdyn version=\"1\" name=\"Budget\">\n"
         "  <model>\n"
         "    <scene gravity=\"0 0 -9.81\">\n"
         "      <ContactManager><material mu=\"0.5\" restitution=\"0\"/></ContactManager>\n"
         "      <container lower=\"0 0 0\" upper=\"0.3 0.3 1\" planes=\"true\"/>\n"
         "      <latticePacking count=\"27\">\n"
         "        <particle kind=\"sphere\" radius=\"0.05\" density=\"2500\"/>\n"
         "        <region lower=\"0 0 0\" upper=\"0.3 0.3 1\"/>\n"
         "      </latticePacking>\n"
         "    </scene>\n"
         "  </model>\n"
         "  <simulation type=\"TimeStepping\" T=\"0.03\" h=\"1e-3\">\n"
         "    <MoreauJeanOSI theta=\"0.5\"/>\n"
         "    <FrictionContact dim=\"3\" solver=\"nsgs\" "
      << problem
      << ">\n"
         "      <options "
      << options
      << "/>\n"
         "    </FrictionContact>\n"
         "  </simulation>\n"
         "  <outputs>\n"
         "    <output name=\"Budget\">\n"
         "      <column name=\"t\" value=\"t\"/>\n"
         "      <column name=\"iterations\" value=\"step.solver_iterations\"/>\n"
         "      <column name=\"residual\" value=\"step.residual\"/>\n"
         "      <column name=\"above\" value=\"step.above_tolerance\"/>\n"
         "    </output>\n"
         "  </outputs>\n"
         "</nsdyn>\n";
  return path;
}

Run runModel(const std::string& model, const std::string& dir, const std::string& extra = "") {
  return run("'" + kBin + "/nsdyn' run '" + model + "' --no-plot --quiet --output '" + dir +
             "/out'" + extra);
}

bool has(const Run& r, const std::string& text) {
  return r.out.find(text) != std::string::npos;
}

}  // namespace

class BudgetModeTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(BudgetModeTest);
  CPPUNIT_TEST(budgetNeverFailsAStep);
  CPPUNIT_TEST(toleranceModeFailsAsBefore);
  CPPUNIT_TEST(badValuesRefused);
  CPPUNIT_TEST_SUITE_END();

 public:
  // every step accepted, exit 0; the residual above the tolerance in the CSV, counted in the
  // summary with the largest residual
  void budgetNeverFailsAStep() {
    const std::string dir = scratch("budget-mode");
    const Run r = runModel(stackModel(dir, "mode=\"budget\""), dir);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    const Csv csv = readCsv(dir + "/out/Budget.csv");
    CPPUNIT_ASSERT_EQUAL(std::size_t(31), csv.rows.size());  // t0 and 30 steps
    CPPUNIT_ASSERT_EQUAL(std::string("residual"), csv.names[2]);
    CPPUNIT_ASSERT_EQUAL(std::string("above"), csv.names[3]);
    long above = 0;
    double largest = 0.0;
    for (std::size_t k = 1; k < csv.rows.size(); ++k) {
      const std::vector<double>& row = csv.rows[k];
      CPPUNIT_ASSERT(row[1] <= 3.0);  // the budget holds: no fallback, no retry
      if (row[3] == 1.0) {
        ++above;
        CPPUNIT_ASSERT_EQUAL(3.0, row[1]);
        CPPUNIT_ASSERT(row[2] > 1e-8);
      } else {
        CPPUNIT_ASSERT_EQUAL(0.0, row[3]);
        CPPUNIT_ASSERT(row[2] <= 1e-8);
      }
      largest = std::max(largest, row[2]);
    }
    CPPUNIT_ASSERT_MESSAGE(r.out, above >= 10);
    char line[160];
    std::snprintf(line, sizeof line,
                  "above tolerance:         %ld solves (budget mode: accepted, tolerance 1e-08)",
                  above);
    CPPUNIT_ASSERT_MESSAGE(r.out + "\n(expected: " + line + ")", has(r, line));
    std::snprintf(line, sizeof line, "max solver residual:     %.3g", largest);
    CPPUNIT_ASSERT_MESSAGE(r.out + "\n(expected: " + line + ")", has(r, line));
    CPPUNIT_ASSERT_MESSAGE(r.out, has(r, "solver calls:            30 (0 failed)"));
    // the summary names the solver that ran the steps
    CPPUNIT_ASSERT_MESSAGE(
        r.out, has(r, "solver:                  nsgs, tolerance 1e-08, at most 3 iterations"));
    CPPUNIT_ASSERT_MESSAGE(r.out, !has(r, "failed step"));
  }

  // the same run in tolerance mode (the default, and mode="tolerance"): the first step fails
  // and the run stops there with exit status 1
  void toleranceModeFailsAsBefore() {
    for (const std::string mode : {"", "mode=\"tolerance\""}) {
      const std::string dir = scratch("tolerance-mode");
      const Run r = runModel(stackModel(dir, mode), dir);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 1, r.status);
      CPPUNIT_ASSERT_MESSAGE(r.out, has(r,
                                        "1 failed step (solver status not ok); the first at "
                                        "step 1"));
      CPPUNIT_ASSERT_MESSAGE(r.out, has(r,
                                        "above tolerance:         1 solve (stopped at the budget: "
                                        "failed, tolerance 1e-08)"));
      const Csv csv = readCsv(dir + "/out/Budget.csv");
      CPPUNIT_ASSERT_EQUAL(std::size_t(2), csv.rows.size());  // t0 and the failed step
      CPPUNIT_ASSERT_EQUAL(1.0, csv.rows[1][3]);
      CPPUNIT_ASSERT(csv.rows[1][2] > 1e-8);
      // --on-failure continue: every step runs, each one failed
      const Run all = runModel(stackModel(dir, mode), dir, " --on-failure continue");
      CPPUNIT_ASSERT_EQUAL_MESSAGE(all.out, 1, all.status);
      CPPUNIT_ASSERT_MESSAGE(all.out, has(all, "solver calls:            30 (30 failed)"));
    }
  }

  // a mode other than tolerance or budget, a fallback in budget mode: exit 3 naming
  // file:line, the attribute and the value
  void badValuesRefused() {
    const std::string dir = scratch("budget-refusals");
    const struct {
      std::string problem, expected;
    } cases[] = {
        {"mode=\"fast\"",
         "Budget.xml:14: <FrictionContact>: attribute 'mode': expected one of tolerance, budget, "
         "found 'fast'"},
        {"mode=\"budget\" fallback=\"newton_ac\"",
         "Budget.xml:14: <FrictionContact>: attribute 'fallback': no fallback solver in "
         "mode=\"budget\""},
    };
    for (const auto& c : cases) {
      const Run r = runModel(stackModel(dir, c.problem), dir);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 3, r.status);
      CPPUNIT_ASSERT_MESSAGE(r.out + "\n(expected: " + c.expected + ")", has(r, c.expected));
    }
    const Run r = runModel(stackModel(dir, "mode=\"budget\"", "max-iterations=\"0\""), dir);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 3, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out, has(r, "Budget.xml:15") && has(r, "max-iterations"));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(BudgetModeTest);
